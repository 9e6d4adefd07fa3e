"""A PBN results file as the field model: every game with a ``ScoreTable`` is a board of the one
session the file holds (``bridgelaw event``), and one of them a traveller (``bridgelaw score``).
Columns read
(case-insensitive; any order; unknown columns are kept for writing back):

* ``Section``, ``Table``, ``Round``, ``PairId_NS``, ``PairId_EW`` — who played where; a table
  number repeats across sections, never within one;
* ``Contract``, ``Declarer``, ``Result`` (tricks) and/or ``Score_NS``, ``Score_EW``, ``Score``
  (``NS 420``) — the result; a score cell may hold ``PASS`` or an artificial code (``A+``,
  ``A=``, ``A-``, ``A60``, ``A6040``, ``%60``, ``Bye``, ``NP``: see :func:`.cells.parse_code`);
* ``MP_NS``/``MP_EW``, ``IMP_NS``/``IMP_EW``, ``Percentage_NS``/``Percentage_EW`` — published
  figures, compared at their printed precision;
* ``Adjustment`` — written by ``bridgelaw event``: the adjusted score a ruling gave this line,
  so that re-reading the file scores it the same without the rulings file.

A ``TotalScoreTable`` (``PairId``, ``Direction``, ``TotalScoreMP``/``TotalScoreIMP``,
``TotalPercentage``, ``Names``) gives the contestants and their published totals.

A row with no result (an empty score) is read as a line without one, which a ruling (a rulings or
an adjustments file) must give a score: :func:`.model.require_results` reports any left.
Every cell's number or code is read by :mod:`.cells`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core import bridge
from ..core.errors import BridgelawError
from ..core.vocab import vulnerability as vulnerability_word
from . import adjustment_cell
from ..core.limits import RAW_SCORE_MAX
from .cells import (MAX_BOARD, MAX_ID, MAX_TABLE, Where, identifier, parse_code, published, raw_score, read_codes,
                    tricks, whole_number)
from .model import Board, Contestant, Event, Line, Program, Session, check_board, contestant_key, guess_pair_numbers, played_on
from .pbn_file import Game, PbnFile, Row, ScoreTable, Token, check_row, decode_pbn, load_pbn, parse_pbn


def scoring_from_tag(text: str) -> str | None:
    t = text.lower().replace("-", "").replace("_", "").replace(" ", "")
    if "butler" in t:
        return "butler"
    if "crossimp" in t or "crossimps" in t or ("imp" in t and "cross" in t):
        return "cross-imps"            # Cross-IMPs; Ruter's "IMP;Cross" and "IMP;Cross2"
    if t.startswith("matchpoint") or t.startswith("mp") or "matchpoints" in t:
        return "matchpoints"
    return None


def load_event_pbn(path: str | Path, *, text: str | None = None, data: bytes | None = None,
                   scoring: str | None = None) -> Event:
    """Read a PBN event from `path`, or from `text` / `data` (bytes, decoded as PBN says) with
    `path` only naming it in messages."""
    if data is not None:
        text, encoding = decode_pbn(data)
        pbn = parse_pbn(text, str(path), encoding)
    else:
        pbn = load_pbn(path) if text is None else parse_pbn(text, str(path))
    return read_pbn(pbn, scoring=scoring)


def read_pbn(pbn: PbnFile, *, scoring: str | None = None, default: str | None = None) -> Event:
    """The file's one session: scored by `scoring` (``--scoring``), else as its Scoring tag or its
    columns say, else by `default` (a traveller's: matchpoints), else it is an error."""
    games = [g for g in pbn.games if g.score_table is not None]
    if not games:
        raise BridgelawError("the PBN file has no ScoreTable (no results to read)", file=pbn.file,
                             expected='games with [ScoreTable "…"] and their rows')
    session = Session(name="", scoring=scoring, where=Where(pbn.file, 1, 1))
    title = ""
    event_tag = None
    tag_scoring = None
    for g in pbn.games:
        t = g.tag("Event")
        if t is not None and t.value.strip() not in ("", "#", "?"):
            event_tag = event_tag or t.value.strip()
        s = g.tag("Scoring")
        if s is not None and s.value.strip() not in ("", "#") and tag_scoring is None:
            tag_scoring = scoring_from_tag(s.value)
            # PBN 2.1: MP1 = 2 matchpoints per result beaten, MP2 = 1 per result beaten
            if "mp2" in s.value.lower().replace(" ", ""):
                session.mp_unit = Fraction(1, 2)
        if event_tag is not None and tag_scoring is not None:
            break                           # the first of each is taken
    title = event_tag or Path(pbn.file).stem
    session.name = title
    for g in games:
        tag = g.tag("Date")
        if tag is not None and (d := played_on(tag.value, _where(pbn, tag))) is not None:
            session.date = d
            break
    previous: dict[str, str] = {}
    for g in games:
        board = _board(pbn, g, previous)
        if board.number in session.boards:
            first = session.boards[board.number].where
            raise board.where.error(f"board {board.number} appears twice (first at line {first.line})",
                                    expected="one game per board in a session")
        session.boards[board.number] = board
    if session.scoring is None:
        session.scoring = tag_scoring or _scoring_from_columns(games) or default
    if session.scoring is None:
        raise BridgelawError("the file does not say how it is scored", file=pbn.file, line=games[0].first_line,
                             expected="[Scoring \"MatchPoints\"] (or Butler, Cross-IMPs) in the file, or --scoring")
    lines = [line for b in session.boards.values() for line in b.lines]
    contestants, numbering = _contestants(pbn)
    session.individual = any(line.players for line in lines)
    session.pair_numbers = "unique" if session.individual else numbering or guess_pair_numbers(lines)
    for c in contestants.values():
        c.key = contestant_key(c.section, c.direction, c.number, session.pair_numbers)
        session.contestants[c.key] = c
    for board in session.boards.values():
        check_board(board, session, _cell, f"board {board.number}: ")
    notes = adjustment_cell.file_notes(line for line in pbn.lines[:60] if line.startswith("%"))
    if "ranking" in notes:                  # a file bridgelaw wrote from one that said (USEBIO WINNER_TYPE)
        session.ranking, session.ranking_from_file = notes["ranking"], True
    return Event(title=title, file=pbn.file, format="pbn", sessions=[session], source=pbn, program=program_of(pbn),
                 extra={"profile": notes["profile"]} if "profile" in notes else {})


_META = re.compile(r'^%\s*<META\s+name\s*=\s*"?(?P<name>[A-Za-z]+)"?\s+content\s*=\s*"(?P<value>[^"]{0,80})"', re.I)
_CREATOR = re.compile(r"^%\s*(?:Creator|Generator|Application)\s*:\s*(?P<value>.{1,80}?)\s*$", re.I)
_VERSION = re.compile(r"^(?P<name>.*?)\s+(?:Version\s+|v)?(?P<version>[0-9][\w.\-]*)$")


def program_of(pbn: PbnFile) -> Program | None:
    """The program that wrote the file, as it says: a ``% <META name=Generator content=…>`` header
    (Magic Contest, with ``name=Version``), ``%Creator: …`` (BridgeComposer, Bridgewebs) or a
    ``[Generator]``/``[Application]`` tag."""
    meta: dict[str, tuple[str, int]] = {}
    for k, raw in enumerate(pbn.lines[:60]):
        line = raw.strip()
        if not line.startswith("%"):
            if line.startswith("["):
                break
            continue
        m = _META.match(line)
        if m:
            meta.setdefault(m["name"].lower(), (m["value"].strip(), k + 1))
            continue
        m = _CREATOR.match(line)
        if m and "creator" not in meta:
            meta["creator"] = (m["value"], k + 1)
    found = meta.get("generator") or meta.get("creator")
    if found is None:
        for g in pbn.games[:3]:
            for name in ("Generator", "Application"):
                tag = g.tag(name)
                if tag is not None and tag.value.strip():
                    found = (tag.value.strip()[:80], tag.line)
                    break
            if found:
                break
    if found is None:
        return None
    name, line = found
    version = meta["version"][0] if "version" in meta else ""
    if not version:
        m = _VERSION.match(name)
        if m and m["name"]:
            name, version = m["name"], m["version"]
    return Program(name, version, Where(pbn.file, line, 1))


def _cell(line: Line, key: str) -> Where:
    """The place of a line's cell (table, ns, ew, or a seat at an individual event)."""
    return line.extra.get("cells", {}).get(key, line.where)


def _tag_text(game: Game, name: str) -> str | None:
    tag = game.tag(name)
    return tag.value if tag is not None else None


def _scoring_from_columns(games: list[Game]) -> str | None:
    names = frozenset().union(*(_layout(g.score_table)[0] for g in games))
    if "mp_ns" in names or "mp_ew" in names or "percentage_ns" in names:
        return "matchpoints"
    return None


MATCH_COLUMNS = {"vp_home", "vp_away", "teamid_home", "teamid_away"}


def _refuse_match_results(pbn: PbnFile, table: ScoreTable, names: frozenset[str]) -> None:
    """A teams file of match results only (Ruter's: TeamId_Home/TeamId_Away, VP_Home/VP_Away, the
    TotalScoreTable's TotalScoreVP) is refused in one line that says what it lacks (`names`: the
    table's columns, lower case)."""
    if names & MATCH_COLUMNS and not names & {"contract", "score_ns", "score_ew", "score"}:
        raise pbn.error(table.header, "a teams file of match results only (TeamId_Home/TeamId_Away, "
                        "VP_Home/VP_Away): it has no board's result, so no ruling can be applied or scored",
                        expected="a results file with each board's ScoreTable (Contract, Declarer and Result, "
                        "or Score_NS/Score_EW)", suggestion="export the event with its boards' results")


def _board(pbn: PbnFile, g: Game, previous: dict[str, str]) -> Board:
    table = g.score_table
    names, positions, plan = _layout(table)
    _refuse_match_results(pbn, table, names)
    board_tag = g.tag("Board")
    if board_tag is None:
        raise pbn.error(table.header, "the game with this ScoreTable has no Board tag", expected='[Board "N"]')
    where = Where(pbn.file, board_tag.line, board_tag.column)
    number = whole_number(board_tag.value, where, "Board", MAX_BOARD)
    vul = None
    vul_tag = g.tag("Vulnerable")
    if vul_tag is not None:
        value = vul_tag.value.strip()
        if value == "#":
            value = previous.get("Vulnerable", "")
        vul = vulnerability_word(value)
        if vul is None:
            raise pbn.error(vul_tag, f"Vulnerable \"{vul_tag.value}\" is not a vulnerability",
                            expected="None, NS, EW or All (also Love, -, Both)")
        previous["Vulnerable"] = value
    board = Board(number, vul, [], where, extra={"game": g})
    _check_columns(pbn, table, names)
    individual = None                       # known from the first row on (its errors in the order they were)
    want = len(table.columns)
    lines = board.lines
    for row in table.rows:
        if len(row.values) != want:
            check_row(pbn, table, row)      # an error at the value too many or the line's end
        line = _plain_line(pbn, row, board, plan) if plan is not None else None
        if line is None:                    # anything but the common row: read cell by cell, each error at its cell
            line = _line(pbn, table, row, board, positions, individual)
        individual = line.players is not None
        lines.append(line)
    if not board.lines:
        raise pbn.error(table.header, f"board {number}'s ScoreTable has no rows", expected="one row per table")
    return board


def _check_columns(pbn: PbnFile, table: ScoreTable, names: frozenset[str]) -> None:
    if not names & {"contract", "score_ns", "score_ew", "score", "adjustment"}:
        raise pbn.error(table.header, "the ScoreTable has neither a Contract nor a Score column",
                        expected="Contract, Declarer and Result columns, or Score_NS/Score_EW")
    if not names & {"pairid_ns", "pairid_ew", "table"}:
        raise pbn.error(table.header, "the ScoreTable names neither tables nor pairs",
                        expected="a Table column, or PairId_NS and PairId_EW")


def _where(pbn: PbnFile, token: Token) -> Where:
    return Where(pbn.file, token.line, token.column)


_PUBLISHED = (("MP_NS", "NS"), ("MP_EW", "EW"), ("IMP_NS", "NS"), ("IMP_EW", "EW"),
              ("Percentage_NS", "NS%"), ("Percentage_EW", "EW%"))
_ROW_COLUMNS = ("Section", "Table", "PairId_NS", "PairId_EW", "PlayerId_North", "PlayerId_South", "PlayerId_East",
                "PlayerId_West", "Multiplicity", "Adjustment", "Contract", "Declarer", "Result", "Score_NS",
                "Score_EW", "Score", *(name for name, _ in _PUBLISHED))


def _positions(table: ScoreTable) -> dict[str, Any]:
    """The position of each column a row is read by (None: the table has no such column), looked up
    once a table rather than once a cell; under ``published``, the figures' columns the table has."""
    out: dict[str, Any] = {name: table.index(name) for name in _ROW_COLUMNS}
    out["published"] = [(name, key) for name, key in _PUBLISHED if out[name] is not None]
    return out


def _line(pbn: PbnFile, table: ScoreTable, row: Row, board: Board, positions: dict[str, Any] | None = None,
          individual: bool | None = None) -> Line:
    index = table.index
    tokens = row.tokens
    if positions is None:
        positions = _positions(table)

    def get(name: str) -> Token | None:
        k = positions[name] if name in positions else index(name)
        if k is None:
            return None
        token = tokens[k]
        return None if token.value in ("-", "") else token

    first = row.tokens[0] if row.tokens else Token("", "", row.index + 1, 1)
    section_tok, table_tok = get("Section"), get("Table")
    section = identifier(section_tok.value, _where(pbn, section_tok), "Section") if section_tok else ""
    table_at = _where(pbn, table_tok) if table_tok else None        # each cell's place made once (and kept)
    number = whole_number(table_tok.value, table_at, "Table", MAX_TABLE) if table_tok else None
    ns_tok, ew_tok = get("PairId_NS"), get("PairId_EW")
    ns_at = _where(pbn, ns_tok) if ns_tok else None
    ew_at = _where(pbn, ew_tok) if ew_tok else None
    ns = identifier(ns_tok.value, ns_at, "PairId_NS") if ns_tok else None
    ew = identifier(ew_tok.value, ew_at, "PairId_EW") if ew_tok else None
    players = None
    if individual is None:
        individual = _individual(pbn, table)
    if individual:                                           # an individual event: four players a line
        players = {}
        for seat, col in (("N", "PlayerId_North"), ("S", "PlayerId_South"), ("E", "PlayerId_East"),
                          ("W", "PlayerId_West")):
            tok = get(col)
            if tok is None:
                raise pbn.error(row.tokens[index(col)], f"{col} is empty", expected="the player's id")
            players[seat] = identifier(tok.value, _where(pbn, tok), col)
        ns, ew = f"{players['N']}-{players['S']}", f"{players['E']}-{players['W']}"
    multiplicity = get("Multiplicity")
    if multiplicity is not None and multiplicity.value.strip() != "1":
        raise pbn.error(multiplicity, "rows standing for several tables (Multiplicity) are not supported",
                        expected="one row per table (Multiplicity 1 or -)")
    line = Line(board.number, section, number, ns, ew, _where(pbn, first), extra={"row": row}, players=players)
    cells = {key: at for key, at in (("table", table_at), ("ns", ns_at), ("ew", ew_at)) if at is not None}
    if players:
        cells.update({seat: _where(pbn, get(col)) for seat, col in (("N", "PlayerId_North"), ("S", "PlayerId_South"),
                                                                   ("E", "PlayerId_East"), ("W", "PlayerId_West"))})
    line.extra["cells"] = cells
    for name, key in positions["published"]:
        token = get(name)
        if token is None:
            continue
        value = published(token.value)
        if value is None:
            raise pbn.error(token, f"{name} '{token.value[:30]}' is not a number", expected="a decimal such as 42.0 or -3.67")
        line.published[key] = value
    adj = get("Adjustment")
    if adj is not None:
        adjustment_cell.read(line, adj.value, _where(pbn, adj), board.vulnerability)
        if line.kind != "result":
            return line
    _result(pbn, line, get, board)
    return line


class _Cells(Mapping):
    """A row's table, ns and ew cells that have a value → their place, each Where made only when
    asked (an error): the mapping :func:`_line` keeps in ``line.extra["cells"]``. `keys`: the
    position of each such column the table has (shared by its rows), a cell taken when its row has
    a value there."""

    __slots__ = ("file", "row", "_keys")

    def __init__(self, file: str, row: Row, keys: dict[str, int]) -> None:
        self.file, self.row, self._keys = file, row, keys

    def __getitem__(self, key: str) -> Where:
        if key not in self:
            raise KeyError(key)
        token = self.row.tokens[self._keys[key]]
        return Where(self.file, token.line, token.column)

    def __iter__(self):
        values = self.row.values
        return (key for key, k in self._keys.items() if values[k] not in _EMPTY)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, key: object) -> bool:
        k = self._keys.get(key)
        return k is not None and self.row.values[k] not in _EMPTY

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default


