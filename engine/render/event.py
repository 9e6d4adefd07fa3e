"""Session results as text, markdown, JSON and CSV: each contestant's total, percentage and
rank per section (and direction, for a Mitchell), the adjusted lines with their rulings and
arithmetic (each line's trace, render.field), the laws each cites, the parameters the session
read, and the published figures that do not agree."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from typing import Any

from ..core.exact import exact_json, format_decimal, format_fixed, format_mixed
from ..core.vocab import SIDES
from ..field.cells import code_label
from ..field.score import ScoredSession
from . import field as fieldtrace
from . import teams as teams_report
from .jsonrows import rows_json

FORMATS = ("text", "markdown", "json", "csv")


def _d(v: Fraction | None, places: int = 2) -> str:
    return "-" if v is None else format_decimal(v, places)


def printed_places(ss: ScoredSession) -> tuple[int, int]:
    """The decimals the file prints a total and a percentage with (2 when it prints none)."""
    published = [c.published for c in ss.session.contestants.values()]
    t = next((p["total"].places for p in published if "total" in p), 2)
    pc = next((p["percent"].places for p in published if "percent" in p), 2)
    return t, pc


def fixed_or_blank(v: Fraction | None, places: int) -> str:
    return "" if v is None else format_fixed(v, places)


def _what(line) -> str:
    if line.kind == "result":
        return line.result.text if line.result is not None else "-"
    if line.kind == "artificial":
        return "artificial " + ("/".join(code_label(line.artificial[s]) for s in SIDES))
    if line.kind == "not-played":
        return "not played"
    if line.kind == "split":
        return "split weighting"
    parts = line.parts["NS"]
    return " + ".join(f"{format_mixed(p.weight)} {p.outcome.text}" for p in parts) if len(parts) > 1 else \
        f"assigned {parts[0].outcome.text}"


def adjusted_lines(ss: ScoredSession):
    for sb in ss.boards.values():
        for sl in sb.lines:
            if sl.line.kind != "result" or sl.trace is not None or sl.line.ruling:
                yield sb, sl


def steps(sl, side: str | None = None, book=None) -> list[str]:
    """A line's steps (its trace in English): those of one side, or all of them."""
    book = book or (sl.trace.book if sl.trace is not None else None)
    if side is not None:
        return fieldtrace.side_steps(sl, side, book)
    return fieldtrace.lines(sl.entries, book, skip=("rulebook", "basis"))


def rules(sl) -> list[str]:
    return fieldtrace.rules(sl)


def factored(st) -> list[str]:
    return fieldtrace.factored_lines(st)


def _parameters(ss: ScoredSession) -> str:
    return "; ".join(f"{name.split('.', 1)[1]} {value} ({origin})"
                     for name, value, origin in fieldtrace.parameter_rows(ss.trace))


def conventions_lines(ss: ScoredSession) -> list[str]:
    """The heading's conventions: each with its value, where it came from (learnt from the file, the
    program's profile, the rulebook, --set) and how many of the published figures that decide it it
    reproduces; then any other parameter the session read, in one line."""
    lr = ss.learning
    if lr is None:
        return [f"parameters: {_parameters(ss)}"] if ss.trace.parameters() else []
    head = f"Conventions: {lr.agree} of {lr.of} published figures of unruled boards and contestants reproduced"
    learnt = [c for c in lr.conventions if c.learnt]
    if learnt:
        head += f"; {len(learnt)} learnt from the file"
    out = [head + ("" if lr.conventions else " (nothing to choose)")]
    out.extend(f"  {c.text()}" for c in lr.conventions)
    shown = {c.name for c in lr.conventions}
    rest = [(n, v, o) for n, v, o in fieldtrace.parameter_rows(ss.trace) if n not in shown]
    if rest:
        out.append("  other parameters: " + "; ".join(f"{n.split('.', 1)[1]} {v} ({o})" for n, v, o in rest))
    return out


