"""Rulings as text (a TD's written ruling), Markdown, and JSON (stable, for scoring programs).

Every explanation here is a rendering of the ruling's trace (engine/ruling/trace.py): :func:`entry_lines`
turns trace entries into the English steps; :func:`trace_json` into JSON. Nothing is formatted
while the ruling is computed.
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import bridge
from ..rulebook import formula as formulas
from ..rulebook import parameters as params
from . import record
from ..core import vp as vp_scale
from ..core.exact import exact_json, format_decimal, format_mixed, fraction_parts
from ..rulebook import Decision, Dated, Rule, Rulebook
from ..core.bridge import PlayedResult, Score
from ..ruling.outcomes import UnitScore
from ..ruling.result import UNIT_NAMES, Penalty, Ruling, SideScore
from ..ruling.scorer import Scored
from ..ruling.trace import Entry

try:                                    # the web extra's JSON writer (the API's answers); else json's
    import orjson
except ImportError:                     # pragma: no cover — exercised by monkeypatching to None
    orjson = None

EVENT = {"IMP": "IMPs", "MP": "matchpoints", "%": "matchpoints, in percent"}


def _event(r: Ruling) -> str:
    if r.unit == "points":
        scoring = r.case.model.scoring if r.case is not None else "imps"
        return f"{r.event} ({'IMPs' if scoring == 'imps' else 'matchpoints'}; ruled in table points, no field given)"
    return f"{r.event} ({EVENT[r.unit]})"


def unit_name(unit: str, value: Fraction | None) -> str:
    """The unit's name for `value`: "1 matchpoint", "-1 IMP", "2 IMPs" (a whole 1 or -1 is singular)."""
    name = UNIT_NAMES[unit]
    return name[:-1] if value is not None and abs(value) == 1 and name.endswith("s") and unit != "%" else name


def plural(n: int, word: str) -> str:
    """ "1 case", "2 cases"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def amount(r: Ruling, value: Fraction | None, side: str | None = None) -> str:
    """A score as text; in table points, a side's results and weights (what a TD writes on the slip)."""
    if value is None:
        return "not scored"
    if r.unit == "points" and side is not None and r.assigned:
        return results_text(r, side)
    signed = r.unit in ("IMP", "points")
    text = f"{format_mixed(value, signed=signed)} {unit_name(r.unit, value)}"
    if value.denominator != 1:
        text += f" ({format_decimal(value, signed=signed)})"
    pct = r.percent(value)
    if pct is not None and r.unit == "MP":
        text += f" = {format_decimal(pct)}%"
    return text


def penalty_amount(amount: Any) -> str:
    """A penalty as a TD says it: "10% of a top", "3 IMPs", "1 VP", "2 MP"."""
    value = format_mixed(amount.value)
    return {"%": f"{value}% of a top", "IMP": f"{value} IMP{'s' if amount.value != 1 else ''}",
            "VP": f"{value} VP", "MP": f"{value} MP"}[amount.unit]


def penalties_text(r: Ruling) -> list[str]:
    """One line per penalty for the ruling's summary and the slip."""
    out = []
    for p in r.penalties:
        what = penalty_amount(p.amount)
        if p.value is None:
            out.append(f"{p.on}: {what} (taken when the board is scored)")
        elif p.against == "match":
            out.append(f"{p.on}: {what} from the match" + ("" if r.vp else " (the match is not in this case)"))
        else:
            shown = what if p.amount.unit != "%" or r.unit != "MP" else f"{what} = {format_mixed(p.value)} MP"
            out.append(f"{p.on}: {shown}, included in the score above")
    return out


