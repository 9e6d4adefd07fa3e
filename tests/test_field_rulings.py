"""Issue 22 on the field side: every ruled line of `bridgelaw score` / `bridgelaw event` goes through the
case path — an adjusted table as the TD publishes it (a result, weights, `judged:` words, a split), in
table points where a case cannot give the field (cross-IMPs, butler), and a procedural penalty (a share
of a top at pairs, IMPs at teams, VPs against a match) by the penalty stage, its paragraph cited in
`rule`, `event` (text and JSON) and on the slip.

Sources: the Magic Contest file (FFB), the JSS TeamsScorer file generated from its published figures,
the Compscore cross-IMP and butler files (tests/data/events/ORIGINS.md); WBF commentary example 9; SBF
LK 218 (cases/published/sbf-2003-lk218.yaml), a published ruling with a procedural penalty in IMPs."""

from __future__ import annotations

import json
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.commands.cli import main
from bridgelaw.core import bridge
from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.run import load_event, outputs, run
from bridgelaw.field.traveller import load_traveller, score_traveller
from bridgelaw.render import event as report
from bridgelaw.render import slip as slips
from bridgelaw.ruling.build import rule_case
from bridgelaw.ruling.case import load_case

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "events"
MAGIC = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
CROSS = DATA / "compscore-cross-imp-howell.xml"
BUTLER = DATA / "compscore-butler-howell.xml"
sys.path.insert(0, str(ROOT / "tests"))
from usebio_teams_files import JSS, generate  # noqa: E402

TABLE = "3: 0=10 1=11 2=12 3=13 5=14 7=15 9=16 11=17 14=18 17=19 20=20"      # rules/profiles/teamsscorer.yaml


@pytest.fixture(scope="module")
def jss(tmp_path_factory):
    path = tmp_path_factory.mktemp("teams") / "jss.xml"
    path.write_bytes(generate(JSS))
    return path


