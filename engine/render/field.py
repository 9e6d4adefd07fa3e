"""The field's trace in English: what a scored line's trace holds — its rulings' entries (rendered
by :mod:`.ruling`) and what the field did with them (each outcome scored in the field, factoring,
a share of the top, a penalty) — and the parameters a session read. Shared by the traveller and
the event reports and the web pages; nothing here is computed, only shown."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core import bridge
from ..core.exact import exact_json, format_mixed
from ..ruling.trace import Entry
from . import ruling as render

UNIT_WORDS = {"MP": "MP", "IMP": "IMPs"}
MATCH_UNITS = {"team-imps": "IMPs", "point-a-board": "board points", "aggregate": "points"}


def _paren(x: Fraction) -> str:
    text = format_mixed(x)
    return f"({text})" if x < 0 else text


def _how(d: dict[str, Any]) -> str:
    if d["method"] == "matchpoints":
        return "as if obtained against the other tables"
    if d["method"] == "cross-imps":
        return "IMPs against every other table" + (f", ÷ {d['divisor']}" if d["divisor"] != 1 else "")
    return f"IMP(score − datum {format_mixed(d['datum'])})"


def _field_line(e: Entry) -> list[str] | None:
    """The English of one of the field's own entries; None for a ruling's (rendered by render.ruling)."""
    k, d = e.kind, e.data
    if k == "in-field":
        side, unit = d["side"], d["unit"]
        weighting = "the weighting" if d["balanced"] else "its own weighting"
        out = [f"{side} ({weighting}, rule {d['rule']}), in the field:"]
        for c, pts, x in d["terms"]:
            label = c.outcome.text if isinstance(c.outcome, bridge.Score) and side == "NS" else \
                f"{c.outcome.text} ({side} {pts:+d})"
            out.append(f"  {format_mixed(c.weight)} × {label}: {format_mixed(x, signed=unit == 'IMP')} {unit}")
        terms = " + ".join(f"{format_mixed(c.weight)} × {_paren(x)}" for c, _, x in d["terms"])
        out.append(f"  {side} = {terms} = {format_mixed(d['total'], signed=unit == 'IMP')} {unit} ({_how(d)})")
        return out
    if k == "in-match":
        unit = MATCH_UNITS.get(d["method"], "")
        teams = d["teams"]
        scores = (f"team {teams['NS']} (North-South here) {format_mixed(d['values']['NS'], signed=unit == 'IMPs')}, "
                  f"team {teams['EW']} {format_mixed(d['values']['EW'], signed=unit == 'IMPs')} {unit} on the board")
        if d["how"] == "ruling":
            return [f"In the match ({d['match']}) the other room is the case's: {d['other']}, {d['other_result']}; "
                    f"the ruling's scores are the board's: {scores}."]
        return [f"In the match ({d['match']}) each outcome here is scored against each of the other room's "
                f"({d['other']}), weight times weight: {scores}."]
    if k == "factored":
        rounded = (f", rounded to {format_mixed(d['step'])} ({d['mode']})" if d["step"] else "")
        if d["form"] == "ties":
            formula = f"{format_mixed(d['before'])} + {d['expected'] - d['results']}"
        else:
            formula = f"({format_mixed(d['before'])} + 1) × {d['expected']} / {d['results']} − 1"
        return [f"  {d['side']} factored ({d['form']}): {formula}{rounded} = {format_mixed(d['after'])} MP"]
    if k == "mirrored":
        return [f"{d['side']}: the file gives only the other side's code '{d['code']}'; this side's is its mirror"]
    if k == "as-given":
        if d["scoring"] == "matchpoints":
            return [f"{d['side']}: {render.percent(d['value'])} as the file gives it"]
        return [f"{d['side']}: {format_mixed(d['value'], signed=True)} IMPs as given"]
    if k == "code-at-imps":
        words = ", ".join(f"{side} {word}" for side, word in d["words"].items())
        return [f"the file's code '{d['code']}' at IMP scoring stands for {words}: scored in IMPs by the rulebook"]
    if k == "per-comparison":
        scale = d.get("scale", 1)
        share = f" × {format_mixed(scale)}" if scale != 1 else ""
        return [f"{d['side']} = {format_mixed(d['imps'], signed=True)}{share} × {d['comparisons']} comparisons ÷ "
                f"{d['divisor']} = {format_mixed(d['value'], signed=True)} IMPs ({d['parameter']}: per-comparison)"]
    if k == "own-facts":
        return [f"{d['contestant']}: {d['label']} on its own session facts (rule {d['rule'].id})"]
    if k == "penalty":
        unit = UNIT_WORDS.get(d["unit"], d["unit"])
        a = d["amount"]
        share = f"{format_mixed(a.value)}% of the"
        if "unfactored" in d:
            how = (f"{share} unfactored top {format_mixed(d['top'])} = {format_mixed(d['unfactored_taken'])}, "
                   f"taken before factoring: {format_mixed(d['unfactored'])} − {format_mixed(d['unfactored_taken'])} "
                   f"= {format_mixed(d['unfactored'] - d['unfactored_taken'])}, then factored; "
                   f"{d['order']}, penalty.matchpoints.order")
        elif a.unit == "%":
            how = f"{share} top {format_mixed(d['top'])}" + (
                f"; {d['order']}, penalty.matchpoints.order" if d["order"] and d.get("factored") else "")
        else:
            how = ""
        how = f" ({how})" if how else ""
        return [f"{d['side']}: procedural penalty {format_mixed(d['taken'])} {unit}{how}: "
                f"{format_mixed(d['before'])} → {format_mixed(d['after'])} ({_rule(d['rule'])})"]
    if k == "match-penalty":
        return [f"{d['side']}: procedural penalty {format_mixed(d['amount'])} VP off team {d['team']}'s score in "
                f"{d['match']}: {format_mixed(d['before'])} → {format_mixed(d['after'])} VP ({_rule(d['rule'])})"]
    if k == "word":
        rule = d["decision"].rule
        return [f"{d['of']}: '{d['word']}' read as {d['responsibility']} — rule {rule.id} gives {rule.outcome} to a "
                f"side {d['responsibility']} when the other is {d['other']}"]
    if k == "player-penalty":
        rule = d["rule"]
        why = f"rule {rule.id} ({', '.join(rule.cites)})" if rule is not None else "as the file gives it"
        value = "not scored" if d["value"] is None else format_mixed(d["value"])
        return [f"{d['side']}: player {d['player']} bears a procedural penalty of {format_mixed(d['amount'])} "
                f"{UNIT_WORDS[d['unit']]} → {value} ({why})"]
    return None


def _rule(rule: Any) -> str:
    return f"rule {rule.id}: {', '.join(rule.cites)}" if rule is not None else "no rule"


def lines(entries: Any, book: Any, *, skip: tuple[str, ...] = ("rulebook",)) -> list[str]:
    """A trace (a line's, or a ruling's) as English steps; `skip`: kinds a report shows elsewhere."""
    out: list[str] = []
    for e in entries:
        if e.kind in skip:
            continue
        mine = _field_line(e)
        out += mine if mine is not None else render.entry_lines([e], book)
    return out


def side_steps(sl: Any, side: str, book: Any) -> list[str]:
    """The steps of a scored line that concern `side` (its entries naming that side)."""
    return lines([e for e in sl.entries if e.data.get("side") == side], book)


def steps(sl: Any, book: Any) -> list[str]:
    """Every step of a scored line's trace."""
    return lines(sl.entries, book)