def results_text(r: Ruling, side: str) -> str:
    """A side's assigned results and weights with their table points from its view: "4S= N, NS +420";
    "1/3 × 4S= N (NS +420) + 2/3 × 4S-1 N (NS -50)"; "5HX-2 N (NS -500) + 4H-1 N (NS -100) − 4S= W (NS -420)"."""
    parts = r.assigned[side]
    vulnerability = r.case.model.board.vulnerability if r.case is not None else "None"

    def shown(o: Any, alone: bool) -> str:
        if isinstance(o, UnitScore):
            return o.text
        ns = bridge.ns_score(o, vulnerability)
        points = f"{side} {format_mixed(Fraction(ns if side == 'NS' else -ns), signed=True)}"
        if not isinstance(o, bridge.PlayedResult):
            return points
        return f"{o.text}, {points}" if alone else f"{o.text} ({points})"
    if len(parts) == 1 and parts[0][0] == 1:
        return shown(parts[0][1], True)
    out = []
    for i, (w, o) in enumerate(parts):
        weight = "" if abs(w) == 1 else f"{format_mixed(abs(w))} × "
        sign = ("−" if w < 0 else "") if i == 0 else (" − " if w < 0 else " + ")
        out.append(f"{sign}{weight}{shown(o, False)}")
    return "".join(out)


