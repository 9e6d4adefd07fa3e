"""Trick transfers after established revokes: the arithmetic, with the law in the rulebook.

A revoke case gives the contract as played, the tricks declarer won at the table, and each
established revoke: who revoked, on which trick, whether the offending *player* won that trick
(a trick won by dummy is not won by declarer), whether the offending *side* did, how many later
tricks the offending side won, and any exception the rulebook lists (its ``words: exception:``).

What the law says is the rulebook's: its ``revoke`` stage decides, for each revoke, how many
tricks go to the non-offending side (a formula over the facts, e.g. ``1 + min(later_tricks, 1)``)
and which paragraph says so; its ``revoke-equity`` stage decides, once for the board, whether the
transfer leaves the non-offending side short of the tricks it would have had without the revoke
and what follows (``adjust: no | if-damaged | as-if-no-revoke``). What is left here is arithmetic:

- :func:`facts` — the facts of one revoke as a stage sees them;
- :func:`rectify` — the result after every transfer: tricks move from the offending side to the
  other, never more than the offending side won from the first revoke on;
- :func:`tricks_for` — a side's tricks in a result.

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core import bridge
from ..core.errors import did_you_mean
from ..rulebook import Rule, Rulebook
from ..rulebook import conditions as c

NONE = "none"                      # the word for "no exception named" (a rulebook declares it with its meaning)


class RevokeError(ValueError):
    """Revoke facts that cannot all be true (a sentence saying which)."""


@dataclass(frozen=True)
class Revoke:
    """One established revoke."""

    trick: int                       # the trick on which the revoke occurred, 1–13
    offender: bridge.Direction       # the player who revoked
    offender_won: bool               # the offending player won the revoke trick
    side_won: bool                   # the offending side won the revoke trick
    later_tricks: int                # tricks the offending side won after the revoke trick
    exception: str | None = None     # a word the rulebook declares for the exception, or None
    legal_card_won: bool | None = None   # the offender won a later trick with a card he could legally have played
                                     # to the revoke trick; None when the case does not say

    def __post_init__(self) -> None:
        if isinstance(self.trick, bool) or not isinstance(self.trick, int) or not 1 <= self.trick <= 13:
            raise RevokeError(f"the revoke trick is 1 to 13, got {self.trick!r}")
        if self.offender not in bridge.DIRECTIONS:
            raise RevokeError(f"the offender is N, E, S or W, got {self.offender!r}")
        if isinstance(self.later_tricks, bool) or not isinstance(self.later_tricks, int) or self.later_tricks < 0:
            raise RevokeError(f"later_tricks is a whole number of tricks, got {self.later_tricks!r}")
        if self.later_tricks > 13 - self.trick:
            raise RevokeError(f"the offending side cannot win {self.later_tricks} tricks after trick "
                              f"{self.trick}: only {13 - self.trick} remain")
        if self.offender_won and not self.side_won:
            raise RevokeError("the offending player won the revoke trick, so the offending side won it too")
        if self.legal_card_won and self.later_tricks < 1:
            raise RevokeError("the offender won a later trick with a card he could have played to the revoke trick, "
                              "so the offending side won at least one later trick (later_tricks)")


@dataclass(frozen=True)
class Transfer:
    tricks: int
    rule: Rule                       # the rule of the revoke stage that applied
    paragraph: str                   # the first paragraph it cites

    @property
    def reason(self) -> str:
        return self.rule.explain


def both_sides(revokes: list[Revoke]) -> bool:
    """Both sides revoked on the board."""
    return len({bridge.side_of(r.offender) for r in revokes}) > 1


def facts(revoke: Revoke, *, on_board: list[Revoke] | None = None) -> dict[str, Any]:
    """The facts of one revoke as the rulebook's ``revoke`` stage sees them."""
    out = {"exception": revoke.exception or NONE, "trick": Fraction(revoke.trick),
           "offender_won": revoke.offender_won, "side_won": revoke.side_won,
           "later_tricks": Fraction(revoke.later_tricks), "both_sides": both_sides(on_board or [revoke])}
    if revoke.legal_card_won is not None:       # absent unless the case says: a rule that needs it names it
        out["legal_card_won"] = revoke.legal_card_won
    return out


def check_exception(book: Rulebook, revoke: Revoke) -> None:
    """A named exception must be one the rulebook declares."""
    words = book.words.get("exception", {})
    if revoke.exception is not None and (revoke.exception == NONE or revoke.exception not in words):
        known = [w for w in words if w != NONE]
        raise RevokeError(f"'{revoke.exception}' is not an exception {book.id} lists for a revoke (one of "
                          f"{', '.join(known) or '(none)'})" + _suggest(revoke.exception, known))


def _suggest(word: str, known: list[str]) -> str:
    hint = did_you_mean(word, known)
    return f"; {hint}" if hint else ""


