"""Teams events: USEBIO teams files (EBUScore Teams point-a-board, JSS TeamsScorer IMPs and VPs)
read, ruled, scored and written back — every published match figure reproduced, a ruling on one
board carried into its match's VPs exactly as the scale says, each written file read back the same.

The programs' own files may not be kept (no licence); the tests read files generated in each
program's shape from its published figures (tests/usebio_teams_files.py, tests/data/events/ORIGINS.md).
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw.commands.cli import main
from bridgelaw.core import vp
from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.run import load_event, outputs, run
from bridgelaw.render.event import RENDER, steps
from usebio_teams_files import EBUSCORE, JSS, generate

TABLE = "3: 0=10 1=11 2=12 3=13 5=14 7=15 9=16 11=17 14=18 17=19 20=20"      # rules/profiles/teamsscorer.yaml


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("teams")
    out = {}
    for name, figures in (("jss", JSS), ("ebuscore", EBUSCORE)):
        path = d / f"{name}.xml"
        path.write_bytes(generate(figures))
        out[name] = path
    return out


def scored(path, rulings=None, settings=None, rulebook="wbf-2007"):
    event = load_event(str(path))
    return event, run(event, "rulings.yaml" if rulings else None, None if rulings else rulebook, settings,
                      rulings_text=rulings)


# --- the published figures -------------------------------------------------------------------------------

def test_teamsscorer_file_gives_every_published_figure(files):
    event, sessions = scored(files["jss"])
    ss = sessions[0]
    checks = ss.checks()
    assert [c.what for c in checks if not c.agrees] == []
    kinds = {}
    for c in checks:
        kinds[c.key] = kinds.get(c.key, 0) + 1
    # 40 matches × 3 boards (IMPS, home view), 80 match VPs, 10 totals, wins or draws and places,
    # 480 pairwise line figures, 20 pairs' boards played, and (issue 28) the 19 pairs' PAIR_IMPS the file prints:
    # each the sum of the pair's line figures as printed (pair 1-1-2: -20.99 where the exact sum is -21)
    assert kinds == {"board-home": 120, "match-home": 40, "match-away": 40, "total": 10, "wins_or_draws": 10,
                     "place": 10, "NS": 240, "EW": 240, "boards": 20, "pair_imps": 19}
    assert next(c for c in checks if c.key == "pair_imps").what == "pair 1-1-2 pair IMPs"
    assert ss.teams.pair_imps()["1-1-2"] == F(-2099, 100)
    assert ss.book.id == "wbf-2007+teamsscorer"                  # the program's profile, named
    assert ss.parameters["vp.scale"] == "table" and ss.parameters["vp.table"] == TABLE
    m1 = ss.teams.matches[0]
    assert (m1.match.home, m1.match.away, m1.match.round) == ("1", "3", 1)
    assert [(mb.number, mb.home, mb.away) for mb in m1.boards] == [(1, 0, 0), (2, 8, -8), (3, -6, 6)]
    assert m1.totals == {"home": F(2), "away": F(-2)} and m1.score == {"home": F(12), "away": F(8)}
    top = ss.standings[0]
    assert (top.team, top.total, top.wins, top.draws, top.losses, top.rank_text) == ("10", F(119), 6, 0, 2, "1")
    assert [(st.team, st.rank_text) for st in ss.standings if st.total == 73] == [("6", "7="), ("9", "7=")]


def test_ebuscore_point_a_board_file_gives_every_published_figure(files):
    event, sessions = scored(files["ebuscore"])
    ss = sessions[0]
    checks = ss.checks()
    assert [c.what for c in checks if not c.agrees] == []
    assert len(checks) == 1120                                   # 1104 and (issue 28) 16 pairs' PAIR_IMPS
    assert ss.book.id == "wbf-2007"                              # no profile: point-a-board needs no scale
    m1 = ss.teams.matches[0]
    assert [(mb.home, mb.away) for mb in m1.boards] == [(0, 2), (1, 1), (0, 2), (1, 1), (0, 2), (0, 2)]
    assert m1.score == {"home": F(2), "away": F(10)} and m1.unit == "point"
    assert [(st.team, st.total, st.rank) for st in ss.standings[:2]] == [("5", F(55), 1), ("7", F(51), 2)]
    assert ss.standings[0].contestant.names == "JACKS"


def test_the_command_reads_both_teams_files_with_a_rulebook_alone(files, capsys):
    for name, count in (("jss", 749), ("ebuscore", 1120)):
        assert main(["event", str(files[name]), "--rulebook", "wbf-2007"]) == 0
        out = capsys.readouterr().out
        assert f"Published figures: {count} of {count} agree" in out
    assert "match 1 (round 1: team 1 v team 3): boards 1: 0, 2: +8, 3: -6; net +2 IMPs → 12–8 VPs" in \
        (main(["event", str(files["jss"]), "--rulebook", "wbf-2007"]), capsys.readouterr().out)[1]


# --- the VP scales ---------------------------------------------------------------------------------------

def test_a_discrete_table_is_exact_and_whole():
    assert [vp.victory_points(F(m), 3, "table", TABLE) for m in (0, 1, 2, 4, 6, 13, 16, 19, 20, 40)] == \
        [10, 11, 12, 13, 14, 17, 18, 19, 20, 20]
    assert vp.victory_points(F(-11), 3, "table", TABLE) == 3
    assert vp.victory_points(F(5, 2), 3, "table", TABLE) == 12          # a fraction does not reach the next row
    with pytest.raises(vp.ScaleError, match="no table for a match of 4 boards"):
        vp.victory_points(F(2), 4, "table", TABLE)
    for bad, why in (("0=10 1=11", "number of boards"), ("3: 1=11", "starts at a margin of 0"),
                     ("3: 0=10 2=12 1=11", "rise row by row"), ("3: 0=10 2:12", "not margin=VPs")):
        with pytest.raises(ValueError, match=why):
            vp.parse_table(bad)
    assert vp.victory_points(F(11), 3) == F("15.99") == vp.victory_points(F(11), 3, "wbf-2013")


def test_a_bad_vp_table_in_a_setting_is_refused(files):
    with pytest.raises(BridgelawError, match="vp.table"):
        scored(files["jss"], settings=["vp.table=3: 1=11"])


# --- rulings carried into the match ----------------------------------------------------------------------

ARTIFICIAL = """\
rulebook: wbf-2007
rulings:
  - {board: 3, ns: 1-1-2, artificial: {NS: avg-plus, EW: avg-minus}, note: board 3 not playable in room 1}