def facts(r: Ruling, case: Any) -> list[tuple[str, str]]:
    m = case.model
    rows = [("Vulnerability", m.board.vulnerability if m.board.number is None
             else f"{m.board.vulnerability} (board {m.board.number})"),
            ("Form of event", _event(r))]
    if case.nos:
        rows.append(("Non-offending side", "both (each side ruled from its own view)" if case.both_non_offending else case.nos))
    if m.artificial is not None:
        rows.append(("No result obtained", f"NS {m.artificial.NS}, EW {m.artificial.EW}"
                     + (" (possibilities numerous)" if m.possibilities else "")))
    if m.not_scheduled is not None:
        rows.append(("Not scheduled", m.not_scheduled))
    for side, share in case.session.items():
        rows.append((f"Session score {side}", percent(share) if m.scoring == "matchpoints"
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
            c.outcome.text + (f" ({c.judged.replace('-', ' ')})" if c.judged else "" if len(comps) == 1
                              else f" × {format_mixed(c.weight)}") + ("" if c.legal else " (not legal)")
            for c in comps)))
    if m.poll is not None:
        rows.append(("Poll", f"{m.poll.polled} polled: " + "; ".join(f"{c.action} {c.votes}" for c in m.poll.choices)))
        used = (r.formed or {}).get(case.nos or "NS")
        if used:      # the weights the ruling used (benefit of doubt applied), not the raw ones above
            rows.append(("Weights used", "; ".join(f"{o.text} × {format_mixed(w)}" for w, o in used)))
    if m.penalty is not None:
        p = m.penalty
        rows.append(("Procedural penalty", f"{penalty_amount(p.amount)} on {p.player or p.side}"
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
    if not NAMED_FILES:                       # the web server, and a command line naming no file
        return True
    try:
        return book.path.resolve() not in NAMED_FILES
    except (OSError, AttributeError):
        return True


# Each outcome in words, as a slip's headline and the ruling's heading say it
HEADLINES = {
    "no-damage": "No adjustment: the table result stands",
    "all-self-inflicted": "Score adjusted for the offending side only: the non-offending side keeps its table "
                          "result (its damage was of its own making)",
    "none-self-inflicted": "Score adjusted: both sides get the assigned score",
    "split": "Score adjusted: the offending side gets the assigned score; the non-offending side keeps the part "
             "of the damage it caused itself",
    "assigned": "Assigned adjusted score",
    "artificial": "Artificial adjusted score: no result could be obtained",
    "not-scored": "The board is not scored",
}


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
    out += [f"  {s}" for s in step_lines(r)]
    used = parameter_rows(r)
    if used:
        out += ["", "Parameters"] + [f"  {name} = {value}   ({origin})" for name, value, origin in used]
    out += ["", f"Ruling: {HEADLINES.get(r.outcome, r.outcome)} ({r.outcome})"]
    for s in r.sides.values():
        role = f"{s.side}{_role(s)}:"
        out.append(f"  {role:<20} {amount(r, s.value, s.side)}   [{s.formula}]")
    if r.vp:
        out.append("  Victory points: " + ", ".join(f"{side} {format_decimal(v)}" for side, v in r.vp.items()))
    out += [f"  Procedural penalty, {line}" for line in penalties_text(r)]
    if r.players:
        names = record.players(case)
        out += ["", "Players"] + [f"  {d} {names.get(d, '')}".rstrip().ljust(22) + f" {amount(r, v)}"
                                  for d, v in r.players.items()]
    out += ["", "Law"]
    ref_width = max((len(p.ref) for p in r.citations), default=0)
    for p in r.citations:          # a text not matched against an English source says so (its tried: in the rulebook)
        body = textwrap.wrap(("(text not confirmed) " if not p.confirmed else "") + p.text, 96 - ref_width)
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
    out += ["", "## Arithmetic", ""] + [f"    - {s.strip()}" if s.startswith("  ") else f"- {s}" for s in step_lines(r)]
    used = parameter_rows(r)
    if used:
        out += ["", "## Parameters", "", "| Parameter | Value | From |", "|---|---|---|"]
        out += [f"| `{name}` | {value} | {origin} |" for name, value, origin in used]
    out += ["", f"## Ruling: {HEADLINES.get(r.outcome, r.outcome)} (`{r.outcome}`)", "", "| Side | Role | Score | Formula |", "|---|---|---|---|"]
    for s in r.sides.values():
        out.append(f"| {s.side} | {_role(s).strip(' ()') or s.label} | {amount(r, s.value, s.side)} | `{s.formula}` |")
    if r.vp:
        out += ["", "Victory points: " + ", ".join(f"{side} {format_decimal(v)}" for side, v in r.vp.items())]
    if r.penalties:
        out += [""] + [f"- Procedural penalty, {line}" for line in penalties_text(r)]
    if r.players:
        out += ["", "| Player | Score |", "|---|---|"] + [f"| {d} | {amount(r, v)} |" for d, v in r.players.items()]
    out += ["", "## Law", ""] + [f"- **{p.ref}** {'' if p.confirmed else '*(text not confirmed)* '}{p.text}"
                                 for p in r.citations]
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


def _as_dict(r: Ruling, trace: Any = None) -> dict[str, Any]:
    values: dict[int, dict[str, Any]] = {}           # each side's score once (sides, nos and os repeat them)

    def value(s: SideScore) -> dict[str, Any]:
        found = values.get(id(s))
        if found is None:
            found = values[id(s)] = _value(r, s.value)
        return dict(found)

    nos, os_ = r.nos, r.os
    return {
        "title": r.title,
        "source": r.source,
        "outcome": r.outcome,
        "unit": r.unit,
        "top": exact_json(r.top) if r.top is not None else None,
        "event": r.event,
        "sides": {side: {**value(s), "label": s.label} for side, s in r.sides.items()},
        "nos": {"side": nos.side, "formula": nos.formula, **value(nos)} if nos is not None else None,
        "os": {"side": os_.side, "formula": os_.formula, **value(os_)} if os_ is not None else None,
        "quantities": {k: (exact_json(v) if v is not None else None) for k, v in r.quantities.items()},
        "steps": step_lines(r),
        "rules": [rule.id for rule in r.rules],
        "citations": [{"paragraph": p.ref, "text": p.text, "confirmed": p.confirmed,
                       **({} if p.confirmed else {"tried": p.tried})} for p in r.citations],
        "players": {d: _value(r, v) for d, v in r.players.items()} if r.players else None,
        "vp": {side: exact_json(v) for side, v in r.vp.items()} if r.vp else None,
        "rulebook": r.rulebook.identity if _shipped(r.rulebook) else {**r.rulebook.identity,
                                                                        "file": str(r.rulebook.path)},
        "warnings": r.warnings,
        "assigned": {side: [{"weight": exact_json(w), "outcome": o.text, "points": _ns_points(r, o)} for w, o in parts]
                     for side, parts in r.assigned.items()} if r.assigned else None,
        "formed": {side: [{"weight": exact_json(w), "outcome": o.text} for w, o in parts]
                   for side, parts in r.formed.items()} if r.formed else None,
        "rounding": {side: {"step": exact_json(step), "mode": mode} for side, (step, mode) in r.rounding.items()}
                    or None,
        "penalties": [_penalty_json(p) for p in r.penalties],
        "trace": (trace or trace_json)(r.trace.entries),
    }


def _written(r: Ruling, case: Any) -> dict[str, Any]:
    """as_dict's document with the trace's values as they are: the JSON writer turns each into JSON
    itself (_json_default) — the same document, without a copy of the trace made first."""
    data = _as_dict(r, _raw_trace)
    if case is not None:
        data["record"] = record.as_json(case, r)
    return data


def _ns_points(r: Ruling, outcome: Any) -> int | None:
    """A result's table points for NS (None for a score given in the event's unit)."""
    if isinstance(outcome, UnitScore) or r.case is None:
        return None
    return bridge.ns_score(outcome, r.case.model.board.vulnerability)


def as_json(r: Ruling, case: Any = None) -> str:
    """The ruling as JSON for people (the CLI's --format json): indented."""
    return json.dumps(_written(r, case), indent=2, ensure_ascii=False, default=_json_default) + "\n"


def as_json_bytes(r: Ruling, case: Any = None) -> bytes:
    """The same document compact, as UTF-8 (the web API's answer)."""
    return compact_json(_written(r, case), default=_json_default, fast_default=_orjson_default)


_FRAGMENTS: dict[tuple[int, int], Any] = {}      # (numerator, denominator) → its exact_json, as orjson wrote it


def _orjson_default(v: Any) -> Any:
    """_json_default for orjson: a Fraction's JSON written once and kept, by its numerator and
    denominator (an orjson.Fragment is written as it is: the bytes orjson wrote the first time)."""
    if type(v) is Fraction:
        key = fraction_parts(v)
        found = _FRAGMENTS.get(key)
        if found is None:
            if len(_FRAGMENTS) >= 8192:
                _FRAGMENTS.clear()
            found = _FRAGMENTS[key] = orjson.Fragment(orjson.dumps(exact_json(v)))
        return found
    return _json_default(v)


def compact_json(data: Any, default: Any = None, fast_default: Any = None) -> bytes:
    """`data` as compact JSON in UTF-8 with a final newline. orjson (with the web extra) writes a
    ruling's answer in a thirteenth of the time json's C encoder takes; the values read back are the
    same (tests/test_web_api.py checks the corpus), only a float below 1e-4 is written out in full
    (0.00001 where json writes 1e-05). Anything orjson refuses (a whole number beyond 64 bits, an
    object json would refuse too) is left to json. `default` turns what neither knows into JSON
    (`fast_default`, when given, for orjson: the same JSON)."""
    if orjson is not None:
        try:
            return orjson.dumps(data, default=fast_default or default,
                                option=orjson.OPT_APPEND_NEWLINE | orjson.OPT_PASSTHROUGH_DATETIME
                                | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS)
        except TypeError:
            pass
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=default) + "\n").encode("utf-8")


