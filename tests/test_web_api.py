"""The web app through Starlette's test client: the JSON API (same JSON as the CLI), the HTML
pages (ruling, errors beside their field, rows, download/upload, slip, compare) and every
bad-input path (400/413/415/422 with a message, never a stack trace), plus `serve`'s options."""

from __future__ import annotations

import argparse
import json
import re
from fractions import Fraction
import shutil
from html import unescape
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from bridgelaw.ruling.case import load_case
from bridgelaw.commands.cli import main as cli_main
from bridgelaw.commands import cli
from bridgelaw.commands import serve as web_cli
from bridgelaw.web import forms, service
from bridgelaw.web.app import CSP, MAX_BODY, create_app

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_07 = REPO / "cases" / "wbf-commentary-2017" / "example-07.yaml"
EXAMPLE_09 = REPO / "cases" / "wbf-commentary-2017" / "example-09.yaml"

# A teams case with a weighted list and a gambling action (example 7's deal, B weighted):
# A = IMP(-500 + 170) = -8, B = 2/3 × IMP(-100 + 170) + 1/3 × IMP(620 + 170) = 2/3 × 2 + 1/3 × 13 = 17/3,
# C = IMP(-420 + 170) = -6; A < C < B: split, NS get A + B - C = 11/3, EW get B' = -17/3.
WEIGHTED_CASE = {
    "title": "Gamble after a weighted 4H",
    "rulebook": "wbf-2017",
    "scoring": "imps",
    "board": {"number": 7, "vulnerability": "NS"},
    "non_offending": "NS",
    "table_result": "5HX-2 N",
    "other_table": "3S+1 W",
    "without_infraction": [{"result": "4H-1 N", "weight": "2/3"}, {"result": "4H= N", "weight": "1/3"}],
    "serious_error": {"kind": "gambling", "instead": "4S= W"},
}
FORM = {
    "rulebook": "wbf-2017", "title": "Gamble after a weighted 4H", "source": "Spring Teams, session 2",
    "scoring": "imps", "board_number": "7", "vulnerability": "NS", "kind": "assigned", "non_offending": "NS",
    "table_result": "5HX-2 N", "other_table": "3S+1 W", "b_mode": "weighted",
    "wi_result_0": "4H-1 N", "wi_weight_0": "2/3", "wi_result_1": "4H= N", "wi_weight_1": "1/3",
    "se_kind": "gambling", "se_instead": "4S= W", "action": "rule",
}
NO_TRACE = ("Traceback", "File \"", "line ", "Error(")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def cli_json(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert cli_main(list(argv)) == 0
    return capsys.readouterr().out


def scores(html: str) -> dict[str, str]:
    return dict(re.findall(r'id="score-(NS|EW)">([^<]*)<', html))


def field_error(html: str, name: str) -> str | None:
    m = re.search(rf'<p class="error" id="e-{re.escape(name)}">(.*?)</p>', html, re.S)
    return unescape(re.sub(r"<[^>]+>", "", m[1])).strip() if m else None


def assert_no_trace(text: str) -> None:
    assert "Traceback" not in text and 'File "' not in text


# --- GET /api/rulebooks -------------------------------------------------------------------------

def test_api_rulebooks_is_the_cli_json(client, capsys):
    r = client.get("/api/rulebooks")
    assert r.status_code == 200
    assert r.json() == json.loads(cli_json(capsys, "rulebooks", "--format", "json"))
    ids = [b["id"] for b in r.json()]
    assert "wbf-2007" in ids and "wbf-2017" in ids


# --- POST /api/rule -----------------------------------------------------------------------------

def test_api_rule_yaml_is_the_cli_json_compact(client, capsys):
    r = client.post("/api/rule", content=EXAMPLE_07.read_text(), headers={"content-type": "application/yaml"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    cli = json.loads(cli_json(capsys, "rule", str(EXAMPLE_07), "--format", "json"))
    assert r.json() == cli                                   # the same document, key for key, in the same order
    assert r.text == json.dumps(cli, separators=(",", ":"), ensure_ascii=False) + "\n"
    data = r.json()
    assert (data["outcome"], data["nos"]["exact"], data["os"]["exact"]) == ("split", "0", "-2")


def test_api_rule_json_case_weighted_with_gamble(client):
    r = client.post("/api/rule", json=WEIGHTED_CASE)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["outcome"] == "split"
    assert data["sides"]["NS"]["exact"] == "11/3"
    assert data["sides"]["EW"]["exact"] == "-17/3"
    assert data["quantities"]["B"]["exact"] == "17/3"
    assert "12C1(e)(ii)" in [c["paragraph"] for c in data["citations"]]
    assert data["rulebook"]["id"] == "wbf-2017" and len(data["rulebook"]["sha256"]) == 64


def test_api_answers_written_by_orjson_read_back_as_json_writes_them(monkeypatch):
    """The API's answer (render.as_json_bytes, orjson with the web extra) is the CLI's document:
    every corpus case under every shipped rulebook that rules it reads back the same; without
    orjson, json writes it compact, byte for byte what it wrote before."""
    from bridgelaw.render import ruling as render
    from bridgelaw.rulebook import available, get
    from bridgelaw.ruling.build import rule_case
    assert render.orjson is not None                      # the web extra brings it
    books = [get(name) for name in available()]
    checked = 0
    for path in sorted((REPO / "cases").rglob("*.yaml")):
        case = load_case(path)
        for book in books:
            try:
                ruling = rule_case(case, book)
            except Exception:                             # out of the rulebook's scope or dates
                continue
            fast = render.as_json_bytes(ruling, case)
            assert json.loads(fast) == json.loads(render.as_json(ruling, case)), (path, book.id)
            with monkeypatch.context() as m:
                m.setattr(render, "orjson", None)
                plain = render.as_json_bytes(ruling, case)
            assert plain == (json.dumps(render.as_dict(ruling, case), separators=(",", ":"), ensure_ascii=False)
                             + "\n").encode()
            assert fast == plain or json.loads(fast) == json.loads(plain)
            checked += 1
    assert checked >= 458                                 # 58 cases under the rulebooks that cover them


def test_api_json_with_half_a_surrogate_pair_is_named(client):
    """JSON may escape half of a surrogate pair; it is refused as malformed JSON at its place (it
    was reported as malformed YAML, a format the client never sent). A whole pair reads as its
    character."""
    cases = [({**WEIGHTED_CASE, "title": "a\ud800b"}, "\\ud800 in title"),
             ({"case": {**WEIGHTED_CASE, "without_infraction": [{"result": "x\udc00", "weight": "1"}]}},
              "\\udc00 in case.without_infraction[0].result"),
             ({**WEIGHTED_CASE, "\ud83c": 1}, "\\ud83c in a key of the top level")]
    for data, where in cases:
        r = client.post("/api/rule", content=json.dumps(data), headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"] == (f"malformed JSON: {where} is half of a surrogate pair, "
                                                              "not a character"), r.text
    r = client.post("/api/rule", content=json.dumps({**WEIGHTED_CASE, "title": "joker \U0001f0cf"}),
                    headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["title"] == "joker \U0001f0cf"


def test_compact_json_leaves_what_orjson_refuses_to_json():
    from bridgelaw.render.ruling import compact_json
    assert compact_json({"n": 2 ** 70, "s": "é"}) == '{"n":1180591620717411303424,"s":"é"}\n'.encode()
    assert compact_json({"n": 2 ** 40, "s": "é−×"}) == '{"n":1099511627776,"s":"é−×"}\n'.encode()
    assert json.loads(compact_json({"f": 1e-05, "g": [1.5, None, True]})) == {"f": 1e-05, "g": [1.5, None, True]}
    with pytest.raises(TypeError):                       # what json refuses stays refused
        compact_json({"d": object()})


def _json_case(path: Path) -> bytes:
    """A case file of the corpus as the JSON object a scoring program would send (dates as text)."""
    from bridgelaw.core.yamlio import load_yaml
    return json.dumps(load_yaml(path).tree, default=lambda d: d.isoformat()).encode()


def test_api_rule_json_answers_as_yaml_without_writing_yaml(client, monkeypatch):
    """Every case of the corpus sent as JSON gets the very answer its YAML gets, byte for byte;
    a plain JSON case is ruled from its tree (writing YAML from it and reading that again cost
    2 ms of a request), so YAML is never written for one."""
    written = []
    dump_yaml = forms.dump_yaml
    monkeypatch.setattr(forms, "dump_yaml", lambda *a, **k: written.append(1) or dump_yaml(*a, **k))
    paths = sorted((REPO / "cases").rglob("*.yaml"))
    assert len(paths) >= 50
    for path in paths:
        as_yaml = client.post("/api/rule", content=path.read_bytes(), headers={"content-type": "application/yaml"})
        as_json = client.post("/api/rule", content=_json_case(path), headers={"content-type": "application/json"})
        assert as_yaml.status_code == as_json.status_code == 200, (path, as_json.text[:300])
        assert as_json.content == as_yaml.content, path
    assert written == []
    r = client.post("/api/rule", content=_json_case(EXAMPLE_07), headers={"content-type": "application/json"})
    assert (r.json()["outcome"], r.json()["nos"]["exact"], r.json()["os"]["exact"]) == ("split", "0", "-2")


@pytest.mark.parametrize("notes", ["tab\there", "bell\a", "x" * 3 + "\u2028" + "y", 12345678901234567890, 1e20,
                                   {"<<": {"a": 1}}])
def test_api_rule_json_that_is_not_plain_goes_the_yaml_way(client, monkeypatch, notes):
    """JSON whose YAML reading is not plain to see (tabs, control characters, line separators,
    long numbers, exponents, merge keys) is written as YAML and read back, as before: the same
    answer (here the notes are not part of it: 11/3 and -17/3 either way)."""
    written = []
    dump_yaml = forms.dump_yaml
    monkeypatch.setattr(forms, "dump_yaml", lambda *a, **k: written.append(1) or dump_yaml(*a, **k))
    r = client.post("/api/rule", json={**WEIGHTED_CASE, "notes": notes})
    assert written == [1]
    if r.status_code == 200:
        assert (r.json()["sides"]["NS"]["exact"], r.json()["sides"]["EW"]["exact"]) == ("11/3", "-17/3")
    else:                                             # refused the YAML way (notes must be text): its message
        assert r.status_code == 422 and r.json()["path"] == "notes", r.text


def test_api_rule_json_errors_are_the_yaml_ways(client):
    """A JSON case with a mistake is reported exactly as before the direct way existed: found
    again the YAML way, with the key path (no line and column: the client sent no YAML)."""
    r = client.post("/api/rule", json={**WEIGHTED_CASE, "without_infraction": [
        {"result": "4H-1 N", "weight": "2/3"}, {"result": "4H= N", "weight": "1/2"}]})
    assert r.status_code == 422
    data = r.json()
    assert (data["file"], data["line"], data["column"]) == ("request", None, None)
    assert data["path"] and data["path"].startswith("without_infraction") and "1" in data["error"]


_TEXT = st.text(st.sampled_from(list("ab \n:#-'\"|>{}[]&*!%@`,?~\u00e9")), max_size=30) \
    | st.text(st.sampled_from(list("a \n\u00a0\u2028\t\x00\x85\x7f")), max_size=3) \
    | st.sampled_from(["", "true", "no", "null", "~", "1", "0x1f", "1e3", "2017-02-30", "2024-05-01", "1/2", "60%",
                       ".inf", "<<", "- a", "a: b", "  lead", "trail  ", "\n", "a\n\n", " \nb", "#c"])
_LEAF = _TEXT | st.booleans() | st.none() | st.integers(-10 ** 6, 10 ** 6) | st.integers(-10 ** 6, 10 ** 6).map(lambda i: i / 64) \
    | st.sampled_from([10 ** 15 - 1, 10 ** 15, -10 ** 17, 0.1, 15.08, 1e15, 1e16, 1e-7, 123456789012345.6, 2.0 ** 70]) \
    | st.floats(allow_nan=False, allow_infinity=False)
_KEY = st.text(st.sampled_from(list("ab :#-'\"|>{}[]&*!%@`,?~")), max_size=8) | _TEXT
_TREE = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEY, inner, max_size=4),
                     max_leaves=8)


def _typed(value):
    if isinstance(value, dict):
        return ("map", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [_typed(v) for v in value])
    return (type(value).__name__, value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_KEY, _TREE, min_size=1, max_size=5))
def test_plain_tree_is_what_the_yaml_way_reads(tree):
    """The claim the direct JSON way rests on: where plain_tree gives a tree, it is exactly —
    types included (True is not 1, "1" is not 1) — what the YAML way reads from the YAML it
    writes of the JSON tree."""
    from bridgelaw.web.jsonbody import plain_tree
    from bridgelaw.core.yamlio import load_yaml
    plain = plain_tree(tree)
    if plain is None:
        return
    assert _typed(load_yaml("request", text=forms.dump_yaml(tree)).tree) == _typed(plain)


def test_plain_tree_examples():
    from bridgelaw.web.jsonbody import plain_tree
    assert plain_tree({"a": "x\ny", "b": ["1", 1, 1.5, True, None], "c": "x\n"}) == \
        {"a": "x\ny\n", "b": ["1", 1, 1.5, True, None], "c": "x\n"}
    assert plain_tree({"a": [[0] * 5000] * 3}) is not None                    # 15,004 values: within the budget
    for bad in ({"a": "t\tb"}, {"a": "\x00"}, {"a": 10 ** 15}, {"a": 1e16}, {"<<": 1}, {"a\nb": 1}, {"a": [{"b": b"x"}]},
                {"a": [[0] * 5000] * 4 + [[0] * 5]}, {"a": [0] * 5001}):
        assert plain_tree(bad) is None, bad


def test_api_rule_matchpoints_exact(client):
    r = client.post("/api/rule", content=EXAMPLE_09.read_text(), headers={"content-type": "text/yaml"})
    assert r.status_code == 200
    assert (r.json()["nos"]["exact"], r.json()["os"]["exact"]) == ("17/2", "27/2")


def test_api_rule_rulebook_override_by_wrapper_and_query(client):
    wrapped = client.post("/api/rule", json={"case": WEIGHTED_CASE, "rulebook": "wbf-2007"})
    assert wrapped.status_code == 200 and wrapped.json()["rulebook"]["id"] == "wbf-2007"
    query = client.post("/api/rule?rulebook=wbf-2007", json=WEIGHTED_CASE)
    assert query.status_code == 200 and query.json()["rulebook"]["id"] == "wbf-2007"
    text = client.post("/api/rule", json={"case": EXAMPLE_07.read_text()})
    assert text.status_code == 200 and text.json()["nos"]["exact"] == "0"


@pytest.mark.parametrize("body, headers, status, words", [
    (b"", {"content-type": "application/json"}, 400, "no body"),
    (b"{not json", {"content-type": "application/json"}, 400, "malformed JSON"),
    (b"[1, 2]", {"content-type": "application/json"}, 400, "expected a JSON object"),
    (b'{"case": 5}', {"content-type": "application/json"}, 400, "case must be"),
    (b"\xff\xfe\x00", {"content-type": "application/yaml"}, 400, "not UTF-8"),
    (b"title: [unclosed", {"content-type": "application/yaml"}, 400, "malformed YAML"),
    (b"- a list\n- not a case\n", {"content-type": "application/yaml"}, 400, "expected a mapping"),
    (b"<case/>", {"content-type": "application/xml"}, 415, "unsupported content type"),
])
def test_api_rule_malformed_bodies(client, body, headers, status, words):
    r = client.post("/api/rule", content=body, headers=headers)
    assert r.status_code == status
    assert words in r.json()["error"]
    assert_no_trace(r.text)


def test_api_rule_invalid_case_json_names_the_path(client):
    bad = json.loads(json.dumps(WEIGHTED_CASE))
    bad["without_infraction"][1]["weight"] = "a third"
    r = client.post("/api/rule", json=bad)
    assert r.status_code == 422
    data = r.json()
    assert data["path"] == "without_infraction.1.weight"
    assert "expected a number" in data["error"]
    assert data["line"] is None and data["file"] == "request"     # JSON: no positions in YAML it never sent


def test_api_rule_invalid_case_yaml_gives_line_and_column(client):
    text = EXAMPLE_07.read_text().replace("table_result: 5HX-2 N", "table_result: 5HX-12 N")
    r = client.post("/api/rule", content=text, headers={"content-type": "application/yaml"})
    assert r.status_code == 422
    data = r.json()
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("table_result"))
    assert (data["path"], data["line"], data["column"]) == ("table_result", line, 15)
    assert "5HX-12" in data["error"]


