"""The one field model: an event's sessions → boards → lines, whatever file it was read from.

A line is one table's play of one board: its section and table, the NS and EW contestants (pairs,
or at an individual event four players), and what happened there — a result (contract and tricks,
or a raw score), an artificial score (a code such as ``A+`` / ``A6040`` in the file, or a TD's
ruling by responsibility), an adjusted score (one outcome, a weighted list or a split weighting),
or not played (``Bye``, ``NP``). Each line keeps where it came from (file:line:column), the
figures the file published for it, and the ruling that changed it.

A traveller (one board's results: a YAML traveller, one board of a PBN or USEBIO file) is an event
of one session and one board; the readers (:mod:`.traveller`, :mod:`.pbn_results`, :mod:`.usebio`)
all build this model, :mod:`.rulings` applies a TD's rulings to it, :mod:`.score` scores it.

A teams match fits the same model: its contestants are teams, each board has the two lines of
the match (the two rooms), and a line's field is the other line of its match — the one comparison
a teams case makes (``other_table``); an individual event is a pairs event whose lines name four
players (:attr:`Line.players`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from typing import Any

from ..core.vocab import SEATS, SIDES, Side
from .cells import ArtValue, Published, Where, day

__all__ = ["Line", "Board", "Match", "Contestant", "Session", "Event", "Program", "played_on", "contestant_key",
           "side_keys", "guess_pair_numbers", "KINDS"]

KINDS = ("result", "adjusted", "split", "artificial", "not-played")


@dataclass(init=False)
class Line:
    """One table's play of one board. Made with the six fields every line has and any others by name;
    a field not given is its default — read from the class, and a container field (``extra``,
    ``published``, ``penalties`` …) made for the line when first used —, so that a line of a plain
    result holds only what its file gave (a season's replay makes, keeps and frees millions)."""

    board: int | None
    section: str
    table: int | None
    ns: str | None
    ew: str | None
    where: Where
    kind: str = "result"             # result | adjusted | split (adjusted, a weighting per side) | artificial | not-played
    result: Any = None               # the result at the table, kept when a ruling replaces it
    points: int | None = None        # NS points of the result
    # artificial: each side's responsibility word (ruled by the rulebook's artificial stage) or an
    # explicit share of the top (matchpoints) / IMPs, as a file's code gives it
    artificial: dict[str, ArtValue] | None = None
    artificial_words: dict[str, str] | None = None   # the words as written (avg-plus, A+ …), for reports
    given: dict[str, dict[str, Any]] = field(default_factory=dict)   # artificial: facts a traveller gives (session, boards)
    mirrored: str | None = None      # the side whose code the file left out (taken as the mirror)
    # adjusted: per side the outcomes as written (case.Component, legal: flags kept), and the
    # non-offending side when the ruling needs it; the outcomes the ruling assigns are the scored line's
    written: dict[str, list[Any]] | None = None
    non_offending: Side | None = None
    ruled: Any = None                # the adjusted score's ruling (ruling.result.Ruling), once ruled
    parts: dict[str, list[Any]] | None = None   # adjusted: per side, the outcomes the ruling assigns, with its weights
    # procedural penalties as the TD gives them — each the facts of a case's penalty: (ruling.caseschema.Penalty:
    # on a side, or on a player at an individual, its amount as 10%, 3 IMP, 1 VP; the place it was given),
    # ruled by the case path's penalty stage when the line is scored
    # (none: the empty tuple, shared and never changed; a line given a penalty is given a new list)
    penalties: list[tuple[Any, Where]] | tuple[()] = ()
    reading: list[Any] = field(default_factory=list)     # artificial: how its outcome words were read (trace entries)
    published: dict[str, Published] = field(default_factory=dict)   # NS, EW, NS%, EW%
    published_why: str | None = None
    code: str | None = None          # the artificial code as the file wrote it
    ruling: Any = None               # the rulings-file entry that changed this line (file, line, entry, note)
    players: dict[str, str] | None = None      # an individual event: seat (N, S, E, W) → player id
    match: Any = None                # a teams event: the Match this line is a room of
    team: dict[str, str] | None = None         # a teams event: side (NS, EW) → the team sitting there
    infraction: Any = None           # the law a ruling names (case.Infraction), for its equivalent case
    note: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)             # reader-specific (PBN row, …)

    def __init__(self, board: int | None, section: str, table: int | None, ns: str | None, ew: str | None,
                 where: Where, **fields: Any) -> None:
        self.board, self.section, self.table, self.ns, self.ew, self.where = board, section, table, ns, ew, where
        if fields:
            if not _LINE_FIELDS.issuperset(fields):
                raise TypeError(f"Line has no field {', '.join(sorted(fields.keys() - _LINE_FIELDS))}")
            for name, value in fields.items():
                setattr(self, name, value)

    def __getattr__(self, name: str) -> Any:
        """A container field not made yet (only asked for when the line's own dict has not the name)."""
        make = _LINE_CONTAINERS.get(name)
        if make is None:
            prop = getattr(type(self), name, None)
            if isinstance(prop, property):      # a property failed inside: its own error, not "no attribute"
                return prop.fget(self)
            raise AttributeError(f"'Line' object has no attribute {name!r}")
        value = self.__dict__[name] = make()
        return value

    def who(self, side: str) -> str | None:
        return self.ns if side == "NS" else self.ew

    def members(self, side: str) -> list[str] | None:
        """An individual event's two players of `side` (N then S, E then W); None at pairs."""
        if self.players is None:
            return None
        return [self.players[s] for s in SEATS[side]]

    @property
    def split(self) -> bool:
        """Adjusted with a weighting per side."""
        return self.kind == "split"

    @property
    def balanced(self) -> bool:
        """Both sides' scores come from the same outcomes (the EW field mirrors the NS field)."""
        return self.parts is None or self.parts["NS"] == self.parts["EW"]

    def expectation_rule(self, side: str) -> Any:
        """An adjusted line: the expectation-stage rule that formed `side`'s score. The ruling uses
        the non-offending side's rule first, then the offending side's (the same when both are
        formed alike)."""
        rules = [r for r in self.ruled.rules if r.stage == "expectation"]
        return rules[0] if side == (self.non_offending or "NS") else rules[-1]

    @property
    def expectation(self) -> dict[str, str]:
        """An adjusted line: the expectation rule that formed each side's score (from its ruling)."""
        if self.ruled is None:
            return {}
        return {side: self.expectation_rule(side).id for side in SIDES}

    @property
    def excluded(self) -> dict[str, list[Any]]:
        """An adjusted line: per side, the written outcomes its ruling left out (not legal)."""
        if self.ruled is None or self.written is None:
            return {}
        return {side: [c for c in self.written[side] if not c.legal] for side in SIDES
                if self.expectation_rule(side).apply.get("outcomes") == "legal"}

    @property
    def label(self) -> str:
        board = f"board {self.board} " if self.board is not None else ""
        where = f"{self.section}{self.table}" if self.section else f"{self.table}"
        if self.table is not None:
            return f"{board}table {where}"
        pairs = " v ".join(f"{side} {pair}" for side, pair in (("NS", self.ns), ("EW", self.ew)) if pair is not None)
        return f"{board}{pairs}"          # a bye: the one pair there is


