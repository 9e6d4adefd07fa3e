"""One case corpus under several rulebooks, side by side.

A matrix of cases × rulebooks: each cell is the ruling's outcome, NS and EW scores and the
deciding paragraphs; a cell that differs from its reference column (the first rulebook, or for a
what-if column the rulebook it modifies) is marked. The summary says how many rulings change,
by how much and in whose favour.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .case import Case, load_case
from .errors import BridgelawError
from .exact import exact_json, format_mixed
from .rulebook import Rulebook
from .ruling import Ruling, rule_case


@dataclass
class Column:
    book: Rulebook
    reference: int | None          # index of the column it is compared with (None: the reference itself)


@dataclass
class Cell:
    ruling: Ruling | None = None
    error: str | None = None
    out_of_scope: bool = False
    differs: bool = False

    @property
    def scores(self) -> tuple[Fraction | None, Fraction | None]:
        if self.ruling is None:
            return None, None
        return self.ruling.sides["NS"].value, self.ruling.sides["EW"].value

    @property
    def deciding(self) -> list[str]:
        if self.ruling is None:
            return []
        rules = [r for r in self.ruling.rules if r.stage in ("damage", "artificial", "kind")]
        decisive = [r for r in rules if r.stage != "kind"] or rules
        return list(dict.fromkeys(ref for r in decisive for ref in r.cites))

    def key(self) -> tuple:
        return (self.ruling.outcome, *self.scores) if self.ruling else (self.error,)


@dataclass
class Matrix:
    columns: list[Column]
    rows: list[tuple[str, list[Cell]]] = field(default_factory=list)

    def summary(self) -> list[dict[str, Any]]:
        """Per compared column: how many rulings change, in whose favour, and by how much."""
        out = []
        for i, col in enumerate(self.columns):
            if col.reference is None:
                continue
            changed, favour, total = 0, {"non-offending": 0, "offending": 0, "unclear": 0}, Fraction(0)
            for _, cells in self.rows:
                cell, ref = cells[i], cells[col.reference]
                if not cell.differs:
                    continue
                changed += 1
                nos, os = _deltas(cell, ref)
                total += abs(nos or 0) + abs(os or 0)
                gain = (nos or 0) - (os or 0)
                favour["non-offending" if gain > 0 else "offending" if gain < 0 else "unclear"] += 1
            out.append({"rulebook": col.book.id, "against": self.columns[col.reference].book.id,
                        "changed": changed, "of": len(self.rows), "favour": favour, "total_change": total})
        return out


def _deltas(cell: Cell, ref: Cell) -> tuple[Fraction | None, Fraction | None]:
    """How far the non-offending and the offending side's scores moved (None: not comparable)."""
    if cell.ruling is None or ref.ruling is None:
        return None, None
    out = []
    for role in ("nos", "os"):
        a, b = getattr(cell.ruling, role), getattr(ref.ruling, role)
        ok = a is not None and b is not None and a.value is not None and b.value is not None
        out.append(a.value - b.value if ok else None)
    return out[0], out[1]


def cells(columns: list[Column], case: Case, as_of=None) -> list[Cell]:
    """One case ruled under every column's rulebook, each cell marked if it differs from its reference."""
    out = []
    for col in columns:
        if not case.in_scope(col.book):
            out.append(Cell(out_of_scope=True))
            continue
        try:
            out.append(Cell(ruling=rule_case(case, col.book, as_of)))
        except BridgelawError as exc:
            out.append(Cell(error=exc.message))
    for col, cell in zip(columns, out):
        if col.reference is not None and not cell.out_of_scope and not out[col.reference].out_of_scope:
            cell.differs = cell.key() != out[col.reference].key()
    return out


def build(columns: list[Column], paths: list[Path], as_of=None) -> Matrix:
    matrix = Matrix(columns)
    for path in paths:
        try:
            case = load_case(path)
        except BridgelawError as exc:
            matrix.rows.append((str(path), [Cell(error=str(exc)) for _ in columns]))
            continue
        matrix.rows.append((str(path), cells(columns, case, as_of)))
    return matrix


