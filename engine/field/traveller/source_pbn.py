"""PBN travellers: one board's ScoreTable, with a YAML file naming its adjusted tables.

The ScoreTable's header names its columns; a row's result comes from Contract, Declarer and
Result, or from Score_NS / Score_EW / Score (which must agree when both are given). Rows are
tables 1, 2, … in order when there is no Table column. The adjustments file's tables are ruled
by :mod:`.adjust`, like a YAML traveller's.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from ...core import bridge
from ... import rulebook as rulebooks
from ...core.vocab import VULNERABILITY_WORDS
from ...ruling.caseschema import Board
from ...ruling.artificial import ArtificialScore, artificial_scores
from ...core.errors import BridgelawError
from ..events.model import code_text, read_codes
from ..events.pbn_in import read_row_result
from ..pbn import Game, PbnFile, Row, Token, load_pbn, parse_pbn
from ...core.yamlio import Document, load_yaml
from .adjust import TableReader
from .common import WhatIf, bulk, check_numbers, choose_book, day_of, expected_results
from .model import AdjustmentsModel, TableLine, Traveller, Where

__all__ = ["load_pbn_traveller", "pbn_traveller"]


def load_pbn_traveller(path: str | Path, *, adjustments: str | Path | None = None, board: int | None = None,
                       rulebook: str | None = None, scoring: str | None = None, text: str | None = None,
                       adjustments_text: str | None = None, as_of: dt.date | None = None,
                       what_if: WhatIf | None = None) -> Traveller:
    """Read one board of a PBN file (its ScoreTable) with the adjustments YAML, if any (a
    ``pbn:`` key in it is not read: the PBN given here is the one scored). With `text` (and
    `adjustments_text`) the files are not read: `path` and `adjustments` only name them in messages.
    `as_of` and `what_if` as for :func:`.load.load_traveller`."""
    with bulk():
        pbn = load_pbn(path) if text is None else parse_pbn(text, str(path))
        doc = model = None
        if adjustments is not None:
            doc = load_yaml(adjustments, text=adjustments_text)
            model = doc.validate(AdjustmentsModel)
        return pbn_traveller(pbn, doc, model, rulebook=rulebook, board=board, scoring=scoring, as_of=as_of,
                             what_if=what_if)


def pbn_traveller(pbn: PbnFile, doc: Document | None, model: AdjustmentsModel | None, *,
                  rulebook: str | None, board: int | None, scoring: str | None, as_of: dt.date | None = None,
                  what_if: WhatIf | None = None) -> Traveller:
    game = _game(pbn, board if board is not None else (model.board if model else None), doc)
    board_tag = game.tag("Board")
    number = None
    if board_tag is not None and board_tag.value.strip().isdigit():
        number = int(board_tag.value)
    vul_tag = game.tag("Vulnerable")
    vulnerability = VULNERABILITY_WORDS.get(vul_tag.value.strip().lower()) if vul_tag is not None else None
    if vul_tag is not None and vulnerability is None:
        raise pbn.error(vul_tag, f"Vulnerable \"{vul_tag.value}\" is not a vulnerability",
                        expected="None, NS, EW or All (also Love, -, Both)")
    scoring = scoring or (model.scoring if model else "matchpoints")
    if rulebook is None and (model is None or model.rulebook is None):
        where = doc.error([], "") if doc is not None else BridgelawError("", file=pbn.file)
        raise BridgelawError("no rulebook for the PBN board", file=where.file, line=where.line, column=where.column,
                             expected="--rulebook ID, or rulebook: <id> in the adjustments file",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    book = choose_book(rulebook, model.rulebook if model else None, doc, pbn.file, what_if)
    date = model.date if model else None
    day = day_of(book, as_of, date, doc)
    table = game.score_table
    names = {c.name.lower() for c in table.columns}
    has_contract = "contract" in names
    if not has_contract and not names & {"score_ns", "score_ew", "score"}:
        raise pbn.error(table.header, "the ScoreTable has neither a Contract nor a Score column",
                        expected="Contract, Declarer and Result columns, or Score_NS/Score_EW")
    if has_contract and vulnerability is None:
        raise pbn.error(board_tag or table.header, "the game has no Vulnerable tag, needed to score its contracts",
                        expected='[Vulnerable "None"] (or NS, EW, All)')
    warnings: list[str] = []
    reader = TableReader(doc, book, scoring, Board(number=number, vulnerability=vulnerability or "None"), day, warnings)
    rows: list[tuple[TableLine, Row]] = []
    by_table: dict[int, int] = {}
    table_col = table.index("Table")
    for k, row in enumerate(table.rows):
        if len(row.tokens) != len(table.columns):
            _row_mismatch(pbn, table, row)
        line = _row_line(pbn, table, row, k, vulnerability or "None")
        if line.kind == "artificial-code":
            values, code = line.artificial, line.note
            line.artificial, line.note = None, None
            try:
                _artificial(reader, line, values, code)
            except BridgelawError as exc:
                if exc.file is not None:
                    raise
                token = row.value(table, "Score_NS") or row.value(table, "Score_EW") or row.value(table, "Score")
                raise pbn.error(token, exc.message, expected=exc.expected, suggestion=exc.suggestion) from None
        if line.table not in by_table:
            by_table[line.table] = k
        rows.append((line, row))
    if not rows:
        raise pbn.error(table.header, "the ScoreTable has no rows", expected="one row per table")
    pair_numbers = model.pair_numbers if model else "by-direction"
    check_numbers([(line, _row_where(pbn, table, row)) for line, row in rows], pair_numbers)
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
        kind = reader.kind_of(adj, path)
        line = rows[by_table[adj.table]][0]
        reader.fill(line, adj, kind, path)
    for line, row in rows:
        if line.kind == "none":
            raise pbn.error(row.tokens[0] if row.tokens else Token("", "", row.index + 1, 1),
                            f"table {line.table} has no result", expected="a contract and result, or a score",
                            suggestion="give it an adjusted or artificial score in the adjustments file")
    expected = expected_results(doc, model.expected_results if model else None, len(rows), ["expected_results"])
    title = (model.title if model and model.title else None) or _pbn_title(game, number)
    return Traveller(title, model.source if model else None, number, vulnerability or "None", scoring, reader.dated,
                     [line for line, _ in rows], expected, pbn.file, model.notes if model else None,
                     pbn=pbn, game=game, adjustments_file=doc.file if doc else None, date=date, as_of=as_of or date, warnings=warnings)


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
    result, points = _row_result(pbn, get, vulnerability, line)
    if result is not None and line.kind == "none":
        line.kind, line.result, line.points = "result", result, points
    elif result is not None:
        line.result, line.points = result, points          # kept beside the artificial score, as events do
    return line


def _artificial(reader: TableReader, line: TableLine, values: dict[str, Any], code: str) -> None:
    """A row's artificial code (read by the events' one parser, events.model.read_codes): words by
    responsibility go through the rulebook's artificial stage; an explicit percentage (A60, A6040)
    is that share of the top (at IMPs: that many IMPs) as the file gives it."""
    words = {s: v for s, v in values.items() if isinstance(v, str)}
    if words and len(words) == 2:
        line.responsibility, line.artificial_words = reader.responsibilities(words)
        line.artificial = artificial_scores(reader.dated, scoring=reader.unit_scoring,
                                            responsibility=line.responsibility)
    elif not words:
        line.responsibility = {s: "as-written" for s in values}
        line.artificial_words = {s: code_text(values[s]) for s in values}
        line.artificial = {s: ArtificialScore(s, "as-written", values[s], code_text(values[s]), "file",
                                              f"'{code}' in the score column") for s in values}
    else:
        raise BridgelawError(f"'{code}': one side has an artificial score by responsibility and the other an "
                             "explicit percentage", expected="both sides the same kind")
    line.kind = "artificial"
    line.note = line.note or f"'{code}' in the score column"


def _row_result(pbn: PbnFile, get, vulnerability: str, line: TableLine) -> tuple[Any, int | None]:
    """The row's result and NS points, read by the events' one row reader (read_row_result); a
    row the board has no result for (Bye, NP) is refused: bridgelaw event keeps such lines."""
    r = read_row_result(pbn, get)
    if r.contract_code is not None:
        _not_played(pbn, r.contract_code[1], r.contract_code[0])
    if r.codes:
        reading = read_codes(r.codes)
        if reading.kind == "not-played":
            _not_played(pbn, get("Score_NS") or get("Score_EW") or get("Score"), reading.text)
        line.kind, line.artificial, line.note = "artificial-code", reading.values, reading.text
        if r.played is not None:
            return r.played, bridge.ns_score(r.played, vulnerability)
        return None, None
    if r.played is not None:
        return r.played, r.points(vulnerability)
    if r.score is not None:
        return bridge.Score(r.score), r.score
    return None, None


def _not_played(pbn: PbnFile, token: Token, text: str) -> None:
    raise pbn.error(token, f"'{text}': this table did not play the board",
                    expected="a result, a score or an artificial code such as A+ or A6040",
                    suggestion="leave the row out of the board's traveller, or read the whole file with "
                    "bridgelaw event, which keeps not-played lines out of the field")
