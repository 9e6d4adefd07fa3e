"""The traveller file formats (pydantic models) and the checked traveller they become.

A traveller is one board's results at every table; a PBN file's ScoreTable can stand in for its
``tables:``, with an adjustments file naming the adjusted tables. The models check each value;
:mod:`.load` and :mod:`.source_pbn` check what involves several keys, :mod:`.adjust` rules the
adjusted and artificial tables, :mod:`.score` scores the field, :mod:`.report` renders it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from ... import rulebook as rulebooks
from ...core.vocab import SIDES, Side
from ...ruling.caseschema import Board, BoardCount, Possibilities
from ...ruling.outcomes import Component, parse_outcome
from ...ruling.outcomes import NUMBER_SCHEMA as _NUM, TEXT_SCHEMA as _TEXT, StrictModel as _Strict    # shared with case files
from ...core.errors import BridgelawError, InvalidValue, did_you_mean
from ...core.exact import NumberError, parse_exact
from ..pbn import Game, PbnFile
from ...rulebook.stages import ARTIFICIAL_OUTCOMES, RESPONSIBILITY

__all__ = ["SIDES", "Side", "SCORINGS", "Scoring", "ARTIFICIAL_SPELLINGS", "Printed", "TravellerModel",
           "TableModel", "AdjustmentsModel", "AdjustmentModel", "Where", "TableLine", "Traveller"]

SCORINGS = ("matchpoints", "cross-imps", "butler")
Scoring = Literal["matchpoints", "cross-imps", "butler"]

# --- artificial scores: the rulebook's outcome words or the case file's responsibility words -----

# Other spellings of the artificial stage's outcome words (stages.ARTIFICIAL_OUTCOMES). Which
# responsibility an outcome word stands for is the rulebook's to say (see adjust.responsibilities).
ARTIFICIAL_SPELLINGS: dict[str, str] = {
    "average-plus": "avg-plus", "avg+": "avg-plus", "ave+": "avg-plus",
    "avg": "average", "ave": "average",
    "average-minus": "avg-minus", "avg-": "avg-minus", "ave-": "avg-minus",
}
_ARTIFICIAL_WORDS = (*("avg-plus", "average", "avg-minus"), *RESPONSIBILITY)
ARTIFICIAL_HINT = "avg-plus, average or avg-minus (or in-no-way-at-fault, partly-at-fault, directly-at-fault)"
assert all(w in ARTIFICIAL_OUTCOMES for w in ARTIFICIAL_SPELLINGS.values())


def _artificial_word(value: Any) -> str:
    word = str(value).strip().lower() if isinstance(value, str) else None
    word = ARTIFICIAL_SPELLINGS.get(word, word)
    if word not in _ARTIFICIAL_WORDS:
        raise InvalidValue(f"'{value}' is not an artificial score", expected=ARTIFICIAL_HINT,
                           suggestion=did_you_mean(str(value), [*_ARTIFICIAL_WORDS, *ARTIFICIAL_SPELLINGS]))
    return word


# --- values --------------------------------------------------------------------------------------

def _pair_id(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidValue(f"expected a pair number, got {value!r}", expected="a pair number such as 7 or A7")
    text = str(value).strip()
    if not text or (isinstance(value, int) and value < 1):
        raise InvalidValue(f"expected a pair number, got {value!r}", expected="a pair number from 1, or an id such as A7")
    return text


def _session_value(value: Any) -> Fraction:
    try:
        return parse_exact(value, percent=True)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="a session score such as 62% (pairs) or 1.5 (IMPs a board)") from None


@dataclass(frozen=True)
class Printed:
    """A figure as a source printed it: its value and its decimals (12.1 → 1), to check a
    computed score at the printed precision."""

    value: Fraction
    places: int
    text: str


def _printed(value: Any) -> Printed:
    if isinstance(value, bool):
        raise InvalidValue(f"expected a number, got {value!r}")
    text = repr(value) if isinstance(value, float) else str(value).strip()
    try:
        number = parse_exact(value)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="the figure as published, e.g. 12.1 or 8 1/2") from None
    places = len(text.split(".", 1)[1]) if "." in text and "/" not in text else 0
    return Printed(number, places, text)


_OUTCOMES: dict[Any, Any] = {}


def _outcome(value: Any) -> Any:
    """parse_outcome, once per distinct text: a traveller repeats a few dozen results, and the
    parsed results are immutable."""
    if not isinstance(value, str) or isinstance(value, bool):
        return parse_outcome(value)
    hit = _OUTCOMES.get(value)
    if hit is None:
        hit = parse_outcome(value)
        if len(_OUTCOMES) < 10_000:
            _OUTCOMES[value] = hit
    return hit


ResultField = Annotated[Any, BeforeValidator(_outcome), _TEXT]
PairId = Annotated[str, BeforeValidator(_pair_id), _NUM]
ArtificialWord = Annotated[str, BeforeValidator(_artificial_word), _TEXT]
SessionNumber = Annotated[Fraction, BeforeValidator(_session_value), _NUM]
PrintedNumber = Annotated[Any, BeforeValidator(_printed), _NUM]


# --- models --------------------------------------------------------------------------------------

class ArtificialModel(_Strict):
    NS: ArtificialWord
    EW: ArtificialWord


class BySide(_Strict):
    NS: SessionNumber | None = None
    EW: SessionNumber | None = None


class PublishedModel(_Strict):
    NS: PrintedNumber | None = None
    EW: PrintedNumber | None = None
    why: str | None = None


KINDS = ("result", "adjusted", "artificial")


class _Scores(_Strict):
    result: ResultField | None = None
    adjusted: Possibilities | None = None        # one outcome, a weighted list, or a split {NS, EW}: as in a case file
    non_offending: Side | None = None            # for an adjusted score whose rule depends on it
    artificial: ArtificialModel | None = None
    session: BySide | None = None
    boards: BoardCount | None = None
    published: PublishedModel | None = None
    note: str | None = None


class TableModel(_Scores):
    table: int = Field(ge=1)
    ns: PairId
    ew: PairId


class TravellerModel(_Strict):
    title: str
    source: str | None = None
    rulebook: str | None = None
    date: dt.date | None = None
    scoring: Scoring
    board: Board
    expected_results: int | None = Field(default=None, ge=1)
    pair_numbers: Literal["by-direction", "unique"] = "by-direction"
    tables: list[TableModel] = Field(min_length=1)
    notes: str | None = None


class AdjustmentModel(_Scores):
    table: int = Field(ge=1)


class AdjustmentsModel(_Strict):
    title: str | None = None
    source: str | None = None
    rulebook: str | None = None
    date: dt.date | None = None
    scoring: Scoring = "matchpoints"
    pbn: str | None = None
    board: int | None = Field(default=None, ge=1, strict=True)    # true is no board number
    expected_results: int | None = Field(default=None, ge=1)
    pair_numbers: Literal["by-direction", "unique"] = "by-direction"
    tables: list[AdjustmentModel] = []
    notes: str | None = None


# --- the checked traveller -----------------------------------------------------------------------

@dataclass(frozen=True)
class Where:
    file: str
    line: int | None
    column: int | None

    def error(self, message: str, **kw: Any) -> BridgelawError:
        return BridgelawError(message, file=self.file, line=self.line, column=self.column, **kw)


@dataclass
class TableLine:
    table: int
    ns_pair: str | None
    ew_pair: str | None
    kind: str                                   # result | adjusted | split (as written) | artificial
    result: Any = None                          # the result at the table (a PBN row keeps it when adjusted)
    points: int | None = None                   # its NS points
    parts: dict[Side, list[Component]] | None = None      # adjusted: the outcomes each side's score is formed from
    raw_parts: dict[Side, list[Component]] | None = None  # adjusted: as written (legal: false included)
    excluded: dict[Side, list[Component]] = field(default_factory=dict)
    expectation: dict[Side, str] = field(default_factory=dict)   # the expectation rule that formed each side
    non_offending: Side | None = None
    artificial: dict[Side, Any] | None = None   # side → artificial.ArtificialScore (value, label, rule, steps)
    responsibility: dict[Side, str] | None = None
    artificial_words: dict[Side, str] | None = None   # the rulebook's word for each side's responsibility
    published: dict[Side, Printed] = field(default_factory=dict)
    published_why: str | None = None
    note: str | None = None

    @property
    def split(self) -> bool:
        """Written with a weighting per side."""
        return self.kind == "split"

    @property
    def balanced(self) -> bool:
        """Both sides' scores come from the same outcomes (the EW field mirrors the NS field)."""
        return self.parts is None or self.parts["NS"] == self.parts["EW"]


@dataclass
class Traveller:
    title: str
    source: str | None
    board_number: int | None
    vulnerability: str
    scoring: str
    book: rulebooks.Rulebook                    # as in force on the traveller's day, with any what-if applied
    tables: list[TableLine]
    expected_results: int
    file: str
    notes: str | None = None
    pbn: PbnFile | None = None
    game: Game | None = None
    adjustments_file: str | None = None
    date: dt.date | None = None                 # the file's date:
    as_of: dt.date | None = None                # the day asked for (--as-of, else date:); None: today
    warnings: list[str] = field(default_factory=list)
