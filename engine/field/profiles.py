"""Scoring programs' conventions as profiles: what a program does where the Laws leave the choice to
the scorer or the conditions of contest (how a board played fewer times is factored and rounded, how
totals are made, how a teams match's IMPs become VPs, how the file prints its figures, who is ranked
with whom), kept as data in ``rules/profiles/<id>.yaml``.

A profile is chosen for a results file by the program the file names (USEBIO ``PROGRAM_NAME``,
PBN ``Generator``/``Creator``/``Application``): the first profile one of whose ``programs:`` the
name begins with (case and spaces ignored). A file bridgelaw wrote for a teams event names the
profile it was scored with (``<!-- bridgelaw: profile teamsscorer -->``, field/usebio_teams.py),
so that it reads back the same. ``--profile ID`` chooses one instead, ``--profile none`` none.

A profile's values are laid over the rulebook as one layer, ``<rulebook>+<profile>`` (the
rulebook's own regulation stays below them, ``--overlay`` and ``--set`` above): ``parameters:``
are ``fieldscore.*`` values (how a board's field is scored), ``matches:`` are ``vp.*`` values (how
a teams match is scored). Each value carries its evidence — the real file it was measured on — and
may cite a paragraph the profile itself defines (``documents:``, ``paragraphs:``: the rulebook
format), which a ruling that reads the value then cites. Its ``file:`` conventions say how the
program ranks and prints. A profile is a program's convention, not law: the report says which
profile applied and where each value came from ("conventions: …", each parameter's layer).

    profile: ebuscore
    title: EBUScore Pairs
    programs: [EBUScore Pairs]
    parameters:
      fieldscore.neuberg.expected: {value: session, evidence: "…"}
    file:
      ranking: {value: together, evidence: "…"}
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import BridgelawError, did_you_mean
from ..core.yamlio import Document, load_yaml
from ..rulebook import LayerModel, Rulebook, with_layer
from ..rulebook import parameters as params
from ..rulebook import sources
from ..rulebook.files import rules_dir
from ..rulebook.schema import ParagraphModel
from .model import Event, Program

FOLDER = rules_dir() / "profiles"         # rules/profiles (installed: bridgelaw/rules/profiles)
# the values each section may set: a board's field (parameters:), a teams match (matches:)
SECTIONS = {"parameters": "fieldscore.", "matches": "vp."}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Value(_Strict):
    value: Any
    evidence: str = Field(min_length=10, max_length=4000)
    cites: list[str] = Field(default_factory=list, max_length=10)    # paragraphs of this profile


class Ranking(_Strict):
    value: Literal["together", "by-direction", "by-section"]
    evidence: str = Field(min_length=10, max_length=4000)


class Figures(_Strict):
    value: Literal["decimal", "float32"]
    evidence: str = Field(min_length=10, max_length=4000)


class Country(_Strict):
    value: str = Field(min_length=2, max_length=60)
    evidence: str = Field(min_length=10, max_length=4000)


class FileConventions(_Strict):
    ranking: Ranking | None = None         # who is ranked with whom, when the file does not say (WINNER_TYPE)
    figures: Figures | None = None         # how the program prints its figures


class ProfileModel(_Strict):
    profile: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")
    title: str = Field(max_length=200)
    programs: list[str] = Field(min_length=1, max_length=20)
    tested: bool = True                    # measured on a real file (else: inferred, said in the report)
    country: Country | None = None         # where the program is used: the rulebook calendar's default
    parameters: dict[str, Value] = Field(default_factory=dict)      # fieldscore.*
    matches: dict[str, Value] = Field(default_factory=dict)         # vp.*
    file: FileConventions = Field(default_factory=FileConventions)
    documents: dict[str, sources.DocumentModel] = Field(default_factory=dict)
    paragraphs: dict[str, ParagraphModel] = Field(default_factory=dict)
    notes: str | None = None


@dataclass(frozen=True)
class Profile:
    id: str
    title: str
    programs: tuple[str, ...]
    tested: bool
    ranking: str | None
    figures: str | None
    path: Path
    model: Any = field(compare=False, repr=False, default=None)
    doc: Document | None = field(compare=False, repr=False, default=None)
    applied: dict = field(compare=False, repr=False, default_factory=dict)   # id of a book → (it, it with this profile)

    @property
    def country(self) -> str | None:
        return self.model.country.value if self.model is not None and self.model.country else None

    @property
    def values(self) -> dict[str, Value]:
        """Every value the profile sets, by parameter name (its parameters: and matches:)."""
        return {**self.model.parameters, **self.model.matches}

    def matches(self, program: Program) -> bool:
        name = _fold(program.name)
        return any(name.startswith(_fold(p)) for p in self.programs)

    def apply(self, book: Rulebook) -> Rulebook:
        """`book` with this profile's values: one layer, ``<book>+<id>``, each value's origin this
        profile's file (unchanged when the profile sets none)."""
        values = self.values
        if not values:
            return book
        known = self.applied.get(id(book))             # once a book: a season's files share it (and its decisions)
        if known is not None and known[0] is book:
            return known[1]
        layer = LayerModel(documents=self.model.documents, paragraphs=self.model.paragraphs,
                           parameters={name: {"value": v.value, "cites": v.cites} for name, v in values.items()})
        made = with_layer(book, self.doc, layer, self.id, origin=f"profile {self.id} (rules/profiles/{self.path.name})")
        if len(self.applied) >= 32:
            self.applied.clear()
        self.applied[id(book)] = (book, made)
        return made


