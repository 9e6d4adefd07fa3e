"""A ruling: each side's score, the outcome, the trace it was computed with, the cited paragraphs
and the rulebook's identity — what every output renders."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from typing import Callable

from ..core import rounding as rounding_
from ..core.vocab import Side
from ..rulebook import Paragraph, Rule, Rulebook
from .case import Case
from .combination import Pending, Weighted, resolved, value as combined
from .outcomes import Outcome
from .trace import Trace

UNIT_NAMES = {"IMP": "IMPs", "MP": "matchpoints", "%": "percent", "points": "table points"}


@dataclass
class SideScore:
    side: Side
    value: Fraction | None            # None: the board is not scored for this side
    formula: str
    role: str | None = None           # "nos", "os", or None (no non-offending side identified)
    label: str = ""                   # the outcome for this side (artificial: avg-plus, …)



@dataclass(frozen=True)
class Penalty:
    """A procedural penalty (Law 90) as the ruling applied it, or left it to the scoring."""
    on: str                       # who bears it: a side (NS, EW) or, in an individual event, a player (W)
    side: Side                    # the side it is taken from
    amount: Outcome               # as the case gives it: 10% (of a top), 2 MP, 3 IMP, 1 VP
    value: Fraction | None        # in the board's unit (VPs against a match); None: left to the scoring (table points)
    against: str                  # "board" (the side's score on the board) or "match" (its VPs)
    to: str                       # the penalty rule's apply.to: side, offender, offender-and-partner
    order: str | None = None      # a fraction of a top at matchpoints: before or after factoring (penalty.matchpoints.order)
    rule: str = ""


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
    # per side, the (weight, outcome) pairs its B (B') was formed from after the expectation stage
    # (legal-only, favour, threshold), whichever quantity the damage stage then awarded
    formed: dict[Side, Weighted] | None = None
    # each side's award as results, or how to work it out (combination.Later), and the sides whose
    # weighted results are rounded: read as `assigned` and `rounding`, worked out when first asked
    pending: Pending = field(default_factory=dict, repr=False, compare=False)
    rounded: dict[Side, tuple[Fraction, str]] = field(default_factory=dict, repr=False, compare=False)
    # procedural penalties (Law 90): applied to the scores above where their unit is known, else left to the
    # scoring (value None); a scoring program takes each side's results (scored) and then these
    penalties: list[Penalty] = field(default_factory=list)
    case: Case | None = field(default=None, repr=False)
    # the paragraphs of the law that empowers the adjustment (the case's infraction:), cited first
    empowering: list[str] = field(default_factory=list)

    @cached_property
    def _resolved(self) -> tuple[dict[Side, Weighted] | None, dict[Side, tuple[Fraction, str]]]:
        return resolved(self.pending, self.rounded)

    @property
    def assigned(self) -> dict[Side, Weighted] | None:
        """An assigned adjusted score (or the table result standing), per side: the (weight, result)
        pairs its score is formed from — its award as results, in table points: Σ weight × the
        result's score for that side, whatever the scoring (weights may be negative: A + B − C); None
        when it is not one (artificial scores, an award such as average plus that is no result)."""
        return self._resolved[0]

    @property
    def rounding(self) -> dict[Side, tuple[Fraction, str]]:
        """Per side, (step, mode): the side's weighted score is rounded so once scored
        (weighted.imps.round_to)."""
        return self._resolved[1]

    def scored(self, side: Side, score: Callable[[Outcome], Fraction]) -> Fraction | None:
        """`side`'s score in the event's unit once each of its results is scored for it (against the
        other table or the field; `score(result)` from `side`'s view): Σ weight × score, rounded as
        the rulebook says. None when the side's score is not results (artificial, average plus)."""
        parts = (self.assigned or {}).get(side)
        if parts is None:
            return None
        total = combined(parts, score)
        if side in self.rounding:
            step, mode = self.rounding[side]
            total = rounding_.by_parameter(total, step, mode)
        return total

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
