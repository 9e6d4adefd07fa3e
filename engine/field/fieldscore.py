"""Scoring a whole traveller: matchpoints (2 per result beaten, 1 per tie) with fractional frequencies and Neuberg,
cross-IMPs and butler, with weighted and split adjusted scores — exact, and grouped by score.

Everything here works on one direction at a time. A direction's field is a list with one entry
per table: an ``int`` (the table's result, in points from that direction's view), a list of
:class:`bridgelaw.ruling.outcomes.Component` whose weights sum to 1 (a weighted adjusted score: the one
weighted-outcome type of cases, rulings and travellers; ``points`` turns a component's outcome
into points from that direction's view, and without it the outcomes are points already), or
``None`` (no result: an artificial score, left out of the field). A split adjustment simply gives the two
directions different weightings; balanced scores give the EW field the NS field's points negated.

Nothing compares table with table. The field is grouped into ``{points: frequency}``; weights
are scaled by the least common multiple ``L`` of their denominators so that every frequency is
an integer; each distinct score's value is computed once from prefix sums, and each table looks
its value up (a weighted table takes the weighted sum of its components' values). The cost is
O(n + d log d) for n tables and d distinct scores.

Why the weighted sums are right:

* matchpoints — a table's components are matchpointed against the whole frequency table
  (its own weights included), ``2 × below + equal − 1``; because the weights sum to 1 this
  equals scoring each component "as if obtained" against the other tables only (the
  own-table terms add up to ``(Σw)² − 1 = 0``). Commentary example 9 shows both ways.
* cross-IMPs — ``Σ_i w_i Σ_v F(v) IMP(c_i − v)`` over the whole field; the own-table terms
  ``Σ_ij w_i w_j IMP(c_i − c_j)`` cancel because IMP(−x) = −IMP(x).
* butler — the datum is the trimmed weighted mean of the field (weights count as fractions of
  a result when the top and bottom results are dropped); a table scores IMP(points − datum),
  weighted over its components.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Any, Union

from ..core.bridge import IMP_SCALE, imps
from ..ruling.outcomes import Component
from ..core.exact import ratio, whole
from ..core.rounding import by_parameter, round_half_away, round_half_even, round_toward

__all__ = [
    "Weighting",
    "FieldEntry",
    "Field",
    "round_toward",
    "round_half_even",
    "neuberg",
    "MatchpointResult",
    "matchpoints",
    "cross_imps",
    "ButlerResult",
    "butler",
]

Weighting = Sequence[Component]
FieldEntry = Union[int, Weighting, None]
Points = Callable[[Any], int]            # a component's outcome → points from the direction's view
_Pairs = tuple[tuple[int, Fraction], ...]   # a weighting as (points, weight), inside this module only


def _as_points(outcome: Any) -> int:
    return outcome

_ONE = Fraction(1)


FORMS = ("neuberg", "ties", "none")    # how a board with fewer results is factored up (matchpoints)


def neuberg(m: Fraction, results: int, expected: int) -> Fraction:
    """Neuberg's formula: matchpoints `m` within a group of `results` results, factored up to
    `expected` results: ``(M + 1) × E / A − 1`` (in half matchpoints, ``(M + ½) × E / A − ½``: the same)."""
    return (m + 1) * expected / results - 1


class Field:
    """One direction's field grouped by score, frequencies scaled to integers.

    ``scale`` is L, the lcm of the weights' denominators; ``counts[k]`` is L × the frequency of
    ``scores[k]`` (ascending); ``results`` is the number of tables with a result (each weighted
    table counts once: its weights sum to 1); ``entries`` the entries with each weighting as
    (points, weight) pairs.
    """

    def __init__(self, entries: Sequence[FieldEntry], points: Points | None = None) -> None:
        self.points = value = points or _as_points
        scale = 1
        results = 0
        normal: list[int | _Pairs | None] = []
        add = normal.append
        for entry in entries:
            if entry is None or isinstance(entry, int):
                add(entry)
                if entry is not None:
                    results += 1
                continue
            results += 1
            entry = tuple((value(c.outcome), c.weight) for c in entry)
            add(entry)
            total = Fraction(0)
            for points, weight in entry:
                if weight < 0:
                    raise ValueError(f"a weight cannot be negative, got {weight}")
                total += weight
                scale = math.lcm(scale, Fraction(weight).denominator)
            if total != 1:
                raise ValueError(f"a weighting's weights must sum to 1, got {total}")
        self.scale = scale
        self.results = results
        self.entries = entries = normal
        freq: dict[int, int] = {}
        get = freq.get
        for entry in entries:
            if entry is None:
                continue
            if isinstance(entry, int):
                freq[entry] = get(entry, 0) + scale
            else:
                for points, weight in entry:
                    w = weight.numerator * (scale // weight.denominator)
                    freq[points] = get(points, 0) + w
        self.scores: list[int] = sorted(freq)
        self.counts: list[int] = [freq[s] for s in self.scores]
        self._index = {s: k for k, s in enumerate(self.scores)}
        self._below = [0, *accumulate(self.counts)]       # _below[k] = Σ counts[:k]
        self.total = self._below[-1]                       # = results × scale

    # --- grouped quantities, scaled -----------------------------------------------------------

    def frequency(self, points: int) -> Fraction:
        k = self._index.get(points)
        return Fraction(self.counts[k], self.scale) if k is not None else Fraction(0)

    def frequencies(self) -> list[tuple[int, Fraction]]:
        """``(points, frequency)``, best score first, frequencies exact."""
        if self.scale == 1:
            return [(s, whole(c)) for s, c in zip(reversed(self.scores), reversed(self.counts))]
        return [(s, ratio(c, self.scale)) for s, c in zip(reversed(self.scores), reversed(self.counts))]

    def mp_units(self, points: int) -> int:
        """L × (2 × frequency below + frequency equal) over the whole field."""
        k = self._index[points]
        return 2 * self._below[k] + self.counts[k]

    def at_most(self, x: int | Fraction) -> int:
        return self._below[bisect_right(self.scores, x)]

    def at_least(self, x: int | Fraction) -> int:
        return self.total - self._below[bisect_left(self.scores, x)]

    def imp_units(self, points: int) -> int:
        """L × Σ_v F(v) × IMP(points − v) over the whole field, from the 24 steps of the scale:
        IMP(x) counts the steps b with x ≥ b, minus those with −x ≥ b. A field of fewer distinct
        scores than the scale's 48 bounds is summed score by score (one step count each), the same
        integers."""
        if len(self.scores) < 2 * len(IMP_SCALE):
            total = 0
            for v, count in zip(self.scores, self.counts):
                x = points - v
                total += count * (bisect_right(IMP_SCALE, x) if x >= 0 else -bisect_right(IMP_SCALE, -x))
            return total
        return sum(self.at_most(points - b) - self.at_least(points + b) for b in IMP_SCALE)

    def trimmed_mean(self, drop: int) -> tuple[Fraction, int]:
        """The mean after dropping `drop` results (weight) at each end, and the drop used:
        never so many that nothing is left (at most ⌊(results − 1) / 2⌋)."""
        if self.results == 0:
            raise ValueError("an empty field has no mean")
        drop = max(0, min(drop, (self.results - 1) // 2))
        cut = drop * self.scale
        kept = list(self.counts)
        remaining = cut
        for k in range(len(kept)):
            take = min(kept[k], remaining)
            kept[k] -= take
            remaining -= take
            if not remaining:
                break
        remaining = cut
        for k in range(len(kept) - 1, -1, -1):
            take = min(kept[k], remaining)
            kept[k] -= take
            remaining -= take
            if not remaining:
                break
        weight = self.total - 2 * cut
        return Fraction(sum(s * c for s, c in zip(self.scores, kept)), weight), drop


def _weighted(entry: _Pairs, value_units, scale: int) -> Fraction:
    """Σ w_i × value(c_i) with value in units of 1/scale: one Fraction at the end."""
    num = 0
    for points, weight in entry:
        num += weight.numerator * (scale // weight.denominator) * value_units(points)
    return ratio(num, scale * scale)


def _per_table(field: "Field", of_result: Callable[[int], Fraction],
               of_weighted: Callable[[_Pairs], Fraction]) -> list[Fraction | None]:
    """Each table's value: None without a result, `of_result(points)` for a result obtained
    (computed once per distinct score), `of_weighted(entry)` for a weighted adjusted score."""
    cache: dict[int, Fraction] = {}
    values: list[Fraction | None] = []
    append = values.append
    for entry in field.entries:
        if entry is None:
            append(None)
        elif isinstance(entry, int):
            v = cache.get(entry)
            if v is None:
                v = cache[entry] = of_result(entry)
            append(v)
        else:
            append(of_weighted(entry))
    return values


# --- matchpoints --------------------------------------------------------------------------------

@dataclass
class MatchpointResult:
    values: list[Fraction | None]     # per table, None for a table without a result
    top: Fraction                     # 2 × (E − 1) when factored, else 2 × (A − 1)
    results: int                      # A: tables with a result
    expected: int                     # E
    factored: bool                    # Neuberg applied
    rounded_to: Fraction              # 0 = exact
    field: Field
    raw: list[Fraction | None]        # per table, before factoring (the same as values when not factored)
    factor: Callable[[Fraction], Fraction]    # matchpoints within the results → the board's score (factored, rounded)


def matchpoints(
    entries: Sequence[FieldEntry],
    *,
    points: Points | None = None,
    expected: int | None = None,
    form: str = "neuberg",
    round_to: Fraction | int = 0,
    round_mode: str = "toward-average",
) -> MatchpointResult:
    """Matchpoints of every table of one direction (2 per result beaten, 1 per tie,
    frequencies possibly fractional). When fewer results than `expected` (default: one per
    entry) took part, scores are factored up to `expected` results — by Neuberg's formula when
    `form` is ``neuberg``, by counting each missing result as a tie with every table when it is
    ``ties`` (M + (E − A)) — and, if `round_to` is not 0, rounded to that step, a half going as
    `round_mode` says (core.rounding: toward-average rounds it toward half the top)."""
    field = Field(entries, points)
    a = field.results
    e = len(entries) if expected is None else expected
    if e < a:
        raise ValueError(f"expected {e} results, but {a} tables have one")
    if form not in FORMS:
        raise ValueError(f"unknown Neuberg form {form!r}")
    factored = form != "none" and 0 < a < e
    step = Fraction(round_to) if factored else whole(0)
    top = whole(2 * (e - 1)) if factored or a == 0 else whole(2 * (a - 1))
    scale = field.scale
    centre = whole((e - 1) if factored or a == 0 else (a - 1))      # top / 2

    def finish(m: Fraction) -> Fraction:
        if factored:
            m = neuberg(m, a, e) if form == "neuberg" else m + (e - a)
            if step:
                m = by_parameter(m, step, round_mode, centre)
        return m

    if scale == 1:                      # no weighted table: whole matchpoints (no common divisor to find)
        of_result = lambda points: whole(field.mp_units(points) - 1)             # noqa: E731
    else:
        of_result = lambda points: ratio(field.mp_units(points) - scale, scale)      # noqa: E731
    raw = _per_table(field, of_result, lambda entry: _weighted(entry, field.mp_units, scale) - 1)
    values = raw
    if factored:                        # equal results share one raw Fraction: factored once
        done: dict[int, Fraction] = {}
        values = [None if m is None else done[id(m)] if id(m) in done else done.setdefault(id(m), finish(m))
                  for m in raw]
    return MatchpointResult(values, top, a, e, factored, step, field, raw, finish)


def matchpoints_as_if(field: Field, entry: Weighting) -> list[Fraction]:
    """Each component's matchpoints "as if obtained" against the other tables only (its own
    table's weights taken out of the field): what a TD computes by hand, and what
    ``bridgelaw rule`` shows for B."""
    entry = [(field.points(c.outcome), c.weight) for c in entry]
    out = []
    for points, _ in entry:
        own_below = sum((w for p, w in entry if p < points), Fraction(0))
        own_equal = sum((w for p, w in entry if p == points), Fraction(0))
        full = Fraction(field.mp_units(points), field.scale)
        out.append(full - 2 * own_below - own_equal)
    return out


# --- cross-IMPs ---------------------------------------------------------------------------------

DIVISORS = ("none", "comparisons", "results")


def cross_divisor(divisor: str, results: int) -> int:
    if divisor == "none":
        return 1
    if divisor == "comparisons":
        return max(1, results - 1)
    if divisor == "results":
        return max(1, results)
    raise ValueError(f"unknown cross-IMP divisor {divisor!r}")


def cross_imps(entries: Sequence[FieldEntry], *, points: Points | None = None,
               divisor: str = "comparisons") -> tuple[list[Fraction | None], Field, int]:
    """Cross-IMPs of every table of one direction: each result IMPed against every other,
    weighted tables entering each comparison with their weights; the total divided by 1
    (``none``), the number of comparisons (``comparisons``, A − 1) or of results (``results``).
    Returns the values, the field and the divisor used."""
    field = Field(entries, points)
    scale = field.scale
    by = cross_divisor(divisor, field.results)
    units: dict[int, int] = {}

    def imp_units(points: int) -> int:
        u = units.get(points)
        if u is None:
            u = units[points] = field.imp_units(points)
        return u

    values = _per_table(field, lambda points: ratio(imp_units(points), scale * by),
                        lambda entry: _weighted(entry, imp_units, scale) / by)
    return values, field, by


def cross_imps_as_if(field: Field, entry: Weighting) -> list[Fraction]:
    """Each component's IMP total against the other tables only (before the divisor)."""
    entry = [(field.points(c.outcome), c.weight) for c in entry]
    out = []
    for points, _ in entry:
        own = sum((w * imps(points - p) for p, w in entry), Fraction(0))
        out.append(Fraction(field.imp_units(points), field.scale) - own)
    return out


