"""Travellers: one board's results at every table, with adjusted scores, scored as a whole field —
an event of one board (the field model of :mod:`.model`), read from a YAML traveller, or from one
board of a results file (PBN, USEBIO) with a YAML file of adjustments naming its tables.

    title: Board 9
    rulebook: wbf-2017
    date: 2024-05-18              # optional: the rulebook as in force that day (default today)
    scoring: matchpoints          # matchpoints | cross-imps | butler
    board: {number: 9, vulnerability: None}
    tables:
      - {table: 1, ns: 1, ew: 11, result: 4H= S}
      - {table: 2, ns: 2, ew: 12, adjusted: [{result: 3NT= S, weight: 1/3}, {result: 3NT-1 S, weight: 2/3}]}
      - {table: 3, ns: 3, ew: 13, adjusted: {NS: [...], EW: [...]}}            # split weighting
      - {table: 4, ns: 4, ew: 14, artificial: {NS: avg-plus, EW: avg-minus}}
      - {table: 5, ns: 5, ew: 15, result: 4H-1 S, penalty: {EW: 10%}}          # a procedural penalty

Each table has exactly one of ``result``, ``adjusted`` (one outcome, a weighted list — weights, or
``judged: likely`` / ``at all probable`` — or a split ``{NS: […], EW: […]}``, as in a case file) or
``artificial``, and may have a ``penalty`` (as in a rulings file: :mod:`.penalties`). Its adjusted tables are ruled as
their equivalent cases (:mod:`.adjust`) as soon as the board is read; it is scored by
:func:`.score.score_session` — the one scorer of ``bridgelaw event`` — and a board of a results
file is scored within its whole session, so that it scores as the event does.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from .. import rulebook as rulebooks
from ..core import bridge
from ..core.errors import BridgelawError, InvalidValue
from ..core.exact import NumberError, format_mixed, parse_exact
from ..core.vocab import SIDES, Method, Side
from ..core.yamlio import Document, load_yaml
from ..ruling.outcomes import NUMBER_SCHEMA as _NUM, TEXT_SCHEMA as _TEXT, StrictModel as _Strict    # shared with case files
from ..ruling.caseschema import Board as CaseBoard
from ..ruling.caseschema import BoardCount, Possibilities
from ..ruling.outcomes import DayField, UnitScore, parse_outcome
from . import penalties
from .adjust import Ruler, at, written_results
from .penalties import PenaltyModel
from .cells import Published, Where, artificial_word, code_text
from . import profiles
from .model import Board, Event, Line, Session, check_board, require_results
from .score import ScoredBoard, score_session

__all__ = ["load_traveller", "load_results_traveller", "score_traveller", "Traveller", "TravellerModel",
           "TableModel", "AdjustmentsModel", "AdjustmentModel", "bulk"]

WhatIf = Callable[[rulebooks.Rulebook], rulebooks.Rulebook]


@contextmanager
def bulk():
    """No cyclic garbage collection while tens of thousands of small objects are built (they
    are all kept; the collector would only walk them again and again)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# --- values --------------------------------------------------------------------------------------

def _pair_id(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidValue(f"expected a pair number, got {value!r}", expected="a pair number such as 7 or A7")
    text = str(value).strip()
    if not text or (isinstance(value, int) and value < 1):
        raise InvalidValue(f"expected a pair number, got {value!r}", expected="a pair number from 1, or an id such as A7")
    return text


def _session_value(value: Any) -> Fraction:
    try:
        return parse_exact(value, percent=True)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="a session score such as 62% (pairs) or 1.5 (IMPs a board)") from None


def _printed(value: Any) -> Published:
    """A figure as a source printed it: its value and its decimals (12.1 → 1), to check a computed
    score at the printed precision; a fraction (8 1/2) is checked exactly."""
    if isinstance(value, bool):
        raise InvalidValue(f"expected a number, got {value!r}")
    text = repr(value) if isinstance(value, float) else str(value).strip()
    try:
        number = parse_exact(value)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="the figure as published, e.g. 12.1 or 8 1/2") from None
    places = len(text.split(".", 1)[1]) if "." in text and "/" not in text else 0
    return Published(number, places, text)


