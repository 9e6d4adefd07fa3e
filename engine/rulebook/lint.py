"""`bridgelaw lint`: search each stage's input space for gaps and overlaps.

Loading a rulebook already checks its schema, citations and references. The lint then walks,
for every stage and every date on which the rules in force change, a grid of inputs — every
yes/no and word value, and for numbers the values the conditions mention with points just
either side, plus small integers (for the damage stage: A, B, C from a small range with D, DR,
DS derived as a ruling derives them) — and reports, with a witness, every input where no rule
applies in a stage that needs one (a gap), where two rules apply (an overlap), or where a rule
needs a fact that may be absent.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator

from . import conditions as c
from . import Rulebook, facts_text
from .decide import resolve
from .stages import STAGES, Stage

DELTA = Fraction(1, 7)          # a step off each boundary value that hits no other constant
LIMIT = 50_000                  # inputs per stage and date at most


@dataclass
class Finding:
    kind: str                   # gap | overlap | missing
    stage: str
    day: dt.date
    facts: dict[str, Any]
    rules: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        what = {"gap": "no rule applies", "overlap": f"{len(self.rules)} rules apply ({', '.join(self.rules)})",
                "missing": f"rule {', '.join(self.rules)} needs a fact that is absent"}[self.kind]
        return f"{self.kind}: stage {self.stage} as of {self.day}: {what} for {facts_text(self.facts)}"


@dataclass
class Report:
    book: Rulebook
    inputs: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


def _numbers(stage: Stage, book: Rulebook) -> dict[str, list[Fraction]]:
    """For each number fact, the values conditions compare it with, and points either side."""
    found: dict[str, set[Fraction]] = {}

    def value(term: c.Term) -> Fraction | None:
        if isinstance(term, c.Const):
            return term.value
        if isinstance(term, c.Name) and isinstance(book.parameters.get(term.name), Fraction):
            return book.parameters[term.name]
        return None

    for rule in book.rules_for(stage.id):
        for leaf in c.leaves(rule.condition):
            if isinstance(leaf, c.Compare):
                for fact, other in ((leaf.left, leaf.right), (leaf.right, leaf.left)):
                    v = value(other)
                    if isinstance(fact, c.Name) and fact.name in stage.facts and v is not None:
                        found.setdefault(fact.name, set()).add(v)
    return {name: sorted({v + d for v in values for d in (-DELTA, 0, DELTA)})
            for name, values in found.items()}


def _optional(stage: Stage, book: Rulebook) -> set[str]:
    """Facts some rule of the stage tests with `given`: the case may leave them out."""
    return {leaf.name for rule in book.rules_for(stage.id) for leaf in c.leaves(rule.condition)
            if isinstance(leaf, c.Given)}


def inputs(stage: Stage, book: Rulebook) -> Iterator[dict[str, Any]]:
    if stage.id == "damage":
        pool = [Fraction(v) for v in (-2, -1, 0, 1, 2)]
        for scoring, serious, a, b, cc in itertools.product(stage.facts["scoring"], (True, False), pool + [None], pool, pool):
            if a is None:
                if serious or cc != pool[0]:
                    continue
                yield {"B": b, "serious_error": False, "scoring": scoring}
                continue
            cc = cc if serious else a
            yield {"A": a, "B": b, "C": cc, "D": b - a, "DR": b - cc, "DS": cc - a,
                   "serious_error": serious, "scoring": scoring}
        return
    numbers = _numbers(stage, book)
    optional = _optional(stage, book)
    vocab = book.vocabulary(stage)                  # a DECLARED fact: the words the rulebook declares
    names, choices = [], []
    for name in stage.facts:
        kind = vocab[name]
        if kind == "bool":
            values: list[Any] = [True, False]
        elif isinstance(kind, tuple):
            values = list(kind)
        else:
            values = numbers.get(name) or [Fraction(v) for v in (-1, 0, 1)]
        if name in optional:
            values = values + [None]
        names.append(name)
        choices.append(values)
    for combo in itertools.islice(itertools.product(*choices), LIMIT):
        yield dict(zip(names, combo))


def _fired(rules: list, env: dict[str, Any], index: Any) -> tuple[list[str], list[str]]:
    """The rules whose conditions hold on `env`, and those that need a fact `env` lacks.

    The plain evaluator says so for every rule that mentions an absent fact (it alone can find one
    missing). A rule whose facts are all given cannot miss one, and the plain evaluator and the
    stage's index (adapter.Index: bitmasks over the compiled conditions) agree on it — the
    differential tests check both against durable_rules — so the index reads those all at once:
    a 1,000-rule stage is not evaluated rule by rule on every input."""
    given = {k for k, v in env.items() if v is not None}
    held: set[str] | None = None
    if index is not None:
        try:
            held = set(index.held(env))
        except ValueError:                 # numbers durable_rules would refuse: the plain evaluator
            held = None
    fired, missing = [], []
    for rule in rules:
        if held is not None and rule.names <= given:
            if rule.id in held:
                fired.append(rule.id)
            continue
        try:
            if c.evaluate(rule.condition, env):
                fired.append(rule.id)
        except c.MissingFact:
            missing.append(rule.id)
    return fired, missing


def _days(book: Rulebook) -> list[dt.date]:
    days = {book.effective_from}
    for rule in book.all_rules:
        days |= {d for d in (rule.start, rule.end and rule.end + dt.timedelta(days=1)) if d}
    for values in book.dated.values():
        for v in values:
            days |= {d for d in (v.start, v.end and v.end + dt.timedelta(days=1)) if d}
    end = book.effective_until
    return sorted(d for d in days if d >= book.effective_from and (end is None or d <= end))


def lint(book: Rulebook, *, witnesses: int = 3) -> Report:
    report = Report(book)
    for day in _days(book):
        view = book.at(day)
        for stage in STAGES.values():
            rules = view.rules_for(stage.id)
            if not rules:
                continue
            seen: dict[tuple, int] = {}
            count = 0
            try:
                index = view.evaluator(stage.id).index
            except ValueError:             # beyond durable_rules' limits (the lint command says so): rule by rule
                index = None
            for facts in inputs(stage, view):
                count += 1
                env = {**view.parameters, **facts}
                fired, missing = _fired(rules, env, index)
                res = resolve(stage, fired, view.beats)
                fired = list(res.winners)
                kind = "missing" if missing else res.problem
                if kind is None:
                    continue
                key = (kind, stage.id, tuple(missing or fired))
                seen[key] = seen.get(key, 0) + 1
                if seen[key] <= witnesses:
                    report.findings.append(Finding(kind, stage.id, day, facts, missing or fired))
            report.inputs[f"{stage.id}@{day}"] = count
    cited = {ref for r in book.all_rules for ref in r.cites} | \
        {ref for values in book.dated.values() for v in values for ref in v.cites} | \
        {ref for e in book.infractions.values() for ref in e.cites}           # the empowering laws
    report.unused = [ref for ref in book.paragraphs if ref not in cited]
    return report


def text(report: Report) -> str:
    b = report.book
    total = sum(report.inputs.values())
    out = [f"{b.id} {b.version}: loads ({len(b.all_rules)} rules, {len(b.paragraphs)} paragraphs); "
           f"{total:,} inputs searched over {len({k.split('@')[1] for k in report.inputs})} date(s)"]
    if report.findings:
        out += [f"  {f}" for f in report.findings]
    else:
        out.append("  no gap, no overlap, no missing fact")
    if report.unused:
        out.append(f"  note: paragraphs defined but not cited by any rule: {', '.join(report.unused)}")
    return "\n".join(out) + "\n"
