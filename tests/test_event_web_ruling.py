"""Issue 32, item 3: the event page without YAML. A director uploads a results file, picks a board and
a traveller line, enters the ruling in the case page's fields (a weighted score, a split weighting,
an artificial score, a penalty), sees every score and place it changes before → after, the
published figures split into the ruling's effects and the disagreements with the program, and
downloads the rulings file the page wrote and the corrected file. The rulebook is the calendar's
when none is chosen. Errors are shown beside the ruling's fields; a wrong ruling is not kept."""

from __future__ import annotations

import importlib.util
import re
from html import unescape
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bridgelaw.commands.event import load_event, run
from bridgelaw.render.changes import as_text, changes
from bridgelaw.web.app import create_app
from bridgelaw.web.event import pack, unpack

DATA = Path(__file__).parent / "data" / "events"
FIGURES = DATA / "figures"
_spec = importlib.util.spec_from_file_location("usebio_shapes", FIGURES / "generate.py")
shapes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shapes)

WEIGHTED = {"pick": "1:1", "line": "0", "action": "apply", "kind": "assigned", "non_offending": "NS",
            "b_mode": "weighted", "wi_result_0": "4S= N", "wi_weight_0": "60%", "wi_result_1": "4S-1 N",
            "wi_weight_1": "40%", "note": "hesitation before 4S"}


@pytest.fixture(scope="module")
def ebuscore() -> bytes:
    """EBUScore Pairs' file of 2 January 2025 (England), as generate.py writes it."""
    return shapes.generate(shapes.load(FIGURES / "ebuscore-pairs-multi-section.yaml"))


@pytest.fixture(scope="module")
def c() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1:8000")