def test_api_rule_weights_not_summing_to_one(client):
    bad = {**WEIGHTED_CASE, "without_infraction": [{"result": "4H-1 N", "weight": "2/3"},
                                                   {"result": "4H= N", "weight": "1/4"}]}
    r = client.post("/api/rule", json=bad)
    assert r.status_code == 422
    assert r.json()["error"] == "the weights sum to 11/12, not 1"
    assert r.json()["path"] == "without_infraction"


@pytest.mark.parametrize("name", ["wbf-2018", "../rules/wbf-2017", "/etc/passwd", "rules/wbf-2017.yaml",
                                  "wbf-2017.yaml"])
def test_api_rule_unknown_rulebook_is_never_a_path(client, name):
    r = client.post("/api/rule", json={**WEIGHTED_CASE, "rulebook": name})
    assert r.status_code == 422
    assert r.json()["error"] == f"unknown rulebook '{name}'"
    assert r.json()["path"] == "rulebook"
    assert "wbf-2017" in r.json()["expected"]


def test_api_rule_unknown_rulebook_suggests(client):
    r = client.post("/api/rule?rulebook=wbf-2071", json=WEIGHTED_CASE)
    assert r.status_code == 422
    assert r.json()["suggestion"] == "did you mean 'wbf-2017'?"


