"""Scoring one outcome in the event's unit, for one side, with the arithmetic spelt out.

IMPs (teams): a side's score for a result is IMP(its points here − its points at the other
table). Matchpoints (pairs): the result is scored "as if obtained" against the field — 2 for
each result beaten, 1 for each tie — which for a weighted score gives exactly what fractional
frequencies give (Law 78A; WBF commentary example 9).

Table points: a case that gives results but neither the other table nor the field is ruled in the
points of the results themselves (NS's points; the other side's are their negation), as a TD writes
an assigned result on the slip — "adjusted to 4♠ making, NS +420". Every form of scoring keeps the
order of table points, so the ruling's comparisons hold against any field; a scoring program (or
``bridgelaw score``/``event``) turns each side's results and weights into matchpoints or IMPs.

A case's field is read once (:func:`basis`, kept on the case): its NS scores sorted, so that a
result's matchpoints are two binary searches and whole numbers — no frequency table of
Fractions per ruling. Scores are whole numbers until a weight makes them fractions
(:func:`weighted_sum`: one Fraction over the weights' common denominator).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from fractions import Fraction
from typing import Callable, Iterable

from ..core import bridge
from ..core.vocab import Side
from .case import Case
from .outcomes import Outcome, UnitScore
from ..core.exact import format_mixed, fraction_parts, whole

def weighted_sum(terms: Iterable[tuple[Fraction, Fraction]]) -> Fraction:
    """Σ weight × value, exactly: integers over the common denominator, one Fraction at the end."""
    parts = [(*fraction_parts(w), *fraction_parts(v)) for w, v in terms]
    common = math.lcm(*[wd * vd for _, wd, _, vd in parts]) if parts else 1
    total = sum([wn * vn * (common // (wd * vd)) for wn, wd, vn, vd in parts])
    return whole(total) if common == 1 else Fraction(total, common)


class Scored:
    """One outcome's score for one side, and the arithmetic as text — e.g. "4H-1 N: NS -100 →
    IMP(−100 + 170) = +2" — written only when a rendering asks for it (from a function and its
    arguments, kept until then: no closure is made for a text that may never be shown)."""

    __slots__ = ("value", "_text", "_args")

    def __init__(self, value: Fraction, text: str | Callable[..., str], args: tuple = ()) -> None:
        self.value, self._text, self._args = value, text, args

    @property
    def text(self) -> str:
        if callable(self._text):
            self._text = self._text(*self._args)
            self._args = ()
        return self._text


def _label(outcome: Outcome) -> str:                    # the result's notation
    return outcome.text if isinstance(outcome, bridge.PlayedResult) else "score"


def _imp_text(outcome: Outcome, ns: int, side: Side, here: int, there: int, value: Fraction) -> str:
    sign = "−" if there >= 0 else "+"
    return (f"{_label(outcome)}: NS {_points(ns)} → {side} IMP({_points(here)} {sign} {abs(there)}) "
            f"= {format_mixed(value, signed=True)}")


def _points_text(outcome: Outcome, ns: int, side: Side) -> str:
    return f"{_label(outcome)}: NS {_points(ns)}" + ("" if side == "NS" else f" → EW {_points(-ns)}")


def _ns_mp_text(outcome: Outcome, ns: int, below: int, tied: int, mp_ns: Fraction) -> str:
    return f"{_label(outcome)}: NS {_points(ns)} → NS MP = 2 × {below} beaten + {tied} tied = {format_mixed(mp_ns)}"


def _ew_mp_text(outcome: Outcome, ns: int, top: Fraction, mp_ns: Fraction, value: Fraction) -> str:
    return (f"{_label(outcome)}: NS {_points(ns)} → EW MP = {format_mixed(top)} − NS "
            f"{format_mixed(mp_ns)} = {format_mixed(value)}")


_NS: dict[tuple[int, str], tuple[object, int]] = {}    # (id of a result, vulnerability) → (the result, NS points)


def ns_points(result: object, vulnerability: str) -> int:
    """bridge.ns_score, kept by the result object (results read from the same text are the same
    object — case.parse_outcome keeps them — and a field's results recur from case to case; the
    table holds each result, so its id is not reused, and is emptied past 8,192)."""
    key = (id(result), vulnerability)
    found = _NS.get(key)
    if found is None or found[0] is not result:
        if len(_NS) >= 8192:
            _NS.clear()
        found = _NS[key] = (result, bridge.ns_score(result, vulnerability))
    return found[1]


def _points(p: int) -> str:
    return f"{p:+d}" if p else "0"


class Basis:
    """What every ruling of one case scores against, worked out once (kept on the case:
    Case.scoring_basis): the unit, the other table's NS points, the field's NS scores sorted,
    the top, and each outcome's score once scored."""

    __slots__ = ("unit", "other_ns", "field", "top", "scored")

    def __init__(self, unit: str, other_ns: int | None, field: list[int] | None, top: Fraction | None) -> None:
        self.unit, self.other_ns, self.top = unit, other_ns, top
        self.field = sorted(field) if field is not None else None
        self.scored: dict[tuple, tuple] = {}          # (id of the outcome, side) → (the outcome, its Scored)


def basis(case: Case) -> Basis:
    """(unit, the other table's NS points, the field's NS scores in order, top) of a case — the same
    for every ruling of it."""
    m = case.model
    vulnerability = m.board.vulnerability
    if m.other_table is None and m.field is None and _gives_results(case):
        return Basis("points", None, None, None)
    if m.scoring == "imps":
        other = bridge.ns_score(m.other_table, vulnerability) if m.other_table is not None else None
        return Basis("IMP", other, None, None)
    field, top = None, None
    if m.field is not None:
        field = sorted([ns_points(r, vulnerability) for r in m.field])
        top = bridge.top(len(m.field) + 1)
    elif m.results_on_board is not None:
        top = bridge.top(m.results_on_board)
    unit = "MP" if top is not None else "%"
    return Basis(unit, None, field, top if top is not None else Fraction(100))


