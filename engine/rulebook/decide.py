"""The hit policy, once: from the rules whose conditions hold to the rule that applies.

Used by rulings (:meth:`Rulebook.decision`, after durable_rules says which conditions hold) and
by ``bridgelaw lint`` (after the plain evaluator says so), so the two cannot disagree about
exceptions or about what counts as a gap or an overlap.

Exceptions: a rule that ``overrides`` another wins over it when both hold — and over every rule
that one overrides, and so on (``overrides`` is transitive: an exception to an exception is an
exception to the rule). Among the rules left, a ``unique`` stage needs exactly one, an
``optional`` stage at most one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from .stages import Stage


@dataclass(frozen=True)
class Resolution:
    winners: tuple[str, ...]               # the rules that hold and are not overridden
    overridden: dict[str, str]             # rule that held → the rule that overrode it
    problem: str | None                    # None | "gap" | "overlap"


class Decision:
    """What one stage saw and decided: the trace records it. (A plain class with slots: a ruling
    makes five, and a frozen dataclass took 2 µs each.)"""

    __slots__ = ("stage", "facts", "held", "overridden", "rule")

    def __init__(self, stage: str, facts: dict[str, Any], held: tuple[str, ...],
                 overridden: dict[str, str] | None = None, rule: Any = None) -> None:
        self.stage = stage
        self.facts = facts                 # the facts of the case the stage was given (not the parameters)
        self.held = held                   # every rule whose condition held, in declaration order
        self.overridden = {} if overridden is None else overridden   # rule that held → the rule that overrode it
        self.rule = rule                   # the Rule that applies (None: an optional stage with none)

    def _key(self) -> tuple:
        return (self.stage, self.facts, self.held, self.overridden, self.rule)

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if type(other) is Decision else NotImplemented

    __hash__ = None                        # type: ignore[assignment]  # its facts are a dict

    def __repr__(self) -> str:
        return (f"Decision(stage={self.stage!r}, facts={self.facts!r}, held={self.held!r}, "
                f"overridden={self.overridden!r}, rule={self.rule!r})")


def closure(start: str, overrides: Callable[[str], Iterable[str]]) -> frozenset[str]:
    """Every rule `start` overrides, directly or through the rules it overrides."""
    seen: set[str] = set()
    todo = list(overrides(start))
    while todo:
        rule_id = todo.pop()
        if rule_id not in seen:
            seen.add(rule_id)
            todo.extend(overrides(rule_id))
    return frozenset(seen)


def resolve(stage: Stage, held: Sequence[str], beats: Callable[[str], frozenset[str]]) -> Resolution:
    """Apply the exceptions (transitively) and the stage's hit policy to the rules that held."""
    overridden: dict[str, str] = {}
    for rule_id in held:
        for other in beats(rule_id):
            if other in held and other not in overridden:
                overridden[other] = rule_id
    winners = tuple(r for r in held if r not in overridden)
    if len(winners) > 1:
        problem: str | None = "overlap"
    elif not winners and stage.hit == "unique":
        problem = "gap"
    else:
        problem = None
    return Resolution(winners, overridden, problem)
