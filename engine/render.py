"""Rulings as text (a TD's written ruling), Markdown, and JSON (stable, for scoring programs)."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from typing import Any

from .exact import exact_json, format_decimal, format_mixed
from .ruling import UNIT_NAMES, Ruling, SideScore

EVENT = {"IMP": "teams, IMPs", "MP": "pairs, matchpoints", "%": "pairs, matchpoints (percent)"}


def _amount(r: Ruling, value: Fraction) -> str:
    text = f"{format_mixed(value, signed=r.unit == 'IMP')} {UNIT_NAMES[r.unit]}"
    if value.denominator != 1:
        text += f" ({format_decimal(value, signed=r.unit == 'IMP')})"
    pct = r.percent(value)
    if pct is not None and r.unit == "MP":
        text += f" = {format_decimal(pct)}%"
    return text


def _facts(r: Ruling, case: Any) -> list[tuple[str, str]]:
    m = case.model
    rows = [("Board", f"{m.board.number if m.board.number is not None else '—'}, vulnerability {m.board.vulnerability}"),
            ("Event", EVENT[r.unit]),
            ("Non-offending side", m.non_offending)]
    if m.table_result is not None:
        rows.append(("Table result", m.table_result.text))
    if m.other_table is not None:
        rows.append(("Other table", m.other_table.text))
    if m.field is not None:
        rows.append(("Field", ", ".join(o.text for o in m.field)))
    for side in (("NS", "EW") if case.split else ("NS",)):
        comps = case.without[side]
        label = "Without the infraction" + (f" ({side})" if case.split else "")
        rows.append((label, "; ".join(
            c.outcome.text + ("" if len(comps) == 1 else f" × {format_mixed(c.weight)}") + ("" if c.legal else " (not legal)")
            for c in comps)))
    if m.serious_error is not None:
        kind = "Gambling action" if m.serious_error.kind == "gambling" else "Extremely serious error"
        rows.append((kind, "instead: " + "; ".join(
            c.outcome.text + ("" if len(case.instead) == 1 else f" × {format_mixed(c.weight)}") for c in case.instead)))
    return rows


def text(r: Ruling, case: Any) -> str:
    out = [f"RULING: {r.title}"]
    if r.source:
        out.append(f"Source: {r.source}")
    b = r.rulebook
    out.append(f"Rulebook: {b.id} {b.version}, {b.authority} (sha256 {b.sha256[:16]}…)")
    out.append("")
    width = max(len(k) for k, _ in _facts(r, case))
    out += [f"  {k:<{width}}  {v}" for k, v in _facts(r, case)]
    out += ["", "Arithmetic"]
    out += [f"  {s}" for s in r.steps]
    out += ["", f"Ruling: {r.outcome}"]
    for s in (r.nos, r.os):
        role = f"{s.side} ({'non-offending' if s.role == 'nos' else 'offending'}):"
        out.append(f"  {role:<20} {_amount(r, s.value)}   [{s.formula}]")
    out += ["", "Law"]
    ref_width = max((len(p.ref) for p in r.citations), default=0)
    for p in r.citations:
        body = textwrap.wrap(p.text, 96 - ref_width)
        out.append(f"  {p.ref:<{ref_width}}  {body[0] if body else ''}")
        out += [f"  {'':<{ref_width}}  {line}" for line in body[1:]]
    if r.warnings:
        out += ["", "Warnings"] + [f"  ! {w}" for w in r.warnings]
    return "\n".join(out) + "\n"


def markdown(r: Ruling, case: Any) -> str:
    b = r.rulebook
    out = [f"# Ruling: {r.title}", ""]
    if r.source:
        out += [f"*Source:* {r.source}  "]
    out += [f"*Rulebook:* `{b.id}` {b.version}, {b.authority} (sha256 `{b.sha256[:16]}`)", "", "## Facts", "",
            "| | |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in _facts(r, case)]
    out += ["", "## Arithmetic", ""] + [f"- {s}" for s in r.steps]
    out += ["", f"## Ruling: {r.outcome}", "", "| Side | Role | Score | Formula |", "|---|---|---|---|"]
    for s in (r.nos, r.os):
        out.append(f"| {s.side} | {'non-offending' if s.role == 'nos' else 'offending'} | {_amount(r, s.value)} | `{s.formula}` |")
    out += ["", "## Law", ""] + [f"- **{p.ref}** {p.text}" for p in r.citations]
    if r.warnings:
        out += ["", "## Warnings", ""] + [f"- {w}" for w in r.warnings]
    return "\n".join(out) + "\n"


def _value(r: Ruling, value: Fraction) -> dict[str, Any]:
    data = exact_json(value)
    pct = r.percent(value)
    if pct is not None:
        data["percent"] = exact_json(pct)
    return data


def _side(r: Ruling, s: SideScore) -> dict[str, Any]:
    return {"side": s.side, "formula": s.formula, **_value(r, s.value)}


def as_dict(r: Ruling) -> dict[str, Any]:
    return {
        "title": r.title,
        "source": r.source,
        "outcome": r.outcome,
        "unit": r.unit,
        "top": exact_json(r.top) if r.top is not None else None,
        "sides": {side: _value(r, s.value) for side, s in r.sides.items()},
        "nos": _side(r, r.nos),
        "os": _side(r, r.os),
        "quantities": {k: (exact_json(v) if v is not None else None) for k, v in r.quantities.items()},
        "steps": r.steps,
        "rules": [rule.id for rule in r.rules],
        "citations": [{"paragraph": p.ref, "text": p.text} for p in r.citations],
        "rulebook": r.rulebook.identity,
        "warnings": r.warnings,
    }


def as_json(r: Ruling) -> str:
    return json.dumps(as_dict(r), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": text, "markdown": markdown}
