"""Before and after a TD's rulings: every score and place they change, from the event scored
without the rulings and with them (two runs of the one scorer), and the file's published figures
split into those the rulings change (their intended effect) and those of the boards and
contestants no ruling touches that the program and bridgelaw disagree on (learn.split, as the
report's heading and the refusal to write count them). The web event page shows it; ``as_text`` is the same for
the command line."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..core.exact import format_decimal
from ..field.learn import split
from ..field.score import ScoredSession
from .event import fixed_or_blank, printed_places


@dataclass
class LineChange:
    session: str
    board: int | None
    label: str
    ns: str | None
    ew: str | None
    ruled: bool                     # the line has a ruling (else: it changed because another line of its board did)
    before: tuple[Fraction | None, Fraction | None]
    after: tuple[Fraction | None, Fraction | None]


@dataclass
class StandingChange:
    session: str
    key: str
    contestant: str
    before: tuple[Fraction | None, Fraction | None, str]      # total, percent, place
    after: tuple[Fraction | None, Fraction | None, str]
    places: tuple[int, int] = (2, 2)                          # the decimals the file prints totals and percents at

    def shown(self, which: str) -> tuple[str, str, str]:
        total, percent, place = self.before if which == "before" else self.after
        return fixed(total, self.places[0]), fixed(percent, self.places[1]), place or "—"


@dataclass
class Changes:
    lines: list[LineChange] = field(default_factory=list)
    standings: list[StandingChange] = field(default_factory=list)
    published: int = 0              # published figures compared
    agree: int = 0                  # agreeing with the rulings applied
    by_rulings: list[str] = field(default_factory=list)        # agreed without the rulings, changed by them
    with_program: list[str] = field(default_factory=list)      # disagree with the program even without rulings


def _line_key(k: int, sl) -> tuple:
    line = sl.line
    return (k, line.board, line.section, line.table, line.ns, line.ew, tuple(sorted((line.players or {}).items())))


def changes(before: list[ScoredSession], after: list[ScoredSession]) -> Changes:
    """What the rulings change: `before` is the event scored without them, `after` with them
    (the same file read twice: applying rulings changes the lines it reads)."""
    out = Changes()
    for k, (b, a) in enumerate(zip(before, after)):
        name = a.session.name
        old = {_line_key(k, sl): sl for sb in b.boards.values() for sl in sb.lines}
        for sb in a.boards.values():
            for sl in sb.lines:
                was = old.get(_line_key(k, sl))
                then = (was.NS.value, was.EW.value) if was is not None else (None, None)
                now = (sl.NS.value, sl.EW.value)
                if then != now:
                    out.lines.append(LineChange(name, sl.line.board, sl.line.label, sl.line.ns, sl.line.ew,
                                                sl.line.ruling is not None, then, now))
        if a.teams is None:
            places = printed_places(a)
            olds = {st.key: st for st in b.standings}
            for st in a.standings:
                was = olds.get(st.key)
                then = (was.total, was.percent, was.rank_text) if was is not None else (None, None, "")
                now = (st.total, st.percent, st.rank_text)
                if then != now:
                    who = st.key.split(":")[-1]
                    out.standings.append(StandingChange(name, st.key, who, then, now, places))
        plain, effects = split(a)             # the one split of published figures (field/learn.py)
        out.published += len(plain) + len(effects)
        out.agree += sum(c.agrees for c in plain) + sum(c.agrees for c in effects)
        out.by_rulings += [c.what for c in effects if not c.agrees]
        out.with_program += [c.what for c in plain if not c.agrees]
    return out


def figure(v: Fraction | None, places: int = 2) -> str:
    return "—" if v is None else format_decimal(v, places)


def fixed(v: Fraction | None, places: int) -> str:
    return "—" if v is None else fixed_or_blank(v, places)


def as_text(ch: Changes) -> str:
    """The changes as the text report prints them."""
    out = []
    if ch.lines:
        out.append("Scores changed by the rulings (before → after):")
        for c in ch.lines:
            why = "ruled" if c.ruled else "in the field"
            out.append(f"  {c.label}, {why}: NS {figure(c.before[0])} → {figure(c.after[0])}, "
                       f"EW {figure(c.before[1])} → {figure(c.after[1])}")
    if ch.standings:
        out.append("Totals and places changed (before → after):")
        for s in ch.standings:
            (t0, p0, r0), (t1, p1, r1) = s.shown("before"), s.shown("after")
            out.append(f"  {s.contestant}: total {t0} → {t1}, {p0}% → {p1}%, place {r0} → {r1}")
    if not ch.lines and not ch.standings:
        out.append("The rulings change no score.")
    out.append(f"Published figures: {ch.published - len(ch.by_rulings) - len(ch.with_program)} of {ch.published} "
               f"agree; {len(ch.by_rulings)} changed by the rulings (their intended effect); "
               f"{len(ch.with_program)} differ from the program without any ruling")
    return "\n".join(out)
