"""Issue 29, item 4: the tracebacks, the accepted nonsense and the errors without a position of the
hostile-input catalogue — each a one-line located error (or a correct result), exact."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw.commands.cli import main
from bridgelaw.core import vp
from bridgelaw.rulebook import model, rules_dir

sys.path.insert(0, str(Path(__file__).parent))
from usebio_teams_files import EBUSCORE, JSS, generate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "events"
MAGIC = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
COMPSCORE = DATA / "compscore-mp-pairs-mitchell.xml"
CASE = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"


@pytest.fixture(scope="module")
def teams(tmp_path_factory):
    d = tmp_path_factory.mktemp("teams")
    out = {}
    for name, figures in (("jss", JSS), ("ebuscore", EBUSCORE)):
        out[name] = d / f"{name}.xml"
        out[name].write_bytes(generate(figures))
    return out


def err(capsys) -> str:
    out, error = capsys.readouterr()
    return error


# --- the two tracebacks -----------------------------------------------------------------------------

RULING_86B2 = """\
rulebook: {book}
rulings:
  - board: {board}
    ns: {ns}
    non_offending: EW
    adjusted: [{{result: 4S= W, weight: 1/2}}, {{result: 4S-2 W, weight: 1/2}}]
    infraction: {{law: 86B2}}
"""


@pytest.mark.parametrize("book", ["wbf-2007", "acbl-2007", "ebl-2008-vp-proposal"])
@pytest.mark.parametrize("name, board, ns", [("jss", 3, "1-1-2"), ("ebuscore", 1, "1-1-2")])
def test_86b2_under_the_2007_laws_is_law_87s_artificial_score(teams, tmp_path, capsys, book, name, board, ns):
    """Under the 2007 Laws "86B2" is Law 87 (fouled board, teams): an artificial score by responsibility
    (rules/wbf-2007.yaml: 87 known_as 86B2, artificial nos in-no-way-at-fault, os directly-at-fault) —
    the case path rules it so; an adjusted score of results with it was a TypeError in adjust.py."""
    rulings = tmp_path / "r.yaml"
    rulings.write_text(RULING_86B2.format(book=book, board=board, ns=ns))
    assert main(["event", str(teams[name]), "--rulings", str(rulings)]) == 2
    shown = book + ("+teamsscorer" if name == "jss" else "")
    assert err(capsys) == (
        f"bridgelaw: error: {rulings}:7:17: under {shown}, Law 86B2 gives an artificial adjusted score by "
        "responsibility (NS: avg-minus, EW: avg-plus), not a score formed from results (expected an artificial: "
        "ruling for this line); artificial: {NS: avg-minus, EW: avg-plus} in place of adjusted: and infraction:\n")


def _full(*args: str) -> subprocess.CompletedProcess:
    with open("/dev/full", "w") as full:
        return subprocess.run([sys.executable, "-m", "bridgelaw", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["rule", str(CASE)], ["rulebooks"], ["rulebooks", "--format", "json"],
                                  ["event", str(MAGIC), "--rulebook", "wbf-2017"]])
def test_a_report_to_a_full_device_is_one_line(args):
    done = _full(*args)
    assert (done.returncode, done.stderr) == (2, "bridgelaw: error: cannot write the output: No space left on device\n")


# --- accepted nonsense ------------------------------------------------------------------------------

def test_a_vp_table_giving_the_loser_negative_vps_is_refused(teams, capsys):
    with pytest.raises(ValueError) as caught:
        vp.parse_table("3: 0=10 1=11 20=30")
    assert str(caught.value) == ("the 3-board table gives a winner 30 VPs at a margin of 20, more than the match's 20 "
                                 "(twice the draw's 10): the loser would get -10")
    assert vp.parse_table("3: 0=10 1=11 20=20")[3][1] == 20              # a winner's 20 of 20 is fine
    assert main(["event", str(teams["jss"]), "--rulebook", "wbf-2007", "--set", "vp.table=3: 0=10 20=30"]) == 2
    assert "the loser would get -10" in err(capsys)


PENALTY = "rulebook: wbf-2007\nrulings:\n  - {{board: 3, ns: 1-1-2, penalty: {{EW: {amount} VP}}}}\n"


def test_a_vp_penalty_larger_than_the_match_is_refused(teams, tmp_path, capsys):
    rulings = tmp_path / "r.yaml"
    rulings.write_text(PENALTY.format(amount=30))
    assert main(["event", str(teams["jss"]), "--rulings", str(rulings)]) == 2
    assert err(capsys) == (f"bridgelaw: error: {teams['jss']}:368:16: board 3 NS 1-1-2 v EW 3-3-4: a procedural "
                           "penalty of 30 VP, more than round 1: team 1 v team 3 is worth (20 VPs) (expected a penalty "
                           "of at most 20 VP)\n")
    rulings.write_text(PENALTY.format(amount=20))                         # the whole match: taken
    assert main(["event", str(teams["jss"]), "--rulings", str(rulings)]) == 0
    assert "procedural penalty 20 VP off the match: 8 − 20 = -12 VP" in capsys.readouterr().out


def test_a_vp_penalty_larger_than_the_match_in_a_case_is_refused(tmp_path, capsys):
    case = tmp_path / "c.yaml"
    case.write_text("""\
