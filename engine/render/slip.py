"""The ruling slip: what a TD signs, hands to the players and files — one page for an ordinary case.

Built from the :class:`~bridgelaw.ruling.result.Ruling` object and the case (never from rendered text):

- where and when (the record's event, session, date, time, board, table, pairs, director);
- a plain headline ("Score adjusted: both sides get the assigned score");
- the facts, the infraction and the TD's reasons;
- each side's score in bridge terms (``4H= N 2/3, 4H-1 N 1/3``) and in points;
- a compact arithmetic players can follow (A, B, C, each side's formula), from the ruling's trace —
  the full trace on request;
- the laws the trace cites: the infraction's (the empowering law) first, then in the Laws' order;
- the right to appeal and its time limit, from the rulebook (``appeal.time_limit_minutes`` and the
  paragraph it cites);
- the appeal, when there was one, and sign-off lines.

:func:`html` renders it as an HTML fragment for the web page and the casebook, :func:`page` as a
printable HTML page, :func:`text` and :func:`markdown` for ``bridgelaw slip`` — each from the one
:class:`Slip`, so that no format says more or less than another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any

from . import record, ruling as render
from .ruling import HEADLINES  # noqa: F401 — the slip's headline, in words (the web page imports it from here)
from ..core.exact import format_decimal, format_mixed
from ..ruling.result import UNIT_NAMES, Ruling

ARTIFICIAL_WORDS = {"avg-plus": "average plus", "average": "average", "avg-minus": "average minus",
                    "session-score": "its session score", "not-scored": "not scored"}
ROLES = {"nos": "non-offending", "os": "offending"}


@dataclass
class SideLine:
    side: str
    role: str             # non-offending | offending | ""
    bridge: str           # the score in bridge terms: "4H= N 2/3, 4H-1 N 1/3"
    points: str           # in the event's unit: "4 2/3 IMPs (4.67)"
    formula: str


@dataclass
class Slip:
    title: str
    headline: str
    outcome: str
    head: list[tuple[str, str]]
    story: list[tuple[str, str]]
    facts: list[tuple[str, str]]
    sides: list[SideLine]
    players: list[tuple[str, str]]
    vp: str
    arithmetic: list[str]
    steps: list[str]
    laws: list[tuple[str, str]]
    appeal_rights: str
    appeal: list[tuple[str, str]]
    published: list[tuple[str, str]]
    warnings: list[str]
    rulebook: str
    director: str = ""
    time: str = ""
    date: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    penalties: list[str] = field(default_factory=list)     # "Procedural penalty (Law 90A): EW, 10% of a top …"


def paragraph_key(ref: str) -> tuple:
    """Law paragraphs in the Laws' order (12A1 < 12B1 < 12C1(a) < 12C1(e)(ii) < 92B); regulations after."""
    m = re.match(r"^(?:Law\s*)?(\d+)(.*)$", ref)
    if not m:
        return (1, 0, ref)
    return (0, int(m[1]), m[2])


def _weights(parts: list[tuple[str, Fraction]]) -> str:
    if len(parts) == 1:
        return parts[0][0]
    return ", ".join(f"{text} {format_mixed(w * 100)}%" for text, w in parts)


def _outcomes(r: Ruling, case: Any, side: str) -> list[tuple[str, Fraction]]:
    used = (r.formed or {}).get(side)            # as the ruling weighted them (legal only, poll, …)
    if used:
        return [(o.text, w) for w, o in used]
    comps = (case.without or {}).get(side) or []
    return [(c.outcome.text, c.weight) for c in comps if c.legal] or [(c.outcome.text, c.weight) for c in comps]


def bridge_terms(r: Ruling, case: Any, side: str) -> str:
    """A side's score as players say it: the contract(s) with their weights, or average plus, …"""
    s = r.sides[side]
    m = case.model
    if s.value is None:
        return "not scored"
    if r.outcome == "artificial":
        return ARTIFICIAL_WORDS.get(s.label, s.label)
    table = m.table_result.text if m.table_result is not None else ""
    nos = case.nos or "NS"
    formula = s.formula.replace(" − penalty", "").replace(" ", "")
    if formula in ("A", "A'"):
        return f"{table} (the table result stands)"
    if formula in ("B", "B'"):
        return _weights(_outcomes(r, case, side if case.split else nos))
    if formula in ("A+B-C", "A'+B'-C'"):
        return f"{table} (table result), plus the damage not of its own making"
    return s.formula


