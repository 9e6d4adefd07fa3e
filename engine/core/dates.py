"""Dates given on the command line and in files."""

from __future__ import annotations

import datetime as dt

from .errors import BridgelawError


def as_of_option(text: str | None) -> dt.date | None:
    """The day ``--as-of`` names (None when it is not given)."""
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise BridgelawError(f"--as-of {text!r} is not a date", expected="YYYY-MM-DD, e.g. 2015-06-30") from None
