"""Reading rulebooks: `explain` a rule or a parameter, and `diff` two rulebooks after inheritance."""

from __future__ import annotations

import json
from typing import Any

from ..rulebook import parameters as params
from ..core.errors import BridgelawError, did_you_mean
from ..rulebook import Rule, Rulebook


def _rule_lines(book: Rulebook, rule: Rule) -> list[str]:
    out = [f"{rule.id}  ({book.id} {book.version}, stage {rule.stage})", f"  {rule.explain_for(book)}", "",
           f"  when      {rule.when_text}"]
    if rule.outcome:
        out.append(f"  outcome   {rule.outcome}")
    for key, f in rule.award.items():
        out.append(f"  award     {key} = {f.text}")
    for key, value in rule.apply.items():
        shown = f" = {params.show(book.parameters[value], value)}" if value in book.parameters else ""
        out.append(f"  apply     {key}: {value}{shown}")
    if rule.overrides:
        out.append(f"  overrides {', '.join(rule.overrides)}")
    if rule.start or rule.end:
        out.append(f"  in force  {rule.start or '…'} to {rule.end or '…'}")
    out += ["", "  cites"]
    for ref in rule.cites:
        p = book.paragraphs[ref]
        note = "" if p.confirmed else " (text not confirmed)"
        out.append(f"    {ref}{note}: {p.text}")
    out += ["", "  history"] + [f"    {h}" for h in rule.history]
    return out


def _parameter_lines(book: Rulebook, name: str) -> list[str]:
    kind, summary = params.PARAMETERS[name]
    out = [f"{name}  ({book.id} {book.version}, parameter)", f"  {summary}", ""]
    if name in book.bounds:
        out += [f"  the Law: {book.bounds[name].text(name)}", ""]
    for d in book.dated.get(name, []):
        cites = f"; cites {', '.join(d.cites)}" if d.cites else ""
        out.append(f"  {params.show(d.value, name):<10} {d.period}  — {d.origin}{cites}")
    if name not in book.dated:
        out.append("  not set in this rulebook")
    return out


def explain(books: list[Rulebook], name: str) -> str:
    """A rule's or a parameter's explanation in each of `books` that has it."""
    blocks = []
    for book in books:
        if any(r.id == name for r in book.all_rules):
            blocks.append(_rule_lines(book, book.rule(name)))
        elif name in params.PARAMETERS and (name in book.dated or len(books) == 1):
            blocks.append(_parameter_lines(book, name))
    if not blocks:
        known = {r.id for b in books for r in b.all_rules} | set(params.PARAMETERS)
        raise BridgelawError(f"no rule or parameter '{name}' in {', '.join(b.id for b in books)}",
                             suggestion=did_you_mean(name, known))
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"


def listing(book: Rulebook) -> str:
    out = [f"{book.id} {book.version} — {book.title}", "", "rules (stage: id — explanation)"]
    for r in book.all_rules:
        dated = f" [{r.start or '…'} to {r.end or '…'}]" if (r.start or r.end) else ""
        out.append(f"  {r.stage}: {r.id}{dated} — {r.explain_for(book)}")
    out += ["", "parameters"]
    for name in book.dated:
        out.append(f"  {name} = " + "; ".join(f"{params.show(d.value, name)} ({d.period})" if len(book.dated[name]) > 1
                                               else params.show(d.value, name) for d in book.dated[name]))
    return "\n".join(out) + "\n"


# --- diff ----------------------------------------------------------------------------------------

def _rule_signature(rule: Rule) -> dict[str, Any]:
    return {"stage": rule.stage, "when": rule.when_text, "outcome": rule.outcome,
            "award": {k: f.text for k, f in rule.award.items()}, "apply": rule.apply,
            "overrides": list(rule.overrides), "cites": list(rule.cites),
            "effective": [str(rule.start) if rule.start else None, str(rule.end) if rule.end else None]}


