"""What the web pages and the JSON API do, without HTTP: rule a case text, compare rulebooks,
list the rulebooks of the server's rules directory, and views of a ruling for the templates.

Rulebooks come only from the server's rules directory: an id from a request is looked up in
``rulebook.available(directory)`` and only a listed id is loaded — a request's string never
becomes a path.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..render import compare as comparing
from ..render import record, ruling as render
from ..render import slip as slips
from .. import rulebook as rulebooks
from ..ruling.case import Case, check_case
from ..ruling.caseschema import CaseModel
from ..core import dates
from ..core.errors import BridgelawError, did_you_mean
from ..ruling.build import rule_case
from ..ruling.result import Ruling
from ..core.yamlio import Document, load_yaml
from . import forms

log = logging.getLogger("bridgelaw.web")


def safe_name(name: str | None, default: str) -> str:
    """A name from a request (a form field, an upload's file name) reduced to a safe base name for
    messages and downloads: never a path, never read or written."""
    base = (name or "").replace("\\", "/").split("/")[-1]
    safe = "".join(c if c.isalnum() or c in "._- " else "_" for c in base)[:80].strip()
    return safe or default


class Books:
    """The rulebooks of one directory, loaded once and kept.

    A request looks at the listing kept in memory: the folder is listed again (and a changed
    rulebook loaded again) only when the folder's modification time has changed, or when a
    second (`recheck`) has passed since the last look — which also notices a file edited in
    place. A rulebook that no longer loads after such a change is logged and the last good
    listing kept, so the running server goes on answering; :meth:`load` (at start) raises it.
    """

    def __init__(self, directory: Path | None = None, *, recheck: float = 1.0) -> None:
        self.directory = Path(directory).resolve() if directory else None
        self.folder = self.directory or rulebooks.rules_dir()
        self.recheck = recheck
        self._lock = threading.Lock()
        self._books: dict[str, rulebooks.Rulebook] = {}
        self._paths: dict[str, Path] = {}
        self._signature: tuple | None = None
        self._folder_mtime = -1
        self._checked = float("-inf")

    def _fresh(self) -> dict[str, rulebooks.Rulebook]:
        """The rulebooks, looked up again only when the folder may have changed."""
        try:
            folder_mtime = self.folder.stat().st_mtime_ns
        except OSError:
            folder_mtime = -1
        if folder_mtime == self._folder_mtime and time.monotonic() - self._checked < self.recheck:
            return self._books
        with self._lock:
            try:
                self._reload(strict=False)
            finally:
                self._folder_mtime, self._checked = folder_mtime, time.monotonic()
        return self._books

    def load(self) -> dict[str, rulebooks.Rulebook]:
        """Load (or reload) every rulebook now; the first one that does not load is raised."""
        with self._lock:
            self._reload(strict=True)
            self._checked = time.monotonic()
        return self._books

    def _reload(self, strict: bool) -> None:
        paths = rulebooks.available(self.directory)
        signature = tuple((name, _stamp(path)) for name, path in paths.items())
        if signature == self._signature:
            return
        self._signature = signature
        try:
            loaded = {name: rulebooks.get(name, self.directory) for name in paths}
        except BridgelawError as exc:
            if strict:
                raise
            log.error("rulebooks in %s changed and one no longer loads; still using the last good ones: %s",
                      self.folder, exc)
            return
        self._books, self._paths = loaded, paths

    def ids(self) -> list[str]:
        return list(self._fresh())

    def get(self, name: str) -> rulebooks.Rulebook:
        books = self._fresh()
        if isinstance(name, str):
            name = rulebooks.registry.canonical(name, books) or name
        if not isinstance(name, str) or name not in books:
            known = list(books)
            raise BridgelawError(f"unknown rulebook '{name}'", expected="one of " + ", ".join(known),
                                 suggestion=did_you_mean(str(name), known))
        return books[name]

    def path(self, name: str) -> Path:
        """The file of a listed rulebook id (KeyError for any other string)."""
        self._fresh()
        return self._paths[rulebooks.registry.canonical(name, self._paths) or name]

    def canonical(self, name: str) -> str | None:
        """The listed id `name` names, case ignored (None for any other string)."""
        return rulebooks.registry.canonical(name, self._fresh()) if isinstance(name, str) else None

    def all(self) -> list[rulebooks.Rulebook]:
        return list(self._fresh().values())

    def default(self, day: dt.date | None = None) -> str:
        """The form's rulebook to start with: the Laws edition (a rulebook extending none) in force
        on `day` (today) — no regulation of one country; else the rulebook in force then that came
        into force last (on a tie the one extending fewest); else the newest."""
        books = self.all()
        if not books:
            return ""
        day = day or dates.today()
        key = (lambda b: (len(getattr(b, "chain", [b.id])) == 1, b.effective_from, -len(getattr(b, "chain", [b.id]))))
        current = [b for b in books if b.covers(day)]
        return max(current or books, key=key).id

    def in_force(self, day: dt.date | None = None) -> list[str]:
        """The rulebooks in force on `day` (today): what the compare page starts with."""
        day = day or dates.today()
        return [b.id for b in self.all() if b.covers(day)]

    def listing(self) -> list[dict[str, Any]]:
        """The rulebooks as `bridgelaw rulebooks --format json` lists them (a test holds the two equal)."""
        return [b.summary() for b in self.all()]

    def infractions(self) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
        """For the infraction fields: the laws the rulebooks know to empower an adjustment (law → its
        title), and the Director's findings those laws make a condition of adjusting (name → what it
        says and the laws that ask for it), in the rulebooks' order."""
        laws: dict[str, str] = {}
        findings: dict[str, dict[str, Any]] = {}
        default = self.default()
        for b in sorted(self.all(), key=lambda b: (b.id != default, b.id)):     # the current edition's words first
            for law, e in b.infractions.items():
                laws.setdefault(law, e.title)
                for name, what in (*e.requires, *e.should):
                    entry = findings.setdefault(name, {"text": what, "laws": []})
                    if law not in entry["laws"]:
                        entry["laws"].append(law)
        return laws, findings

    def choices(self) -> list[dict[str, str]]:
        """For the rulebook select: id and a label with edition and dates."""
        out = []
        for b in self.all():
            until = f" to {b.effective_until.isoformat()}" if b.effective_until else ""
            out.append({"id": b.id, "label": f"{b.id} — {b.authority}, {b.version}, in force from "
                                             f"{b.effective_from.isoformat()}{until}"})
        return out