"""
WEIGHTED = """\
rulebook: wbf-2007
rulings:
  - board: 3
    ns: 1-1-2
    non_offending: EW
    adjusted: [{result: 4S= W, weight: 1/2}, {result: 4S-2 W, weight: 1/2}]
"""


def test_an_artificial_board_changes_the_match_vps_as_the_scale_says(files):
    """Match 1 (team 1 v team 3) was +2 IMPs, 12-8. Average plus to team 1 on board 3 (−6 → +3):
    +11 IMPs, 17-3 on TeamsScorer's table, 15.99-4.01 on the WBF continuous scale."""
    _, sessions = scored(files["jss"], ARTIFICIAL)
    m1 = sessions[0].teams.matches[0]
    assert [(mb.number, mb.home, mb.how) for mb in m1.boards] == [(1, 0, "compared"), (2, 8, "compared"),
                                                                   (3, 3, "artificial")]
    assert m1.totals["home"] == 11 and m1.score == {"home": F(17), "away": F(3)}
    rooms = m1.boards[2].rooms
    assert [(sl.NS.value, sl.EW.value) for sl in rooms] == [(3, -3), (-3, 3)]     # the other room: team 3 NS
    assert steps(rooms[0], "NS", sessions[0].book)[-1] == "NS gets artificial.imps.avg_plus = +3 IMPs"
    team1 = next(st for st in sessions[0].standings if st.team == "1")
    assert team1.total == 55 - 12 + 17 and "board 3" in team1.adjusted
    _, sessions = scored(files["jss"], ARTIFICIAL, ["vp.scale=wbf-2013"])
    assert sessions[0].teams.matches[0].score == {"home": F("15.99"), "away": F("4.01")}


