"""The calendar of each body's codes (rules/calendar.yaml, engine/rulebook/calendar.py): one code a body a day,
every entry sourced, rulebook periods that agree with it, and cases ruled under the code of their jurisdiction
on their date (issue 31)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from bridgelaw import rulebook as rulebooks
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.rulebook import calendar
from bridgelaw.ruling.build import rule_case
from bridgelaw.ruling.case import load_case

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases" / "jurisdictions"
D = dt.date


# --- the whole calendar ------------------------------------------------------------------------

def test_at_most_one_code_of_a_body_on_any_day():
    for body in calendar.bodies():
        spans = [(e.effective_from, e.until or D.max) for e in body.editions]
        for (a_from, a_until), (b_from, b_until) in zip(spans, spans[1:]):
            assert a_until < b_from, body.id
            assert a_until + dt.timedelta(days=1) == b_from, body.id      # each ends where the next begins
        for day in [s for span in spans for s in span if s != D.max]:
            assert sum(e.covers(day) for e in body.editions) == 1, (body.id, day)


def test_every_entry_is_sourced_and_names_a_shipped_rulebook():
    known = rulebooks.available()
    for body in calendar.bodies():
        assert body.name and body.editions
        for e in body.editions:
            assert e.rulebook in known
            assert len(e.source) > 40, (body.id, e.rulebook)


def test_the_bodies_the_issue_names_are_there():
    ids = {b.id for b in calendar.bodies()}
    assert {"wbf", "acbl", "ebu", "ebl", "dbf", "abf", "nswba", "sbf", "usbf", "nzb", "sbu", "nbb", "dbv", "ffb"} <= ids


def test_each_rulebook_period_covers_the_calendar_and_a_regulation_is_exactly_its_bodies_span():
    """A Laws edition (extends nothing) is in force wherever a body played it: its period covers every span
    naming it. A body's own regulation is in force only where the calendar says: its period is that span."""
    for name in rulebooks.available():
        book = rulebooks.get(name)
        spans = calendar.periods_of(name)
        if not spans:
            continue
        first = min(e.effective_from for _, e in spans)
        last = None if any(e.until is None for _, e in spans) else max(e.until for _, e in spans)
        assert book.effective_from <= first, name
        if last is None:
            assert book.effective_until is None, name
        else:
            assert book.effective_until is not None and book.effective_until >= last, name
        if book.extends is not None:
            assert (book.effective_from, book.effective_until) == (first, last), name


def test_the_danish_codes_no_longer_overlap():
    assert calendar.in_force("dbf", D(2008, 6, 1)) == "dbf-2007"
    assert calendar.in_force("dbf", D(2007, 12, 31)) == "dbf-1997"
    assert calendar.in_force("dbf", D(2017, 9, 1)) == "wbf-2017"
    old, new = rulebooks.get("dbf-1997"), rulebooks.get("dbf-2007")
    assert old.effective_until == D(2007, 12, 31) and new.effective_from == D(2008, 1, 1)
    assert new.effective_until == D(2017, 8, 31)
    assert not (old.covers(D(2008, 6, 1)) and new.covers(D(2008, 6, 1)))


# --- the API -----------------------------------------------------------------------------------

def test_in_force_on_the_days_the_sources_give():
    assert calendar.in_force("sbu", D(2017, 8, 31)) == "wbf-2007"
    assert calendar.in_force("sbu", D(2017, 9, 1)) == "wbf-2017"
    assert calendar.in_force("nzb", D(2017, 7, 31)) == "wbf-2007"
    assert calendar.in_force("nzb", D(2017, 8, 1)) == "wbf-2017"
    assert calendar.in_force("acbl", D(2008, 9, 7)) == "acbl-1997"
    assert calendar.in_force("acbl", D(2008, 9, 8)) == "acbl-2007"
    assert calendar.in_force("acbl", D(2017, 9, 25)) == "wbf-2017"
    assert calendar.in_force("ebu", D(2017, 7, 31)) == "wbf-2007"
    assert calendar.in_force("ebu", D(2017, 8, 1)) == "ebu"
    assert calendar.in_force("EBU", D(2008, 7, 31)) == "wbf-1997"          # a body id in any case
    assert calendar.in_force("nswba", D(2008, 4, 25)) == "wbf-1997"        # the NSWBA's appeal of April 2008
    assert calendar.in_force("sbf", D(2008, 7, 1)) == "wbf-2007"
    assert calendar.in_force("ffb", D(2008, 6, 30)) == "wbf-1997"


def test_no_code_before_a_body_s_first_entry_is_an_error_naming_body_and_day():
    with pytest.raises(BridgelawError) as err:
        calendar.in_force("dbv", D(2010, 1, 1))
    assert "dbv" in str(err.value) and "2010-01-01" in str(err.value)
    with pytest.raises(BridgelawError) as err:
        calendar.in_force("ffb", D(1998, 8, 31))
    assert "ffb" in str(err.value) and "1998-08-31" in str(err.value) and "1998-09-01" in str(err.value)
    with pytest.raises(BridgelawError, match=r"unknown body 'sbuu'.*did you mean 'sbu'"):
        calendar.in_force("sbuu", D(2010, 1, 1))


