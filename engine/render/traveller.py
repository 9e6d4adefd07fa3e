"""Reports of a scored traveller (a board of the field model, scored by field.score): text,
markdown, JSON and CSV, and the rescored PBN.

Every figure is exact (a fraction) with its decimal beside it; the renderers format each
distinct value once, so a board of 50,000 tables renders quickly. Each adjusted or artificial
table is shown from its trace (render.field): its ruling, then what the field did with it; the
parameters the method read, with their layer and cites, from the session's trace.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from ..core import bridge
from ..core.exact import exact_json, format_decimal, format_mixed
from ..core.vocab import SIDES
from ..field.pbn_file import rewrite
from ..field.score import ScoredBoard, ScoredLine
from . import field as fieldtrace
from .jsonrows import rows_json

__all__ = ["FORMATS", "RENDERERS", "text", "markdown", "as_dict", "as_json", "as_csv", "CSV_HEADER", "pbn_output"]

FORMATS = ("text", "markdown", "json", "csv")
METHOD = {"matchpoints": "matchpoints", "cross-imps": "cross-IMPs", "butler": "butler IMPs",
          "team-imps": "IMPs against the other room of each match", "point-a-board": "point-a-board (2, 1 or 0 "
          "board points against the other room of each match)", "aggregate": "aggregate against the other room"}


# --- numbers ----------------------------------------------------------------------------------------

def _fixed(x: Fraction, places: int = 2) -> str:
    text = format_decimal(x, places)
    if places == 0:
        return text
    whole, _, decimals = text.partition(".")
    return f"{whole}.{decimals.ljust(places, '0')}"


_MISSING = object()


def _memo(fn):
    """`fn` computed once per distinct object (equal plain results share one Fraction and one
    parsed result). Made afresh for each rendering: the board keeps every object alive while
    it runs, so an id is never reused meanwhile."""
    cache: dict[int, Any] = {}

    def wrapped(v: Any) -> Any:
        hit = cache.get(id(v), _MISSING)
        if hit is _MISSING:
            hit = cache[id(v)] = fn(v)
        return hit
    return wrapped


def _whats():
    """_what, memoised on the table's (shared) result object for plain results."""
    cache: dict[int, str] = {}

    def what(t: ScoredLine) -> str:
        if t.line.kind != "result":
            return _what(t)
        hit = cache.get(id(t.line.result))
        if hit is None:
            hit = cache[id(t.line.result)] = _what(t)
        return hit
    return what


class _Formats:
    """The number formats of one rendering, each computed once per distinct value."""

    def __init__(self, board: ScoredBoard) -> None:
        self.exact = _memo(lambda v: _exact(board, v))
        self.decimal = _memo(lambda v: _decimal(board, v))
        self.pct = _memo(_pct)
        self.fixed = _memo(lambda v: "" if v is None else _fixed(v))
        self.text = _memo(lambda v: "" if v is None else str(v))
        self.json = _memo(_ej)
        self.what = _whats()


def _exact(board: ScoredBoard, v: Fraction | None) -> str:
    return "—" if v is None else format_mixed(v, signed=board.unit == "IMP")


def _decimal(board: ScoredBoard, v: Fraction | None) -> str:
    if v is None:
        return "—"
    text = _fixed(v)
    return f"+{text}" if board.unit == "IMP" and v > 0 else text


def _pct(v: Fraction | None) -> str:
    return "—" if v is None else _fixed(v)


def _labels(t: ScoredLine) -> dict[str, str]:
    """Each side's artificial score: the rulebook's word for its responsibility, and what its ruling
    gave it when that differs (e.g. avg-plus → session-score under 12C2(c))."""
    line = t.line
    labels = {}
    ruling = t.rulings[0] if t.rulings else None
    for side in SIDES:
        word = line.artificial_words[side] if line.artificial_words else str(line.artificial[side])
        label = ruling.scores[side].label if ruling is not None else ""
        labels[side] = word if not label or label.startswith(word) else f"{word} → {label}"
    return labels


