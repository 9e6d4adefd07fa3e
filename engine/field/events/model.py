"""The event model: sessions → boards → traveller lines, as a results file gives them.

A line is one table's play of one board: its section and table, the NS and EW contestants, and
what happened there — a result (contract and tricks, or a raw score), an artificial score (a
code such as ``A+`` / ``A6040`` in the file, or a TD's ruling), an adjusted score (one outcome,
a weighted list or a split weighting, from a ruling), or not played (``Bye``, ``NP``). Each line
keeps where it came from (file:line:column) and the figures the file published for it, so that
every published cell can be compared at the precision it was printed with.

Readers (:mod:`.pbn_in`, :mod:`.usebio`) build this model; :mod:`.score` scores it;
:mod:`.rulings` changes lines; the writers write it back.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from ...core.errors import BridgelawError

Side = Literal["NS", "EW"]
SIDES: tuple[Side, Side] = ("NS", "EW")
SCORINGS = ("matchpoints", "cross-imps", "butler")
SEATS = {"NS": ("N", "S"), "EW": ("E", "W")}
SEAT_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}

# Law 77: the largest raw score a board can produce is 7,600 (13 down, redoubled, vulnerable).
MAX_SCORE = 7600
MAX_TABLE = 99_999
MAX_BOARD = 9_999
MAX_ID = 24                # characters in a pair or section id


@dataclass(frozen=True)
class Where:
    file: str
    line: int | None = None
    column: int | None = None

    def error(self, message: str, **kw: Any) -> BridgelawError:
        return BridgelawError(message, file=self.file, line=self.line, column=self.column, **kw)


@dataclass(frozen=True)
class Published:
    """A figure as the file printed it: its exact value and its number of decimals."""

    value: Fraction
    places: int
    text: str


_DECIMAL = re.compile(r"^[+-]?[0-9]{1,9}(?:\.[0-9]{1,6})?$")


def published(text: str) -> Published | None:
    """A published figure (``42.0``, ``95``, ``-3.67``); None when it is not an ASCII decimal."""
    t = text.strip()
    if not _DECIMAL.match(t):
        return None
    places = len(t.split(".", 1)[1]) if "." in t else 0
    return Published(Fraction(t), places, t)


def shown(value: Fraction, places: int) -> Fraction:
    """`value` rounded as a file prints it with `places` decimals (half away from zero)."""
    scale = 10 ** places
    scaled = abs(value) * scale
    units, remainder = divmod(scaled.numerator, scaled.denominator)
    if 2 * remainder >= scaled.denominator:
        units += 1
    return Fraction(units if value >= 0 else -units, scale)


# --- artificial codes ------------------------------------------------------------------------------

RESPONSIBILITY = {"+": "in-no-way-at-fault", "=": "partly-at-fault", "-": "directly-at-fault"}
MIRROR = {"in-no-way-at-fault": "directly-at-fault", "directly-at-fault": "in-no-way-at-fault",
          "partly-at-fault": "partly-at-fault"}
SHORT = {"in-no-way-at-fault": "A+", "partly-at-fault": "A=", "directly-at-fault": "A-"}
CODES_HINT = ("a score such as 420 or -50, PASS, or an artificial code: A+, A=, A-, A60 (one side, %), "
              "A6040 (NS then EW, %), %60, Bye or NP (not played)")

# An artificial value for one side: a responsibility word (scored by the rulebook's artificial
# stage) or an explicit share of the top at matchpoints (3/5 for 60%) / IMPs at IMP scoring.
ArtValue = Any


@dataclass(frozen=True)
class Code:
    """What a score cell says when it is not a number."""

    kind: Literal["pass", "artificial", "not-played"]
    NS: ArtValue = None
    EW: ArtValue = None
    two_sided: bool = False


_ONE = re.compile(r"^(?:A|AV|AVE|AVG)(?P<sign>[+=-])$|^(?:A|AV|AVE|AVG)$", re.I)
_PCT_ONE = re.compile(r"^(?:A(?P<a>[0-9]{2})|%(?P<b>[0-9]{2})|(?P<c>[0-9]{2})%)$", re.I)
_PCT_TWO = re.compile(r"^A(?P<ns>[0-9]{2})(?P<ew>[0-9]{2})$", re.I)
_NOT_PLAYED = {"bye", "np", "n/p", "notplayed", "not-played", "nplay", "noplay", "nt"}
_PASS = {"pass", "passed", "p", "ap"}


def parse_code(text: str) -> Code | None:
    """The artificial or special code in a score cell, or None when the text is not one."""
    t = text.strip()
    low = t.lower()
    if low in _PASS:
        return Code("pass")
    if low in _NOT_PLAYED or low.replace(" ", "") in _NOT_PLAYED:
        return Code("not-played")
    m = _ONE.match(t)
    if m:
        word = RESPONSIBILITY[m["sign"] or "="]
        return Code("artificial", NS=word)
    m = _PCT_TWO.match(t)
    if m:
        return Code("artificial", NS=Fraction(int(m["ns"]), 100), EW=Fraction(int(m["ew"]), 100), two_sided=True)
    m = _PCT_ONE.match(t)
    if m:
        return Code("artificial", NS=Fraction(int(m["a"] or m["b"] or m["c"]), 100))
    return None


@dataclass(frozen=True)
class CodeReading:
    """What a row's code cells say together: not played, or each side's artificial value."""

    kind: Literal["artificial", "not-played"]
    values: dict[str, ArtValue] | None
    mirrored: str | None          # the side whose code the row left out (taken as the other's mirror)
    text: str                     # the codes as written, joined by '/'


def read_codes(codes: dict[str, tuple[Code, Where, str]]) -> CodeReading:
    """A row's artificial or not-played codes, keyed by the side of their column (``NS``, ``EW``,
    or ``both`` for a two-sided ``Score`` cell): the one reading shared by ``bridgelaw event``
    and ``bridgelaw score``. A side without a code gets the mirror of the other's."""
    kinds = {c.kind for c, _, _ in codes.values()}
    (code, where, text) = next(iter(codes.values()))
    if "not-played" in kinds:
        if len(kinds) > 1:
            raise where.error("a line is both not played and given an artificial score",
                              expected="NP/Bye in both score columns, or an artificial code")
        return CodeReading("not-played", None, None, text)
    values: dict[str, Any] = {}
    for key, (c, w, t) in codes.items():
        if c.two_sided or key == "both":
            values["NS"], values["EW"] = c.NS, c.EW
        else:
            values[key] = c.NS
    mirrored = None
    for side in SIDES:
        if side not in values:
            other = "EW" if side == "NS" else "NS"
            values[side] = mirror(values[other])
            mirrored = side
    return CodeReading("artificial", values, mirrored, "/".join(t for _, _, t in codes.values()))


