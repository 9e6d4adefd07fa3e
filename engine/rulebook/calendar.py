"""STAND-IN for the rulebook calendar of the law issue (branch ``law``: ``rules/calendar.yaml`` and
this module), written so that the director's work can be built and tested against its API:

    bodies() -> list[str]                       the bodies the calendar knows
    in_force(body, day) -> str                  the id of the body's rulebook in force on `day`
                                                (BridgelawError when none is)
    body_for_country(country) -> str | None     the body whose rulebooks apply in a country

The lead replaces this module with the law branch's at merge. This stand-in knows only the
countries whose bodies have a rulebook shipped, and takes the body's rulebooks to be the ones whose
id is the body's, or the body's and a year; the real calendar reads ``rules/calendar.yaml``.
"""

from __future__ import annotations

import datetime as dt
import re

from ..core.errors import BridgelawError
from .files import available

_COUNTRIES = {"england": "ebu", "denmark": "dbf", "united states": "acbl", "usa": "acbl", "canada": "acbl"}
_LAWS = "wbf"


def bodies() -> list[str]:
    return sorted({*_COUNTRIES.values(), _LAWS})


def body_for_country(country: str | None) -> str | None:
    if not country:
        return None
    return _COUNTRIES.get(" ".join(country.split()).casefold())


def in_force(body: str, day: dt.date) -> str:
    from .registry import get
    pattern = re.compile(rf"^{re.escape(body)}(-\d{{4}})?$")
    found = []
    for name in available():
        if pattern.match(name):
            book = get(name)
            if book.covers(day):
                found.append(book)
    if not found:
        raise BridgelawError(f"no rulebook of {body} is in force on {day.isoformat()}",
                             expected="a body and a day the rulebook calendar covers")
    return max(found, key=lambda b: b.effective_from).id
