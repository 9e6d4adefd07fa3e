"""The default rulebook of a results file that names none (nor does its rulings file, nor
``--rulebook``): the rulebook the calendar (:mod:`bridgelaw.rulebook.calendar`) says was in force
on the day the file was played, in the country the file names — or, when it names none, the
country of the program that wrote it (its profile's ``country:``). What is missing for the choice
is an error that names it; the choice is said in the report's heading (:attr:`Default.text`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..core.errors import BridgelawError
from ..rulebook import available, calendar
from . import profiles
from .model import Event

NEEDED = "--rulebook ID, or rulebook: <id> in the rulings file"


@dataclass(frozen=True)
class Default:
    id: str                 # the rulebook chosen
    country: str
    day: dt.date
    whence: str             # where the country comes from: "the file", or "profile ebuscore"

    @property
    def text(self) -> str:
        return (f"rulebook {self.id} — in force in {self.country} on {self.day.isoformat()} (calendar; the country "
                f"from {self.whence})")


def default_rulebook(event: Event, as_of: dt.date | None = None, profile: str | None = None) -> Default:
    """The rulebook in force in the event's country on its first session's day (or `as_of`)."""
    country, whence = event.country, "the file"
    if not country:
        choice = profiles.choose(event, profile if profile not in (None, "auto") else None)
        if choice.profile is not None and choice.profile.country:
            country, whence = choice.profile.country, f"profile {choice.profile.id}"
    day = as_of or next((s.date for s in event.sessions if s.date is not None), None)
    missing = []
    if not country:
        missing.append("the file names no country (USEBIO <COUNTRY>) and no program whose profile names one")
    if day is None:
        missing.append("the file gives no date (USEBIO <DATE>, PBN [Date]; or --as-of)")
    body = calendar.body_for_country(country) if country else None
    if country and body is None:
        missing.append(f"the rulebook calendar names no body for {country}")
    if missing:
        raise BridgelawError("no rulebook for the event, and none by default: " + "; ".join(missing),
                             file=event.file, expected=NEEDED, suggestion="known: " + ", ".join(available()))
    try:
        chosen = calendar.in_force(body, day)
    except BridgelawError as exc:
        raise BridgelawError(f"no rulebook for the event: {exc.message}", file=event.file, expected=NEEDED,
                             suggestion="known: " + ", ".join(available())) from None
    return Default(chosen, country, day, whence)
