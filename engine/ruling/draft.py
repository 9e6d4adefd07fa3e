"""A ruling in the making: the case, the rulebook as in force, the scorer, the trace, and what the
stages have found so far (A, B, C and the differences; the weightings behind B and B'; the
paragraphs of the law that empowers the adjustment). Each stage is a function of a Draft
(:mod:`.expectation`, :mod:`.damage`, :mod:`.empowering`, :mod:`.provisions`); :mod:`.build`
runs them in order and returns the :class:`~.result.Ruling`."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from ..core.vocab import Side
from ..rulebook import Rulebook
from ..rulebook.formula import Formula
from ..rulebook.infractions import Empowerment
from .case import Case
from .combination import Pending
from .result import SideScore, Weighted
from .scorer import Scorer
from .trace import Trace


class Draft:
    """A ruling in the making (see the module)."""

    def __init__(self, case: Case, book: Rulebook) -> None:
        self.case, self.book, self.m = case, book, case.model
        self.asked: dt.date | None = None          # --as-of, when given
        self.scorer = Scorer(case)
        self.trace = Trace(book)
        self.add = self.trace.add
        self.warnings: list[str] = []
        self.weighting: dict[Side, list[tuple[Fraction, Fraction]]] = {}   # (weight, score) behind B and B'
        self.formed: dict[Side, Weighted] = {}                              # the outcomes behind B and B'
        self.assigned: Pending = {}        # what each side's score is formed from (its award as results, or how to work it out)
        self.rounding: dict[Side, tuple[Fraction, str]] = {}   # a side's own weighted B (B'), rounded: (step, mode)
        self.rounded: dict[Side, tuple[Fraction, str]] = {}    # a side's award, its weighted results rounded so
        self.quantities: dict[str, Fraction | None] = dict.fromkeys(["A", "B", "C", "D", "DR", "DS"])
        self.empowering: list[str] = []     # the paragraphs of the empowering law (and Law 64's facts), cited first
        self.empowered: Empowerment | None = None
        self.not_empowered: tuple[Empowerment, str] | None = None   # a condition of the empowering law does not hold
        self.declined: Empowerment | None = None    # ... and no result was obtained: its declined: artificial score

    def award(self, f: Formula, env: dict[str, Fraction], side: Side, role: str | None, label: str) -> SideScore:
        value = f.evaluate(env)
        self.add("award", side=side, role=role, formula=f, env=dict(env), value=value, unit=self.scorer.unit)
        return SideScore(side, value, f.text, role, label)
