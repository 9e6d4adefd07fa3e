"""The figures a corrected file writes: what the rulings change, and nothing else.

A results file is the program's: every figure of a board that no ruling touches is written back as
the program printed it, byte for byte, whether or not bridgelaw's own arithmetic reproduces it. A
*ruled* board (one with a line the rulings file changed) is scored by bridgelaw — every line of it,
since an adjusted result enters the field of the others — and written at the file's own precision,
its points at the decimals their exact value needs where that is more, up to two (:data:`.cells.EXTRA`): a 60/40
weighting of whole-number matchpoints is 10.4 and 3.6, not 10 and 4, and the lines it moves by 0.4
say so too, so that the totals stay the sum of their lines.

A contestant's total, percentage and boards played follow. Where bridgelaw's arithmetic reproduces
the printed figure from the lines as printed, the new figure is bridgelaw's from the new lines, at
the file's precision (what the program prints for them: a printed 53.87 of an exact 53.8733 that
moves by 0.1736 is 54.05, not 53.87 + 0.1736 = 54.04). Where it does not, the new figure is the
printed one plus what the rulings change in bridgelaw's arithmetic — the contestant's figure
scored with the ruled boards' new figures less the same figure scored with those boards as printed. Where no factoring applies
that is the printed total + Σ(new − printed figure) over its changed lines, exact; where the file's
conventions factor a board or a total (Neuberg to the session's top, a pair's boards), the change is
factored as the total is. The result is written at the file's own precision. Places follow the new
figures within each ranking group, only in a group whose figures changed (a group left alone keeps
the program's places, ties broken as the program broke them).

A figure the file did not print (a file without points, a contestant without a total) is written as
bridgelaw computes it. :class:`Change` lists every figure that changes: where, old, new, why.
"""

from __future__ import annotations

import copy
from collections import Counter
import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core.vocab import SIDES
from . import usebio_teams
from .cells import Change, Style, new_places
from .score import ScoredLine, ScoredSession, Standing, _standings

LINE_KEYS = ("NS", "EW", "NS%", "EW%")


def _why_line(line: Any) -> str:
    r = line.ruling
    text = f"rulings entry {r['entry']} ({r['file']}:{r['line']})"
    return text + (f": {r['note']}" if r.get("note") else "")


@dataclass
class Figures:
    """One session's figures as the corrected file writes them (see the module's notes)."""

    ss: ScoredSession
    index: int
    ruled: dict[int | None, list[str]] = field(default_factory=dict)    # board → the rulings that touch it
    lines: dict[tuple[int, str], str] = field(default_factory=dict)      # (id(line), key) → text, where it changes
    standings: dict[tuple[str, str], str] = field(default_factory=dict)  # (contestant key, cell) → text
    places: dict[str, int] = field(default_factory=dict)                 # contestant key → new place (ruled groups)
    changes: list[Change] = field(default_factory=list)
    styles: dict[str, Style] = field(default_factory=dict)
    operations: list = field(default_factory=list)      # a teams session's edits (usebio_teams.operations)

    def line(self, sl: ScoredLine, key: str) -> str | None:
        """The text of a line's cell: None to keep the file's text (an unruled board's printed figure)."""
        return self.lines.get((id(sl.line), key))

    def standing(self, st: Standing, cell: str) -> str | None:
        """The text of a contestant's figure: None to keep the file's."""
        return self.standings.get((st.key, cell))

    def place(self, st: Standing) -> int:
        return self.places.get(st.key, st.rank if st.contestant is None or "place" not in st.contestant.published
                               else int(st.contestant.published["place"].value))



def figures(scored: list[ScoredSession]) -> list[Figures]:
    """Each session's corrected figures (a teams session's: its matches', usebio_teams.operations)."""
    return [_session(ss, k) for k, ss in enumerate(scored, 1)]


def changes(scored: list[ScoredSession]) -> list[Change]:
    return [c for f in figures(scored) for c in f.changes]


def _session(ss: ScoredSession, index: int) -> Figures:
    fig = Figures(ss, index)
    if ss.teams is not None:
        fig.operations, fig.changes = usebio_teams.operations(ss, index)
        fig.ruled = {sl.line.board: [] for sb in ss.boards.values() for sl in sb.lines if sl.line.ruling is not None}
        return fig
    all_lines = [sl for sb in ss.boards.values() for sl in sb.lines]
    printed = {key for sl in all_lines for key in sl.line.published}
    for key in LINE_KEYS:
        fig.styles[key] = Style.of([sl.line.published[key] for sl in all_lines if key in sl.line.published], 0)
    contestants = [st.contestant for st in ss.standings if st.contestant is not None]
    for key in ("total", "percent", "boards"):
        fig.styles[key] = Style.of([c.published[key] for c in contestants if key in c.published],
                                    0 if key == "boards" else 2)
    rescore_all = bool(getattr(ss.learning, "rescore_all", False))
    for number, sb in ss.boards.items():
        why = [_why_line(sl.line) for sl in sb.lines if sl.line.ruling is not None]
        if why:
            fig.ruled[number] = why
        elif rescore_all:               # --rescore-all: every board as bridgelaw scores it
            fig.ruled[number] = ["--rescore-all"]
    for number, sb in ss.boards.items():
        ruled = number in fig.ruled
        for sl in sb.lines:
            for key in LINE_KEYS:
                side = sl.side(key[:2])
                value = side.percent if key.endswith("%") else side.value
                pub = sl.line.published.get(key)
                if not ruled or (key not in printed and (sl.line.ruling is None or key.endswith("%"))):
                    continue        # an unruled board; a kind of figure the file does not print (but a ruled line's points)
                if value is None:
                    continue
                # a ruled board's points at the decimals they need (they add up to the totals); its
                # percentages at the file's own
                text = fig.styles[key].text(value, extend=not key.endswith("%"))
                if pub is not None and Fraction(text) == pub.value:
                    continue                    # the same figure: the file's text is kept
                fig.lines[(id(sl.line), key)] = text
                fig.changes.append(Change(index, number, sl.line.label, key, pub.text if pub else None, text,
                                          _why_line(sl.line) if sl.line.ruling is not None else
                                          f"board {number}: follows from " + "; ".join(fig.ruled[number])))
    _contestants(fig)
    return fig