def test_api_rule_rulebook_must_be_text(client):
    r = client.post("/api/rule", json={"case": WEIGHTED_CASE, "rulebook": ["wbf-2017"]})
    assert r.status_code == 400 and "rulebook id" in r.json()["error"]


def test_api_rule_weighted_list_too_long(client):
    many = [{"result": "4H= N", "weight": "1/21"}] * 21
    r = client.post("/api/rule", json={**WEIGHTED_CASE, "without_infraction": many})
    assert r.status_code == 422
    assert r.json()["error"] == "without_infraction lists 21 entries; at most 20 are accepted here"


def test_api_rule_field_too_long(client):
    case = {"title": "Big field", "rulebook": "wbf-2017", "scoring": "matchpoints", "board": {"vulnerability": "None"},
            "non_offending": "NS", "field": ["NS +420"] * (forms.MAX_FIELD + 1), "without_infraction": "3NT= S"}
    r = client.post("/api/rule", json=case)
    assert r.status_code == 422 and "at most 1000" in r.json()["error"]


def test_api_body_too_large_by_content_length(client):
    r = client.post("/api/rule", content=b"x" * (MAX_BODY + 1), headers={"content-type": "application/yaml"})
    assert r.status_code == 413
    assert "256 KiB" in r.json()["error"]
    assert r.headers["content-security-policy"] == CSP


def test_api_body_too_large_streamed_without_length(client):
    def chunks():
        for _ in range(9):
            yield b"#" * (32 * 1024) + b"\n"
    r = client.post("/api/rule", content=chunks(), headers={"content-type": "application/yaml"})
    assert r.status_code == 413 and "256 KiB" in r.json()["error"]


def test_api_wrong_method_and_unknown_path(client):
    r = client.get("/api/rule")
    assert r.status_code == 405 and "error" in r.json()
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "There is no such page."}


