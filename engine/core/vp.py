"""Victory points: the WBF continuous 20-VP scale (2013).

For a match of N boards the blitz is X = 15·√N and τ = (√5 − 1)/2; a winning margin of M IMPs
earns min(20, 10 + 10·(1 − τ^(3M/X)) / (1 − τ³)) VPs and the loser 20 minus that. The scale is
published to two decimals, so the value is computed with 40 significant digits and rounded half
up to hundredths: the rounding is the scale's own, and the result is an exact Fraction. (The
official printed tables also nudge a few entries so that the step from one margin to the next
never grows; this formula-based value does not.)
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

SCALES = ("wbf-2013",)


def victory_points(margin: Fraction, boards: int) -> Fraction:
    """VPs (out of 20) of the side that won the match by `margin` IMPs (negative: lost)."""
    if boards < 1:
        raise ValueError("a match has at least one board")
    if margin < 0:
        return 20 - victory_points(-margin, boards)
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
