"""Travellers: one board's results at every table, with adjusted scores, scored as a whole field.

    title: Board 9
    rulebook: wbf-2017
    scoring: matchpoints          # matchpoints | cross-imps | butler
    board: {number: 9, vulnerability: None}
    tables:
      - {table: 1, ns: 1, ew: 11, result: 4H= S}
      - {table: 2, ns: 2, ew: 12, adjusted: [{result: 3NT= S, weight: 1/3}, {result: 3NT-1 S, weight: 2/3}]}
      - {table: 3, ns: 3, ew: 13, adjusted: {NS: [...], EW: [...]}}            # split weighting
      - {table: 4, ns: 4, ew: 14, artificial: {NS: avg-plus, EW: avg-minus}}

Each table has exactly one of ``result``, ``adjusted`` (one outcome, a weighted list, or a
split ``{NS: […], EW: […]}``) or ``artificial``. A PBN file's ScoreTable can stand in for
``tables:``; its adjustments then come from a small YAML file naming the tables
(:func:`load_pbn_traveller`).

Loading checks everything a director can get wrong (two kinds of score or none, duplicate
table or pair numbers, weights not summing to 1, an unknown scoring method, a ScoreTable row
that does not match its header) and reports it as file:line:column. :func:`score_traveller`
then scores every table with :mod:`bridgelaw.fieldscore`.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from . import bridge, fieldscore
from . import rulebook as rulebooks
from .case import Board, BoardCount, Possibilities, SplitWeighting, UnitScore, WeightedOutcome, parse_outcome
from .errors import BridgelawError, InvalidValue, did_you_mean
from .exact import NumberError, format_decimal, format_mixed, parse_exact
from .pbn import Game, PbnFile, Row, Token, load_pbn, parse_pbn
from .artificial import artificial_scores
from .stages import STAGES
from .yamlio import Document, load_yaml

Side = Literal["NS", "EW"]
SIDES: tuple[Side, Side] = ("NS", "EW")
SCORINGS = ("matchpoints", "cross-imps", "butler")
Scoring = Literal["matchpoints", "cross-imps", "butler"]

# --- artificial scores ---------------------------------------------------------------------------

RESPONSIBILITY = ("in-no-way-at-fault", "partly-at-fault", "directly-at-fault")
ARTIFICIAL_WORDS: dict[str, str] = {
    "avg-plus": "in-no-way-at-fault", "average-plus": "in-no-way-at-fault", "avg+": "in-no-way-at-fault",
    "ave+": "in-no-way-at-fault", "in-no-way-at-fault": "in-no-way-at-fault",
    "average": "partly-at-fault", "avg": "partly-at-fault", "ave": "partly-at-fault",
    "partly-at-fault": "partly-at-fault",
    "avg-minus": "directly-at-fault", "average-minus": "directly-at-fault", "avg-": "directly-at-fault",
    "ave-": "directly-at-fault", "directly-at-fault": "directly-at-fault",
}
SHORT = {"in-no-way-at-fault": "avg-plus", "partly-at-fault": "average", "directly-at-fault": "avg-minus"}
ARTIFICIAL_HINT = "avg-plus, average or avg-minus (or in-no-way-at-fault, partly-at-fault, directly-at-fault)"


# --- models --------------------------------------------------------------------------------------

def _pair_id(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidValue(f"expected a pair number, got {value!r}", expected="a pair number such as 7 or A7")
    text = str(value).strip()
    if not text or (isinstance(value, int) and value < 1):
        raise InvalidValue(f"expected a pair number, got {value!r}", expected="a pair number from 1, or an id such as A7")
    return text


def _artificial_word(value: Any) -> str:
    word = str(value).strip().lower() if isinstance(value, str) else None
    if word not in ARTIFICIAL_WORDS:
        raise InvalidValue(f"'{value}' is not an artificial score", expected=ARTIFICIAL_HINT,
                           suggestion=did_you_mean(str(value), ARTIFICIAL_WORDS))
    return ARTIFICIAL_WORDS[word]


def _session_value(value: Any) -> Fraction:
    try:
        return parse_exact(value, percent=True)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="a session score such as 62% (pairs) or 1.5 (IMPs a board)") from None


@dataclass(frozen=True)
class Published:
    value: Fraction
    places: int               # decimals as printed (12.1 → 1)
    text: str


def _published(value: Any) -> Published:
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


@contextmanager
def _bulk():
    """No cyclic garbage collection while tens of thousands of small objects are built (they
    are all kept; the collector would only walk them again and again)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_TEXT = WithJsonSchema({"type": "string"})
_NUM = WithJsonSchema({"type": ["string", "number"]})
ResultField = Annotated[Any, BeforeValidator(_outcome), _TEXT]
PairId = Annotated[str, BeforeValidator(_pair_id), _NUM]
ArtificialWord = Annotated[str, BeforeValidator(_artificial_word), _TEXT]
SessionNumber = Annotated[Fraction, BeforeValidator(_session_value), _NUM]
PublishedNumber = Annotated[Any, BeforeValidator(_published), _NUM]


