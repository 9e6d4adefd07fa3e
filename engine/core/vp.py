"""Victory points: the arithmetic of each scale a rulebook (or a scoring program's profile) names.

``wbf-2013`` — the WBF continuous 20-VP scale (2013). For a match of N boards the blitz is
X = 15·√N and τ = (√5 − 1)/2; a winning margin of M IMPs earns min(20, 10 + 10·(1 − τ^(3M/X)) /
(1 − τ³)) VPs and the loser 20 minus that. The scale is published to two decimals, so the value
is computed with 40 significant digits and rounded half up to hundredths: the rounding is the
scale's own, and the result is an exact Fraction. (The official printed tables also nudge a few
entries so that the step from one margin to the next never grows; this formula-based value does
not.)

``table`` — a discrete scale given as data (the parameter ``vp.table``): for each number of
boards a match may have, the least winning margin that earns each number of VPs, e.g.
``3: 0=10 1=11 2=12 3=13 5=14 7=15 9=16 11=17 14=18 17=19 20=20`` (a 3-board match: a margin of
3 or 4 IMPs earns 13 VPs). Several board counts are separated by ``;``. A margin earns the VPs
of the last row it reaches: a fraction of an IMP (a weighted score) does not reach the next row
(2 1/2 IMPs earns what 2 earns); the loser gets the scale's total minus the winner's. No rounding:
the table's VPs are exact as written.

Which scale applies is a rulebook parameter (``vp.scale``), its name the rulebook's words
(``words: vp.scale:``); :func:`victory_points` is the one conversion every VP in bridgelaw goes
through (a ruling's ``match:``, a teams event's matches).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

from .exact import format_mixed

SCALES = ("wbf-2013", "table")

# how each scale rounds, for reports: the rounding is the scale's own, never the program's
ROUNDING = {"wbf-2013": "to 0.01 VP, half up (the scale is published to two decimals)",
            "table": "none: whole VPs as the table gives them"}

_ROW = re.compile(r"([0-9]{1,6}(?:/[0-9]{1,6})?)=([0-9]{1,6}(?:/[0-9]{1,6})?)")    # ASCII digits only
_BOARDS = re.compile(r"[0-9]{1,4}")
_MAX_TABLE = 2000          # characters of a vp.table value (docs/limits.md's spirit: every input bounded)


class ScaleError(ValueError):
    """A VP scale that cannot convert this match (a table without this board count, a bad table)."""


def victory_points(margin: Fraction, boards: int, scale: str = "wbf-2013", table: str | None = None) -> Fraction:
    """VPs of the side that won the match by `margin` IMPs (negative: lost) under `scale`."""
    if boards < 1:
        raise ValueError("a match has at least one board")
    if scale == "wbf-2013":
        return _wbf_2013(Fraction(margin), boards)
    if scale == "table":
        if not table:
            raise ScaleError("vp.scale is table, but vp.table gives no table")
        rows, total = table_for(table, boards)
        return _from_table(Fraction(margin), rows, total)
    raise ScaleError(f"unknown VP scale {scale!r} (expected one of {', '.join(SCALES)})")


def _wbf_2013(margin: Fraction, boards: int) -> Fraction:
    if margin < 0:
        return 20 - _wbf_2013(-margin, boards)
    with localcontext() as ctx:
        ctx.prec = 40
        five = Decimal(5)
        tau = (five.sqrt() - 1) / 2
        blitz = 15 * Decimal(boards).sqrt()
        m = Decimal(margin.numerator) / Decimal(margin.denominator)
        power = (tau.ln() * 3 * m / blitz).exp()
        vp = 10 + 10 * (1 - power) / (1 - tau ** 3)
        vp = min(Decimal(20), vp).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return Fraction(vp)


def _from_table(margin: Fraction, rows: tuple[tuple[Fraction, Fraction], ...], total: Fraction) -> Fraction:
    if margin < 0:
        return total - _from_table(-margin, rows, total)
    earned = rows[0][1]
    for least, vps in rows:
        if margin >= least:
            earned = vps
    return earned


@lru_cache(maxsize=64)
def parse_table(text: str) -> dict[int, tuple[tuple[tuple[Fraction, Fraction], ...], Fraction]]:
    """A ``vp.table`` value: board count → (rows of (least margin, VPs), the scale's total: twice
    the VPs of a draw). A ValueError (a sentence) when it is not one."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("expected a VP table such as '3: 0=10 1=11 2=12 …' (boards: margin=VPs …)")
    if len(text) > _MAX_TABLE:
        raise ValueError(f"a VP table of at most {_MAX_TABLE} characters")
    out: dict[int, tuple[tuple[tuple[Fraction, Fraction], ...], Fraction]] = {}
    for part in text.split(";"):
        head, colon, body = part.partition(":")
        if not colon or not _BOARDS.fullmatch(head.strip()) or int(head) < 1:
            raise ValueError(f"'{part.strip()[:30]}': each table starts with its number of boards and a colon "
                             "(e.g. '3: 0=10 1=11 …')")
        boards = int(head)
        if boards in out:
            raise ValueError(f"two tables for {boards} boards")
        items = body.split()
        rows = []
        for item in items:
            m = _ROW.fullmatch(item)
            if not m:
                raise ValueError(f"'{item[:20]}' in the {boards}-board table is not margin=VPs (e.g. 3=13)")
            rows.append((Fraction(m[1]), Fraction(m[2])))
        if not rows or rows[0][0] != 0:
            raise ValueError(f"the {boards}-board table starts at a margin of 0 (a draw), e.g. 0=10")
        for (m1, v1), (m2, v2) in zip(rows, rows[1:]):
            if m2 <= m1 or v2 <= v1:
                raise ValueError(f"the {boards}-board table's margins and VPs rise row by row ({m1}={v1}, {m2}={v2})")
        total, top = 2 * rows[0][1], rows[-1]
        if top[1] > total:              # the loser gets the total less the winner's VPs
            raise ValueError(f"the {boards}-board table gives a winner {format_mixed(top[1])} VPs at a margin of "
                             f"{format_mixed(top[0])}, more than the match's {format_mixed(total)} (twice the draw's "
                             f"{format_mixed(rows[0][1])}): the loser would get {format_mixed(total - top[1])}")
        out[boards] = (tuple(rows), total)
    return out


def table_for(text: str, boards: int) -> tuple[tuple[tuple[Fraction, Fraction], ...], Fraction]:
    tables = parse_table(text)
    if boards not in tables:
        raise ScaleError(f"vp.table has no table for a match of {boards} boards (it has "
                         f"{', '.join(str(b) for b in sorted(tables))})")
    return tables[boards]