_LINE_FIELDS = frozenset(f.name for f in fields(Line))
_LINE_CONTAINERS = {f.name: f.default_factory for f in fields(Line) if f.default_factory is not MISSING}


@dataclass
class Board:
    number: int | None
    vulnerability: str | None
    lines: list[Line] = field(default_factory=list)
    where: Where | None = None
    expected: int | None = None       # the results the board is factored up to, when a file says (else its lines)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Match:
    """A teams match: the home team (the file's TEAM) against the away team (OPPOSING_TEAM) on
    its boards; each board has the match's two lines (the rooms), each line naming the team on
    each side (:attr:`Line.team`). The file's published figures per board (``home``/``away``:
    the IMPs or board points it printed) are in :attr:`board_published`, the match's in
    :attr:`published` (``home``, ``away``: IMPs, VPs or points as :attr:`Session.match_scoring`
    says). A knockout match may carry IMPs over (:attr:`carry`, each team's)."""

    key: str
    home: str
    away: str
    where: Where
    round: int | None = None
    boards: list[int] = field(default_factory=list)
    lines: dict[int, list[Line]] = field(default_factory=dict)     # board → the match's lines of that board
    published: dict[str, Published] = field(default_factory=dict)
    board_published: dict[int, dict[str, Published]] = field(default_factory=dict)
    carry: dict[str, Fraction] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        r = f"round {self.round}: " if self.round is not None else ""
        return f"{r}team {self.home} v team {self.away}"