def _gives_results(case: Case) -> bool:
    """Whether the case's outcomes are results (or raw scores), not scores in the event's unit."""
    outcomes = [case.model.table_result] + [c.outcome for side in (case.without or {}).values() for c in side] \
        + [c.outcome for c in case.instead or []]
    return any(o is not None and not isinstance(o, UnitScore) for o in outcomes)


class Scorer:
    """Scores outcomes of one case in its unit: 'IMP', 'MP', or '%' (matchpoints given as percentages)."""

    def __init__(self, case: Case) -> None:
        m = case.model
        self.case = case
        self.vulnerability = m.board.vulnerability
        self.scoring = m.scoring
        if case.scoring_basis is None:
            case.scoring_basis = basis(case)
        b = case.scoring_basis
        self.unit, self.other_ns, self.field, self.top = b.unit, b.other_ns, b.field, b.top
        self._cache = b.scored

    def describe_basis(self) -> str:
        m = self.case.model
        if self.unit == "points":
            return ("Scoring: in table points — no other table or field is given, so each side's score is its "
                    "result(s) and weights, in NS's points (the other side's are their negation); a scoring "
                    f"program turns them into {'IMPs' if m.scoring == 'imps' else 'matchpoints'} against the field.")
        if self.unit == "IMP":
            if self.other_ns is None:
                return "Scoring: IMPs."
            there = m.other_table.text if isinstance(m.other_table, bridge.Score) else \
                f"{m.other_table.text}: NS {_points(self.other_ns)}"
            return (f"Scoring: IMPs against the other table, {there}; "
                    f"a side's score is IMP(its points here − its points there).")
        if self.field is not None:
            return (f"Scoring: matchpoints against the field of {len(m.field)} other results "
                    f"(2 per result beaten, 1 per tie); top {format_mixed(self.top)}.")
        if self.unit == "MP":
            return f"Scoring: matchpoints, {m.results_on_board} results on the board; top {format_mixed(self.top)}."
        return "Scoring: matchpoints given as percentages of the top."

    @property
    def balanced_at(self) -> Fraction:
        """What the two sides' scores for one result add up to: 0 in IMPs and table points, the top at matchpoints."""
        return whole(0) if self.unit in ("IMP", "points") else self.top

    def complement(self, value: Fraction) -> Fraction:
        """The other side's score for the same result: −x at IMPs and in table points, top − x at matchpoints."""
        n, d = fraction_parts(value) if type(value) is Fraction else (None, None)
        if d == 1:                          # whole: no Fraction arithmetic
            if self.unit in ("IMP", "points"):
                return whole(-n)
            top_n, top_d = fraction_parts(self.top)
            if top_d == 1:
                return whole(top_n - n)
        return self.balanced_at - value

    def complement_text(self, name: str) -> str:
        return f"−{name}" if self.unit in ("IMP", "points") else f"{format_mixed(self.top)} − {name}"

    def points(self, outcome: Outcome, side: Side) -> int:
        """The result's table points from `side`'s view (0 for a score given in the event's unit)."""
        if isinstance(outcome, UnitScore):
            return 0
        ns = ns_points(outcome, self.vulnerability)
        return ns if side == "NS" else -ns

    def score(self, outcome: Outcome, side: Side) -> Scored:
        # kept by the outcome object (the cache holds it, so its id is not reused): hashing a
        # result's fields cost more than scoring it
        found = self._cache.get((id(outcome), side))
        if found is None or found[0] is not outcome:
            found = self._cache[(id(outcome), side)] = (outcome, self._score(outcome, side))
        return found[1]

    def _score(self, outcome: Outcome, side: Side) -> Scored:
        if isinstance(outcome, UnitScore):
            return self._unit_score(outcome, side)
        ns = ns_points(outcome, self.vulnerability)
        if self.unit == "points":
            return Scored(whole(ns if side == "NS" else -ns), _points_text, (outcome, ns, side))
        if self.unit == "IMP":
            here, there = (ns, self.other_ns) if side == "NS" else (-ns, -self.other_ns)
            value = whole(bridge.imps(here - there))
            return Scored(value, _imp_text, (outcome, ns, side, here, there, value))
        below = bisect_left(self.field, ns)
        tied = bisect_right(self.field, ns, below) - below
        mp = 2 * below + tied                    # 2 per result beaten, 1 per tie (Law 78A)
        mp_ns = whole(mp)
        if side == "NS":
            return Scored(mp_ns, _ns_mp_text, (outcome, ns, below, tied, mp_ns))
        top_n, top_d = fraction_parts(self.top)
        value = whole(top_n - mp) if top_d == 1 else self.top - mp_ns
        return Scored(value, _ew_mp_text, (outcome, ns, self.top, mp_ns, value))

    def _unit_score(self, outcome: UnitScore, side: Side) -> Scored:
        if outcome.unit == "%":
            given = outcome.value * self.top / 100
        else:
            given = outcome.value
        value = given if outcome.side == side else self.complement(given)

        def text() -> str:
            note = "" if outcome.side == side else f" for {outcome.side}, so {side} gets the complement"
            shown = format_mixed(value, signed=self.unit == "IMP")
            unit = "%" if self.unit == "%" else f" {self.unit}"
            conv = f" of top {format_mixed(self.top)}" if outcome.unit == "%" and self.unit == "MP" else ""
            return f"{outcome.text}{conv} (given in the event's unit){note}: {side} {shown}{unit}"
        return Scored(value, text)