def _mentioned(book: Rulebook, stage: str, fact: str) -> set[str]:
    """The words of `fact` that the conditions of `stage`'s rules in force mention."""
    out: set[str] = set()
    for rule in book.rules_for(stage):
        for leaf in c.leaves(rule.condition):
            if isinstance(leaf, c.Compare) and c.Name(fact) in (leaf.left, leaf.right):
                out |= {t.word for t in (leaf.left, leaf.right) if isinstance(t, c.Word)}
            elif isinstance(leaf, c.In) and leaf.name == fact:
                out |= set(leaf.words)
    return out


def transfer(book: Rulebook, revoke: Revoke, *, on_board: list[Revoke] | None = None, trace: Any = None,
             **subject: Any) -> Transfer:
    """The tricks the rulebook's ``revoke`` stage transfers for one revoke (recorded in `trace`
    when given)."""
    check_exception(book, revoke)
    f = facts(revoke, on_board=on_board)
    rule = trace.decide("revoke", f, **subject) if trace is not None else book.decide("revoke", f)
    value = rule.award["tricks"].evaluate({**book.parameters, **f})
    if value.denominator != 1 or value < 0:
        raise RevokeError(f"rule {rule.id} of {book.id} transfers {value} tricks: a whole number of tricks, "
                          "0 or more, was expected")
    return Transfer(int(value), rule, rule.cites[0])


def _declaring(direction: str, declarer: str) -> bool:
    return bridge.side_of(direction) == bridge.side_of(declarer)


def rectify(result: bridge.PlayedResult, revokes: list[Revoke],
            transfers: list[Transfer]) -> bridge.PlayedResult:
    """The result after every revoke's transfer (each revoke counted separately).

    Tricks move from the offending side to the other; a transfer can never take more tricks than
    the offending side won from the first revoke on (the revoke trick, if it won it, and the later
    ones). With both sides revoking, each side's transfers go the other way.
    """
    if result.contract is None or result.declarer is None:
        raise RevokeError("a revoke needs a contract that was played (not PASS)")
    if not revokes:
        raise RevokeError("give at least one established revoke")
    tricks = result.tricks
    for side in dict.fromkeys(bridge.side_of(r.offender) for r in revokes):
        mine = [(r, t) for r, t in zip(revokes, transfers) if bridge.side_of(r.offender) == side]
        first = min((r for r, _ in mine), key=lambda r: r.trick)
        available = (1 if first.side_won else 0) + first.later_tricks
        won = result.tricks if _declaring(first.offender, result.declarer) else 13 - result.tricks
        if available > won:
            raise RevokeError(f"the offending side won {available} tricks from the revoke on, but only "
                              f"{won} in all ({result.text})")
        total = min(sum(t.tricks for _, t in mine), available)
        tricks += -total if _declaring(first.offender, result.declarer) else total
    return bridge.PlayedResult(result.contract, result.declarer, tricks)


def tricks_for(result: bridge.PlayedResult, offender: str) -> int:
    """The tricks of the side that did not revoke (the non-offending side) in `result`."""
    return 13 - result.tricks if _declaring(offender, result.declarer) else result.tricks


def same_contract(a: bridge.PlayedResult, b: bridge.PlayedResult) -> None:
    """A revoke happens in the play: the result without it is in the same contract."""
    if a.contract is None or b.contract is None or a.declarer is None or b.declarer is None:
        raise RevokeError("equity compares two played results")
    if (a.contract, a.declarer) != (b.contract, b.declarer):
        raise RevokeError(f"a revoke happens in the play: the result without it is in the same contract "
                          f"({a.contract} by {a.declarer}), got {b.text}")


@dataclass(frozen=True)
class Equity:
    after: bridge.PlayedResult       # the result after the transfer
    without: bridge.PlayedResult     # the result had the revoke(s) not occurred
    nos_tricks_after: int
    nos_tricks_without: int
    rule: Rule                       # the rule of the revoke-equity stage that applied

    @property
    def adjust(self) -> str:         # no | if-damaged | as-if-no-revoke
        return self.rule.apply["adjust"]

    @property
    def paragraph(self) -> str:
        return self.rule.cites[0]


def equity(book: Rulebook, after: bridge.PlayedResult, without: bridge.PlayedResult, revokes: list[Revoke], *,
           trace: Any = None) -> Equity:
    """The rulebook's ``revoke-equity`` stage on the board: the non-offending side's tricks after
    the transfer and without the revoke(s), compared as its rules say.

    The exception the stage sees is the latest one a revoke names that some rule of the stage
    mentions (e.g. a subsequent revoke in the same suit), else none.
    """
    same_contract(after, without)
    offender = revokes[0].offender
    a, w = tricks_for(after, offender), tricks_for(without, offender)
    mentioned = _mentioned(book, "revoke-equity", "exception")
    named = [r.exception for r in sorted(revokes, key=lambda r: r.trick) if r.exception in mentioned]
    f = {"exception": named[-1] if named else NONE, "both_sides": both_sides(revokes),
         "tricks_after": Fraction(a), "tricks_without": Fraction(w)}
    rule = trace.decide("revoke-equity", f) if trace is not None else book.decide("revoke-equity", f)
    return Equity(after, without, a, w, rule)