def _named(entries: list, kind: str, name: str) -> Any:
    """The last entry of `kind` for quantity `name` (B, C …) in a ruling's trace."""
    found = [e for e in entries if e.kind == kind and e.data.get("name") == name]
    return found[-1] if found else None


def arithmetic(r: Ruling, case: Any) -> list[str]:
    """The few lines a player can follow, from the ruling's trace: A (the table result), B (what
    the non-offending side would have scored, with its weights), C, and what each side gets; an
    artificial score's words and values. The results are named as the case gives them."""
    entries = r.trace.entries
    m, unit = case.model, UNIT_NAMES[r.unit]
    nos = case.nos
    view = f" for {nos}" if nos else ""
    kind = next((e.data["decision"].rule for e in entries if e.kind == "decision"
                 and e.data["decision"].stage == "kind"), None)
    if kind is not None and kind.apply.get("kind") == "not-scored":
        said = next(e.data.get("not_scheduled") for e in entries if e.kind == "decision"
                    and e.data["decision"].stage == "kind")
        return [f"The board was not scheduled for a contestant ({said}): it is not scored."]
    out = []
    sides: dict[str, Any] = {}
    for e in entries:
        if e.kind in ("artificial", "share", "not-scored", "award"):
            sides[e.data["side"]] = e
    if any(e.kind == "artificial" for e in entries):
        for side in r.sides:
            e = sides.get(side)                 # its last step: the share of the top, the IMPs, or not scored
            value = None if e is None or e.kind == "not-scored" else e.data["value"]
            label = r.sides[side].label
            out.append(f"{side}: {ARTIFICIAL_WORDS.get(label, label)} = {render.amount(r, value)}")
        return out
    table = next((e for e in entries if e.kind == "table"), None)
    if table is not None and table.data["scored"] is not None and m.table_result is not None:
        out.append(f"A = the table result, {m.table_result.text} = {render.amount(r, table.data['scored'].value)}{view}")
    if _named(entries, "selected", "B") or _named(entries, "weighted", "B"):     # B was formed (not B = A)
        # as the awards used it: after any rounding, and any floor the empowering law sets
        value = next(e.data["env"]["B"] for e in entries if e.kind == "award" and "B" in e.data["env"])
        what = _weights(_outcomes(r, case, nos))
        out.append(f"B = without the infraction, {what} = {render.amount(r, value)}{view}")
    c = _named(entries, "quantity", "C")
    if case.instead is not None and c is not None:
        what = _weights([(comp.outcome.text, comp.weight) for comp in case.instead])
        out.append(f"C = what {nos} would have scored without its own serious error, {what} = "
                   f"{render.amount(r, c.data['value'])}{view}")
    for side in r.sides:
        e = sides.get(side)
        if e is None or e.kind != "award":
            continue
        role = f" ({ROLES[e.data['role']]})" if e.data["role"] in ROLES else ""
        out.append(f"{side}{role} gets {e.data['formula'].text} = {render.amount(r, e.data['value'], side)}")
    for e in entries:                           # a finding defeated the empowering law: the table result stands
        if e.kind == "stands":
            out.append(f"{e.data['side']} keeps the table result: {render.amount(r, e.data['scored'].value, e.data['side'])}")
    if r.top is not None and r.unit == "MP":
        out.append(f"The top on this board is {format_mixed(r.top)} {unit}.")
    return out


def laws(r: Ruling, case: Any) -> list[tuple[str, str]]:
    """The paragraphs the ruling's trace cites, as a slip lists them: the infraction's laws (which
    empower the adjustment) first, as the ruling puts them, then the others in the Laws' order."""
    cited = [(p.ref, p.text) for p in r.citations]
    first = [pair for pair in cited if pair[0] in r.empowering]
    rest = sorted((pair for pair in cited if pair[0] not in r.empowering), key=lambda kv: paragraph_key(kv[0]))
    return first + rest


