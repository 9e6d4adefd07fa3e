"""The stages of a ruling, and the vocabulary each stage's rules may use.

A rulebook's rules each belong to one stage. Python knows what a stage *does* with the rule
that applies (form B from a list of outcomes, award scores); the rulebook says *which* rule
applies and why. Within a stage exactly one rule must apply (a DMN "unique" hit policy);
a rule may declare ``overrides: [other-rule]`` to win over another explicitly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .conditions import Vocabulary

OUTCOMES = ("no-damage", "all-self-inflicted", "none-self-inflicted", "split", "assigned")


@dataclass(frozen=True)
class Stage:
    id: str
    summary: str
    facts: Vocabulary
    produces: str                                   # "apply" (a method) or "award" (formulas)
    apply_options: dict[str, tuple[str, ...]] = field(default_factory=dict)
    award_keys: tuple[str, ...] = ()
    formula_names: frozenset[str] = frozenset()
    outcomes: tuple[str, ...] = ()


EXPECTATION = Stage(
    id="expectation",
    summary="how the score without the infraction (B) is formed from the possible outcomes",
    facts={"weighted": "bool", "illegal_outcomes": "bool", "scoring": ("imps", "matchpoints")},
    produces="apply",
    apply_options={"method": ("weighted-average",), "outcomes": ("all", "legal")},
)

DAMAGE = Stage(
    id="damage",
    summary="whether the non-offending side was damaged, and by what; each side's score",
    facts={
        "A": "number", "B": "number", "C": "number",
        "D": "number", "DR": "number", "DS": "number",
        "serious_error": "bool", "scoring": ("imps", "matchpoints"),
    },
    produces="award",
    award_keys=("nos", "os"),
    formula_names=frozenset({"A", "B", "C", "A'", "B'", "C'", "D", "DR", "DS"}),
    outcomes=OUTCOMES,
)

STAGES: dict[str, Stage] = {s.id: s for s in (EXPECTATION, DAMAGE)}