RENDERERS = {"text": text, "markdown": markdown}


# --- the trace, rendered ------------------------------------------------------------------------

def step_lines(r: Ruling) -> list[str]:
    return entry_lines(r.trace.entries, r.rulebook)


def parameter_rows(r: Ruling) -> list[tuple[str, str, str]]:
    """Each parameter the ruling read: name, value, where the value in force comes from and what it cites."""
    return trace_parameter_rows(r.trace)


def trace_parameter_rows(trace: Any) -> list[tuple[str, str, str]]:
    """Each parameter a trace read (a ruling's, a field's): name, value, its layer and cites."""
    rows = []
    for name, rec in trace.parameters().items():
        d = rec.data["dated"]
        origin = d.place.what if d is not None else "?"
        if d is not None and d.cites:
            origin += f"; cites {', '.join(d.cites)}"
        rows.append((name, params.show(rec.data["value"], name), origin))
    return rows


def _cites(rule: Any) -> str:
    return ", ".join(rule.cites)


def _paren(x: Fraction) -> str:
    text = format_mixed(x)
    return f"({text})" if text.startswith("-") else text


def percent(share: Fraction) -> str:
    """A share as a report prints a percentage: whole (60%), else to two decimals (44.33%), as
    scoring programs print them (JSON keeps the exact value)."""
    pct = share * 100
    return f"{pct.numerator}%" if pct.denominator == 1 else f"{format_decimal(pct, 2)}%"


def _shown(value: Fraction, scoring: str) -> str:
    return percent(value) if scoring == "matchpoints" else f"{format_mixed(value, signed=True)} IMPs"


