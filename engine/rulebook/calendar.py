"""The calendar of each body's codes (rules/calendar.yaml): which rulebook a regulating body ruled under on
a given day, each entry with its source.

    bodies() -> list[Body]                       every body, in the file's order
    in_force(body, day) -> str                    the rulebook id in force for that body that day
    body_for_country(country) -> str | None       the body a results file's country names (case-insensitive)
    body_for(jurisdiction) -> str                 a body id, or a country, to the body's id (an error when neither)

A body's entries run in order of their start; each runs until the day before the next begins, so a body
has at most one code on any day. A day before a body's first entry is an error naming the body and the day:
no code is taken by default. The calendar is data: which rulebook a body used and when is said nowhere in
Python (docs/rulebooks.md, "The calendar").
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import BridgelawError, did_you_mean
from .files import CALENDAR_FILE, available, rules_dir

BODY_ID = r"^[a-z][a-z0-9-]*$"


@dataclass(frozen=True)
class Edition:
    """One entry of a body's calendar: the rulebook in force from `effective_from` (until the day before the
    body's next entry begins: `until`, None for the last), where that date comes from, and whether the source
    gives the day itself (`exact`) or only a month, a deadline or nothing (the day taken is said in `source`)."""
    rulebook: str
    effective_from: dt.date
    source: str
    exact: bool = True
    until: dt.date | None = None

    def covers(self, day: dt.date) -> bool:
        return self.effective_from <= day and (self.until is None or day <= self.until)

    @property
    def period(self) -> str:
        mark = "" if self.exact else "≈"
        end = f" to {self.until.isoformat()}" if self.until else ""
        return f"from {mark}{self.effective_from.isoformat()}{end}"

    def as_json(self) -> dict:
        return {"rulebook": self.rulebook, "from": self.effective_from.isoformat(),
                "until": self.until.isoformat() if self.until else None, "exact": self.exact, "source": self.source}


@dataclass(frozen=True)
class Body:
    id: str
    name: str
    countries: tuple[str, ...]
    editions: tuple[Edition, ...]

    def as_json(self) -> dict:
        return {"id": self.id, "name": self.name, "countries": list(self.countries),
                "editions": [e.as_json() for e in self.editions]}


# --- the file ------------------------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class _EditionModel(_Strict):
    rulebook: str = Field(min_length=1, max_length=100)
    from_: dt.date = Field(alias="from")
    source: str = Field(min_length=1)
    exact: bool = True


class _BodyModel(_Strict):
    name: str = Field(min_length=1)
    countries: list[str] = Field(default_factory=list)
    editions: list[_EditionModel] = Field(min_length=1)


class _CalendarModel(_Strict):
    bodies: dict[str, _BodyModel] = Field(min_length=1)


_cache: dict[str, tuple[int, list[Body]]] = {}


def calendar_path() -> Path:
    return rules_dir() / CALENDAR_FILE


def load(path: Path | None = None) -> list[Body]:
    """The bodies of a calendar file, checked: known rulebook ids, entries in order of their start, each
    country named by one body at most. Read again only when the file changed."""
    import re

    from ..core.yamlio import load_yaml
    path = path or calendar_path()
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        raise BridgelawError(f"no calendar file: {path}") from None
    found = _cache.get(str(path))
    if found is not None and found[0] == stamp:
        return found[1]
    doc = load_yaml(path)
    model = doc.validate(_CalendarModel)
    known = available(path.parent)
    owner: dict[str, str] = {}
    out: list[Body] = []
    for body_id, b in model.bodies.items():
        if not re.match(BODY_ID, body_id):
            raise doc.error(["bodies", body_id], f"body id '{body_id}' is not lower-case letters, digits and hyphens",
                            key=True, expected="e.g. ebu, nswba")
        for i, e in enumerate(b.editions):
            if e.rulebook not in known:
                raise doc.error(["bodies", body_id, "editions", i, "rulebook"], f"unknown rulebook '{e.rulebook}'",
                                expected="one of " + ", ".join(known), suggestion=did_you_mean(e.rulebook, known))
            if i and e.from_ <= b.editions[i - 1].from_:
                raise doc.error(["bodies", body_id, "editions", i, "from"],
                                f"body {body_id}: {e.from_.isoformat()} is not after the previous entry's "
                                f"{b.editions[i - 1].from_.isoformat()}",
                                expected="a body's entries in order of their start, one code a day")
        for i, country in enumerate(b.countries):
            key = country.strip().casefold()
            if key in owner:
                raise doc.error(["bodies", body_id, "countries", i],
                                f"country '{country}' is named by body {owner[key]} and by body {body_id}",
                                expected="each country named by one body at most")
            owner[key] = body_id
        editions = tuple(
            Edition(e.rulebook, e.from_, " ".join(e.source.split()), e.exact,
                    b.editions[i + 1].from_ - dt.timedelta(days=1) if i + 1 < len(b.editions) else None)
            for i, e in enumerate(b.editions))
        out.append(Body(body_id, b.name, tuple(b.countries), editions))
    _cache[str(path)] = (stamp, out)
    return out


# --- the API -------------------------------------------------------------------------------------

def bodies(path: Path | None = None) -> list[Body]:
    """Every body of the calendar, in the file's order."""
    return list(load(path))


def body(body_id: str, path: Path | None = None) -> Body:
    """A body by its id (case-insensitive); an unknown one is an error with a "did you mean"."""
    every = load(path)
    wanted = str(body_id).strip().casefold()
    for b in every:
        if b.id == wanted:
            return b
    ids = [b.id for b in every]
    raise BridgelawError(f"unknown body '{str(body_id)[:60]}'", expected="one of " + ", ".join(ids),
                         suggestion=did_you_mean(wanted, ids))


def in_force(body_id: str, day: dt.date, path: Path | None = None) -> str:
    """The rulebook id in force for `body_id` on `day`; an error naming the body and the day when the calendar
    knows no code of that body then (never a default)."""
    b = body(body_id, path)
    for e in b.editions:
        if e.covers(day):
            return e.rulebook
    first = b.editions[0]
    raise BridgelawError(f"no code of body {b.id} is known in force on {day.isoformat()}",
                         expected=f"a date from {first.effective_from.isoformat()} (its first entry, {first.rulebook})",
                         suggestion="name the case's rulebook: instead, or add the body's earlier code to "
                                    "rules/calendar.yaml with its source")


def body_for_country(country: str, path: Path | None = None) -> str | None:
    """The body whose `countries` name `country` (an ISO code or a name, case-insensitive), else None."""
    wanted = str(country).strip().casefold()
    for b in load(path):
        if any(c.casefold() == wanted for c in b.countries):
            return b.id
    return None


def body_for(jurisdiction: str, path: Path | None = None) -> str:
    """A case's or event's `jurisdiction:` — a body id or a country — to the body's id; an error when it is
    neither."""
    wanted = str(jurisdiction).strip().casefold()
    every = load(path)
    if any(b.id == wanted for b in every):
        return wanted
    found = body_for_country(jurisdiction, path)
    if found is not None:
        return found
    names = [b.id for b in every] + [c for b in every for c in b.countries]
    raise BridgelawError(f"unknown jurisdiction '{str(jurisdiction)[:60]}'",
                         expected="a body id (" + ", ".join(b.id for b in every) + ") or a country a body names",
                         suggestion=did_you_mean(str(jurisdiction), names))


def periods_of(rulebook: str, path: Path | None = None) -> list[tuple[str, Edition]]:
    """Each (body id, entry) of the calendar that names `rulebook`: the spans its period must cover."""
    return [(b.id, e) for b in load(path) for e in b.editions if e.rulebook == rulebook]