def published_lines(ss: ScoredSession, limit: int = 50) -> list[str]:
    """The published figures against bridgelaw's: with no ruling, how many agree and each that does
    not; with rulings, the unruled figures' agreement apart from what the rulings change (their
    effects, published → now, not disagreements)."""
    cs = ss.checks()
    if not cs:
        return []
    lr = ss.learning
    if lr is None or not lr.effects and lr.of == len(cs):
        bad = [c for c in cs if not c.agrees]
        out = [f"Published figures: {len(cs) - len(bad)} of {len(cs)} agree at their printed precision"]
        if lr is not None and lr.rescore_all and bad:
            out.append(f"  --rescore-all: the corrected file is rescored throughout; these {len(bad)} figures change "
                       "with it")
        out += [f"  {c.what}: published {c.published.text}, computed {_d(c.computed, 4)}" for c in bad[:limit]]
        if len(bad) > limit:
            out.append(f"  … and {len(bad) - limit} more")
        return out
    out = [f"Published figures of the boards and contestants no ruling touches: {lr.agree} of {lr.of} agree "
           "at their printed precision"]
    if lr.rescore_all and lr.differ:
        out.append(f"  --rescore-all: the corrected file is rescored throughout; these {len(lr.differ)} figures "
                   "of unruled boards and contestants change with it")
    out += [f"  {c.what}: published {c.published.text}, computed {_d(c.computed, 4)}" for c in lr.differ[:limit]]
    if len(lr.differ) > limit:
        out.append(f"  … and {len(lr.differ) - limit} more")
    if lr.effects:
        out.append(f"What the rulings change ({len(lr.effects)} published figures):")
        out += [f"  {c.what}: published {c.published.text}, now {_d(c.computed, 4)}" for c in lr.effects[:limit]]
        if len(lr.effects) > limit:
            out.append(f"  … and {len(lr.effects) - limit} more")
    return out


def text(sessions: list[ScoredSession], checks: bool = True) -> str:
    out = []
    for ss in sessions:
        s = ss.session
        out.append(f"{s.name} — {s.scoring}, rulebook {ss.book.id} {ss.book.version}, as in force on {ss.book.as_of}")
        if ss.default is not None:
            out.append(ss.default.text)
        if ss.conventions is not None:
            out.append(f"program: {ss.conventions.text}")
        out.append(f"{len(s.boards)} boards, {sum(len(b.lines) for b in s.boards.values())} lines; pairs numbered "
                   f"{s.pair_numbers}")
        out.extend(conventions_lines(ss))
        if any(e.kind == "half-matchpoints" for e in ss.trace.entries):
            out.append("The file counts 1 matchpoint per result beaten: every score is in half matchpoints.")
        group = None
        t_places, p_places = printed_places(ss)
        for st in ss.standings:
            g = st.group
            if g != group:
                group = g
                label = " ".join(x for x in (f"Section {g[0]}" if g[0] else "", g[1] or "") if x)
                out.append("")
                out.append(label or "Ranking")
                who = "player" if s.individual else "team" if s.matches else "pair"
                out.append(f"{'rank':>5} {who:>8} {'total':>9} {'%':>7} {'boards':>6}  names")
            names = st.contestant.names if st.contestant and st.contestant.names else ""
            mark = " *" if st.adjusted else ""
            out.append(f"{st.rank_text:>5} {st.key.split(':')[-1]:>8} {fixed_or_blank(st.total, t_places) or '-':>9} "
                       f"{fixed_or_blank(st.percent, p_places) or '-':>7} "
                       f"{st.boards:>6}  {names}{mark}")
        if ss.teams is not None:                    # a teams session: its matches (render/teams.py)
            out.extend(teams_report.text(ss))
        factored = [st for st in ss.standings if st.factored]
        if factored:
            out.append("")
            out.append(f"Factored totals ({len(factored)}):")
            for st in factored:
                out.append(f"  {st.key}: " + "; ".join(fieldtrace.factored_lines(st)))
        adj = list(adjusted_lines(ss))
        if adj:
            out.append("")
            out.append(f"Adjusted and artificial lines ({len(adj)}):")
            for sb, sl in adj:
                line = sl.line
                r = f" — ruling {line.ruling['entry']} ({line.ruling['file']}:{line.ruling['line']})" if line.ruling else ""
                pairs = f": NS {line.ns} v EW {line.ew}" if line.table is not None else ""     # else the label says them
                out.append(f"  {line.label}{pairs}: {_what(line)}{r}")
                if line.ruling and line.ruling.get("note"):
                    out.append(f"    note: {line.ruling['note']}")
                for side in SIDES:
                    sc = sl.side(side)
                    pct = f" ({_d(sc.percent)}%)" if sc.percent is not None else ""
                    out.append(f"    {side} {_d(sc.value)} {ss.unit}{pct}")
                for step in steps(sl, book=ss.book):
                    out.append(f"      {step}")
                for pen in fieldtrace.penalty_lines(sl):
                    out.append(f"    {pen}")
                if sl.rules:
                    out.append(f"    rules: {'; '.join(rules(sl))}")
                if sl.citations:
                    out.append(f"    law: {', '.join(sl.citations)}")
        if ss.warnings:
            out.append("")
            out.append(f"Warnings ({len(ss.warnings)}):")
            out.extend(f"  {w}" for w in ss.warnings)
        if checks:
            lines = published_lines(ss)
            if lines:
                out.append("")
                out.extend(lines)
        out.append("")
    return "\n".join(out)


