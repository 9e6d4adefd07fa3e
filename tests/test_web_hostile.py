"""Issue 24, the web: bodies the command line reports as located errors are 4xx with the same
message (they were 500s), bounds are checked before any work, and a reader's unforeseen failure on
an uploaded results file is a 422 — never a 500. (The server's connection guards are in
tests/test_web_server.py.)"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bridgelaw.web import forms
from bridgelaw.web.app import create_app

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_07 = REPO / "cases" / "wbf-commentary-2017" / "example-07.yaml"
TITLE = "title: WBF commentary on Law 12, example 7 (gambling 5H, split damage)"
PBN = REPO / "travellers" / "board-09.pbn"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(), raise_server_exceptions=False)


def case_with_title(value: str) -> bytes:
    return EXAMPLE_07.read_text().replace(TITLE, f"title: {value}").encode()


BODIES = [
    ("&a [*a]", 422, 1, 12, "the alias *a is used inside the value it names (a value that contains itself)"),
    ('"\\U00110000"', 400, 1, 11, "malformed YAML: found invalid Unicode character escape code"),
    ("!!str [1]", 422, 1, 8, "the tag !!str is not used in bridgelaw files on a list"),
    ("2017-02-30", 422, 1, 8, "'2017-02-30' is not a day of the calendar: day is out of range for month"),
    ("0000-01-01", 422, 1, 8, "'0000-01-01' is not a day of the calendar: year 0 is out of range"),
    ("!!bool maybe", 422, 1, 8, "'maybe' is not a !!bool value"),
    ("!!int ''", 422, 1, 8, "'' is not a !!int value"),
    ('"\\e[31m"', 422, 1, 8, "control character U+001B (written as an escape) is not allowed"),
]


@pytest.mark.parametrize("path", ["/api/rule", "/api/compare"])
@pytest.mark.parametrize("value, status, line, column, message", BODIES, ids=[b[0] for b in BODIES])
def test_bodies_the_cli_reports_are_located_errors_not_500s(client, path, value, status, line, column, message):
    r = client.post(path, content=case_with_title(value), headers={"content-type": "application/yaml"})
    assert r.status_code == status, r.text
    data = r.json()
    assert (data["error"], data["file"], data["line"], data["column"]) == (message, "request", line, column)
    if status == 422 and not value.startswith("&"):
        assert data["path"] == "title"          # the place, found without constructing the value again


@pytest.mark.parametrize("value, status, line, column, message", BODIES, ids=[b[0] for b in BODIES])
def test_an_opened_case_file_with_such_a_value_is_a_message_on_the_form(client, value, status, line, column, message):
    r = client.post("/upload", files={"case_file": ("c.yaml", case_with_title(value), "application/yaml")})
    assert r.status_code == 400 and f"c.yaml:{line}:{column}: {message}" in r.text.replace("&#39;", "'")


def test_a_huge_json_list_is_refused_before_any_yaml_is_written(client, monkeypatch):
    """Issue 24: {"title": [1, 1, … 120,000 items]} (240 KB) held a worker's event loop for 8.3 s
    while it was written as YAML; it is refused when the JSON is read."""
    written = []
    monkeypatch.setattr(forms, "dump_yaml", lambda *a, **k: written.append(1))
    body = json.dumps({"title": [1] * 120_000}, separators=(",", ":"))
    assert len(body) < 256 * 1024
    for path in ("/api/rule", "/api/compare"):
        start = time.perf_counter()
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert time.perf_counter() - start < 1.0
        assert (r.status_code, r.json()["error"]) == (400, "the JSON has more than 20,000 values")
    r = client.post("/api/rule", content=json.dumps({"title": [1] * 6000}), headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "title has 6,000 entries; at most 5,000 are accepted")
    wide = json.dumps({"notes": [[0] * 4000] * 5}, separators=(",", ":"))
    r = client.post("/api/rule", content=wide, headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "the JSON has more than 20,000 values")
    r = client.post("/api/rule", json={"title": [1] * 1001})
    assert r.status_code == 422 and r.json()["path"] == "title"
    assert r.json()["error"] == "title lists 1001 entries; at most 1000 are accepted here"
    assert written == []


def test_a_json_case_with_a_control_character_is_refused_at_its_key(client):
    r = client.post("/api/rule", json={**json.loads(json.dumps({"title": "x"})), "title": "\x1b[31mred",
                                       "rulebook": "wbf-2017", "scoring": "imps", "board": {"vulnerability": "NS"},
                                       "non_offending": "NS", "table_result": "4H-1 N", "other_table": "4H= S",
                                       "without_infraction": "4S= W"})
    assert r.status_code == 422 and r.json()["path"] == "title"
    assert r.json()["error"] == "control character U+001B (written as an escape) is not allowed"


def test_a_megabyte_of_headers_is_431(client):
    for path in ("/api/rulebooks", "/"):
        r = client.get(path, headers={"x-big": "a" * (1 << 20)})
        assert r.status_code == 431
    assert "headers are larger than 32 KiB" in client.get("/api/rulebooks", headers={"x-big": "a" * 40_000}).text
    assert client.get("/api/rulebooks", headers={"x-ok": "a" * 20_000}).status_code == 200


USEBIO = '<?xml version="1.0" encoding="{}"?>\n<USEBIO Version="3.0"><EVENT EVENT_TYPE="PAIRS"></EVENT></USEBIO>\n'


@pytest.mark.parametrize("encoding", ["x-evil", "UTF-7", "Shift_JIS", "idna", "rot13", "zlib_codec"])
def test_an_event_page_never_answers_500(client, encoding):
    """Issue 24 item 2: a USEBIO file declaring one of these encodings raised LookupError or
    ValueError inside expat and the page answered 500; whatever the reader does, the page is a
    4xx that says the file could not be read."""
    r = client.post("/event", files={"event_file": ("e.xml", USEBIO.format(encoding).encode(), "application/xml")},
                    data={"rulebook": "wbf-2017"})
    assert 400 <= r.status_code < 500, r.status_code
    assert "could not be read" in r.text or "encoding" in r.text


def test_a_superscript_board_number_is_never_a_500(client):
    """Issue 24: /api/score with [Board "¹"] (int() reads '¹' as... nothing: ValueError, a 500)."""
    pbn = PBN.read_text().replace('[Board "9"]', '[Board "¹"]')
    r = client.post("/api/score", json={"traveller": pbn, "format": "pbn", "rulebook": "wbf-2017"})
    assert 400 <= r.status_code < 500, r.text
    r = client.post("/traveller", data={"traveller": PBN.read_text(), "name": "b.pbn", "board": "¹",
                                        "rulebook": "wbf-2017"})
    assert r.status_code == 400 and "The board number is a whole number such as 9." in r.text


def test_a_superscript_board_number_on_the_form(client):
    r = client.post("/", data={"board_number": "¹", "rulebook": "wbf-2017", "table_result": "4S= N"})
    assert r.status_code == 422
