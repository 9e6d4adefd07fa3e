"""Artificial adjusted scores (12A2, 12C1(d), 12C2) for the two sides, as the rulebook's
``artificial`` stage decides them — shared by case rulings and whole-traveller scoring."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..rulebook import Rule, Rulebook
from .trace import Entry, Trace
from ..core.vocab import SIDES


@dataclass(frozen=True)
class ArtificialScore:
    side: str
    responsibility: str
    value: Fraction | None        # at pairs a share of the top (3/5 for 60%); at teams IMPs; None: not scored
    label: str                    # the rule's outcome: avg-plus, average, avg-minus, session-score, not-scored
    rule_id: str
    formula: str                  # what the rule awards, e.g. artificial.pairs.avg_plus
    entries: tuple[Entry, ...] = field(default=(), repr=False)   # this side's part of the trace
    book: Rulebook | None = field(default=None, repr=False, compare=False)

    @property
    def rule(self) -> str:
        return self.rule_id


def artificial_scores(book: Rulebook, *, scoring: str, responsibility: dict[str, str],
                      session: dict[str, Fraction] | None = None,
                      boards: dict[str, int] | None = None,
                      rules: list[Rule] | None = None, trace: Trace | None = None) -> dict[str, ArtificialScore]:
    """Each side's artificial adjusted score. `session`: 12C2(c) session scores (a share of the
    top at pairs, IMPs a board at teams); `boards`: 12C2(d) boards without a result this session,
    this one included. The decisions are recorded in `trace` when given; every rule that applied
    is appended to `rules` when given."""
    session, boards = session or {}, boards or {}
    out: dict[str, ArtificialScore] = {}
    for side in SIDES:
        other = SIDES[1 - SIDES.index(side)]
        facts: dict[str, Any] = {"responsibility": responsibility[side], "other_responsibility": responsibility[other],
                                 "scoring": scoring, "session": session.get(side),
                                 "boards": Fraction(boards[side]) if boards.get(side) else None}
        t = trace if trace is not None else Trace(book)
        start = len(t.entries)
        rule = t.decide("artificial", facts, side=side, scoring=scoring)
        if rules is not None and rule not in rules:
            rules.append(rule)
        if rule.outcome == "not-scored":
            t.add("not-scored", side=side)
            out[side] = ArtificialScore(side, responsibility[side], None, rule.outcome, rule.id, "not scored",
                                        tuple(t.entries[start:]), book)
            continue
        f = rule.award["score"]
        value = f.evaluate({**book.parameters, "session": session.get(side)})
        t.add("artificial", side=side, formula=f, value=value, scoring=scoring)
        out[side] = ArtificialScore(side, responsibility[side], value, rule.outcome, rule.id, f.text,
                                    tuple(t.entries[start:]), book)
    return out

