"""Rulings as text (a TD's written ruling), Markdown, and JSON (stable, for scoring programs)."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import record
from .exact import exact_json, format_decimal, format_mixed
from .ruling import UNIT_NAMES, Ruling, SideScore

EVENT = {"IMP": "IMPs", "MP": "matchpoints", "%": "matchpoints, in percent"}


def amount(r: Ruling, value: Fraction | None) -> str:
    if value is None:
        return "not scored"
    text = f"{format_mixed(value, signed=r.unit == 'IMP')} {UNIT_NAMES[r.unit]}"
    if value.denominator != 1:
        text += f" ({format_decimal(value, signed=r.unit == 'IMP')})"
    pct = r.percent(value)
    if pct is not None and r.unit == "MP":
        text += f" = {format_decimal(pct)}%"
    return text


def facts(r: Ruling, case: Any) -> list[tuple[str, str]]:
    m = case.model
    rows = [("Vulnerability", m.board.vulnerability if m.board.number is None
             else f"{m.board.vulnerability} (board {m.board.number})"),
            ("Form of event", f"{r.event} ({EVENT[r.unit]})")]
    if case.nos:
        rows.append(("Non-offending side", case.nos))
    if m.artificial is not None:
        rows.append(("No result obtained", f"NS {m.artificial.NS}, EW {m.artificial.EW}"
                     + (" (possibilities numerous)" if m.possibilities else "")))
    if m.not_scheduled is not None:
        rows.append(("Not scheduled", m.not_scheduled))
    for side, share in case.session.items():
        rows.append((f"Session score {side}", f"{format_mixed(share * 100)}%" if m.scoring == "matchpoints"
                     else f"{format_mixed(share, signed=True)} IMP a board"))
    if m.artificial_boards_this_session is not None:
        for side in ("NS", "EW"):
            n = getattr(m.artificial_boards_this_session, side)
            if n:
                rows.append((f"Boards without result {side}", f"{n} this session (this one included)"))
    if m.table_result is not None:
        rows.append(("Table result", m.table_result.text))
    if m.other_table is not None:
        rows.append(("Other table", m.other_table.text))
    if m.field is not None:
        rows.append(("Field", ", ".join(o.text for o in m.field)))
    for side in (("NS", "EW") if case.split else ("NS",) if case.without else ()):
        comps = case.without[side]
        label = "Without the infraction" + (f" ({side})" if case.split else "") + (" (as polled)" if m.poll else "")
        rows.append((label, "; ".join(
            c.outcome.text + ("" if len(comps) == 1 else f" × {format_mixed(c.weight)}") + ("" if c.legal else " (not legal)")
            for c in comps)))
    if m.poll is not None:
        rows.append(("Poll", f"{m.poll.polled} polled: " + "; ".join(f"{c.action} {c.votes}" for c in m.poll.choices)))
        used = (r.assigned or {}).get(case.nos or "NS")
        if used:      # the weights the ruling used (benefit of doubt applied), not the raw ones above
            rows.append(("Weights used", "; ".join(f"{o.text} × {format_mixed(w)}" for w, o in used)))
    if m.penalty is not None:
        p = m.penalty
        rows.append(("Procedural penalty", f"{p.amount.text} on {p.player}"
                     + (" (partner in no way to blame)" if p.partner_blameless else "")))
    if m.serious_error is not None:
        kind = "Gambling action" if m.serious_error.kind == "gambling" else "Extremely serious error"
        rows.append((kind, "instead: " + "; ".join(
            c.outcome.text + ("" if len(case.instead) == 1 else f" × {format_mixed(c.weight)}") for c in case.instead)))
    return rows


NAMED_FILES: set[Path] = set()    # rulebook files named by --rulebook PATH on the command line (cli adds them)


def _shipped(book: Any) -> bool:
    """False for a rulebook read from a file the command line named (``--rulebook PATH``): its
    ruling says so, with the file and the full sha256."""
    try:
        return book.path.resolve() not in NAMED_FILES
    except (OSError, AttributeError):
        return True


def text(r: Ruling, case: Any) -> str:
    out = [f"RULING: {r.title}"]
    if r.source:
        out.append(f"Source: {r.source}")
    b = r.rulebook
    out.append(f"Rulebook: {b.id} {b.version}, {b.authority} (sha256 {b.sha256[:16]}…)" if _shipped(b) else
               f"Rulebook: {b.id} {b.version}, {b.authority} — NOT A SHIPPED RULEBOOK: from {b.path} "
               f"(sha256 {b.sha256})")
    out.append("")
    if record.head(case):
        out += record.text_lines(record.head(case)) + [""]
    width = max(len(k) for k, _ in facts(r, case))
    out += [f"  {k:<{width}}  {v}" for k, v in facts(r, case)]
    out += ["", "Arithmetic"]
    out += [f"  {s}" for s in r.steps]
    out += ["", f"Ruling: {r.outcome}"]
    for s in r.sides.values():
        role = f"{s.side}{_role(s)}:"
        out.append(f"  {role:<20} {amount(r, s.value)}   [{s.formula}]")
    if r.vp:
        out.append("  Victory points: " + ", ".join(f"{side} {format_decimal(v)}" for side, v in r.vp.items()))
    if r.players:
        names = record.players(case)
        out += ["", "Players"] + [f"  {d} {names.get(d, '')}".rstrip().ljust(22) + f" {amount(r, v)}"
                                  for d, v in r.players.items()]
    out += ["", "Law"]
    ref_width = max((len(p.ref) for p in r.citations), default=0)
    for p in r.citations:
        body = textwrap.wrap(p.text, 96 - ref_width)
        out.append(f"  {p.ref:<{ref_width}}  {body[0] if body else ''}")
        out += [f"  {'':<{ref_width}}  {line}" for line in body[1:]]
    if r.warnings:
        out += ["", "Warnings"] + [f"  ! {w}" for w in r.warnings]
    for title, rows in (("Narrative and reasons", record.story(case)), ("Appeal", record.appeal(case)),
                        ("Published figures", record.published(case, r))):
        if rows:
            out += ["", title] + record.text_lines(rows)
    return "\n".join(out) + "\n"


def markdown(r: Ruling, case: Any) -> str:
    b = r.rulebook
    out = [f"# Ruling: {r.title}", ""]
    if r.source:
        out += [f"*Source:* {r.source}  "]
    out += [f"*Rulebook:* `{b.id}` {b.version}, {b.authority} (sha256 `{b.sha256[:16]}`)" if _shipped(b) else
            f"*Rulebook:* `{b.id}` {b.version}, {b.authority} — **not a shipped rulebook: from `{b.path}`** "
            f"(sha256 `{b.sha256}`)", ""]
    if record.head(case):
        out += ["## Record", ""] + record.markdown_rows(record.head(case)) + [""]
    out += ["## Facts", "", "| | |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in facts(r, case)]
    out += ["", "## Arithmetic", ""] + [f"- {s}" for s in r.steps]
    out += ["", f"## Ruling: {r.outcome}", "", "| Side | Role | Score | Formula |", "|---|---|---|---|"]
    for s in r.sides.values():
        out.append(f"| {s.side} | {_role(s).strip(' ()') or s.label} | {amount(r, s.value)} | `{s.formula}` |")
    if r.players:
        out += ["", "| Player | Score |", "|---|---|"] + [f"| {d} | {amount(r, v)} |" for d, v in r.players.items()]
    out += ["", "## Law", ""] + [f"- **{p.ref}** {p.text}" for p in r.citations]
    if r.warnings:
        out += ["", "## Warnings", ""] + [f"- {w}" for w in r.warnings]
    for title, rows in (("Narrative and reasons", record.story(case)), ("Appeal", record.appeal(case)),
                        ("Published figures", record.published(case, r))):
        if rows:
            out += ["", f"## {title}", ""] + [f"**{k}.** {v.strip()}" + "  " for k, v in rows]
    return "\n".join(out) + "\n"


def _role(s: SideScore) -> str:
    return {"nos": " (non-offending)", "os": " (offending)"}.get(s.role or "", "")


def _value(r: Ruling, value: Fraction | None) -> dict[str, Any]:
    if value is None:
        return {"exact": None, "value": None}
    data = exact_json(value)
    pct = r.percent(value)
    if pct is not None:
        data["percent"] = exact_json(pct)
    return data


def _side(r: Ruling, s: SideScore | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {"side": s.side, "formula": s.formula, **_value(r, s.value)}


def as_dict(r: Ruling, case: Any = None) -> dict[str, Any]:
    data = _as_dict(r)
    if case is not None:
        data["record"] = record.as_json(case, r)
    return data


def _as_dict(r: Ruling) -> dict[str, Any]:
    return {
        "title": r.title,
        "source": r.source,
        "outcome": r.outcome,
        "unit": r.unit,
        "top": exact_json(r.top) if r.top is not None else None,
        "event": r.event,
        "sides": {side: {**_value(r, s.value), "label": s.label} for side, s in r.sides.items()},
        "nos": _side(r, r.nos),
        "os": _side(r, r.os),
        "quantities": {k: (exact_json(v) if v is not None else None) for k, v in r.quantities.items()},
        "steps": r.steps,
        "rules": [rule.id for rule in r.rules],
        "citations": [{"paragraph": p.ref, "text": p.text} for p in r.citations],
        "players": {d: _value(r, v) for d, v in r.players.items()} if r.players else None,
        "vp": {side: exact_json(v) for side, v in r.vp.items()} if r.vp else None,
        "rulebook": r.rulebook.identity if _shipped(r.rulebook) else {**r.rulebook.identity,
                                                                        "file": str(r.rulebook.path)},
        "warnings": r.warnings,
    }


def as_json(r: Ruling, case: Any = None) -> str:
    return json.dumps(as_dict(r, case), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": text, "markdown": markdown}
