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
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from ..core import bridge
from ..core.vocab import Side
from .case import Case
from .outcomes import Outcome, UnitScore
from ..core.exact import format_mixed


class Scored:
    """One outcome's score for one side, and the arithmetic as text — e.g. "4H-1 N: NS -100 →
    IMP(−100 + 170) = +2" — written only when a rendering asks for it."""

    __slots__ = ("value", "_text")

    def __init__(self, value: Fraction, text: str | Callable[[], str]) -> None:
        self.value, self._text = value, text

    @property
    def text(self) -> str:
        if callable(self._text):
            self._text = self._text()
        return self._text


def _points(p: int) -> str:
    return f"{p:+d}" if p else "0"


def basis(case: Case) -> tuple[str, int | None, dict[int, Fraction | int] | None, Fraction | None]:
    """(unit, the other table's NS points, the field's frequency table, top) of a case — the same
    for every ruling of it (kept on the case: Case.scoring_basis)."""
    m = case.model
    vulnerability = m.board.vulnerability
    if m.other_table is None and m.field is None and _gives_results(case):
        return "points", None, None, None
    if m.scoring == "imps":
        other = bridge.ns_score(m.other_table, vulnerability) if m.other_table is not None else None
        return "IMP", other, None, None
    field, top = None, None
    if m.field is not None:
        field = bridge.frequency_table(bridge.ns_score(r, vulnerability) for r in m.field)
        top = bridge.top(len(m.field) + 1)
    elif m.results_on_board is not None:
        top = bridge.top(m.results_on_board)
    unit = "MP" if top is not None else "%"
    return unit, None, field, top if top is not None else Fraction(100)


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
        self._cache: dict[tuple, Scored] = {}
        self.vulnerability = m.board.vulnerability
        self.scoring = m.scoring
        if case.scoring_basis is None:
            case.scoring_basis = basis(case)
        self.unit, self.other_ns, self.field, self.top = case.scoring_basis

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
        return Fraction(0) if self.unit in ("IMP", "points") else self.top

    def complement(self, value: Fraction) -> Fraction:
        """The other side's score for the same result: −x at IMPs and in table points, top − x at matchpoints."""
        return self.balanced_at - value

    def complement_text(self, name: str) -> str:
        return f"−{name}" if self.unit in ("IMP", "points") else f"{format_mixed(self.top)} − {name}"

    def points(self, outcome: Outcome, side: Side) -> int:
        """The result's table points from `side`'s view (0 for a score given in the event's unit)."""
        if isinstance(outcome, UnitScore):
            return 0
        ns = bridge.ns_score(outcome, self.vulnerability)
        return ns if side == "NS" else -ns

    def score(self, outcome: Outcome, side: Side) -> Scored:
        key = (outcome, side)
        if key not in self._cache:
            self._cache[key] = self._score(outcome, side)
        return self._cache[key]

    def _score(self, outcome: Outcome, side: Side) -> Scored:
        if isinstance(outcome, UnitScore):
            return self._unit_score(outcome, side)
        ns = bridge.ns_score(outcome, self.vulnerability)
        def label() -> str:                     # the result's notation, written only when shown
            return outcome.text if isinstance(outcome, bridge.PlayedResult) else "score"
        if self.unit == "points":
            value = Fraction(ns if side == "NS" else -ns)
            return Scored(value, lambda: f"{label()}: NS {_points(ns)}" + ("" if side == "NS" else
                                                                           f" → EW {_points(-ns)}"))
        if self.unit == "IMP":
            here, there = (ns, self.other_ns) if side == "NS" else (-ns, -self.other_ns)
            value = Fraction(bridge.imps(here - there))
            sign = "−" if there >= 0 else "+"
            return Scored(value, lambda: f"{label()}: NS {_points(ns)} → {side} IMP({_points(here)} {sign} {abs(there)}) "
                                         f"= {format_mixed(value, signed=True)}")
        mp_ns = bridge.matchpoints_against(ns, self.field)
        if side == "NS":
            def text() -> str:
                below = sum((f for s, f in self.field.items() if s < ns), Fraction(0))
                tied = self.field.get(ns, Fraction(0))
                return (f"{label()}: NS {_points(ns)} → NS MP = 2 × {format_mixed(below)} beaten + "
                        f"{format_mixed(tied)} tied = {format_mixed(mp_ns)}")
            return Scored(mp_ns, text)
        value = self.top - mp_ns
        return Scored(value, lambda: f"{label()}: NS {_points(ns)} → EW MP = {format_mixed(self.top)} − NS "
                                     f"{format_mixed(mp_ns)} = {format_mixed(value)}")

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