def test_body_for_country_is_case_insensitive_and_knows_no_guess():
    assert calendar.body_for_country("GB-ENG") == "ebu"
    assert calendar.body_for_country("england") == "ebu"
    assert calendar.body_for_country("gb-sct") == "sbu"
    assert calendar.body_for_country("Scotland") == "sbu"
    assert calendar.body_for_country("NZ") == "nzb"
    assert calendar.body_for_country("us") == "acbl"
    assert calendar.body_for_country("DK") == "dbf"
    assert calendar.body_for_country("no") == "nbf"
    assert calendar.body_for_country("GB") is None               # Great Britain has four bodies
    assert calendar.body_for_country("Atlantis") is None


def test_bodies_give_their_entries():
    sbu = next(b for b in calendar.bodies() if b.id == "sbu")
    assert sbu.name == "Scottish Bridge Union" and "GB-SCT" in sbu.countries
    assert [(e.rulebook, e.effective_from) for e in sbu.editions] == [
        ("wbf-1997", D(1997, 5, 27)), ("wbf-2007", D(2008, 9, 1)), ("wbf-2017", D(2017, 9, 1))]
    assert [e.exact for e in sbu.editions] == [False, True, True]
    assert "1 September, 2017" in sbu.editions[2].source


def test_a_rulebook_id_in_any_case():
    assert rulebooks.get("EBU").id == "ebu"
    assert rulebooks.get("WBF-2017").id == "wbf-2017"


# --- the file's errors -------------------------------------------------------------------------

def _calendar(tmp_path: Path, text: str) -> Path:
    for name in ("wbf-2007", "wbf-2017"):
        (tmp_path / f"{name}.yaml").write_text("")
    path = tmp_path / "calendar.yaml"
    path.write_text(text)
    return path


def test_an_unknown_rulebook_is_an_error_at_its_line(tmp_path):
    path = _calendar(tmp_path, "bodies:\n  xbu:\n    name: X\n    editions:\n"
                               "      - {rulebook: wbf-2071, from: 2008-01-01, source: s}\n")
    with pytest.raises(BridgelawError) as err:
        calendar.load(path)
    assert str(err.value).startswith(f"{path}:5:")
    assert "unknown rulebook 'wbf-2071'" in str(err.value) and "did you mean 'wbf-2017'" in str(err.value)


def test_entries_out_of_order_are_an_error(tmp_path):
    path = _calendar(tmp_path, "bodies:\n  xbu:\n    name: X\n    editions:\n"
                               "      - {rulebook: wbf-2017, from: 2017-09-01, source: s}\n"
                               "      - {rulebook: wbf-2007, from: 2008-01-01, source: s}\n")
    with pytest.raises(BridgelawError, match=r":6:.*2008-01-01 is not after the previous entry's 2017-09-01"):
        calendar.load(path)


def test_a_country_named_by_two_bodies_is_an_error(tmp_path):
    path = _calendar(tmp_path, "bodies:\n  xbu:\n    name: X\n    countries: [XX]\n    editions:\n"
                               "      - {rulebook: wbf-2017, from: 2017-09-01, source: s}\n"
                               "  ybu:\n    name: Y\n    countries: [xx]\n    editions:\n"
                               "      - {rulebook: wbf-2017, from: 2017-09-01, source: s}\n")
    with pytest.raises(BridgelawError, match=r":9:.*country 'xx' is named by body xbu and by body ybu"):
        calendar.load(path)


def test_an_unknown_key_is_an_error_with_a_suggestion(tmp_path):
    path = _calendar(tmp_path, "bodies:\n  xbu:\n    name: X\n    editions:\n"
                               "      - {rulebook: wbf-2017, form: 2017-09-01, source: s}\n")
    with pytest.raises(BridgelawError, match=r":5:.*unknown key 'form'"):
        calendar.load(path)


# --- cases ruled by their jurisdiction ---------------------------------------------------------

def _without_rulebook(tmp_path: Path, name: str) -> Path:
    """A corpus case with its rulebook: line taken out: the calendar chooses."""
    text = "".join(line for line in (CASES / f"{name}.yaml").read_text().splitlines(keepends=True)
                   if not line.startswith("rulebook:"))
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("name, rulebook", [("sbu-2017-08-2007-laws", "wbf-2007"),
                                            ("nzb-2017-07-2007-laws", "wbf-2007"),
                                            ("sbu-2017-09-2017-laws", "wbf-2017")])