def case_day(text: str) -> dt.date | None:
    """The form's date as typed, when it is one (else None: today's rulebooks are offered)."""
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (-1, -1)
    return st.st_mtime_ns, st.st_size


def load(text: str, file: str) -> Case:
    """A case from YAML text (parsed once), with the length limits on its lists checked first."""
    return case_of(load_yaml(file, text=text))


def case_of(doc: Document) -> Case:
    """A case from a document already read (YAML text, or the tree of a JSON request), with the
    length limits on its lists checked first."""
    try:
        too_long = forms.check_list_lengths(doc.tree)
    except RecursionError:
        raise BridgelawError("the case nests too deeply", file=doc.file,      # no position: composing it would recurse
                             expected="a case a few levels deep") from None
    if too_long:
        path, length, limit = too_long
        raise doc.error(list(path), f"{'.'.join(map(str, path))} lists {length} entries; at most {limit} are "
                        "accepted here", expected=f"at most {limit} entries")
    return check_case(doc, doc.validate(CaseModel))         # load_case's steps on the document already read


def book_for(case: Case, books: Books, override: str | None = None) -> rulebooks.Rulebook:
    """The case's rulebook (or `override`) from the server's directory; an error is positioned at
    the case's rulebook: (or date:) key."""
    name = override or case.rulebook_name()
    if not name:
        raise case.doc.error([], "the case names no rulebook", expected="rulebook: <id>, or jurisdiction: and date:",
                             suggestion="known: " + ", ".join(books.ids()))
    try:
        book = books.get(name)
    except BridgelawError as exc:
        if override is None:
            exc.file, (exc.line, exc.column) = case.file, case.doc.position(["rulebook" if case.model.rulebook else "jurisdiction"])
        raise
    check_date(book, case)
    return book


def check_date(book: rulebooks.Rulebook, case: Case) -> None:
    """rule_case applies the rulebook as in force on the case's date; a date before the rulebook
    came into force is reported here, at the date: key, so the page can show it beside the field."""
    clamp = getattr(book, "clamp", None)
    if case.model.date is None or clamp is None:
        return
    try:
        clamp(case.model.date)
    except BridgelawError as exc:
        exc.file, (exc.line, exc.column) = case.file, case.doc.position(["date"])
        raise


def rule_text(text: str, file: str, books: Books, override: str | None = None) -> tuple[Case, Ruling]:
    return rule_document(load_yaml(file, text=text), books, override)


def rule_document(doc: Document, books: Books, override: str | None = None) -> tuple[Case, Ruling]:
    case = case_of(doc)
    return case, rule_case(case, book_for(case, books, override))


# --- views for the templates -------------------------------------------------------------------

@dataclass
class SideView:
    side: str
    role: str
    amount: str
    formula: str
    label: str