def _what(t: ScoredLine) -> str:
    line = t.line
    played = f" (played {line.result.text})" if line.result is not None and line.kind != "result" else ""
    if line.kind == "result":
        text = line.result.text
        return text if text.startswith("NS ") else f"{text}, NS {line.points:+d}" if line.points else f"{text}, NS 0"
    if line.kind == "adjusted" and not line.balanced:
        return f"adjusted: NS {line.parts['NS'][0].outcome.text}, EW {line.parts['EW'][0].outcome.text}{played}" \
            if len(line.parts["NS"]) == len(line.parts["EW"]) == 1 else \
            f"adjusted: NS {len(line.parts['NS'])} / EW {len(line.parts['EW'])} outcomes{played}"
    if line.kind == "adjusted":
        parts = line.parts["NS"]
        if len(parts) == 1:
            return f"adjusted: {parts[0].outcome.text}{played}"
        return f"adjusted: weighted, {len(parts)} outcomes{played}"
    if line.kind == "split":
        return f"adjusted: split, NS {len(line.parts['NS'])} / EW {len(line.parts['EW'])} outcomes{played}"
    labels = _labels(t)
    return f"artificial: NS {labels['NS']}, EW {labels['EW']}{played}"


def _components(line) -> dict[str, str]:
    """Each side's weighting as used (one entry when both sides use the same), and the outcomes
    as written when the rule formed the scores from others (left out, rescaled or chosen)."""
    out = {}
    if line.parts is None:
        return out
    sides = ("NS",) if line.balanced else SIDES
    for side in sides:
        out[side] = "; ".join(f"{p.outcome.text} × {format_mixed(p.weight)}" for p in line.parts[side])
    if any(_key(line.parts[s]) != _key(line.written[s]) for s in SIDES):
        for side in (("NS",) if not line.split else SIDES):
            out[f"{side} as written" if line.split else "as written"] = "; ".join(
                (f"{p.outcome.text} judged {p.judged.replace('-', ' ')}" if p.judged else
                 f"{p.outcome.text} × {format_mixed(p.weight)}") + ("" if p.legal else " (not legal)")
                for p in line.written[side])
    return out


def _key(parts) -> list:
    return [(p.outcome, p.weight) for p in parts]


def _freq_text(freq: list[tuple[int, Fraction]]) -> str:
    return ", ".join(f"{s:+d} × {format_mixed(f)}" if s else f"0 × {format_mixed(f)}" for s, f in freq)


def _facts(board: ScoredBoard) -> list[tuple[str, str]]:
    trav = board.traveller
    number = trav.board_number if trav.board_number is not None else "—"
    rows = [("Board", f"{number}, vulnerability {trav.vulnerability}")]
    method = METHOD[board.method]
    if board.unit == "MP":
        method += f", top {format_mixed(board.top)}"
    rows.append(("Scoring", f"{method}; {len(board.lines)} tables, {board.results} results"))
    params = board.session.parameters
    rows.append(("Parameters", "; ".join(f"{name.split('.', 1)[1]} = {value} ({origin})"
                                         for name, value, origin in fieldtrace.parameter_rows(board.session.trace))))
    if board.method == "matchpoints":
        if board.factored:
            step = params["fieldscore.neuberg.round_to"]
            rounding = f", rounded to {format_mixed(step)} ({params['fieldscore.neuberg.round_mode']})" if step else ""
            if params["fieldscore.neuberg.form"] == "ties":
                formula = f"MP' = MP + ({board.expected} − {board.results})"
            else:
                formula = f"MP' = (MP + 1) × {board.expected} / {board.results} − 1"
            rows.append(("Neuberg", f"{board.results} results of {board.expected}: {formula}{rounding}"))
        elif board.results < board.expected:
            rows.append(("Neuberg", f"{board.results} results of {board.expected}; not factored (form none)"))
    elif board.method == "cross-imps":
        rows.append(("Divisor", f"{board.divisor} ({params['fieldscore.cross_imps.divisor']})"))
    else:
        for side in SIDES if not board.balanced else ("NS",):
            datum, mean = board.datum.get(side), board.mean.get(side)
            if datum is None:
                continue
            rounded = "" if datum == mean else f" (mean {format_mixed(mean)} rounded)"
            rows.append((f"Datum {side}" if not board.balanced else "Datum",
                         f"{datum.numerator:+d}" if datum.denominator == 1 else f"{format_mixed(datum, signed=True)} "
                         f"({format_decimal(datum, 2, signed=True)})"))
            rows[-1] = (rows[-1][0], rows[-1][1] + rounded + f", top and bottom {board.dropped} dropped")
    rows.append(("Frequencies NS", _freq_text(board.frequencies["NS"]) or "—"))
    if not board.balanced:
        rows.append(("Frequencies EW", _freq_text(board.frequencies["EW"]) or "—"))
    return rows