def test_internal_error_has_no_trace(monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("secret internals")
    monkeypatch.setattr(service, "rule_document", boom)      # the YAML way and the JSON way
    c = TestClient(create_app(), raise_server_exceptions=False)
    r = c.post("/api/rule", json=WEIGHTED_CASE)
    assert r.status_code == 500
    assert "secret internals" not in r.text and "Traceback" not in r.text
    assert "not a problem with what you entered" in r.json()["error"]
    assert r.headers["content-security-policy"] == CSP
    page = c.post("/", data=FORM)
    assert page.status_code == 500 and "secret internals" not in page.text


# --- POST /api/compare --------------------------------------------------------------------------

def test_api_compare_is_the_cli_json(client, capsys):
    r = client.post("/api/compare", json={"case": EXAMPLE_07.read_text(), "rulebooks": ["wbf-2007", "wbf-2017"]})
    assert r.status_code == 200
    cli = json.loads(cli_json(capsys, "compare", "--rulebooks", "wbf-2007,wbf-2017", str(EXAMPLE_07),
                              "--format", "json"))
    cli["cases"][0]["path"] = "request"
    assert r.json() == cli
    rulings = r.json()["cases"][0]["rulings"]
    assert rulings["wbf-2017"]["NS"]["exact"] == "0" and rulings["wbf-2017"]["EW"]["exact"] == "-2"


def test_api_compare_query_and_default(client):
    r = client.post("/api/compare?rulebooks=wbf-2017", json=WEIGHTED_CASE)
    assert r.status_code == 200
    assert [b["id"] for b in r.json()["rulebooks"]] == ["wbf-2017"]
    assert r.json()["cases"][0]["rulings"]["wbf-2017"]["NS"]["exact"] == "11/3"
    every = client.post("/api/compare", json=WEIGHTED_CASE)
    assert [b["id"] for b in every.json()["rulebooks"]] == service.Books().ids()


@pytest.mark.parametrize("payload, status, words", [
    ({"case": WEIGHTED_CASE, "rulebooks": "wbf-2017"}, 400, "must be a list"),
    ({"case": WEIGHTED_CASE, "rulebooks": [1, 2]}, 400, "must be a list"),
    ({"case": WEIGHTED_CASE, "rulebooks": []}, 400, "names no rulebook"),
    ({"case": WEIGHTED_CASE, "rulebooks": ["wbf-2017", "../etc/passwd"]}, 422, "unknown rulebook '../etc/passwd'"),
    ({"case": {**WEIGHTED_CASE, "scoring": "impz"}}, 422, "'impz' is not allowed"),
])
def test_api_compare_bad_input(client, payload, status, words):
    r = client.post("/api/compare", json=payload)
    assert r.status_code == status
    assert words in r.json()["error"]
    assert_no_trace(r.text)


# --- the ruling page ------------------------------------------------------------------------------

def test_home_page_has_labels_and_security_headers(client):
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-security-policy"] == CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "<script" not in r.text
    html = r.text
    ids = re.findall(r'<(?:input|select|textarea)[^>]*\bid="([^"]+)"', html)
    hidden = re.findall(r'<input type="hidden"[^>]*>', html)
    assert ids and not hidden
    for i in ids:
        if i.startswith(("scoring-", "kind-", "non_offending-", "b_mode-")):
            continue                                          # radios: wrapped in their <label>
        assert f'for="{i}"' in html, f"no label for {i}"
    assert client.head("/").status_code == 200


def test_form_rules_weighted_case_with_gamble(client):
    r = client.post("/", data=FORM)
    assert r.status_code == 200
    assert scores(r.text) == {"NS": "+3 2/3 IMPs (+3.67)", "EW": "-5 2/3 IMPs (-5.67)"}
    assert "<dt>12C1(e)(ii)</dt>" in r.text
    assert 'class="outcome-id">split<' in r.text
    sha = service.Books().get("wbf-2017").sha256
    assert f'id="rulebook-sha256">{sha}<' in r.text
    # the form stays filled in
    assert 'name="wi_weight_1" value="1/3"' in r.text and 'value="gambling" selected' in r.text


def test_form_and_cli_agree_on_every_corpus_case(client, capsys):
    """Open each case file on the page: the form rebuilds it and the page shows the CLI's scores."""
    for path in sorted((REPO / "cases").rglob("*.yaml")):
        r = client.post("/upload", files={"case_file": (path.name, path.read_bytes(), "application/yaml")})
        data = json.loads(cli_json(capsys, "rule", str(path), "--format", "json"))
        assert r.status_code == 200, (path, field_error(r.text, "general"))
        assert f'class="outcome-id">{data["outcome"]}<' in r.text, path


@pytest.mark.parametrize("change, name, words", [
    ({"wi_weight_1": "a third"}, "wi_weight_1", "expected a number such as"),
    ({"wi_result_0": "4H-14 N"}, "wi_result_0", "4H-14"),
    ({"wi_weight_1": "1/4"}, "wi", "The weights sum to 11/12, not 1"),
    ({"table_result": "5HX-12 N"}, "table_result", "5HX-12"),
    # without the other table results are ruled in table points (issue 22); beside an IMP score they cannot be
    ({"other_table": "", "se_instead": "-6 IMP"}, "table_result", "other_table is missing"),
    ({"title": ""}, "title", "This is needed here"),
    ({"board_number": "seven"}, "board_number", "Must be a whole number"),
    ({"vulnerability": "Everyone"}, "vulnerability", "'Everyone' is not allowed"),
    ({"se_instead": "4S+7 W"}, "se_instead", "4S+7"),
    ({"rulebook": "../../etc/passwd"}, "rulebook", "Unknown rulebook '../../etc/passwd'"),
    ({"date": "2010-05-01"}, "date", "in force from 2017-03-01"),
    ({"b_mode": "one", "b_result": ""}, "b_result", "exactly one of without_infraction"),
])
def test_form_errors_appear_beside_their_field(client, change, name, words):
    r = client.post("/", data={**FORM, **change})
    assert r.status_code == 422
    message = field_error(r.text, name)
    shown = re.findall(r'id="e-([^"]+)"', r.text)
    assert message is not None, f"no error beside {name}; errors beside: {shown}"
    assert words.lower() in message.lower()
    assert 'aria-invalid="true"' in r.text or name in ("general", "wi")
    assert 'class="error-summary"' in r.text
    assert_no_trace(r.text)


def test_form_artificial_score(client):
    form = {"rulebook": "wbf-2017", "title": "Board fouled", "scoring": "matchpoints", "board_number": "14",
            "vulnerability": "NS", "results_on_board": "11", "kind": "artificial",
            "art_ns": "in-no-way-at-fault", "art_ew": "directly-at-fault", "session_ns": "71.6%",
            "session_ew": "35%", "action": "rule"}
    r = client.post("/", data=form)
    assert r.status_code == 200
    assert scores(r.text)["NS"].startswith("14 8/25 matchpoints")
    assert scores(r.text)["EW"].startswith("7 matchpoints")


def test_form_rows_add_and_remove(client):
    r = client.post("/", data={**FORM, "action": "add-row"})
    assert r.status_code == 200 and 'name="wi_result_2"' in r.text and 'id="score-NS"' not in r.text
    r = client.post("/", data={**FORM, "action": "remove-row-0"})
    assert 'name="wi_result_0" value="4H= N"' in r.text and 'name="wi_result_1"' not in r.text
    full = {**FORM, **{f"wi_result_{i}": "4H= N" for i in range(forms.MAX_ROWS)}}
    r = client.post("/", data={**full, "action": "add-row"})
    assert f'name="wi_result_{forms.MAX_ROWS}"' not in r.text and 'id="add-row"' not in r.text


def test_form_ignores_rows_past_the_limit(client):
    r = client.post("/", data={**FORM, "wi_result_500": "7NT= N", "wi_weight_500": "1"})
    assert r.status_code == 200 and "7NT= N" not in r.text


def test_download_then_upload_round_trip(client):
    r = client.post("/case.yaml", data={**FORM, "notes": "Asked three players.\nAll bid 4H."})
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="board-7-gamble-after-a-weighted-4h.yaml"'
    text = r.text
    assert text.startswith("# bridgelaw case, saved from the web page")
    case = load_case("downloaded.yaml", text=text)
    assert case.model.source == "Spring Teams, session 2" and case.model.notes.startswith("Asked three")
    back = client.post("/upload", files={"case_file": ("downloaded.yaml", text.encode(), "application/yaml")})
    assert back.status_code == 200
    assert scores(back.text) == {"NS": "+3 2/3 IMPs (+3.67)", "EW": "-5 2/3 IMPs (-5.67)"}
    assert 'name="wi_weight_0" value="2/3"' in back.text


def test_upload_fills_the_poll_and_keeps_what_the_form_cannot_show(client, capsys):
    poll = REPO / "docs" / "cases.md"
    text = re.search(r"```yaml\n(title: Poll.*?)```", poll.read_text(), re.S)[1]
    r = client.post("/upload", files={"case_file": ("poll.yaml", text.encode(), "application/yaml")})
    assert r.status_code == 200
    html = unescape(r.text)
    assert 'id="b_mode-poll" value="poll" checked' in html and 'name="poll_polled" value="6"' in html
    assert 'name="poll_result_1" value="3NT+2 S"' in html
    assert "Kept from the opened file" in html and "outcome: none-self-inflicted" in html
    assert scores(r.text) == {"NS": "+7 IMPs", "EW": "-7 IMPs"}
    extra = unescape(re.search(r'name="extra" value="([^"]*)"', r.text)[1])
    again = client.post("/case.yaml", data={"rulebook": "wbf-2017", "title": "Poll", "scoring": "imps",
                                            "vulnerability": "None", "non_offending": "NS", "table_result": "3NT-1 S",
                                            "other_table": "5D+1 S", "b_mode": "poll", "poll_polled": "6",
                                            "poll_action_0": "6D", "poll_votes_0": "3", "poll_result_0": "6D= S",
                                            "poll_action_1": "3NT", "poll_votes_1": "3",
                                            "poll_result_1": "3NT+2 S 1/2; 3NT+1 S 1/2", "extra": extra})
    case = load_case("again.yaml", text=again.text)
    assert case.model.poll.polled == 6 and case.model.expect.nos == 7
    assert [(r.result.text, r.chance) for r in case.model.poll.choices[1].results] == [
        ("3NT+2 S", Fraction(1, 2)), ("3NT+1 S", Fraction(1, 2))]


@pytest.mark.parametrize("content, words, status", [
    (b"\xff\xfe\xfa", "not a text file in UTF-8", 400),
    (b"title: [unclosed\n", "malformed YAML", 400),
    (b"just text\n", "expected a mapping", 400),
    ("without_infraction: [" + ", ".join(["{result: 4H= N, weight: 1/30}"] * 30) + "]\n",
     "without_infraction lists 30 entries", 422),
])
def test_upload_bad_files(client, content, words, status):
    data = content.encode() if isinstance(content, str) else content
    r = client.post("/upload", files={"case_file": ("bad.yaml", data, "application/yaml")})
    assert r.status_code == status
    assert words in field_error(r.text, "general")


def test_upload_without_a_file(client):
    r = client.post("/upload", files={"other": ("x.txt", b"x", "text/plain")})
    assert r.status_code == 400 and "Choose a case file" in field_error(r.text, "general")


def test_upload_too_large(client):
    r = client.post("/upload", files={"case_file": ("big.yaml", b"#" * (MAX_BODY + 10), "application/yaml")})
    assert r.status_code == 413 and "256 KiB" in r.text


def test_slip(client):
    r = client.post("/slip", data=FORM)
    assert r.status_code == 200
    html = r.text
    assert "Director's ruling" in html
    assert re.search(r'id="slip-score-NS">\+3 2/3 IMPs', html) and re.search(r'id="slip-score-EW">-5 2/3 IMPs', html)
    assert "<dt>12C1(e)(ii)</dt>" in html and 'id="slip-head-board">7<' in html
    assert "Director</th>" in html and "Players informed at</th>" in html
    assert 'id="slip-bridge-EW">4H-1 N 66 2/3%, 4H= N 33 1/3%<' in html
    assert "the right to appeal expires 30 minutes after the official score" in html
    assert service.Books().get("wbf-2017").sha256 in html
    bad = client.post("/slip", data={**FORM, "table_result": "nonsense"})
    assert bad.status_code == 422 and field_error(bad.text, "table_result")


def test_compare_page_marks_differences(client):
    get = client.get("/compare")
    # the rulebooks in force today are chosen to start with (issue 32), not all twelve
    checked = re.findall(r'name="compare" value="([\w-]+)" checked', get.text)
    assert get.status_code == 200 and checked == ["ebu", "wbf-2017", "wbf-laws-committee-2017"]
    r = client.post("/compare", data={**FORM, "compare_sent": "1", "compare": ["wbf-2007", "wbf-2017"],
                                      "action": "compare"})
    assert r.status_code == 200
    rows = {label.strip(): cls for cls, label in re.findall(r'<tr class="([^"]*)">\s*<th scope="row">([^<]*)', r.text)}
    # both editions split the damage with the same scores; they cite different paragraphs, worded differently
    assert rows["Outcome"] == rows["NS score"] == rows["EW score"] == rows["Rules applied"] == ""
    assert rows["Paragraphs cited"] == "differs" and rows["12C1(e)(ii)"] == "differs paragraph"
    table = r.text.split('id="compare-table"')[1].split("</table>")[0]
    assert table.count("≠ differs") == sum(cls.startswith("differs") for cls in rows.values())
    cells = re.findall(r'<th scope="row">NS score</th>\s*<td data-label="wbf-2007">([^<]*)</td>'
                       r'<td data-label="wbf-2017">([^<]*)</td>', r.text)
    assert cells == [("+3 2/3 IMPs (+3.67) (non-offending)", "+3 2/3 IMPs (+3.67) (non-offending)")]
    # in a row that differs only the cells that differ from the first rulebook's are marked
    cited = table.split('<th scope="row">Paragraphs cited <strong class="flag">≠ differs</strong></th>')[1].split("</tr>")[0]
    assert re.findall(r'<td( class="differs")? data-label="[\w-]+">', cited) == ["", ' class="differs"']
    # an undated case under a rulebook no longer in force is not "in force: yes"
    assert re.findall(r'<th scope="row">In force for this case</th>\s*<td data-label="wbf-2007">([^<]*)</td>'
                      r'<td data-label="wbf-2017">([^<]*)</td>', r.text) == [
        ("no: in force from 2008-01-01 to 2017-12-31; ruled as on its last day (the case gives no date)", "yes")]


def test_compare_page_needs_a_rulebook(client):
    r = client.post("/compare", data={**FORM, "compare_sent": "1", "action": "compare"})
    assert r.status_code == 422 and "at least one rulebook" in field_error(r.text, "compare")
    r = client.post("/compare", data={**FORM, "compare_sent": "1", "compare": ["nope"], "action": "compare"})
    assert r.status_code == 422 and "Unknown rulebook 'nope'" in field_error(r.text, "compare")


def test_compare_from_the_ruling_page_uses_the_rulebooks_in_force_on_the_case_date(client):
    r = client.post("/compare", data={**FORM, "action": "compare"})
    assert r.status_code == 200
    assert re.findall(r'<th scope="col">([\w-]+)</th>', r.text.split('id="compare-table"')[1].split("</thead>")[0])[1:] == ["ebu", "wbf-2017", "wbf-laws-committee-2017"]
    r = client.post("/compare", data={**FORM, "date": "2010-06-01", "rulebook": "wbf-2007", "action": "compare"})
    assert r.status_code == 200
    assert re.findall(r'<th scope="col">([\w-]+)</th>', r.text.split('id="compare-table"')[1].split("</thead>")[0])[1:] == [
        "acbl-2007", "dbf-2007", "ebl-2008-vp-proposal", "ebl-2008", "wbf-2007", "wbf-laws-committee-2007"]
    assert all(b.covers(__import__("datetime").date(2010, 6, 1)) for b in service.Books().all()
               if b.id in ("acbl-2007", "wbf-2007"))


def test_unknown_page_and_method(client):
    assert client.get("/nothing").status_code == 404
    assert client.get("/slip").status_code == 405


# --- --rules DIR, hosts, serve --------------------------------------------------------------------

def test_rules_directory_is_the_only_source(tmp_path):
    shutil.copy(REPO / "rules" / "wbf-2017.yaml", tmp_path / "wbf-2017.yaml")
    c = TestClient(create_app(tmp_path))
    assert [b["id"] for b in c.get("/api/rulebooks").json()] == ["wbf-2017"]
    r = c.post("/api/rule", json={**WEIGHTED_CASE, "rulebook": "wbf-2007"})
    assert r.status_code == 422 and r.json()["expected"] == "one of wbf-2017"


def test_empty_rules_directory_is_refused(tmp_path):
    with pytest.raises(Exception, match="no rulebooks"):
        create_app(tmp_path)


def test_loopback_server_refuses_other_host_names():
    c = TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://localhost")
    assert c.get("/").status_code == 200
    evil = TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://evil.example")
    assert evil.get("/").status_code == 400


def _serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bridgelaw")
    web_cli.add_parser(parser.add_subparsers(dest="command"))
    return parser


def test_serve_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        _serve_parser().parse_args(["serve", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "--host" in out and "--port" in out and "--rules DIR" in out and "127.0.0.1" in out


def test_serve_defaults_and_bad_options(capsys, tmp_path):
    args = _serve_parser().parse_args(["serve"])
    assert (args.host, args.port, args.rules, args.only_rules) == ("127.0.0.1", 8000, [], None)
    with pytest.raises(SystemExit):
        _serve_parser().parse_args(["serve", "--port", "http"])
    assert "not a port number" in capsys.readouterr().err
    assert cli.main(["serve", "--only-rules", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert cli.main(["serve", "--only-rules", str(tmp_path)]) == 2
    assert "no rulebooks" in capsys.readouterr().err
    assert cli.main(["serve", "--rules", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.endswith("missing: no such folder (expected a folder holding rulebook files (*.yaml))\n")
    assert cli.main(["serve", "--rules", str(tmp_path)]) == 2
    assert "no rulebooks (*.yaml) in it" in capsys.readouterr().err
    assert web_cli.is_loopback("127.0.0.1") and web_cli.is_loopback("::1") and not web_cli.is_loopback("0.0.0.0")


# --- traveller: page and POST /api/score ----------------------------------------------------------

TRAVELLERS = REPO / "travellers"
TRAVELLER_09 = TRAVELLERS / "wbf-2017-example-09.yaml"
traveller_needed = pytest.mark.skipif(not TRAVELLER_09.exists(), reason="no travellers/ in this checkout")


def table_cells(html: str, table: int) -> tuple[str, str]:
    m = re.search(rf'id="table-{table}">.*?class="num score-ns">([^<]*)</td><td class="num score-ew">([^<]*)<', html, re.S)
    return (m[1], m[2]) if m else ("", "")


@traveller_needed
def test_api_score_is_the_cli_json(client, capsys):
    r = client.post("/api/score", content=TRAVELLER_09.read_text(), headers={"content-type": "application/yaml"})
    assert r.status_code == 200, r.text
    cli = json.loads(cli_json(capsys, "score", str(TRAVELLER_09), "--format", "json"))
    cli["file"] = "request.yaml"
    assert r.json() == cli
    t2 = next(t for t in r.json()["tables"] if t["table"] == 2)
    assert (t2["NS"]["score"]["exact"], t2["EW"]["score"]["exact"]) == ("17/2", "27/2")


@traveller_needed
def test_api_score_pbn_with_adjustments(client, capsys):
    payload = {"traveller": (TRAVELLERS / "board-09.pbn").read_text(),
               "adjustments": (TRAVELLERS / "board-09.adjustments.yaml").read_text()}
    r = client.post("/api/score", json=payload)
    assert r.status_code == 200, r.text
    cli = json.loads(cli_json(capsys, "score", str(TRAVELLERS / "board-09.pbn"), "--adjustments",
                              str(TRAVELLERS / "board-09.adjustments.yaml"), "--format", "json"))
    assert {k: v for k, v in r.json().items() if k != "file"} == {k: v for k, v in cli.items() if k != "file"}
    t2 = next(t for t in r.json()["tables"] if t["table"] == 2)
    assert t2["NS"]["score"]["exact"] == "223/24"                     # 9 7/24 after Neuberg (13 results)


@traveller_needed
@pytest.mark.parametrize("body, kind, status, words", [
    ("", "application/yaml", 400, "no body"),
    ("{oops", "application/json", 400, "malformed JSON"),
    ('{"adjustments": "x"}', "application/json", 400, '"traveller"'),
    ('{"traveller": "x", "board": "9"}', "application/json", 400, "board must be a whole number"),
    ('{"traveller": "x", "scoring": "imps"}', "application/json", 422, "unknown scoring 'imps'"),
    ('{"traveller": "x", "format": "csv"}', "application/json", 400, "format must be yaml or pbn"),
    ("<t/>", "application/xml", 415, "unsupported content type"),
    ("title: [unclosed", "application/yaml", 400, "malformed YAML"),
    ("pbn: /etc/passwd\nrulebook: wbf-2017\n", "application/yaml", 422, "does not read files from the server"),
    ("title: T\nrulebook: /etc/passwd.yaml\nboard: {vulnerability: None}\ntables: [{table: 1, result: 4H= S}]\n",
     "application/yaml", 422, "unknown rulebook '/etc/passwd.yaml'"),
])
def test_api_score_bad_input(client, body, kind, status, words):
    r = client.post("/api/score", content=body.encode(), headers={"content-type": kind})
    assert r.status_code == status
    assert words in r.json()["error"]
    assert_no_trace(r.text)


@traveller_needed
def test_api_score_positions_an_error(client):
    text = TRAVELLER_09.read_text().replace("weight: 1/6}", "weight: 1/5}", 1)
    r = client.post("/api/score", content=text, headers={"content-type": "application/yaml"})
    assert r.status_code == 422
    assert r.json()["file"] == "request.yaml" and r.json()["line"] is not None
    assert "sum to" in r.json()["error"]


@traveller_needed
def test_api_score_rulebook_override_must_be_listed(client):
    r = client.post("/api/score?rulebook=../../etc/passwd", content=TRAVELLER_09.read_text(),
                    headers={"content-type": "application/yaml"})
    assert r.status_code == 422 and "Unknown rulebook '../../etc/passwd'" in r.json()["error"]


@traveller_needed
def test_traveller_page_yaml_pasted(client):
    assert client.get("/traveller").status_code == 200
    r = client.post("/traveller", data={"traveller": TRAVELLER_09.read_text()})
    assert r.status_code == 200
    assert table_cells(r.text, 2) == ("8 1/2 (8.5) = 38.64%", "13 1/2 (13.5) = 61.36%")   # top 22
    assert 'class="adjusted" id="table-2"' in r.text


@traveller_needed
def test_traveller_page_pbn_uploaded_with_adjustments(client):
    files = {"traveller_file": ("board-09.pbn", (TRAVELLERS / "board-09.pbn").read_bytes(), "text/plain"),
             "adjustments_file": ("board-09.adjustments.yaml", (TRAVELLERS / "board-09.adjustments.yaml").read_bytes(),
                                  "text/plain")}
    r = client.post("/traveller", files=files)
    assert r.status_code == 200
    assert table_cells(r.text, 2) == ("9 7/24 (9.29) = 38.72%", "14 17/24 (14.71) = 61.28%")
    assert "artificial: NS avg-plus, EW avg-minus" in r.text


@traveller_needed
@pytest.mark.parametrize("data, name, words, status", [
    ({"traveller": ""}, "traveller", "Paste a traveller", 400),
    ({"traveller": "title: x", "adjustments": "tables: []"}, "adjustments", "Adjustments go with a PBN", 400),
    ({"traveller": "pbn: ../secret.pbn\n"}, "traveller", "does not read files from the server", 422),
    ({"traveller": "x", "board": "nine", "name": "t.pbn"}, "board", "whole number", 400),
])
def test_traveller_page_errors(client, data, name, words, status):
    r = client.post("/traveller", data=data)
    assert r.status_code == status
    assert words in field_error(r.text, name)


# --- issue 9, item 1: no file writes from a request, no cross-site posts -----------------------------

@traveller_needed
@pytest.mark.parametrize("name", ["../../escaped.pbn", "{tmp}/absolute.pbn", "..\\..\\escaped.pbn",
                                  "sub/../../escaped.yaml"])
def test_traveller_name_never_becomes_a_path(client, tmp_path, monkeypatch, name):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "t"))      # any temporary folder would be here
    (tmp_path / "t").mkdir()
    target = tmp_path / "victim"
    target.mkdir()
    monkeypatch.chdir(target / "")
    name = name.format(tmp=target)
    data = {"traveller": (TRAVELLERS / "board-09.pbn").read_text(),
            "adjustments": (TRAVELLERS / "board-09.adjustments.yaml").read_text(), "name": name}
    r = client.post("/traveller", data=data)
    if name.endswith(".pbn"):
        assert r.status_code == 200, r.text
        assert table_cells(r.text, 2) == ("9 7/24 (9.29) = 38.72%", "14 17/24 (14.71) = 61.28%")
    else:                                                    # a .yaml name: read as a YAML traveller
        assert r.status_code == 400 and "Adjustments go with a PBN" in r.text
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert written == ["t", "victim"]                                   # nothing written anywhere


@pytest.mark.parametrize("headers", [
    {"origin": "https://evil.example"},
    {"origin": "null"},
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site", "origin": "http://other.testserver"},
])
@pytest.mark.parametrize("path", ["/", "/traveller", "/api/rule"])
def test_cross_site_posts_are_refused(client, headers, path):
    if path == "/api/rule":
        r = client.post(path, json=WEIGHTED_CASE, headers=headers)
        assert r.status_code == 403 and "another site" in r.json()["error"]
    else:
        r = client.post(path, data=FORM, headers=headers)
        assert r.status_code == 403 and "another site" in r.text
    assert r.headers["content-security-policy"] == CSP


@pytest.mark.parametrize("headers", [
    {},                                                                  # curl and scripts send neither header
    {"origin": "http://testserver", "sec-fetch-site": "same-origin"},  # the page itself
    {"sec-fetch-site": "none"},                                          # typed into the address bar
])
def test_same_origin_and_command_line_posts_work(client, headers):
    r = client.post("/api/rule", json=WEIGHTED_CASE, headers=headers)
    assert r.status_code == 200, r.text
    assert r.json()["sides"]["NS"]["exact"] == "11/3"


# --- no growth under load (issue 9, item 3) --------------------------------------------------------

CORPUS = sorted((REPO / "cases").rglob("*.yaml"))


def test_parsing_keeps_no_state_between_documents():
    from bridgelaw.core import yamlio
    for path in CORPUS[:5]:
        doc = yamlio.load_yaml(path)
        doc.position(["title"])                       # composes the node tree as well
    for yaml in (yamlio._loaders.fast, yamlio._loaders.events):
        assert yaml.doc_infos == []
        constructor = getattr(yaml, "_constructor", None)
        assert constructor is None or constructor.constructed_objects == {}


def test_a_request_parses_its_case_once_and_does_not_list_the_rules_folder(client, monkeypatch):
    from bridgelaw import rulebook
    from bridgelaw.core import yamlio
    client.get("/api/rulebooks")                     # listed once, now kept
    parses, listings = [], []
    fast_tree, available = yamlio._fast_tree, rulebook.available
    monkeypatch.setattr(yamlio, "_fast_tree", lambda *a, **k: parses.append(1) or fast_tree(*a, **k))
    monkeypatch.setattr(rulebook, "available", lambda *a, **k: listings.append(1) or available(*a, **k))
    r = client.post("/api/rule", content=EXAMPLE_07.read_text(), headers={"content-type": "application/yaml"})
    assert r.status_code == 200 and r.json()["outcome"]
    assert (len(parses), len(listings)) == (1, 0)


def test_rules_folder_changes_are_noticed_and_a_bad_one_keeps_the_last_good(tmp_path, caplog):
    shutil.copy(REPO / "rules" / "wbf-2017.yaml", tmp_path / "wbf-2017.yaml")
    books = service.Books(tmp_path, recheck=3600)
    assert list(books.load()) == ["wbf-2017"]
    shutil.copy(REPO / "rules" / "wbf-2007.yaml", tmp_path / "wbf-2007.yaml")
    os_utime_later(tmp_path)
    assert books.ids() == ["wbf-2007", "wbf-2017"]          # the folder's mtime changed: listed again
    (tmp_path / "ebu.yaml").write_text("rulebook: ebu\ntitle: [unclosed\n")
    os_utime_later(tmp_path)
    assert books.ids() == ["wbf-2007", "wbf-2017"]          # the broken one is logged, the last good kept
    assert "no longer loads" in caplog.text
    with pytest.raises(Exception, match=r"ebu\.yaml:3:1: malformed YAML"):   # at start it stops the server
        service.Books(tmp_path).load()


def os_utime_later(folder: Path) -> None:
    import os
    st = folder.stat()
    os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


SOAK = int(__import__("os").environ.get("BRIDGELAW_WEB_SOAK", "2000"))


def test_server_memory_does_not_grow_with_requests():
    """Issue 9: the server grew ~1.5 KB per request (ruamel's YAML object kept a DocInfo and every
    constructed node of each parse). After a warm-up that fills the caches, SOAK (2,000) more
    requests over the corpus must leave the Python heap where it was: the count of allocated
    blocks (sys.getallocatedblocks, which costs nothing per request, unlike tracemalloc) may grow
    by at most 2,000 — without the fix it grows by about 9 blocks a request, ~18,000 over 2,000
    (BRIDGELAW_WEB_SOAK=5000 for a longer soak)."""
    import gc
    import sys
    bodies = [p.read_text() for p in CORPUS]
    headers = {"content-type": "application/yaml"}
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        def run(n: int) -> int:
            for i in range(n):
                r = c.post("/api/rule", content=bodies[i % len(bodies)], headers=headers)
                assert r.status_code == 200, (CORPUS[i % len(bodies)], r.text)
            gc.collect()
            return sys.getallocatedblocks()

        filled = run(3 * len(bodies))
        grown = run(SOAK) - filled
    print(f"memory: {grown} more allocated blocks after {SOAK} requests")
    assert grown < 2000, f"{grown} more allocated blocks after {SOAK} requests ({grown / SOAK:.1f} per request)"


# --- availability: bounded work, deep JSON, Host names (issue 9 item 4, issue 14) -------------------

@pytest.mark.parametrize("body", ["[" * 100_000 + "]" * 100_000,
                                  '{"case": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}",
                                  '{"title": "T", "notes": ' + "[" * 900 + "]" * 900 + "}"])
@pytest.mark.parametrize("path", ["/api/rule", "/api/compare", "/api/score"])
def test_deep_json_is_a_400_not_a_500(client, body, path):
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] in ("the JSON is nested more than 32 levels deep",
                                 'expected a JSON object with "traveller": the traveller text (YAML or PBN)')


def test_json_depth_is_measured_without_recursion():
    from bridgelaw.web.jsonbody import json_depth
    assert json_depth({"a": [1, {"b": []}]}) == 4
    assert json_depth(3) == 0
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    assert json_depth(deep) == 33                       # stops counting past the limit


def slow_app(monkeypatch, seconds: float, time_limit: float):
    import time as time_
    case_of = service.case_of              # every way of reading a case (ruling, comparing, the form) calls it
    monkeypatch.setattr(service, "case_of", lambda *a: time_.sleep(seconds) or case_of(*a))
    return create_app(time_limit=time_limit)


def test_work_past_the_time_limit_is_a_503(monkeypatch):
    import time as time_
    c = TestClient(slow_app(monkeypatch, 1.0, 0.2), raise_server_exceptions=False)
    start = time_.monotonic()
    r = c.post("/api/compare", json=WEIGHTED_CASE)
    assert r.status_code == 503 and time_.monotonic() - start < 0.9
    assert r.json()["error"].startswith("This request took longer than 0.2 seconds")
    assert r.headers["retry-after"] == "5"
    r = c.post("/", data=FORM)
    assert r.status_code == 503 and "took longer than 0.2 seconds" in r.text


def test_work_runs_off_the_event_loop(monkeypatch):
    """Slow work does not hold up another request on the same event loop (before, every ruling
    ran inside the async handler and the second request waited for it)."""
    import asyncio
    import time as time_
    app = slow_app(monkeypatch, 0.6, 5)
    body = json.dumps(WEIGHTED_CASE).encode()

    async def call(method: str, path: str, payload: bytes = b"") -> tuple[int, float]:
        scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
                 "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                             (b"content-length", str(len(payload)).encode())],
                 "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 9),
                 "root_path": "", "state": {}}
        sent, status = False, [0]

        async def receive() -> dict:
            nonlocal sent
            if sent:
                await asyncio.sleep(10)
            sent = True
            return {"type": "http.request", "body": payload, "more_body": False}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
        await app(scope, receive, send)
        return status[0], time_.monotonic()

    async def both() -> tuple:
        start = time_.monotonic()
        slow = asyncio.create_task(call("POST", "/api/compare", body))
        await asyncio.sleep(0.05)
        quick = await call("GET", "/api/rulebooks")
        return start, quick, await slow

    start, (quick_status, quick_done), (slow_status, slow_done) = asyncio.run(both())
    assert (quick_status, slow_status) == (200, 200)
    assert quick_done - start < 0.5 < slow_done - start


def test_every_route_works_in_the_pool_under_the_time_limit(monkeypatch):
    """Issue 24: POST /api/rule used to be ruled in the event loop's own thread, without a time
    limit (a 240 KB JSON body held a worker's loop for 8.3 s); now its work goes to the pool, as
    every other route's does, and a ruling past the limit is a 503."""
    import threading
    threads = []
    case_of = service.case_of
    monkeypatch.setattr(service, "case_of", lambda *a: threads.append(threading.current_thread().name) or case_of(*a))
    c = TestClient(create_app())
    assert c.post("/api/rule", json=WEIGHTED_CASE).json()["nos"]["exact"] == "11/3"
    assert c.post("/api/compare", json=WEIGHTED_CASE).status_code == 200
    assert c.post("/api/rule", content=EXAMPLE_07.read_bytes(), headers={"content-type": "application/yaml"}
                  ).status_code == 200
    assert len(threads) == 3 and all(t.startswith("bridgelaw-work-") for t in threads)
    slow = TestClient(slow_app(monkeypatch, 1.0, 0.2), raise_server_exceptions=False)
    r = slow.post("/api/rule", json=WEIGHTED_CASE)
    assert r.status_code == 503 and r.json()["error"].startswith("This request took longer than 0.2 seconds")


def test_host_names_with_a_network_bind():
    """With a non-local bind the Host check stays on: IP addresses (what a phone on the network
    uses) and the --allow-host names pass; any other DNS name — as a DNS-rebinding page sends — is
    refused."""
    app = create_app(allowed_hosts=["127.0.0.1", "localhost", "td-laptop.local"], ip_hosts=True)
    for base, status in [("http://192.168.1.20:8000", 200), ("http://[fe80::1]:8000", 200),
                         ("http://td-laptop.local:8000", 200), ("http://TD-Laptop.local", 200),
                         ("http://rebind.attacker.example:8000", 400), ("http://192.168.1.20.nip.io", 400)]:
        assert TestClient(app, base_url=base).get("/api/rulebooks").status_code == status, base
    local = create_app(allowed_hosts=["127.0.0.1", "localhost", "::1", "[::1]"])
    assert TestClient(local, base_url="http://[::1]:8000").get("/api/rulebooks").status_code == 200
    assert TestClient(local, base_url="http://192.168.1.20:8000").get("/api/rulebooks").status_code == 400


def test_serve_options(capsys):
    args = _serve_parser().parse_args(["serve"])
    assert (args.workers, args.allow_hosts, args.time_limit, args.read_timeout, args.per_client, args.http) == \
        (None, [], 10.0, 15.0, 16, "auto")
    assert _serve_parser().parse_args(["serve", "--http", "h11"]).http == "h11"
    args = _serve_parser().parse_args(["serve", "--workers", "3", "--allow-host", "a.local", "--allow-host", "b",
                                       "--port", "0"])
    assert (args.workers, args.allow_hosts, args.port) == (3, ["a.local", "b"], 0)
    for bad in (["--workers", "0"], ["--workers", "two"], ["--time-limit", "-1"], ["--per-client", "0"],
                ["--http", "h2"]):
        with pytest.raises(SystemExit):
            _serve_parser().parse_args(["serve", *bad])
    err = capsys.readouterr().err
    assert "0 is out of range (expected more than 0 and at most 64)" in err and "'two' is not a whole number" in err
    assert web_cli.default_workers() >= 1


def test_the_app_factory_carries_the_options_to_a_worker(tmp_path):
    import pickle
    from bridgelaw.web.server import AppFactory, Options
    shutil.copy(REPO / "rules" / "wbf-2017.yaml", tmp_path / "wbf-2017.yaml")
    factory = pickle.loads(pickle.dumps(AppFactory(Options(rules=str(tmp_path), allowed_hosts=("127.0.0.1",),
                                                                 time_limit=2.5))))
    app = factory()
    assert app.app.state.work.limit == 2.5
    c = TestClient(app, base_url="http://127.0.0.1")
    assert [b["id"] for b in c.get("/api/rulebooks").json()] == ["wbf-2017"]
    assert TestClient(app, base_url="http://localhost").get("/").status_code == 400


@pytest.mark.parametrize("digits", [29, 3000])
@pytest.mark.parametrize("scoring", ["imps", "matchpoints"])
def test_weights_with_large_denominators_are_refused_not_hung(client, digits, scoring):
    """Issue 14: weights with large prime denominators blocked the server 18 s, then failed. Twenty
    weights whose denominators have 29 digits, or two of 3,000 digits, are a 422 (the bound on digits, or the
    engine's "too fine to compare exactly") — well inside the time limit, never a 500 or 503."""
    import random
    import time as time_
    from fractions import Fraction
    rng = random.Random(14)
    weights = [Fraction(1, rng.randrange(10 ** (digits - 1), 10 ** digits) | 1) for _ in range(19 if digits < 100 else 1)]
    weights.append(1 - sum(weights))                  # (one 3,000-digit weight: its text stays under 4,300 digits)
    case = {**{k: v for k, v in WEIGHTED_CASE.items() if k != "serious_error"}, "scoring": scoring,
            "without_infraction": [{"result": ("4H= N", "4H-1 N")[i % 2], "weight": f"{w.numerator}/{w.denominator}"}
                                   for i, w in enumerate(weights)]}
    if scoring == "matchpoints":
        del case["other_table"]
        case["field"] = ["4H= N", "3NT+1 S", "4S-1 E", "5HX-2 N"]
    start = time_.monotonic()
    r = client.post("/api/rule", json=case)
    assert r.status_code == 422, r.text[:300]
    assert time_.monotonic() - start < 8


@pytest.mark.parametrize("levels", [900])
def test_deeply_nested_yaml_is_refused_quickly(client, levels):
    """Issue 14: 900 levels of YAML blocked the server 12 s (the error's key path was looked up
    with ruamel's round-trip parser, which takes seconds to give up) and deep JSON was a 500."""
    import time as time_
    text = "\n".join(line for line in EXAMPLE_07.read_text().splitlines()
                     if not line.startswith(("notes", "i.e.", "  ")))
    body = text + "\nnotes: " + "[" * levels + "]" * levels + "\n"
    start = time_.monotonic()
    r = client.post("/api/rule", content=body, headers={"content-type": "application/yaml"})
    assert r.status_code in (400, 422) and r.json()["error"], r.text[:300]
    assert time_.monotonic() - start < 5
    start = time_.monotonic()
    r = client.post("/upload", files={"case_file": ("deep.yaml", body.encode(), "application/yaml")})
    assert r.status_code in (200, 400, 422) and time_.monotonic() - start < 5   # opened (notes kept) or refused
    assert_no_trace(r.text)


def test_nesting_estimate():
    from bridgelaw.web.api import nesting
    assert nesting("a: [1, {b: [2]}]\n") == 3
    assert nesting("a:\n  b:\n    c:\n      - 1\n") == 4
    assert nesting("a: 1\n") == 0


def test_event_page_works_off_the_event_loop(client, monkeypatch):
    """The event page's work (reading the results file, applying the rulings, the page) runs in
    the work threads like every other page; its upload is read on the event loop first."""
    import threading
    from bridgelaw.core.errors import BridgelawError
    from bridgelaw.web import event
    threads = []

    def load_event(*a, **k):
        threads.append(threading.current_thread().name)
        raise BridgelawError("not a results file", file="event.pbn")
    monkeypatch.setattr(event, "load_event", load_event)
    r = client.post("/event", data={"event_text": "[Event \"x\"]\n", "event_name": "event.pbn"})
    assert r.status_code == 422 and "not a results file" in unescape(r.text)
    assert threads and threads[0].startswith("bridgelaw-work")
    r = client.post("/event", content=b"--x\r\nbroken", headers={"content-type": "multipart/form-data; boundary=x"})
    assert r.status_code == 400


def test_work_is_bounded_and_work_given_up_in_line_never_runs():
    """At most `slots` pieces of work run at once; work still waiting for a thread when its time
    is up is dropped (never run); the threads are daemons, so stopping the server does not wait
    for work it gave up."""
    import asyncio
    import time as time_
    from bridgelaw.web.work import TooSlow, Work
    work, ran, outcomes = Work(limit=0.2, slots=2), [], []

    async def main() -> None:
        assert await work(sum, [1, 2]) == 3
        busy = [asyncio.create_task(work(time_.sleep, 0.5)) for _ in range(2)]
        await asyncio.sleep(0.02)
        for job in [work(ran.append, 1), *busy]:
            try:
                await job
            except TooSlow:
                outcomes.append("503")
        await asyncio.sleep(0.5)                        # the sleepers end; the dropped job stays dropped

    asyncio.run(main())
    assert outcomes == ["503"] * 3 and ran == []
    assert len(work._threads) == 2 and all(t.daemon for t in work._threads)
