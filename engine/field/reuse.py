"""Rulings one run of a file made, offered to the next run of the same file under a proposal.

`bridgelaw impact` scores a results file under the current rulebook and then, when the proposal can
change something the file read, under the proposed one (:mod:`.season`). A line's ruling — an
assigned or artificial adjusted score, a procedural penalty, a match's VPs — depends on the line's
facts and on what its trace reads of the rulebook (the parameters, the stages' rules). One whose
trace reads nothing the proposal changes is the ruling the proposal would make, so the second run
takes it instead of ruling the line again: a proposal on average plus re-rules the lines that had an
artificial score and no other. Each ruling is keyed by what it is made from (the line, the board,
its outcomes and the session facts it was given); the objects keyed by identity are the same in both
runs (the event is read once and put back as read between them).

What is a function of its key alone — a board's field of plain results (keyed by their points and the
parameters a field reads), the rulings file read — is made once a replay (:func:`memo`).

Outside a replay (no :func:`reusing` block) every ruling is made, as always.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Hashable, Iterator, TypeVar

T = TypeVar("T")


class Reuse:
    """The rulings of the first run (``made``) and, for the second, which of them still hold (``keep``)."""

    def __init__(self) -> None:
        self.made: dict[Hashable, Any] = {}
        self.keep: Callable[[Any], bool] | None = None      # None: the first run, recording
        self.reused = 0
        self.ruled = 0
        self.memo: dict[Hashable, Any] = {}                 # what :func:`memo` made, by its key

    def offer(self, keep: Callable[[Any], bool]) -> None:
        """From now on a ruling recorded is taken again when `keep(its ruling)` says it still holds."""
        self.keep = keep


_current: ContextVar[Reuse | None] = ContextVar("bridgelaw_reuse", default=None)


@contextmanager
def reusing(reuse: Reuse) -> Iterator[Reuse]:
    token = _current.set(reuse)
    try:
        yield reuse
    finally:
        _current.reset(token)


def ruling(key: Hashable, make: Callable[[], T], trace_of: Callable[[T], Any] = lambda r: r) -> T:
    """The ruling `make()` gives — or, in a second run, the first run's for the same `key` when its
    ruling (``trace_of(it)``: a Ruling) reads nothing the proposal changes."""
    reuse = _current.get()
    if reuse is None:
        return make()
    if reuse.keep is None:
        made = reuse.made[key] = make()
        return made
    hit = reuse.made.get(key)
    if hit is not None and reuse.keep(trace_of(hit)):
        reuse.reused += 1
        return hit
    reuse.ruled += 1
    return make()


def memo(key: Hashable, make: Callable[[], T]) -> T:
    """`make()` — or, within a replay, what it made for the same `key` before, in either run: for a
    value that is a function of its key alone (a board's field of plain results, keyed by their points
    and the parameters it reads), never changed once made."""
    reuse = _current.get()
    if reuse is None:
        return make()
    hit = reuse.memo.get(key)
    if hit is None:
        hit = reuse.memo[key] = make()
    return hit
