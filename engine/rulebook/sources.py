"""Where each line of a rulebook comes from: documents, paragraph sources, parameter sources.

A layer declares the documents it quotes once (``documents:``: title, who issued it, its date, a
URL where one exists, and what kind of text it is), and each paragraph names its document and
section (``source: {document: laws-2017, section: Law 12C1(a)}``) — or, where no document says
it, gives the reason it is a modelling choice (``modelling: …``). A parameter is sourced through
the paragraphs it cites (``cites:`` on its value, or the layer's ``parameter_sources:``), or by a
stated modelling reason. :func:`report` counts what is sourced; the shipped rulebooks are all
sourced (tests/test_law_sources.py), and ``bridgelaw rulebooks`` prints each one's share.

Kinds keep law apart from what is not law: ``law`` (the Laws' text), ``regulation`` (a
Regulating Authority's regulation or election), ``recommendation`` (the WBF Laws Committee's
commentary and minutes: advice a regulation may adopt), ``guidance`` (a regulator's directors'
guide or published interpretation), ``practice`` (what a forum reply or lecture reports as
practice, not a regulation) and ``proposal`` (an idea put forward, not adopted anywhere).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

KINDS = ("law", "regulation", "recommendation", "guidance", "practice", "proposal")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class DocumentModel(_Strict):
    title: str = Field(min_length=1)
    by: str = Field(min_length=1)                       # who issued or wrote it
    date: Annotated[str, BeforeValidator(lambda v: v if isinstance(v, str) else str(v)),
                    Field(pattern=r"^\d{4}(-\d{2}(-\d{2})?)?$")]           # as precise as the source gives it
    kind: Literal["law", "regulation", "recommendation", "guidance", "practice", "proposal"]
    url: str | None = None
    note: str | None = None


class SourceModel(_Strict):
    document: str
    section: str = Field(min_length=1)
    url: str | None = None                              # a deeper link than the document's, if any


class ParameterSourceModel(_Strict):
    cites: list[str] = []
    modelling: str | None = None


@dataclass(frozen=True)
class Document:
    id: str
    title: str
    by: str
    date: str
    kind: str
    url: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Citation:
    """A paragraph's source: the document and the section in it."""
    document: Document
    section: str
    url: str | None = None

    @property
    def link(self) -> str | None:
        return self.url or self.document.url

    @property
    def text(self) -> str:
        """``The Laws of Duplicate Bridge 2017 (World Bridge Federation, 2017-03), Law 12C1(a) — https://…``"""
        d = self.document
        out = f"{d.title} ({d.by}, {d.date}), {self.section}"
        return f"{out} — {self.link}" if self.link else out


@dataclass(frozen=True)
class ParameterSource:
    cites: tuple[str, ...] = ()
    modelling: str | None = None
    origin: str = ""


@dataclass
class Report:
    """How much of one rulebook (as resolved, inherited lines included) is sourced."""
    rulebook: str
    paragraphs: int = 0
    paragraphs_sourced: int = 0
    parameters: int = 0
    parameters_sourced: int = 0
    texts_confirmed: int = 0                            # texts read in an English text of their source
    not_confirmed: list[str] = field(default_factory=list)   # the paragraphs whose text is not (confirmed: false)
    by_kind: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)   # "paragraph X: …", "parameter Y: …"

    @property
    def share(self) -> tuple[int, int]:
        return self.paragraphs_sourced + self.parameters_sourced, self.paragraphs + self.parameters

    @property
    def line(self) -> str:
        done, total = self.share
        pct = f"{100 * done // total}%" if total else "—"
        return (f"sourced {pct}: {self.paragraphs_sourced}/{self.paragraphs} paragraphs, "
                f"{self.parameters_sourced}/{self.parameters} parameters; "
                f"{self.texts_confirmed}/{self.paragraphs} texts confirmed from an English source")

    def as_dict(self) -> dict[str, Any]:
        return {"paragraphs": [self.paragraphs_sourced, self.paragraphs],
                "parameters": [self.parameters_sourced, self.parameters],
                "confirmed": [self.texts_confirmed, self.paragraphs], "not_confirmed": list(self.not_confirmed),
                "by_kind": dict(sorted(self.by_kind.items())), "unsourced": list(self.problems)}


def report(book: Any) -> Report:
    """Count the sourced paragraphs and parameters of a resolved rulebook (duck-typed: needs
    ``paragraphs`` with ``citation``/``modelling``, ``dated`` and ``parameter_sources``)."""
    r = Report(book.id)
    sourced: set[str] = set()
    for ref, p in sorted(book.paragraphs.items()):
        r.paragraphs += 1
        if p.citation is not None:
            sourced.add(ref)
            r.paragraphs_sourced += 1
            r.texts_confirmed += p.confirmed
            if not p.confirmed:
                r.not_confirmed.append(ref)
            r.by_kind[p.citation.document.kind] = r.by_kind.get(p.citation.document.kind, 0) + 1
        elif p.modelling:
            sourced.add(ref)
            r.paragraphs_sourced += 1
            r.by_kind["modelling"] = r.by_kind.get("modelling", 0) + 1
        else:
            r.problems.append(f"paragraph {ref} ({p.origin}): no source and no modelling reason")
    for name in sorted(book.dated):
        r.parameters += 1
        in_force = [d for d in book.dated[name] if d.covers(book.as_of)] or book.dated[name]
        cites = tuple(c for d in in_force for c in d.cites)
        extra = book.parameter_sources.get(name)
        if not cites and extra is not None:
            if extra.modelling:
                r.parameters_sourced += 1
                continue
            cites = extra.cites
        if not cites:
            r.problems.append(f"parameter {name}: cites no paragraph and gives no modelling reason")
            continue
        missing = [c for c in cites if c not in sourced]
        if missing:
            r.problems.append(f"parameter {name}: cites {', '.join(missing)}, which has no source")
            continue
        r.parameters_sourced += 1
    return r