def markdown(sessions: list[ScoredSession]) -> str:
    out = []
    for ss in sessions:
        s = ss.session
        out.append(f"## {s.name}")
        out.append("")
        out.append(f"{s.scoring}, rulebook `{ss.book.id}` {ss.book.version}, as in force on {ss.book.as_of}")
        if ss.default is not None:
            out.append("")
            out.append(ss.default.text)
        out.append("")
        if ss.learning is not None and ss.learning.conventions:
            head, *rows = conventions_lines(ss)
            out.append(head)
            out.append("")
            out.extend(f"- {r.strip()}" for r in rows)
            out.append("")
        out.append(f"| section | rank | {'team' if s.matches else 'pair'} | total | % | boards | names |")
        out.append("|---|---:|---:|---:|---:|---:|---|")
        t_places, p_places = printed_places(ss)          # the file's own decimals, as the text report
        for st in ss.standings:
            names = st.contestant.names if st.contestant and st.contestant.names else ""
            mark = " \\*" if st.adjusted else ""
            out.append(f"| {st.section}{' ' + st.direction if st.direction else ''} | {st.rank_text} | "
                       f"{st.key.split(':')[-1]} | {fixed_or_blank(st.total, t_places)} | "
                       f"{fixed_or_blank(st.percent, p_places)} | {st.boards} | {names}{mark} |")
        if ss.teams is not None:
            out.extend(teams_report.markdown(ss))
        factored = [st for st in ss.standings if st.factored]
        if factored:
            out.append("")
            out.append("### Factored totals")
            out.append("")
            for st in factored:
                out.append(f"- **{st.key}**: " + "; ".join(fieldtrace.factored_lines(st)))
        adj = list(adjusted_lines(ss))
        if adj:
            out.append("")
            out.append("### Adjusted lines")
            out.append("")
            for sb, sl in adj:
                line = sl.line
                out.append(f"- **{line.label}** (NS {line.ns} v EW {line.ew}): {_what(line)} — "
                           f"NS {_d(sl.NS.value)}, EW {_d(sl.EW.value)} {ss.unit}")
                for step in steps(sl, book=ss.book):
                    out.append(f"  - {step}")
                for pen in fieldtrace.penalty_lines(sl):
                    out.append(f"  - **{pen}**")
                if sl.citations:
                    out.append(f"  - law: {', '.join(sl.citations)}")
        out.append("")
    return "\n".join(out)


def as_dict(sessions: list[ScoredSession]) -> dict[str, Any]:
    def ej(v):
        return None if v is None else exact_json(v)

    out = []
    for ss in sessions:
        s = ss.session
        cs = ss.checks()
        out.append({
            "name": s.name, "scoring": s.scoring, "unit": ss.unit, "pair_numbers": s.pair_numbers,
            "rulebook": ss.book.identity,
            "conventions": _conventions(ss),
            "learnt": _learning(ss),
            "default_rulebook": None if ss.default is None else {
                "id": ss.default.id, "country": ss.default.country, "day": ss.default.day.isoformat(),
                "country_from": ss.default.whence, "text": ss.default.text},
            "parameters": {name: {"value": value, "from": origin}
                           for name, value, origin in fieldtrace.parameter_rows(ss.trace)},
            "standings": [{"key": st.key, "section": st.section, "direction": st.direction, "rank": st.rank,
                           "rank_text": st.rank_text, "total": ej(st.total), "percent": ej(st.percent),
                           "boards": st.boards, "adjusted": st.adjusted, "factored": fieldtrace.factored_lines(st),
                           "names": st.contestant.names if st.contestant else None} for st in ss.standings],
            "boards": [{"board": n, "top": ej(sb.top), "results": sb.results, "expected": sb.expected,
                        "divisor": sb.divisor, "datum": {side: ej(v) for side, v in sb.datum.items()} or None,
                        "mean": {side: ej(v) for side, v in sb.mean.items()} or None,
                        "lines": [{"section": sl.line.section, "table": sl.line.table, "ns": sl.line.ns,
                                   "ew": sl.line.ew, "kind": sl.line.kind, "what": _what(sl.line),
                                   "NS": ej(sl.NS.value), "EW": ej(sl.EW.value),
                                   "NS_percent": ej(sl.NS.percent), "EW_percent": ej(sl.EW.percent),
                                   "ruling": sl.line.ruling,
                                   "steps": {side: steps(sl, side, ss.book) for side in SIDES},
                                   "rules": rules(sl), "citations": sl.citations,
                                   "penalties": [fieldtrace.penalty_json(b) for b in sl.penalties],
                                   "trace": fieldtrace.trace_json(sl)} for sl in sb.lines]}
                       for n, sb in ss.boards.items()],
            "warnings": list(ss.warnings),
            "published": {"checked": len(cs), "agree": sum(c.agrees for c in cs),
                          "differ": [{"what": c.what, "published": c.published.text, "computed": ej(c.computed)}
                                     for c in cs if not c.agrees]},
            **({"teams": teams_report.as_dict(ss)} if ss.teams is not None else {}),
        })
    return {"sessions": out}


