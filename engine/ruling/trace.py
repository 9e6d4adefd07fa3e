"""The trace of a ruling (its provenance), recorded while computing and rendered only when shown.

Each stage records what it saw and did as plain entries — no English is built while computing:

``decision``   a stage's facts, every rule whose condition held, those overridden and by which
               rule, and the rule chosen (with the subject: which quantity or side it was for)
``parameter``  a parameter read: its name, its value, the dated value in force (the layer it
               came from, its cites)
``weighted``, ``award``, ``rounded``, …  the arithmetic, with the values it used

The ruling's citations are collected from the trace (every chosen rule's cites, every parameter
read's cites), never added by hand. Text, Markdown and JSON (``engine/render/ruling.py``) and the web
page render the entries; as OpenFisca's tracer records every parameter read, so does this one.
"""

from __future__ import annotations

from typing import Any

from ..rulebook import Decision, Rule, Rulebook


class Entry:
    """One thing a ruling did: a kind and its data (values, not text). (A case's *record* — who, where,
    when — is another thing: ruling.case.Record, rendered by render/record.py.)"""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind, self.data = kind, data

    def __repr__(self) -> str:
        return f"Entry({self.kind!r}, {self.data!r})"


_new = object.__new__


class Trace:
    def __init__(self, book: Rulebook) -> None:
        self.book = book
        self.entries: list[Entry] = []

    def add(self, kind: str, /, **data: Any) -> None:
        entry = _new(Entry)                 # without a call of __init__ (a ruling adds about 16)
        entry.kind, entry.data = kind, data
        self.entries.append(entry)

    def decide(self, stage: str, facts: dict[str, Any], **subject: Any) -> Rule | None:
        """Ask the rulebook's `stage` about `facts`; record the decision and the parameters the
        chosen rule reads (in its condition, its award, its explanation)."""
        d: Decision = self.book.decision(stage, facts)
        entry = _new(Entry)
        entry.kind, entry.data = "decision", {"decision": d, **subject}
        self.entries.append(entry)
        rule = d.rule
        if rule is not None:
            names = self.book._reads.get(rule.id)
            if names is None:
                names = parameters_of(rule, self.book)
            for name in names:
                self.parameter(name)
        return rule

    def parameter(self, name: str) -> Any:
        """The value of parameter `name` in force, recorded as read."""
        value = self.book.parameters[name]
        self.add("parameter", name=name, value=value, dated=self.book.in_force(name))
        return value

    # --- what the trace shows ------------------------------------------------------------------

    def decisions(self) -> list[Decision]:
        return [r.data["decision"] for r in self.entries if r.kind == "decision"]

    def rules(self) -> list[Rule]:
        out: list[Rule] = []
        for d in self.decisions():          # each rule once (by identity: a rulebook has one Rule an id,
            if d.rule is not None and not any(d.rule is r for r in out):   # and comparing rules' fields is slow)
                out.append(d.rule)
        return out

    def parameters(self) -> dict[str, Entry]:
        """Each parameter read, once (the first read), in the order read."""
        out: dict[str, Entry] = {}
        for r in self.entries:
            if r.kind == "parameter" and r.data["name"] not in out:
                out[r.data["name"]] = r
        return out

    def citations(self) -> list[str]:
        """The paragraphs cited, in the order the ruling met them: every chosen rule's cites and
        every parameter read's cites."""
        refs: list[str] = []
        for r in self.entries:
            if r.kind == "decision":
                rule = r.data["decision"].rule
                cites = rule.cites if rule is not None else ()
            elif r.kind == "parameter":
                dated = r.data["dated"]
                cites = dated.cites if dated is not None else ()
            elif r.kind == "law":                   # the law that empowers the adjustment, and its facts
                cites = r.data.get("cites", ())
            else:
                continue
            refs.extend(ref for ref in cites if ref not in refs)
        return refs


def parameters_of(rule: Rule, book: Rulebook) -> list[str]:
    """The parameters a rule reads: in its condition, its award formulas, its explanation."""
    names = book._reads.get(rule.id)
    if names is None:
        names = book._reads[rule.id] = _parameters_of(rule, book)
    return names


def _parameters_of(rule: Rule, book: Rulebook) -> list[str]:
    names = [n for n in sorted(rule.names) if n in book.dated]
    for f in rule.award.values():
        names += [n for n in sorted(f.names) if n in book.dated and n not in names]
    names += [n for n in rule.mentions if n in book.dated and n not in names]
    return names
