"""Issue 32, item 2: a default rulebook. `bridgelaw event FILE` without `--rulebook` (nor a rulings
file naming one) takes the rulebook in force, by the rulebook calendar, in the country the file
names (or its program's profile names) on the day the file was played, and says so in the heading;
without enough in the file it exits 2 naming what is missing. Rulebook ids are read case-blind;
a rulebook out of force on the session's day is warned about."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from bridgelaw.commands.cli import main
from bridgelaw.commands.event import load_event, run
from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.defaults import default_rulebook
from bridgelaw.rulebook import available, get

DATA = Path(__file__).parent / "data" / "events"
FIGURES = DATA / "figures"

_spec = importlib.util.spec_from_file_location("usebio_shapes", FIGURES / "generate.py")
shapes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shapes)


@pytest.fixture(scope="module")
def ebuscore(tmp_path_factory) -> Path:
    """EBUScore Pairs' file of 2 January 2025 (COUNTRY England), as generate.py writes it."""
    out = tmp_path_factory.mktemp("ebuscore") / "ebuscore-pairs-multi-section.xml"
    out.write_bytes(shapes.generate(shapes.load(FIGURES / "ebuscore-pairs-multi-section.yaml")))
    return out


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_program_profile_country_and_the_calendar_choose_the_rulebook(capsys):
    # Compscore3 files name no COUNTRY; the profile says Australia, where the ABF's code is the Laws'
    code, out, err = cli(capsys, "event", str(DATA / "compscore-mp-pairs-howell.xml"))
    assert code == 0, err
    assert out.splitlines()[1] == ("rulebook wbf-2017 — in force in Australia on 2022-07-27 (calendar; the country "
                                   "from profile compscore)")


def test_the_file_country_and_date_choose_the_rulebook(ebuscore):
    event = load_event(str(ebuscore))
    assert event.country == "England"
    d = default_rulebook(event)
    assert (d.id, d.country, d.day.isoformat(), d.whence) == ("ebu", "England", "2025-01-02", "the file")
    assert d.text == "rulebook ebu — in force in England on 2025-01-02 (calendar; the country from the file)"


def test_the_program_profile_gives_the_country_when_the_file_does_not(ebuscore, tmp_path):
    plain = tmp_path / "no-country.xml"
    plain.write_bytes(ebuscore.read_bytes().replace(b"<COUNTRY>England</COUNTRY>", b""))
    d = default_rulebook(load_event(str(plain)))
    assert (d.id, d.country, d.whence) == ("ebu", "England", "profile ebuscore")


def test_event_without_rulebook_uses_the_default_and_says_so(capsys, ebuscore):
    code, out, err = cli(capsys, "event", str(ebuscore))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("Thursday Pairs A Overall — matchpoints, rulebook ebu+ebuscore 2017.2, as in force on "
                        "2025-01-02")
    assert lines[1] == "rulebook ebu — in force in England on 2025-01-02 (calendar; the country from the file)"
    code, out, _ = cli(capsys, "event", str(ebuscore), "--format", "json")
    (s,) = json.loads(out)["sessions"]
    assert s["default_rulebook"] == {"id": "ebu", "country": "England", "day": "2025-01-02",
                                     "country_from": "the file", "text": lines[1]}
    # a named rulebook is no default: the heading says nothing of a calendar
    code, out, _ = cli(capsys, "event", str(ebuscore), "--rulebook", "wbf-2017")
    assert code == 0 and "calendar" not in out


def test_event_without_enough_in_the_file_exits_2_naming_what_is_missing(capsys, ebuscore, tmp_path):
    atlantis = tmp_path / "atlantis.xml"
    atlantis.write_bytes(ebuscore.read_bytes().replace(b"<COUNTRY>England</COUNTRY>", b"<COUNTRY>Atlantis</COUNTRY>"))
    code, out, err = cli(capsys, "event", str(atlantis))
    assert code == 2 and out == ""
    assert err == (f"bridgelaw: error: {atlantis}: no rulebook for the event, and none by default: the rulebook "
                   "calendar names no body for Atlantis (expected --rulebook ID, or rulebook: <id> in the rulings "
                   "file); known: " + ", ".join(available()) + "\n")
    bare = tmp_path / "bare.xml"
    bare.write_bytes(ebuscore.read_bytes().replace(b"<COUNTRY>England</COUNTRY>", b"")
                     .replace(b"<PROGRAM_NAME>EBUScore Pairs</PROGRAM_NAME>", b"<PROGRAM_NAME>X</PROGRAM_NAME>")
                     .replace(b"<DATE>02/01/2025</DATE>", b""))
    code, out, err = cli(capsys, "event", str(bare))
    assert code == 2
    assert ("none by default: the file names no country (USEBIO <COUNTRY>) and no program whose profile names one; "
            "the file gives no date (USEBIO <DATE>, PBN [Date]; or --as-of)") in err


