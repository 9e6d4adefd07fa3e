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

from ..ruling.case import Case, load_case
from ..core.errors import BridgelawError
from ..core.exact import exact_json, format_mixed
from ..rulebook import Rulebook
from ..rulebook.infractions import knows
from ..ruling.build import rule_case
from ..ruling.result import Ruling


@dataclass
class Column:
    book: Rulebook
    reference: int | None          # index of the column it is compared with (None: the reference itself)


@dataclass(frozen=True)
class _Kept:
    """What a streamed comparison keeps of a ruling for its summary."""
    outcome: str
    unit: str
    nos: Any
    os: Any
    sides: Any


@dataclass
class Cell:
    ruling: Ruling | None = None
    error: str | None = None
    out_of_scope: bool = False
    differs: bool = False
    reason: str = ""               # why the rulebook does not cover the case (out of scope)

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

    def slim(self) -> "Cell":
        """This cell with only what Matrix.summary needs (the outcome, unit and scores, not the ruling)."""
        if self.ruling is None:
            return self
        r = self.ruling
        kept = _Kept(r.outcome, r.unit, r.nos, r.os, r.sides)
        return Cell(ruling=kept, error=self.error, out_of_scope=self.out_of_scope, differs=self.differs,  # type: ignore[arg-type]
                    reason=self.reason)

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
            changed, favour = 0, {"non-offending": 0, "offending": 0, "unclear": 0}
            total: dict[str, Fraction] = {}          # by unit: IMPs and matchpoints are never added together
            compared = 0
            for _, cells in self.rows:
                cell, ref = cells[i], cells[col.reference]
                if cell.out_of_scope or ref.out_of_scope:
                    continue
                compared += 1
                if not cell.differs:
                    continue
                changed += 1
                nos, os = _deltas(cell, ref)
                if cell.ruling is not None and (nos or os):
                    unit = cell.ruling.unit
                    total[unit] = total.get(unit, Fraction(0)) + abs(nos or 0) + abs(os or 0)
                gain = (nos or 0) - (os or 0)
                favour["non-offending" if gain > 0 else "offending" if gain < 0 else "unclear"] += 1
            out.append({"rulebook": col.book.id, "against": self.columns[col.reference].book.id,
                        "changed": changed, "of": compared, "out_of_scope": len(self.rows) - compared,
                        "favour": favour, "total_change": total})
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
            out.append(Cell(out_of_scope=True, reason=scope_reason(case, col.book)))
            continue
        if as_of is not None and not col.book.covers(as_of):       # --as-of outside the rulebook's period
            out.append(Cell(out_of_scope=True, reason=f"{col.book.id} is in force {col.book.period}; the date "
                                                      f"asked for is {as_of.isoformat()}"))
            continue
        try:
            out.append(Cell(ruling=rule_case(case, col.book, as_of)))
        except BridgelawError as exc:
            out.append(Cell(error=exc.message))
    for col, cell in zip(columns, out):
        if col.reference is not None and not cell.out_of_scope and not out[col.reference].out_of_scope:
            cell.differs = cell.key() != out[col.reference].key()
    return out


def scope_reason(case: Case, book: Rulebook) -> str:
    """Why `book` does not cover `case`: its dates, or its declared scope."""
    day = case.model.date
    if day is not None and not book.covers(day):
        return f"{book.id} is in force {book.period}; the case is dated {day.isoformat()}"
    inf = case.model.infraction
    if inf is not None and not knows(book.infractions, inf.law):
        return f"{book.id} does not encode Law {inf.law}, the law the infraction names"
    scope = "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in (book.scope or {}).items())
    return f"{book.id} applies only to {scope}"


UNIT_WORDS = {"IMP": "IMPs", "MP": "matchpoints", "%": "percent", "points": "table points"}


def _units(total: dict[str, Fraction]) -> str:
    """'3 IMPs and 2 1/2 matchpoints': one figure a unit, never a sum across units."""
    def word(u: str, v: Fraction) -> str:
        return UNIT_WORDS[u].rstrip("s") if v == 1 and u != "%" else UNIT_WORDS[u]
    return " and ".join(f"{format_mixed(v)} {word(u, v)}" for u, v in sorted(total.items())) or "0"


@dataclass
class Row:
    label: str
    cells: list[str]
    differs: bool
    paragraph: bool = False
    marked: list[bool] = field(default_factory=list)    # the cells that differ from the first ruled one