def test_a_weighted_board_gives_the_match_vps_through_its_case(files):
    """Board 3 weighted (EW non-offending): 1/2 × IMP(−620 − 450) + 1/2 × IMP(+200 − 450) = −10 for
    team 1; the match is −2, and the room's case with match: converts it (8-12 on the table)."""
    _, sessions = scored(files["jss"], WEIGHTED)
    m1 = sessions[0].teams.matches[0]
    assert m1.boards[2].home == -10 and m1.boards[2].how == "ruled"
    assert m1.score == {"home": F(8), "away": F(12)} and m1.ruling.vp == {"NS": F(8), "EW": F(12)}
    room = m1.boards[2].rooms[0]
    kinds = [e.kind for e in room.entries]
    assert kinds.index("in-match") < kinds.index("match") < kinds.index("vp")
    assert "JSS/vp-table-3" in room.citations
    # the rulebook's vp.method: weighting the IMPs (VP(−2)) or the VPs (1/2 VP(−6) + 1/2 VP(+2)), WBF scale
    _, sessions = scored(files["jss"], WEIGHTED, ["vp.scale=wbf-2013"])
    assert sessions[0].teams.matches[0].score == {"home": F("8.62"), "away": F("11.38")}
    _, sessions = scored(files["jss"], WEIGHTED, ["vp.scale=wbf-2013", "vp.method=weight-vps"])
    assert sessions[0].teams.matches[0].score == {"home": F(1767, 200), "away": F(2233, 200)}
    assert sessions[0].teams.matches[0].score["home"] == F(1, 2) * (20 - F("13.71")) + F(1, 2) * F("11.38")


def test_an_86b_ruling_goes_through_the_case_path_with_its_law(files):
    text = """\
rulebook: wbf-2007
rulings:
  - board: 16
    ns: 2-1-2
    non_offending: NS
    adjusted: 3NT= S
    infraction: {law: 86D, findings: {assigns_in_imps: true}}
"""
    _, sessions = scored(files["jss"], text)
    m = sessions[0].teams.matches[11]
    assert (m.match.home, m.match.away) == ("2", "3")
    room = m.boards[0].rooms[0]
    assert room.line.ruled.case.model.other_table.text == "1NT+2 S"       # the other room of the match
    assert room.NS.value == 6 and m.boards[0].home == 6                    # IMP(400 − 150)
    assert room.citations[:1] == ["86D"] and m.score == {"home": F(9), "away": F(11)}


def test_86b2_average_plus_when_more_favourable_is_written_as_given(files, tmp_path):
    """Under wbf-2017 (its 86B2(b): average plus or the assigned score, the more favourable) a
    room assigned 1/2 IMP gets +3; the written file gives the +3 back without the rulings file."""
    text = """\
rulebook: wbf-2017
rulings:
  - board: 1
    ns: 1-1-2
    non_offending: NS
    adjusted: [{result: 4H+1 E, weight: 1/2}, {result: 3NT+2 E, weight: 1/2}]
    infraction: {law: 86B2, findings: {clearly_favourable: true}}
"""
    event = load_event(str(files["jss"]))
    ss = run(event, "r.yaml", None, None, rulings_text=text, as_of=__import__("datetime").date(2018, 1, 1))[0]
    board = ss.teams.matches[0].boards[0]
    assert board.home == 3 and board.away == -3
    (path, out, enc), = outputs(event, [ss], [str(tmp_path / "o.xml")], "x")
    assert "<!-- bridgelaw: art NS=3 EW=-3 -->" in out
    path.write_text(out, encoding=enc)
    again = run(load_event(str(path)), None, "wbf-2017", None, as_of=__import__("datetime").date(2018, 1, 1))[0]
    assert again.teams.matches[0].boards[0].home == 3 and again.teams.matches[0].score == ss.teams.matches[0].score