def _decision(d: dict[str, Any], book: Any) -> list[str]:
    dec = d["decision"]
    rule = dec.rule
    if rule is None:
        return []
    explain = rule.explain_for(book)
    stage = dec.stage
    if stage == "kind":
        out = [f"Kind of adjustment: {rule.apply['kind']} (rule {rule.id}, {_cites(rule)})."]
        if rule.apply["kind"] == "not-scored":
            out.append(f"{d.get('not_scheduled')}: {explain}")
        return out
    if stage == "expectation":
        return [f"{d['quantity']}: rule {rule.id} ({_cites(rule)}): {explain}"]
    if stage == "damage":
        return [f"Outcome: {rule.outcome} (rule {rule.id}: {rule.when_text})."]
    if stage == "serious-error":
        return [f"C: rule {rule.id} ({_cites(rule)}): {explain}"]
    if stage == "artificial":
        facts = dec.facts
        extra = [f"session score {_shown(facts['session'], d['scoring'])}"] if facts.get("session") is not None else []
        if facts.get("boards"):
            n = facts["boards"]
            extra.append(f"{format_mixed(n)} board{'' if n == 1 else 's'} without a result this session, this one included")
        return [f"{d['side']}: {facts['responsibility']}{' (' + ', '.join(extra) + ')' if extra else ''}: "
                f"rule {rule.id} ({_cites(rule)}): {explain}"]
    if stage == "event":
        return [f"Event ({d['event']}): rule {rule.id} ({_cites(rule)}): {explain}"]
    if stage == "revoke":
        return [f"Revoke by {d['offender']} on trick {d['trick']}: {explain} ({_cites(rule)})"]
    if stage == "revoke-equity":
        return []                       # shown with the tricks it compared (the equity record)
    if stage == "penalty":
        return [f"Procedural penalty {penalty_amount(d['given'])} on {d['player']}: rule {rule.id} ({_cites(rule)}): "
                f"{explain}"]
    return [f"{stage}: rule {rule.id} ({_cites(rule)}): {explain}"]


EQUITY = {"no": "the transfer compensates it.", "if-damaged": "it is insufficiently compensated.",
          "as-if-no-revoke": "the score is the result had no revoke occurred."}


def _equity(d: dict[str, Any], book: Any) -> list[str]:
    rule = d["rule"]
    return [f"Law {_cites(rule)}: the non-offending side has {d['after']} tricks after the transfer and would have had "
            f"{d['without']} without the revoke: {EQUITY[rule.apply['adjust']]}"]


def _word(book: Any, name: str, value: str) -> str:
    """What a word means, as the rulebook's words: says (``the … scale (2013) (wbf-2013)``), else the word."""
    meaning = book.words.get(name, {}).get(value)
    return f"{meaning} ({value})" if meaning else value


