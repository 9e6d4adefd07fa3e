"""Dates given on the command line and in files: one reader for every format.

A day is written ``YYYY-MM-DD`` (ISO 8601: case files, rulebooks, ``--as-of``), ``YYYY.MM.DD``
(PBN's ``[Date]``, where an unknown part is written with ``?``: ``2022.??.??``) or
``DD/MM/YYYY`` (USEBIO's ``<DATE>``). :func:`read_date` reads any of the formats a caller
allows, in time linear in the text (a text longer than :data:`MAX_DATE_CHARS` is refused before it
is looked at), and refuses — with a located one-line error — a day that does not exist
(``2022.02.30``), a year outside :data:`MIN_YEAR`–:data:`MAX_YEAR`, digits that are not ASCII and
anything that is not a date. Only an empty text or a PBN date with an unknown part is no date
(None): the caller then rules as in force on the day it says it uses instead.
"""

from __future__ import annotations

import datetime as dt
import re

from .errors import BridgelawError, InvalidValue, quoted

MIN_YEAR, MAX_YEAR = 1900, 2100       # the first Laws of duplicate bridge are of 1928
MAX_DATE_CHARS = 40                   # '2022.02.06' with room for spaces

_FORMATS = {
    "iso": (re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", re.ASCII), (1, 2, 3), "YYYY-MM-DD"),
    "pbn": (re.compile(r"([0-9?]{4})\.([0-9?]{1,2})\.([0-9?]{1,2})", re.ASCII), (1, 2, 3), "YYYY.MM.DD"),
    "usebio": (re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})", re.ASCII), (3, 2, 1), "DD/MM/YYYY"),
}
ALL = ("iso", "pbn", "usebio")


def read_date(text: str | None, *, formats: tuple[str, ...] = ALL, what: str = "date", file: str | None = None,
              line: int | None = None, column: int | None = None, path: tuple | list | None = None) -> dt.date | None:
    """The day `text` names in one of `formats` ('iso', 'pbn', 'usebio'); None for no text or a
    PBN date with an unknown part (``?``); else an :class:`InvalidValue` at `file`:`line`:`column`."""
    where = {"file": file, "line": line, "column": column, "path": path}
    shapes = " or ".join(_FORMATS[f][2] for f in formats)
    expected = f"a day as {shapes} from {MIN_YEAR} to {MAX_YEAR}"
    if text is None:
        return None
    if len(text) > MAX_DATE_CHARS:
        raise InvalidValue(f"{what} {quoted(text)} is too long ({len(text):,} characters)", expected=expected, **where)
    stripped = text.strip(" \t\r\n")
    if not stripped:
        return None
    for name in formats:
        pattern, order, _ = _FORMATS[name]
        m = pattern.fullmatch(stripped)
        if m is None:
            continue
        parts = [m[k] for k in order]
        if any("?" in p for p in parts):
            if all(p.isdigit() or set(p) == {"?"} for p in parts):
                return None                           # PBN: a part unknown
            break
        if not MIN_YEAR <= int(parts[0]) <= MAX_YEAR:
            raise InvalidValue(f"{what} {quoted(text)}: the year {parts[0]} is outside {MIN_YEAR}–{MAX_YEAR}",
                               expected=expected, **where)
        try:
            day = dt.date(*(int(p) for p in parts))
        except ValueError:
            raise InvalidValue(f"{what} {quoted(text)} is not a day of the calendar", expected=expected,
                               **where) from None
        return day
    raise InvalidValue(f"{what} {quoted(text)} is not a date", expected=expected, **where)


def check_year(day: dt.date, *, what: str = "date", expected: str | None = None, file: str | None = None,
               line: int | None = None, column: int | None = None, path: tuple | list | None = None) -> dt.date:
    """`day` when its year is from MIN_YEAR to MAX_YEAR, else an InvalidValue."""
    if not MIN_YEAR <= day.year <= MAX_YEAR:
        raise InvalidValue(f"{what}: the year {day.year:04d} is outside {MIN_YEAR}–{MAX_YEAR}",
                           expected=expected or f"a day from {MIN_YEAR} to {MAX_YEAR}", file=file, line=line,
                           column=column, path=path)
    return day


def as_of_option(text: str | None) -> dt.date | None:
    """The day ``--as-of`` names (None when it is not given)."""
    if text is None:
        return None
    try:
        day = read_date(text, formats=("iso",), what="--as-of")
    except InvalidValue as exc:
        message = exc.message if "the year" in exc.message else f"--as-of {text[:40]!r} is not a date"
        raise BridgelawError(message, expected="YYYY-MM-DD, e.g. 2015-06-30") from None
    if day is None:
        raise BridgelawError(f"--as-of {text!r} is not a date", expected="YYYY-MM-DD, e.g. 2015-06-30")
    return day