def _dated_text(book: Rulebook, name: str) -> str | None:
    values = book.dated.get(name)
    if not values:
        return None
    return "; ".join(f"{params.show(d.value, name)}" + (f" ({d.period})" if len(values) > 1 else "") for d in values)


def diff(a: Rulebook, b: Rulebook) -> dict[str, Any]:
    """The structural difference from rulebook `a` to rulebook `b`."""
    out: dict[str, Any] = {"from": a.identity, "to": b.identity, "parameters": [], "rules": {"added": [], "removed": [],
                           "changed": []}, "paragraphs": {"added": [], "removed": [], "changed": []}}
    for name in params.PARAMETERS:
        old, new = _dated_text(a, name), _dated_text(b, name)
        if old != new:
            out["parameters"].append({"name": name, "from": old, "to": new})
    ra, rb = {r.id: r for r in a.all_rules}, {r.id: r for r in b.all_rules}
    out["rules"]["added"] = [{"id": i, "stage": rb[i].stage, "explain": rb[i].explain_for(b)} for i in rb if i not in ra]
    out["rules"]["removed"] = [{"id": i, "stage": ra[i].stage} for i in ra if i not in rb]
    for i in ra:
        if i in rb:
            sa, sb = _rule_signature(ra[i]), _rule_signature(rb[i])
            changes = {k: {"from": sa[k], "to": sb[k]} for k in sa if sa[k] != sb[k]}
            if changes:
                out["rules"]["changed"].append({"id": i, "changes": changes})
    pa, pb = a.paragraphs, b.paragraphs
    out["paragraphs"]["added"] = [r for r in pb if r not in pa]
    out["paragraphs"]["removed"] = [r for r in pa if r not in pb]
    out["paragraphs"]["changed"] = [r for r in pa if r in pb and pa[r].text != pb[r].text]
    return out


def diff_text(d: dict[str, Any]) -> str:
    out = [f"{d['from']['id']} {d['from']['version']} → {d['to']['id']} {d['to']['version']}", ""]
    out.append("parameters" + ("" if d["parameters"] else ": no change"))
    for p in d["parameters"]:
        out.append(f"  {p['name']}: {p['from'] or '(unset)'} → {p['to'] or '(unset)'}")
    rules = d["rules"]
    out.append("rules" + ("" if any(rules.values()) else ": no change"))
    out += [f"  + {r['id']} ({r['stage']}): {r['explain']}" for r in rules["added"]]
    out += [f"  - {r['id']} ({r['stage']})" for r in rules["removed"]]
    for r in rules["changed"]:
        out.append(f"  ~ {r['id']}")
        for key, change in r["changes"].items():
            out.append(f"      {key}: {_show(change['from'])} → {_show(change['to'])}")
    paras = d["paragraphs"]
    out.append("citations" + ("" if any(paras.values()) else ": no change"))
    out += [f"  + {r}" for r in paras["added"]] + [f"  - {r}" for r in paras["removed"]]
    out += [f"  ~ {r} (text changed)" for r in paras["changed"]]
    return "\n".join(out) + "\n"


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join("…" if v is None else str(v) for v in value) + "]"
    return str(value)


def diff_json(d: dict[str, Any]) -> str:
    return json.dumps(d, indent=2, ensure_ascii=False, default=str) + "\n"


# --- exceptions --------------------------------------------------------------------------------------