_OUTCOMES: dict[Any, Any] = {}


def _outcome(value: Any) -> Any:
    """parse_outcome, once per distinct text: a traveller repeats a few dozen results, and the
    parsed results are immutable."""
    if not isinstance(value, str) or isinstance(value, bool):
        return parse_outcome(value)
    hit = _OUTCOMES.get(value)
    if hit is None:
        hit = parse_outcome(value)
        if len(_OUTCOMES) < 10_000:
            _OUTCOMES[value] = hit
    return hit


ResultField = Annotated[Any, BeforeValidator(_outcome), _TEXT]
PairId = Annotated[str, BeforeValidator(_pair_id), _NUM]
ArtificialWord = Annotated[str, BeforeValidator(artificial_word), _TEXT]
SessionNumber = Annotated[Fraction, BeforeValidator(_session_value), _NUM]
PrintedNumber = Annotated[Any, BeforeValidator(_printed), _NUM]


# --- the file formats ----------------------------------------------------------------------------

class ArtificialModel(_Strict):
    NS: ArtificialWord
    EW: ArtificialWord


class BySide(_Strict):
    NS: SessionNumber | None = None
    EW: SessionNumber | None = None


class PublishedModel(_Strict):
    NS: PrintedNumber | None = None
    EW: PrintedNumber | None = None
    why: str | None = None


KINDS = ("result", "adjusted", "artificial")


class _Scores(_Strict):
    result: ResultField | None = None
    adjusted: Possibilities | None = None        # one outcome, a weighted list, or a split {NS, EW}: as in a case file
    non_offending: Side | None = None            # for an adjusted score whose rule depends on it
    artificial: ArtificialModel | None = None
    session: BySide | None = None
    boards: BoardCount | None = None
    published: PublishedModel | None = None
    penalty: PenaltyModel | None = None          # a procedural penalty: {EW: 10%}, or on a player: as in a rulings file
    note: str | None = None


class TableModel(_Scores):
    table: int = Field(ge=1)
    ns: PairId
    ew: PairId


class TravellerModel(_Strict):
    title: str
    source: str | None = None
    rulebook: str | None = None
    date: DayField | None = None
    scoring: Method
    board: CaseBoard
    expected_results: int | None = Field(default=None, ge=1)
    pair_numbers: Literal["by-direction", "unique"] = "by-direction"
    tables: list[TableModel] = Field(min_length=1)
    notes: str | None = None


class AdjustmentModel(_Scores):
    table: int = Field(ge=1)


class AdjustmentsModel(_Strict):
    title: str | None = None
    source: str | None = None
    rulebook: str | None = None
    date: DayField | None = None
    scoring: Method | None = None
    pbn: str | None = None
    board: int | None = Field(default=None, ge=1, strict=True)    # true is no board number
    expected_results: int | None = Field(default=None, ge=1)
    pair_numbers: Literal["by-direction", "unique"] | None = None
    tables: list[AdjustmentModel] = []
    notes: str | None = None


# --- the traveller ---------------------------------------------------------------------------------

@dataclass
class Traveller:
    """One board of an event (the field model), with the rulebook it is ruled and scored under."""

    event: Event
    session: Session
    board: Board
    book: rulebooks.Rulebook                    # as in force on the traveller's day, with any what-if applied
    title: str
    source: str | None
    file: str
    notes: str | None = None
    date: dt.date | None = None                 # the file's date:
    as_of: dt.date | None = None                # the day asked for (--as-of, else date:); None: today
    adjustments_file: str | None = None

    @property
    def lines(self) -> list[Line]:
        return self.board.lines

    @property
    def board_number(self) -> int | None:
        return self.board.number

    @property
    def vulnerability(self) -> str:
        return self.board.vulnerability or "None"

    @property
    def scoring(self) -> str:
        return self.session.scoring

    @property
    def expected_results(self) -> int:
        return self.board.expected or sum(1 for line in self.board.lines if line.kind != "not-played")

    @property
    def warnings(self) -> list[str]:
        return self.session.warnings

    @property
    def pbn(self) -> Any:
        return self.event.source if self.event.format == "pbn" else None

    @property
    def game(self) -> Any:
        return self.board.extra.get("game")