_EMPTY = ("-", "")
_PLAYED: dict[tuple[str, str, str, str], tuple[bridge.PlayedResult, int]] = {}
_SCORES = {"Score_NS": "NS", "Score_EW": "EW", "Score": None}


_LAYOUTS: dict[str, tuple[frozenset[str], dict[str, Any], tuple | None]] = {}


def _layout(table: ScoreTable) -> tuple[frozenset[str], dict[str, Any], tuple | None]:
    """A table's column names (lower case), :func:`_positions` and :func:`_plan`, made once for each
    header (a file repeats one ScoreTable header, and its columns are read from the header's text
    alone: pbn_file._columns)."""
    hit = _LAYOUTS.get(table.header.value)
    if hit is None:
        positions = _positions(table)
        hit = frozenset(c.name.lower() for c in table.columns), positions, _plan(positions)
        if len(_LAYOUTS) < 1_000:
            _LAYOUTS[table.header.value] = hit
    return hit


def _plan(positions: dict[str, Any]) -> tuple | None:
    """How :func:`_plain_line` reads a table's rows (each column's position), or None for a table it
    leaves to :func:`_line` (an individual event's, or one with a Multiplicity column)."""
    if any(positions[c] is not None for c in SEAT_COLUMNS) or positions["Multiplicity"] is not None:
        return None
    cells = {key: positions[name] for key, name in (("table", "Table"), ("ns", "PairId_NS"), ("ew", "PairId_EW"))
             if positions[name] is not None}
    scores = tuple((positions[name], side) for name, side in _SCORES.items() if positions[name] is not None)
    published_at = tuple((positions[name], key) for name, key in positions["published"])
    return (positions["Section"], positions["Table"], positions["PairId_NS"], positions["PairId_EW"], cells,
            positions["Adjustment"], positions["Contract"], positions["Declarer"], positions["Result"], scores,
            published_at)