# --- butler -------------------------------------------------------------------------------------

@dataclass
class ButlerResult:
    values: list[Fraction | None]
    datum: Fraction | None            # after rounding; None when no table has a result
    mean: Fraction | None             # before rounding
    dropped: int                      # results dropped at each end
    field: Field


def butler(entries: Sequence[FieldEntry], *, points: Points | None = None, drop: int = 1,
           round_datum_to: Fraction | int = 0, round_half: str = "even") -> ButlerResult:
    """Butler IMPs of every table of one direction: each result IMPed against a datum, the mean
    of the field after dropping `drop` results at each end (weights count as fractions of a
    result), rounded to `round_datum_to` if not 0 (halves to even, or away from zero with
    ``round_half="away"`` as Compscore does)."""
    field = Field(entries, points)
    if field.results == 0:
        return ButlerResult([None] * len(entries), None, None, 0, field)
    mean, dropped = field.trimmed_mean(int(drop))
    if round_half == "away":
        datum = round_half_away(mean, Fraction(round_datum_to))
    elif round_half == "even":
        datum = round_half_even(mean, Fraction(round_datum_to))
    else:
        raise ValueError(f"unknown rounding of halves {round_half!r}")
    cache: dict[int, Fraction] = {}

    def imp(points: int) -> Fraction:
        v = cache.get(points)
        if v is None:
            v = cache[points] = whole(imps(points - datum))
        return v

    values = _per_table(field, imp, lambda entry: sum((w * imp(p) for p, w in entry), Fraction(0)))
    return ButlerResult(values, datum, mean, dropped, field)
