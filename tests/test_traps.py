"""The small traps a new user fell into (issue 13), each with the fix a user expects.

Every test runs the command line (bridgelaw.commands.cli.main) as a TD would and asserts the exact
message or the accepted value.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from bridgelaw.commands.cli import main

REPO = Path(__file__).resolve().parent.parent
TRAVELLER = REPO / "travellers" / "wbf-2017-example-09.yaml"
POLL_CASE = REPO / "cases" / "wbf-commentary-2017" / "example-11b-half-reach-slam.yaml"

CASE = """\
title: Hesitation before 4S
rulebook: wbf-2017
scoring: imps
board: {number: 7, vulnerability: NS}
non_offending: NS
table_result: 4S= W
other_table: 4H= N
without_infraction: 4H= N
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "case.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def ruling(capsys, path: str) -> dict:
    code, out, err = run(capsys, "rule", path, "--format", "json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


@pytest.mark.parametrize("word", ["IMPs", "IMP", "Imps", "imps"])
def test_scoring_words_in_any_case_are_accepted(capsys, tmp_path, word):
    data = ruling(capsys, write(tmp_path, CASE.replace("scoring: imps", f"scoring: {word}")))
    assert data["unit"] == "IMP"
    assert data["nos"]["exact"] == "0"


@pytest.mark.parametrize("word", ["Matchpoints", "MPs", "match points"])
def test_matchpoint_words_are_accepted(capsys, tmp_path, word):
    text = CASE.replace("scoring: imps", f"scoring: {word}").replace("other_table: 4H= N", "field: [4H= N, 4S= W]")
    data = ruling(capsys, write(tmp_path, text))
    assert data["unit"] == "MP"
    assert data["top"]["exact"] == "4"


def test_rulebook_given_as_a_year_lists_the_rulebooks(capsys, tmp_path):
    path = write(tmp_path, CASE.replace("rulebook: wbf-2017", "rulebook: 2017"))
    code, out, err = run(capsys, "rule", path)
    assert (code, out) == (2, "")
    assert err == (f"bridgelaw: error: {path}:2:11: unknown rulebook '2017' (expected one of acbl-1997, acbl-2007, "
                   "dbf-1997, dbf-2007, ebl-2008-vp-proposal, ebl-2008, ebu, wbf-1997, wbf-2007, wbf-2017, "
                   "wbf-appeals-2000, wbf-laws-committee-2007, wbf-laws-committee-2017); did you mean 'wbf-2017'?\n")


@pytest.mark.parametrize("written, canonical", [("4♠= W", "4S= W"), ("4♥X-2 N", "4HX-2 N"), ("3♦+1 E", "3D+1 E"),
                                                 ("2♣= S", "2C= S"), ("4♠−1 W", "4S-1 W")])
def test_suit_symbols_are_accepted(capsys, tmp_path, written, canonical):
    data = ruling(capsys, write(tmp_path, CASE.replace("table_result: 4S= W", f"table_result: {written}")))
    assert f"A (table result) = {canonical}:" in " ".join(data["steps"])


def test_a_bad_result_says_what_is_expected(capsys, tmp_path):
    path = write(tmp_path, CASE.replace("table_result: 4S= W", "table_result: 4Z= W"))
    code, out, err = run(capsys, "rule", path)
    assert code == 2
    assert err == (f"bridgelaw: error: {path}:6:15: table_result: '4Z= W': not a result: '4Z= W' (expected a result "
                   "such as 4SX-2 W, 3NT= S, 4♠= N or PASS, or a score such as NS +620)\n")
    assert "expected write" not in err


@pytest.mark.parametrize("word, canonical", [("Neither", "None"), ("Love All", "None"), ("love all", "None"),
                                             ("Nil", "None"), ("Both", "All"), ("Game All", "All"), ("Love", "None"),
                                             ("-", "None"), ("N-S", "NS"), ("E/W", "EW")])
def test_vulnerability_words_are_accepted(capsys, tmp_path, word, canonical):
    text = CASE.replace("vulnerability: NS", f"vulnerability: '{word}'")
    code, out, err = run(capsys, "rule", write(tmp_path, text))
    assert (code, err) == (0, "")
    assert f"  Vulnerability           {canonical} (board 7)" in out.splitlines()


def test_top_in_a_pairs_case_says_the_top_comes_from_the_field(capsys, tmp_path):
    text = CASE.replace("scoring: imps", "scoring: matchpoints").replace("other_table: 4H= N", "field: [4H= N]\ntop: 12")
    path = write(tmp_path, text)
    code, out, err = run(capsys, "rule", path)
    assert code == 2
    assert err == (f"bridgelaw: error: {path}:8:1: unknown key 'top': the top is not given, it comes from the field "
                   "(2 × the number of other results at matchpoints) (expected field: [<result>, ...] or "
                   "results_on_board: <n>)\n")


def test_check_on_a_traveller_says_to_score_it(capsys):
    code, out, err = run(capsys, "check", str(TRAVELLER))
    assert code == 2
    assert out.splitlines()[1] == (f"      {TRAVELLER}:9:1: this is a traveller (it has tables:), not a case file; "
                                   f"score it with `bridgelaw score {TRAVELLER}`")


def test_rule_on_a_traveller_says_to_score_it(capsys):
    code, out, err = run(capsys, "rule", str(TRAVELLER))
    assert code == 2
    assert err == (f"bridgelaw: error: {TRAVELLER}:9:1: this is a traveller (it has tables:), not a case file; "
                   f"score it with `bridgelaw score {TRAVELLER}`\n")


def test_score_on_a_case_says_to_rule_it(capsys, tmp_path):
    path = write(tmp_path, CASE)
    code, out, err = run(capsys, "score", path)
    assert code == 2
    assert err == (f"bridgelaw: error: {path}:5:1: this is a case file (it has non_offending:), not a traveller; "
                   f"rule it with `bridgelaw rule {path}`\n")


def test_explain_without_a_name_does_what_its_help_says(capsys):
    code, out, err = run(capsys, "explain")
    assert code == 2
    assert err == ("bridgelaw: error: explain without NAME lists the rules and parameters of the rulebook given by "
                   "--rulebook (expected --rulebook ID, ID one of acbl-1997, acbl-2007, dbf-1997, dbf-2007, "
                   "ebl-2008-vp-proposal, ebl-2008, ebu, wbf-1997, wbf-2007, "
                   "wbf-2017, wbf-appeals-2000, wbf-laws-committee-2007, wbf-laws-committee-2017); "
                   "or name a rule or parameter: bridgelaw explain NAME\n")
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "Without NAME, list the rules and parameters of the rulebook given by --rulebook (which is then " \
           "required)." in help_text
    code, out, err = run(capsys, "explain", "--rulebook", "wbf-2017")
    assert code == 0 and "appeal.time_limit_minutes" in out


def test_as_of_after_the_rulebook_ends_is_an_error_naming_its_period(capsys, tmp_path):
    # issue 21: a ruling for a date after the rulebook's end was given under it, clamped to its last day; it is
    # an error now (exit 2, one line naming the period), and an undated case is read on the rulebook's last day
    path = write(tmp_path, CASE.replace("rulebook: wbf-2017", "rulebook: wbf-2007"))
    code, out, err = run(capsys, "rule", path, "--as-of", "2030-01-01")
    assert (code, out) == (2, "")
    assert err.startswith("bridgelaw: error: --as-of 2030-01-01: rulebook wbf-2007 is in force from 2008-01-01 to 2017-12-31; 2030-01-01 "
                          "is later (expected a date from 2008-01-01 to 2017-12-31, or a rulebook in force on "
                          "2030-01-01); in force on 2030-01-01: ebu, wbf-2017, wbf-laws-committee-2017") and err.count("\n") == 1
    code, out, err = run(capsys, "rule", path)
    assert code == 0 and "  Rulebook wbf-2007 2007.1 as of 2017-12-31 (today, " in out


def test_as_of_in_force_is_named(capsys, tmp_path):
    code, out, err = run(capsys, "rule", write(tmp_path, CASE), "--as-of", "2020-06-30")
    assert "  Rulebook wbf-2017 2017.1 as of 2020-06-30 (the date asked for, 2020-06-30)." in out.splitlines()


def test_a_poll_rulings_facts_show_the_weights_used(capsys):
    code, out, err = run(capsys, "rule", str(POLL_CASE))
    lines = out.splitlines()
    assert "  Without the infraction (as polled)  6D= S × 1/2; 3NT+2 S × 1/2" in lines
    assert "  Weights used                        6D= S × 3/5; 3NT+2 S × 2/5" in lines


def test_published_figures_of_a_case_are_shown_and_compared(capsys):
    path = REPO / "cases" / "wbf-commentary-2007" / "weighted-imps.yaml"
    code, out, err = run(capsys, "rule", str(path))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "  Published (non-offending)  -4 2/3 IMPs: the ruling gives 4 2/3 (differs by 9 1/3)" in lines
    data = ruling(capsys, str(path))
    assert data["record"]["published"]["nos"] == {"exact": "-14/3", "value": data["record"]["published"]["nos"]["value"],
                                                  "agrees": False}
    assert Fraction(data["record"]["published"]["nos"]["exact"]) == Fraction(-14, 3)


def test_notes_are_shown_in_every_format(capsys):
    path = str(REPO / "cases" / "wbf-commentary-2007" / "weighted-imps.yaml")
    words = "As in the 2017 commentary, example 8"
    for fmt in ("text", "markdown"):
        code, out, err = run(capsys, "rule", path, "--format", fmt)
        assert words in " ".join(out.split())
    assert ruling(capsys, path)["record"]["notes"].startswith(words)


# --- compare: only rulebooks in force on the case's date, units never mixed ---------------------------

def test_compare_summary_keeps_imps_and_matchpoints_apart(capsys):
    cases = REPO / "cases"
    # (the poll's benefit of doubt is the Laws Committee's: the layer, not wbf-2017, moves example 11b)
    code, out, err = run(capsys, "compare", "--rulebooks", "wbf-2007,wbf-laws-committee-2017",
                         str(cases / "law12-provisions" / "session-percentage-2017.yaml"),
                         str(cases / "wbf-commentary-2017" / "example-11b-half-reach-slam.yaml"))
    assert code == 0
    assert out.splitlines()[-1] == ("wbf-laws-committee-2017 vs wbf-2007: 2 of 2 rulings change — 2 in the non-offending side's "
                                    "favour, 0 in the offending side's, 0 unclear; scores move by 2 IMPs and "
                                    "1 matchpoint in all")


def test_compare_leaves_out_of_scope_rulebooks_out(capsys, tmp_path):
    path = write(tmp_path, CASE.replace("title:", "date: 2024-05-01\ntitle:"))
    code, out, err = run(capsys, "compare", "--rulebooks", "wbf-2007,wbf-2017,ebu", path)
    lines = out.splitlines()
    assert lines[1] == ("  wbf-2007               (out of scope: wbf-2007 is in force from 2008-01-01 to 2017-12-31; "
                        "the case is dated 2024-05-01)")
    assert lines[2] == "  wbf-2017               none-self-inflicted NS 0 IMPs EW 0 IMPs [12B1, 12C1(a)]"
    assert lines[-2] == "wbf-2017 vs wbf-2007: 0 of 0 rulings change (1 out of scope, not compared)"


def test_web_compare_marks_nothing_when_the_rulebooks_in_scope_agree(tmp_path):
    from starlette.testclient import TestClient
    from bridgelaw.web.app import create_app
    client = TestClient(create_app())
    form = {"rulebook": "wbf-2017", "title": "t", "date": "2024-05-01", "scoring": "imps", "board_number": "7",
            "vulnerability": "NS", "kind": "assigned", "non_offending": "NS", "table_result": "4S= W",
            "other_table": "4H= N", "b_mode": "one", "b_result": "4H= N", "action": "compare", "compare_sent": "1",
            "compare": ["wbf-2007", "wbf-2017", "ebu"]}
    r = client.post("/compare", data=form)
    assert r.status_code == 200
    assert "out of scope: wbf-2007 is in force from 2008-01-01 to 2017-12-31; the case is dated 2024-05-01" in r.text
    assert 'class="differs' not in r.text
    assert '<td data-label="wbf-2017">0 IMPs (non-offending)</td>' in r.text


def test_an_infraction_is_shown_and_its_law_comes_first_on_the_slip(tmp_path):
    """The infraction (a key the law issue adds to case files) is shown as the file gives it, and the
    law it names heads the slip's laws, before Law 12 in paragraph order."""
    from bridgelaw import rulebook
    from bridgelaw.render import slip
    from bridgelaw.ruling.case import load_case
    from bridgelaw.render.ruling import text
    from bridgelaw.ruling.build import rule_case
    case = load_case(write(tmp_path, CASE))
    from bridgelaw.ruling.caseschema import Infraction
    case.model.__dict__["infraction"] = Infraction(law="16B1", note="West chose 4S, suggested by the pause",
                                                   findings={"suggested_over_a_logical_alternative": True})
    ruling = rule_case(case, rulebook.get("wbf-2017"))
    s = slip.build(ruling, case)
    # the paragraphs that empower the adjustment (the rulebook's infractions: for 16B1), then Law 12
    assert [ref for ref, _ in s.laws] == ["16B1(a)", "16B3", "12B1", "12C1(a)", "12C1(b)"]
    shown = "law: 16B1; note: West chose 4S, suggested by the pause; findings: suggested over a logical alternative: yes"
    assert ("Infraction", shown) in s.story
    assert "  Infraction  " + shown in " ".join(text(ruling, case).split("\n              "))
    assert f'id="slip-story-infraction">{shown}<' in slip.html(s)
