"""What one cell of a results file may hold, read in one place for every format (PBN, USEBIO, the
Adjustment cell): a raw score, a score code (``A+``, ``A6040``, ``Bye`` …), a board or table number,
a pair id, a published figure; and the words a traveller may write for an artificial score.

Every reader of a number in a results file comes here, so that a reading is hardened once.
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
import struct
import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from ..core.errors import BridgelawError, InvalidValue, did_you_mean
from ..core.dates import read_date
from ..core.exact import format_fixed, format_mixed, fraction_parts, ratio
from ..core.limits import RAW_SCORE_HINT, RAW_SCORE_MAX, SCORE_HINT
from ..core.numbers import whole_number as _whole_number
from ..core.vocab import RESPONSIBILITY as RESPONSIBILITIES
from ..core.vocab import SIDES

MAX_TABLE = 99_999
MAX_BOARD = 9_999
MAX_ID = 24                # characters in a pair or section id


@dataclass(frozen=True, init=False)
class Where:
    """A place in a file (1-based line and column), for errors and for the provenance of a line."""

    file: str
    line: int | None = None
    column: int | None = None

    def __init__(self, file: str, line: int | None = None, column: int | None = None) -> None:
        d = self.__dict__                   # as frozen, set without frozen's checked setattr (3x faster:
        d["file"] = file                    # a results file makes one a line or more)
        d["line"] = line
        d["column"] = column

    def error(self, message: str, **kw: Any) -> BridgelawError:
        return BridgelawError(message, file=self.file, line=self.line, column=self.column, **kw)


# --- published figures -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Published:
    """A figure as a file printed it: its exact value, its decimals (12.1 → 1) and its text. A figure
    written as a fraction (``8 1/2``) is compared exactly, a decimal at the precision printed."""

    value: Fraction
    places: int
    text: str

    def agrees(self, computed: Fraction | None, figures: str = "decimal") -> bool:
        """`computed` printed as the file prints: at the figure's decimals, or (``figures="float32"``,
        a program printing 32-bit floats: 53.846153 for 53.8461538…) as the nearest 32-bit float."""
        if computed is None:
            return False
        if "/" in self.text:
            return computed == self.value
        scale = 10**self.places
        if _rounded(computed, scale) * self.value.denominator == self.value.numerator * scale:
            return True
        if figures == "float32" and self.places:
            single = struct.unpack("<f", struct.pack("<f", float(computed)))[0]
            return f"{single:.{self.places}f}" == self.text.lstrip("+")
        return False


_DECIMAL = re.compile(r"^[+-]?[0-9]{1,9}(?:\.[0-9]{1,6})?$")


@functools.lru_cache(maxsize=4096)
def published(text: str) -> Published | None:
    """A published figure (``42.0``, ``95``, ``-3.67``); None when it is not an ASCII decimal.
    Remembered by text: a results file repeats a few hundred figures (a Published is immutable)."""
    t = text.strip()
    if not _DECIMAL.match(t):
        return None
    places = len(t.split(".", 1)[1]) if "." in t else 0
    return Published(Fraction(t), places, t)


def shown(value: Fraction, places: int) -> Fraction:
    """`value` rounded as a file prints it with `places` decimals (half away from zero, as
    core.exact.format_decimal writes it)."""
    scale = 10**places
    return ratio(_rounded(value, scale), scale)


def _rounded(value: Fraction, scale: int) -> int:
    """value × scale rounded to a whole number, half away from zero (integers only: a file's every
    figure is compared, tens of thousands a session)."""
    n, d = fraction_parts(value) if type(value) is Fraction else (value.numerator, value.denominator)
    units = (2 * abs(n) * scale + d) // (2 * d)
    return -units if n < 0 else units


# --- score codes -------------------------------------------------------------------------------------

SIGN = {"+": "in-no-way-at-fault", "=": "partly-at-fault", "-": "directly-at-fault"}
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
        return Code("artificial", NS=SIGN[m["sign"] or "="])
    m = _PCT_TWO.match(t)
    if m and "0" in (m["ns"][0], m["ew"][0]):
        return None         # A0100: 1 % and 0 %, or 0 % and 100 %? not a code: said as a cell that is no score
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
    or ``both`` for a two-sided ``Score`` cell). A side without a code gets the mirror of the other's."""
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
    joined = "/".join(t for _, _, t in codes.values())
    if len({isinstance(v, str) for v in values.values()}) > 1:
        raise where.error(f"'{joined}': one side has an artificial score by responsibility and the other an "
                          "explicit percentage", expected="both sides the same kind")
    return CodeReading("artificial", values, mirrored, joined)


# An explicit percentage at IMP scoring (a file's A6040 on a butler or cross-IMP line): the average
# plus, average or average minus it codes, which the rulebook's artificial stage scores in IMPs.
PERCENT_WORDS = {Fraction(3, 5): "in-no-way-at-fault", Fraction(1, 2): "partly-at-fault",
                 Fraction(2, 5): "directly-at-fault"}