def _as_of(trav) -> str:
    """The day the rulebook was read at, when the traveller or the command line gave one."""
    return f", as in force on {trav.book.as_of.isoformat()}" if trav.as_of else ""


def _steps(t: ScoredLine, book) -> list[str]:
    """An adjusted or artificial table's trace, without what the report's head already says."""
    return fieldtrace.lines(t.entries, book, skip=("rulebook", "basis"))


def _law(t: ScoredLine) -> str:
    return ", ".join(fieldtrace.citations(t))


# --- text ------------------------------------------------------------------------------------------

def text(board: ScoredBoard) -> str:
    trav = board.traveller
    unit = board.unit
    out = [f"TRAVELLER: {trav.title}"]
    if trav.source:
        out.append(f"Source: {trav.source}")
    b = trav.book
    out.append(f"Rulebook: {b.id} {b.version}, {b.authority} (sha256 {b.sha256[:16]}…)" + _as_of(trav))
    out.append("")
    facts = _facts(board)
    width = max(len(k) for k, _ in facts)
    out += [f"  {k:<{width}}  {v}" for k, v in facts]
    out.append("")
    head = ["Table", "NS", "EW", "Score", f"NS {unit}", "", f"EW {unit}", ""]
    if unit == "MP":
        head = ["Table", "NS", "EW", "Score", "NS MP", "", "NS %", "EW MP", "", "EW %"]
    rows = []
    f = _Formats(board)
    for t in board.lines:
        line = t.line
        row = [_table(line), line.ns or "-", line.ew or "-", f.what(t)]
        for side in SIDES:
            s = t.side(side)
            row += [f.exact(s.value), f"({f.decimal(s.value)})" if s.value is not None else ""]
            if unit == "MP":
                row.append(f.pct(s.percent))
        rows.append(row)
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    left = {3}
    for r in [head, *rows]:
        out.append("  " + "  ".join(c.ljust(w) if k in left else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))).rstrip())
    if unit == "MP" and board.results:
        totals = {side: sum((t.side(side).value for t in board.lines if t.side(side).value is not None), Fraction(0))
                  for side in SIDES}
        out.append(f"  Total: NS {format_mixed(totals['NS'])}, EW {format_mixed(totals['EW'])}")
    adjusted = [t for t in board.lines if t.line.kind != "result" or t.trace is not None]
    if adjusted:
        out += ["", "Adjusted and artificial scores"]
        for t in adjusted:
            where = f"Table {t.line.table} (NS {t.line.ns or '-'}, EW {t.line.ew or '-'})" if t.line.table is not None \
                else f"NS {t.line.ns or '-'} v EW {t.line.ew or '-'}"
            out.append(f"  {where}: {_what(t)}")
            for side, comps in _components(t.line).items():
                label = side if "written" in side else "weighting" if t.line.balanced else f"{side} weighting"
                out.append(f"    {label}: {comps}")
            out += [f"    {s}" for s in _steps(t, b)]
            if _law(t):
                out.append(f"    law: {_law(t)}")
            if t.line.note:
                out.append(f"    note: {t.line.note}")
    checks = board.checks()
    if checks:
        differ = [c for c in checks if not c.agrees]
        out += ["", f"Published figures: {len(checks) - len(differ)} of {len(checks)} agree"]
        for c in differ:
            computed = "not scored" if c.computed is None else (
                f"{format_mixed(c.computed)} ({format_decimal(c.computed, max(c.published.places, 2))})")
            out.append(f"  table {c.table} {c.side}: published {c.published.text}, computed {computed}"
                       + (f" — {c.why}" if c.why else ""))
    warnings = _warnings(board)
    if warnings:
        out += ["", "Warnings"] + [f"  ! {w}" for w in warnings]
    return "\n".join(out) + "\n"


def _warnings(board: ScoredBoard) -> list[str]:
    out = list(board.session.warnings)
    if board.results == 0:
        out.append("no table has a result: only artificial scores")
    return out


# --- markdown ----------------------------------------------------------------------------------------