def rules(sl: Any) -> list[str]:
    """The rules the line's trace chose, each with its cites: ``avg-plus-pairs (12C2(a))``."""
    return [f"{r.id} ({', '.join(r.cites)})" for r in sl.rules]


def citations(sl: Any) -> list[str]:
    """The paragraphs the line's trace cites (its rules' and its parameters')."""
    return sl.citations


def parameter_rows(trace: Any) -> list[tuple[str, str, str]]:
    """Each parameter a session read: name, value, the layer its value comes from and what it cites."""
    return render.trace_parameter_rows(trace)


def factored_lines(standing: Any) -> list[str]:
    """How a contestant's total was factored (fieldscore.totals.*)."""
    out = []
    for e in standing.factored:
        d = e.data
        if e.kind == "to-top":
            out.append(f"board {d['board']}: {format_mixed(d['before'])} of top {format_mixed(d['top'])} → "
                       f"{format_mixed(d['after'])} of {format_mixed(d['session_top'])} ({d['parameter']}: session-top)")
        elif e.kind == "byes":
            out.append(f"total {format_mixed(d['before'])} × ({d['played']} played + {d['byes']} byes) ÷ "
                       f"{d['played']} = {format_mixed(d['after'])} ({d['parameter']}: average)")
        elif e.kind == "per-comparison":
            out.append(f"total {format_mixed(d['before'])} ÷ {d['comparisons']} comparisons = "
                       f"{format_mixed(d['after'])} ({d['parameter']}: per-comparison)")
        elif e.kind == "file-adjustment":
            out.append(f"total {format_mixed(d['before'])} + the file's adjustment {format_mixed(d['amount'])} = "
                       f"{format_mixed(d['after'])}")
        else:
            out.append(f"total {format_mixed(d['before'])} × {d['most']} boards ÷ {d['played']} played = "
                       f"{format_mixed(d['after'])} ({d['parameter']}: session-boards)")
    return out


def penalty_json(b: Any) -> dict[str, Any]:
    """A procedural penalty a line's ruling gives (penalties.Borne): on whom, how much, against what, the
    rule and the paragraphs it cites, and what it took (in the board's unit; VPs against a match)."""
    p = b.penalty
    return {"on": p.on, "side": p.side, "amount": render.penalty_amount(p.amount), "against": p.against,
            "to": p.to, "order": p.order, "rule": p.rule, "cites": list(b.rule.cites) if b.rule is not None else [],
            "taken": exact_json(b.taken) if b.taken is not None else None}


def penalty_lines(sl: Any) -> list[str]:
    """Each procedural penalty of a scored line as a TD says it, with the paragraph its rule cites."""
    out = []
    for b in sl.penalties:
        p = b.penalty
        law = f" (Law {', '.join(b.rule.cites)})" if b.rule is not None and b.rule.cites else ""
        against = "the match's VPs" if p.against == "match" else "the board"
        taken = f": {format_mixed(b.taken)}" if b.taken is not None and p.amount.unit == "%" else ""
        out.append(f"procedural penalty{law}: {p.on}, {render.penalty_amount(p.amount)}{taken} off {against}")
    return out


def trace_json(sl: Any) -> list[dict[str, Any]]:
    """A scored line's trace as JSON: one object an entry (the ruling's, then the field's)."""
    return render.trace_json(sl.entries)
