"""What every traveller gets whatever its source (YAML or PBN): its rulebook and day, its
number checks, and building many small objects without the cyclic collector."""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from ... import rulebook as rulebooks
from ...core.errors import BridgelawError
from ...core.yamlio import Document
from .model import TableLine

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