def _printed_boards(ss: ScoredSession, ruled: dict) -> tuple[dict, dict]:
    """The session's scored boards with each ruled board's lines as the file printed them (the
    contestants' scores on it its printed figures), and the contestant keys for them."""
    boards, keys = {}, dict(ss.keys)
    for number, sb in ss.boards.items():
        if number not in ruled:
            boards[number] = sb
            continue
        lines = []
        for sl in sb.lines:
            c = copy.copy(sl)
            c.contestants, c.penalties = {}, []
            for side in SIDES:
                ks = ss.keys[(id(sl), side)]
                keys[(id(c), side)] = ks
                pub = sl.line.published.get(side)
                for k in ks:
                    c.contestants[k] = pub.value if pub is not None else None
            lines.append(c)
        # the board's top as printed (a line's two matchpoint figures add to it): a ruling that takes a
        # result off the board (not played) lowers bridgelaw's top, not the one the figures were on
        sums = [sl.line.published["NS"].value + sl.line.published["EW"].value for sl in sb.lines
                if sl.line.kind == "result" and "NS" in sl.line.published and "EW" in sl.line.published]
        top = Counter(sums).most_common(1)[0][0] if sb.unit == "MP" and sums else sb.top   # (a rounded pair may miss it)
        boards[number] = dataclasses.replace(sb, lines=lines, top=top)
    return boards, keys


def _contestants(fig: Figures) -> None:
    ss = fig.ss
    if not fig.ruled:
        return
    boards, keys = _printed_boards(ss, fig.ruled)
    before = {st.key: st for st in _standings(ss.session, boards, keys, ss.parameters)}
    changed_groups = set()
    metric: dict[str, Fraction] = {}
    for st in ss.standings:
        c = st.contestant
        pub = c.published if c is not None else {}
        b = before.get(st.key)
        touched = [n for n in fig.ruled if n is not None and _plays(ss, n, st.key)]
        why = "follows from " + (", ".join(f"board {n}" for n in touched) if touched else "the rulings")
        values: dict[str, Fraction | None] = {}
        for cell in ("total", "percent", "boards"):
            now = {"total": st.total, "percent": st.percent, "boards": Fraction(st.boards)}[cell]
            was = None if b is None else {"total": b.total, "percent": b.percent, "boards": Fraction(b.boards)}[cell]
            p = pub.get(cell)
            if p is not None and was is not None and now == was:
                value = p.value                 # unchanged by the rulings: the printed figure stands
            elif p is not None and was is not None and now is not None and not p.agrees(was, ss.session.figures):
                value = p.value + (now - was)   # the program's figure, which bridgelaw does not reproduce, moved
            else:
                value = now                     # reproduced: the figure the program prints for the new lines
            values[cell] = value
            if value is None or p is None or value == p.value:
                continue                # the file printed no such figure (no element is added), or the same
            text = fig.styles[cell].text(value)
            if p is not None and Fraction(text) == p.value:
                continue
            fig.standings[(st.key, cell)] = text
            fig.changes.append(Change(fig.index, None, st.key, cell, p.text if p else None, text, why))
        ranked_by = "percent" if st.percent is not None else "total"
        m = values[ranked_by]
        metric[st.key] = m if m is not None else Fraction(0)
        if pub.get(ranked_by) is None or m != pub[ranked_by].value or "place" not in pub:
            changed_groups.add(st.group)
    groups: dict[tuple, list[Standing]] = {}
    for st in ss.standings:
        groups.setdefault(st.group, []).append(st)
    for group_key, group in groups.items():
        if group_key in changed_groups:
            _places(fig, group, metric)


def _printed_place(st: Standing) -> tuple[int | None, str | None]:
    c = st.contestant
    if c is None or "place" not in c.published:
        return None, None
    return int(c.published["place"].value), c.extra.get("printed", {}).get("place", c.published["place"].text)


def _places(fig: Figures, group: list[Standing], metric: dict[str, Fraction]) -> None:
    """The group ranked again by its new figures: ties broken as the file broke them (the order of its
    places), or shared (``3=``) where the file shares them."""
    printed = {st.key: _printed_place(st) for st in group}
    mark = any(t is not None and t.endswith("=") for _, t in printed.values())
    shares = mark or len({p for p, _ in printed.values() if p is not None}) < len(group)
    for key, place, text in new_places([st.key for st in group], metric, printed, shares, mark):
        fig.places[key] = place
        old_text = printed[key][1]
        if old_text is not None and old_text.strip() == text:
            continue
        fig.standings[(key, "place")] = text
        fig.changes.append(Change(fig.index, None, key, "place", old_text, text, "follows from the new totals"))


def _plays(ss: ScoredSession, number: int, key: str) -> bool:
    sb = ss.boards.get(number)
    return sb is not None and any(key in ss.keys[(id(sl), side)] for sl in sb.lines for side in SIDES)