WORD_PERCENTS = {word: share for share, word in PERCENT_WORDS.items()}    # the code written for each, back


def imp_words(values: dict[str, ArtValue], code: str | None, where: Where) -> dict[str, str]:
    """Each side's artificial score at IMP scoring: a responsibility as given, or the one an explicit
    60, 50 or 40 percent codes; any other percentage is an error at the cell (IMPs have no
    equivalent of 70%)."""
    out = {}
    for side, v in values.items():
        if isinstance(v, str):
            out[side] = v
        elif v in PERCENT_WORDS:
            out[side] = PERCENT_WORDS[v]
        else:
            raise where.error(f"'{code or v}': {format_mixed(v * 100)}% has no equivalent at IMP scoring",
                              expected="A6040, A5050, A4060, A6060, A4040 (average plus, average, average minus), "
                              "or A+, A=, A-")
    return out


def mirror(value: ArtValue) -> ArtValue:
    """The other side's artificial score when a file writes only one side's code (A+ ↔ A-,
    A60 ↔ A40): the usual reading of a single code on a traveller line, shown in its trace."""
    if isinstance(value, str):
        return MIRROR[value]
    return 1 - value


def code_text(value: ArtValue) -> str:
    """A side's artificial value as a results file codes it: A+, A=, A-, or A60 (a whole percentage)."""
    if isinstance(value, str):
        return SHORT[value]
    pct = value * 100
    return f"A{pct.numerator}" if pct.denominator == 1 and 0 <= pct < 100 else f"{value}"


def code_label(value: ArtValue) -> str:
    """A side's artificial value in a report: A+, A=, A- or the percentage (60%)."""
    if isinstance(value, str):
        return SHORT[value]
    return f"{format_mixed(value * 100)}%"


# --- the words a traveller writes for an artificial score ---------------------------------------------

# Other spellings of the artificial stage's outcome words (rulebook.stages.ARTIFICIAL_OUTCOMES). Which
# responsibility an outcome word stands for is the rulebook's to say (adjust.responsibilities).
ARTIFICIAL_SPELLINGS: dict[str, str] = {
    "average-plus": "avg-plus", "avg+": "avg-plus", "ave+": "avg-plus",
    "avg": "average", "ave": "average",
    "average-minus": "avg-minus", "avg-": "avg-minus", "ave-": "avg-minus",
}
ARTIFICIAL_WORDS = (*("avg-plus", "average", "avg-minus"), *RESPONSIBILITIES)
ARTIFICIAL_HINT = "avg-plus, average or avg-minus (or in-no-way-at-fault, partly-at-fault, directly-at-fault)"


def artificial_word(value: Any) -> str:
    """An artificial score as a traveller or rulings file writes it: an outcome word or a responsibility."""
    word = str(value).strip().lower() if isinstance(value, str) else None
    word = ARTIFICIAL_SPELLINGS.get(word, word)
    if word not in ARTIFICIAL_WORDS:
        raise InvalidValue(f"'{value}' is not an artificial score", expected=ARTIFICIAL_HINT,
                           suggestion=did_you_mean(str(value), [*ARTIFICIAL_WORDS, *ARTIFICIAL_SPELLINGS]))
    return word


# --- days --------------------------------------------------------------------------------------------

def day(text: str | None, where: Where) -> _dt.date | None:
    """The day a results file gives (PBN ``2022.02.06``, USEBIO ``27/07/2022``, ISO ``2022-07-27``),
    read by the one date reader (:func:`bridgelaw.core.dates.read_date`); None for no text or a PBN
    date with an unknown part (``2022.??.??``), anything else that is not a day an error at `where`."""
    return read_date(text, file=where.file, line=where.line, column=where.column)


# --- numbers and ids ---------------------------------------------------------------------------------

_SCORE = re.compile(r"^[+-]?[0-9]{1,5}$")


def raw_score(text: str, where: Where, column: str) -> int:
    """A raw score in ASCII digits, a multiple of 10, within core.limits' bound."""
    t = text.strip()
    if not _SCORE.match(t):
        if any(ch.isdigit() for ch in t) and not t.isascii():
            raise where.error(f"{column} '{t}' is not a score: only ASCII digits 0-9 are numbers",
                              expected=CODES_HINT)
        if "_" in t:
            raise where.error(f"{column} '{t}' is not a score: no '_' inside a number", expected=CODES_HINT)
        if t.lstrip("+-").isdigit() and len(t) > 5:
            raise where.error(f"{column} '{t[:12]}…' is not a score: more than {RAW_SCORE_MAX:,} points",
                              expected=RAW_SCORE_HINT)
        raise where.error(f"{column} '{t[:40]}' is not a score or a known code", expected=CODES_HINT)
    value = int(t)
    if abs(value) > RAW_SCORE_MAX:
        raise where.error(f"{column} {value} is beyond the largest possible score",
                          expected=RAW_SCORE_HINT)
    if value % 10:
        raise where.error(f"{column} {value} is not a multiple of 10", expected=SCORE_HINT)
    return value