def cli(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def event_json(capsys, path, rulings, *extra) -> dict:
    return json.loads(cli(capsys, "event", str(path), "--rulings", str(rulings), *extra, "--format", "json"))


def line_json(data: dict, board: int, **who) -> dict:
    (session,) = data["sessions"]
    (b,) = [b for b in session["boards"] if b["board"] == board]
    (line,) = [li for li in b["lines"] if all(li[k] == v for k, v in who.items())]
    return line


def write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def block(text: str, start: str) -> str:
    """The event report's block for one line (its heading to the next line's)."""
    part = text[text.index(start):]
    return part[:part.index("\n  board ", 1)] if "\n  board " in part[1:] else part


# --- procedural penalties: pairs (a share of a top) -----------------------------------------------------

PAIRS_CASE = """\
title: Magic Contest board 8 table 3 — slow play, 10% of a top
rulebook: wbf-2017
scoring: matchpoints
board: {{number: 8, vulnerability: None}}
non_offending: NS
field: [{field}]
table_result: 3C+2 E
without_infraction: 3C+2 E
penalty: {{side: EW, amount: 10%}}
"""


def test_a_share_of_a_top_at_pairs_in_rule_event_and_the_slip(tmp_path, capsys):
    """EW at table 3 of board 8 get 10% of a top (42) off their 22 MP: 17 4/5 — in `bridgelaw rule` of the
    equivalent case (the board's other 21 results as its field), in the event's text and JSON with 90A, and
    on the case's slip."""
    event = load_event(str(MAGIC))
    others = [l.result.text for l in event.sessions[0].boards[8].lines if l.table != 3]
    case = write(tmp_path, "case.yaml", PAIRS_CASE.format(field=", ".join(others)))
    ruled = json.loads(cli(capsys, "rule", str(case), "--as-of", "2022-02-06", "--format", "json"))
    assert (F(ruled["sides"]["NS"]["exact"]), F(ruled["sides"]["EW"]["exact"])) == (F(20), F(89, 5))
    assert "90A" in [c["paragraph"] for c in ruled["citations"]]
    text = cli(capsys, "rule", str(case), "--as-of", "2022-02-06")
    assert "EW: procedural penalty 10% of a top = 4 1/5 MP (of the top 42), taken from EW's score: 22 − 4 1/5 = " \
           "17 4/5 matchpoints; after-factoring (penalty.matchpoints.order)" in text
    r = rule_case(load_case(case), rulebook.get("wbf-2017"))
    assert slips.build(r, r.case).penalties == ["Procedural penalty (Law 90A): EW: 10% of a top = 4 1/5 MP, "
                                                "included in the score above"]
    assert 'class="penalty"' in slips.html(slips.build(r, r.case))

    rulings = write(tmp_path, "r.yaml", "rulebook: wbf-2017\nrulings:\n  - {board: 8, table: 3, penalty: {EW: 10%}}\n")
    line = line_json(event_json(capsys, MAGIC, rulings, "--profile", "none"), 8, table=3)
    assert (F(line["NS"]["exact"]), F(line["EW"]["exact"])) == (F(20), F(89, 5))      # the case's scores
    assert line["citations"] == ["90A"] and line["rules"] == ["penalty-pair-or-team (90A)"]
    assert line["penalties"] == [{"on": "EW", "side": "EW", "amount": "10% of a top", "against": "board", "to": "side",
                                  "order": "after-factoring", "rule": "penalty-pair-or-team", "cites": ["90A"],
                                  "taken": {"exact": "21/5", "value": 4.2}}]
    assert [e["kind"] for e in line["trace"]] == ["decision", "parameter", "penalty"]
    assert line["steps"]["EW"] == ["EW: procedural penalty 4 1/5 MP (10% of the top 42): 22 → 17 4/5 "
                                   "(rule penalty-pair-or-team: 90A)"]
    text = block(cli(capsys, "event", str(MAGIC), "--rulings", str(rulings), "--profile", "none"), "  board 8 table 3:")
    assert "    procedural penalty (Law 90A): EW, 10% of a top: 4 1/5 off the board" in text
    assert "    law: 90A" in text


@pytest.mark.parametrize("order, after", [("after-factoring", F(-4) - F(16, 105)), ("before-factoring", F(-4) - F(1, 7))])
def test_the_penalty_order_against_neuberg_is_the_rulebooks(tmp_path, order, after):
    """Board 4 has an artificial table, so its 21 results are factored up to 22 (top 42). EW at table 3
    scored 0 of 40, 1/21 factored. After factoring: 1/21 − 10% × 42; before: (0 − 10% × 40 + 1) × 22/21 − 1."""
    text = ("rulebook: wbf-2017\nrulings:\n  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}}\n"
            "  - {board: 4, table: 3, penalty: {EW: 10%}}\n")
    (ss,) = run(load_event(str(MAGIC)), "r.yaml", None, [f"penalty.matchpoints.order={order}"], rulings_text=text,
                profile="none")
    (sl,) = [sl for sl in ss.boards[4].lines if sl.line.table == 3]
    assert sl.EW.value == after and sl.unfactored["EW"] == 0
    (e,) = [e for e in sl.entries if e.kind == "penalty"]
    assert (e.data["before"], e.data["after"], e.data["order"]) == (F(1, 21), after, order)
    assert ss.trace.book.parameters["penalty.matchpoints.order"] == order


# --- procedural penalties: teams, IMPs off a board and VPs off a match --------------------------------------

def test_imps_off_a_board_at_teams_in_rule_event_and_the_slip(jss, tmp_path, capsys):
    """SBF LK 218 (published): 3 IMPs to NS, the result standing; without the other table the ruling
    leaves them to the scoring. The same penalty on JSS match 1 board 2 (team 1 NS, +8): the board
    scores 5 for team 1 — what the case with the other table gives — in the event's text and JSON."""
    published = ROOT / "cases" / "published" / "sbf-2003-lk218.yaml"
    r = rule_case(load_case(published), rulebook.get("wbf-1997"))
    ((p,),) = [r.penalties]
    assert (p.side, p.amount.text, p.value, p.against) == ("NS", "+3 IMP", None, "board")
    assert slips.build(r, r.case).penalties == ["Procedural penalty (Law 90A): NS: 3 IMPs (taken when the board is "
                                                "scored)"]
    case = write(tmp_path, "case.yaml", "title: JSS match 1 board 2, room 1\nrulebook: wbf-2007\nscoring: imps\n"
                 "board: {number: 2, vulnerability: NS}\nnon_offending: EW\ntable_result: 3S= E\n"
                 "other_table: 5DX-2 N\nwithout_infraction: 3S= E\npenalty: {side: NS, amount: 3 IMP}\n")
    text = cli(capsys, "rule", str(case))
    assert "NS: procedural penalty 3 IMPs, taken from NS's score: 8 − 3 = 5 IMPs" in text and "90A" in text
    ruled = rule_case(load_case(case), rulebook.get("wbf-2007"))
    assert ruled.scores["NS"].value == 5
    assert slips.build(ruled, ruled.case).penalties == ["Procedural penalty (Law 90A): NS: 3 IMPs, included in the "
                                                        "score above"]

    rulings = write(tmp_path, "r.yaml", "rulebook: wbf-2007\nrulings:\n  - {board: 2, ns: 1-1-2, penalty: {NS: 3 IMP}}\n")
    data = event_json(capsys, jss, rulings)
    line = line_json(data, 2, ns="1-1-2")
    assert F(line["NS"]["exact"]) == ruled.scores["NS"].value == 5
    assert line["penalties"][0]["amount"] == "3 IMPs" and line["penalties"][0]["cites"] == ["90A"]
    match = data["sessions"][0]["teams"]["matches"][0]
    assert [F(b["home"]["exact"]) for b in match["boards"]] == [0, 5, -6]
    assert match["boards"][1]["penalties"] == [{"team": "1", "amount": {"exact": "3", "value": 3.0}}]
    # team 1 nets −1 IMP (9 VPs); team 3's board score is not changed (the penalty is team 1's alone): −2, 8 VPs
    assert (F(match["score"]["home"]["exact"]), F(match["score"]["away"]["exact"])) == (9, 8)
    text = cli(capsys, "event", str(jss), "--rulings", str(rulings))
    assert "NS: procedural penalty 3 IMPs: 8 → 5 (rule penalty-pair-or-team: 90A)" in text
    assert "    procedural penalty (Law 90A): NS, 3 IMPs off the board" in text


def test_vps_off_a_match_in_rule_event_and_the_slip(jss, tmp_path, capsys):
    """1 VP to team 3 (EW on board 1 in room 1) in JSS match 1, a 2-IMP win for team 1 (12–8 on
    TeamsScorer's table): 12–7 — the case of board 1 with match: converts the match and takes the VP."""
    case = write(tmp_path, "case.yaml", "title: JSS match 1 board 1, room 1\nrulebook: wbf-2007\nscoring: imps\n"
                 "board: {number: 1, vulnerability: None}\nnon_offending: NS\ntable_result: 3NT+2 E\n"
                 "other_table: 4H+1 E\nwithout_infraction: 3NT+2 E\nmatch: {boards: 3, imps: {NS: 8, EW: 6}}\n"
                 "penalty: {side: EW, amount: 1 VP}\n")
    table = ["--set", "vp.scale=table", "--set", f"vp.table={TABLE}"]
    text = cli(capsys, "rule", str(case), *table)
    assert "EW: 8 − 1 VP (procedural penalty) = 7 VP" in text and "90A" in text
    ruled = json.loads(cli(capsys, "rule", str(case), *table, "--format", "json"))
    assert {side: F(v["exact"]) for side, v in ruled["vp"].items()} == {"NS": 12, "EW": 7}
    book = rulebook.proposed(rulebook.get("wbf-2007"), None, ["vp.scale=table", f"vp.table={TABLE}"])
    r = rule_case(load_case(case), book)
    assert slips.build(r, r.case).penalties == ["Procedural penalty (Law 90A): EW: 1 VP from the match"]
    assert slips.build(r, r.case).vp == "NS 12 VP, EW 7 VP"

    rulings = write(tmp_path, "r.yaml", "rulebook: wbf-2007\nrulings:\n  - {board: 1, ns: 1-1-2, penalty: {EW: 1 VP}}\n")
    data = event_json(capsys, jss, rulings)
    match = data["sessions"][0]["teams"]["matches"][0]
    assert {k: F(v["exact"]) for k, v in match["score"].items()} == {"home": 12, "away": 7}
    (vp,) = match["vp_penalties"]
    assert (vp["team"], vp["board"], vp["amount"], vp["cites"], F(vp["before"]["exact"]), F(vp["after"]["exact"])) == \
        ("3", 1, "1 VP", ["90A"], 8, 7)
    line = line_json(data, 1, ns="1-1-2")
    assert line["steps"]["EW"] == ["EW: procedural penalty 1 VP off team 3's score in round 1: team 1 v team 3: "
                                   "8 → 7 VP (rule penalty-pair-or-team: 90A)"]
    team3 = next(t for t in data["sessions"][0]["teams"]["teams"] if t["team"] == "3")
    assert "board 1" in team3["adjusted"]
    text = cli(capsys, "event", str(jss), "--rulings", str(rulings))
    assert "    board 1: team 3 procedural penalty 1 VP off the match: 8 − 1 = 7 VP (rule penalty-pair-or-team: 90A)" \
        in text


def test_a_vp_penalty_is_written_where_the_match_score_is_and_reads_back(jss, tmp_path):
    text = "rulebook: wbf-2007\nrulings:\n  - {board: 1, ns: 1-1-2, penalty: {EW: 1 VP}}\n" \
           "  - {board: 2, ns: 1-1-2, penalty: {NS: 3}}\n"
    event = load_event(str(jss))
    sessions = run(event, "r.yaml", None, None, rulings_text=text)
    (path, out, enc), = outputs(event, sessions, [str(tmp_path / "o.xml")], "x")
    assert "<!-- bridgelaw: pen EW=1VP -->" in out and "<!-- bridgelaw: pen NS=3 -->" in out
    path.write_text(out, encoding=enc)
    again = run(load_event(str(path)), None, "wbf-2007", None)[0]
    m = again.teams.matches[0]
    assert m.score == {"home": F(9), "away": F(7)} == sessions[0].teams.matches[0].score
    assert [p.borne.rule.id for p in m.penalties] == ["penalty-pair-or-team"]       # ruled again, not as given
    assert all(c.agrees for c in again.checks())


@pytest.mark.parametrize("rulings, message", [
    ("  - {board: 8, table: 3, penalty: {EW: 1 VP}}\n", "r.yaml:3:40: a penalty of 1 VP: victory points are against a "
     "teams match scored in VPs"),
    ("  - {board: 8, table: 3, penalty: {EW: 3 IMP}}\n", "r.yaml:3:40: a penalty of 3 IMP at matchpoints"),
    ("  - {board: 8, table: 3, penalty: {EW: 3 apples}}\n", "r.yaml:3:40: ruling 1, penalty.EW: '3 apples' is not a penalty"),
    # found by tests/test_fuzz.py: an adjusted score in the event's unit was an AttributeError in the field
    ("  - {board: 8, table: 3, adjusted: 1/3%}\n", "r.yaml:3:36: '1/3%' is a score in the event's unit; an adjusted "
     "table needs the result or the raw score"),
])
def test_a_penalty_or_a_score_in_the_wrong_unit_is_refused_at_its_place(rulings, message):
    with pytest.raises(BridgelawError) as e:
        run(load_event(str(MAGIC)), "r.yaml", None, [], rulings_text="rulebook: wbf-2017\nrulings:\n" + rulings)
    assert str(e.value).startswith(message), str(e.value)


def test_a_side_penalty_at_an_individual_is_refused():
    event = load_event(str(DATA / "individual-derived-from-magic-contest.pbn"))
    with pytest.raises(BridgelawError) as e:
        run(event, "r.yaml", None, [], rulings_text="rulebook: wbf-2017\nrulings:\n"
            "  - {board: 1, table: 3, penalty: {NS: 25%}}\n")
    assert str(e.value).startswith("r.yaml:3:40: at an individual event a penalty is on a player")


# --- adjusted tables as the TD publishes them ----------------------------------------------------------------

EXAMPLE_9 = """\
title: WBF commentary example 9, pair A's table played 4S+1 N
rulebook: wbf-2017
scoring: matchpoints
board: {number: 9, vulnerability: None}
tables:
  - {table: 1, ns: 1, ew: 11, result: 4H= S}
  - {table: 2, ns: 2, ew: 12, result: 4S+1 N}
  - {table: 3, ns: 3, ew: 13, result: 4H= S}
  - {table: 4, ns: 4, ew: 14, result: 3NT= S}
  - {table: 5, ns: 5, ew: 15, result: 4S= N}
  - {table: 6, ns: 6, ew: 16, result: 3H+1 S}
  - {table: 7, ns: 7, ew: 17, result: 3NT-1 S}
  - {table: 8, ns: 8, ew: 18, result: 1NT+2 N}
  - {table: 9, ns: 9, ew: 19, result: 4H= N}
  - {table: 10, ns: 10, ew: 20, result: 3NT= N}
  - {table: 11, ns: 11, ew: 21, result: 4S-1 N}
  - {table: 12, ns: 12, ew: 22, result: NS -50}
"""
WEIGHTING = "[{result: 3NT= S, weight: 1/3}, {result: 3NT-1 S, weight: 1/3}, {result: 4S= N, weight: 1/6}, " \
            "{result: 4S-1 N, weight: 1/6}]"


def test_a_published_weighted_ruling_in_a_rulings_file_scores_as_its_case_with_a_field(tmp_path, capsys):
    """WBF commentary example 9: pair A's published weighting (1/3, 1/3, 1/6, 1/6) as a rulings file's
    adjusted: gives 8 1/2 of 22 — the case with the other eleven results as its field gives 17/2 too — and
    the same case in table points (no field) assigns the four results whose field score is 17/2."""
    traveller = write(tmp_path, "board.yaml", EXAMPLE_9)
    rulings = write(tmp_path, "r.yaml", f"rulebook: wbf-2017\nrulings:\n  - {{board: 9, table: 2, non_offending: NS, "
                                        f"adjusted: {WEIGHTING}}}\n")
    line = line_json(event_json(capsys, traveller, rulings), 9, table=2)
    assert (F(line["NS"]["exact"]), F(line["EW"]["exact"])) == (F(17, 2), F(27, 2))
    others = ["4H= S", "4H= S", "3NT= S", "4S= N", "3H+1 S", "3NT-1 S", "1NT+2 N", "4H= N", "3NT= N", "4S-1 N", "NS -50"]
    base = ("title: pair A\nrulebook: wbf-2017\nscoring: matchpoints\nboard: {number: 9, vulnerability: None}\n"
            f"non_offending: NS\nwithout_infraction: {WEIGHTING}\n")
    with_field = write(tmp_path, "field.yaml", base + f"field: [{', '.join(others)}]\n")
    ruled = json.loads(cli(capsys, "rule", str(with_field), "--format", "json"))
    assert (F(ruled["sides"]["NS"]["exact"]), F(ruled["sides"]["EW"]["exact"])) == (F(17, 2), F(27, 2))
    assert line["trace"][1:len(ruled["trace"])] == ruled["trace"][1:]     # (the day asked aside)
    in_points = rule_case(load_case(write(tmp_path, "points.yaml", base)), rulebook.get("wbf-2017"))
    assert in_points.unit == "points"
    assert [(w, o.text) for w, o in in_points.assigned["NS"]] == [(F(1, 3), "3NT= S"), (F(1, 3), "3NT-1 S"),
                                                                 (F(1, 6), "4S= N"), (F(1, 6), "4S-1 N")]
    field = {p: n for p, n in bridge.frequency_table(bridge.ns_score(r, "None") for r in
                                                      (load_case(with_field).model.field)).items()}
    mp = lambda o: bridge.matchpoints_against(bridge.ns_score(o, "None"), field)   # noqa: E731
    assert in_points.scored("NS", mp) == F(17, 2)


JUDGED = """\
title: judged in words
rulebook: acbl-2007
date: 2014-03-01
scoring: {scoring}
board: {{number: 11, vulnerability: None}}
tables:
  - {{table: 1, ns: 1, ew: 11, result: 4H= S}}
  - {{table: 2, ns: 2, ew: 12, result: 4H+1 S}}
  - {{table: 3, ns: 3, ew: 13, result: 3NT= S}}
  - table: 4
    ns: 4
    ew: 14
    non_offending: NS
    adjusted: [{{result: 6H= S, judged: at all probable}}, {{result: 4H+1 S, judged: likely}}, {{result: 4H-1 S, judged: at all probable}}]
  - {{table: 5, ns: 5, ew: 15, result: 4H-1 S}}
"""


@pytest.mark.parametrize("scoring, ns, ew", [("matchpoints", F(7), F(0)), ("cross-imps", F(7, 2), F(-47, 4))])
def test_results_judged_likely_or_at_all_probable_in_a_traveller(tmp_path, scoring, ns, ew):
    """The ACBL's 12C1(e) election: NS the most favourable result judged likely (4H+1, +450), EW the most
    unfavourable judged at all probable (6H=, −980): at matchpoints 7 of 8 and 0; at cross-IMPs (in table
    points, then IMPs against the four other tables ÷ 4) +3 1/2 and −11 3/4."""
    sb = score_traveller(load_traveller(write(tmp_path, "t.yaml", JUDGED.format(scoring=scoring))))
    sl = sb.lines[3]
    assert (sl.NS.value, sl.EW.value) == (ns, ew)
    assert [c.outcome.text for c in sl.line.parts["NS"]] == ["4H+1 S"] and [c.outcome.text for c in sl.line.parts["EW"]] == ["6H= S"]
    assert [c.judged for c in sl.line.written["NS"]] == ["at-all-probable", "likely", "at-all-probable"]
    assert sl.line.ruled.unit == ("MP" if scoring == "matchpoints" else "points")


# --- cross-IMPs and butler: ruled in table points -------------------------------------------------------------

def imp_total(points: int, others: list[int]) -> int:
    return sum(bridge.imps(points - q) for q in others)


def test_a_cross_imp_table_is_ruled_in_table_points_with_its_real_results(tmp_path, capsys):
    """Compscore cross-IMPs, board 1: pair 2 (NS) played 3S= W (−140); adjusted to ½ 3NT+2 W (−460), ½ 3S= W.
    The ruling is the case's in table points — its trace shows the two results and −300, not ranks — and
    the field scores them against the other three tables, ÷ 3 comparisons: ½ × (−10) + ½ × 11 = 1/2 → 1/6."""
    rulings = write(tmp_path, "r.yaml", "rulebook: wbf-2017\nrulings:\n  - {board: 1, ns: 2, adjusted: "
                                        "[{result: 3NT+2 W, weight: 1/2}, {result: 3S= W, weight: 1/2}]}\n")
    line = line_json(event_json(capsys, CROSS, rulings), 1, ns="2")
    others = [-460, 50, -490]
    expected = (F(1, 2) * imp_total(-460, others) + F(1, 2) * imp_total(-140, others)) / 3
    assert (F(line["NS"]["exact"]), F(line["EW"]["exact"])) == (expected, -expected) == (F(1, 6), F(-1, 6))
    trace = line["trace"]
    assert trace[1]["scorer"].startswith("Scoring: in table points")
    (weighted,) = [e for e in trace if e["kind"] == "weighted"]
    assert [t[1]["text"] for t in weighted["terms"]] == ["3NT+2 W: NS -460", "3S= W: NS -140"]
    assert weighted["total"]["exact"] == "-300"
    awards = [(e["side"], e["value"]["exact"], e["unit"]) for e in trace if e["kind"] == "award"]
    assert awards == [("NS", "-300", "points"), ("EW", "300", "points")]
    assert not any("IMP" == t[1].get("unit") for e in trace if e["kind"] == "weighted" for t in e["terms"])
    (decided,) = [e for e in trace if e["kind"] == "decision" and e["stage"] == "event"]
    assert decided["facts"]["event"] == "pairs"


def test_a_butler_table_is_ruled_in_table_points_and_the_datum_takes_its_weights(tmp_path, capsys):
    """Compscore butler, board 1: pair 3 (NS) played 3S= S (+140); adjusted to ½ 4S= S (+420), ½ 3S= S. The
    datum drops one result's weight at each end (+140 ½ and +150 ½; +420 ½ and +170 ½): +165, rounded to
    the profile's 10 away from zero, +170; the table gets ½ IMP(+250) + ½ IMP(−30) = 5/2."""
    rulings = write(tmp_path, "r.yaml", "rulebook: wbf-2017\nrulings:\n  - {board: 1, ns: 3, adjusted: "
                                        "[{result: 4S= S, weight: 1/2}, {result: 3S= S, weight: 1/2}]}\n")
    data = event_json(capsys, BUTLER, rulings)
    line = line_json(data, 1, ns="3")
    assert F(line["NS"]["exact"]) == F(1, 2) * bridge.imps(250) + F(1, 2) * bridge.imps(-30) == F(5, 2)
    (board,) = [b for b in data["sessions"][0]["boards"] if b["board"] == 1]
    assert (board["mean"]["NS"]["exact"], board["datum"]["NS"]["exact"]) == ("165", "170")
    assert [e["unit"] for e in line["trace"] if e["kind"] == "award"] == ["points", "points"]


# --- reading outcome words -----------------------------------------------------------------------------

def test_outcome_words_are_read_by_decisions_in_a_trace(tmp_path, monkeypatch):
    """avg-plus / avg-minus in a rulings file are read by the artificial stage's rules, each decision made
    in a trace and kept in the line's trace; the field never asks the rulebook outside a trace."""
    from bridgelaw.rulebook.model import Rulebook

    def refused(self, *a, **kw):
        raise AssertionError("Rulebook.decide called outside a trace")

    monkeypatch.setattr(Rulebook, "decide", refused)
    text = "rulebook: wbf-2017\nrulings:\n  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}}\n"
    (ss,) = run(load_event(str(MAGIC)), "r.yaml", None, [], rulings_text=text, profile="none")
    (sl,) = [sl for sl in ss.boards[4].lines if sl.line.table == 2]
    words = [e for e in sl.entries if e.kind == "word"]
    assert [(e.data["of"], e.data["word"], e.data["responsibility"], e.data["decision"].rule.id) for e in words] == [
        ("NS", "avg-plus", "in-no-way-at-fault", "avg-plus-pairs"), ("EW", "avg-minus", "directly-at-fault",
                                                                     "avg-minus-pairs")]
    assert (sl.NS.percent, sl.EW.percent) == (60, 40)
    assert report.steps(sl, book=ss.book)[0] == ("NS: 'avg-plus' read as in-no-way-at-fault — rule avg-plus-pairs "
                                                 "gives avg-plus to a side in-no-way-at-fault when the other is "
                                                 "directly-at-fault")


# --- a traveller's penalty ---------------------------------------------------------------------------------

def test_a_travellers_table_may_give_a_penalty(tmp_path, capsys):
    path = write(tmp_path, "t.yaml", EXAMPLE_9.replace("{table: 8, ns: 8, ew: 18, result: 1NT+2 N}",
                                                       "{table: 8, ns: 8, ew: 18, result: 1NT+2 N, penalty: {NS: 1/4}}"))
    data = json.loads(cli(capsys, "score", str(path), "--format", "json"))
    t = data["tables"][7]
    assert (F(t["NS"]["score"]["exact"]), F(t["EW"]["score"]["exact"])) == (F(6) - F(11, 2), F(16))   # +150 beats three −50s; 25% of 22
    assert t["penalties"][0]["cites"] == ["90A"] and t["citations"] == ["90A"]
    event = json.loads(cli(capsys, "event", str(path), "--format", "json"))
    assert F(line_json(event, 9, table=8)["NS"]["exact"]) == F(1, 2)             # `score` and `event` alike


BOTH_ROOMS = """\
rulebook: wbf-2007
rulings:
  - {board: 3, ns: 1-1-2, non_offending: EW, adjusted: [{result: 4S= W, weight: 1/3}, {result: 4S-2 W, weight: 2/3}]}
  - {board: 3, ns: 3-1-2, non_offending: EW, adjusted: [{result: 4H= S, weight: 1/2}, {result: 4H+1 S, weight: 1/2}]}
"""


@pytest.mark.parametrize("settings, home", [([], F(-26, 3)), (["weighted.imps.round_to=1"], F(-9))])
def test_both_rooms_adjusted_are_ruled_in_table_points_and_scored_by_the_ruling(jss, settings, home):
    """JSS match 1 board 3 with both rooms adjusted: neither case can have the other room, so both are
    ruled in table points; team 1's board score is room 1's ruling scored against room 2's weights —
    1/3 × IMP(−620 − 420 or 450) + 2/3 × IMP(+200 − 420 or 450) = 1/3 × (−14) + 2/3 × (−6) = −26/3 — and
    rounded as the ruling says when the rulebook rounds weighted IMPs (−8 2/3 → −9)."""
    (ss,) = run(load_event(str(jss)), "r.yaml", None, settings, rulings_text=BOTH_ROOMS)
    board = ss.teams.matches[0].boards[2]
    assert (board.home, board.away, board.how) == (home, -home, "ruled")
    for sl in board.rooms:
        assert sl.line.ruled.unit == "points"
        assert [e.data["unit"] for e in sl.line.ruled.trace.entries if e.kind == "award"] == ["points", "points"]
    assert [o.text for _, o in board.rooms[0].line.ruled.assigned["NS"]] == ["4S= W", "4S-2 W"]