def test_a_penalty_and_an_artificial_room_at_point_a_board(files):
    text = """\
rulebook: wbf-2007
rulings:
  - {board: 2, ns: 8-1-2, artificial: {NS: avg-plus, EW: avg-minus}}
  - {board: 4, ns: 1-1-2, penalty: {NS: 1/4}}
"""
    _, sessions = scored(files["ebuscore"], text)
    m1 = sessions[0].teams.matches[0]                        # team 1 v team 8; team 8 NS in room 2
    assert (m1.boards[1].home, m1.boards[1].away) == (F(4, 5), F(6, 5))    # 40% / 60% of a board's 2 points
    assert (m1.boards[3].home, m1.boards[3].penalties) == (F(1, 2), [("1", F(1, 2))])   # 1 − 1/4 of 2
    assert m1.score == {"home": F(2) - 1 + F(4, 5) - F(1, 2), "away": F(10) - 1 + F(6, 5)}


# --- reading and writing ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name,rulings", [("jss", ARTIFICIAL), ("jss", WEIGHTED), ("ebuscore", None)])
def test_a_written_teams_file_reads_back_the_same(files, tmp_path, name, rulings):
    event, sessions = scored(files[name], rulings)
    (path, text, encoding), = outputs(event, sessions, [str(tmp_path / "out.xml")], str(files[name]))
    path.write_text(text, encoding=encoding)
    again_event, again = scored(path)
    a, b = sessions[0].teams, again[0].teams
    assert [(sm.totals, sm.score, [(mb.home, mb.away) for mb in sm.boards]) for sm in a.matches] == \
        [(sm.totals, sm.score, [(mb.home, mb.away) for mb in sm.boards]) for sm in b.matches]
    assert [(st.team, st.total, st.rank_text) for st in a.standings] == \
        [(st.team, st.total, st.rank_text) for st in b.standings]
    assert all(c.agrees for c in again[0].checks())
    assert again[0].book.id == sessions[0].book.id           # the profile named in the file, applied again


def test_reports_show_matches_and_json_is_exact(files):
    _, sessions = scored(files["jss"], WEIGHTED)
    text = RENDER["text"](sessions)
    assert "VPs from the ruling on board 3 NS 1-1-2 v EW 3-3-4 (its case with the match):" in text
    assert "(rounding: none: whole VPs as the table gives them)" in text
    data = json.loads(RENDER["json"](sessions))["sessions"][0]["teams"]
    assert data["matches"][0]["score"]["home"] == {"exact": "8", "value": 8.0}
    assert data["matches"][0]["vp_ruling"]["vp"] == {"NS": {"exact": "8", "value": 8.0},
                                                     "EW": {"exact": "12", "value": 12.0}}
    assert data["teams"][0]["team"] == "10" and RENDER["markdown"](sessions).count("| 1 | 1 | 1 v 3 |") == 1
    assert RENDER["csv"](sessions).splitlines()[1].startswith("Multiple Teams Example Session,,,1,10,119,")


def test_a_teams_event_is_not_written_as_pbn(files, tmp_path, capsys):
    assert main(["event", str(files["ebuscore"]), "--rulebook", "wbf-2007", "--output", str(tmp_path / "x.pbn")]) == 2
    err = capsys.readouterr().err
    assert "a teams event is not written as PBN" in err and err.count("\n") == 1
    assert err.startswith(f"bridgelaw: error: --output {tmp_path / 'x.pbn'}: a teams event")   # at the option (issue 29)
    assert not (tmp_path / "x.pbn").exists()


def _variant(change):
    return generate(JSS, change)


def _first_match(f):
    return f["sessions"][0]["sections"][0]["matches"][0]