Adjusted = Possibilities          # one outcome, a weighted list, or a split {NS, EW}: as in a case file


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, populate_by_name=True)


class ArtificialModel(_Strict):
    NS: ArtificialWord
    EW: ArtificialWord


class BySide(_Strict):
    NS: SessionNumber | None = None
    EW: SessionNumber | None = None


class PublishedModel(_Strict):
    NS: PublishedNumber | None = None
    EW: PublishedNumber | None = None
    why: str | None = None


KINDS = ("result", "adjusted", "artificial")


class _Scores(_Strict):
    result: ResultField | None = None
    adjusted: Adjusted | None = None
    artificial: ArtificialModel | None = None
    session: BySide | None = None
    boards: BoardCount | None = None
    published: PublishedModel | None = None
    note: str | None = None


class TableModel(_Scores):
    table: int = Field(ge=1)
    ns: PairId
    ew: PairId


class TravellerModel(_Strict):
    title: str
    source: str | None = None
    rulebook: str | None = None
    scoring: Scoring
    board: Board
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
    scoring: Scoring = "matchpoints"
    pbn: str | None = None
    board: int | None = Field(default=None, ge=1)
    expected_results: int | None = Field(default=None, ge=1)
    pair_numbers: Literal["by-direction", "unique"] = "by-direction"
    tables: list[AdjustmentModel] = []
    notes: str | None = None


# --- the checked traveller -----------------------------------------------------------------------

@dataclass(frozen=True)
class Part:
    """One possible outcome of an adjusted score: its NS points and weight."""

    outcome: Any
    weight: Fraction
    points: int
    legal: bool = True


@dataclass(frozen=True)
class Where:
    file: str
    line: int | None
    column: int | None

    def error(self, message: str, **kw: Any) -> BridgelawError:
        return BridgelawError(message, file=self.file, line=self.line, column=self.column, **kw)


@dataclass
class TableLine:
    table: int
    ns_pair: str | None
    ew_pair: str | None
    kind: str                                   # result | adjusted | split | artificial
    result: Any = None                          # the result at the table (a PBN row keeps it when adjusted)
    points: int | None = None                   # its NS points
    parts: dict[Side, list[Part]] | None = None  # adjusted: the outcomes used for each side
    raw_parts: dict[Side, list[Part]] | None = None  # adjusted: as written (legal: false included)
    excluded: dict[Side, list[Part]] = field(default_factory=dict)
    expectation: dict[Side, str] = field(default_factory=dict)   # rule id that formed each side
    artificial: dict[Side, Any] | None = None   # side → ArtificialScore (value, label, rule, steps)
    responsibility: dict[Side, str] | None = None
    published: dict[Side, Published] = field(default_factory=dict)
    published_why: str | None = None
    note: str | None = None

    @property
    def split(self) -> bool:
        return self.kind == "split"

    def entry(self, side: Side) -> fieldscore.FieldEntry:
        """The table's entry in `side`'s field: points from that side's view."""
        sign = 1 if side == "NS" else -1
        if self.kind == "result":
            return sign * self.points
        if self.kind == "artificial":
            return None
        return [(sign * p.points, p.weight) for p in self.parts[side]]


@dataclass
class Traveller:
    title: str
    source: str | None
    board_number: int | None
    vulnerability: str
    scoring: str
    book: rulebooks.Rulebook
    tables: list[TableLine]
    expected_results: int
    file: str
    notes: str | None = None
    pbn: PbnFile | None = None
    game: Game | None = None
    adjustments_file: str | None = None


# --- building table lines --------------------------------------------------------------------------

