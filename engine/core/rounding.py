"""Rounding, in one place: a rulebook names the step and the mode, Python does the arithmetic.

A mode says where a value exactly halfway between two multiples of the step goes; every other
value goes to the nearer multiple. A rulebook parameter names the mode (``…round_mode``), so that
which way halves go is the regulation's choice, never Python's:

``half-up``         halves away from zero (2.5 → 3, −2.5 → −3): symmetric between the sides
``half-even``       halves to the even multiple (625 → 620, 635 → 640 at a step of 10)
``toward-average``  halves toward a centre the caller gives (EBU: factored matchpoints round toward
                    the average of the board)
``up``, ``down``    every value not on a step to the step above (below); ``favour-nos`` is ``up`` for a
                    score from the non-offending side's view and ``down`` from the offending side's
                    (Denmark: weighted IMPs "rounded in the non-offending side's favour")

A step of 0 keeps the value exact (:func:`by_parameter`); :func:`nearest` needs a positive step.
"""

from __future__ import annotations

import math
from fractions import Fraction

MODES = ("half-up", "half-even", "toward-average")
DIRECTED = ("up", "down")                  # not only halves: every value off a step
SIDED = ("favour-nos",)                    # up or down by whose view the value is from (for_role)


def nearest(x: Fraction, step: Fraction, mode: str = "half-up", centre: Fraction = Fraction(0)) -> Fraction:
    """`x` rounded to the nearest multiple of `step` (> 0); a half goes as `mode` says."""
    if step <= 0:
        raise ValueError("round_to needs a positive step")
    x = Fraction(x)
    q = x / step
    low = math.floor(q)
    if q == low:
        return x
    if mode in DIRECTED:
        return (low + 1) * step if mode == "up" else low * step
    below, above = q - low, low + 1 - q
    if below != above:
        return (low if below < above else low + 1) * step
    if mode == "half-up":
        return (low + 1) * step if x >= 0 else low * step
    if mode == "half-even":
        return (low if low % 2 == 0 else low + 1) * step
    if mode == "toward-average":
        return low * step if abs(low * step - centre) <= abs((low + 1) * step - centre) else (low + 1) * step
    raise ValueError(f"unknown rounding mode {mode!r} (expected one of {', '.join(MODES + DIRECTED)})")


def for_role(mode: str, role: str) -> str:
    """The mode for a value from the non-offending (``nos``) or offending (``os``) side's view."""
    if mode == "favour-nos":
        return "up" if role == "nos" else "down"
    return mode


def opposite(mode: str) -> str:
    """The mode that rounds −x to −(x rounded by `mode`): up and down swap, the others are symmetric."""
    return {"up": "down", "down": "up"}.get(mode, mode)


def by_parameter(x: Fraction, step: Fraction | int, mode: str = "half-up", centre: Fraction = Fraction(0)) -> Fraction:
    """As :func:`nearest`, but a step of 0 (a rulebook's "keep exact") returns `x` unchanged."""
    return x if not step or step <= 0 else nearest(x, Fraction(step), mode, centre)


def round_toward(x: Fraction, step: Fraction, centre: Fraction) -> Fraction:
    """Halves toward `centre`; a step of 0 keeps `x`."""
    return by_parameter(x, step, "toward-average", centre)


def round_half_even(x: Fraction, step: Fraction) -> Fraction:
    """Halves to the even multiple; a step of 0 keeps `x`."""
    return by_parameter(x, step, "half-even")


def round_half_away(x: Fraction, step: Fraction) -> Fraction:
    """Halves away from zero (mode half-up); a step of 0 keeps `x`."""
    return by_parameter(x, step, "half-up")
