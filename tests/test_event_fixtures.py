"""Real results files (tests/data/events/ORIGINS.md): every board reads, and every published
matchpoint / IMP / percentage cell is compared with bridgelaw's figure at the precision the
file printed it. The counts are printed (pytest -s, or -rA) and asserted exactly."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.core.errors import BridgelawError
from bridgelaw.commands.event import load_event
from bridgelaw.field.score import score_session
from bridgelaw.render.event import factored

DATA = Path(__file__).parent / "data" / "events"


def scored(name: str, settings: list[str] = ()):
    event = load_event(str(DATA / name))
    book = rulebook.get("wbf-2017")
    if settings:
        book = book.with_settings(list(settings))
    return event, score_session(event.sessions[0], book)


def report(name, event, ss):
    # the cells these tests count: line points and percentages, totals and percentages (places and
    # boards played are compared too, under each program's profile: tests/test_event_programs.py)
    checks = [c for c in ss.checks() if c.key not in ("place", "boards")]
    bad = [c for c in checks if not c.agrees]
    lines = sum(len(b.lines) for b in event.sessions[0].boards.values())
    print(f"\n{name}: {len(event.sessions[0].boards)} boards, {lines} lines, {len(checks)} published cells, "
          f"{len(checks) - len(bad)} agree, {len(bad)} differ")
    return checks, bad


def test_magic_contest_every_cell_agrees():
    event, ss = scored("ffb-magic-contest-2022-open-dn1-s1.pbn", ["fieldscore.neuberg.round_to=1/10"])
    checks, bad = report("Magic Contest (FFB)", event, ss)
    assert len(event.sessions[0].boards) == 30
    assert sum(len(b.lines) for b in event.sessions[0].boards.values()) == 660
    assert len(checks) == 2728 and bad == []
    # its A+/A- score cells are artificial scores: 60% and 40% of a top of 42
    b9 = ss.boards[9]
    art = [sl for sl in b9.lines if sl.line.kind == "artificial"]
    assert [(sl.line.ns, sl.line.ew, sl.NS.value, sl.EW.value) for sl in art] == \
        [("1", "9", Fraction(84, 5), Fraction(126, 5))]
    assert event.source.encoding == "latin-1" and "Séance" in event.title


def test_magic_contest_totals_need_the_programs_rounding():
    """Without rounding each board to 0.1 the line cells still agree, the totals do not."""
    event, ss = scored("ffb-magic-contest-2022-open-dn1-s1.pbn")
    checks, bad = report("Magic Contest, exact Neuberg", event, ss)
    assert all(c.what.split()[-1] in ("total", "percent") for c in bad)
    assert len(bad) == 19


def test_compscore_cross_imps_every_cell_agrees():
    event, ss = scored("compscore-cross-imp-howell.xml")
    checks, bad = report("Compscore cross-IMPs", event, ss)
    assert (len(checks), len(bad)) == (225, 0)
    assert event.sessions[0].scoring == "cross-imps"


COMPSCORE_TOTALS = ["fieldscore.totals.factor_to_top=session-top", "fieldscore.totals.factor_boards=session-boards"]


def test_compscore_matchpoints_every_cell_agrees_with_its_totals_factoring():
    """Compscore factors the board five tables played (top 8) to the session's top of 10 by
    Neuberg, and the totals of the two pairs that played 26 of the 27 boards to 27 boards."""
    event, ss = scored("compscore-mp-pairs-howell.xml", COMPSCORE_TOTALS)
    checks, bad = report("Compscore matchpoints", event, ss)
    assert (len(checks), len(bad)) == (346, 0)
    line_cells = [c for c in checks if c.what.startswith("board")]
    assert len(line_cells) == 322
    # A5050 lines: 50% of the top for both sides
    a = [sl for sb in ss.boards.values() for sl in sb.lines if sl.line.kind == "artificial"]
    assert a and all(sl.NS.percent == 50 and sl.EW.percent == 50 for sl in a)
    by = {st.key: st for st in ss.standings}
    assert by["6"].total == Fraction(813, 5) and factored(by["6"]) == [
        "board 12: 8 of top 8 → 9 4/5 of 10 (fieldscore.totals.factor_to_top: session-top)"]
    assert by["3"].total == Fraction(636, 5) * 27 / 26 and by["3"].percent == Fraction(636, 5) * 100 / 260
    assert factored(by["3"]) == ["total 127 1/5 × 27 boards ÷ 26 played = 132 6/65 "
                                "(fieldscore.totals.factor_boards: session-boards)"]


def test_compscore_matchpoints_without_factoring_only_totals_differ():
    event, ss = scored("compscore-mp-pairs-howell.xml")
    checks, bad = report("Compscore matchpoints, totals unfactored", event, ss)
    assert len(bad) == 22 and not any(c.what.startswith("board") for c in bad)
    # each factoring alone leaves the other's cells differing
    _, top_only = scored("compscore-mp-pairs-howell.xml", COMPSCORE_TOTALS[:1])
    assert sorted(c.what for c in top_only.checks() if not c.agrees and c.key != "place") == ["1 total", "3 total"]
    _, boards_only = scored("compscore-mp-pairs-howell.xml", COMPSCORE_TOTALS[1:])
    assert len([c for c in boards_only.checks() if not c.agrees and c.key != "place"]) == 20


def test_factor_to_top_is_neuberg_in_a_file_counting_one_per_result():
    from bridgelaw.field.score import _to_top
    # 5 results (top 8 in twos, 4 in ones) factored to 6 results: a top becomes 9.8 / 4.9
    assert _to_top(Fraction(8), Fraction(8), Fraction(10), Fraction(1)) == Fraction(49, 5)
    assert _to_top(Fraction(4), Fraction(4), Fraction(5), Fraction(1, 2)) == Fraction(49, 10)
    assert _to_top(Fraction(4), Fraction(8), Fraction(10), Fraction(1)) == 5      # average stays average


def test_compscore_butler_every_cell_agrees_with_its_datum_rounding():
    event, ss = scored("compscore-butler-howell.xml", ["fieldscore.butler.round_datum_to=10",
                                                       "fieldscore.butler.round_half=away"])
    checks, bad = report("Compscore butler", event, ss)
    assert (len(checks), len(bad)) == (288, 0)


def test_compscore_butler_halves_to_even_differ_only_where_the_datum_is_a_half_step():
    event, ss = scored("compscore-butler-howell.xml", ["fieldscore.butler.round_datum_to=10"])
    checks, bad = report("Compscore butler", event, ss)
    half_step = set()
    for n, b in event.sessions[0].boards.items():
        published_datum = int(b.extra["node"].value("BOARD_AVERAGE"))
        points = sorted(l.points for l in b.lines if l.kind == "result")
        trimmed = points[1:-1]
        mean = Fraction(sum(trimmed), len(trimmed))
        if mean % 10 == 5:
            half_step.add(n)
            assert abs(published_datum) == abs(mean) + 5          # Compscore: half away from zero
    differ_boards = {int(c.what.split()[1]) for c in bad if c.what.startswith("board")}
    assert differ_boards and differ_boards <= half_step
    assert len(checks) == 288


def test_bridgecomposer_file_is_read_and_its_slip_reported():
    with pytest.raises(BridgelawError) as e:
        load_event(str(DATA / "bridgecomposer-club-game.pbn"))
    assert str(e.value).startswith(f"{DATA / 'bridgecomposer-club-game.pbn'}:153:26: Score_EW gives NS -620, "
                                   "but 4S= E scores NS -420")


def test_bridgecomposer_sections_share_one_field():
    """Board 1 of the BridgeComposer file (before its slip on board 2): sections A and B are
    matchpointed as one field, PASS in the score column is a score of 0."""
    text = (DATA / "bridgecomposer-club-game.pbn").read_text("latin-1")
    board1 = text.split('[Event "#"]\n[Board "2"]')[0]
    from bridgelaw.field.pbn_results import load_event_pbn
    event = load_event_pbn("club.pbn", text=board1)
    ss = score_session(event.sessions[0], rulebook.get("wbf-2017"))
    checks, bad = report("BridgeComposer board 1", event, ss)
    assert (len(checks), len(bad)) == (8, 0)
    assert sorted((l.section, l.table or 0, l.ns) for l in event.sessions[0].boards[1].lines) == \
        [("A", 0, "1"), ("A", 0, "2"), ("B", 0, "1"), ("B", 0, "2")]


def test_round_half_away():
    from bridgelaw.field.fieldscore import round_half_away, round_half_even
    assert [round_half_away(Fraction(x), Fraction(10)) for x in (-105, 105, 104, -5, 5, 15)] == [-110, 110, 100, -10, 10, 20]
    assert [round_half_even(Fraction(x), Fraction(10)) for x in (-105, 105, 15)] == [-100, 100, 20]
