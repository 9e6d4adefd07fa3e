"""Dates given on the command line and in files."""

from __future__ import annotations

import datetime as dt
import time

from .errors import BridgelawError

_day: tuple[int, dt.date | None] = (-1, None)


def today() -> dt.date:
    """Today's date, asked of the clock again at most once a second (date.today() converts the
    clock to local time, 6,500 instructions; a ruling asks twice)."""
    global _day
    second = int(time.time())
    if second != _day[0]:
        _day = (second, dt.date.today())
    return _day[1]


def as_of_option(text: str | None) -> dt.date | None:
    """The day ``--as-of`` names (None when it is not given)."""
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise BridgelawError(f"--as-of {text!r} is not a date", expected="YYYY-MM-DD, e.g. 2015-06-30") from None