def _plain_line(pbn: PbnFile, row: Row, board: Board, plan: tuple) -> Line | None:
    """The common row read at once — a pairs line with plain ids, a table number, a contract and
    tricks or a score in points, published figures, no code or adjustment — as :func:`_line` reads
    it; None for any other row (read by :func:`_line`, which says any error at its cell)."""
    (k_section, k_table, k_ns, k_ew, cell_keys, k_adj, k_contract, k_declarer, k_result, scores,
     published_at) = plan
    values = row.values
    if k_adj is not None and values[k_adj] not in _EMPTY:
        return None
    section = _plain_id(values[k_section]) if k_section is not None else ""
    if section is None:
        return None
    number = None
    if k_table is not None:
        v = values[k_table]
        if v not in _EMPTY:
            if not (len(v) <= 5 and v.isdigit() and v.isascii()):
                return None
            number = int(v)
            if not 1 <= number <= MAX_TABLE:
                return None
    ns = _plain_id(values[k_ns]) if k_ns is not None else ""
    ew = _plain_id(values[k_ew]) if k_ew is not None else ""
    if ns is None or ew is None:
        return None
    ns, ew = ns or None, ew or None
    figures = {}
    for k, key in published_at:
        v = values[k]
        if v in _EMPTY:
            continue
        value = published(v)
        if value is None:
            return None
        figures[key] = value
    score = None
    for k, side in scores:
        v = values[k]
        if v in _EMPTY:
            continue
        if not (len(v) <= 6 and _SCORE.match(v)):
            return None                     # a code, NS 420, or a cell in error
        value = int(v)
        if abs(value) > RAW_SCORE_MAX or value % 10:
            return None
        if side == "EW":
            value = -value
        if score is not None and score != value:
            return None
        score = value
    played = points = None
    if k_contract is not None and values[k_contract] not in _EMPTY:
        vulnerability = board.vulnerability
        if vulnerability is None or k_declarer is None or k_result is None:
            return None
        key = (values[k_contract], values[k_declarer], values[k_result], vulnerability)
        hit = _PLAYED.get(key)
        if hit is None:
            hit = _played(*key)
            if hit is None:
                return None
        played, points = hit
        if score is not None and score != points:
            return None
    text = row._text
    if text is not None:                    # the first value's column, as its token has it
        column = len(text) - len(text.lstrip()) + 1
    else:
        column = row.tokens[0].column if row.tokens else 1
    line = Line(board.number, section, number, ns, ew, Where(pbn.file, row.index + 1, column),
                extra={"row": row, "cells": _Cells(pbn.file, row, cell_keys)}, published=figures)
    if played is not None:
        line.result, line.points = played, points
    elif score is not None:
        line.result, line.points = bridge.Score(score), score
    else:
        line.kind = "none"                  # a ruling must give it a score (model.require_results)
    return line