def state(r) -> dict[str, str]:
    return {k: unescape(v) for k, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', r.text)}


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", unescape(html)))


@pytest.fixture(scope="module")
def uploaded(c, ebuscore):
    r = c.post("/event", files={"event_file": ("thursday.xml", ebuscore, "application/xml")}, data={})
    assert r.status_code == 200, words(r.text)[:500]
    return r


def test_the_upload_is_scored_under_the_calendar_rulebook_and_offers_the_boards(uploaded):
    text = words(uploaded.text)
    assert ("matchpoints; rulebook ebu+ebuscore 2017.2 (rulebook ebu — in force in England on 2025-01-02 (calendar; "
            "the country from the file))") in text
    assert "Published figures: 680 of 680 agree" in text
    assert '<option value="1:18">Board 18</option>' in uploaded.text
    assert "Download the corrected USEBIO file" in text and text.index("corrected USEBIO") < text.index("as PBN")
    s = state(uploaded)
    assert s["event_name"] == "thursday.xml" and s["rulebook"] == "" and len(s["event_z"]) < 12_000


def test_picking_a_board_lists_its_lines_with_the_ruling_fields(c, uploaded):
    r = c.post("/event", data={**state(uploaded), "pick": "1:1", "action": "board"})
    assert r.status_code == 200
    rows = re.findall(r'<input type="radio" name="line" id="line-(\d+)" value="\d+">', r.text)
    assert len(rows) == 17
    text = words(r.text)
    assert "board 1 NS 1 v EW 10 3NT+1 S 18 14" in text
    for name in ("kind-assigned", "kind-artificial", "kind-penalty", "b_mode-weighted", "b_mode-split",
                 "f-wi_result_0", "f-ew_result_0", "f-art_ns", "f-pen_amount"):
        assert f'id="{name}"' in r.text
    assert 'id="b_mode-poll"' not in r.text          # a rulings file's adjusted score has no poll
    # a row added to the weighted list keeps the board and the line
    r = c.post("/event", data={**state(uploaded), "pick": "1:1", "line": "3", "action": "add-row", "b_mode": "weighted"})
    assert 'id="f-wi_result_2"' in r.text and 'id="line-3" value="3" checked' in r.text


def test_a_weighted_ruling_is_applied_with_before_and_after(c, uploaded):
    r = c.post("/event", data={**state(uploaded), **WEIGHTED})
    assert r.status_code == 200, words(r.text)[:800]
    text = words(r.text)
    # the ruled line: 3NT+1 S (18/14 of a top of 32) → 60% of 4S= N and 40% of 4S-1 N
    assert "board 1 NS 1 v EW 10 ruled 18 6.8 14 25.2" in text
    assert "board 1 NS 9 v EW 17 in the field 4 4.8 28 27.2" in text
    assert r.text.count("<td>in the field</td>") == 12
    # totals and places: pair 1 falls from 31st to 33rd, pair 12 rises from 13th to 11th
    assert "1 209.38 198.18 40.89 38.71 31 33" in text
    assert "12 310.31 311.31 53.87 54.05 13 11" in text
    assert ("Published figures: 618 of 680 agree; 62 changed by the rulings (their intended effect); "
            "0 differ from the program without any ruling.") in text
    assert ("board 1, section A, NS 1 v EW 10: assigned 60% 4S= N + 40% 4S-1 N (non-offending NS); "
            "note: hesitation before 4S") in text
    s = state(r)
    assert s["rulings"] == (
        "# bridgelaw rulings, written by the event page\n"
        "# apply them again with: bridgelaw event RESULTS-FILE --rulings THIS-FILE.yaml\n"
        "rulings:\n- board: 1\n  section: A\n  ns: '1'\n  ew: '10'\n  adjusted:\n  - result: 4S= N\n    weight: 60%\n"
        "  - result: 4S-1 N\n    weight: 40%\n  non_offending: NS\n  note: hesitation before 4S\n")
    # the rulings file the page wrote, downloaded, gives the same event on the command line
    d = c.post("/event", data={**s, "download": "rulings"})
    assert d.status_code == 200 and 'filename="thursday-rulings.yaml"' in d.headers["content-disposition"]
    assert d.text == s["rulings"]
    # the corrected file, downloaded, reads back with the ruling applied
    x = c.post("/event", data={**s, "download": "xml"})
    assert x.status_code == 200 and 'filename="thursday-corrected.xml"' in x.headers["content-disposition"]
    read = load_event("thursday-corrected.xml", text=x.content)
    (line,) = [l for l in read.sessions[0].boards[1].lines if (l.ns, l.ew) == ("1", "10")]
    assert line.kind == "adjusted" and line.extra["adjustment"] == "adj 4S= N @3/5; 4S-1 N @2/5"
    # the same ruling again replaces it (one ruling a line); removing it leaves none
    again = c.post("/event", data={**s, **WEIGHTED, "wi_weight_0": "1/2", "wi_weight_1": "1/2"})
    assert state(again)["rulings"].count("- board: 1") == 1 and "weight: 1/2" in state(again)["rulings"]
    gone = c.post("/event", data={**state(again), "action": "remove-ruling-0"})
    assert "No ruling yet" in gone.text and "What the rulings change" not in gone.text


def test_split_artificial_and_penalty_rulings(c, uploaded):
    split = {**WEIGHTED, "b_mode": "split", "ew_result_0": "4S= N", "ew_weight_0": "1/2",
             "ew_result_1": "4S-1 N", "ew_weight_1": "1/2"}
    r = c.post("/event", data={**state(uploaded), **split})
    assert r.status_code == 200, words(r.text)[:800]
    assert "assigned NS 60% 4S= N + 40% 4S-1 N, EW 1/2 4S= N + 1/2 4S-1 N (non-offending NS)" in words(r.text)
    art = {"pick": "1:2", "line": "1", "action": "apply", "kind": "artificial", "art_ns": "directly-at-fault",
           "art_ew": "in-no-way-at-fault"}
    r = c.post("/event", data={**state(uploaded), **art})
    assert r.status_code == 200, words(r.text)[:800]
    assert "board 2, section A, NS 9 v EW 17: artificial NS directly-at-fault, EW in-no-way-at-fault" in words(r.text)
    pen = {"pick": "1:2", "line": "1", "action": "apply", "kind": "penalty", "pen_player": "EW", "pen_amount": "25%"}
    r = c.post("/event", data={**state(uploaded), **pen})
    assert r.status_code == 200, words(r.text)[:800]
    assert "procedural penalty EW 25%" in words(r.text)


@pytest.mark.parametrize("fields, field, message", [
    ({"wi_weight_1": "30%"}, "wi", "The weights sum to 9/10, not 1"),
    ({"wi_result_0": "4S+8 N"}, "wi_result_0", "'4S+8 N': 4S+8 needs 18 tricks, but a deal has only 13"),
    ({"b_mode": "one", "b_result": ""}, "b_result", "the result without the infraction is needed"),
    ({"kind": "penalty", "pen_player": "EW", "pen_amount": "500%"}, "pen_amount",
     "Board 1 NS 1 v EW 10: a procedural penalty of 500% of a top"),
    ({"line": ""}, "line", "Choose one of the board's lines to rule."),
    ({"note": "x" * 2001}, "note", "String should have at most 2000 characters"),
])
def test_a_wrong_ruling_is_shown_beside_its_field_and_not_kept(c, uploaded, fields, field, message):
    r = c.post("/event", data={**state(uploaded), **WEIGHTED, **fields})
    assert r.status_code == 422
    assert re.search(r'<div class="error-summary" role="alert" aria-labelledby="error-summary-h" id="errors" '
                     r'tabindex="-1" autofocus>', r.text)
    assert f'<a href="#f-{field}">' in r.text and message in unescape(r.text)
    assert "rulings." not in unescape(r.text).split('id="errors"')[1].split("</div>")[0]   # no key path
    assert state(r)["rulings"] == ""                  # nothing half-applied


def test_the_packed_file_is_bounded():
    assert unpack(pack(b"abc")) == b"abc"
    from bridgelaw.core.errors import BridgelawError
    with pytest.raises(BridgelawError, match="over 256 KiB"):
        unpack(pack(b"0" * (300 * 1024)))
    with pytest.raises(BridgelawError, match="damaged"):
        unpack("not base64!")


def test_before_and_after_is_one_routine_the_command_line_can_print(tmp_path, ebuscore):
    path = tmp_path / "thursday.xml"
    path.write_bytes(ebuscore)
    rulings = tmp_path / "rulings.yaml"
    rulings.write_text("rulings:\n- {board: 1, ns: 1, ew: 10, adjusted: [{result: 4S= N, weight: 60%}, "
                       "{result: 4S-1 N, weight: 40%}], non_offending: NS}\n")
    before = run(load_event(str(path)), None, None, [])
    after = run(load_event(str(path)), str(rulings), None, [])
    text = as_text(changes(before, after)).splitlines()
    assert text[1] == "  board 1 NS 1 v EW 10, ruled: NS 18 → 6.8, EW 14 → 25.2"
    assert "  1: total 209.38 → 198.18, 40.89% → 38.71%, place 31 → 33" in text
    assert text[-1] == ("Published figures: 618 of 680 agree; 62 changed by the rulings (their intended effect); "
                        "0 differ from the program without any ruling")


def test_a_file_that_names_no_country_asks_for_a_rulebook(c):
    pbn = (DATA / "individual-derived-from-magic-contest.pbn").read_bytes()
    r = c.post("/event", files={"event_file": ("ind.pbn", pbn, "text/plain")}, data={"profile": "none"})
    assert r.status_code == 422
    assert ("no rulebook for the event, and none by default: the file names no country (USEBIO &lt;COUNTRY&gt;) and "
            "no program whose profile names one. Choose the rulebook under “Rulebook” below and score the event "
            "again.") in r.text
    r = c.post("/event", files={"event_file": ("ind.pbn", pbn, "text/plain")}, data={"profile": "none",
                                                                                     "rulebook": "WBF-2017"})
    assert r.status_code == 200 and "rulebook <strong>wbf-2017</strong>" in r.text


def test_hostile_state_is_refused_in_one_line(c, uploaded):
    import base64
    import zlib
    bomb = base64.b64encode(zlib.compress(b"<" * (4 * 1024 * 1024), 9)).decode("ascii")      # 4 MB inflated
    r = c.post("/event", data={**state(uploaded), "event_z": bomb})
    assert r.status_code == 400 and "the results file is over 256 KiB" in r.text
    r = c.post("/event", data={**state(uploaded), "event_z": "%%%"})
    assert r.status_code == 400 and "damaged" in r.text
    for pick, line in (("9:1", "0"), ("1:999", "0"), ("1:1", "999"), ("../1", "0"), ("1:1", "-1"), ("1:1", "١")):
        r = c.post("/event", data={**state(uploaded), **WEIGHTED, "pick": pick, "line": line})
        assert r.status_code == 422 and "Choose one of the board" in unescape(r.text), (pick, line)
    r = c.post("/event", data={**state(uploaded), "action": "remove-ruling-99"})     # nothing to remove: no harm
    assert r.status_code == 200