def appeal_rights(r: Ruling) -> str:
    book = r.rulebook
    minutes = book.parameters.get("appeal.time_limit_minutes")
    dated = book.in_force("appeal.time_limit_minutes")
    cite = f" (Law {', '.join(dated.cites)})" if dated is not None and dated.cites else ""
    if minutes is None:
        return ("Either side may appeal this ruling within the time the regulations set; "
                "ask the Director.")
    return (f"Either side may appeal this ruling{cite}: the right to appeal expires {format_mixed(minutes)} "
            f"minutes after the official score is made available for inspection (the time limit of rulebook "
            f"{book.id}).")


def build(r: Ruling, case: Any) -> Slip:
    m = case.model
    sides = [SideLine(s.side, ROLES.get(s.role or "", ""), bridge_terms(r, case, s.side),
                      render.amount(r, s.value, s.side), s.formula) for s in r.sides.values()]
    players = []
    if r.players:
        names = record.players(case)
        players = [(f"{d} {names.get(d, '')}".strip(), render.amount(r, v)) for d, v in r.players.items()]
    vp = ", ".join(f"{side} {format_decimal(v)} VP" for side, v in r.vp.items()) if r.vp else ""
    b = r.rulebook
    until = f" to {b.effective_until.isoformat()}" if b.effective_until else ""
    rec = m.record
    return Slip(
        title=r.title, headline=HEADLINES.get(r.outcome, r.outcome), outcome=r.outcome,
        head=record.head(case), story=record.story(case), facts=render.facts(r, case), sides=sides,
        players=players, vp=vp, arithmetic=arithmetic(r, case), steps=render.step_lines(r), laws=laws(r, case),
        appeal_rights=appeal_rights(r), appeal=record.appeal(case), published=record.published(case, r),
        warnings=list(r.warnings),
        rulebook=f"{b.id} {b.version}, {b.authority}, in force from {b.effective_from.isoformat()}{until}; "
                 f"sha256 {b.sha256}",
        director=(rec.director or "") if rec else "", time=(rec.time or "") if rec else "",
        date=m.date.isoformat() if m.date else "", penalties=penalty_lines(r),
    )


def penalty_lines(r: Ruling) -> list[str]:
    """Each procedural penalty with the paragraph its rule cites: "Procedural penalty (Law 90A): EW: …"."""
    rules = {rule.id: rule for rule in r.rules}
    out = []
    for p, line in zip(r.penalties, render.penalties_text(r)):
        cites = ", ".join(rules[p.rule].cites) if p.rule in rules else ""
        out.append(f"Procedural penalty{f' (Law {cites})' if cites else ''}: {line}")
    return out


# --- HTML ----------------------------------------------------------------------------------------

def _rows(rows: list[tuple[str, str]], cls: str, ident: str = "") -> str:
    if not rows:
        return ""
    body = "".join(f"<tr><th scope=\"row\">{escape(k)}</th><td{_id(ident and ident + '-' + slug(k))}>{_para(v)}</td></tr>"
                   for k, v in rows)
    return f"<table class=\"{cls}\"{_id(ident)}><tbody>{body}</tbody></table>"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _para(text: str) -> str:
    return "<br>".join(escape(line) for line in text.strip().splitlines())


def _id(ident: str) -> str:
    return f" id=\"{ident}\"" if ident else ""


