"""From a checked case and a rulebook to a ruling.

    case ──kind──▶ assigned: A, B, C (exact, with steps) ──damage──▶ each side's score
               └─▶ artificial: each side's responsibility ──artificial──▶ each side's score
         ──event──▶ 12C4 knockout averaging, 12C3 individual events ──penalty──▶ players
         ──▶ Ruling: scores, outcome, steps, cited paragraphs, rulebook identity

Python does the bridge arithmetic and follows what the rules that applied say; which rule
applies, what it awards and what it cites come from the rulebook (see engine/stages.py).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import formula
from . import parameters as params
from .case import SIDES, Case, Component, Side
from .errors import BridgelawError
from . import vp as vp_scale
from .artificial import artificial_scores
from .exact import format_decimal, format_mixed
from .rulebook import Paragraph, Rule, Rulebook
from .scorer import Scorer

UNIT_NAMES = {"IMP": "IMPs", "MP": "matchpoints", "%": "percent"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


@dataclass
class SideScore:
    side: Side
    value: Fraction | None            # None: the board is not scored for this side
    formula: str
    role: str | None = None           # "nos", "os", or None (no non-offending side identified)
    label: str = ""                   # the outcome for this side (artificial: avg-plus, …)


@dataclass
class Ruling:
    title: str
    source: str | None
    outcome: str
    unit: str
    top: Fraction | None
    scores: dict[Side, SideScore]
    quantities: dict[str, Fraction | None]
    steps: list[str]
    rules: list[Rule]
    citations: list[Paragraph]
    rulebook: Rulebook
    event: str = "pairs"
    players: dict[str, Fraction | None] | None = None
    vp: dict[Side, Fraction] | None = None
    warnings: list[str] = field(default_factory=list)
    # an assigned adjusted score: per side, the (weight, outcome) pairs its score was formed from
    # after the expectation stage (legal-only, poll, most-favourable-likely); None when artificial
    assigned: dict[Side, list[tuple[Fraction, Any]]] | None = None

    @property
    def sides(self) -> dict[Side, SideScore]:
        return {"NS": self.scores["NS"], "EW": self.scores["EW"]}

    def _by_role(self, role: str) -> SideScore | None:
        return next((s for s in self.scores.values() if s.role == role), None)

    @property
    def nos(self) -> SideScore | None:
        return self._by_role("nos")

    @property
    def os(self) -> SideScore | None:
        return self._by_role("os")

    def percent(self, value: Fraction | None) -> Fraction | None:
        if value is None:
            return None
        if self.unit == "MP" and self.top:
            return 100 * value / self.top
        if self.unit == "%":
            return value
        return None


class _Builder:
    def __init__(self, case: Case, book: Rulebook) -> None:
        self.case, self.book, self.m = case, book, case.model
        self.asked: dt.date | None = None          # --as-of, when given
        self.scorer = Scorer(case)
        self.steps: list[str] = []
        self.rules: list[Rule] = []
        self.warnings: list[str] = []
        self.param_cites: list[str] = []
        self.weighting: dict[Side, list[tuple[Fraction, Fraction]]] = {}   # (weight, score) behind B and B'
        self.used: dict[Side, list[tuple[Fraction, Any]]] = {}              # (weight, outcome) behind B and B'
        self.quantities: dict[str, Fraction | None] = dict.fromkeys(["A", "B", "C", "D", "DR", "DS"])

    def say(self, text: str) -> None:
        self.steps.append(text)

    def decide(self, stage: str, facts: dict[str, Any]) -> Rule | None:
        rule = self.book.decide(stage, facts)
        if rule is not None and rule not in self.rules:
            self.rules.append(rule)
        return rule

    # --- assigned adjusted scores: A, B, C ---------------------------------------------------

    def expectation(self, comps: list[Component], side: Side, label: str, role: str = "nos") -> tuple[Fraction, Rule]:
        """B (or B') for one side, formed as the expectation-stage rule says."""
        poll = self.m.poll is not None
        facts = {"weighted": len(comps) > 1, "illegal_outcomes": any(not c.legal for c in comps),
                 "poll": poll, "scoring": self.m.scoring}
        rule = self.decide("expectation", facts)
        self.say(f"{label}: rule {rule.id} ({', '.join(rule.cites)}): {rule.explain}")
        used = comps
        name = label.split(" ")[0]
        if rule.apply["outcomes"] == "legal":
            used = self.legal_only(comps, rule)
        elif any(not c.legal for c in comps):
            self.warnings.append(
                f"outcomes marked legal: false are included: rule {rule.id} of {self.book.id} does not exclude them")
        if rule.apply["method"] == "most-favourable-likely":
            value, chosen = self.likely(used, side, name, role)
            self.used[side] = [(Fraction(1), chosen.outcome)]
            return value, rule
        if rule.apply["method"] == "poll":
            used = self.benefit_of_doubt(used, side)
        self.used[side] = [(c.weight, c.outcome) for c in used]
        value = self.weighted(used, side, name)
        self.weighting[side] = [(c.weight, self.scorer.score(c.outcome, side).value) for c in used]
        if len(used) > 1:
            value = self.round_weighted(value, name)
        return value, rule

    def likely(self, comps: list[Component], side: Side, name: str, role: str) -> tuple[Fraction, Component]:
        """2007 12C1(e): the most favourable result that was likely (for the non-offending side) or
        the most unfavourable result that was at all probable (for the offending side)."""
        key = "likely.threshold" if role == "nos" else "probable.threshold"
        threshold = self.book.parameters[key]
        self.cite_parameter(key)
        scored = sorted(((self.scorer.score(c.outcome, side), c) for c in comps),
                        key=lambda sc: sc[0].value, reverse=role == "nos")
        cumulative = Fraction(0)
        for s, c in scored:
            cumulative += c.weight
            self.say(f"  {format_mixed(c.weight)} × [{s.text}] (cumulative {format_mixed(cumulative)})")
            if cumulative >= threshold:
                what = "most favourable likely" if role == "nos" else "most unfavourable at all probable"
                self.say(f"  {name} = the {what} result, where the cumulative probability from the "
                         f"{'most favourable' if role == 'nos' else 'least favourable'} end first reaches "
                         f"{format_mixed(threshold)}: {c.outcome.text} = {format_mixed(s.value)}")
                return s.value, c
        raise BridgelawError(f"{self.case.file}: the probabilities never reach {format_mixed(threshold)} ({key})")

    def round_weighted(self, value: Fraction, name: str) -> Fraction:
        step = self.book.parameters.get("weighted.imps.round_to") if self.scorer.unit == "IMP" else None
        if not step:
            return value
        rounded = formula.FUNCTIONS["round_to"][1](value, step)
        self.cite_parameter("weighted.imps.round_to")
        self.say(f"  {name} rounded to the nearest {format_mixed(step)} IMP (weighted.imps.round_to): "
                 f"{format_mixed(value)} → {format_mixed(rounded)}")
        return rounded

    def cite_parameter(self, name: str) -> None:
        for dated in self.book.dated.get(name, []):
            if dated.covers(self.book.as_of):
                self.param_cites.extend(ref for ref in dated.cites if ref not in self.param_cites)

    def legal_only(self, comps: list[Component], rule: Rule) -> list[Component]:
        used = [c for c in comps if c.legal]
        for c in comps:
            if not c.legal:
                self.say(f"  excluded, not achievable in a legal manner: {c.outcome.text} (weight {format_mixed(c.weight)})")
        if not used:
            raise BridgelawError(f"{self.case.file}: every possible outcome is marked not legal; rule {rule.id} "
                                 "leaves nothing to assign", suggestion="add the outcome that could have been reached legally")
        kept = sum((c.weight for c in used), Fraction(0))
        if kept != 1:
            self.say(f"  remaining weights scaled by 1 / {format_mixed(kept)} to sum to 1")
            used = [Component(c.outcome, c.weight / kept, c.legal, c.path) for c in used]
        return used

    def benefit_of_doubt(self, comps: list[Component], side: Side) -> list[Component]:
        """Raise the raw weight of the result most favourable to `side` by poll.benefit_of_doubt."""
        polled, minimum = self.m.poll.polled, self.book.parameters["poll.minimum"]
        factor = self.book.parameters["poll.benefit_of_doubt"]
        if polled < minimum:
            self.warnings.append(f"only {polled} players were polled; the commentary's minimum is {format_mixed(minimum)}")
        self.say(f"  raw weights (votes / {polled} polled × chance): "
                 + "; ".join(f"{c.outcome.text} {format_mixed(c.weight)}" for c in comps))
        values = [self.scorer.score(c.outcome, side).value for c in comps]
        best = max(values)
        group = [c for c, v in zip(comps, values) if v == best]
        raw = sum((c.weight for c in group), Fraction(0))
        raised = min(Fraction(1), raw * factor)
        if raised == raw:
            self.say(f"  benefit of doubt: factor {format_mixed(factor)} leaves the weights as polled")
            return comps
        scale = (1 - raised) / (1 - raw)
        adjusted = [Component(c.outcome, c.weight * raised / raw if v == best else c.weight * scale, c.legal, c.path)
                    for c, v in zip(comps, values)]
        names = ", ".join(c.outcome.text for c in group)
        self.say(f"  benefit of doubt to {side}: most favourable {names} raised {format_mixed(raw)} × "
                 f"{format_mixed(factor)} = {format_mixed(raised)}; the others scaled by {format_mixed(scale)}: "
                 + "; ".join(f"{c.outcome.text} {format_mixed(c.weight)}" for c in adjusted))
        return adjusted

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

    def assigned(self) -> tuple[str, dict[Side, SideScore]]:
        case, m, scorer, q = self.case, self.m, self.scorer, self.quantities
        nos, os = case.nos, case.os
        self.say(f"Non-offending side {nos}, offending side {os}; every quantity is from {nos}'s view, "
                 f"primed ones (A', B') from {os}'s.")
        env: dict[str, Fraction] = {}
        if m.table_result is not None:
            a = scorer.score(m.table_result, nos)
            q["A"], env["A'"] = a.value, scorer.complement(a.value)
            self.say(f"A (table result) = {a.text}")
        else:
            self.say("A: no table result given; only the assigned score is wanted.")
        q["B"], b_rule = self.expectation(case.without[nos], nos, "B (without the infraction)")
        if case.split:
            self.say(f"The two sides have different weightings; {os}'s is scored separately.")
            env["B'"], _ = self.expectation(case.without[os], os, "B' (without the infraction, offending side's weighting)", "os")
        elif b_rule.apply["method"] == "most-favourable-likely":
            env["B'"], _ = self.expectation(case.without[os], os, "B' (for the offending side)", "os")
        else:
            env["B'"] = scorer.complement(q["B"])
            self.used[os] = self.used[nos]
            if nos in self.weighting:
                self.weighting[os] = [(w, scorer.complement(v)) for w, v in self.weighting[nos]]
            self.say(f"B' = {scorer.complement_text('B')} = {format_mixed(env[_B_PRIME])} ({os}'s score for the same outcomes)")
        if q["A"] is not None:
            if case.instead is not None:
                kind = "gambling action" if m.serious_error.kind == "gambling" else "extremely serious error"
                self.say(f"C (what {nos} would have scored without its {kind}):")
                q["C"] = self.weighted(case.instead, nos, "C")
            else:
                q["C"] = q["A"]
                self.say("C = A: no extremely serious error or gambling action by the non-offending side.")
            env["C'"] = scorer.complement(q["C"])
            q["D"], q["DR"], q["DS"] = q["B"] - q["A"], q["B"] - q["C"], q["C"] - q["A"]
            self.say(f"D = B − A = {format_mixed(q['D'])}; DR = B − C = {format_mixed(q['DR'])} (real damage); "
                     f"DS = C − A = {format_mixed(q['DS'])} (self-inflicted damage)")
        env.update({k: v for k, v in q.items() if v is not None})
        facts: dict[str, Any] = {**q, "serious_error": case.instead is not None, "scoring": m.scoring}
        rule = self.decide("damage", facts)
        self.say(f"Outcome: {rule.outcome} (rule {rule.id}: {rule.when_text}).")
        scores = {}
        for role, side in (("nos", nos), ("os", os)):
            scores[side] = self.award(rule.award[role], env, side, role, rule.outcome)
        return rule.outcome, scores

    def award(self, f: formula.Formula, env: dict[str, Fraction], side: Side, role: str | None,
              label: str) -> SideScore:
        value = f.evaluate(env)
        shown = formula.substitute(f, env)
        arithmetic = "" if shown == format_mixed(value) else f" = {shown}"
        who = {"nos": " (non-offending)", "os": " (offending)"}.get(role or "", "")
        self.say(f"{side}{who} gets {f.text}{arithmetic} = {format_mixed(value)} {UNIT_NAMES[self.scorer.unit]}")
        return SideScore(side, value, f.text, role, label)

    # --- artificial adjusted scores --------------------------------------------------------------

    def artificial(self) -> tuple[str, dict[Side, SideScore]]:
        m, case = self.m, self.case
        counts = m.artificial_boards_this_session
        awarded = artificial_scores(self.book, scoring=m.scoring,
                                    responsibility={side: getattr(m.artificial, side) for side in SIDES},
                                    session=case.session, rules=self.rules,
                                    boards={side: getattr(counts, side) for side in SIDES if counts and getattr(counts, side)})
        scores = {}
        for side, a in awarded.items():
            for step in a.steps:
                self.say(step)
            role = None if case.nos is None else ("nos" if side == case.nos else "os")
            value = a.value
            if value is not None and m.scoring == "matchpoints":
                value = a.value * self.scorer.top
                self.say(f"{side}: {format_mixed(a.value * 100)}% of the top {format_mixed(self.scorer.top)} = "
                         f"{format_mixed(value)} {UNIT_NAMES[self.scorer.unit]}")
            scores[side] = SideScore(side, value, a.formula, role, a.label)
        return "artificial", scores

    # --- event-level provisions --------------------------------------------------------------------

    def event(self, scores: dict[Side, SideScore]) -> None:
        ns, ew = scores["NS"].value, scores["EW"].value
        if ns is None or ew is None:
            return
        total = ns + ew
        balanced = total == 0 if self.scorer.unit == "IMP" else total == self.scorer.top
        facts = {"event": self.case.event, "scoring": self.m.scoring, "balanced": balanced}
        rule = self.decide("event", facts)
        if rule is None:
            return
        self.say(f"Event ({self.case.event}): rule {rule.id} ({', '.join(rule.cites)}): {rule.explain}")
        env = {"NS": ns, "EW": ew, "top": self.scorer.top if self.scorer.unit != "IMP" else None}
        for side in SIDES:
            f = rule.award[side]
            if f.text == side:
                continue
            new = self.award(f, env, side, scores[side].role, scores[side].label)
            scores[side] = new

    def players(self, scores: dict[Side, SideScore]) -> dict[str, Fraction | None]:
        m = self.m
        players = {d: scores[SIDE_OF[d]].value for d in "NESW"}
        if m.penalty is None:
            return players
        p = m.penalty
        amount = p.amount.value * self.scorer.top / 100 if p.amount.unit == "%" and self.scorer.unit == "MP" else p.amount.value
        rule = self.decide("penalty", {"event": self.case.event, "partner_blameless": p.partner_blameless})
        if rule is None:
            raise BridgelawError(f"{self.case.file}: rulebook {self.book.id} has no rule for a procedural penalty "
                                 f"in a {self.case.event} event")
        bearers = [p.player] + ([PARTNER[p.player]] if rule.apply["to"] == "offender-and-partner" else [])
        self.say(f"Procedural penalty {format_mixed(amount)} {UNIT_NAMES[self.scorer.unit]} on {p.player}: rule {rule.id} "
                 f"({', '.join(rule.cites)}): {rule.explain}")
        for d in bearers:
            if players[d] is not None:
                players[d] -= amount
        return players

    def victory_points(self, scores: dict[Side, SideScore]) -> dict[Side, Fraction] | None:
        """The match in VPs, weighting the IMPs or the VPs as the rulebook's vp.method says."""
        match, method = self.m.match, self.book.parameters["vp.method"]
        self.cite_parameter("vp.method")
        lead = match.imps.NS - match.imps.EW
        self.say(f"Match of {match.boards} boards, NS {format_mixed(match.imps.NS)} – EW {format_mixed(match.imps.EW)} IMPs "
                 f"on the other boards; VPs on the WBF continuous 20-VP scale ({self.book.parameters['vp.scale']}), "
                 f"method {method}.")
        out: dict[Side, Fraction] = {}
        for side in SIDES:
            s = scores[side]
            if s.value is None:
                continue
            before = lead if side == "NS" else -lead
            comps = self.weighting.get(side, [])
            if method == "weight-vps" and len(comps) > 1 and s.formula in ("B", "B'"):
                total = Fraction(0)
                for w, imps in comps:
                    points = vp_scale.victory_points(before + imps, match.boards)
                    self.say(f"  {side}: {format_mixed(w)} × VP({format_mixed(before + imps, signed=True)}) = "
                             f"{format_mixed(w)} × {format_decimal(points)}")
                    total += w * points
                step = self.book.parameters.get("vp.round_to")
                value = formula.FUNCTIONS["round_to"][1](total, step) if step else total
                if step:
                    self.cite_parameter("vp.round_to")
                self.say(f"  {side}: weighted VPs = {format_decimal(total, 4)}"
                         + (f", rounded to the nearest {format_mixed(step)} VP = {format_decimal(value)}" if step else ""))
            else:
                if method == "weight-vps" and len(comps) > 1:
                    self.warnings.append(f"{side}'s score is {s.formula}, not a weighted assigned score: its VPs come "
                                         "from its IMPs")
                value = vp_scale.victory_points(before + s.value, match.boards)
                self.say(f"  {side}: VP({format_mixed(before, signed=True)} {'+' if s.value >= 0 else '−'} "
                         f"{format_mixed(abs(s.value))}) = {format_decimal(value)}")
            out[side] = value
        return out

    def build(self) -> Ruling:
        m, book = self.m, self.book
        dated = ", ".join(f"{name} = {params.show(d.value, name)} ({d.period})" for name, d in book.dated_in_use())
        asked = self.asked or m.date or dt.date.today()
        when = f"the date asked for, {asked.isoformat()}" if self.asked else "the case's date" if m.date else \
            f"today, {asked.isoformat()}"
        if asked > book.as_of:
            when += f", clamped to the rulebook's last day"
        self.say(f"Rulebook {book.id} {book.version} as of {book.as_of.isoformat()} ({when})"
                 + (f"; dated values in force: {dated}" if dated else "") + ".")
        self.say(self.scorer.describe_basis())
        facts = {"artificial": m.artificial is not None, "possibilities_numerous": m.possibilities == "numerous",
                 "not_scheduled": m.not_scheduled is not None, "scoring": m.scoring}
        kind_rule = self.decide("kind", facts)
        kind = kind_rule.apply["kind"]
        self.say(f"Kind of adjustment: {kind} (rule {kind_rule.id}, {', '.join(kind_rule.cites)}).")
        if kind == "assigned":
            outcome, scores = self.assigned()
        elif kind == "artificial":
            outcome, scores = self.artificial()
        else:
            self.say(f"{m.not_scheduled}: {kind_rule.explain}")
            outcome = "not-scored"
            scores = {s: SideScore(s, None, "not scored", None, "not-scored") for s in SIDES}
        self.event(scores)
        players = self.players(scores) if self.case.event == "individual" else None
        vp = self.victory_points(scores) if m.match is not None else None
        citations: list[Paragraph] = []
        for ref in [ref for r in self.rules for ref in r.cites] + self.param_cites:
            if book.paragraphs[ref] not in citations:
                citations.append(book.paragraphs[ref])
        return Ruling(
            title=m.title, source=m.source, outcome=outcome, unit=self.scorer.unit,
            top=self.scorer.top if self.scorer.unit != "IMP" else None,
            scores=scores, quantities=self.quantities, steps=self.steps, rules=self.rules,
            citations=citations, rulebook=book, event=self.case.event, players=players, vp=vp, warnings=self.warnings,
            assigned=self.used if kind == "assigned" else None,
        )


_B_PRIME = "B'"


def _paren(x: Fraction) -> str:
    text = format_mixed(x)
    return f"({text})" if x < 0 else text


def rule_case(case: Case, book: Rulebook, as_of: dt.date | None = None) -> Ruling:
    """The ruling on `case` under `book` as in force on `as_of` (default: the case's date, else today)."""
    builder = _Builder(case, book.at(as_of or case.model.date))
    builder.asked = as_of
    return builder.build()