def _plain_id(value: str) -> str | None:
    """An id cell as .cells.identifier takes it (a value with no space), '' for an empty cell; None
    for one :func:`_line` must read (and say what is wrong with)."""
    if value in _EMPTY:
        return ""
    return value if len(value) <= MAX_ID and value.isprintable() and value == value.strip() else None


def _played(contract: str, declarer: str, result: str, vulnerability: str) -> tuple[bridge.PlayedResult, int] | None:
    """A contract, declarer and tricks as :func:`read_row_result` reads them, and NS's points (kept:
    a season repeats a few thousand); None for anything else (a code, an empty or wrong cell)."""
    text = contract.strip()
    code = parse_code(text)
    if code is not None:
        if code.kind != "pass":
            return None
        played = bridge.PlayedResult(None, None, 0)      # passed out: declarer and tricks not read
    elif declarer in _EMPTY or result in _EMPTY:
        return None
    elif not (len(result) <= 2 and result.isdigit() and result.isascii() and int(result) <= 13):
        return None
    else:
        try:
            c = _contract(text, declarer.strip().upper())
            played = bridge.PlayedResult(c.contract, c.declarer, int(result))
        except bridge.NotationError:
            return None
    hit = played, bridge.ns_score(played, vulnerability)
    if len(_PLAYED) < 20_000:
        _PLAYED[(contract, declarer, result, vulnerability)] = hit
    return hit