def markdown(board: ScoredBoard) -> str:
    trav = board.traveller
    unit = board.unit
    out = [f"# Traveller: {trav.title}", ""]
    if trav.source:
        out.append(f"*Source:* {trav.source}  ")
    b = trav.book
    out += [f"*Rulebook:* {b.id} {b.version}, {b.authority}" + _as_of(trav), ""]
    out += [f"- **{k}:** {v}" for k, v in _facts(board)]
    out.append("")
    if unit == "MP":
        out += ["| Table | NS | EW | Score | NS MP | NS % | EW MP | EW % |", "|---:|---:|---:|---|---:|---:|---:|---:|"]
    else:
        out += ["| Table | NS | EW | Score | NS IMPs | EW IMPs |", "|---:|---:|---:|---|---:|---:|"]
    f = _Formats(board)
    for t in board.lines:
        line = t.line
        cells = [_table(line), line.ns or "-", line.ew or "-", f.what(t).replace("|", "\\|")]
        for side in SIDES:
            s = t.side(side)
            cells.append(f.exact(s.value) + (f" ({f.decimal(s.value)})" if s.value is not None
                                             and s.value.denominator != 1 else ""))
            if unit == "MP":
                cells.append(f.pct(s.percent))
        out.append("| " + " | ".join(cells) + " |")
    adjusted = [t for t in board.lines if t.line.kind != "result" or t.trace is not None]
    if adjusted:
        out += ["", "## Adjusted and artificial scores", ""]
        for t in adjusted:
            out.append(f"### {'Table ' + str(t.line.table) if t.line.table is not None else f'NS {t.line.ns} v EW {t.line.ew}'}: "
                       f"{_what(t)}")
            out.append("")
            for side, comps in _components(t.line).items():
                label = side.capitalize() if "written" in side else "Weighting" if t.line.balanced else side + " weighting"
                out.append(f"- {label}: {comps}")
            steps = _steps(t, b)
            if steps:
                out += ["", "```", *steps, "```"]
            if _law(t):
                out += ["", f"Law: {_law(t)}"]
            out.append("")
    checks = board.checks()
    if checks:
        differ = [c for c in checks if not c.agrees]
        out += ["", f"## Published figures: {len(checks) - len(differ)} of {len(checks)} agree", ""]
        for c in differ:
            computed = "not scored" if c.computed is None else f"{format_mixed(c.computed)}"
            out.append(f"- {'Table ' + str(c.table) if c.table is not None else 'Line'} {c.side}: published {c.published.text}, computed {computed}"
                       + (f" — {c.why}" if c.why else ""))
    warnings = _warnings(board)
    if warnings:
        out += ["", "## Warnings", ""] + [f"- {w}" for w in warnings]
    return "\n".join(out).rstrip() + "\n"


# --- json ----------------------------------------------------------------------------------------------

def _ej(v: Fraction | None) -> Any:
    return None if v is None else exact_json(v)


def _artificial_json(t: ScoredLine) -> dict[str, Any]:
    line = t.line
    ruling = t.rulings[0] if t.rulings else None
    out = {}
    for side in SIDES:
        value = line.artificial[side]
        by_rule = isinstance(value, str)
        out[side] = {"responsibility": value if by_rule else "as-written",
                     "word": line.artificial_words[side] if line.artificial_words else None,
                     "label": ruling.scores[side].label if ruling is not None else (line.artificial_words or {}).get(side),
                     "rule": next((e.data["decision"].rule.id for e in ruling.trace.entries if e.kind == "decision"
                                   and e.data.get("side") == side and e.data["decision"].rule is not None
                                   and e.data["decision"].stage == "artificial"), None) if ruling is not None else "file",
                     "value": _ej((t.awarded or {}).get(side))}
    return out