def score_traveller(trav: Traveller) -> ScoredBoard:
    """Score the traveller's session (the whole session of a results file: a board scores as the
    event scores it) and return its board, every side of every line exact."""
    with bulk():
        scored = score_session(trav.session, trav.book)
    sb = scored.boards[trav.board.number]
    sb.traveller = trav
    return sb


# --- choosing the rulebook and the day --------------------------------------------------------------

def choose_book(override: str | None, name: str | None, doc: Document | None, file: str,
                what_if: WhatIf | None) -> rulebooks.Rulebook:
    """The rulebook: `override` (``--rulebook``) or the file's, with the what-if change applied."""
    if override:
        book = rulebooks.get(override, path_ok=True)
    elif name is None:
        where = doc.error([], "") if doc is not None else BridgelawError("", file=file)
        raise BridgelawError("the traveller names no rulebook", file=where.file, line=where.line, column=where.column,
                             expected="rulebook: <id> in the file, or --rulebook",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    else:
        try:
            book = rulebooks.get(name)
        except BridgelawError as exc:
            if doc is not None:
                exc.file, (exc.line, exc.column) = doc.file, doc.position(["rulebook"])
            raise
    return what_if(book) if what_if is not None else book


def day_of(book: rulebooks.Rulebook, as_of: dt.date | None, date: dt.date | None, doc: Document | None) -> dt.date:
    """The day the board is ruled at: `as_of` (``--as-of``), else the file's ``date:``, else today;
    a day before the rulebook came into force is an error (at ``date:`` when it comes from there)."""
    try:
        return book.clamp(as_of or date)
    except BridgelawError as exc:
        if as_of is None and date is not None and doc is not None:
            raise doc.error(["date"], exc.message, expected=exc.expected,
                            suggestion="another rulebook, or --as-of") from None
        raise


def _expected(doc: Document | None, value: int | None, tables: int) -> int | None:
    if value is not None and value < tables:
        raise doc.error(["expected_results"], f"expected_results is {value}, but the board has {tables} tables",
                        expected=f"at least {tables} (tables with an artificial score count)")
    return value


# --- a table of a traveller or an adjustments file --------------------------------------------------

class _Tables:
    """Turns a traveller's (or an adjustments file's) tables into lines: a result, an adjusted score
    (its outcomes as written; ruled once the board is read), an artificial score (its words read by
    the rulebook); errors point into `doc`."""

    def __init__(self, doc: Document, book: rulebooks.Rulebook, session: Session, board: Board,
                 day: dt.date | None) -> None:
        self.doc, self.session, self.board = doc, session, board
        self.dated = book.at(day)
        self.ruler = Ruler(book, session.scoring, board, day, session.warnings, doc.error, doc)

    def kind_of(self, m: _Scores, path: list, penalty_alone: bool = False) -> str | None:
        """The table's kind (result, adjusted, artificial); None for an adjustments file's table that
        gives only a penalty (`penalty_alone`: the line keeps its result)."""
        given = [k for k in KINDS if getattr(m, k) is not None]
        if len(given) > 1:
            raise self.doc.error(path + [given[1]], f"table has both {given[0]} and {given[1]}; give exactly one",
                                 key=True, expected="one of result, adjusted or artificial")
        if not given and penalty_alone and m.penalty is not None:
            for extra in ("session", "boards", "non_offending"):
                if getattr(m, extra) is not None:
                    raise self.doc.error(path + [extra], f"{extra} goes with a score", key=True)
            return None
        if not given:
            raise self.doc.error(path, "table has no score", expected="one of result, adjusted or artificial",
                                 suggestion="a board not played at this table is left out, with expected_results: set")
        if given[0] != "artificial":
            for extra in ("session", "boards"):
                if getattr(m, extra) is not None:
                    raise self.doc.error(path + [extra], f"{extra} belongs to an artificial score", key=True)
        if given[0] != "adjusted" and m.non_offending is not None:
            raise self.doc.error(path + ["non_offending"], "non_offending goes with an adjusted score", key=True)
        return given[0]

    def points(self, outcome: Any, path: list) -> int:
        if isinstance(outcome, UnitScore):
            raise self.doc.error(path, f"'{outcome.text}' is a score in the event's unit; a traveller needs the "
                                 "result or the raw score, to rescore the other tables against it",
                                 expected=bridge.RESULT_HINT, suggestion="for average plus/minus use artificial:")
        return bridge.ns_score(outcome, self.board.vulnerability or "None")

    def fill(self, line: Line, m: _Scores, kind: str | None, path: list) -> None:
        line.note = m.note or line.note
        if m.published is not None:
            line.published = {s: getattr(m.published, s) for s in SIDES if getattr(m.published, s) is not None}
            line.published_why = m.published.why
        if m.penalty is not None:
            self.penalty(line, m.penalty, path)
        if kind is None:
            return
        if kind == "result":
            line.kind, line.result = "result", m.result
            line.points = self.points(m.result, path + ["result"])
        elif kind == "adjusted":
            written, split = written_results(self.doc, m.adjusted, path + ["adjusted"])
            line.kind = "split" if split else "adjusted"
            line.written, line.non_offending, line.artificial = written, m.non_offending, None
        else:
            self.artificial(line, m, path)

    def artificial(self, line: Line, m: _Scores, path: list) -> None:
        line.kind, line.written = "artificial", None
        for name in ("session", "boards"):
            given = getattr(m, name)
            for side in SIDES:
                value = getattr(given, side) if given is not None else None
                if value is None:
                    continue
                if name == "session" and self.session.scoring == "matchpoints" and not 0 <= value <= 1:
                    raise self.doc.error(path + ["session", side], f"session score {format_mixed(value * 100)}% is "
                                         "outside 0% to 100%", expected="a percentage from 0% to 100%")
                line.given.setdefault(side, {})[name] = value
        try:
            read = self.ruler.responsibilities({"NS": m.artificial.NS, "EW": m.artificial.EW})
            line.artificial, line.artificial_words, line.reading = read.responsibility, read.words, read.entries
        except BridgelawError as exc:
            if exc.file is not None:
                raise
            raise self.doc.error(path + ["artificial"], exc.message, expected=exc.expected,
                                 suggestion=exc.suggestion) from None

    def penalty(self, line: Line, m: PenaltyModel, path: list) -> None:
        """A table's procedural penalties, as the facts of a case's penalty (ruled when the board is scored)."""
        where = path + ["penalty"]

        def fail(sub: list, message: str, expected: str) -> BridgelawError:
            return self.doc.error(where + sub, message, expected=expected, key=not sub or sub[-1] not in SIDES)

        def bound(message: str, expected: str) -> BridgelawError:
            return self.doc.error(where, message, expected=expected)

        line.penalties = penalties.given(m, line=line, method=self.session.scoring, vps=False, fail=fail,
                                         bound=bound, where=Where(self.doc.file, *self.doc.position(where)))

    def rule(self, paths: dict[int, list]) -> None:
        """Rule every adjusted line of the board (each with the board's other results as its field)."""
        for line in self.board.lines:
            if line.kind in ("adjusted", "split") and line.ruled is None:
                self.ruler.rule(line, paths.get(id(line), []), self.session.individual)


# --- a YAML traveller -------------------------------------------------------------------------------

class _At:
    """A place in a YAML traveller, its line and column found only when asked (an error, a report):
    composing the positions of 5,000 tables would cost more than reading them."""

    __slots__ = ("doc", "path")

    def __init__(self, doc: Document, path: list) -> None:
        self.doc, self.path = doc, path

    @property
    def file(self) -> str:
        return self.doc.file

    @property
    def line(self) -> int | None:
        return self.doc.position(self.path)[0]

    @property
    def column(self) -> int | None:
        return self.doc.position(self.path)[1]

    def error(self, message: str, **kw: Any) -> BridgelawError:
        return self.doc.error(self.path, message, **kw)


def load_traveller(path: str | Path, *, rulebook: str | None = None, scoring: str | None = None,
                   text: str | None = None, as_of: dt.date | None = None, what_if: WhatIf | None = None) -> Traveller:
    """Read and check a YAML traveller; an adjustments file naming a results file (``pbn:``) is read
    with it. `rulebook` and `scoring` override the file's; `as_of` its ``date:``; `what_if` changes
    the rulebook (``--set``, ``--overlay``)."""
    with bulk():
        return _load_traveller(path, rulebook=rulebook, scoring=scoring, text=text, as_of=as_of, what_if=what_if)


def _load_traveller(path: str | Path, *, rulebook: str | None, scoring: str | None, text: str | None,
                    as_of: dt.date | None, what_if: WhatIf | None) -> Traveller:
    doc = load_yaml(path, text=text)
    case_key = next((k for k in ("non_offending", "without_infraction", "artificial", "not_scheduled", "poll")
                     if isinstance(doc.tree, dict) and k in doc.tree and "tables" not in doc.tree), None)
    if case_key:
        raise doc.error([case_key], f"this is a case file (it has {case_key}:), not a traveller", key=True,
                        suggestion=f"rule it with `bridgelaw rule {doc.file}`")
    if "pbn" in doc.tree:
        model = doc.validate(AdjustmentsModel)
        if text is not None:                # read from memory (a web request): its name is no place to look
            raise doc.error(["pbn"], "pbn: names a file beside the adjustments file; adjustments sent as text "
                            "cannot name one", key=True, expected="the PBN file sent with the adjustments")
        if model.pbn is None:
            raise doc.error(["pbn"], "pbn: is empty; it names the PBN file these adjustments are for",
                            expected="a file name such as board-09.pbn in the same folder")
        if Path(model.pbn).name != model.pbn or model.pbn in (".", "..") or len(model.pbn) > 255:
            raise doc.error(["pbn"], "pbn: names a PBN file beside the adjustments file, not a path",
                            expected="a file name such as board-09.pbn in the same folder")
        results = Path(doc.file).parent / model.pbn
        if not results.is_file():
            raise doc.error(["pbn"], f"no such PBN file: {results}")
        event = _read_results(results, None, scoring or model.scoring)
        return _results_traveller(event, doc, model, rulebook=rulebook, board=None, scoring=scoring,
                                  as_of=as_of, what_if=what_if)
    m = doc.validate(TravellerModel)
    book = choose_book(rulebook, m.rulebook, doc, doc.file, what_if)
    day = day_of(book, as_of, m.date, doc)
    session = Session(name=m.title, scoring=scoring or m.scoring, pair_numbers=m.pair_numbers,
                      where=Where(doc.file, 1, 1), date=day)
    board = Board(m.board.number, m.board.vulnerability, [], _At(doc, ["board"]))
    session.boards[board.number] = board
    event = Event(title=m.title, file=doc.file, format="traveller", sessions=[session])
    tables = _Tables(doc, book, session, board, day)
    paths: dict[int, list] = {}
    for i, t in enumerate(m.tables):
        place = ["tables", i]
        kind = tables.kind_of(t, place)
        line = Line(board.number, "", t.table, t.ns, t.ew, _At(doc, place))
        tables.fill(line, t, kind, place)
        board.lines.append(line)
        paths[id(line)] = place + ["adjusted"]
    check_board(board, session, lambda line, key: _At(doc, paths[id(line)][:-1] + [key]))
    board.expected = _expected(doc, m.expected_results, len(board.lines))
    tables.rule(paths)
    book = tables.dated
    event.extra["book"] = book
    return Traveller(event, session, board, book, m.title, m.source, doc.file, m.notes, date=m.date,
                     as_of=as_of or m.date)


# --- one board of a results file -----------------------------------------------------------------

def _read_results(path: str | Path, text: str | bytes | None, scoring: str | None) -> Event:
    """A results file (PBN, or USEBIO by its .xml name) as the field model; a file that does not
    say how it is scored is a matchpoint traveller."""
    from .pbn_file import decode_pbn, load_pbn, parse_pbn
    from .pbn_results import read_pbn
    from .usebio import load_event_usebio
    if Path(str(path)).suffix.lower() == ".xml":
        data = text.encode("utf-8") if isinstance(text, str) else text
        return load_event_usebio(path, data=data, scoring=scoring, default="matchpoints")
    if text is None:
        pbn = load_pbn(path)
    elif isinstance(text, bytes):
        decoded, encoding = decode_pbn(text)
        pbn = parse_pbn(decoded, str(path), encoding)
    else:
        pbn = parse_pbn(text, str(path))
    return read_pbn(pbn, scoring=scoring, default="matchpoints")


def load_results_traveller(path: str | Path, *, adjustments: str | Path | None = None, board: int | None = None,
                           rulebook: str | None = None, scoring: str | None = None, text: str | bytes | None = None,
                           adjustments_text: str | None = None, as_of: dt.date | None = None,
                           what_if: WhatIf | None = None, profile: str | None = None) -> Traveller:
    """Read one board of a results file (PBN, or USEBIO .xml) with the adjustments YAML, if any (a
    ``pbn:`` key in it is not read: the file given here is the one scored). With `text` (and
    `adjustments_text`) the files are not read: `path` and `adjustments` only name them in messages.
    `as_of` and `what_if` as for :func:`load_traveller`; the board is scored with the conventions of
    the program that wrote the file (its profile, or `profile`), as ``bridgelaw event`` scores it."""
    with bulk():
        doc = model = None
        if adjustments is not None:
            doc = load_yaml(adjustments, text=adjustments_text)
            model = doc.validate(AdjustmentsModel)
        event = _read_results(path, text, scoring or (model.scoring if model else None))
        return _results_traveller(event, doc, model, rulebook=rulebook, board=board, scoring=scoring, as_of=as_of,
                                  what_if=what_if, profile=profile)


def _results_traveller(event: Event, doc: Document | None, model: AdjustmentsModel | None, *,
                       rulebook: str | None, board: int | None, scoring: str | None, as_of: dt.date | None = None,
                       what_if: WhatIf | None = None, profile: str | None = None) -> Traveller:
    if len(event.sessions) > 1:
        raise BridgelawError(f"{event.file} has {len(event.sessions)} sessions; a traveller is a board of one",
                             file=event.file, expected="a file of one session, or bridgelaw event")
    session = event.sessions[0]
    chosen = _board(event, session, board if board is not None else (model.board if model else None), doc)
    if rulebook is None and (model is None or model.rulebook is None):
        where = doc.error([], "") if doc is not None else BridgelawError("", file=event.file)
        raise BridgelawError(f"no rulebook for the {event.format.upper()} board", file=where.file, line=where.line,
                             column=where.column, expected="--rulebook ID, or rulebook: <id> in the adjustments file",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    book = choose_book(rulebook, model.rulebook if model else None, doc, event.file, None)
    choice = profiles.choose(event, profile)
    book = profiles.apply(choice, book, event)
    event.extra["conventions"] = choice
    book = what_if(book) if what_if is not None else book
    date = model.date if model else None
    day = day_of(book, as_of, date or session.date, doc if date else None)
    session.date = day
    if model is not None and model.pair_numbers:
        session.pair_numbers = model.pair_numbers
        check_board(chosen, session, lambda line, key: line.extra.get("cells", {}).get(key, line.where))
    for k, line in enumerate(chosen.lines):
        if line.table is None and not line.section:
            line.table = k + 1            # no Table column: the rows are tables 1, 2, … in order
    for line in chosen.lines:
        if line.kind == "not-played":
            raise line.extra.get("code_where", line.where).error(
                f"'{line.code}': this table did not play the board",
                expected="a result, a score or an artificial code such as A+ or A6040",
                suggestion="leave the row out of the board's traveller, or read the whole file with "
                "bridgelaw event, which keeps not-played lines out of the field")
    tables = _Tables(doc, book, session, chosen, day) if doc is not None else None
    ruler = tables.ruler if tables else Ruler(book, session.scoring, chosen, day, session.warnings, at(chosen.where))
    paths: dict[int, list] = {}
    by_table = {line.table: line for line in chosen.lines}
    adjusted: set[int] = set()
    for i, adj in enumerate(model.tables if model else []):
        place = ["tables", i]
        line = by_table.get(adj.table)
        if line is None:
            numbered = any("table" in l.extra.get("cells", {}) for l in chosen.lines)
            raise doc.error(place + ["table"], f"board {chosen.number if chosen.number is not None else '?'} of "
                            f"{event.file} has no table {adj.table}", expected="a table of the ScoreTable: " + ", ".join(
                                str(l.table) for l in chosen.lines[:20]),
                            suggestion=None if numbered else "the ScoreTable has no Table column; "
                            "its rows are numbered 1, 2, … in order")
        if adj.table in adjusted:
            raise doc.error(place + ["table"], f"table {adj.table} is adjusted twice", expected="each table once")
        adjusted.add(adj.table)
        kind = tables.kind_of(adj, place, penalty_alone=True)
        tables.fill(line, adj, kind, place)
        paths[id(line)] = place + ["adjusted"]
    require_results(Session(session.name, session.scoring, boards={chosen.number: chosen}),
                    "give it an adjusted or artificial score in the adjustments file")
    for other in session.boards.values():     # the rest of the session, scored around the board: as far as it goes
        for line in other.lines:
            if line.kind == "none":
                line.kind = "not-played"
                session.warnings.append(f"{line.label} has no result: left out of its board")
    for line in chosen.lines:                 # a file's artificial codes: the rulebook's words for them
        if line.kind == "artificial" and line.artificial_words is None:
            words = {s: v for s, v in line.artificial.items() if isinstance(v, str)}
            if len(words) == 2:
                read = ruler.responsibilities(words)
                line.artificial, line.artificial_words, line.reading = read.responsibility, read.words, read.entries
            else:
                line.artificial_words = {s: code_text(v) for s, v in line.artificial.items()}
    if tables is not None:
        tables.rule(paths)
    else:
        for line in chosen.lines:
            if line.kind in ("adjusted", "split") and line.ruled is None:
                ruler.error = at(line.where)
                ruler.rule(line, [], session.individual)
    chosen.expected = _expected(doc, model.expected_results if model else None, len(chosen.lines))
    title = (model.title if model and model.title else None) or _title(event, chosen)
    dated = book.at(day)
    event.extra["book"] = dated
    return Traveller(event, session, chosen, dated, title, model.source if model else None, event.file,
                     model.notes if model else None, date=date, as_of=as_of or date,
                     adjustments_file=doc.file if doc else None)


def _title(event: Event, board: Board) -> str:
    name = f"Board {board.number}" if board.number is not None else "Board"
    game = board.extra.get("game")
    tag = game.tag("Event") if game is not None else None
    title = tag.value.strip() if tag is not None else (event.title.strip() if event.format != "pbn" else "")
    return f"{title} — {name}" if title and title not in ("?", "#") else name


def _board(event: Event, session: Session, number: int | None, doc: Document | None) -> Board:
    what = "PBN file" if event.format == "pbn" else "file"
    boards = list(session.boards.values())
    if number is None:
        if len(boards) > 1:
            table = " with a ScoreTable" if event.format == "pbn" else ""
            raise BridgelawError(f"the {what} has {len(boards)} boards{table}; say which",
                                 file=event.file, expected="--board N, or board: N in the adjustments file",
                                 suggestion="boards: " + ", ".join(str(b.number) for b in boards))
        return boards[0]
    board = session.boards.get(number)
    if board is None:
        table = " with a ScoreTable" if event.format == "pbn" else ""
        message = f"the {what} has no board {number}{table}"
        kw = dict(expected="one of " + ", ".join(str(b.number) for b in boards))
        if doc is not None and "board" in doc.tree:
            raise doc.error(["board"], message, **kw)
        raise BridgelawError(message, file=event.file, **kw)
    return board