@pytest.mark.parametrize("change,message", [
    (lambda f: _first_match(f).pop("opposing_team"), "a MATCH has no OPPOSING_TEAM"),
    (lambda f: _first_match(f)["boards"][0]["lines"][1].update(direction="NS"), "both rooms have team 1 North-South"),
    (lambda f: _first_match(f)["boards"][0]["lines"][0].pop("direction"), "has no DIRECTION"),
    (lambda f: f["event"].update(board_scoring_method="SLAM"), "BOARD_SCORING_METHOD 'SLAM'"),
    (lambda f: _first_match(f)["boards"][0]["lines"].pop(), "has a result in one room only"),
    (lambda f: f["event"].update(match_scoring_method="VPS", board_scoring_method="AGGREGATE"),
     "aggregate (total points) match scored in VPs"),
])
def test_bad_teams_files_are_one_line_at_their_place(tmp_path, capsys, change, message):
    path = tmp_path / "bad.xml"
    path.write_bytes(_variant(change))
    assert main(["event", str(path), "--rulebook", "wbf-2007"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and f"{path}:" in err


def test_scoring_option_and_infraction_misuse_are_refused(files, capsys):
    assert main(["event", str(files["jss"]), "--rulebook", "wbf-2007", "--scoring", "cross-imps"]) == 2
    assert "a teams file says how its boards and matches are scored" in capsys.readouterr().err
    bad = """\
rulebook: wbf-2007
rulings:
  - {board: 3, ns: 1-1-2, artificial: {NS: avg-plus, EW: avg-minus}, infraction: {law: 86D}}
"""
    with pytest.raises(BridgelawError, match="infraction: goes with an adjusted score") as e:
        scored(files["jss"], bad)
    assert e.value.line == 3
    unknown = WEIGHTED + "    infraction: {law: 99Z}\n"
    with pytest.raises(BridgelawError, match="99Z") as e:
        scored(files["jss"], unknown)
    assert e.value.line == 7


def test_the_teams_rulings_in_the_docs_give_what_the_docs_say(files):
    import re
    doc = (Path(__file__).resolve().parent.parent / "docs" / "events.md").read_text()
    section = doc[doc.index("## Teams events"):]
    block = re.findall(r"```yaml\n(.*?)```", section, re.S)[0]
    _, sessions = scored(files["jss"], block)
    matches = sessions[0].teams.matches
    assert [mb.home for mb in matches[0].boards] == [0, 8, -10] and matches[0].score == {"home": 8, "away": 12}
    assert matches[1].boards[1].home == -3 and matches[1].boards[1].how == "artificial"
    assert matches[11].boards[0].home == 6 and matches[11].boards[0].rooms[0].citations[0] == "86D"


def test_a_knockout_match_in_imps_with_carry_over(files, tmp_path):
    """A match scored in IMPs: each team's IMPs won, the winner; a carry-over adds to its team's."""
    path = tmp_path / "ko.xml"
    path.write_bytes(generate(JSS, lambda f: f["event"].update(match_scoring_method="IMPS")))
    event = load_event(str(path))
    event.sessions[0].matches[0].carry = {"3": F(5)}         # no file found gives one: the model's hook
    ss = run(event, None, "wbf-2007", None)[0]
    m1 = ss.teams.matches[0]
    assert m1.unit == "IMP" and m1.score == {"home": F(8), "away": F(6 + 5)} and m1.winner == "3"
    assert ss.teams.matches[1].score == {"home": F(0), "away": F(14)}          # boards -2, -12, 0


def test_86b1_under_the_2017_laws_assigns_against_the_other_room(files):
    """Board 16 of match 12 (team 2 v team 3): the other room's 1NT+2 S (NS +150) is clearly favourable
    to one side, so 86B1 assigns the likely result in this room; its trace cites 86B1 first."""
    import datetime as dt
    text = """\
rulebook: wbf-2017
rulings:
  - board: 16
    ns: 2-1-2
    non_offending: NS
    adjusted: [{result: 3NT= S, weight: 1/2}, {result: 3NT+1 S, weight: 1/2}]
    infraction: {law: 86B1, findings: {clearly_favourable: true}}
"""
    ss = run(load_event(str(files["jss"])), "r.yaml", None, None, rulings_text=text, as_of=dt.date(2018, 1, 1))[0]
    m = ss.teams.matches[11]
    room = m.boards[0].rooms[0]
    assert room.citations[0] == "86B1" and room.NS.value == F(13, 2)     # 1/2 IMP(400 − 150) + 1/2 IMP(430 − 150)
    assert m.boards[0].home == F(13, 2) and m.totals["home"] == F(13, 2) - 7
    assert m.score == {"home": F(10), "away": F(10)}     # a margin of 1/2 does not reach the 1-IMP row: 10-10


def test_an_aggregate_match_is_its_total_points(tmp_path):
    """BOARD_SCORING_METHOD AGGREGATE: a board is the two rooms' points added (team 1 in match 1:
    −460 + 450, −140 + 500, +200 − 450), the match their sum."""
    path = tmp_path / "agg.xml"
    path.write_bytes(generate(JSS, lambda f: f["event"].update(board_scoring_method="AGGREGATE",
                                                               match_scoring_method="IMPS")))
    ss = run(load_event(str(path)), None, "wbf-2007", None)[0]
    m1 = ss.teams.matches[0]
    assert [mb.home for mb in m1.boards] == [-10, 360, -250] and m1.unit == "point"
    assert m1.score == {"home": F(100), "away": F(-100)} and m1.winner == "1"


def test_a_rulings_file_does_not_rescore_a_teams_file(files):
    with pytest.raises(BridgelawError, match="a teams file says how its boards and matches are scored") as e:
        scored(files["jss"], "rulebook: wbf-2007\nscoring: matchpoints\nrulings: []\n")
    assert e.value.line == 2


def test_the_program_profile_is_named_in_the_report_and_can_be_refused(files, tmp_path, capsys):
    """TeamsScorer's VP table is its program's profile (rules/profiles/teamsscorer.yaml), chosen as
    every program's is: named in the heading and in the layer of each value; --profile none leaves
    the rulebook's scale; a written file names the profile and reads back with it."""
    assert main(["event", str(files["jss"]), "--rulebook", "wbf-2007"]) == 0
    out = capsys.readouterr().out
    assert "program: TeamsScorer 5.1.17 — profile teamsscorer (from the file)" in out
    assert f"; table {TABLE} (profile teamsscorer (rules/profiles/teamsscorer.yaml); cites JSS/vp-table-3)" in out
    assert main(["event", str(files["ebuscore"]), "--rulebook", "wbf-2007"]) == 0
    assert "program: EBUScoreTeams 1.1.3: no profile for this program — starting from the rulebook's defaults" in \
        capsys.readouterr().out
    event = load_event(str(files["jss"]))
    (ss,) = run(event, None, "wbf-2007", None, profile="none")
    assert ss.book.id == "wbf-2007" and ss.parameters["vp.scale"] == "wbf-2013"
    assert not all(c.agrees for c in ss.checks())
    # the file written back is the program's, edited in place (issue 32): its program chooses its profile
    event, sessions = scored(files["jss"])
    (path, text, encoding), = outputs(event, sessions, [str(tmp_path / "out.xml")], str(files["jss"]))
    assert text.encode(encoding) == files["jss"].read_bytes()
    # scored with another profile (or none), the file names it, and reads back with it
    event = load_event(str(files["jss"]))
    sessions = run(event, None, "wbf-2007", None, profile="none")
    (path, text, encoding), = outputs(event, sessions, [str(tmp_path / "out.xml")], str(files["jss"]))
    assert "<!-- bridgelaw: profile none -->" in text and "TeamsScorer" in text
    path.write_text(text, encoding=encoding)
    (again,) = run(load_event(str(path)), None, "wbf-2007", None)
    assert again.conventions.how == "none" and again.parameters["vp.scale"] == "wbf-2013"


def test_a_teams_line_scored_from_its_score_is_warned_about(tmp_path):
    """A teams room whose contract cannot be read but whose SCORE can is scored from its SCORE, as
    the program did, and said where (a session warning, as at pairs) — not dropped with its board."""
    text = generate(JSS).decode("latin-1").replace("<CONTRACT>3NT</CONTRACT>", "<CONTRACT>3NQ</CONTRACT>", 1)
    path = tmp_path / "teams.xml"
    path.write_bytes(text.encode("latin-1"))
    event = load_event(str(path))
    warnings = [w for s in event.sessions for w in s.warnings]
    assert len(warnings) == 1 and "'3NQ' by 'E'" in warnings[0] and warnings[0].endswith("scored from its SCORE -460")
    assert warnings[0].startswith(f"{path}:")