SEAT_COLUMNS = ("PlayerId_North", "PlayerId_South", "PlayerId_East", "PlayerId_West")


def _individual(pbn: PbnFile, table: ScoreTable) -> bool:
    """Whether the ScoreTable is an individual's: all four PlayerId_ columns, or none (one to three
    is an error at the header, not a pairs table read without its players)."""
    present = [c for c in SEAT_COLUMNS if table.index(c) is not None]
    if present and len(present) < 4:
        missing = [c for c in SEAT_COLUMNS if c not in present]
        raise pbn.error(table.header, f"the ScoreTable has {', '.join(present)} but not {', '.join(missing)}",
                        expected="all four PlayerId_North, PlayerId_South, PlayerId_East, PlayerId_West "
                        "(an individual event), or PairId_NS and PairId_EW")
    return bool(present)


@dataclass
class RowResult:
    """What one ScoreTable row says happened, from its Contract/Declarer/Result and score cells
    (read once, by :func:`read_row_result`, for ``bridgelaw event`` and ``bridgelaw score``)."""

    played: bridge.PlayedResult | None = None     # the contract and tricks, when the row gives them
    score: int | None = None                      # the score columns, NS's view, when they give points
    score_where: tuple[str, Where] | None = None  # the column that gave it
    codes: dict[str, Any] = field(default_factory=dict)   # artificial/not-played codes in score cells
    contract_code: tuple[str, Token, str] | None = None   # a code in Contract and no score cell: text, cell, kind

    def points(self, vulnerability: str) -> int | None:
        """NS's points for the row: the contract's score (checked against the score columns),
        else the score columns' points."""
        if self.played is None:
            return self.score
        points = bridge.ns_score(self.played, vulnerability)
        if self.score is not None and self.score != points:
            name, where = self.score_where
            raise where.error(f"{name} gives NS {self.score:+d}, but {self.played.text} scores NS {points:+d} "
                              f"(vulnerability {vulnerability})", expected="the score of the contract and result")
        return points