def html(s: Slip, *, trace: bool = False, prefix: str = "slip") -> str:
    """The slip as an HTML fragment (an <article>); with `trace`, the full trace open below it."""
    out = [f"<article class=\"slip\" id=\"{prefix}\">", "<header>", "<h1>Director's ruling</h1>",
           f"<p class=\"slip-title\">{escape(s.title)}</p>",
           _rows(s.head, "slip-head", f"{prefix}-head"), "</header>"]
    out += [f"<p class=\"headline\" id=\"{prefix}-headline\"><strong>{escape(s.headline)}.</strong></p>"]
    if s.story:
        out += ["<section class=\"story\">", _rows(s.story, "story", f"{prefix}-story"), "</section>"]
    out += ["<section>", "<h2>Scores</h2>", f"<table class=\"scores\" id=\"{prefix}-scores\">",
            "<thead><tr><th scope=\"col\">Side</th><th scope=\"col\">In bridge terms</th>"
            "<th scope=\"col\">Score</th></tr></thead><tbody>"]
    for line in s.sides:
        role = f" <span class=\"role\">({escape(line.role)})</span>" if line.role else ""
        out.append(f"<tr><th scope=\"row\">{escape(line.side)}{role}</th>"
                   f"<td id=\"{prefix}-bridge-{line.side}\">{escape(line.bridge)}</td>"
                   f"<td class=\"score\" id=\"{prefix}-score-{line.side}\">{escape(line.points)}</td></tr>")
    out.append("</tbody></table>")
    if s.players:
        out.append(_rows(s.players, "players"))
    if s.vp:
        out.append(f"<p class=\"vp\">Victory points: {escape(s.vp)}</p>")
    for i, line in enumerate(s.penalties):
        out.append(f"<p class=\"penalty\" id=\"{prefix}-penalty-{i}\">{escape(line)}</p>")
    out += ["<h3>How the scores were worked out</h3>", f"<ol class=\"arithmetic\" id=\"{prefix}-arithmetic\">"]
    out += [f"<li>{escape(line)}</li>" for line in s.arithmetic]
    out.append("</ol>")
    if s.warnings:
        out.append("<ul class=\"warnings\">" + "".join(f"<li><strong>Warning:</strong> {escape(w)}</li>"
                                                      for w in s.warnings) + "</ul>")
    out.append("</section>")
    out += ["<section>", "<h2>Laws</h2>", f"<dl class=\"law\" id=\"{prefix}-law\">"]
    out += [f"<div><dt>{escape(ref)}</dt><dd>{escape(text)}</dd></div>" for ref, text in s.laws]
    out += ["</dl>", "</section>"]
    out += ["<section class=\"appeal\">", "<h2>Appeal</h2>",
            f"<p class=\"rights\" id=\"{prefix}-appeal-rights\">{escape(s.appeal_rights)}</p>",
            _rows(s.appeal, "appeal", f"{prefix}-appeal"), "</section>"]
    if s.published:
        out += ["<section class=\"published\">", "<h2>Published figures</h2>", _rows(s.published, "published"),
                "</section>"]
    out += ["<footer>", f"<p class=\"rulebook\">Rulebook {escape(s.rulebook)}</p>", "<table class=\"sign\"><tbody>",
            f"<tr><th scope=\"row\">Director</th><td class=\"blank\">{escape(s.director)}</td>"
            f"<th scope=\"row\">Date and time</th><td class=\"blank\">{escape(' '.join(p for p in (s.date, s.time) if p))}</td></tr>",
            "<tr><th scope=\"row\">Signed (Director)</th><td class=\"blank\"></td>"
            "<th scope=\"row\">Players informed at</th><td class=\"blank\"></td></tr>",
            "<tr><th scope=\"row\">Appeal lodged by</th><td class=\"blank\"></td>"
            "<th scope=\"row\">at (time)</th><td class=\"blank\"></td></tr>",
            "</tbody></table>", "</footer>"]
    sub = ' class="sub"'
    steps = "".join(f"<li{sub if st.startswith('  ') else ''}>{escape(st.strip())}</li>" for st in s.steps)
    facts = _rows(s.facts, "facts-table")
    out += [f"<details class=\"trace\"{' open' if trace else ''} id=\"{prefix}-trace\">",
            "<summary>Full trace: the facts as entered and every step</summary>", facts,
            f"<ul class=\"steps\">{steps}</ul>", "</details>", "</article>"]
    return "\n".join(x for x in out if x)


# --- text, Markdown and a whole page (bridgelaw slip) -------------------------------------------

