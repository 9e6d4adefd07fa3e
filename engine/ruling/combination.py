"""Each side's award as results and weights — what :attr:`.result.Ruling.assigned` carries, in table
points, for a scoring program (or ``bridgelaw score``/``event``) to score against the field.

An award formula is affine in the quantities it names (``B``, ``A + B - C``, ``(NS - EW) / 2``) and
every quantity is a weighted list of results from one side's view (A: the table result; B: the
outcomes without the infraction; C: those without the serious error), so each side's score is
Σ weight × (the score of one result for that side) — whatever the scoring: IMPs against the other
table, matchpoints against the field. Weights may be negative (``A + B - C`` takes C away) and add
up to 1. A quantity from the other side's view enters negated: the other side's score for a result
is −x at IMPs and in table points, top − x at matchpoints, so a constant ``top`` must cancel.

Most rulings are never asked for their award as results (a TD reads the scores), so a ruling keeps
how to work it out (:class:`Later`) and does so when first asked (:func:`resolved`); in table
points, where the award as results is the ruling, it is worked out at once.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from ..core.exact import fraction_parts, total
from ..core.vocab import SIDES, Side
from ..rulebook.formula import Formula
from .outcomes import Outcome

_ZERO = Fraction(0)
Weighted = list[tuple[Fraction, Outcome]]       # (weight, result): one side's score is Σ weight × score(result)
View = tuple[Side, Weighted]                     # a quantity: the side whose view it is from, its results


def merged(parts: Weighted) -> Weighted:
    """The same result (the same object: A and the C that equals it) merged, its weights added; results
    of weight 0 left out, in first-seen order. Equal results written twice stay two entries."""
    out: dict[int, list] = {}
    for weight, outcome in parts:
        entry = out.get(id(outcome))
        if entry is None:                   # a Fraction as it is (0 + weight is the same number)
            out[id(outcome)] = [weight if type(weight) is Fraction else Fraction(0) + weight, outcome]
        else:
            entry[0] += weight
    return [(w, o) for w, o in out.values() if (w._numerator if type(w) is Fraction else w)]


def of_formula(f: Formula, views: dict[str, View], side: Side, at_matchpoints: bool) -> Weighted | None:
    """`side`'s award `f` as results and weights, or None when it is not one (not affine, a name
    without results, a constant that does not cancel, weights not adding up to 1)."""
    shape = f.affine()
    if shape is None:
        return None
    constant, names = shape
    top = names.pop("top", _ZERO)            # multiples of the top the formula names …
    shift = _ZERO                            # … and those the other side's view brings at matchpoints
    parts: Weighted = []
    for name, coef in names.items():
        if name not in views:
            return None
        view, results = views[name]
        n, d = fraction_parts(coef)                    # one product a name, not one a result (none for ±1)
        if view != side:
            n = -n
        if d == 1 and n == 1:
            parts += results
        elif d == 1 and n == -1:
            parts += [(-w, o) for w, o in results]
        else:
            factor = Fraction(n, d)
            parts += [(factor * w, o) for w, o in results]
        if view != side and at_matchpoints:   # (the shift counts only at matchpoints)
            shift += coef * total([w for w, _ in results])
    if fraction_parts(constant)[0] or fraction_parts(top + shift if at_matchpoints else top)[0]:
        return None
    out = merged(parts)
    return out if fraction_parts(total([w for w, _ in out])) == (1, 1) else None


def value(parts: Weighted, score: Callable[[Outcome], Fraction]) -> Fraction:
    """Σ weight × score(result): the side's score once each result is scored for it."""
    return sum((w * score(o) for w, o in parts), Fraction(0))


class Later:
    """A side's award as results (or None when it is none), worked out when first asked: ``later()``."""

    __slots__ = ("_fn", "_args", "_value")

    def __init__(self, fn: Callable[..., Weighted | None], *args) -> None:
        self._fn, self._args, self._value = fn, args, None

    def __call__(self) -> Weighted | None:
        if self._fn is not None:
            self._value = self._fn(*self._args)
            self._fn = self._args = None
        return self._value


Pending = dict[Side, "Weighted | Later"]      # each side's award as results, or how to work it out


def parts_of(pending: "Weighted | Later") -> Weighted | None:
    return pending() if type(pending) is Later else pending


def resolved(pending: Pending, rounded: dict[Side, tuple[Fraction, str]]
             ) -> tuple[dict[Side, Weighted] | None, dict[Side, tuple[Fraction, str]]]:
    """(each side's award as results — None unless both sides' are —, the rounding of those whose
    weighted results are rounded, only when both are results)."""
    parts = {side: parts_of(p) for side, p in pending.items()}
    both = all(parts.get(side) is not None for side in SIDES)
    return ({side: parts[side] for side in SIDES} if both else None,
            {side: r for side, r in rounded.items() if both})