@dataclass
class Contestant:
    key: str                  # "NS 4", "EW 11" (by direction), "4" (unique), with "A:" before for a section
    section: str
    number: str
    direction: str | None     # NS | EW | None (moves: Howell)
    names: str | None = None
    published: dict[str, Published] = field(default_factory=dict)   # total, percent
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Session:
    name: str
    scoring: str | None
    boards: dict[int | None, Board] = field(default_factory=dict)
    contestants: dict[str, Contestant] = field(default_factory=dict)
    pair_numbers: str = "by-direction"    # by-direction | unique
    where: Where | None = None
    mp_unit: Fraction = Fraction(1)       # 1/2 when the file counts 1 matchpoint per result beaten (PBN MP2)
    individual: bool = False              # players, not pairs, are the contestants (Line.players)
    date: dt.date | None = None           # the day it was played, as the file says (played_on)
    warnings: list[str] = field(default_factory=list)
    # a teams event: its matches (contestants are then teams), and how a match is scored (the file's
    # MATCH_SCORING_METHOD: vps, imps, points — the sum of a point-a-board match's board points)
    matches: list[Match] = field(default_factory=list)
    match_scoring: str | None = None
    # which contestants are ranked together: None (each section and direction apart), "together"
    # (one ranking for the session: USEBIO WINNER_TYPE 1, a barometer's ranking), "by-direction"
    # (each direction across the sections: WINNER_TYPE 2), "by-section"
    ranking: str | None = None
    ranking_from_file: bool = False       # the file says who is ranked with whom (a profile does not override it)
    figures: str = "decimal"              # how the file prints its figures: decimal, or float32 (7 digits)


@dataclass(frozen=True)
class Program:
    """A scoring program as a results file names it."""

    name: str
    version: str = ""
    where: Where | None = None

    @property
    def text(self) -> str:
        return f"{self.name} {self.version}".strip()


@dataclass
class Event:
    title: str
    file: str
    format: str                           # pbn | usebio | traveller (YAML)
    sessions: list[Session]
    source: Any = None                    # the PbnFile or the USEBIO tree
    extra: dict[str, Any] = field(default_factory=dict)
    # the program that wrote the file, as it names itself (USEBIO PROGRAM_NAME and _VERSION, PBN
    # Generator/Creator): its conventions are a profile (field.profiles)
    program: "Program | None" = None
    country: str | None = None            # the country the file says it was played in (USEBIO COUNTRY)

    def lines(self):
        for session in self.sessions:
            for board in session.boards.values():
                yield from board.lines


def played_on(text: str | None, where: Where | None = None) -> dt.date | None:
    """The day a results file says a session was played: PBN's ``YYYY.MM.DD``, USEBIO's
    ``DD/MM/YYYY`` or ISO ``YYYY-MM-DD``; None when it gives none, or only part (PBN's ``?``).
    A day that is not one (``2022.02.30``, year 0000, 5,000 digits) is an error at `where`
    (:func:`.cells.day`): the session is never ruled as of today in its place."""
    return day(text, where or Where("<date>"))


def session_played_on(file: str, holder: Any, event: Any) -> dt.date | None:
    """The day a USEBIO ``SESSION`` (or its ``EVENT``) was played, by its ``DATE`` element, else the
    event's; an error is placed at that element."""
    node = holder.find("DATE") or event.find("DATE")
    return played_on(node.text, Where(file, node.line, node.column)) if node is not None else None


def contestant_key(section: str, direction: str | None, number: str, pair_numbers: str) -> str:
    base = f"{direction} {number}" if pair_numbers == "by-direction" and direction else number
    return f"{section}:{base}" if section else base