def exceptions(book: Rulebook, stage: str) -> str:
    """The rules of `stage` as a tree: each rule with, indented under it, the rules that override it
    (its exceptions). ``overrides`` is transitive: an exception to an exception wins over both."""
    from ..rulebook.stages import STAGES
    if stage not in STAGES:
        raise BridgelawError(f"unknown stage '{stage}'", expected="one of " + ", ".join(STAGES),
                             suggestion=did_you_mean(stage, STAGES))
    rules = [r for r in book.all_rules if r.stage == stage]      # every rule, whatever its dates
    ids = {r.id for r in rules}
    under: dict[str, list[str]] = {r.id: [] for r in rules}
    for r in rules:
        for target in r.overrides:
            if target in under:
                under[target].append(r.id)
    roots = [r.id for r in rules if not any(t in ids for t in r.overrides)]
    by_id = {r.id: r for r in rules}
    out = [f"{book.id} {book.version}, stage {stage} ({STAGES[stage].hit}): "
           f"{len(rules)} rules; exceptions are indented under the rule they override"]

    def line(rule_id: str, depth: int) -> None:
        r = by_id[rule_id]
        what = r.outcome or ", ".join(f"{k}: {v}" for k, v in r.apply.items()) or \
            ", ".join(f"{k} = {f.text}" for k, f in r.award.items())
        dated = f"  (in force {r.start or '…'} to {r.end or '…'})" if r.start or r.end else ""
        out.append(f"{'  ' * (depth + 1)}{'└ ' if depth else ''}{r.id}  [{', '.join(r.cites)}]  {what}{dated}")
        for child in under[rule_id]:
            line(child, depth + 1)

    for root in roots:
        line(root, 0)
    return "\n".join(out) + "\n"


# --- the laws that empower an adjustment, as a table (docs/rulebooks.md) ------------------------------

def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _confirmed(book: Rulebook, refs: tuple[str, ...]) -> str:
    states = [book.paragraphs[r].confirmed for r in refs]
    return "yes" if all(states) else "no" if not any(states) else \
        "partly (" + ", ".join(f"{r} {'yes' if s else 'no'}" for r, s in zip(refs, states)) + ")"


def _paragraph(book: Rulebook, ref: str) -> str:
    p = book.paragraphs[ref]
    where = None                 # the page the words were read on (an unconfirmed text's own link only)
    if p.citation is not None:
        where = p.citation.url or (p.citation.document.url if p.confirmed else None)
    source = f" ([source]({where}))" if where else ""
    mark = "" if p.confirmed else " *(not confirmed)*"
    return f"**{ref}**{mark} {_cell(p.text)}{source}"


def empowering_table(book: Rulebook) -> str:
    """The laws `book` lists as empowering an adjusted score (its ``infractions:``), as Markdown: each
    law's condition (the finding it needs), the findings a case gives, what the Director then does, the
    text of the paragraphs it cites with their source, and whether those texts are confirmed."""
    head = (f"### {book.id} — {book.title}\n\n"
            "| law | | condition: the finding it needs | findings a case gives | the Director then | "
            "paragraphs cited (text, source) | confirmed |\n|---|---|---|---|---|---|---|\n")
    rows = []
    for law, e in book.infractions.items():
        findings = ", ".join(f"`{n}`" for n in e.finding_names) or "—"
        scope = []
        if e.known_as:
            scope.append(f"also named {', '.join(e.known_as)}")
        if e.events:
            scope.append(f"events: {', '.join(e.events)}")
        if e.both_sides:
            scope.append("both sides may be non-offending")
        if e.revoke:
            scope.append("the case lists its revokes")
        if e.at_least:
            scope.append(f"the non-offending side's score is at least {e.at_least}")
        if e.artificial:
            scope.append("an artificial score: " + ", ".join(f"{role} {r}" for role, r in e.artificial))
        title = _cell(e.title) + (f" ({'; '.join(scope)})" if scope else "")
        rows.append(f"| {law} | {title} | {_cell(e.condition or '—')} | {findings} | {_cell(e.effect or '—')} | "
                    + "<br>".join(_paragraph(book, ref) for ref in e.cites) + f" | {_confirmed(book, e.cites)} |")
    confirmed = sum(p.confirmed for p in book.paragraphs.values())
    tail = (f"\n\n{len(book.infractions)} laws; of the rulebook's {len(book.paragraphs)} paragraph texts, {confirmed} "
            "are confirmed from an English text of their source.\n")
    return head + "\n".join(rows) + tail


def empowering_tables(books: list[Rulebook]) -> str:
    """:func:`empowering_table` for each of `books`, oldest first."""
    return "\n".join(empowering_table(b) for b in sorted(books, key=lambda b: (b.effective_from, b.id)))