@dataclass
class RulingView:
    title: str
    source: str | None
    outcome: str
    outcome_words: str
    sides: list[SideView]
    steps: list[str]
    citations: list[tuple[str, str]]
    warnings: list[str]
    facts: list[tuple[str, str]]
    rulebook: dict[str, str]
    text: str
    players: list[tuple[str, str]] = field(default_factory=list)
    date: str | None = None
    board: str = ""
    record: list[tuple[str, str]] = field(default_factory=list)    # the case record (bridgelaw.render.record.rows)
    slip: str = ""                                                   # the slip, HTML (bridgelaw.render.slip.html)


def view(ruling: Ruling, case: Case) -> RulingView:
    b = ruling.rulebook
    sides = [SideView(s.side, {"nos": "non-offending", "os": "offending"}.get(s.role or "", ""),
                      render.amount(ruling, s.value, s.side), s.formula, s.label) for s in ruling.sides.values()]
    players = []
    if ruling.players:
        names = record.players(case)
        players = [(f"{d} {names.get(d, '')}".strip(), render.amount(ruling, v)) for d, v in ruling.players.items()]
    as_of = getattr(b, "as_of", None)
    book = {"id": b.id, "title": b.title, "authority": b.authority, "version": b.version,
            "effective_from": b.effective_from.isoformat(),
            "effective_until": b.effective_until.isoformat() if b.effective_until else "",
            "as_of": as_of.isoformat() if isinstance(as_of, dt.date) else "", "sha256": b.sha256}
    m = case.model
    return RulingView(
        title=ruling.title, source=ruling.source, outcome=ruling.outcome,
        outcome_words=slips.HEADLINES.get(ruling.outcome, ruling.outcome), sides=sides, steps=render.step_lines(ruling),
        citations=[(p.ref, p.text if p.confirmed else "(text not confirmed) " + p.text) for p in ruling.citations],
        warnings=list(ruling.warnings) + out_of_force(ruling),
        facts=render.facts(ruling, case), rulebook=book, text=render.text(ruling, case), players=players,
        date=m.date.isoformat() if m.date else None,
        board=str(m.board.number) if m.board.number is not None else "",
        record=record.rows(case, ruling), slip=slips.html(slips.build(ruling, case)),
    )


def out_of_force(ruling: Ruling) -> list[str]:
    """The warning for an undated case ruled under a rulebook no longer in force (its last day is used)."""
    b = ruling.rulebook
    if any(e.kind == "rulebook" and e.data.get("clamped") and not e.data.get("given") and not e.data.get("asked")
           for e in ruling.trace.entries):
        return [f"Rulebook {b.id} is in force {b.period}, not today, and the case gives no date: it is ruled as on "
                f"the rulebook's last day. Give the session's date, or choose a rulebook in force."]
    return []


# --- compare -------------------------------------------------------------------------------------

@dataclass
class Column:
    id: str
    ruling: Ruling | None = None
    view: RulingView | None = None
    error: BridgelawError | None = None
    cell: comparing.Cell | None = None      # the cell bridgelaw.render.compare gives (one compare path)


CompareRow = comparing.Row


def compare(text: str, file: str, books: Books, ids: list[str]) -> tuple[Case, list[Column]]:
    """The case ruled under each rulebook of `ids` by bridgelaw.render.compare.cells, as `bridgelaw compare`
    rules it: a rulebook whose dates or scope do not cover the case is out of scope and not compared;
    an error in one column does not stop the others."""
    case = load(text, file)
    if not ids:
        raise BridgelawError("choose at least one rulebook to compare", expected="one or more of "
                             + ", ".join(books.ids()))
    names = list(dict.fromkeys(ids))
    cells = comparing.cells([comparing.Column(books.get(n), None if i == 0 else 0) for i, n in enumerate(names)], case)
    columns = []
    for name, cell in zip(names, cells):
        col = Column(name, cell=cell, ruling=cell.ruling)
        if cell.ruling is not None:
            col.view = view(cell.ruling, case)
        elif not cell.out_of_scope:
            col.error = BridgelawError(cell.error or "could not rule")
        columns.append(col)
    return case, columns


def compare_cli_json(text: str, books: Books, ids: list[str]) -> str:
    """The case under `ids` exactly as `bridgelaw compare --rulebooks IDS CASE --format json` gives
    it (bridgelaw.render.compare does the work; the case's path is given as "request")."""
    case = load(text, "request")                 # the errors, positioned, before anything else
    columns = [comparing.Column(books.get(name), None if i == 0 else 0) for i, name in enumerate(ids)]
    matrix = comparing.Matrix(columns, [("request", comparing.cells(columns, case))])
    return comparing.as_json(matrix)


def compare_rows(columns: list[Column]) -> list[CompareRow]:
    """Rows of the side-by-side table (bridgelaw.render.compare.table): `differs` marks a row whose in-scope
    rulings disagree; out-of-scope columns say so."""
    return comparing.table([c.cell for c in columns])