def _lines(s: Slip) -> list[tuple[str, Any]]:
    """The slip as (kind, content) blocks in reading order, for the text and Markdown renderers."""
    blocks: list[tuple[str, Any]] = [("title", "Director's ruling"), ("subtitle", s.title), ("rows", s.head),
                                     ("headline", s.headline)]
    if s.story:
        blocks.append(("rows", s.story))
    blocks.append(("heading", "Scores"))
    blocks.append(("rows", [(f"{x.side}" + (f" ({x.role})" if x.role else ""), f"{x.bridge}: {x.points}")
                            for x in s.sides]))
    if s.players:
        blocks.append(("rows", s.players))
    if s.vp:
        blocks.append(("para", f"Victory points: {s.vp}"))
    for line in s.penalties:
        blocks.append(("para", line))
    blocks.append(("subheading", "How the scores were worked out"))
    blocks.append(("numbered", s.arithmetic))
    for w in s.warnings:
        blocks.append(("para", f"Warning: {w}"))
    blocks.append(("heading", "Laws"))
    blocks.append(("laws", s.laws))
    blocks.append(("heading", "Appeal"))
    blocks.append(("para", s.appeal_rights))
    if s.appeal:
        blocks.append(("rows", s.appeal))
    if s.published:
        blocks.append(("heading", "Published figures"))
        blocks.append(("rows", s.published))
    blocks.append(("para", f"Rulebook {s.rulebook}"))
    when = " ".join(p for p in (s.date, s.time) if p)
    blocks.append(("sign", [("Director", s.director), ("Date and time", when), ("Signed (Director)", ""),
                            ("Players informed at", ""), ("Appeal lodged by", ""), ("at (time)", "")]))
    return [(kind, content) for kind, content in blocks if content or kind == "numbered"]


def text(s: Slip) -> str:
    """The slip as plain text (``bridgelaw slip CASE``)."""
    out: list[str] = []
    for kind, content in _lines(s):
        if kind == "title":
            out += [content.upper(), ""]
        elif kind == "subtitle":
            out += [content, ""]
        elif kind in ("rows", "sign"):
            width = max((len(k) for k, _ in content), default=0)
            for k, v in content:
                lines = str(v).strip().splitlines() or ["_" * 24 if kind == "sign" else ""]
                out.append(f"{k + ':':<{width + 1}} {lines[0]}")
                out += [f"{'':<{width + 1}} {line}" for line in lines[1:]]
            out.append("")
        elif kind == "headline":
            out += [f"{content}.", ""]
        elif kind == "heading":
            out += [content, "-" * len(content)]
        elif kind == "subheading":
            out.append(f"{content}:")
        elif kind == "numbered":
            out += [f"  {i}. {line}" for i, line in enumerate(content, 1)]
            out.append("")
        elif kind == "laws":
            for ref, words in content:
                out.append(f"{ref}  {words}")
            out.append("")
        else:
            out += [content, ""]
    return "\n".join(out).rstrip() + "\n"


def _md(text_: str) -> str:
    """A text for Markdown: characters that would start a list, a heading or emphasis escaped."""
    t = re.sub(r"([\\`*_#|<>\[\]])", r"\\\1", text_)
    return re.sub(r"^([-+]|\d+[.)])(\s)", r"\\\1\2", t)


def markdown(s: Slip) -> str:
    """The slip as Markdown (a numbered list for the arithmetic; a line such as "3/5 × …" stays text)."""
    out: list[str] = []
    for kind, content in _lines(s):
        if kind == "title":
            out += [f"# {content}", ""]
        elif kind == "subtitle":
            out += [f"**{_md(content)}**", ""]
        elif kind in ("rows", "sign"):
            out += ["| | |", "|---|---|"] + [f"| {_md(k)} | {_md(str(v)).replace(chr(10), '<br>')} |" for k, v in content]
            out.append("")
        elif kind == "headline":
            out += [f"**{_md(content)}.**", ""]
        elif kind == "heading":
            out += [f"## {content}", ""]
        elif kind == "subheading":
            out += [f"### {content}", ""]
        elif kind == "numbered":
            out += [f"{i}. {_md(line)}" for i, line in enumerate(content, 1)]
            out.append("")
        elif kind == "laws":
            for ref, words in content:
                out += [f"**{_md(ref)}** {_md(words)}", ""]
        else:
            out += [_md(content), ""]
    return "\n".join(out).rstrip() + "\n"


def page(s: Slip, stylesheet: str = "") -> str:
    """The slip as a whole printable HTML page (its stylesheet inline: the file opens anywhere and
    prints on one page; print to PDF from the browser)."""
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>Director's ruling — {escape(s.title)}</title>\n<style>\n{stylesheet}\n</style>\n</head>\n"
            f"<body class=\"slip-page\">\n{html(s)}\n</body>\n</html>\n")