def mirror(value: ArtValue) -> ArtValue:
    """The other side's artificial score when a file writes only one side's code (A+ ↔ A-,
    A60 ↔ A40): the usual reading of a single code on a traveller line, shown in its trace."""
    if isinstance(value, str):
        return MIRROR[value]
    return 1 - value


def code_text(value: ArtValue) -> str:
    if isinstance(value, str):
        return SHORT[value]
    pct = value * 100
    return f"A{pct.numerator}" if pct.denominator == 1 and 0 <= pct < 100 else f"{value}"


_SCORE = re.compile(r"^[+-]?[0-9]{1,5}$")


def raw_score(text: str, where: Where, column: str) -> int:
    """A raw score in ASCII digits, a multiple of 10, at most ±7,600 (Law 77)."""
    t = text.strip()
    if not _SCORE.match(t):
        if any(ch.isdigit() for ch in t) and not t.isascii():
            raise where.error(f"{column} '{t}' is not a score: only ASCII digits 0-9 are numbers",
                              expected=CODES_HINT)
        if "_" in t:
            raise where.error(f"{column} '{t}' is not a score: no '_' inside a number", expected=CODES_HINT)
        if t.lstrip("+-").isdigit() and len(t) > 5:
            raise where.error(f"{column} '{t[:12]}…' is not a score: more than {MAX_SCORE:,} points",
                              expected=f"a raw score from -{MAX_SCORE} to {MAX_SCORE} (Law 77)")
        raise where.error(f"{column} '{t[:40]}' is not a score or a known code", expected=CODES_HINT)
    value = int(t)
    if abs(value) > MAX_SCORE:
        raise where.error(f"{column} {value} is beyond the largest possible score",
                          expected=f"a raw score from -{MAX_SCORE} to {MAX_SCORE} (Law 77)")
    if value % 10:
        raise where.error(f"{column} {value} is not a multiple of 10", expected="a bridge score (Law 77): 420, -50, 1100 …")
    return value


_WHOLE = re.compile(r"^[0-9]{1,9}$")


def whole_number(text: str, where: Where, what: str, limit: int) -> int:
    """A positive whole number in ASCII digits, at most `limit`."""
    t = text.strip()
    if not _WHOLE.match(t) or int(t) < 1 or int(t) > limit:
        raise where.error(f"{what} '{t[:20]}' is not a {what.lower()} number", expected=f"1 to {limit:,} in ASCII digits")
    return int(t)


def identifier(text: str, where: Where, what: str) -> str:
    t = text.strip()
    if not t or len(t) > MAX_ID or not t.isprintable():
        raise where.error(f"{what} '{t[:30]}' is not an id", expected=f"a number or name of at most {MAX_ID} characters")
    return t