def table(cells_: list[Cell]) -> list[Row]:
    """One case side by side (the web page's table): a row per figure, each with its unit; a row
    differs when the rulings of the rulebooks in scope disagree (out-of-scope columns say so and
    are not compared)."""
    from . import ruling as render

    def row(label: str, get, compared: bool = True) -> Row:
        texts = [("out of scope" if c.out_of_scope else "—") if c.ruling is None else get(c.ruling) for c in cells_]
        ruled = [t for t, c in zip(texts, cells_) if c.ruling is not None]
        differs = compared and len(set(ruled)) > 1
        marked = [differs and c.ruling is not None and t != ruled[0] for t, c in zip(texts, cells_)]
        return Row(label, texts, differs, marked=marked)

    def in_force(c: Cell) -> str:
        if c.out_of_scope:
            return "out of scope: " + c.reason
        if c.ruling is None:
            return "could not rule: " + c.error
        b = c.ruling.rulebook
        if any(e.kind == "rulebook" and e.data.get("clamped") for e in c.ruling.trace.entries):
            return f"no: in force {b.period}; ruled as on its last day (the case gives no date)"
        return "yes"

    def side(r: Ruling, name: str) -> str:
        s = r.sides[name]
        role = {"nos": " (non-offending)", "os": " (offending)"}.get(s.role or "", "")
        return f"{render.amount(r, s.value, s.side)}{role}"

    rows = [Row("In force for this case", [in_force(c) for c in cells_], False),
            row("Edition", lambda r: f"{r.rulebook.version}, {r.rulebook.authority}", False),
            row("Outcome", lambda r: r.outcome)]
    for name in ("NS", "EW"):
        rows.append(row(f"{name} score", lambda r, n=name: side(r, n)))
    for q in ("A", "B", "C"):
        rows.append(row(q, lambda r, q=q: "—" if r.quantities.get(q) is None else render.amount(r, r.quantities[q])))
    rows.append(row("Rules applied", lambda r: ", ".join(x.id for x in r.rules)))
    rows.append(row("Paragraphs cited", lambda r: ", ".join(p.ref for p in r.citations)))
    rows.append(row("Warnings", lambda r: "; ".join(r.warnings) or "none"))
    refs = list(dict.fromkeys(p.ref for c in cells_ if c.ruling for p in c.ruling.citations))
    for ref in refs:
        r = row(ref, lambda x, ref=ref: next((p.text for p in x.citations if p.ref == ref), "— not cited"))
        r.paragraph = True
        rows.append(r)
    return rows


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
        return f"(out of scope: {cell.reason})" if cell.reason else "(out of scope)"
    if cell.ruling is None:
        return f"error: {cell.error}"
    r = cell.ruling
    ns, ew = cell.scores
    mark = "* " if cell.differs else ""
    if r.unit == "points" and getattr(r, "assigned", None):       # table points: the results, as on the slip
        from .ruling import results_text
        return f"{mark}{r.outcome} NS {results_text(r, 'NS')} [{', '.join(cell.deciding)}]"
    unit = {"IMP": " IMPs", "MP": " MP", "%": "%", "points": " pts"}[r.unit]
    show = (lambda v: "not scored" if v is None else format_mixed(v, signed=r.unit in ("IMP", "points")) + unit)
    return f"{mark}{r.outcome} NS {show(ns)} EW {show(ew)} [{', '.join(cell.deciding)}]"


# Each format is written in three parts — before the first case, one case, after the last (the
# summary) — so that `bridgelaw compare` prints each case's rulings as soon as they are made and
# keeps only what the summary needs (see stream); RENDERERS join the parts for a whole matrix.

def _text_row(m: Matrix, path: str, cells: list[Cell], first: bool) -> str:
    return "".join(f"{line}\n" for line in [path] + [f"  {col.book.id:<22} {_cell_text(cell)}"
                                                     for col, cell in zip(m.columns, cells)])


def _text_tail(m: Matrix) -> str:
    out = ["", "* differs from " + ("the first rulebook" if all(c.reference in (None, 0) for c in m.columns)
                                    else "the rulebook it is compared with")]
    out += _summary_lines(m)
    return "\n".join(out) + "\n"


def _summary_lines(m: Matrix) -> list[str]:
    lines = []
    for s in m.summary():
        f = s["favour"]
        scope = f" ({s['out_of_scope']} out of scope, not compared)" if s["out_of_scope"] else ""
        lines.append(f"{s['rulebook']} vs {s['against']}: {s['changed']} of {s['of']} rulings change{scope}"
                     + (f" — {f['non-offending']} in the non-offending side's favour, {f['offending']} in the "
                        f"offending side's, {f['unclear']} unclear; scores move by {_units(s['total_change'])} "
                        "in all" if s["changed"] else ""))
    return lines


