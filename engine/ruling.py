"""From a checked case and a rulebook to a ruling.

    case ──score──▶ A, B, C (exact, with steps) ──evaluate──▶ the rule of each stage
         ──award──▶ each side's score, outcome, steps, cited paragraphs, rulebook identity

Python here does the bridge arithmetic and follows what the rules that applied say; which
rule applies, what it awards and what it cites come from the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import formula
from .case import Case, Component, Side, other
from .errors import BridgelawError
from .exact import format_mixed
from .rulebook import Paragraph, Rule, Rulebook
from .scorer import Scorer

PRIME_B = "B'"
UNIT_NAMES = {"IMP": "IMPs", "MP": "matchpoints", "%": "percent"}


@dataclass
class SideScore:
    side: Side
    value: Fraction
    formula: str
    role: str                     # "nos" or "os"


@dataclass
class Ruling:
    title: str
    source: str | None
    outcome: str
    unit: str
    top: Fraction | None
    nos: SideScore
    os: SideScore
    quantities: dict[str, Fraction | None]
    steps: list[str]
    rules: list[Rule]
    citations: list[Paragraph]
    rulebook: Rulebook
    warnings: list[str] = field(default_factory=list)

    @property
    def sides(self) -> dict[Side, SideScore]:
        by_side = {self.nos.side: self.nos, self.os.side: self.os}
        return {"NS": by_side["NS"], "EW": by_side["EW"]}

    def percent(self, value: Fraction) -> Fraction | None:
        if self.unit == "MP" and self.top:
            return 100 * value / self.top
        if self.unit == "%":
            return value
        return None


class _Builder:
    def __init__(self, case: Case, book: Rulebook) -> None:
        self.case, self.book = case, book
        self.scorer = Scorer(case)
        self.steps: list[str] = []
        self.rules: list[Rule] = []
        self.warnings: list[str] = []

    def say(self, text: str) -> None:
        self.steps.append(text)

    # B: the expectation without the infraction, for one side, as the rulebook forms it
    def expectation(self, comps: list[Component], side: Side, label: str) -> tuple[Fraction, list[Component]]:
        facts = {
            "weighted": len(comps) > 1,
            "illegal_outcomes": any(not c.legal for c in comps),
            "scoring": self.case.model.scoring,
        }
        rule = self.book.decide("expectation", facts)
        if rule not in self.rules:
            self.rules.append(rule)
        self.say(f"{label}: rule {rule.id} ({', '.join(rule.cites)}): {rule.explain}")
        used = comps
        if rule.apply["outcomes"] == "legal":
            excluded = [c for c in comps if not c.legal]
            used = [c for c in comps if c.legal]
            for c in excluded:
                self.say(f"  excluded, not achievable in a legal manner: {c.outcome.text} (weight {format_mixed(c.weight)})")
            if not used:
                raise BridgelawError(
                    f"{self.case.file}: every outcome of without_infraction is marked legal: false; "
                    f"rule {rule.id} leaves nothing to assign",
                    suggestion="add the outcome that could have been reached legally")
            kept = sum((c.weight for c in used), Fraction(0))
            if kept != 1:
                used = [Component(c.outcome, c.weight / kept, c.legal, c.path) for c in used]
                self.say(f"  remaining weights scaled by 1 / {format_mixed(kept)} to sum to 1")
        elif any(not c.legal for c in comps):
            self.warnings.append(
                f"outcomes marked legal: false are included: rule {rule.id} of {self.book.id} does not exclude them")
        return self.weighted(used, side, label.split(" ")[0]), used

    def weighted(self, comps: list[Component], side: Side, name: str) -> Fraction:
        scored = [(c, self.scorer.score(c.outcome, side)) for c in comps]
        if len(scored) == 1:
            self.say(f"  {name} = {scored[0][1].text}")
            return scored[0][1].value
        total = Fraction(0)
        for c, s in scored:
            self.say(f"  {format_mixed(c.weight)} × [{s.text}]")
            total += c.weight * s.value
        terms = " + ".join(f"{format_mixed(c.weight)} × {_paren(s.value)}" for c, s in scored)
        self.say(f"  {name} = {terms} = {format_mixed(total)}")
        return total

    def build(self) -> Ruling:
        case, m, book = self.case, self.case.model, self.book
        nos, os = case.nos, case.os
        self.say(self.scorer.describe_basis())
        self.say(f"Non-offending side {nos}, offending side {os}; every quantity is from {nos}'s view, "
                 f"primed ones (A', B') from {os}'s.")
        q: dict[str, Fraction | None] = dict.fromkeys(["A", "B", "C", "D", "DR", "DS"])
        env: dict[str, Fraction] = {}
        if m.table_result is not None:
            a = self.scorer.score(m.table_result, nos)
            q["A"] = a.value
            env["A'"] = self.scorer.complement(a.value)
            self.say(f"A (table result) = {a.text}")
        else:
            self.say("A: no table result given; only the assigned score is wanted.")
        q["B"], _ = self.expectation(case.without[nos], nos, "B (without the infraction)")
        if case.split:
            self.say(f"The two sides have different weightings; {os}'s is scored separately.")
            env["B'"], _ = self.expectation(case.without[os], os, "B' (without the infraction, offending side's weighting)")
        else:
            env["B'"] = self.scorer.complement(q["B"])
            self.say(f"B' = {self.scorer.complement_text('B')} = {format_mixed(env[PRIME_B])} ({os}'s score for the same outcomes)")
        if q["A"] is not None:
            if case.instead is not None:
                kind = "gambling action" if m.serious_error.kind == "gambling" else "extremely serious error"
                self.say(f"C (what {nos} would have scored without its {kind}):")
                q["C"] = self.weighted(case.instead, nos, "C")
                env["C'"] = self.scorer.complement(q["C"])
            else:
                q["C"] = q["A"]
                env["C'"] = env["A'"]
                self.say("C = A: no extremely serious error or gambling action by the non-offending side.")
            q["D"], q["DR"], q["DS"] = q["B"] - q["A"], q["B"] - q["C"], q["C"] - q["A"]
            self.say(f"D = B − A = {format_mixed(q['D'])}; DR = B − C = {format_mixed(q['DR'])} (real damage); "
                     f"DS = C − A = {format_mixed(q['DS'])} (self-inflicted damage)")
        env.update({k: v for k, v in q.items() if v is not None})
        facts: dict[str, Any] = {**q, "serious_error": case.instead is not None, "scoring": m.scoring}
        rule = book.decide("damage", facts)
        self.rules.append(rule)
        self.say(f"Outcome: {rule.outcome} (rule {rule.id}: {rule.when_text}).")
        awards = {}
        for role, side in (("nos", nos), ("os", os)):
            f = rule.award[role]
            value = f.evaluate(env)
            shown = formula.substitute(f, env)
            arithmetic = "" if shown == format_mixed(value) else f" = {shown}"
            self.say(f"{side} ({'non-offending' if role == 'nos' else 'offending'}) gets {f.text}{arithmetic} "
                     f"= {format_mixed(value)} {UNIT_NAMES[self.scorer.unit]}")
            awards[role] = SideScore(side, value, f.text, role)
        citations: list[Paragraph] = []
        for r in self.rules:
            for ref in r.cites:
                if book.paragraphs[ref] not in citations:
                    citations.append(book.paragraphs[ref])
        return Ruling(
            title=m.title, source=m.source, outcome=rule.outcome, unit=self.scorer.unit,
            top=self.scorer.top if self.scorer.unit != "IMP" else None,
            nos=awards["nos"], os=awards["os"], quantities=q, steps=self.steps, rules=self.rules,
            citations=citations, rulebook=book, warnings=self.warnings,
        )


def _paren(x: Fraction) -> str:
    text = format_mixed(x)
    return f"({text})" if x < 0 else text


def rule_case(case: Case, book: Rulebook) -> Ruling:
    """The ruling on `case` under `book`."""
    return _Builder(case, book).build()
