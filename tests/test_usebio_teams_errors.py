"""A teams file's board- and line-level errors (field/usebio_teams.py _match, field/usebio.py _line),
pinned whole — place, message, expectation — on variants of the JSS TeamsScorer file: the reader
builds a board's place only when it needs one (an error, a new board), and every error still says
where it is, exactly as before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.usebio import load_event_usebio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from usebio_teams_files import JSS, generate  # noqa: E402


def _board(f: dict, k: int = 0) -> dict:
    return f["sessions"][0]["sections"][0]["matches"][0]["boards"][k]


ROOMS = "(expected the match's two rooms (one line with DIRECTION NS, one with EW))"


@pytest.mark.parametrize("change,message", [
    (lambda f: _board(f).update(board_number="x1"),
     "t.xml:313:13: BOARD_NUMBER 'x1' is not a board number (expected 1 to 9,999 in ASCII digits)"),
    (lambda f: _board(f, 1).update(board_number=_board(f)["board_number"]),
     "t.xml:339:13: board 1 appears twice in the match (expected each board once a match)"),
    (lambda f: _board(f)["lines"].append(dict(_board(f)["lines"][0])),
     f"t.xml:313:13: board 1 of the match has 3 traveller lines {ROOMS}"),
    (lambda f: _board(f).update(lines=[]), f"t.xml:313:13: board 1 of the match has 0 traveller lines {ROOMS}"),
    (lambda f: _board(f)["lines"][0].pop("ns_pair_number"),
     "t.xml:316:16: NS_PAIR_NUMBER is empty on a line with a result (expected both pairs' numbers, or no result (a bye))"),
    (lambda f: _board(f)["lines"][1].pop("ew_pair_number"),
     "t.xml:327:16: EW_PAIR_NUMBER is empty on a line with a result (expected both pairs' numbers, or no result (a bye))"),
], ids=["board number", "board twice", "three rooms", "no rooms", "NS pair empty", "EW pair empty"])
def test_a_teams_board_or_line_error_is_at_its_place(change, message):
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("t.xml", data=generate(JSS, change))
    assert str(e.value) == message


def test_each_board_keeps_the_place_of_its_first_match():
    """A board played in several matches is the session's one Board, at its first BOARD element."""
    event = load_event_usebio("t.xml", data=generate(JSS))
    boards = event.sessions[0].boards
    assert (boards[1].where.file, boards[1].where.line, boards[1].where.column) == ("t.xml", 313, 13)
    assert all((b.where.line, b.where.column) == (b.extra["node"].line, b.extra["node"].column)
               for b in boards.values())
    assert len(boards) == 30 and {len(b.lines) for b in boards.values()} == {8}      # 4 matches, 2 rooms each