def test_a_case_naming_its_jurisdiction_is_ruled_under_the_code_in_force_there(tmp_path, capsys, name, rulebook):
    case = load_case(_without_rulebook(tmp_path, name))
    assert case.model.rulebook is None and case.rulebook_name() == rulebook
    ruling = rule_case(case, rulebooks.get(case.rulebook_name()))
    assert ruling.rulebook.id == rulebook and str(ruling.nos.value) == "14/3"
    assert main(["check", str(tmp_path / f"{name}.yaml")]) == 0
    assert capsys.readouterr().out.startswith("PASS  ")
    named = load_case(CASES / f"{name}.yaml")              # the corpus case names the same code: checked, accepted
    assert named.model.rulebook == rulebook == named.rulebook_name()


def test_a_rulebook_that_is_not_the_jurisdiction_s_code_that_day_is_an_error(tmp_path, capsys):
    text = (CASES / "sbu-2017-08-2007-laws.yaml").read_text().replace("rulebook: wbf-2007", "rulebook: wbf-2017")
    path = tmp_path / "case.yaml"
    path.write_text(text)
    assert main(["rule", str(path)]) == 2
    err = capsys.readouterr().err
    assert (f"case.yaml:6:11: rulebook wbf-2017 is not the code in force in jurisdiction Scotland on 2017-08-19: "
            f"wbf-2007 is (rules/calendar.yaml)") in err
    # a rulebook on top of the code is accepted (the WBF Laws Committee's 2007 layer extends wbf-2007)
    path.write_text(text.replace("rulebook: wbf-2017", "rulebook: wbf-laws-committee-2007"))
    assert load_case(path).rulebook_name() == "wbf-laws-committee-2007"


def test_the_jurisdiction_cases_pass_check(capsys):
    assert main(["check", str(CASES)]) == 0
    out = capsys.readouterr().out
    assert "PASS  " + str(CASES / "sbu-2017-08-2007-laws.yaml") in out


def test_a_jurisdiction_without_a_date_is_an_error_at_its_key(tmp_path, capsys):
    text = _without_rulebook(tmp_path, "sbu-2017-08-2007-laws").read_text().replace("date: 2017-08-19\n", "")
    path = tmp_path / "case.yaml"
    path.write_text(text)
    assert main(["rule", str(path)]) == 2
    err = capsys.readouterr().err
    line = text.splitlines().index(next(l for l in text.splitlines() if l.startswith("jurisdiction:"))) + 1
    assert f"case.yaml:{line}:" in err and "needs its date" in err and "Traceback" not in err


def test_a_jurisdiction_with_no_code_that_day_is_an_error_at_its_key(tmp_path, capsys):
    text = _without_rulebook(tmp_path, "sbu-2017-08-2007-laws").read_text().replace("jurisdiction: Scotland",
                                                                                   "jurisdiction: Germany")
    path = tmp_path / "case.yaml"
    path.write_text(text)
    assert main(["rule", str(path)]) == 2
    err = capsys.readouterr().err
    assert "no code of body dbv is known in force on 2017-08-19" in err and "case.yaml:6:15:" in err


def test_the_as_of_date_chooses_the_code_too(tmp_path, capsys):
    path = _without_rulebook(tmp_path, "sbu-2017-08-2007-laws")
    assert main(["rule", str(path), "--as-of", "2017-09-02", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rulebook"]["id"] == "wbf-2017"


# --- bridgelaw rulebooks shows it --------------------------------------------------------------

def test_rulebooks_prints_each_body_s_calendar(capsys):
    assert main(["rulebooks"]) == 0
    out = capsys.readouterr().out
    assert "Calendar (rules/calendar.yaml)" in out
    block = out[out.index("\nsbu "):]
    lines = block.splitlines()[1:]
    assert lines[0].split()[:4] == ["sbu", "Scottish", "Bridge", "Union"]
    assert lines[1].split() == ["wbf-1997", "from", "≈1997-05-27", "to", "2008-08-31"]
    assert lines[2].split() == ["wbf-2007", "from", "2008-09-01", "to", "2017-08-31"]
    assert lines[3].split() == ["wbf-2017", "from", "2017-09-01"]


def test_rulebooks_calendar_json(capsys):
    assert main(["rulebooks", "--calendar", "--format", "json"]) == 0
    data = {b["id"]: b for b in json.loads(capsys.readouterr().out)}
    assert data["nzb"]["editions"][1] == {
        "rulebook": "wbf-2007", "from": "2008-06-01", "until": "2017-07-31", "exact": True,
        "source": data["nzb"]["editions"][1]["source"]}
    assert "ABF's suggested date of 1 June 2008" in data["nzb"]["editions"][1]["source"]
    assert main(["rulebooks", "--format", "json"]) == 0
    books = {b["id"]: b for b in json.loads(capsys.readouterr().out)}
    assert [(c["body"], c["from"], c["until"]) for c in books["dbf-2007"]["calendar"]] == [
        ("dbf", "2008-01-01", "2017-08-31")]
    assert books["wbf-laws-committee-2017"]["calendar"] == []