class _Builder:
    """Turns validated tables into TableLines; `where(path)` positions errors."""

    def __init__(self, doc: Document | None, book: rulebooks.Rulebook, scoring: str, vulnerability: str) -> None:
        self.doc, self.book, self.scoring, self.vulnerability = doc, book, scoring, vulnerability
        self.unit_scoring = "matchpoints" if scoring == "matchpoints" else "imps"
        self._rules: dict[tuple, Any] = {}

    def error(self, path: list, message: str, **kw: Any) -> BridgelawError:
        return self.doc.error(path, message, **kw)

    def points(self, outcome: Any, path: list) -> int:
        if isinstance(outcome, UnitScore):
            raise self.error(path, f"'{outcome.text}' is a score in the event's unit; a traveller needs the result "
                             "or the raw score, to rescore the other tables against it",
                             expected=bridge.RESULT_HINT, suggestion="for average plus/minus use artificial:")
        return bridge.ns_score(outcome, self.vulnerability)

    def kind_of(self, m: _Scores, path: list, *, missing_ok: bool = False) -> str | None:
        given = [k for k in KINDS if getattr(m, k) is not None]
        if len(given) > 1:
            raise self.error(path + [given[1]], f"table has both {given[0]} and {given[1]}; give exactly one",
                             key=True, expected="one of result, adjusted or artificial")
        if not given:
            if missing_ok:
                return None
            raise self.error(path, "table has no score", expected="one of result, adjusted or artificial",
                             suggestion="a board not played at this table is left out, with expected_results: set")
        if given[0] != "artificial":
            for extra in ("session", "boards"):
                if getattr(m, extra) is not None:
                    raise self.error(path + [extra], f"{extra} belongs to an artificial score", key=True)
        return given[0]

    def fill(self, line: TableLine, m: _Scores, kind: str, path: list) -> None:
        line.note = m.note
        if m.published is not None:
            line.published = {s: getattr(m.published, s) for s in SIDES if getattr(m.published, s) is not None}
            line.published_why = m.published.why
        if kind == "result":
            line.kind, line.result = "result", m.result
            line.points = self.points(m.result, path + ["result"])
        elif kind == "adjusted":
            self.adjusted(line, m.adjusted, path + ["adjusted"])
        else:
            self.artificial(line, m, path)

    def adjusted(self, line: TableLine, value: Any, path: list) -> None:
        if isinstance(value, SplitWeighting):
            line.kind = "split"
            raw = {s: self.parts(getattr(value, s), path + [s]) for s in SIDES}
        else:
            line.kind = "adjusted"
            items = value if isinstance(value, list) else None
            parts = self.parts(items, path) if items is not None else [Part(value, Fraction(1), self.points(value, path))]
            raw = {"NS": parts, "EW": parts}
        line.parts, line.raw_parts = {}, raw
        for side in SIDES:
            if side == "EW" and line.kind == "adjusted":
                line.parts["EW"], line.excluded["EW"] = line.parts["NS"], line.excluded.get("NS", [])
                line.expectation["EW"] = line.expectation["NS"]
                continue
            line.parts[side] = self.legal(line, side, raw[side], path + ([side] if line.kind == "split" else []))

    def parts(self, items: list[WeightedOutcome], path: list) -> list[Part]:
        if not items:
            raise self.error(path, "a weighted list needs at least one outcome")
        parts = [Part(item.result, item.weight, self.points(item.result, path + [i, "result"]), item.legal)
                 for i, item in enumerate(items)]
        total = sum((p.weight for p in parts), Fraction(0))
        if total != 1:
            raise self.error(path, f"the weights sum to {format_mixed(total)}, not 1",
                             expected="weights that add up to exactly 1 (e.g. 2/3 and 1/3, or 60% and 40%)")
        return parts

    def legal(self, line: TableLine, side: Side, parts: list[Part], path: list) -> list[Part]:
        """The outcomes the rulebook's expectation stage uses (as `bridgelaw rule` does)."""
        facts = {"weighted": len(parts) > 1, "illegal_outcomes": any(not p.legal for p in parts),
                 "scoring": self.unit_scoring}
        for name, kind in STAGES["expectation"].facts.items():
            if name not in facts and kind == "bool":
                facts[name] = False           # e.g. poll: a traveller gives weights, not a poll
        key = tuple(sorted(facts.items()))
        rule = self._rules.get(key)
        if rule is None:
            try:
                rule = self._rules[key] = self.book.decide("expectation", facts)
            except BridgelawError as exc:
                raise self.error(path, exc.message, expected=exc.expected, suggestion=exc.suggestion) from None
        line.expectation[side] = rule.id
        if rule.apply.get("outcomes") != "legal":
            return parts
        used = [p for p in parts if p.legal]
        line.excluded[side] = [p for p in parts if not p.legal]
        if not used:
            raise self.error(path, f"every outcome is marked legal: false; rule {rule.id} ({self.book.id}) leaves "
                             "nothing to assign", suggestion="add the outcome that could have been reached legally")
        kept = sum((p.weight for p in used), Fraction(0))
        if kept != 1:
            used = [Part(p.outcome, p.weight / kept, p.points, p.legal) for p in used]
        return used

    def artificial(self, line: TableLine, m: _Scores, path: list) -> None:
        line.kind = "artificial"
        line.responsibility = {"NS": m.artificial.NS, "EW": m.artificial.EW}
        session = None
        if m.session is not None:
            session = {s: getattr(m.session, s) for s in SIDES if getattr(m.session, s) is not None} or None
            for s, value in (session or {}).items():       # as a case refuses it (issue 14 item 6)
                if self.unit_scoring == "matchpoints" and not 0 <= value <= 1:
                    raise self.error(path + ["session", s], f"session score {format_mixed(value * 100)}% is outside "
                                     "0% to 100%", expected="a percentage from 0% to 100%")
        boards = None
        if m.boards is not None:
            boards = {s: getattr(m.boards, s) for s in SIDES if getattr(m.boards, s) is not None} or None
        try:
            line.artificial = artificial_scores(self.book, scoring=self.unit_scoring,
                                                responsibility=line.responsibility, session=session, boards=boards)
        except BridgelawError as exc:
            if exc.file is not None:
                raise
            raise self.error(path + ["artificial"], exc.message, expected=exc.expected,
                             suggestion=exc.suggestion) from None