def as_dict(board: ScoredBoard) -> dict[str, Any]:
    trav = board.traveller
    book = trav.book
    tables = []
    f = _Formats(board)
    for t in board.lines:
        line = t.line
        item: dict[str, Any] = {
            "table": line.table, "ns_pair": line.ns, "ew_pair": line.ew, "kind": line.kind,
            "result": line.result.text if line.result is not None else None, "ns_points": line.points,
        }
        if line.parts is not None:
            item["adjusted"] = {side: [{"result": p.outcome.text, "weight": str(p.weight),
                                        "ns_points": bridge.ns_score(p.outcome, trav.vulnerability),
                                        "legal": p.legal} for p in line.parts[side]] for side in SIDES}
            if line.non_offending:
                item["non_offending"] = line.non_offending
            item["excluded"] = {side: [p.outcome.text for p in parts] for side, parts in line.excluded.items() if parts}
            item["expectation_rule"] = line.expectation
        if line.kind == "artificial":
            item["artificial"] = _artificial_json(t)
        for side in SIDES:
            s = t.side(side)
            item[side] = {"score": f.json(s.value), "percent": f.json(s.percent),
                          "steps": fieldtrace.side_steps(t, side, book)}
        if t.penalties:
            item["penalties"] = [fieldtrace.penalty_json(b) for b in t.penalties]
        if t.trace is not None:
            item["citations"] = fieldtrace.citations(t)
            item["trace"] = fieldtrace.trace_json(t)
        if line.published:
            item["published"] = {side: p.text for side, p in line.published.items()}
        if line.note:
            item["note"] = line.note
        tables.append(item)
    data: dict[str, Any] = {
        "title": trav.title, "source": trav.source, "file": trav.file,
        "date": trav.date.isoformat() if trav.date else None,
        "board": {"number": trav.board_number, "vulnerability": trav.vulnerability},
        "scoring": board.method, "unit": board.unit,
        "rulebook": book.identity,
        "parameters": {name: {"value": value, "from": origin} for name, value, origin
                       in fieldtrace.parameter_rows(board.session.trace)},
        "tables_count": len(board.lines), "results": board.results, "expected_results": board.expected,
        "top": _ej(board.top), "factored": board.factored, "balanced": board.balanced,
        "frequencies": {side: [{"score": s, "frequency": exact_json(f)} for s, f in board.frequencies[side]]
                        for side in SIDES},
    }
    if board.method == "butler":
        data["datum"] = {side: _ej(board.datum.get(side)) for side in SIDES}
        data["dropped"] = board.dropped
    if board.method == "cross-imps":
        data["divisor"] = board.divisor
    data["tables"] = tables
    data["published"] = [{"table": c.table, "side": c.side, "published": c.published.text,
                          "computed": _ej(c.computed), "agrees": c.agrees, "why": c.why}
                         for c in board.checks()]
    data["warnings"] = _warnings(board)
    return data


def as_json(board: ScoredBoard) -> str:
    """Indented JSON with one table per line (a board of 50,000 tables quick and still readable)."""
    return rows_json(as_dict(board), {"tables"}, indent=2)


# --- csv -----------------------------------------------------------------------------------------------

CSV_HEADER = ["table", "ns_pair", "ew_pair", "kind", "result", "ns_points", "unit",
              "ns_exact", "ns_decimal", "ns_percent", "ew_exact", "ew_decimal", "ew_percent", "scored_as"]


def as_csv(board: ScoredBoard) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    f = _Formats(board)
    for t in board.lines:
        line = t.line
        row = [line.table, line.ns or "", line.ew or "", line.kind,
               line.result.text if line.result is not None else "", "" if line.points is None else line.points,
               board.unit]
        for side in SIDES:
            s = t.side(side)
            row += [f.text(s.value), f.fixed(s.value), f.fixed(s.percent)]
        row.append("" if line.kind == "result" else f.what(t))     # an adjusted line says so, beside its played result
        w.writerow(row)
    return buf.getvalue()


RENDERERS = {"text": text, "markdown": markdown, "json": as_json, "csv": as_csv}


# --- PBN -----------------------------------------------------------------------------------------------

def pbn_output(board: ScoredBoard) -> str:
    """The PBN file's text with the board's ScoreTable carrying the new scores."""
    trav = board.traveller
    table = trav.game.score_table
    prefix = "MP" if board.unit == "MP" else "IMP"
    by_table = {t.line.table: t for t in board.lines}
    lines = [t.line for t in board.lines]
    values: dict[str, list[str]] = {f"{prefix}_{side}": [] for side in SIDES}
    has_pct = {side: table.index(f"Percentage_{side}") is not None for side in SIDES} if board.unit == "MP" else {}
    for side in SIDES:
        if has_pct.get(side):
            values[f"Percentage_{side}"] = []
    f = _Formats(board)
    values["Scored_As"] = []          # an adjusted line says so: its Result is the one played, its score is not
    for line in lines:
        t = by_table[line.table]
        for side in SIDES:
            s = t.side(side)
            values[f"{prefix}_{side}"].append(f.fixed(s.value) or "-")
            if has_pct.get(side):
                values[f"Percentage_{side}"].append(f.fixed(s.percent) or "-")
        values["Scored_As"].append("-" if line.kind == "result" else "adjusted" if line.kind != "artificial"
                                   else "artificial")
    return rewrite(trav.pbn, trav.game, values)


def _table(line) -> str:
    """A line's table as the traveller shows it: its section and number, or "-" when the file numbers no
    tables (a USEBIO line is its pairs; never "None")."""
    return "-" if line.table is None else str(line.table)
