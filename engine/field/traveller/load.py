"""Reading a YAML traveller, and the checks every traveller gets whatever its source.

:func:`load_traveller` reads a traveller (or an adjustments file naming its PBN, handed to
:mod:`.source_pbn`), chooses its rulebook — the file's ``rulebook:`` or ``--rulebook``, with any
what-if change, as in force on ``--as-of`` or the file's ``date:`` (else today) — and has each
table ruled by :mod:`.adjust`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from ..pbn import load_pbn
from ...core.yamlio import load_yaml
from .adjust import TableReader
from .common import WhatIf, bulk, check_numbers, choose_book, day_of, expected_results
from .source_pbn import pbn_traveller
from .model import AdjustmentsModel, TableLine, Traveller, TravellerModel, Where

def load_traveller(path: str | Path, *, rulebook: str | None = None, scoring: str | None = None,
                   text: str | None = None, as_of: dt.date | None = None, what_if: WhatIf | None = None) -> Traveller:
    """Read and check a YAML traveller; an adjustments file naming a PBN (``pbn:``) is read
    with its PBN. `rulebook` and `scoring` override the file's; `as_of` its ``date:``;
    `what_if` changes the rulebook (``--set``, ``--overlay``)."""
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