def test_rulebook_ids_are_case_blind(capsys, ebuscore, tmp_path):
    assert get("EBU").id == "ebu" and get("Wbf-2017").id == "wbf-2017"
    rulings = tmp_path / "rulings.yaml"
    rulings.write_text("rulebook: EBU\nrulings: []\n")
    code, out, err = cli(capsys, "event", str(ebuscore), "--rulings", str(rulings))
    assert code == 0, err
    assert out.startswith("Thursday Pairs A Overall — matchpoints, rulebook ebu+ebuscore 2017.2")
    code, out, err = cli(capsys, "event", str(ebuscore), "--rulebook", "WBF-2017")
    assert code == 0, err


def test_a_rulebook_out_of_force_on_the_day_is_refused(capsys, ebuscore):
    """A session after a rulebook's end is an error at the file's date (issue 29: not clamped to its
    last day), with --as-of or another rulebook as the way out."""
    code, out, err = cli(capsys, "event", str(ebuscore), "--rulebook", "acbl-2007")
    assert (code, out) == (2, "")
    assert err == (f"bridgelaw: error: {ebuscore}:22:9: the session was played on 2025-01-02; rulebook "
                   "acbl-2007+ebuscore is in force from 2008-09-08 to 2017-09-24; 2025-01-02 is later (expected a "
                   "date from 2008-09-08 to 2017-09-24); another rulebook, or --as-of\n")


def test_the_web_ruling_form_starts_from_the_laws_in_force_and_warns_of_one_out_of_force():
    import re
    from starlette.testclient import TestClient
    from bridgelaw.web.app import create_app
    c = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    page = c.get("/").text
    assert re.findall(r'<option value="([\w-]+)" selected>', page.split('id="f-rulebook"')[1].split("</select>")[0]) \
        == ["wbf-2017"]
    form = {"rulebook": "wbf-2007", "title": "Board 7", "scoring": "imps", "board_number": "7", "vulnerability": "NS", "kind": "assigned",
            "non_offending": "NS", "table_result": "5HX-2 N", "other_table": "3S+1 W", "b_mode": "one",
            "b_result": "4H-1 N", "action": "rule"}
    r = c.post("/", data=form)
    assert r.status_code == 200
    assert ("<strong>Warning:</strong> Rulebook wbf-2007 is in force from 2008-01-01 to 2017-12-31, not today, and "
            "the case gives no date: it is ruled as on the rulebook&#39;s last day. Give the session&#39;s date, or "
            "choose a rulebook in force.") in r.text
    r = c.post("/", data={**form, "date": "2012-03-04"})
    assert r.status_code == 200 and "not today" not in r.text
    r = c.post("/", data={**form, "date": "2025-03-04"})        # a date out of its period: refused at the date
    assert r.status_code == 422 and ("Rulebook wbf-2007 is in force from 2008-01-01 to 2017-12-31; 2025-03-04 is later "
                                     "(the case&#39;s date)") in r.text
    assert "in force on 2025-03-04: ebu, wbf-2017, wbf-laws-committee-2017" in r.text
    r = c.post("/", data={**form, "rulebook": "WBF-2017"})       # ids case-blind on the page too
    assert r.status_code == 200, r.text[:300]


def test_the_web_form_takes_a_jurisdiction_instead_of_a_rulebook():
    import re
    from starlette.testclient import TestClient
    from bridgelaw.web.app import create_app
    c = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    form = {"rulebook": "", "jurisdiction": "England", "date": "2025-03-04", "title": "Board 7", "scoring": "imps",
            "board_number": "7", "vulnerability": "NS", "kind": "assigned", "non_offending": "NS",
            "table_result": "5HX-2 N", "other_table": "3S+1 W", "b_mode": "one", "b_result": "4H-1 N",
            "action": "rule"}
    r = c.post("/", data=form)
    assert r.status_code == 200, r.text[:300]
    assert '<p class="rulebook" id="rulebook-identity">Rulebook <strong>ebu</strong> 2017.2' in r.text
    r = c.post("/", data={**form, "date": ""})
    assert r.status_code == 422 and '<a href="#f-jurisdiction">Jurisdiction</a>' in r.text
    d = c.post("/case.yaml", data=form)
    assert "jurisdiction: England\n" in d.text and "rulebook:" not in d.text