# --- rendering -----------------------------------------------------------------------------------

def _cell_text(cell: Cell, unit_sign: bool = True) -> str:
    if cell.out_of_scope:
        return "(out of scope)"
    if cell.ruling is None:
        return f"error: {cell.error}"
    r = cell.ruling
    ns, ew = cell.scores
    show = (lambda v: "—" if v is None else format_mixed(v, signed=r.unit == "IMP"))
    mark = "* " if cell.differs else ""
    return f"{mark}{r.outcome} NS {show(ns)} EW {show(ew)} [{', '.join(cell.deciding)}]"


def text(m: Matrix) -> str:
    out = []
    for path, cells in m.rows:
        out.append(path)
        for col, cell in zip(m.columns, cells):
            out.append(f"  {col.book.id:<22} {_cell_text(cell)}")
    out.append("")
    out.append("* differs from " + ("the first rulebook" if all(c.reference in (None, 0) for c in m.columns)
                                    else "the rulebook it is compared with"))
    out += _summary_lines(m)
    return "\n".join(out) + "\n"


def _summary_lines(m: Matrix) -> list[str]:
    lines = []
    for s in m.summary():
        f = s["favour"]
        lines.append(f"{s['rulebook']} vs {s['against']}: {s['changed']} of {s['of']} rulings change"
                     + (f" — {f['non-offending']} in the non-offending side's favour, {f['offending']} in the "
                        f"offending side's, {f['unclear']} unclear; scores move by {format_mixed(s['total_change'])} "
                        "in all (each in its event's unit)" if s["changed"] else ""))
    return lines


def markdown(m: Matrix) -> str:
    head = "| case | " + " | ".join(f"`{c.book.id}`" for c in m.columns) + " |"
    out = [head, "|" + "---|" * (len(m.columns) + 1)]
    for path, cells in m.rows:
        out.append(f"| {Path(path).name} | " + " | ".join(
            (f"**{_cell_text(c)}**" if c.differs else _cell_text(c)).replace("|", "\\|") for c in cells) + " |")
    out += [""] + [f"- {line}" for line in _summary_lines(m)]
    return "\n".join(out) + "\n"


def as_csv(m: Matrix) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["case", "rulebook", "outcome", "NS", "EW", "unit", "paragraphs", "differs", "error"])
    for path, cells in m.rows:
        for col, cell in zip(m.columns, cells):
            ns, ew = cell.scores
            writer.writerow([path, col.book.id, cell.ruling.outcome if cell.ruling else "",
                             "" if ns is None else str(ns), "" if ew is None else str(ew),
                             cell.ruling.unit if cell.ruling else "", " ".join(cell.deciding),
                             "yes" if cell.differs else "", "out of scope" if cell.out_of_scope else cell.error or ""])
    return buffer.getvalue()


def as_json(m: Matrix) -> str:
    def cell(c: Cell) -> dict[str, Any]:
        if c.out_of_scope:
            return {"out_of_scope": True}
        if c.ruling is None:
            return {"error": c.error}
        ns, ew = c.scores
        return {"outcome": c.ruling.outcome, "unit": c.ruling.unit,
                "NS": exact_json(ns) if ns is not None else None, "EW": exact_json(ew) if ew is not None else None,
                "paragraphs": c.deciding, "differs": c.differs}
    data = {
        "rulebooks": [{"id": c.book.id, "version": c.book.version, "sha256": c.book.sha256,
                       "compared_with": m.columns[c.reference].book.id if c.reference is not None else None}
                      for c in m.columns],
        "cases": [{"path": path, "rulings": {col.book.id: cell(c) for col, c in zip(m.columns, cells)}}
                  for path, cells in m.rows],
        "summary": [{**s, "total_change": exact_json(s["total_change"])} for s in m.summary()],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": text, "markdown": markdown, "csv": as_csv, "json": as_json}