def _fold(text: str) -> str:
    return "".join(text.lower().split())


def _load(path: Path) -> Profile:
    doc = load_yaml(path)
    m = doc.validate(ProfileModel)
    for section, prefix in SECTIONS.items():
        for name, v in getattr(m, section).items():
            where = [section, name]
            if not name.startswith(prefix) or name not in params.PARAMETERS:
                raise doc.error(where, f"'{name}' is not a parameter a profile's {section}: may set", key=True,
                                expected=f"a {prefix}* parameter", suggestion=did_you_mean(name, [
                                    p for p in params.PARAMETERS if p.startswith(prefix)]))
            try:
                params.check(name, v.value)
            except ValueError as exc:
                raise doc.error(where + ["value"], f"{name}: {exc}") from None
            for j, ref in enumerate(v.cites):
                if ref not in m.paragraphs:
                    raise doc.error(where + ["cites", j], f"{name} cites {ref}, which this profile does not define",
                                    expected="a paragraph listed under paragraphs:",
                                    suggestion=did_you_mean(ref, m.paragraphs))
    if path.stem != m.profile:
        raise doc.error(["profile"], f"profile '{m.profile}' is in {path.name}", expected=f"{m.profile}.yaml")
    return Profile(m.profile, m.title, tuple(m.programs), m.tested,
                   m.file.ranking.value if m.file.ranking else None, m.file.figures.value if m.file.figures else None,
                   path, m, doc)


@functools.lru_cache(maxsize=1)
def profiles() -> dict[str, Profile]:
    """Every profile shipped, by id (loaded once per process)."""
    out = {}
    for path in sorted(FOLDER.glob("*.yaml")):
        p = _load(path)
        out[p.id] = p
    return out


def get(name: str) -> Profile:
    known = profiles()
    if name not in known:
        raise BridgelawError(f"--profile: unknown profile '{name[:40]}'", expected="one of " + ", ".join(
            [*known, "none", "auto"]), suggestion=did_you_mean(name, list(known)))
    return known[name]


@dataclass(frozen=True)
class Choice:
    """The profile an event is scored with, and why: ``file`` (the program the file names, or the
    profile a file bridgelaw wrote names), ``option`` (--profile), or None (no profile: the
    rulebook's defaults, and why)."""

    profile: Profile | None
    how: str                               # file | option | unknown-program | no-program | none
    program: Program | None

    @property
    def text(self) -> str:
        """The report's line: ``program: EBUScore Pairs 1.2.20 — profile ebuscore (from the file)``: where
        the conventions start from (field/learn.py learns the file's own from there)."""
        named = self.program.text if self.program is not None else None
        if self.profile is not None:
            untested = "" if self.profile.tested else "; inferred, not measured on a file"
            if self.how == "option":
                return f"profile {self.profile.id} ({self.profile.title}; --profile{untested})"
            return f"{named} — profile {self.profile.id} (from the file{untested})"
        if self.how == "none":
            return "none (--profile none): starting from the rulebook's defaults"
        if self.how == "unknown-program":
            return f"{named}: no profile for this program — starting from the rulebook's defaults"
        return "the file names no program — starting from the rulebook's defaults"


def choose(event: Event, option: str | None = None) -> Choice:
    """The profile for `event`: `option` (``--profile ID``, ``none``; ``auto`` or None: the profile
    a file bridgelaw wrote names, else by the program the file names)."""
    program = event.program
    if option not in (None, "", "auto"):
        if option == "none":
            return Choice(None, "none", program)
        return Choice(get(option), "option", program)
    if event.extra.get("profile") == "none":         # a file bridgelaw wrote, scored with no profile
        return Choice(None, "none", program)
    named = profiles().get(event.extra.get("profile") or "")
    if named is not None:
        return Choice(named, "file", program)
    if program is None:
        return Choice(None, "no-program", None)
    for p in profiles().values():
        if p.matches(program):
            return Choice(p, "file", program)
    return Choice(None, "unknown-program", program)


def apply(choice: Choice, book: Rulebook, event: Event) -> Rulebook:
    """The rulebook with the chosen profile's values, and the event's sessions with its file
    conventions (a ranking the file itself gives, as USEBIO's WINNER_TYPE, is kept)."""
    p = choice.profile
    if p is None:
        return book
    for s in event.sessions:
        if p.ranking is not None and not s.ranking_from_file:
            s.ranking = p.ranking
        if p.figures is not None:
            s.figures = p.figures
    return p.apply(book)