title: a VP penalty
rulebook: wbf-2017
scoring: imps
event: teams
board: {number: 3, vulnerability: None}
non_offending: NS
table_result: 4S= W
other_table: 4S= W
without_infraction: 4S-1 W
match: {boards: 3, imps: {NS: 8, EW: 0}}
penalty: {side: EW, amount: 25 VP}
""")
    assert main(["rule", str(case)]) == 2
    assert err(capsys) == (f"bridgelaw: error: {case}:11:10: a procedural penalty of 25 VP, more than the match is "
                           "worth (20 VPs) (expected a penalty of at most 20 VP)\n")


def test_a_session_after_the_rulebooks_end_is_refused_unless_as_of(capsys):
    assert main(["event", str(MAGIC), "--rulebook", "wbf-1997"]) == 2     # read "as in force on 2008-09-30" before
    assert err(capsys) == (
        f"bridgelaw: error: {MAGIC}:1:1: the session was played on 2022-02-06; rulebook wbf-1997+magic-contest is in "
        "force from 1997-05-27 to 2008-09-30; 2022-02-06 is later (expected a date from 1997-05-27 to 2008-09-30); "
        "another rulebook, or --as-of\n")
    assert main(["event", str(MAGIC), "--rulebook", "wbf-1997", "--as-of", "2008-01-01"]) == 0
    assert "as in force on 2008-01-01" in capsys.readouterr().out
    assert main(["event", str(MAGIC), "--rulebook", "wbf-1997", "--as-of", "2010-01-01"]) == 2
    assert err(capsys) == ("bridgelaw: error: --as-of 2010-01-01: rulebook wbf-1997+magic-contest is in force from "
                           "1997-05-27 to 2008-09-30; 2010-01-01 is later (expected a date from 1997-05-27 to "
                           "2008-09-30); another rulebook\n")


def test_as_of_out_of_range_names_the_option(capsys):
    assert main(["event", str(MAGIC), "--rulebook", "wbf-2017", "--as-of", "1990-01-01"]) == 2
    assert err(capsys) == ("bridgelaw: error: --as-of 1990-01-01: rulebook wbf-2017+magic-contest is in force from "
                           "2017-03-01; 1990-01-01 is earlier (expected a date from 2017-03-01); another rulebook\n")
    assert main(["rule", str(CASE), "--as-of", "1990-01-01"]) == 2
    assert err(capsys) == ("bridgelaw: error: --as-of 1990-01-01: rulebook wbf-2017 is in force from 2017-03-01; "
                           "1990-01-01 is earlier (expected a date from 2017-03-01, or a rulebook in force on "
                           "1990-01-01)\n")


def test_a_line_naming_a_pair_not_in_participants_is_refused(tmp_path, capsys):
    text = COMPSCORE.read_text(encoding="utf-8", errors="surrogateescape")
    at = text.index("<NS_PAIR_NUMBER>", text.index("<TRAVELLER_LINE>"))
    end = text.index("</NS_PAIR_NUMBER>", at)
    bad = tmp_path / "bad.xml"
    bad.write_text(text[:at] + "<NS_PAIR_NUMBER>99" + text[end:], encoding="utf-8", errors="surrogateescape")
    line = text[:at].count("\n") + 1
    column = at - text.rindex("\n", 0, at)
    assert main(["event", str(bad), "--rulebook", "wbf-2017", "--as-of", "2020-01-01"]) == 2
    message = err(capsys)
    assert message.startswith(f"bridgelaw: error: {bad}:{line}:{column}: board ")
    assert message.endswith(": pair 99 is not one of the PARTICIPANTS (expected a PAIR_NUMBER the PARTICIPANTS "
                            "list)\n")


def test_an_unknown_usebio_version_is_refused(teams, tmp_path, capsys):
    bad = tmp_path / "v.xml"
    bad.write_bytes(teams["jss"].read_bytes().replace(b'Version="1.2"', b'Version="9.9"'))
    assert main(["event", str(bad), "--rulebook", "wbf-2007"]) == 2
    assert err(capsys) == (f'bridgelaw: error: {bad}:3:1: USEBIO Version "9.9" is not a version this reader knows '
                           "(expected Version 1.0, 1.1 or 1.2)\n")


# --- errors without a position ------------------------------------------------------------------------

def test_a_teams_event_not_written_as_pbn_names_the_output(teams, tmp_path, capsys):
    out = tmp_path / "x.pbn"
    assert main(["event", str(teams["ebuscore"]), "--rulebook", "wbf-2007", "--output", str(out)]) == 2
    assert err(capsys) == (f"bridgelaw: error: --output {out}: a teams event is not written as PBN: no PBN teams "
                           "results file (rooms, match scores) was found to model the format on (expected --output "
                           "FILE.xml (USEBIO teams) for a teams event)\n")
    assert not out.exists()


def test_the_1997_laws_score_matchpoints_without_a_profile(capsys):
    """Issue 29: wbf-1997 left fieldscore.neuberg.round_mode unset, so matchpoints needed a profile
    (the error was said at the session); the rulebook now sets it (rules/wbf-1997.yaml)."""
    assert main(["event", str(MAGIC), "--rulebook", "wbf-1997", "--profile", "none", "--as-of", "2008-01-01"]) == 0
    out = capsys.readouterr().out
    assert "rulebook wbf-1997+learnt 1997.1, as in force on 2008-01-01" in out
    assert "neuberg.round_mode toward-average — rulebook wbf-1997" in out


def test_the_teams_suggestion_names_the_room_by_its_pairs(teams, tmp_path, capsys):
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: acbl-2007\nrulings:\n  - board: 3\n    ns: 1-1-2\n"
                       "    adjusted: [{result: 4S= W, weight: 1/2}, {result: 4S-2 W, weight: 1/2}]\n")
    assert main(["event", str(teams["jss"]), "--rulings", str(rulings)]) == 2
    assert err(capsys) == (f"bridgelaw: error: {rulings}:5:15: which side is non-offending decides this adjusted "
                           "score under rule most-favourable-likely (acbl-2007+teamsscorer) (expected non_offending: "
                           "NS or EW on the table); e.g. {ns: 1-1-2, ew: 3-3-4, non_offending: NS, adjusted: …}\n")


# --- the web never shows where the server is installed -------------------------------------------------

def test_a_shipped_rulebooks_place_is_rules_wherever_the_server_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert model._short(str(rules_dir() / "wbf-2017.yaml")) == "rules/wbf-2017.yaml"
    assert model._short(str(rules_dir() / "shared" / "wbf-law12.yaml")) == "rules/shared/wbf-law12.yaml"
    (tmp_path / "mine.yaml").write_text("")
    assert model._short(str(tmp_path / "mine.yaml")) == "mine.yaml"


def test_web_pages_do_not_show_the_install_path():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from bridgelaw.web.app import create_app
    client = TestClient(create_app(), base_url="http://127.0.0.1")
    page = client.get("/").text
    assert str(ROOT) not in page and str(rules_dir()) not in page
    assert "<footer class=\"site\">bridgelaw " in page and "rules/" not in page.split("<footer")[1]


def test_a0100_is_no_code(tmp_path, capsys):
    """Issue 29: A0100 was read as 1 % / 0 % (two two-digit percentages). Whether it means that or
    0 % / 100 %, no program's file says; a group with a leading zero is no code, said at its cell."""
    from bridgelaw.field.cells import parse_code
    assert parse_code("A0100") is None and parse_code("A0505") is None
    assert (parse_code("A6040").NS, parse_code("A6040").EW) == (F(3, 5), F(2, 5))
    src = tmp_path / "a.xml"
    lines = (DATA / "compscore-mp-pairs-howell.xml").read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[267] == "    <SCORE>-400</SCORE>\n"
    lines[267] = "    <SCORE>A0100</SCORE>\n"
    src.write_text("".join(lines), encoding="utf-8")
    assert main(["event", str(src), "--rulebook", "wbf-2017"]) == 2
    assert err(capsys) == (f"bridgelaw: error: {src}:268:5: SCORE 'A0100' is not a score or a known code (expected "
                           "a score such as 420 or -50, PASS, or an artificial code: A+, A=, A-, A60 (one side, %), "
                           "A6040 (NS then EW, %), %60, Bye or NP (not played))\n")