def read_row_result(pbn: PbnFile, get) -> RowResult:
    """The result cells of one ScoreTable row, each error at its cell."""
    out = RowResult()
    contract, declarer, result = get("Contract"), get("Declarer"), get("Result")
    if contract is not None:
        text = contract.value.strip()
        code = parse_code(text)
        if code is not None and code.kind == "pass":
            out.played = bridge.PlayedResult(None, None, 0)
        elif code is not None:                  # A+, Bye, NP … in the Contract column: the score cells say more
            if not any(get(n) for n in ("Score_NS", "Score_EW", "Score")):
                out.contract_code = (text, contract, code.kind)
                return out
        else:
            if declarer is None or result is None:
                missing = "Declarer" if declarer is None else "Result"
                raise pbn.error(contract, f"contract {text} has no {missing}",
                                expected="a declarer (N, E, S, W) and the tricks taken by declarer")
            t = result.value
            if len(t) <= 2 and t.isdigit() and t.isascii() and int(t) <= 13:
                taken = int(t)              # the common cell: its place made only for an error
            else:
                taken = tricks(t, _where(pbn, result), "Result")
            try:
                c = _contract(text, declarer.value.strip().upper())
                out.played = bridge.PlayedResult(c.contract, c.declarer, taken)
            except bridge.NotationError as exc:
                token = contract if "declarer" not in exc.message else declarer
                raise pbn.error(token, f"'{text[:20]}' by '{declarer.value[:5]}' making {taken}: {exc.message}",
                                expected="a contract such as 4SX and a declarer N, E, S or W") from None
    for name, side in (("Score_NS", "NS"), ("Score_EW", "EW"), ("Score", None)):
        token = get(name)
        if token is None:
            continue
        where = _where(pbn, token)
        text = token.value.strip()
        if name == "Score" and text[:2].upper() in ("NS", "EW"):
            side, text = text[:2].upper(), text[2:].strip()
        code = parse_code(text)
        if code is not None:
            if code.kind == "pass":
                value = 0
            else:
                if code.kind == "artificial" and side is None and not code.two_sided:
                    raise where.error(f"Score '{text}' does not say whose artificial score it is",
                                      expected="Score_NS/Score_EW columns, or a two-sided code such as A6040")
                out.codes[side or "both"] = (code, where, text)
                continue
        else:
            value = raw_score(text, where, name)
            if side == "EW":
                value = -value
        if out.score is not None and out.score != value:
            raise where.error(f"{name} says NS {value:+d}, but the row's other score column says NS {out.score:+d}")
        out.score, out.score_where = value, (name, where)
    return out


