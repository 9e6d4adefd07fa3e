"""Law 64: the trick transfer after an established revoke, and whether equity needs more (64C).

A revoke case gives the contract as played, the tricks declarer won at the table, and each
established revoke: who revoked, on which trick, whether the offending *player* won that trick
(a trick won by dummy is not won by declarer), whether the offending *side* did, how many later
tricks the offending side won, and any 64B exception. :func:`transfer` says how many tricks go to
the non-offending side and which paragraph says so; :func:`rectify` gives the result after every
transfer; :func:`equity` compares it with what the non-offending side would have made without the
revoke (Law 64C): when the transfer leaves it short, the Director assigns an adjusted score.

    64A1  revoke trick won by the offending player: that trick, plus one later trick won by the
          offending side, if any — two tricks at most
    64A2  revoke trick not won by the offending player: one trick, if the offending side won the
          revoke trick or any later trick
    64B1  no transfer when the offending side won neither the revoke trick nor a later trick
    64B2–B7  no transfer: a subsequent revoke in the same suit by the same player (B2), a failure to
          play a card faced on the table (B3), attention drawn only after a call on the next deal (B4)
          or after the round (B5), a revoke on the twelfth trick (B6), both sides revoked (B7)
    64C   (2007) / 64C1 (2017): the Director restores equity when the non-offending side is
          insufficiently compensated; 2017 adds 64C2(a) for a subsequent revoke in the same suit.

The two editions transfer the same tricks; they differ in the paragraph that restores equity after
a subsequent revoke in the same suit (2007: 64C; 2017: 64C2(a)). Pure arithmetic: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import bridge

# 64B exceptions a case may name; the twelfth trick (64B6) and 64B1 follow from the facts.
EXCEPTIONS: dict[str, str] = {
    "subsequent-same-suit": "64B2",
    "faced-card": "64B3",
    "after-next-deal-call": "64B4",
    "after-round": "64B5",
    "both-sides": "64B7",
}
EDITIONS = ("2007", "2017")


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
    exception: str | None = None     # one of EXCEPTIONS, or None

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
        if self.exception is not None and self.exception not in EXCEPTIONS:
            raise RevokeError(f"unknown 64B exception '{self.exception}' (one of {', '.join(EXCEPTIONS)})")


@dataclass(frozen=True)
class Transfer:
    tricks: int
    paragraph: str                   # 64A1, 64A2, 64B1 … 64B7
    reason: str


def transfer(revoke: Revoke) -> Transfer:
    """The tricks Law 64 transfers for one established revoke, and the paragraph that says so."""
    if revoke.exception is not None:
        ref = EXCEPTIONS[revoke.exception]
        return Transfer(0, ref, f"no transfer: {revoke.exception.replace('-', ' ')} ({ref})")
    if revoke.trick == 12:
        return Transfer(0, "64B6", "no transfer: a revoke on the twelfth trick (64B6)")
    if not revoke.side_won and revoke.later_tricks == 0:
        return Transfer(0, "64B1", "no transfer: the offending side won neither the revoke trick nor a later trick (64B1)")
    if revoke.offender_won:
        tricks = 1 + (1 if revoke.later_tricks else 0)
        later = "plus one later trick won by the offending side" if revoke.later_tricks else \
            "and the offending side won no later trick"
        return Transfer(tricks, "64A1", f"the offending player won the revoke trick: it is transferred, {later} (64A1)")
    return Transfer(1, "64A2", "the offending player did not win the revoke trick, but the offending side won "
                    "that or a later trick: one trick is transferred (64A2)")


def _declaring(direction: str, declarer: str) -> bool:
    return bridge.side_of(direction) == bridge.side_of(declarer)


def rectify(result: bridge.PlayedResult, revokes: list[Revoke]) -> tuple[bridge.PlayedResult, list[Transfer]]:
    """The result after every revoke's transfer (each revoke counted separately, Law 64A).

    Tricks move from the offending side to the other; a transfer can never take more tricks than
    the offending side won from the first revoke on (the revoke trick, if it won it, and the later ones).
    """
    if result.contract is None or result.declarer is None:
        raise RevokeError("a revoke needs a contract that was played (not PASS)")
    if not revokes:
        raise RevokeError("give at least one established revoke")
    sides = {bridge.side_of(r.offender) for r in revokes}
    if len(sides) > 1 and any(r.exception != "both-sides" for r in revokes):
        raise RevokeError("both sides revoked on this board: mark each revoke exception: both-sides (64B7)")
    transfers = [transfer(r) for r in revokes]
    first = min(revokes, key=lambda r: r.trick)
    available = (1 if first.side_won else 0) + first.later_tricks
    total = min(sum(t.tricks for t in transfers), available)
    offender = revokes[0].offender
    won_by_offenders = result.tricks if _declaring(offender, result.declarer) else 13 - result.tricks
    if available > won_by_offenders:
        raise RevokeError(f"the offending side won {available} tricks from the revoke on, but only "
                          f"{won_by_offenders} in all ({result.text})")
    tricks = result.tricks - total if _declaring(offender, result.declarer) else result.tricks + total
    return bridge.PlayedResult(result.contract, result.declarer, tricks), transfers


@dataclass(frozen=True)
class Equity:
    after: bridge.PlayedResult       # the result after the transfer (the score Law 64A gives)
    without: bridge.PlayedResult     # the result had the revoke not occurred
    nos_tricks_after: int
    nos_tricks_without: int
    adjust: bool                     # the transfer leaves the non-offending side short: adjust (64C)
    paragraph: str                   # 64C (2007), 64C1 or 64C2(a) (2017)


def equity(after: bridge.PlayedResult, without: bridge.PlayedResult, offender: str, *,
           edition: str, subsequent_same_suit: bool = False) -> Equity:
    """Law 64C: whether the non-offending side is insufficiently compensated by the transfer.

    `without` is the result had the revoke (for 64C2(a): the subsequent revokes) not occurred. The
    comparison is in tricks for the non-offending side; a transfer that gives it *more* than it
    would have made stands (Law 12B2: no adjustment because a rectification is advantageous).
    """
    if edition not in EDITIONS:
        raise RevokeError(f"edition is 2007 or 2017, got {edition!r}")
    if after.contract is None or without.contract is None or after.declarer is None or without.declarer is None:
        raise RevokeError("equity compares two played results")
    if (after.contract, after.declarer) != (without.contract, without.declarer):
        raise RevokeError(f"a revoke happens in the play: the result without it is in the same contract "
                          f"({after.contract} by {after.declarer}), got {without.text}")
    def nos_tricks(r: bridge.PlayedResult) -> int:
        return 13 - r.tricks if _declaring(offender, r.declarer) else r.tricks
    a, w = nos_tricks(after), nos_tricks(without)
    if edition == "2007":
        ref = "64C"
    else:
        ref = "64C2(a)" if subsequent_same_suit else "64C1"
    return Equity(after, without, a, w, w > a, ref)