def _conventions(ss: ScoredSession) -> dict[str, Any] | None:
    c = ss.conventions
    if c is None:
        return None
    return {"profile": c.profile.id if c.profile else None, "how": c.how, "text": c.text,
            "program": {"name": c.program.name, "version": c.program.version} if c.program else None}


def _learning(ss: ScoredSession) -> dict[str, Any] | None:
    lr = ss.learning
    if lr is None:
        return None
    return {"agree": lr.agree, "of": lr.of, "scorings": lr.scorings,
            "conventions": [{"name": c.name, "value": _plain(c.value), "source": c.source, "learnt": c.learnt,
                             "was": _plain(c.was), "agree": c.agree, "of": c.of,
                             "tried": [_plain(v) for v in c.tried]} for c in lr.conventions],
            "differ": [{"what": c.what, "published": c.published.text,
                        "computed": None if c.computed is None else exact_json(c.computed)} for c in lr.differ],
            "ruling_effects": [{"what": c.what, "published": c.published.text,
                                "now": None if c.computed is None else exact_json(c.computed)} for c in lr.effects]}


# lists written one item a line: a session's lines, standings and differences, a teams event's matches and teams
ROWS = frozenset({"lines", "standings", "differ", "ruling_effects", "matches", "teams", "pairs"})


def as_json(sessions: list[ScoredSession]) -> str:
    return rows_json(as_dict(sessions), ROWS)


def as_csv(sessions: list[ScoredSession]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["session", "section", "direction", "rank", "pair", "total", "total_exact", "percent", "boards",
                "adjusted", "names"])
    for ss in sessions:
        for st in ss.standings:
            w.writerow([ss.session.name, st.section, st.direction or "", st.rank_text, st.key.split(":")[-1],
                        _d(st.total), str(st.total), _d(st.percent), st.boards, " ".join(st.adjusted),
                        st.contestant.names if st.contestant and st.contestant.names else ""])
    return buf.getvalue()


RENDER = {"text": text, "markdown": markdown, "json": as_json, "csv": as_csv}


# --- a proposed regulation across a whole event (bridgelaw event --compare) -------------------------------

def comparison_rows(base: list[ScoredSession], other: list[ScoredSession]) -> list[dict[str, Any]]:
    """Per session: each contestant whose total or place changes, and each line whose score does
    (field/season.py's comparison, the one `bridgelaw impact` sums over a season)."""
    from ..field.season import compare_sessions

    def f(v: str | None) -> Fraction | None:
        return None if v is None else Fraction(v)
    out = []
    for c in compare_sessions(base, other):
        contestants = [{"key": x["key"], "total": tuple(map(f, x["total"])), "percent": tuple(map(f, x["percent"])),
                        "place": tuple(x["place"]), "change": f(x["change"])} for x in c["changed_contestants"]]
        lines = [{"label": x["label"], "NS": tuple(map(f, x["NS"])), "EW": tuple(map(f, x["EW"])),
                  "causes": x["causes"]} for x in c["changed_lines"]]
        out.append({"session": c["session"], "before": c["before"], "after": c["after"], "unit": c["unit"],
                    "parameters": c["parameters"], "contestants": contestants, "lines": lines})
    return out