# --- the model ----------------------------------------------------------------------------------------

@dataclass
class Line:
    board: int
    section: str
    table: int | None
    ns: str | None
    ew: str | None
    where: Where
    kind: str = "result"             # result | artificial | adjusted | split | not-played
    result: Any = None               # the result at the table, kept when a ruling replaces it
    points: int | None = None        # NS points of the result
    artificial: dict[str, ArtValue] | None = None
    mirrored: str | None = None      # the side whose code the file left out (taken as the mirror)
    parts: dict[str, list[Any]] | None = None    # adjusted: per side, case.Component (the one weighted-outcome type)
    penalty: dict[str, Fraction] = field(default_factory=dict)
    published: dict[str, Published] = field(default_factory=dict)   # NS, EW, NS%, EW%
    code: str | None = None          # the artificial code as the file wrote it
    ruling: Any = None               # the rulings-file entry that changed this line
    players: dict[str, str] | None = None      # an individual event: seat (N, S, E, W) → player id
    player_penalty: dict[str, Fraction] = field(default_factory=dict)   # individual: player id → penalty
    note: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)             # reader-specific (PBN row, …)

    def who(self, side: str) -> str | None:
        return self.ns if side == "NS" else self.ew

    def members(self, side: str) -> list[str] | None:
        """An individual event's two players of `side` (N then S, E then W); None at pairs."""
        if self.players is None:
            return None
        return [self.players[s] for s in SEATS[side]]

    @property
    def label(self) -> str:
        where = f"{self.section}{self.table}" if self.section else f"{self.table}"
        if self.table is not None:
            return f"board {self.board} table {where}"
        pairs = " v ".join(f"{side} {pair}" for side, pair in (("NS", self.ns), ("EW", self.ew)) if pair is not None)
        return f"board {self.board} {pairs}"          # a bye: the one pair there is


@dataclass
class Board:
    number: int
    vulnerability: str | None
    lines: list[Line] = field(default_factory=list)
    where: Where | None = None
    extra: dict[str, Any] = field(default_factory=dict)


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
    boards: dict[int, Board] = field(default_factory=dict)
    contestants: dict[str, Contestant] = field(default_factory=dict)
    pair_numbers: str = "by-direction"    # by-direction | unique
    where: Where | None = None
    mp_unit: Fraction = Fraction(1)       # 1/2 when the file counts 1 matchpoint per result beaten (PBN MP2)
    individual: bool = False              # players, not pairs, are the contestants (Line.players)
    date: dt.date | None = None           # the day it was played, as the file says (played_on)


@dataclass
class Event:
    title: str
    file: str
    format: str                           # pbn | usebio
    sessions: list[Session]
    source: Any = None                    # the PbnFile or the USEBIO tree
    extra: dict[str, Any] = field(default_factory=dict)

    def lines(self):
        for session in self.sessions:
            for board in session.boards.values():
                yield from board.lines


_DAY_FORMATS = ((re.compile(r"(\d{4})\.(\d{1,2})\.(\d{1,2})"), (1, 2, 3)),     # PBN [Date "2022.02.06"]
                (re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})"), (3, 2, 1)),       # USEBIO <DATE>27/07/2022</DATE>
                (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), (1, 2, 3)))       # ISO 8601


def played_on(text: str | None) -> dt.date | None:
    """The day a results file says a session was played: PBN's ``YYYY.MM.DD``, USEBIO's
    ``DD/MM/YYYY`` or ISO ``YYYY-MM-DD``; None when it gives none, or only part (PBN's ``?``)."""
    for pattern, order in _DAY_FORMATS:
        m = pattern.fullmatch((text or "").strip())
        if m:
            try:
                return dt.date(*(int(m[k]) for k in order))
            except ValueError:
                return None
    return None


def contestant_key(section: str, direction: str | None, number: str, pair_numbers: str) -> str:
    base = f"{direction} {number}" if pair_numbers == "by-direction" and direction else number
    return f"{section}:{base}" if section else base


def side_keys(line: Line, side: str, session: Session) -> list[str]:
    """The contestants a side of a line scores for: its pair, or at an individual its two players."""
    members = line.members(side)
    if members is not None:
        return [contestant_key(line.section, None, m, "unique") for m in members]
    who = line.who(side)
    return [] if who is None else [contestant_key(line.section, side, who, session.pair_numbers)]


def guess_pair_numbers(lines: list[Line]) -> str:
    """by-direction (Mitchell: NS 1 and EW 1 are two pairs) when a line has the same number on
    both sides or a number plays both directions in one round's set of boards; unique otherwise."""
    for line in lines:
        if line.ns is not None and line.ns == line.ew:
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
