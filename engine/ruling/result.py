"""A ruling: each side's score, the outcome, the trace it was computed with, the cited paragraphs
and the rulebook's identity — what every output renders."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from ..core.vocab import Side
from ..rulebook import Paragraph, Rule, Rulebook
from .case import Case
from .outcomes import Outcome
from .trace import Trace

UNIT_NAMES = {"IMP": "IMPs", "MP": "matchpoints", "%": "percent"}


@dataclass
class SideScore:
    side: Side
    value: Fraction | None            # None: the board is not scored for this side
    formula: str
    role: str | None = None           # "nos", "os", or None (no non-offending side identified)
    label: str = ""                   # the outcome for this side (artificial: avg-plus, …)


Weighted = list[tuple[Fraction, Outcome]]


@dataclass
class Ruling:
    title: str
    source: str | None
    outcome: str
    unit: str
    top: Fraction | None
    scores: dict[Side, SideScore]
    quantities: dict[str, Fraction | None]
    trace: Trace
    rulebook: Rulebook
    event: str = "pairs"
    players: dict[str, Fraction | None] | None = None
    vp: dict[Side, Fraction] | None = None
    warnings: list[str] = field(default_factory=list)
    # an assigned adjusted score: per side, the (weight, outcome) pairs its B (B') was formed from
    # after the expectation stage (legal-only, favour, threshold); None when not assigned
    assigned: dict[Side, Weighted] | None = None
    case: Case | None = field(default=None, repr=False)
    # the paragraphs of the law that empowers the adjustment (the case's infraction:), cited first
    empowering: list[str] = field(default_factory=list)

    @property
    def rules(self) -> list[Rule]:
        return self.trace.rules()

    @cached_property
    def citations(self) -> list[Paragraph]:
        """The trace's citations, the empowering law's paragraphs first (before Law 12's)."""
        refs = self.trace.citations()
        first = [ref for ref in self.empowering if ref in refs]
        return [self.rulebook.paragraphs[ref] for ref in first + [ref for ref in refs if ref not in first]]

    @property
    def sides(self) -> dict[Side, SideScore]:
        return {"NS": self.scores["NS"], "EW": self.scores["EW"]}

    def _by_role(self, role: str) -> SideScore | None:
        return next((s for s in self.scores.values() if s.role == role), None)

    @property
    def nos(self) -> SideScore | None:
        return self._by_role("nos")

    @property
    def os(self) -> SideScore | None:
        return self._by_role("os")

    def percent(self, value: Fraction | None) -> Fraction | None:
        if value is None:
            return None
        if self.unit == "MP" and self.top:
            return 100 * value / self.top
        if self.unit == "%":
            return value
        return None