def _check_numbers(lines: list[tuple[TableLine, Any]], pair_numbers: str) -> None:
    """Duplicate table numbers, and pairs playing the board twice. `lines` pairs each line with
    a function giving the Where of one of its keys ('table', 'ns', 'ew')."""
    tables: dict[int, TableLine] = {}
    pairs: dict[tuple[str, str], TableLine] = {}
    for line, where in lines:
        if line.table in tables:
            raise where("table").error(f"table {line.table} appears twice on the board", expected="each table once")
        tables[line.table] = line
        for key, side, pair in (("ns", "NS", line.ns_pair), ("ew", "EW", line.ew_pair)):
            if pair is None:
                continue
            name = (side if pair_numbers == "by-direction" else "", pair)
            if name in pairs:
                who = f"{side} pair {pair}" if pair_numbers == "by-direction" else f"pair {pair}"
                raise where(key).error(f"{who} plays the board twice (tables {pairs[name].table} and {line.table})",
                                       expected="each pair once on a board")
            pairs[name] = line


def _book(override: str | None, name: str | None, doc: Document | None, file: str) -> rulebooks.Rulebook:
    if override:
        return rulebooks.get(override, path_ok=True)
    if name is None:
        where = doc.error([], "") if doc is not None else BridgelawError("", file=file)
        raise BridgelawError("the traveller names no rulebook", file=where.file, line=where.line, column=where.column,
                             expected="rulebook: <id> in the file, or --rulebook",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    try:
        return rulebooks.get(name)
    except BridgelawError as exc:
        if doc is not None:
            exc.file, (exc.line, exc.column) = doc.file, doc.position(["rulebook"])
        raise


def _expected(doc: Document | None, value: int | None, tables: int, path: list) -> int:
    if value is None:
        return tables
    if value < tables:
        raise doc.error(path, f"expected_results is {value}, but the board has {tables} tables",
                        expected=f"at least {tables} (tables with an artificial score count)")
    return value


# --- YAML travellers -----------------------------------------------------------------------------------

def load_traveller(path: str | Path, *, rulebook: str | None = None, scoring: str | None = None,
                   text: str | None = None) -> Traveller:
    """Read and check a YAML traveller; an adjustments file naming a PBN (``pbn:``) is read
    with its PBN. `rulebook` and `scoring` override the file's."""
    with _bulk():
        return _load_traveller(path, rulebook=rulebook, scoring=scoring, text=text)


def _load_traveller(path: str | Path, *, rulebook: str | None, scoring: str | None, text: str | None) -> Traveller:
    doc = load_yaml(path, text=text)
    if "pbn" in doc.tree:
        model = doc.validate(AdjustmentsModel)
        if Path(model.pbn).name != model.pbn or model.pbn in (".", "..") or len(model.pbn) > 255:
            raise doc.error(["pbn"], "pbn: names a PBN file beside the adjustments file, not a path",
                            expected="a file name such as board-09.pbn in the same folder")
        pbn_path = Path(doc.file).parent / model.pbn
        if not pbn_path.is_file():
            raise doc.error(["pbn"], f"no such PBN file: {pbn_path}")
        return _pbn_traveller(load_pbn(pbn_path), doc, model, rulebook=rulebook, board=None, scoring=scoring)
    m = doc.validate(TravellerModel)
    book = _book(rulebook, m.rulebook, doc, doc.file)
    scoring = scoring or m.scoring
    builder = _Builder(doc, book, scoring, m.board.vulnerability)
    lines: list[tuple[TableLine, Any]] = []
    for i, t in enumerate(m.tables):
        path = ["tables", i]
        kind = builder.kind_of(t, path)
        line = TableLine(t.table, t.ns, t.ew, kind)
        builder.fill(line, t, kind, path)
        lines.append((line, lambda key, p=path: Where(doc.file, *doc.position(p + [key]))))
    _check_numbers(lines, m.pair_numbers)
    expected = _expected(doc, m.expected_results, len(lines), ["expected_results"])
    return Traveller(m.title, m.source, m.board.number, m.board.vulnerability, scoring, book,
                     [line for line, _ in lines], expected, doc.file, m.notes)


# --- PBN travellers ------------------------------------------------------------------------------------

VULNERABLE = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}