def _line(rec: Entry, book: Any) -> list[str]:
    k, d = rec.kind, rec.data
    if k == "decision":
        return _decision(d, book)
    if k == "parameter":
        return []
    if k == "rulebook":
        b = d["book"]
        dated = ", ".join(f"{name} = {params.show(v.value, name)} ({v.period})" for name, v in d["dated"])
        when = f"the date asked for, {d['day'].isoformat()}" if d["asked"] else "the case's date" if d["given"] \
            else f"today, {d['day'].isoformat()}"
        if d["clamped"]:
            when += ", clamped to the rulebook's last day"
        return [f"Rulebook {b.id} {b.version} as of {b.as_of.isoformat()} ({when})"
                + (f"; dated values in force: {dated}" if dated else "") + "."]
    if k == "basis":
        return [d["scorer"].describe_basis()]
    if k == "law":                                 # the empowering law and the revoke arithmetic
        return [d["text"]]
    if k == "transfer":
        return [f"  {d['tricks']} trick{'' if d['tricks'] == 1 else 's'} transferred"]
    if k == "equity":
        return _equity(d, book)
    if k == "sides":
        return [f"Non-offending side {d['nos']}, offending side {d['os']}; every quantity is from {d['nos']}'s view, "
                f"primed ones (A', B') from {d['os']}'s."]
    if k == "table":
        return [f"A (table result) = {d['scored'].text}" if d["scored"] is not None
                else "A: no table result given; only the assigned score is wanted."]
    if k == "excluded":
        return [f"  excluded, not achievable in a legal manner: {d['outcome'].text} (weight {format_mixed(d['weight'])})"]
    if k == "rescaled":
        return [f"  remaining weights scaled by 1 / {format_mixed(d['kept'])} to sum to 1"]
    if k == "poll":
        return [f"  raw weights (votes / {d['polled']} polled × chance): "
                + "; ".join(f"{c.outcome.text} {format_mixed(c.weight)}" for c in d["comps"])]
    if k == "favour":
        if d["scale"] is None:
            return [f"  benefit of doubt: factor {format_mixed(d['factor'])} leaves the weights as polled"]
        names = ", ".join(c.outcome.text for c in d["group"])
        return [f"  benefit of doubt to {d['side']}: most favourable {names} raised {format_mixed(d['raw'])} × "
                f"{format_mixed(d['factor'])} = {format_mixed(d['raised'])}; the others scaled by "
                f"{format_mixed(d['scale'])}: " + "; ".join(f"{c.outcome.text} {format_mixed(c.weight)}" for c in d["adjusted"])]
    if k == "cumulative":
        return [f"  {format_mixed(d['weight'])} × [{d['scored'].text}] (cumulative {format_mixed(d['cumulative'])})"]
    if k == "selected":
        return [f"  {d['name']} = the result where the cumulative probability from the {d['start'].replace('-', ' ')} "
                f"end first reaches {format_mixed(d['threshold'])} ({d['parameter']}): {d['outcome'].text} = "
                f"{format_mixed(d['value'])}"]
    if k == "weighted":
        terms = d["terms"]
        if len(terms) == 1:
            return [f"  {d['name']} = {terms[0][1].text}"]
        out = [f"  {format_mixed(w)} × [{s.text}]" for w, s in terms]
        out.append(f"  {d['name']} = " + " + ".join(f"{format_mixed(w)} × {_paren(s.value)}" for w, s in terms)
                   + f" = {format_mixed(d['total'])}")
        return out
    if k == "rounded":
        return [f"  {d['name']} rounded to the nearest {format_mixed(d['step'])} {d['unit']} ({d['parameter']}, "
                f"{d['mode']}): {format_mixed(d['before'])} → {format_mixed(d['after'])}"]
    if k == "judged":
        passed = "; ".join(o.text for o in d["passed"])
        where = "most favourable" if d["start"] == "most-favourable" else "most unfavourable"
        return [f"  {d['name']} = the {where} result judged {d['word'].replace('-', ' ')}"
                + (" or likely" if d["word"] == "at-all-probable" else "")
                + (f" (more favourable from this end but judged less probable: {passed})" if passed else "")
                + f": {d['outcome'].text} = {d['scored'].text}"]
    if k == "procedural-penalty":
        p = d["penalty"]
        what = penalty_amount(p.amount)
        if p.amount.unit == "%" and d["top"] is not None and d["unit"] == "MP":
            what += f" = {format_mixed(p.value)} MP (of the top {format_mixed(d['top'])})"
        where = f"; {p.order} (penalty.matchpoints.order)" if p.order else ""
        if d["after"] is not None:
            return [f"{p.side}: procedural penalty {what}, taken from {p.side}'s score: {format_mixed(d['before'])} − "
                    f"{format_mixed(p.value)} = {format_mixed(d['after'])} {unit_name(d['unit'], d['after'])}{where}"]
        if p.against == "match":
            return [f"{p.side}: procedural penalty {what}, taken from {p.side}'s victory points for the match"]
        return [f"{p.side}: procedural penalty {what}, to be taken from {p.side}'s score once the board is scored "
                f"(in table points its matchpoints or IMPs are not known yet){where}"]
    if k == "vp-penalty":
        return [f"  {d['side']}: {format_decimal(d['before'])} − {format_mixed(d['amount'])} VP (procedural penalty) = "
                f"{format_decimal(d['after'])} VP"]
    if k == "rounded-later":
        return [f"  {d['name']} will be rounded to the nearest {format_mixed(d['step'])} IMP when scored "
                f"({d['parameter']}, {d['mode']}): in table points the IMPs are not known yet"]
    if k == "stands":
        return [f"{d['side']}: {d['scored'].text} (the table result stands)"]
    if k == "split":
        return [f"The two sides have different weightings; {d['os']}'s is scored separately."]
    if k == "complement":
        return [f"B' = {d['text']} = {format_mixed(d['value'])} ({d['os']}'s score for the same outcomes)"]
    if k == "instead":
        kind = "gambling action" if d["error"] == "gambling" else "extremely serious error"
        return [f"C (what {d['nos']} would have scored without its {kind}):"]
    if k == "quantity":
        f, value = d["formula"], d["value"]
        if f.text == "instead":
            return []                   # the weighted lines above already end "C = …"
        shown = formulas.substitute(f, d["env"])
        arithmetic = "" if shown == format_mixed(value) or f.text == "instead" else f" = {shown}"
        return [f"{d['name']} = {f.text}{arithmetic} = {format_mixed(value)}"]
    if k == "differences":
        return [f"D = B − A = {format_mixed(d['D'])}; DR = B − C = {format_mixed(d['DR'])} (real damage); "
                f"DS = C − A = {format_mixed(d['DS'])} (self-inflicted damage)"]
    if k == "award":
        f, value = d["formula"], d["value"]
        shown = formulas.substitute(f, d["env"])
        arithmetic = "" if shown == format_mixed(value) else f" = {shown}"
        who = {"nos": " (non-offending)", "os": " (offending)"}.get(d["role"] or "", "")
        return [f"{d['side']}{who} gets {f.text}{arithmetic} = {format_mixed(value)} {unit_name(d['unit'], value)}"]
    if k == "not-scored":
        return [f"{d['side']}: the board is not scored"]
    if k == "artificial":
        return [f"{d['side']} gets {d['formula'].text} = {_shown(d['value'], d['scoring'])}"]
    if k == "share":
        return [f"{d['side']}: {percent(d['share'])} of the top {format_mixed(d['top'])} = "
                f"{format_mixed(d['value'])} {unit_name(d['unit'], d['value'])}"]
    if k == "match":
        m = d["match"]
        return [f"Match of {m.boards} boards, NS {format_mixed(m.imps.NS)} – EW {format_mixed(m.imps.EW)} IMPs "
                f"on the other boards; VPs on {_word(book, 'vp.scale', d['scale'])}, method {d['method']} "
                f"(rounding: {vp_scale.ROUNDING.get(d['scale'], 'as the scale gives them')})."]
    if k == "vp-weighted":
        side = d["side"]
        out = [f"  {side}: {format_mixed(w)} × VP({format_mixed(imps, signed=True)}) = {format_mixed(w)} × "
               f"{format_decimal(points)}" for w, imps, points in d["terms"]]
        out.append(f"  {side}: weighted VPs = {format_decimal(d['total'], 4)}"
                   + (f", rounded to the nearest {format_mixed(d['step'])} VP = {format_decimal(d['value'])}"
                      if d["step"] else ""))
        return out
    if k == "vp":
        imps = d["imps"]
        return [f"  {d['side']}: VP({format_mixed(d['before'], signed=True)} {'+' if imps >= 0 else '−'} "
                f"{format_mixed(abs(imps))}) = {format_decimal(d['value'])}"]
    return [f"{k}: {d}"]