def comparison_text(base: list[ScoredSession], other: list[ScoredSession]) -> str:
    out = []
    for c in comparison_rows(base, other):
        out.append(f"{c['session']} — {c['before']} compared with {c['after']}")
        for p in c["parameters"]:
            out.append(f"  {p['name']}: {p['before']} → {p['after']}")
        moved = [x for x in c["contestants"] if x["place"][0] != x["place"][1]]
        out.append(f"{len(c['contestants'])} contestants' scores change, {len(moved)} places; "
                   f"{len(c['lines'])} lines change")
        if c["contestants"]:
            out.append(f"{'contestant':>12} {'total before':>13} {'after':>10} {'change':>9} {'%':>15} {'place':>11}")
            for x in sorted(c["contestants"], key=lambda x: -abs(x["change"])):
                pct = f"{_d(x['percent'][0])} → {_d(x['percent'][1])}" if x["percent"][0] is not None else ""
                out.append(f"{x['key']:>12} {_d(x['total'][0]):>13} {_d(x['total'][1]):>10} "
                           f"{format_decimal(x['change'], 2, signed=True):>9} {pct:>15} "
                           f"{x['place'][0] + ' → ' + x['place'][1]:>11}")
        if c["lines"]:
            out.append("Lines:")
            for x in c["lines"][:200]:
                out.append(f"  {x['label']}: NS {_d(x['NS'][0])} → {_d(x['NS'][1])}, EW {_d(x['EW'][0])} → "
                           f"{_d(x['EW'][1])} {c['unit']}" + (f"  ({'; '.join(x['causes'])})" if x.get("causes") else ""))
            if len(c["lines"]) > 200:
                out.append(f"  … and {len(c['lines']) - 200} more")
        out.append("")
    return "\n".join(out)


def comparison_json(base: list[ScoredSession], other: list[ScoredSession]) -> str:
    def ej(v):
        return None if v is None else exact_json(v)

    rows = comparison_rows(base, other)
    for c in rows:
        for x in c["contestants"]:
            x["total"] = [ej(v) for v in x["total"]]
            x["percent"] = [ej(v) for v in x["percent"]]
            x["change"] = ej(x["change"])
        for x in c["lines"]:
            x["NS"], x["EW"] = [ej(v) for v in x["NS"]], [ej(v) for v in x["EW"]]
        for p in c["parameters"]:
            p["before"], p["after"] = _plain(p["before"]), _plain(p["after"])
    return json.dumps({"compare": rows}, indent=1, ensure_ascii=False) + "\n"


def _plain(v: Any) -> Any:
    return str(v) if isinstance(v, Fraction) else v


# --- the corrected file's changed figures (bridgelaw event --diff) ------------------------------------

_CELLS = {"NS": "NS points", "EW": "EW points", "NS%": "NS %", "EW%": "EW %", "total": "total",
          "percent": "percentage", "boards": "boards played", "place": "place"}


def changes_text(changes: list, sessions: int = 1) -> str:
    """Every figure the corrected file changes: where, old → new, and why (the ruling, or what it
    follows from)."""
    if not changes:
        return "\nChanged figures: none (the corrected file is the input as it was)\n"
    out = [f"\nChanged figures: {len(changes)}"]
    for c in changes:
        where = (f"session {c.session} " if sessions > 1 else "") + c.where
        out.append(f"  {where} {_CELLS.get(c.cell, c.cell)}: {c.old if c.old is not None else '(none)'} → {c.new}"
                   f"  ({c.why})")
    return "\n".join(out) + "\n"


def changes_markdown(changes: list, sessions: int = 1) -> str:
    if not changes:
        return "\n## Changed figures\n\nNone: the corrected file is the input as it was.\n"
    out = ["", f"## Changed figures ({len(changes)})", "", "| where | figure | old | new | why |", "|---|---|---|---|---|"]
    for c in changes:
        where = (f"session {c.session} " if sessions > 1 else "") + c.where
        cells = [where, _CELLS.get(c.cell, c.cell), c.old if c.old is not None else "", c.new, c.why]
        out.append("| " + " | ".join(str(x).replace("|", "\\|") for x in cells) + " |")
    return "\n".join(out) + "\n"


def changes_csv(changes: list) -> str:
    """The changed figures as CSV, after the report's rows and an empty line."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["session", "board", "where", "cell", "old", "new", "why"])
    for c in changes:
        w.writerow([c.session, c.board if c.board is not None else "", c.where, c.cell,
                    c.old if c.old is not None else "", c.new, c.why])
    return "\n" + buf.getvalue()


CHANGES = {"text": changes_text, "markdown": changes_markdown, "csv": lambda changes, sessions=1: changes_csv(changes)}


def changes_json(sessions: list[ScoredSession], changes: list) -> str:
    """The JSON report with its ``changed_figures`` section."""
    d = as_dict(sessions)
    d["changed_figures"] = [c.as_dict() for c in changes]
    return json.dumps(d, indent=1, ensure_ascii=False) + "\n"
