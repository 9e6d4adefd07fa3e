"""Individual events: four players a line (PBN PlayerId_North … columns), each player a contestant
scored on every line it played; 12C2(c) per player; a procedural penalty on one player, borne by
the partner too or not as the rulebook's penalty stage (12C3) decides.

The fixture is derived from the real Magic Contest file (tests/data/events/ORIGINS.md): its
boards 1-4 with each pair split into two players who change partners from board to board; the
results and the published line cells are the real ones."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw.render.event import rules, steps

from bridgelaw import rulebook
from bridgelaw.core.errors import BridgelawError
from bridgelaw.commands.event import load_event, run
from bridgelaw.field.pbn_results import load_event_pbn
from bridgelaw.field.score import score_session

FILE = Path(__file__).parent / "data" / "events" / "individual-derived-from-magic-contest.pbn"


def ruled(rulings: str, edition: str = "wbf-2017"):
    event = load_event(str(FILE))
    # a rulebook that ended before the session (2022) is read on its last day only when asked (--as-of)
    book = rulebook.get(edition)
    return run(event, "r.yaml", None, [], rulings_text=f"rulebook: {edition}\nrulings:\n{rulings}",
               profile="none", as_of=book.effective_until)[0]  # the rulebook's arithmetic, exact (not the program's tenths)


def line(ss, board, table):
    return next(sl for sl in ss.boards[board].lines if sl.line.table == table)


def test_the_individual_reads_and_every_published_line_cell_agrees():
    event = load_event(str(FILE))
    s = event.sessions[0]
    assert s.individual and s.pair_numbers == "unique"
    assert (len(s.boards), sum(len(b.lines) for b in s.boards.values())) == (4, 88)
    ss = score_session(s, rulebook.get("wbf-2017"))
    checks = ss.checks()
    print(f"\nindividual (derived): 4 boards, 88 lines, {len(checks)} published cells, "
          f"{sum(c.agrees for c in checks)} agree")
    assert (len(checks), sum(not c.agrees for c in checks)) == (352, 0)
    assert len(ss.standings) == 88 and all(st.boards == 4 for st in ss.standings)
    # a player changes partner: 4b sits South with 3a on board 1
    assert line(ss, 1, 3).line.players == {"N": "3a", "S": "4b", "E": "42a", "W": "1b"}
    by = {st.key: st for st in ss.standings}
    assert by["3a"].total == sum(sl.contestants["3a"] for sb in ss.boards.values() for sl in sb.lines
                                 if "3a" in sl.contestants)
    # the A+/A+ line of board 1: 60% for each of the four players
    art = next(sl for sl in ss.boards[1].lines if sl.line.kind == "artificial")
    assert art.contestants == {"29a": F(126, 5), "30b": F(126, 5), "16a": F(126, 5), "17b": F(126, 5)}


@pytest.mark.parametrize("blameless, bearers, rule", [
    ("true", ["3a"], "penalty-offender-only (12C3)"),
    ("false", ["3a", "4b"], "penalty-both-members (12C3)"),
])
def test_a_penalty_on_one_player_is_borne_as_the_penalty_stage_says(blameless, bearers, rule):
    ss = ruled(f"  - board: 1\n    table: 3\n    penalty: {{player: N, amount: 25%, partner_blameless: {blameless}}}\n")
    sl = line(ss, 1, 3)
    assert sl.NS.value == F(85, 3) and sl.EW.value == F(41, 3)        # the line's score is unchanged
    for p in ("3a", "4b"):
        assert sl.contestants[p] == F(85, 3) - (F(21, 2) if p in bearers else 0)   # 25% of a top of 42
    assert sl.contestants["42a"] == sl.contestants["1b"] == F(41, 3)
    assert all(rule in step for step in steps(sl, "NS") if "procedural penalty" in step)
    by = {st.key: st for st in ss.standings}
    assert ("board 1" in by["4b"].adjusted) == ("4b" in bearers)


@pytest.mark.parametrize("edition, east", [("wbf-2017", F(1049, 63)), ("wbf-2007", F(84, 5))])
def test_12c2c_is_each_players_own_session_score(edition, east):
    """Board 4 table 8: N 9a has 61.2% on the other boards, S 21b 17.5%; E 38a (offending) 39.6%,
    W 2b 63.4%. Each player gets its own 12C2(c) score; the offending player below 40% keeps it
    only under 2017."""
    ss = ruled("  - board: 4\n    table: 8\n    artificial: {NS: in-no-way-at-fault, EW: directly-at-fault}\n",
               edition)
    sl = line(ss, 4, 8)
    assert sl.contestants == {"9a": F(1619, 63), "21b": F(126, 5), "38a": east, "2b": F(84, 5)}
    assert "21b: avg-plus on its own session facts (rule avg-plus-pairs)" in steps(sl, "NS")


def test_a_player_penalty_at_a_pairs_event_is_refused():
    text = ('[Event "t"]\n[Board "1"]\n[Vulnerable "None"]\n[Scoring "MatchPoints"]\n'
            '[ScoreTable "Table\\2R;PairId_NS\\2R;PairId_EW\\2R;Score_NS\\6R"]\n 1  1  1 420\n 2  2  2 450\n')
    event = load_event_pbn("t.pbn", text=text)
    with pytest.raises(BridgelawError) as e:
        run(event, "r.yaml", None, [], rulings_text="rulebook: wbf-2017\nrulings:\n  - board: 1\n    table: 1\n"
            "    penalty: {player: N, amount: 25%, partner_blameless: true}\n")
    assert str(e.value).startswith("r.yaml:5:") and "needs an individual event" in str(e.value)


def test_a_player_at_two_tables_is_refused():
    text = ('[Event "t"]\n[Board "1"]\n[Vulnerable "None"]\n[Scoring "MatchPoints"]\n'
            '[ScoreTable "Table\\2R;PlayerId_North\\2R;PlayerId_South\\2R;PlayerId_East\\2R;PlayerId_West\\2R;'
            'Score_NS\\6R"]\n 1  1  2  3  4 420\n 2  5  6  7  1 450\n')
    with pytest.raises(BridgelawError) as e:
        load_event_pbn("t.pbn", text=text)
    assert str(e.value).startswith("t.pbn:7:14: board 1: player 1 plays the board twice (tables 1 and 2)")


RULINGS = ("rulebook: wbf-2017\nrulings:\n"
           "  - board: 1\n    table: 3\n    penalty: {player: N, amount: 25%, partner_blameless: true}\n"
           "  - board: 4\n    table: 8\n    artificial: {NS: in-no-way-at-fault, EW: directly-at-fault}\n")


def test_the_written_pbn_re_reads_to_every_players_score_without_the_rulings(tmp_path):
    from bridgelaw.commands.cli import main
    rulings = tmp_path / "r.yaml"
    rulings.write_text(RULINGS)
    out = tmp_path / "out.pbn"
    assert main(["event", str(FILE), "--rulings", str(rulings), "--output", str(out), "--profile", "none"]) == 0
    text = out.read_text("latin-1")
    assert '"ppen 3a=1/4"' in text and "& own 21b=3/5 2b=2/5" in text
    book = rulebook.get("wbf-2017")
    a = run(load_event(str(FILE)), str(rulings), None, [], profile="none")[0]
    b = score_session(load_event(str(out)).sessions[0], book)
    assert {st.key: st.total for st in a.standings} == {st.key: st.total for st in b.standings}
    assert {st.key: st.total for st in b.standings}["3a"] == F(4369, 42)


def test_an_individual_is_written_as_usebio_and_re_reads_to_every_players_score(tmp_path, capsys):
    """Issue 20 item 3: USEBIO's individual lines (N_/S_/E_/W_PLAYER_NUMBER, as the USEBIO 1.1
    specification's example writes them), written and read back — every player's total kept."""
    from bridgelaw.commands.cli import main
    rulings = tmp_path / "r.yaml"
    rulings.write_text(RULINGS)
    out = tmp_path / "out.xml"
    assert main(["event", str(FILE), "--rulings", str(rulings), "--output", str(out), "--profile", "none"]) == 0
    text = out.read_text("utf-8")
    assert '<EVENT EVENT_TYPE="INDIVIDUAL">' in text and "<N_PLAYER_NUMBER>3a</N_PLAYER_NUMBER>" in text
    a = run(load_event(str(FILE)), str(rulings), None, [], profile="none")[0]
    back = load_event(str(out))
    assert back.sessions[0].individual and back.format == "usebio"
    b = run(back, None, "wbf-2017", [], profile="none")[0]
    assert {st.key: st.total for st in a.standings} == {st.key: st.total for st in b.standings}
    assert {st.key: st.total for st in b.standings}["3a"] == F(4369, 42)