def whole_number(text: str, where: Where, what: str, limit: int) -> int:
    """A positive whole number in ASCII digits, at most `limit`, read by the one number reader
    (:func:`bridgelaw.core.numbers.whole_number`); its error is said at `where` in the file's words
    (the column's or tag's name: ``Board '⑨' is not a board number``,
    ``BOARD_NUMBER 'x1' is not a board number``)."""
    try:
        return _whole_number(text, what=what, high=limit)
    except InvalidValue:
        noun = what.lower().replace("_", " ")          # a USEBIO tag's words: BOARD_NUMBER → board number
        if not noun.endswith("number"):
            noun += " number"
        raise where.error(f"{what} '{text.strip()[:20]}' is not a {noun}",
                          expected=f"1 to {limit:,} in ASCII digits") from None


def tricks(text: str, where: Where, what: str) -> int:
    """Tricks taken by declarer: 0 to 13 in ASCII digits."""
    t = text.strip()
    if not (t.isascii() and t.isdigit() and len(t) <= 2 and int(t) <= 13):
        raise where.error(f"{what} '{t[:20]}' is not a number of tricks", expected="0 to 13")
    return int(t)


def identifier(text: str, where: Where, what: str) -> str:
    t = text.strip()
    if not t or len(t) > MAX_ID or not t.isprintable():
        raise where.error(f"{what} '{t[:30]}' is not an id", expected=f"a number or name of at most {MAX_ID} characters")
    return t


# --- USEBIO's XML (read and written by .usebio and .usebio_teams) ---------------------------------------

def node_where(file: str, node: Any) -> Where:
    """Where a parsed XML node stands in its file."""
    return Where(file, node.line, node.column)


def xml_escape(text: str) -> str:
    """Text for an XML element or attribute."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def fixed_text(v: Fraction | None, places: int = 2) -> str:
    """A published figure as the programs write it: `places` decimals, none when they are all 0."""
    if v is None:
        return ""
    text = format_fixed(v, places)
    return text[:-(places + 1)] if places and text.endswith("." + "0" * places) else text


# --- the corrected file's figures: how a file prints them, and one that changes (field/corrected.py) ---

EXTRA = 2          # decimals a changed figure may take beyond none, when its exact value needs them


@dataclass
class Change:
    """One figure of the corrected file that differs from the input's."""

    session: int                    # 1-based
    board: int | None               # the board (a line's figure), None for a contestant's
    where: str                      # the line (its label) or the contestant (its key)
    cell: str                       # NS, EW, NS%, EW% (a line); total, percent, boards, place (a contestant)
    old: str | None                 # as printed (None: the file printed none)
    new: str
    why: str                        # the ruling that changed it, or what it follows from

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Style:
    """How the file prints one kind of figure: its decimals, and whether it drops trailing zeros."""

    places: int = 2
    strip: bool = False

    @classmethod
    def of(cls, figures: list[Published], default: int = 2) -> "Style":
        if not figures:
            return cls(default, False)
        most = max(p.places for p in figures)
        return cls(most, any(p.places < most for p in figures))

    def text(self, value: Fraction, extend: bool = False) -> str:
        """`value` as the file prints this kind of figure; `extend`: with the decimals its exact value
        needs, up to max(the file's, EXTRA)."""
        places = self.places
        if extend:
            while places < max(self.places, EXTRA) and (value * 10 ** places).denominator != 1:
                places += 1
        out = format_fixed(value, places)
        if (self.strip or places > self.places) and "." in out:
            out = out.rstrip("0").rstrip(".")
        return "0" if out in ("", "-", "-0") else out


def new_places(keys: list[str], metric: dict[str, Any], printed: dict[str, tuple[int | None, str | None]],
               shares: bool, mark: bool):
    """Each of `keys` placed again by `metric` (higher first), as a file prints places: a tie broken
    as the file broke it (the order of its printed places), or shared where it shares them (``3=``
    with `mark`). Yields (key, place, text)."""
    order = sorted(keys, key=lambda k: (-metric[k], printed[k][0] or 10**9, k))
    i = 0
    while i < len(order):
        run = 1
        while i + run < len(order) and metric[order[i + run]] == metric[order[i]]:
            run += 1
        for j, key in enumerate(order[i:i + run]):
            place = i + 1 if shares else i + 1 + j
            yield key, place, f"{place}=" if shares and run > 1 and mark else str(place)
        i += run
