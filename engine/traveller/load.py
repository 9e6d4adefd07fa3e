"""Reading a YAML traveller, and the checks every traveller gets whatever its source.

:func:`load_traveller` reads a traveller (or an adjustments file naming its PBN, handed to
:mod:`.source_pbn`), chooses its rulebook — the file's ``rulebook:`` or ``--rulebook``, with any
what-if change, as in force on ``--as-of`` or the file's ``date:`` (else today) — and has each
table ruled by :mod:`.adjust`.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import rulebook as rulebooks
from ..errors import BridgelawError
from ..pbn import load_pbn
from ..yamlio import Document, load_yaml
from .adjust import TableReader
from .model import AdjustmentsModel, TableLine, Traveller, TravellerModel, Where

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


def check_numbers(lines: list[tuple[TableLine, Any]], pair_numbers: str) -> None:
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


def expected_results(doc: Document | None, value: int | None, tables: int, path: list) -> int:
    if value is None:
        return tables
    if value < tables:
        raise doc.error(path, f"expected_results is {value}, but the board has {tables} tables",
                        expected=f"at least {tables} (tables with an artificial score count)")
    return value


def load_traveller(path: str | Path, *, rulebook: str | None = None, scoring: str | None = None,
                   text: str | None = None, as_of: dt.date | None = None, what_if: WhatIf | None = None) -> Traveller:
    """Read and check a YAML traveller; an adjustments file naming a PBN (``pbn:``) is read
    with its PBN. `rulebook` and `scoring` override the file's; `as_of` its ``date:``;
    `what_if` changes the rulebook (``--set``, ``--overlay``)."""
    with bulk():
        return _load_traveller(path, rulebook=rulebook, scoring=scoring, text=text, as_of=as_of, what_if=what_if)


def _load_traveller(path: str | Path, *, rulebook: str | None, scoring: str | None, text: str | None,
                    as_of: dt.date | None, what_if: WhatIf | None) -> Traveller:
    from .source_pbn import pbn_traveller
    doc = load_yaml(path, text=text)
    case_key = next((k for k in ("non_offending", "without_infraction", "artificial", "not_scheduled", "poll")
                     if isinstance(doc.tree, dict) and k in doc.tree and "tables" not in doc.tree), None)
    if case_key:
        raise doc.error([case_key], f"this is a case file (it has {case_key}:), not a traveller", key=True,
                        suggestion=f"rule it with `bridgelaw rule {doc.file}`")
    if "pbn" in doc.tree:
        model = doc.validate(AdjustmentsModel)
        if Path(model.pbn).name != model.pbn or model.pbn in (".", "..") or len(model.pbn) > 255:
            raise doc.error(["pbn"], "pbn: names a PBN file beside the adjustments file, not a path",
                            expected="a file name such as board-09.pbn in the same folder")
        pbn_path = Path(doc.file).parent / model.pbn
        if not pbn_path.is_file():
            raise doc.error(["pbn"], f"no such PBN file: {pbn_path}")
        return pbn_traveller(load_pbn(pbn_path), doc, model, rulebook=rulebook, board=None, scoring=scoring,
                             as_of=as_of, what_if=what_if)
    m = doc.validate(TravellerModel)
    book = choose_book(rulebook, m.rulebook, doc, doc.file, what_if)
    day = day_of(book, as_of, m.date, doc)
    scoring = scoring or m.scoring
    warnings: list[str] = []
    reader = TableReader(doc, book, scoring, m.board, day, warnings)
    lines: list[tuple[TableLine, Any]] = []
    for i, t in enumerate(m.tables):
        path = ["tables", i]
        kind = reader.kind_of(t, path)
        line = TableLine(t.table, t.ns, t.ew, kind)
        reader.fill(line, t, kind, path)
        lines.append((line, lambda key, p=path: Where(doc.file, *doc.position(p + [key]))))
    check_numbers(lines, m.pair_numbers)
    expected = expected_results(doc, m.expected_results, len(lines), ["expected_results"])
    return Traveller(m.title, m.source, m.board.number, m.board.vulnerability, scoring, reader.dated,
                     [line for line, _ in lines], expected, doc.file, m.notes, date=m.date, as_of=as_of or m.date, warnings=warnings)