def entry_lines(entries: Any, book: Any) -> list[str]:
    """The English steps for trace entries."""
    out: list[str] = []
    for rec in entries:
        out += _line(rec, book)
    return out


_PLAIN_JSON = (str, int, bool, type(None))


def _json_value(v: Any) -> Any:
    kind = type(v)                      # the common kinds first, by exact type (a request's answer has thousands)
    if kind in _PLAIN_JSON:
        return v
    if kind is Fraction:
        return exact_json(v)
    if kind is dict:
        return {str(k): _json_value(x) for k, x in v.items()}
    if kind is list or kind is tuple:
        return [_json_value(x) for x in v]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, Fraction):
        return exact_json(v)
    if isinstance(v, Decision):
        return {"stage": v.stage, "facts": {k: _json_value(x) for k, x in v.facts.items()}, "held": list(v.held),
                "overridden": dict(v.overridden), "rule": v.rule.id if v.rule else None,
                "cites": list(v.rule.cites) if v.rule else []}
    if isinstance(v, Dated):
        return {"value": _json_value(v.value), "period": v.period, "layer": v.place.what, "cites": list(v.cites)}
    if isinstance(v, Penalty):
        return _penalty_json(v)
    if isinstance(v, Rule):
        return v.id
    if isinstance(v, Rulebook):
        return v.identity
    if isinstance(v, formulas.Formula):
        return v.text
    if hasattr(v, "describe_basis"):
        return v.describe_basis()
    if hasattr(v, "outcome") and hasattr(v, "weight"):
        return {"outcome": v.outcome.text, "weight": exact_json(v.weight), "legal": v.legal}
    if hasattr(v, "value") and hasattr(v, "text") and isinstance(getattr(v, "value"), Fraction):
        return {"value": exact_json(v.value), "text": v.text}
    if hasattr(v, "text"):
        return v.text
    if isinstance(v, dict):
        return {str(k): _json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    if hasattr(v, "model_dump"):
        return _json_value(v.model_dump())
    return str(v)


def _json_default(v: Any) -> Any:
    """What the JSON writers do not know, as _json_value writes it (they write dicts, lists, tuples,
    text, whole numbers, true/false and null themselves, and call this again on what it returns)."""
    kind = type(v)
    if kind is Fraction:
        return exact_json(v)
    write = _WRITERS.get(kind)
    if write is not None:
        return write(v)
    if isinstance(v, int):                  # a subclass (orjson passes them here)
        return int(v)
    if isinstance(v, str):
        return str(v)
    return _json_value(v)


def _scored_json(v: Any) -> dict[str, Any]:
    return {"value": exact_json(v.value), "text": v.text} if type(v.value) is Fraction else _json_value(v)


def _text_json(v: Any) -> str:
    return v.text


# the trace's common values by exact type, written as _json_value writes them (its checks in order
# would find the same: a score with a Fraction value and a text, a result's text, a formula's text)
_WRITERS: dict[type, Any] = {
    Decision: lambda v: _decision_json(v),
    Scored: _scored_json,
    UnitScore: _scored_json,
    PlayedResult: _text_json,
    Score: _text_json,
    formulas.Formula: _text_json,
    Penalty: lambda v: _penalty_json(v),
}


def _penalty_json(p: Penalty) -> dict[str, Any]:
    """A procedural penalty as JSON, the same in the ruling's "penalties" and in its trace."""
    return {"on": p.on, "side": p.side, "amount": p.amount.text, "unit": p.amount.unit,
            "given": exact_json(p.amount.value), "value": exact_json(p.value) if p.value is not None else None,
            "against": p.against, "order": p.order, "rule": p.rule}


def _decision_json(v: Decision) -> dict[str, Any]:
    return {"stage": v.stage, "facts": v.facts, "held": v.held, "overridden": v.overridden,
            "rule": v.rule.id if v.rule else None, "cites": v.rule.cites if v.rule else ()}


def _raw_trace(entries: Any) -> list[dict[str, Any]]:
    """trace_json's entries with their values as they are (see _written)."""
    out = []
    for rec in entries:
        data = rec.data
        if rec.kind == "decision":
            data = {**_decision_json(data["decision"]), **{k: v for k, v in data.items() if k != "decision"}}
        elif rec.kind == "rulebook":
            data = {**data, "dated": [{"name": name, **_json_value(v)} for name, v in data["dated"]]}
        assert "kind" not in data, rec.kind          # an entry's data never names itself "kind"
        out.append({"kind": rec.kind, **data})
    return out


def trace_json(entries: Any) -> list[dict[str, Any]]:
    """The trace as JSON: one object an entry, {"kind": …, …its data}."""
    out = []
    for rec in entries:
        data = {k: _json_value(v) for k, v in rec.data.items()}
        if rec.kind == "decision":
            dec = data.pop("decision")
            data = {**dec, **data}
        elif rec.kind == "rulebook":
            data["dated"] = [{"name": name, **_json_value(v)} for name, v in rec.data["dated"]]
        assert "kind" not in data, rec.kind          # an entry's data never names itself "kind"
        out.append({"kind": rec.kind, **data})
    return out
