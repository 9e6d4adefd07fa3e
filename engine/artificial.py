"""Artificial adjusted scores (12A2, 12C1(d), 12C2) for the two sides, as the rulebook's
``artificial`` stage decides them — shared by case rulings and whole-traveller scoring."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .exact import format_mixed
from .rulebook import Rule, Rulebook

SIDES = ("NS", "EW")


@dataclass(frozen=True)
class ArtificialScore:
    side: str
    responsibility: str
    value: Fraction | None        # at pairs a share of the top (3/5 for 60%); at teams IMPs; None: not scored
    label: str                    # the rule's outcome: avg-plus, average, avg-minus, session-score, not-scored
    rule_id: str
    formula: str                  # what the rule awards, e.g. artificial.pairs.avg_plus
    steps: tuple[str, ...]

    @property
    def rule(self) -> str:
        return self.rule_id


def shown(value: Fraction, scoring: str) -> str:
    return f"{format_mixed(value * 100)}%" if scoring == "matchpoints" else f"{format_mixed(value, signed=True)} IMPs"


def artificial_scores(book: Rulebook, *, scoring: str, responsibility: dict[str, str],
                      session: dict[str, Fraction] | None = None,
                      boards: dict[str, int] | None = None,
                      rules: list[Rule] | None = None) -> dict[str, ArtificialScore]:
    """Each side's artificial adjusted score. `session`: 12C2(c) session scores (a share of the
    top at pairs, IMPs a board at teams); `boards`: 12C2(d) boards without a result this session,
    this one included. Every rule that applied is appended to `rules` when given."""
    session, boards = session or {}, boards or {}
    out: dict[str, ArtificialScore] = {}
    for side in SIDES:
        other = SIDES[1 - SIDES.index(side)]
        facts: dict[str, Any] = {"responsibility": responsibility[side], "other_responsibility": responsibility[other],
                                 "scoring": scoring, "session": session.get(side),
                                 "boards": Fraction(boards[side]) if boards.get(side) else None}
        rule = book.decide("artificial", facts)
        if rules is not None and rule not in rules:
            rules.append(rule)
        extra = [f"session score {shown(session[side], scoring)}"] if side in session else []
        extra += [f"board {boards[side]} without a result this session"] if boards.get(side) else []
        steps = [f"{side}: {responsibility[side]}{' (' + ', '.join(extra) + ')' if extra else ''}: rule {rule.id} "
                 f"({', '.join(rule.cites)}): {rule.explain}"]
        if rule.outcome == "not-scored":
            steps.append(f"{side}: the board is not scored")
            out[side] = ArtificialScore(side, responsibility[side], None, rule.outcome, rule.id, "not scored", tuple(steps))
            continue
        f = rule.award["score"]
        value = f.evaluate({**book.parameters, "session": session.get(side)})
        steps.append(f"{side} gets {f.text} = {shown(value, scoring)}")
        out[side] = ArtificialScore(side, responsibility[side], value, rule.outcome, rule.id, f.text, tuple(steps))
    return out