def load_pbn_traveller(path: str | Path, *, adjustments: str | Path | None = None, board: int | None = None,
                       rulebook: str | None = None, scoring: str | None = None, text: str | None = None,
                       adjustments_text: str | None = None) -> Traveller:
    """Read one board of a PBN file (its ScoreTable) with the adjustments YAML, if any (a
    ``pbn:`` key in it is not read: the PBN given here is the one scored). With `text` (and
    `adjustments_text`) the files are not read: `path` and `adjustments` only name them in messages."""
    with _bulk():
        pbn = load_pbn(path) if text is None else parse_pbn(text, str(path))
        doc = model = None
        if adjustments is not None:
            doc = load_yaml(adjustments, text=adjustments_text)
            model = doc.validate(AdjustmentsModel)
        return _pbn_traveller(pbn, doc, model, rulebook=rulebook, board=board, scoring=scoring)


def _pbn_traveller(pbn: PbnFile, doc: Document | None, model: AdjustmentsModel | None, *,
                   rulebook: str | None, board: int | None, scoring: str | None) -> Traveller:
    game = _game(pbn, board if board is not None else (model.board if model else None), doc)
    board_tag = game.tag("Board")
    number = None
    if board_tag is not None and board_tag.value.strip().isdigit():
        number = int(board_tag.value)
    vul_tag = game.tag("Vulnerable")
    vulnerability = VULNERABLE.get(vul_tag.value.strip().lower()) if vul_tag is not None else None
    if vul_tag is not None and vulnerability is None:
        raise pbn.error(vul_tag, f"Vulnerable \"{vul_tag.value}\" is not a vulnerability",
                        expected="None, NS, EW or All (also Love, -, Both)")
    scoring = scoring or (model.scoring if model else "matchpoints")
    if rulebook is None and (model is None or model.rulebook is None):
        where = doc.error([], "") if doc is not None else BridgelawError("", file=pbn.file)
        raise BridgelawError("no rulebook for the PBN board", file=where.file, line=where.line, column=where.column,
                             expected="--rulebook ID, or rulebook: <id> in the adjustments file",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    book = _book(rulebook, model.rulebook if model else None, doc, pbn.file)
    table = game.score_table
    names = {c.name.lower() for c in table.columns}
    has_contract = "contract" in names
    if not has_contract and not names & {"score_ns", "score_ew", "score"}:
        raise pbn.error(table.header, "the ScoreTable has neither a Contract nor a Score column",
                        expected="Contract, Declarer and Result columns, or Score_NS/Score_EW")
    if has_contract and vulnerability is None:
        raise pbn.error(board_tag or table.header, "the game has no Vulnerable tag, needed to score its contracts",
                        expected='[Vulnerable "None"] (or NS, EW, All)')
    builder = _Builder(doc, book, scoring, vulnerability or "None")
    rows: list[tuple[TableLine, Row]] = []
    by_table: dict[int, int] = {}
    table_col = table.index("Table")
    for k, row in enumerate(table.rows):
        if len(row.tokens) != len(table.columns):
            _row_mismatch(pbn, table, row)
        line = _row_line(pbn, table, row, k, vulnerability or "None")
        if line.table not in by_table:
            by_table[line.table] = k
        rows.append((line, row))
    if not rows:
        raise pbn.error(table.header, "the ScoreTable has no rows", expected="one row per table")
    pair_numbers = model.pair_numbers if model else "by-direction"
    _check_numbers([(line, _row_where(pbn, table, row)) for line, row in rows], pair_numbers)
    adjusted: set[int] = set()
    for i, adj in enumerate(model.tables if model else []):
        path = ["tables", i]
        if adj.table not in by_table:
            raise doc.error(path + ["table"], f"board {number if number is not None else '?'} of {pbn.file} has no "
                            f"table {adj.table}", expected="a table of the ScoreTable: " + ", ".join(
                                str(line.table) for line, _ in rows[:20]),
                            suggestion=None if table_col is not None else "the ScoreTable has no Table column; "
                            "its rows are numbered 1, 2, … in order")
        if adj.table in adjusted:
            raise doc.error(path + ["table"], f"table {adj.table} is adjusted twice", expected="each table once")
        adjusted.add(adj.table)
        kind = builder.kind_of(adj, path)
        line = rows[by_table[adj.table]][0]
        builder.fill(line, adj, kind, path)
    for line, row in rows:
        if line.kind == "none":
            raise pbn.error(row.tokens[0] if row.tokens else Token("", "", row.index + 1, 1),
                            f"table {line.table} has no result", expected="a contract and result, or a score",
                            suggestion="give it an adjusted or artificial score in the adjustments file")
    expected = _expected(doc, model.expected_results if model else None, len(rows), ["expected_results"])
    title = (model.title if model and model.title else None) or _pbn_title(game, number)
    return Traveller(title, model.source if model else None, number, vulnerability or "None", scoring, book,
                     [line for line, _ in rows], expected, pbn.file, model.notes if model else None,
                     pbn=pbn, game=game, adjustments_file=doc.file if doc else None)


def _pbn_title(game: Game, number: int | None) -> str:
    event = game.tag("Event")
    board = f"Board {number}" if number is not None else "Board"
    return f"{event.value} — {board}" if event is not None and event.value.strip() not in ("", "?", "#") else board


def _game(pbn: PbnFile, board: int | None, doc: Document | None) -> Game:
    games = [g for g in pbn.games if g.score_table is not None]
    if not games:
        raise BridgelawError("the PBN file has no ScoreTable (no traveller to score)", file=pbn.file,
                             expected='a game with [ScoreTable "…"] and its rows')
    numbers = {}
    for g in games:
        tag = g.tag("Board")
        numbers[id(g)] = int(tag.value) if tag is not None and tag.value.strip().isdigit() else None
    if board is None:
        if len(games) > 1:
            raise BridgelawError(f"the PBN file has {len(games)} boards with a ScoreTable; say which",
                                 file=pbn.file, expected="--board N, or board: N in the adjustments file",
                                 suggestion="boards: " + ", ".join(str(numbers[id(g)]) for g in games))
        return games[0]
    chosen = [g for g in games if numbers[id(g)] == board]
    if not chosen:
        message = f"the PBN file has no board {board} with a ScoreTable"
        kw = dict(expected="one of " + ", ".join(str(numbers[id(g)]) for g in games))
        if doc is not None and "board" in doc.tree:
            raise doc.error(["board"], message, **kw)
        raise BridgelawError(message, file=pbn.file, **kw)
    return chosen[0]


def _row_mismatch(pbn: PbnFile, table, row: Row) -> None:
    n, want = len(row.tokens), len(table.columns)
    header = ", ".join(table.names)
    if n > want:
        token = row.tokens[want]
        raise pbn.error(token, f"ScoreTable row has {n} values for {want} columns; '{token.value}' is one too many",
                        expected=f"{want} values: {header}", suggestion="quote a value that contains spaces")
    line_text = pbn.lines[row.index].rstrip("\r\n")
    raise BridgelawError(f"ScoreTable row has {n} values for {want} columns; {table.columns[n].name} is missing",
                         file=pbn.file, line=row.index + 1, column=len(line_text) + 1,
                         expected=f"{want} values: {header}", suggestion="write - for a column without a value")


def _row_where(pbn: PbnFile, table, row: Row):
    def where(key: str) -> Where:
        name = {"table": "Table", "ns": "PairId_NS", "ew": "PairId_EW"}[key]
        token = row.value(table, name) or row.tokens[0]
        return Where(pbn.file, token.line, token.column)
    return where


def _row_line(pbn: PbnFile, table, row: Row, k: int, vulnerability: str) -> TableLine:
    def get(name: str) -> Token | None:
        token = row.value(table, name)
        return None if token is None or token.empty else token

    number = k + 1
    table_token = get("Table")
    if table_token is not None:
        if not table_token.value.isdigit() or int(table_token.value) < 1:
            raise pbn.error(table_token, f"Table '{table_token.value}' is not a table number", expected="1, 2, …")
        number = int(table_token.value)
    multiplicity = get("Multiplicity")
    if multiplicity is not None and multiplicity.value != "1":
        raise pbn.error(multiplicity, "rows standing for several tables (Multiplicity) are not supported",
                        expected="one row per table")
    ns, ew = get("PairId_NS"), get("PairId_EW")
    line = TableLine(number, ns.value if ns else None, ew.value if ew else None, "none")
    result, points = _row_result(pbn, row, get, vulnerability)
    if result is not None:
        line.kind, line.result, line.points = "result", result, points
    return line


def _row_result(pbn: PbnFile, row: Row, get, vulnerability: str) -> tuple[Any, int | None]:
    contract, declarer, tricks = get("Contract"), get("Declarer"), get("Result")
    played = None
    if contract is not None:
        text = contract.value.strip()
        if text.lower() in ("pass", "passed", "p"):
            played = bridge.PlayedResult(None, None, 0)
        else:
            if declarer is None or tricks is None:
                missing = "Declarer" if declarer is None else "Result"
                raise pbn.error(contract, f"contract {text} has no {missing}",
                                expected="a declarer (N, E, S, W) and the tricks taken by declarer")
            if not tricks.value.isdigit() or int(tricks.value) > 13:
                raise pbn.error(tricks, f"Result '{tricks.value}' is not a number of tricks", expected="0 to 13")
            try:
                c = bridge.parse_result(f"{text}= {declarer.value.strip().upper()}")
                played = bridge.PlayedResult(c.contract, c.declarer, int(tricks.value))
            except bridge.NotationError as exc:
                token = contract if "declarer" not in exc.message else declarer
                raise pbn.error(token, f"'{text}' by '{declarer.value}' making {tricks.value}: {exc.message}",
                                expected="a contract such as 4SX and a declarer N, E, S or W") from None
    score = None
    score_token = None
    for name, sign in (("Score_NS", 1), ("Score_EW", -1), ("Score", 0)):
        token = get(name)
        if token is None:
            continue
        text = token.value.strip()
        try:
            if sign == 0:
                parsed = bridge.parse_result(text)
                if not isinstance(parsed, bridge.Score):
                    raise bridge.NotationError("not a score")
                value = parsed.ns
            else:
                value = sign * int(text)
        except (ValueError, bridge.NotationError):
            raise pbn.error(token, f"{name} '{text}' is not a score", expected="points such as 420 or -50"
                            + (", or NS 420" if sign == 0 else "")) from None
        if score is not None and score != value:
            raise pbn.error(token, f"{name} says {value:+d} for NS, but {score_token[0]} says {score:+d}")
        score, score_token = value, (name, token)
    if played is not None:
        points = bridge.ns_score(played, vulnerability)
        if score is not None and score != points:
            name, token = score_token
            raise pbn.error(token, f"{name} gives NS {score:+d}, but {played.text} scores NS {points:+d} "
                            f"(vulnerability {vulnerability})", expected="the score of the contract and result")
        return played, points
    if score is not None:
        return bridge.Score(score), score
    return None, None


# --- scoring -------------------------------------------------------------------------------------------

@dataclass
class SideScore:
    value: Fraction | None               # MP or IMPs; None: not scored
    percent: Fraction | None = None      # matchpoints only
    steps: list[str] = field(default_factory=list)


@dataclass
class ScoredTable:
    line: TableLine
    NS: SideScore
    EW: SideScore

    def side(self, side: Side) -> SideScore:
        return self.NS if side == "NS" else self.EW


@dataclass
class ScoredBoard:
    traveller: Traveller
    unit: str                             # "MP" or "IMP"
    tables: list[ScoredTable]
    results: int                          # A: tables with a result (adjusted count once)
    expected: int                         # E
    top: Fraction | None                  # matchpoints
    factored: bool
    parameters: dict[str, tuple[Any, str]]   # name → (value, "rulebook")
    frequencies: dict[Side, list[tuple[int, Fraction]]]
    datum: dict[Side, Fraction | None] = field(default_factory=dict)
    mean: dict[Side, Fraction | None] = field(default_factory=dict)
    dropped: int = 0
    divisor: int | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def balanced(self) -> bool:
        return not any(t.line.split for t in self.tables)


USED = {
    "matchpoints": ("fieldscore.neuberg.form", "fieldscore.neuberg.round_to"),
    "cross-imps": ("fieldscore.cross_imps.divisor",),
    "butler": ("fieldscore.butler.drop", "fieldscore.butler.round_datum_to"),
}


def score_traveller(trav: Traveller, *, explain: bool = True) -> ScoredBoard:
    """Score every table of the traveller in NS and EW, exactly; with `explain`, each adjusted
    and artificial table also gets its arithmetic as text (``steps``)."""
    with _bulk():
        return _score_traveller(trav, explain)


def _score_traveller(trav: Traveller, explain: bool) -> ScoredBoard:
    missing = [name for name in USED[trav.scoring] if name not in trav.book.parameters]
    if missing:
        raise BridgelawError(f"rulebook {trav.book.id} does not set {', '.join(missing)}, which {trav.scoring} needs",
                             expected="these parameters in the rulebook (see `bridgelaw explain --rulebook ID`)")
    params = {name: (trav.book.parameters[name], "rulebook") for name in USED[trav.scoring]}
    p = {name: v for name, (v, _) in params.items()}
    entries = {side: [line.entry(side) for line in trav.tables] for side in SIDES}
    values: dict[Side, list[Fraction | None]] = {}
    board = ScoredBoard(trav, "MP" if trav.scoring == "matchpoints" else "IMP", [], 0, trav.expected_results,
                        None, False, params, {})
    fields: dict[Side, fieldscore.Field] = {}
    for side in SIDES:
        if trav.scoring == "matchpoints":
            r = fieldscore.matchpoints(entries[side], expected=trav.expected_results,
                                       form=p["fieldscore.neuberg.form"], round_to=p["fieldscore.neuberg.round_to"])
            values[side], fields[side] = r.values, r.field
            board.top, board.factored, board.results = r.top, r.factored, r.results
        elif trav.scoring == "cross-imps":
            vals, f, by = fieldscore.cross_imps(entries[side], divisor=p["fieldscore.cross_imps.divisor"])
            values[side], fields[side], board.divisor, board.results = vals, f, by, f.results
        else:
            r = fieldscore.butler(entries[side], drop=int(p["fieldscore.butler.drop"]),
                                  round_datum_to=p["fieldscore.butler.round_datum_to"])
            values[side], fields[side], board.results = r.values, r.field, r.field.results
            board.datum[side], board.mean[side], board.dropped = r.datum, r.mean, r.dropped
        board.frequencies[side] = fields[side].frequencies()
    top = board.top
    top_ok = board.unit == "MP" and top is not None and top > 0
    percents: dict[int, Fraction] = {}       # by id: equal plain results share one Fraction object

    def percent(v: Fraction | None) -> Fraction | None:
        if v is None or not top_ok:
            return None
        pc = percents.get(id(v))
        if pc is None:
            pc = percents[id(v)] = 100 * v / top
        return pc

    for k, line in enumerate(trav.tables):
        sides = {}
        for side in SIDES:
            v = values[side][k]
            steps: list[str] = []
            if line.kind == "artificial":
                a = line.artificial[side]
                if a.value is None:
                    v = None
                elif trav.scoring == "matchpoints":
                    v = a.value * top
                else:
                    v = Fraction(a.value)
                if explain:
                    steps = _artificial_steps(a, side, v, top, trav.scoring)
            elif explain and line.kind in ("adjusted", "split"):
                steps = _adjusted_steps(board, fields[side], line, side, v)
            sides[side] = SideScore(v, percent(v), steps)
        board.tables.append(ScoredTable(line, sides["NS"], sides["EW"]))
    if board.results == 0:
        board.warnings.append("no table has a result: only artificial scores")
    return board


def _artificial_steps(a: Any, side: Side, v: Fraction | None, top: Fraction | None, scoring: str) -> list[str]:
    steps = [f"{side}: {a.label} (rule {a.rule})"]
    steps += [f"  {s}" for s in getattr(a, "steps", ()) or ()]
    if v is None:
        steps.append(f"  {side}: board not scored")
    elif scoring == "matchpoints":
        steps.append(f"  {side} = {format_mixed(a.value)} × top {format_mixed(top)} = {format_mixed(v)} MP")
    return steps


def _adjusted_steps(board: ScoredBoard, f: fieldscore.Field, line: TableLine, side: Side, v: Fraction | None) -> list[str]:
    trav = board.traveller
    sign = 1 if side == "NS" else -1
    entry = [(sign * p.points, p.weight) for p in line.parts[side]]
    unit = board.unit
    weighting = "its own weighting" if line.split else "the weighting"
    steps = [f"{side} ({weighting}, rule {line.expectation.get(side, '?')}):"]
    for p in line.excluded.get(side, []):
        steps.append(f"  excluded, not achievable in a legal manner: {p.outcome.text} (weight {format_mixed(p.weight)})")
    if trav.scoring == "matchpoints":
        each = fieldscore.matchpoints_as_if(f, entry)
        how = "as if obtained against the other tables"
    elif trav.scoring == "cross-imps":
        each = [x / board.divisor for x in fieldscore.cross_imps_as_if(f, entry)]
        how = "IMPs against every other table" + (f", ÷ {board.divisor}" if board.divisor != 1 else "")
    else:
        datum = board.datum[side]
        each = [Fraction(fieldscore.imps_exact(pts - datum)) for pts, _ in entry]
        how = f"IMP(score − datum {format_mixed(datum)})"
    total = Fraction(0)
    for p, (pts, w), x in zip(line.parts[side], entry, each):
        label = p.outcome.text if isinstance(p.outcome, bridge.Score) and side == "NS" else f"{p.outcome.text} ({side} {pts:+d})"
        steps.append(f"  {format_mixed(w)} × {label}: {format_mixed(x, signed=unit == 'IMP')} {unit}")
        total += w * x
    terms = " + ".join(f"{format_mixed(w)} × {_paren(x)}" for (_, w), x in zip(entry, each))
    steps.append(f"  {side} = {terms} = {format_mixed(total, signed=unit == 'IMP')} {unit} ({how})")
    if board.factored and v is not None and v != total:
        r, e = board.results, board.expected
        steps.append(f"  factored (Neuberg): ({format_mixed(total)} + 1) × {e} / {r} − 1"
                     + (f", rounded to {format_mixed(board.parameters['fieldscore.neuberg.round_to'][0])}"
                        if board.parameters["fieldscore.neuberg.round_to"][0] else "")
                     + f" = {format_mixed(v)} MP")
    return steps


def _paren(x: Fraction) -> str:
    text = format_mixed(x)
    return f"({text})" if x < 0 else text


# --- published figures -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PublishedCheck:
    table: int
    side: Side
    published: Published
    computed: Fraction | None
    agrees: bool
    why: str | None


def published_checks(board: ScoredBoard) -> list[PublishedCheck]:
    """Each published figure against the computed score, rounded as the source printed it
    (12.1 is checked to one decimal, 8 1/2 exactly)."""
    checks = []
    for t in board.tables:
        for side, pub in t.line.published.items():
            value = t.side(side).value
            if value is None:
                agrees = False
            elif "/" in pub.text:
                agrees = value == pub.value
            else:
                agrees = Fraction(format_decimal(value, pub.places)) == pub.value
            checks.append(PublishedCheck(t.line.table, side, pub, value, agrees, t.line.published_why))
    return checks