def _result(pbn: PbnFile, line: Line, get, board: Board) -> None:
    r = read_row_result(pbn, get)
    if r.contract_code is not None and r.contract_code[2] == "not-played":
        line.kind, line.code = "not-played", r.contract_code[0]      # e.g. Bye in the Contract column
        line.extra["code_where"] = _where(pbn, r.contract_code[1])
        return
    if r.codes:
        _codes(line, r.codes)
        if r.played is not None and line.kind != "not-played":
            line.result, line.points = r.played, bridge.ns_score(r.played, board.vulnerability or "None")
        return
    if r.played is not None:
        if board.vulnerability is None and r.played.contract is not None:
            raise line.where.error(f"board {board.number} has no Vulnerable tag, needed to score its contracts",
                                   expected='[Vulnerable "None"] (or NS, EW, All)')
        line.kind, line.result, line.points = "result", r.played, r.points(board.vulnerability or "None")
        return
    if r.score is not None:
        line.kind, line.result, line.points = "result", bridge.Score(r.score), r.score
        return
    line.kind = "none"                  # a ruling must give it a score (model.require_results)


_CONTRACTS: dict[tuple[str, str], Any] = {}
_SCORE = re.compile(r"^[+-]?[0-9]{1,5}$")          # a score in points (cells.raw_score's)


