"""The laws that empower an adjustment: a rulebook's ``infractions:`` and a case's ``infraction:``.

Law 12 never acts alone: 12C1(a) begins "When after an irregularity the Director is empowered by
these laws to adjust a score". A rulebook lists the laws a case may name as its infraction, each
with the paragraphs that empower the adjustment (cited before Law 12's):

    infractions:
      16B1: {title: unauthorized information from partner, cites: [16B1(a), 16B3]}
      72C:  {title: awareness of potential damage, cites: [72C], known_as: ["23"]}

A case names the law as a director writes it (``16B1``, ``16B1(a)``, ``21B3``, ``64A2``): the
longest listed law that begins it applies. An unknown law is an error with a "did you mean", and a
law the other edition numbers differently is taken as this edition's (2017 Law 72C is 2007 Law
23; the ruling names both), so one case can be ruled under both editions.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import did_you_mean
from ..core.vocab import Event, Responsibility, Scoring


class DeclinedModel(BaseModel):
    """What follows when a finding the law requires does not hold and no result was obtained at the table
    (the case gives no table_result): no result exists to stand, so the score is artificial, by responsibility,
    under these paragraphs (the 2007 86D the Director declines: 12C2(a) and 86A)."""
    model_config = ConfigDict(extra="forbid", defer_build=True)
    artificial: dict[Literal["nos", "os"], Responsibility]
    cites: list[str] = Field(min_length=1)


class InfractionModel(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    title: str = Field(min_length=1)
    cites: list[str] = Field(min_length=1)
    condition: str | None = None      # the finding the law needs before the Director may adjust, in its words
    effect: str | None = None         # what the Director then does (awards an adjusted score, …)
    known_as: list[str] = []          # the same law's number in another edition
    both_sides: bool = False   # non_offending: both is allowed: each side ruled from its own view (82C)
    revoke: bool = False              # Law 64: the case lists its revokes; table_result is before the transfer
    at_least: str | None = None       # a parameter the non-offending side's assigned score is at least (86B2(b): average plus)
    requires: dict[str, str] = {}     # the Director's findings the law makes a condition of adjusting: name → what it says
    should: dict[str, str] = {}       # a finding that, when it holds, means a required one should hold too: name → why
    # findings the Director may state instead of leaving them to the damage stage (no misinformation, no
    # damage): name → what it says; one found false ends the ruling, the result stands, like a requires
    may_find: dict[str, str] = {}
    events: list[Event] = []          # the events the law is for (team play: teams, knockout); none listed: any event
    scoring: list[Scoring] = []       # the scorings it is for (e.g. at IMPs, where its at_least is in IMPs); none: any
    artificial: dict[Literal["nos", "os"], Responsibility] | None = None   # the law's score is artificial, by responsibility
    declined: DeclinedModel | None = None     # a required finding does not hold and no result was obtained: artificial


@dataclass(frozen=True)
class Empowerment:
    law: str
    title: str
    cites: tuple[str, ...]
    known_as: tuple[str, ...] = ()
    both_sides: bool = False
    revoke: bool = False
    origin: str = ""
    at_least: str | None = None
    requires: tuple[tuple[str, str], ...] = ()
    condition: str | None = None
    effect: str | None = None
    should: tuple[tuple[str, str], ...] = ()
    events: tuple[str, ...] = ()
    scoring: tuple[str, ...] = ()
    artificial: tuple[tuple[str, str], ...] = ()     # (nos|os, responsibility)
    may_find: tuple[tuple[str, str], ...] = ()
    declined: tuple[tuple[str, str], ...] = ()          # (nos|os, responsibility) when a required finding fails
    declined_cites: tuple[str, ...] = ()                #   and no result was obtained at the table

    @property
    def finding_names(self) -> tuple[str, ...]:
        """The findings a case may give for this law: those it requires and those it says should lead to them."""
        return tuple(n for n, _ in self.requires) + tuple(n for n, _ in self.should) + tuple(n for n, _ in self.may_find)

    @classmethod
    def of(cls, law: str, m: InfractionModel, origin: str) -> "Empowerment":
        return cls(law, m.title, tuple(m.cites), tuple(m.known_as), m.both_sides, m.revoke, origin, m.at_least,
                   tuple(m.requires.items()), m.condition, m.effect, tuple(m.should.items()), tuple(m.events),
                   tuple(m.scoring), tuple((m.artificial or {}).items()), tuple(m.may_find.items()),
                   tuple(m.declined.artificial.items()) if m.declined else (),
                   tuple(m.declined.cites) if m.declined else ())


class UnknownLaw(LookupError):
    def __init__(self, message: str, suggestion: str | None) -> None:
        super().__init__(message)
        self.message, self.suggestion = message, suggestion


def _key(law: str) -> str:
    return law.strip().replace(" ", "").upper().replace("LAW", "")


def resolve(table: dict[str, Empowerment], law: str, rulebook: str) -> Empowerment:
    """The entry of `table` for the law a case names (longest listed prefix), or UnknownLaw."""
    given = _key(law)
    matches = [e for k, e in table.items() if given.startswith(_key(k))]
    if matches:
        return max(matches, key=lambda e: len(_key(e.law)))
    aliased = [e for e in table.values() if any(given.startswith(_key(alias)) for alias in e.known_as)]
    if aliased:                       # the other edition's number: this edition's law (the ruling says so)
        return aliased[0]
    raise UnknownLaw(f"infraction law {law} is not one {rulebook} knows to empower an adjustment "
                     f"(one of {', '.join(table)})", _suggest(given, table))


def knows(table: dict[str, Empowerment], law: str) -> bool:
    """Whether `table` has an entry for the law a case names (as :func:`resolve` finds it)."""
    try:
        resolve(table, law, "")
    except UnknownLaw:
        return False
    return True


def _suggest(given: str, table: dict[str, Empowerment]) -> str | None:
    """'did you mean …' — a law whose digits and letters are the given ones transposed (61B1 → 16B1)
    first, else the closest spelling."""
    for law in table:
        k = _key(law)
        if sorted(given[:len(k)]) == sorted(k):
            return f"did you mean '{law}'?"
    return did_you_mean(given, table)
