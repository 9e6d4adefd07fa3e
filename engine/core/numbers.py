"""Whole numbers written by people and scoring programs: board, table and pair numbers.

One reader for every format (YAML, PBN, USEBIO, a web form): ASCII digits only — Python's
``int()`` and ``str.isdigit()`` also take ``'٩'``, ``'９'`` and ``'¹'``, which no scoring program
means as a board number — inside a bound, read in time linear in the text (a text longer than
the bound's own digits allow is refused before it is looked at), and a located one-line error
(:class:`~bridgelaw.core.errors.InvalidValue`, also a ``ValueError``, so a pydantic validator may
raise it) naming what the number is and the range expected.

    >>> whole_number("9", what="board number", high=9999)
    9
"""

from __future__ import annotations

import re

from .errors import InvalidValue, quoted

_ASCII_WHOLE = re.compile(r"[0-9]+", re.ASCII)
_SPACE = " \t\r\n"
SLACK = 8                              # leading zeros and spaces tolerated beyond the bound's own digits


def whole_number(value: str | int, *, what: str, high: int, low: int = 1, file: str | None = None,
                 line: int | None = None, column: int | None = None,
                 path: tuple | list | None = None) -> int:
    """`value` as a whole number from `low` to `high`: an int (not a bool), or text of ASCII
    digits with optional spaces around them; anything else is an :class:`InvalidValue` at
    `file`:`line`:`column` (or at the key `path`). Linear in the text: a text longer than
    ``len(str(high)) + SLACK`` characters is refused without being read."""
    if type(value) is str and 0 < len(value) <= 9 and value.isdigit() and value.isascii():
        number = int(value)                 # the common text: plain digits (the error's words made only for one)
        if low <= number <= high:
            return number
    expected = f"a whole number from {low:,} to {high:,} in ASCII digits (0-9)"
    where = {"file": file, "line": line, "column": column, "path": path}
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidValue(f"{what} {_show(value)} is not a whole number", expected=expected, **where)
    if isinstance(value, int):
        number = value
    else:
        if len(value) > len(str(high)) + SLACK:
            raise InvalidValue(f"{what} {_show(value)} is too long ({len(value):,} characters)",
                               expected=expected, **where)
        text = value.strip(_SPACE)
        if not _ASCII_WHOLE.fullmatch(text):
            raise InvalidValue(f"{what} {_show(value)} is not a whole number in ASCII digits", expected=expected,
                               **where)
        number = int(text)
    if not low <= number <= high:
        raise InvalidValue(f"{what} {_show(value)} is out of range", expected=expected, **where)
    return number


def _show(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) if value.bit_length() <= 100 else "a number of more than 30 digits"
    return quoted(value if isinstance(value, str) else repr(value))
