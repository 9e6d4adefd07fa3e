"""Results and scores as a tournament director writes them, and the value types that case files and
traveller files share: a result (``4SX-2 W``), a raw score (``NS +620``) or a score in the event's
unit (``+9 IMP``, ``65%``); weights and exact numbers; one weighted possible outcome
(:class:`Component`); the strict model base and the JSON-schema hints of their fields.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, WithJsonSchema

from ..core import bridge
from ..core.dates import check_year, read_date
from ..core.errors import InvalidValue
from ..core.exact import NumberError, format_mixed, parse_exact
from ..core.limits import short
from ..core.vocab import VULNERABILITY_WORDS, Direction, Side, side_word

# --- values -------------------------------------------------------------------------------

@dataclass(frozen=True)
class UnitScore:
    """A score already in the event's unit, as sources often give them: ``+9 IMP``, ``65%``,
    ``23 MP``; from NS's view unless written ``EW 35%``."""

    value: Fraction
    unit: Literal["IMP", "MP", "%", "VP"]          # VP: a procedural penalty against a match only
    side: Side = "NS"

    @property
    def text(self) -> str:
        number = format_mixed(self.value, signed=self.unit == "IMP")
        prefix = "" if self.side == "NS" else "EW "
        return f"{prefix}{number}%" if self.unit == "%" else f"{prefix}{number} {self.unit}"


Outcome = Union[bridge.PlayedResult, bridge.Score, UnitScore]
_UNIT = re.compile(r"^\s*(?:(?P<side>NS|EW)\s+)?(?P<number>[^A-Za-z%]+?)\s*(?P<unit>IMPS?|MPS?|VPS?|%)\s*$", re.I)
UNIT_HINT = "a score in the event's unit: +9 IMP, -3 IMP, 23 MP or 65%"


def parse_outcome(value: Any) -> Outcome:
    """A result (``4SX-2 W``, ``PASS``), a raw score (``NS +620``) or a unit score (``+9 IMP``)."""
    if isinstance(value, (bridge.PlayedResult, bridge.Score, UnitScore)):
        return value
    if type(value) is str and len(value) <= 24:
        return _parse_short_outcome(value)
    return _parse_outcome(value)


@functools.lru_cache(maxsize=4096)
def _parse_short_outcome(text: str) -> Outcome:
    """Short result texts read before: the results of a case repeat across the requests a server
    rules (at most a few thousand distinct ones). Outcomes are frozen; errors are not remembered."""
    return _parse_outcome(text)


def _parse_outcome(value: Any) -> Outcome:
    if value is None:
        raise InvalidValue("a result is missing (the value is empty)", expected=bridge.RESULT_HINT)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InvalidValue(f"expected a result, got {short(value)}", expected=bridge.RESULT_HINT)
    if isinstance(value, str) and (m := _UNIT.match(value)):
        unit = m["unit"].upper().rstrip("S")
        try:
            number = parse_exact(m["number"])
        except NumberError as exc:
            raise InvalidValue(f"{short(value)}: {exc}", expected=UNIT_HINT) from None
        return UnitScore(number, "%" if unit == "%" else unit, (m["side"] or "NS").upper())
    try:
        return bridge.parse_result(value)
    except bridge.NotationError as exc:
        raise InvalidValue(f"{short(value)}: {exc.message}", expected=exc.hint) from None


def parse_weight(value: Any) -> Fraction:
    try:
        weight = parse_exact(value, percent=True)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="a weight such as 2/3, 60% or 0.6") from None
    if weight < 0:
        raise InvalidValue(f"weight {format_mixed(weight)} is negative", expected="a weight between 0 and 1")
    if weight > 1:
        raise InvalidValue(f"weight {format_mixed(weight)} is more than 1", expected="a weight between 0 and 1")
    return weight


def parse_exact_value(value: Any) -> Fraction:
    try:
        return parse_exact(value, percent=True)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="an exact number such as 8 1/2, 17/2, -4 2/3 or 5") from None


TEXT_SCHEMA = WithJsonSchema({"type": "string"})
NUMBER_SCHEMA = WithJsonSchema({"type": ["string", "number"]})
OutcomeField = Annotated[Any, BeforeValidator(parse_outcome), TEXT_SCHEMA]
WeightField = Annotated[Fraction, BeforeValidator(parse_weight), NUMBER_SCHEMA]
ExactField = Annotated[Fraction, BeforeValidator(parse_exact_value), NUMBER_SCHEMA]


class StrictModel(BaseModel):
    """The base of every file model: unknown keys are errors; a key may be given by its alias."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, populate_by_name=True, defer_build=True)


def vulnerability_word(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    return VULNERABILITY_WORDS.get(" ".join(value.strip().lower().split()), value)


SCORING_WORDS = {"imps": "imps", "imp": "imps", "matchpoints": "matchpoints", "matchpoint": "matchpoints",
                 "match points": "matchpoints", "match-points": "matchpoints", "mps": "matchpoints",
                 "mp": "matchpoints"}


def scoring_word(value: Any) -> Any:
    """``IMPs``, ``IMP``, ``Matchpoints``, ``MPs``, ``match points``: the case of a word does not matter."""
    if not isinstance(value, str):
        return value
    return SCORING_WORDS.get(" ".join(value.strip().lower().split()), value)


def text_value(value: Any) -> Any:
    """A record field is text; a number or date written bare (``table: 7``) is read as its text."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, dt.date, dt.time)):
        return value.isoformat() if isinstance(value, (dt.date, dt.time)) else str(value)
    return value


Text = Annotated[str, BeforeValidator(text_value), TEXT_SCHEMA]
JUDGEMENTS = ("likely", "at-all-probable")        # 1997 12C2, 2007 12C1(e): the Law's words, strongest first


def judgement_word(value: Any) -> Any:
    """``likely``, ``at all probable`` (any case, spaces or hyphens) as the Law writes them."""
    if isinstance(value, str):
        word = "-".join(value.strip().lower().replace("_", " ").replace("-", " ").split())
        return word
    return value


JudgedField = Annotated[Literal["likely", "at-all-probable"], BeforeValidator(judgement_word)]
SideField = Annotated[Side, BeforeValidator(side_word)]             # NS, N-S, North-South, …
SideOrBoth = Annotated[Union[Side, Literal["both"]], BeforeValidator(side_word)]
SideOrSeat = Annotated[Union[Side, Direction], BeforeValidator(side_word)]   # who committed an infraction
ScoringField = Annotated[Literal["imps", "matchpoints"], BeforeValidator(scoring_word)]


def day_value(value: Any) -> Any:
    """A case's or traveller's ``date:``, read by the one date reader (a quoted ``"9999-01-01"`` is
    checked as a bare YAML date is: a day of the calendar, its year from 1900 to 2100)."""
    if isinstance(value, str):
        return read_date(value, formats=("iso",), what="the day")
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return check_year(value, what="the day")
    return value


DayField = Annotated[dt.date, BeforeValidator(day_value), WithJsonSchema({"type": "string", "format": "date"})]

@dataclass(frozen=True)
class Component:
    """One possible outcome with its weight (a weighted list's item, a poll's merged choice), the
    path of the key it was read from, and whether it could have been reached legally."""
    outcome: Outcome
    weight: Fraction
    legal: bool = True
    path: tuple = ()
    judged: str | None = None     # "likely" or "at-all-probable": a TD's judgement instead of a weight