def side_keys(line: Line, side: str, session: Session) -> list[str]:
    """The contestants a side of a line scores for: its pair, or at an individual its two players."""
    if line.team is not None:           # a teams event: the team sitting there
        return [contestant_key(line.section, None, line.team[side], "unique")]
    members = line.members(side)
    if members is not None:
        return [contestant_key(line.section, None, m, "unique") for m in members]
    who = line.who(side)
    return [] if who is None else [contestant_key(line.section, side, who, session.pair_numbers)]


def guess_pair_numbers(lines: list[Line]) -> str:
    """by-direction (Mitchell: NS 1 and EW 1 are two pairs) when a number is on both sides of one
    board (a pair plays a board once); unique (Howell) when a number plays both directions in the
    session; by-direction otherwise."""
    on_board: dict[tuple[Any, str, str], str] = {}
    for line in lines:
        if line.ns is not None and line.ns == line.ew:
            return "by-direction"
        for side in SIDES:
            who = line.who(side)
            if who is not None and on_board.setdefault((line.board, line.section, who), side) != side:
                return "by-direction"
    seen: dict[tuple[str, str], str] = {}
    for line in lines:
        for side in SIDES:
            who = line.who(side)
            if who is None:
                continue
            first = seen.setdefault((line.section, who), side)
            if first != side:
                return "unique"
    return "by-direction"


def rank(group: list[Any], metric: Any) -> None:
    """Rank a group of standings, best first by `metric(standing)` (then by key): equal metrics share
    a rank (``rank``), shown ``3=`` (``rank_text``); ``tied`` is how many share it."""
    metrics = {id(s): metric(s) for s in group}          # each worked out once (a percentage is a division)
    group.sort(key=lambda s: (-metrics[id(s)], s.key))
    previous, place = None, 0
    for i, st in enumerate(group, 1):
        m = metrics[id(st)]
        if m != previous:
            place, previous = i, m
        st.rank = place
    tied: dict[int, int] = {}
    for st in group:
        tied[st.rank] = tied.get(st.rank, 0) + 1
    for st in group:
        st.tied = tied[st.rank]
        st.rank_text = f"{st.rank}=" if tied[st.rank] > 1 else str(st.rank)


def check_board(board: Board, session: Session, where: Any, prefix: str = "") -> None:
    """Each table once per section, each contestant once on the board. `where(line, key)` is the
    place of a line's cell: ``table``, ``ns``, ``ew``, or a seat (``N``…) at an individual event."""
    tables: dict[tuple[str, int], Line] = {}
    seen: dict[str, Line] = {}
    by_direction = session.pair_numbers == "by-direction"
    for line in board.lines:
        if line.table is not None:
            key = (line.section, line.table)
            if key in tables:
                raise where(line, "table").error(f"{prefix}table {line.section}{line.table} appears twice on the board",
                                                 expected="each table once")
            tables[key] = line
        players = line.players
        for side in SIDES:
            cells = zip(SEATS[side], line.members(side)) if players else ((side.lower(), line.who(side)),)
            for cell, pid in cells:
                if pid is None:
                    continue
                name = (contestant_key(line.section, side, pid, "by-direction") if by_direction and not players
                        else contestant_key(line.section, None, pid, "unique"))
                first = seen.get(name)
                if first is not None:
                    what, who = ("player", f"player {pid}") if players else \
                        ("pair", f"{side} pair {pid}" if by_direction else f"pair {pid}")
                    raise where(line, cell).error(f"{prefix}{who} plays the board twice ({_both(first, line)})",
                                                  expected=f"each {what} once on a board")
                seen[name] = line


def _both(first: Line, line: Line) -> str:
    if first.table is not None and line.table is not None:
        return f"tables {first.section}{first.table} and {line.section}{line.table}"
    return f"lines {first.where.line} and {line.where.line}"


def require_results(session: Session, suggestion: str) -> None:
    """Every line of the session has a score (a result, a ruling, or not played): a row a file left
    empty is an error at its place unless a ruling gave it one."""
    for board in session.boards.values():
        for line in board.lines:
            if line.kind == "none":
                raise line.where.error(f"{line.label} has no result", expected="a contract and result, or a score",
                                       suggestion=suggestion)