def _contract(text: str, declarer: str) -> Any:
    """parse_result of 'contract= declarer', once per distinct pair (a session repeats a few dozen).
    A doubled contract written with stars (Bridgewebs' ``3D*``, ``4S**``) is read as 3DX, 4SXX."""
    if text.endswith("*") and len(text) <= 8:
        stripped = text.rstrip("*")
        text = stripped + "X" * (len(text) - len(stripped))
    key = (text, declarer)
    hit = _CONTRACTS.get(key)
    if hit is None:
        hit = bridge.parse_result(f"{text}= {declarer}")
        if len(_CONTRACTS) < 10_000:
            _CONTRACTS[key] = hit
    return hit


def _codes(line: Line, codes: dict[str, Any]) -> None:
    r = read_codes(codes)
    line.kind, line.code = r.kind, r.text
    line.extra["code_where"] = next(iter(codes.values()))[1]
    if r.kind == "artificial":
        line.artificial, line.mirrored = r.values, r.mirrored


def _contestants(pbn: PbnFile) -> tuple[dict[str, Contestant], str | None]:
    """Contestants and their published totals from a TotalScoreTable, when the file has one."""
    out: dict[str, Contestant] = {}
    numbering = None
    for g in pbn.games:
        for name, table in g.tables.items():
            if name.lower() != "totalscoretable":
                continue
            has_dir = table.index("Direction") is not None
            numbering = "by-direction" if has_dir and table.index("PairId") is not None and _mitchell(table) else "unique"
            for row in table.rows:
                check_row(pbn, table, row)

                def get(col: str) -> Token | None:
                    token = row.value(table, col)
                    return None if token is None or token.empty else token

                pid = get("PairId") or get("TeamId") or get("PlayerId")
                if pid is None:
                    continue
                number = identifier(pid.value, _where(pbn, pid), "PairId")
                section = get("Section").value.strip() if get("Section") else ""
                direction = None
                d = get("Direction")
                if d is not None:
                    direction = {"N-S": "NS", "NS": "NS", "E-W": "EW", "EW": "EW"}.get(d.value.strip().upper())
                names = get("Names")
                c = Contestant("", section, number, direction, names.value if names else None)
                for col, key in _total_columns(table):
                    token = get(col)
                    if token is not None and published(token.value.rstrip("=").strip()) is not None:
                        c.published.setdefault(key, published(token.value.rstrip("=").strip()))
                        if key == "place":
                            c.extra.setdefault("printed", {}).setdefault("place", token.value.strip())
                c.extra["row"] = row
                out[f"{section}:{direction}:{number}"] = c
    return out, numbering


# A TotalScoreTable's published figures of this session: a file of one session of several (Magic
# Contest) gives the session's in Session… columns beside the cumulative ones, which are not compared.
_SESSION_COLUMNS = (("SessionScoreMP", "total"), ("SessionScoreIMP", "total"), ("SessionPercentage", "percent"),
                    ("SessionRank", "place"), ("NrBoardsSession", "boards"))
_TOTAL_COLUMNS = (("TotalScoreMP", "total"), ("TotalScoreIMP", "total"), ("TotalScore", "total"),
                  ("TotalPercentage", "percent"), ("Rank", "place"), ("NrBoards", "boards"))


def _total_columns(table: ScoreTable) -> tuple[tuple[str, str], ...]:
    if any(table.index(col) is not None for col, _ in _SESSION_COLUMNS[:2]):
        return _SESSION_COLUMNS
    return _TOTAL_COLUMNS


def _mitchell(table: ScoreTable) -> bool:
    """A TotalScoreTable whose pair numbers repeat with different directions is by direction."""
    k, d = table.index("PairId"), table.index("Direction")
    seen: dict[str, set] = {}
    for row in table.rows:
        if len(row.tokens) > max(k, d):
            seen.setdefault(row.tokens[k].value, set()).add(row.tokens[d].value)
    return any(len(v) > 1 for v in seen.values()) or len(seen) < len(table.rows)
