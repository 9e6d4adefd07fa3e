"""The ScoreTable layout Ruter (Brenning's Swedish scoring program, `[Application "Ruter - Read more
at www.brenning.se"]`) writes, seen in a published club results file that carries no licence to
keep it (docs/events.md): Magic Contest's columns, one digit wide at a small club, and a pair's
bye as a row with `-` for the missing pair and `Bye` in both score columns, the pair on the bye
being printed a score. The rows below are made up in that layout."""

from __future__ import annotations

from fractions import Fraction

from bridgelaw import rulebook
from bridgelaw.field.pbn_results import load_event_pbn
from bridgelaw.field.score import score_session

HEADER = ('[ScoreTable "Table\\1R;Round\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;'
          'Lead\\3L;Score_NS\\6R;Score_EW\\6R;MP_NS\\3R;MP_EW\\3R;Percentage_NS\\3R;Percentage_EW\\3R"]')
TEXT = f"""[Event "layout"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Scoring "MatchPoints;MP1"]
[Application "Ruter - Read more at www.brenning.se"]
{HEADER}
1 1 6 5 4S N 10 HA "420" - 0.0 4.0 0 100
2 1 7 3 4S N 11 CA "450" - 3.0 1.0 75 25
3 1 8 1 4S N 11 CA "450" - 3.0 1.0 75 25
4 1 - 2 - - - - "Bye" "Bye" - 1.9 - 47
"""


def test_a_bye_row_is_read_as_not_played_and_its_printed_score_reported():
    event = load_event_pbn("ruter.pbn", text=TEXT)
    board = event.sessions[0].boards[1]
    bye = board.lines[3]
    assert (bye.kind, bye.code, bye.ns, bye.ew, bye.table) == ("not-played", "Bye", None, "2", 4)
    ss = score_session(event.sessions[0], rulebook.get("wbf-2017"))
    checks = ss.checks()
    bad = [c for c in checks if not c.agrees]
    # the three results are a field of their own (top 4): 450 beats 420 and ties 450 (3), 420 has 0
    assert [(sl.NS.value, sl.EW.value) for sl in ss.boards[1].lines[:3]] == \
        [(Fraction(0), Fraction(4)), (Fraction(3), Fraction(1)), (Fraction(3), Fraction(1))]
    assert sorted(c.what for c in bad) == ["board 1 table 4 EW", "board 1 table 4 EW%"]
    assert len(checks) == 14


def test_a_line_without_a_table_is_named_by_the_pairs_it_has():
    from bridgelaw.field.model import Line
    assert Line(board=1, section="", table=None, ns=None, ew="2", where=None).label == "board 1 EW 2"
    assert Line(board=1, section="", table=None, ns="3", ew="2", where=None).label == "board 1 NS 3 v EW 2"
