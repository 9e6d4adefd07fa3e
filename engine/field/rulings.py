"""The rulings file: a TD's rulings for a whole event, applied to its lines.

    title: Thursday pairs — rulings
    rulebook: wbf-2017
    rulings:
      - board: 5
        table: 3                      # or ns: 4 / ew: 11 (the pairs); section: A when tables repeat
        adjusted: 4S= N               # one outcome, a weighted list, or {NS: [...], EW: [...]}
        note: hesitation before 4S; a weighted score
      - board: 9
        ns: 4
        artificial: {NS: avg-plus, EW: avg-minus}     # by responsibility: the rulebook's artificial stage
      - board: 12
        table: 7
        not_played: true              # no score for either side; the board is not counted
      - board: 14
        table: 2
        penalty: {EW: 25%}            # procedural: a share of a top (pairs), IMPs (teams), or 1 VP (a match)

``adjusted`` uses the case file's vocabulary (results such as ``4SX-2 W``, raw scores, weights
such as 1/3 or 60%, ``legal: false`` for outcomes the rulebook's expectation stage leaves out).
Every mistake — a board or table the event does not have, two rulings for one line, a line
both adjusted and artificial — is one line file:line:column.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from .. import rulebook as rulebooks
from ..core.errors import BridgelawError, InvalidValue, did_you_mean
from ..core.vocab import Method
from ..core.yamlio import Document, load_yaml
from ..ruling.caseschema import Infraction, Possibilities
from ..rulebook.infractions import UnknownLaw, resolve
from ..rulebook.registry import canonical
from . import penalties, reuse
from .adjust import Ruler, written_results
from .cells import Where, parse_code
from .model import Board, Event, Line, Session

def _id(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip():
        raise InvalidValue(f"expected a pair or section id, got {value!r}")
    return str(value).strip()


Id = Annotated[str, BeforeValidator(_id)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, populate_by_name=True, defer_build=True)


class ArtificialWords(_Strict):
    NS: str = Field(max_length=40)     # a responsibility, or the rulebook's outcome word (avg-plus …)
    EW: str = Field(max_length=40)


class RulingModel(_Strict):
    board: int = Field(ge=1, le=9999)
    session: int | None = Field(default=None, ge=1, le=99)
    section: Id | None = None
    table: int | None = Field(default=None, ge=1, le=99999)
    ns: Id | None = None
    ew: Id | None = None
    adjusted: Possibilities | None = None
    non_offending: Literal["NS", "EW"] | None = None
    artificial: ArtificialWords | None = None
    not_played: Literal[True] | None = None
    penalty: penalties.PenaltyModel | None = None
    infraction: Infraction | None = None       # the law that empowers an adjusted score (a teams room's)
    note: str | None = Field(default=None, max_length=2000)


class RulingsModel(_Strict):
    title: str | None = None
    event: str | None = None
    rulebook: str | None = None
    scoring: Method | None = None
    pair_numbers: Literal["by-direction", "unique"] | None = None
    rulings: list[RulingModel] = Field(default_factory=list, max_length=100_000)
    notes: str | None = None


@dataclass
class Rulings:
    doc: Document
    model: RulingsModel

    @property
    def file(self) -> str:
        return self.doc.file


def load_rulings(path: str | Path, *, text: str | None = None) -> Rulings:
    """A rulings file read and validated (once a replay: both runs of a file and the choice of the proposed
    rulebook read the same file, field/reuse.py)."""
    def read() -> Rulings:
        doc = load_yaml(path, text=text)
        return Rulings(doc, doc.validate(RulingsModel))
    return reuse.memo(("rulings", str(path), text), read)


def book_for(rulings: Rulings | None, override: str | None, event: Event) -> rulebooks.Rulebook:
    if override:
        return rulebooks.get(override, path_ok=True)      # --rulebook PATH, or the server's own file
    if rulings is None or rulings.model.rulebook is None:
        where = rulings.doc.error([], "") if rulings is not None else BridgelawError("", file=event.file)
        raise BridgelawError("no rulebook for the event", file=where.file, line=where.line, column=where.column,
                             expected="--rulebook ID, or rulebook: <id> in the rulings file",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    known = rulebooks.available()
    name = canonical(rulings.model.rulebook, known) or rulings.model.rulebook
    if name not in known:                     # a rulings file names a rulebook by id, never by path
        raise rulings.doc.error(["rulebook"], f"unknown rulebook '{name[:60]}'", expected="a rulebook id: "
                                + ", ".join(known), suggestion=did_you_mean(name, known) or
                                "a rulebook file is given with --rulebook PATH on the command line")
    try:
        return rulebooks.get(name)
    except BridgelawError as exc:
        exc.file, (exc.line, exc.column) = rulings.doc.file, rulings.doc.position(["rulebook"])
        raise


def _find(session: Session, r: RulingModel, doc: Document, path: list) -> Line:
    board = session.boards.get(r.board)
    if board is None:
        numbers = sorted(session.boards)
        raise doc.error(path + ["board"], f"the event has no board {r.board}",
                        expected=f"a board from {numbers[0]} to {numbers[-1]}" if numbers else "a board of the event")
    if r.table is None and r.ns is None and r.ew is None:
        raise doc.error(path, f"the ruling for board {r.board} names neither a table nor a pair",
                        expected="table: N, or ns: / ew: pair numbers")
    found = []
    for line in board.lines:
        if r.section is not None and line.section != r.section:
            continue
        if r.table is not None and line.table != r.table:
            continue
        if r.ns is not None and line.ns != r.ns:
            continue
        if r.ew is not None and line.ew != r.ew:
            continue
        found.append(line)
    key = "table" if r.table is not None else ("ns" if r.ns is not None else "ew")
    if not found:
        tables = ", ".join(f"{l.section}{l.table}" if l.table is not None else f"{l.ns}v{l.ew}" for l in board.lines[:30])
        raise doc.error(path + [key], f"board {r.board} has no such line"
                        + (f" (table {r.section or ''}{r.table})" if r.table is not None else
                           f" (NS {r.ns or '?'} v EW {r.ew or '?'})"),
                        expected="a line of the board: " + tables)
    if len(found) > 1:
        raise doc.error(path + [key], f"board {r.board}: {len(found)} lines match (sections "
                        f"{', '.join(sorted({l.section for l in found}))})", expected="section: to say which")
    return found[0]


def in_force(book: rulebooks.Rulebook, session: Session, as_of: dt.date | None = None) -> rulebooks.Rulebook:
    """`book` as in force on the day `session` is ruled at: `as_of` (``--as-of``), else the day the
    file says it was played, else today. A day given (``--as-of`` or the file's) outside the
    rulebook's period is an error — at the session in the file when the day comes from there, at
    ``--as-of`` when from the command line — never read as the rulebook's last day; only a session
    without a date, ruled today under a rulebook that has ended, is read as that day."""
    day = as_of or session.date
    if day is not None and not book.covers(day):
        where = "earlier" if day < book.effective_from else "later"
        message = f"rulebook {book.id} is in force {book.period}; {day.isoformat()} is {where}"
        if as_of is None and session.where is not None:
            raise session.where.error(f"the session was played on {day.isoformat()}; {message}",
                                      expected=f"a date {book.period}", suggestion="another rulebook, or --as-of")
        raise BridgelawError(f"--as-of {day.isoformat()}: {message}", expected=f"a date {book.period}",
                             suggestion="another rulebook")
    return book.at(day)


def apply(event: Event, rulings: Rulings, book: rulebooks.Rulebook, as_of: dt.date | None = None) -> None:
    """Change the event's lines as the rulings say (validated first: nothing changes when a
    ruling is wrong), each session under `book` as in force on its day (:func:`in_force`); then
    rule each adjusted line through the case ruling path (its equivalent case: :mod:`.adjust`)."""
    doc, m = rulings.doc, rulings.model
    if m.pair_numbers:
        for s in event.sessions:
            s.pair_numbers = m.pair_numbers
    plan = []
    seen: dict[int, int] = {}
    for i, r in enumerate(m.rulings):
        path = ["rulings", i]
        if r.session is not None and r.session > len(event.sessions):
            raise doc.error(path + ["session"], f"the event has {len(event.sessions)} session(s)")
        session = event.sessions[(r.session or 1) - 1]
        line = _find(session, r, doc, path)
        if id(line) in seen:
            raise doc.error(path + ["board"], f"{line.label} already has a ruling (rulings entry {seen[id(line)] + 1})",
                            expected="one ruling per line; put a weighted score and a penalty in one entry")
        seen[id(line)] = i
        given = [k for k in ("adjusted", "artificial", "not_played") if getattr(r, k) is not None]
        if len(given) > 1:
            raise doc.error(path + [given[1]], f"a ruling has both {given[0]} and {given[1]}", key=True,
                            expected="one of adjusted, artificial or not_played (and a penalty if any)")
        if not given and r.penalty is None:
            raise doc.error(path, "the ruling changes nothing", expected="adjusted, artificial, not_played or penalty")
        if r.infraction is not None and given[:1] != ["adjusted"]:
            raise doc.error(path + ["infraction"], "infraction: goes with an adjusted score (the law that empowers it)",
                            key=True, expected="adjusted: […] with infraction: {law: …, findings: {…}}")
        plan.append((r, line, given[0] if given else None, path, session))
    books = {id(s): in_force(book, s, as_of) for s in event.sessions}
    changes = [(line, _change(r, line, kind, path, doc, books[id(session)], session))
               for r, line, kind, path, session in plan]
    for (r, line, kind, path, session), (_, change) in zip(plan, changes):
        for attr, value in change.items():
            setattr(line, attr, value)
        line.ruling = {"entry": path[1] + 1, "file": doc.file, "line": doc.position(path)[0], "note": r.note}
    # the adjusted lines, once every line has its kind: each ruled with the board's other results
    rulers: dict[int, Ruler] = {}
    for r, line, kind, path, session in plan:
        if kind != "adjusted":
            continue
        board = session.boards[line.board]
        ruler = rulers.get(id(board))
        if ruler is None:
            ruler = rulers[id(board)] = Ruler(books[id(session)], session.scoring, board, books[id(session)].as_of,
                                              session.warnings, doc.error, doc)
        ruler.rule(line, path + ["adjusted"], session.individual)


def _change(r: RulingModel, line: Line, kind: str | None, path: list, doc: Document, book, session: Session) -> dict:
    """What the ruling changes on the line: an adjusted score's outcomes as written (ruled once every
    line has its kind), an artificial score's responsibilities (scored later, with the session's
    facts), not played, a penalty."""
    change: dict[str, Any] = {}
    if kind == "not_played":
        change.update(kind="not-played", written=None, parts=None, ruled=None, artificial=None)
    elif kind == "artificial":
        written = {"NS": r.artificial.NS, "EW": r.artificial.EW}
        codes = {side: parse_code(w) for side, w in written.items()}
        if all(c is not None and c.kind == "artificial" and not c.two_sided for c in codes.values()):
            # a results file's own codes (A+, A-, A60 …): a responsibility each, or an explicit share
            values = {side: c.NS for side, c in codes.items()}
            if len({isinstance(v, str) for v in values.values()}) > 1:
                raise doc.error(path + ["artificial"], f"NS {written['NS']}, EW {written['EW']}: one side by "
                                "responsibility and the other a percentage", expected="both sides the same kind")
            if isinstance(values["NS"], str):
                written = values
            else:
                change.update(kind="artificial", artificial=values, artificial_words=dict(written), written=None,
                              parts=None, ruled=None, mirrored=None, code="/".join(written.values()))
                return _penalty_change(r, line, path, doc, session, change)
        try:
            read = _words(book, session).responsibilities(written)
        except BridgelawError as exc:
            raise doc.error(path + ["artificial"], exc.message, expected=exc.expected,
                            suggestion=exc.suggestion) from None
        change.update(kind="artificial", artificial=dict(read.responsibility), artificial_words=dict(read.words),
                      reading=list(read.entries), written=None, parts=None, ruled=None, mirrored=None)
    elif kind == "adjusted":
        written, split = written_results(doc, r.adjusted, path + ["adjusted"])
        change.update(kind="split" if split else "adjusted", written=written, non_offending=r.non_offending,
                      artificial=None, parts=None, ruled=None, infraction=_infraction(r, line, path, doc, book))
    return _penalty_change(r, line, path, doc, session, change)


def _penalty_change(r: RulingModel, line: Line, path: list, doc: Document, session: Session, change: dict) -> dict:
    """The ruling's procedural penalties as the facts of a case's penalty (ruled when the line is scored)."""
    if r.penalty is None:
        return change
    where = path + ["penalty"]

    def fail(sub: list, message: str, expected: str) -> BridgelawError:
        return doc.error(where + sub, message, expected=expected, key=not sub or sub[-1] not in ("NS", "EW"))

    def bound(message: str, expected: str) -> BridgelawError:
        return BridgelawError(message, file=doc.file, line=doc.position(path)[0], column=1, expected=expected)

    vps = bool(session.matches) and session.match_scoring == "vps"
    change["penalties"] = penalties.given(r.penalty, line=line, method=session.scoring, vps=vps, fail=fail,
                                          bound=bound, where=Where(doc.file, *doc.position(where)))
    return change


def _infraction(r: RulingModel, line: Line, path: list, doc: Document, book) -> Any:
    """The law a teams ruling names (the rulebook's infractions: for team play), checked against the rulebook; its findings
    are checked when the line is ruled (the case path)."""
    if r.infraction is None:
        return None
    if line.match is None:
        raise doc.error(path + ["infraction"], "infraction: is for a room of a teams match (the law that empowers "
                        "its adjusted score)", key=True,
                        expected="no infraction: on a pairs line (its adjusted score is ruled as given)")
    try:
        resolve(book.infractions, r.infraction.law, book.id)
    except UnknownLaw as exc:
        raise doc.error(path + ["infraction", "law"], exc.message, suggestion=exc.suggestion) from None
    return r.infraction


def _words(book, session: Session) -> Ruler:
    """The reader of artificial words under `book` (one per book and session: its cache is kept)."""
    cache = session.__dict__.setdefault("_words", {})
    ruler = cache.get(id(book))
    if ruler is None:
        board = Board(None, "None")
        ruler = cache[id(book)] = Ruler(book, session.scoring, board, book.as_of, session.warnings,
                                        lambda path, message, **kw: BridgelawError(message, **kw))
    return ruler