def _markdown_head(m: Matrix) -> str:
    head = "| case | " + " | ".join(f"`{c.book.id}`" for c in m.columns) + " |"
    return head + "\n|" + "---|" * (len(m.columns) + 1) + "\n"


def _markdown_row(m: Matrix, path: str, cells: list[Cell], first: bool) -> str:
    return f"| {Path(path).name} | " + " | ".join(
        (f"**{_cell_text(c)}**" if c.differs else _cell_text(c)).replace("|", "\\|") for c in cells) + " |\n"


def _markdown_tail(m: Matrix) -> str:
    return "\n".join([""] + [f"- {line}" for line in _summary_lines(m)]) + "\n"


def _csv_head(m: Matrix) -> str:
    return _csv_rows([["case", "rulebook", "outcome", "NS", "EW", "unit", "paragraphs", "differs", "error"]])


def _csv_row(m: Matrix, path: str, cells: list[Cell], first: bool) -> str:
    rows = []
    for col, cell in zip(m.columns, cells):
        ns, ew = cell.scores
        rows.append([path, col.book.id, cell.ruling.outcome if cell.ruling else "",
                     "" if ns is None else str(ns), "" if ew is None else str(ew),
                     cell.ruling.unit if cell.ruling else "", " ".join(cell.deciding),
                     "yes" if cell.differs else "", f"out of scope: {cell.reason}" if cell.out_of_scope else cell.error or ""])
    return _csv_rows(rows)


def _csv_rows(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


def _json(value: Any, depth: int) -> str:
    """`value` as json.dumps(…, indent=2) writes it `depth` levels down a document."""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * depth)


def _json_head(m: Matrix) -> str:
    books = [{"id": c.book.id, "version": c.book.version, "sha256": c.book.sha256,
              "compared_with": m.columns[c.reference].book.id if c.reference is not None else None}
             for c in m.columns]
    return '{\n  "rulebooks": ' + _json(books, 1) + ',\n  "cases": ['


def _json_row(m: Matrix, path: str, cells: list[Cell], first: bool) -> str:
    def cell(c: Cell) -> dict[str, Any]:
        if c.out_of_scope:
            return {"out_of_scope": True, "reason": c.reason}
        if c.ruling is None:
            return {"error": c.error}
        ns, ew = c.scores
        return {"outcome": c.ruling.outcome, "unit": c.ruling.unit,
                "NS": exact_json(ns) if ns is not None else None, "EW": exact_json(ew) if ew is not None else None,
                "paragraphs": c.deciding, "differs": c.differs}
    data = {"path": path, "rulings": {col.book.id: cell(c) for col, c in zip(m.columns, cells)}}
    return ("" if first else ",") + "\n    " + _json(data, 2)


def _json_tail(m: Matrix) -> str:
    summary = [{**s, "total_change": {u: exact_json(v) for u, v in s["total_change"].items()}} for s in m.summary()]
    return ("]" if not m.rows else "\n  ]") + ',\n  "summary": ' + _json(summary, 1) + "\n}\n"


def _nothing(m: Matrix) -> str:
    return ""


STREAMS = {"text": (_nothing, _text_row, _text_tail), "markdown": (_markdown_head, _markdown_row, _markdown_tail),
           "csv": (_csv_head, _csv_row, _nothing), "json": (_json_head, _json_row, _json_tail)}


def _whole(fmt: str):
    head, row, tail = STREAMS[fmt]

    def render(m: Matrix) -> str:
        return head(m) + "".join(row(m, path, cells, i == 0) for i, (path, cells) in enumerate(m.rows)) + tail(m)
    render.__name__ = fmt
    return render


text, markdown, as_csv, as_json = (_whole(f) for f in ("text", "markdown", "csv", "json"))
RENDERERS = {"text": text, "markdown": markdown, "csv": as_csv, "json": as_json}


def stream(columns: list[Column], paths: list[Path], fmt: str, write, as_of=None) -> Matrix:
    """Rule each case under every column and `write` its part of the output at once; the matrix
    returned (and kept meanwhile) holds only what the summary needs, not the rulings."""
    head, row, tail = STREAMS[fmt]
    matrix = Matrix(columns)
    write(head(matrix))
    for i, path in enumerate(paths):
        try:
            case = load_case(path)
        except BridgelawError as exc:
            ruled = [Cell(error=str(exc)) for _ in columns]
        else:
            ruled = cells(columns, case, as_of)
        write(row(matrix, str(path), ruled, i == 0))
        matrix.rows.append((str(path), [c.slim() for c in ruled]))
    write(tail(matrix))
    return matrix
