"""From a checked case and a rulebook to a ruling.

    case ──kind──▶ assigned: A, B, C (exact) ──damage──▶ each side's score
               └─▶ artificial: each side's responsibility ──artificial──▶ each side's score
         ──event──▶ 12C4 knockout averaging, 12C3 individual events ──penalty──▶ players
         ──▶ Ruling: scores, outcome, the trace, cited paragraphs, rulebook identity

Python does the bridge arithmetic and follows what the rules that applied say; which rule
applies, what it awards and what it cites come from the rulebook (see engine/rulebook/stages.py).
Every stage records what it saw and did in the ruling's trace (engine/ruling/trace.py); the
explanation is rendered from the trace when it is shown (engine/render.py), never here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..core import rounding
from ..core import vp as vp_scale
from .artificial import artificial_scores
from .case import Case, Component, Outcome
from ..core.errors import BridgelawError, did_you_mean
from ..core.bridge import PlayedResult
from ..core.exact import format_mixed
from ..rulebook.formula import Formula
from ..rulebook import Paragraph, Rule, Rulebook
from .scorer import Scorer
from ..rulebook.infractions import Empowerment, UnknownLaw, resolve
from ..rulebook.infractions import _key as _law_key
from .revoke import Revoke, RevokeError, equity, rectify
from .trace import Record, Trace
from ..core.vocab import PARTNER, SIDE_OF, SIDES, Side

UNIT_NAMES = {"IMP": "IMPs", "MP": "matchpoints", "%": "percent"}


@dataclass
class SideScore:
    side: Side
    value: Fraction | None            # None: the board is not scored for this side
    formula: str
    role: str | None = None           # "nos", "os", or None (no non-offending side identified)
    label: str = ""                   # the outcome for this side (artificial: avg-plus, …)


Weighted = list[tuple[Fraction, Outcome]]


@dataclass
class Ruling:
    title: str
    source: str | None
    outcome: str
    unit: str
    top: Fraction | None
    scores: dict[Side, SideScore]
    quantities: dict[str, Fraction | None]
    trace: Trace
    rulebook: Rulebook
    event: str = "pairs"
    players: dict[str, Fraction | None] | None = None
    vp: dict[Side, Fraction] | None = None
    warnings: list[str] = field(default_factory=list)
    # an assigned adjusted score: per side, the (weight, outcome) pairs its B (B') was formed from
    # after the expectation stage (legal-only, favour, threshold); None when not assigned
    assigned: dict[Side, Weighted] | None = None
    case: Case | None = field(default=None, repr=False)
    # the paragraphs of the law that empowers the adjustment (the case's infraction:), cited first
    empowering: list[str] = field(default_factory=list)

    @property
    def rules(self) -> list[Rule]:
        return self.trace.rules()

    @cached_property
    def citations(self) -> list[Paragraph]:
        """The trace's citations, the empowering law's paragraphs first (before Law 12's)."""
        refs = self.trace.citations()
        first = [ref for ref in self.empowering if ref in refs]
        return [self.rulebook.paragraphs[ref] for ref in first + [ref for ref in refs if ref not in first]]

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
        self.trace = Trace(book)
        self.add = self.trace.add
        self.warnings: list[str] = []
        self.weighting: dict[Side, list[tuple[Fraction, Fraction]]] = {}   # (weight, score) behind B and B'
        self.formed: dict[Side, Weighted] = {}                              # the outcomes behind B and B'
        self.quantities: dict[str, Fraction | None] = dict.fromkeys(["A", "B", "C", "D", "DR", "DS"])
        self.empowering: list[str] = []     # the paragraphs of the empowering law (and Law 64's facts), cited first
        self.empowered: Empowerment | None = None
        self.not_empowered: tuple[Empowerment, str] | None = None   # a condition of the empowering law does not hold

    # --- assigned adjusted scores: A, B, C ---------------------------------------------------

    def expectation(self, comps: list[Component], side: Side, label: str, role: str = "nos") -> tuple[Fraction, Rule]:
        """B (or B') for one side, formed as the expectation-stage rule says: which outcomes count
        (apply.outcomes), whether the result best for the non-offending side is favoured
        (apply.favour), and how the value is formed (apply.method: weighted-average, or threshold —
        the result at which the cumulative probability from one end reaches a parameter)."""
        poll = self.m.poll is not None
        facts = {"weighted": len(comps) > 1, "illegal_outcomes": any(not c.legal for c in comps),
                 "poll": poll, "scoring": self.m.scoring}
        rule = self.trace.decide("expectation", facts, quantity=label, side=side)
        option = rule.option
        used = comps
        name = label.split(" ")[0]
        if option("outcomes") == "legal":
            used = self.legal_only(comps, rule)
        elif any(not c.legal for c in comps):
            self.warnings.append(
                f"outcomes marked legal: false are included: rule {rule.id} of {self.book.id} does not exclude them")
        if option("favour") is not None:
            used = self.favour(used, side, option("favour"), option("minimum_polled"))
        if option("method") == "threshold":
            return self.threshold(used, side, name, option(f"{role}_threshold"), option(f"{role}_from")), rule
        value = self.weighted(used, side, name)
        self.weighting[side] = [(c.weight, self.scorer.score(c.outcome, side).value) for c in used]
        self.formed[side] = [(c.weight, c.outcome) for c in used]
        if len(used) > 1:
            value = self.round_weighted(value, name)
        return value, rule

    def threshold(self, comps: list[Component], side: Side, name: str, key: str, start: str) -> Fraction:
        """The outcome at which the cumulative probability, counted from the `start` end of the
        side's own view, first reaches parameter `key` (2007 12C1(e) as the ACBL reads it:
        "likely" for the non-offending side, "at all probable" for the offending side)."""
        limit = self.trace.parameter(key)
        scored = sorted(((self.scorer.score(c.outcome, side), c) for c in comps),
                        key=lambda sc: sc[0].value, reverse=start == "most-favourable")
        cumulative = Fraction(0)
        for s, c in scored:
            cumulative += c.weight
            self.add("cumulative", weight=c.weight, scored=s, cumulative=cumulative)
            if cumulative >= limit:
                self.add("selected", name=name, start=start, threshold=limit, parameter=key, outcome=c.outcome,
                         value=s.value)
                self.formed[side] = [(Fraction(1), c.outcome)]
                return s.value
        raise BridgelawError(f"{self.case.file}: the probabilities never reach {format_mixed(limit)} ({key})")

    def round_weighted(self, value: Fraction, name: str) -> Fraction:
        if self.scorer.unit != "IMP" or "weighted.imps.round_to" not in self.book.parameters:
            return value
        step = self.trace.parameter("weighted.imps.round_to")
        if not step:
            return value
        mode = self.trace.parameter("weighted.imps.round_mode")
        rounded = rounding.by_parameter(value, step, mode)
        self.add("rounded", name=name, step=step, mode=mode, before=value, after=rounded, unit="IMP",
                 parameter="weighted.imps.round_to")
        return rounded

    def legal_only(self, comps: list[Component], rule: Rule) -> list[Component]:
        used = [c for c in comps if c.legal]
        for c in comps:
            if not c.legal:
                self.add("excluded", outcome=c.outcome, weight=c.weight)
        if not used:
            raise BridgelawError(f"{self.case.file}: every possible outcome is marked not legal; rule {rule.id} "
                                 "leaves nothing to assign", suggestion="add the outcome that could have been reached legally")
        kept = sum((c.weight for c in used), Fraction(0))
        if kept != 1:
            self.add("rescaled", kept=kept)
            used = [Component(c.outcome, c.weight / kept, c.legal, c.path) for c in used]
        return used

    def favour(self, comps: list[Component], side: Side, factor_key: str, minimum_key: str | None) -> list[Component]:
        """Raise the weight of the result most favourable to `side` by the TD's factor (the case's
        poll.benefit_of_doubt) or else the factor parameter `factor_key` (the commentary's benefit of
        doubt), at least 1 and at most the rulebook's poll.benefit_of_doubt_ceiling when it has one,
        scaling the others down in proportion."""
        given = self.m.poll.benefit_of_doubt if self.m.poll is not None else None
        factor = given if given is not None else self.trace.parameter(factor_key)
        where = "the case's poll.benefit_of_doubt" if given is not None else factor_key

        def refuse(message: str, expected: str) -> BridgelawError:
            if given is not None:                   # point at the case's key
                return self.case.doc.error(["poll", "benefit_of_doubt"], message, expected=expected)
            return BridgelawError(f"{self.case.file}: {message}", expected=expected)
        if factor < 1:
            raise refuse(f"{where} is {format_mixed(factor)}; a benefit of doubt cannot favour the offending side",
                         "a factor of at least 1")
        if "poll.benefit_of_doubt_ceiling" in self.book.parameters:
            ceiling = self.trace.parameter("poll.benefit_of_doubt_ceiling")
            if factor > ceiling:
                raise refuse(f"{where} is {format_mixed(factor)}, above the ceiling {format_mixed(ceiling)} of "
                             f"{self.book.id} (poll.benefit_of_doubt_ceiling)", f"a factor from 1 to {format_mixed(ceiling)}")
        if self.m.poll is not None:
            polled = self.m.poll.polled
            if minimum_key is not None:
                minimum = self.trace.parameter(minimum_key)
                if polled < minimum:
                    dated = self.book.in_force(minimum_key)
                    why = f", cites {', '.join(dated.cites)}" if dated and dated.cites else ""
                    self.warnings.append(f"only {polled} players were polled; the minimum is {format_mixed(minimum)} "
                                         f"({minimum_key}, {dated.place.what if dated else self.book.id}{why})")
            self.add("poll", polled=polled, comps=comps)
        values = [self.scorer.score(c.outcome, side).value for c in comps]
        best = max(values)
        group = [c for c, v in zip(comps, values) if v == best]
        raw = sum((c.weight for c in group), Fraction(0))
        raised = min(Fraction(1), raw * factor)
        if raised == raw:
            self.add("favour", side=side, factor=factor, group=group, raw=raw, raised=raised, scale=None, adjusted=comps)
            return comps
        scale = (1 - raised) / (1 - raw)
        adjusted = [Component(c.outcome, c.weight * raised / raw if v == best else c.weight * scale, c.legal, c.path)
                    for c, v in zip(comps, values)]
        self.add("favour", side=side, factor=factor, group=group, raw=raw, raised=raised, scale=scale, adjusted=adjusted)
        return adjusted

    def weighted(self, comps: list[Component], side: Side, name: str) -> Fraction:
        scored = [(c.weight, self.scorer.score(c.outcome, side)) for c in comps]
        total = scored[0][1].value if len(scored) == 1 else sum((w * s.value for w, s in scored), Fraction(0))
        self.add("weighted", name=name, side=side, terms=scored, total=total)
        return total

    def assigned(self) -> tuple[str, dict[Side, SideScore]]:
        case, m, scorer, q = self.case, self.m, self.scorer, self.quantities
        nos, os = case.nos, case.os
        if case.both_non_offending:
            return self.both_non_offending()
        self.add("sides", nos=nos, os=os)
        env: dict[str, Fraction] = {}
        table_result = self.after_revokes() if m.table_result is not None else None
        if table_result is not None:
            a = scorer.score(table_result, nos)
            q["A"], env["A'"] = a.value, scorer.complement(a.value)
            self.add("table", scored=a)
        else:
            self.add("table", scored=None)
        if self.not_empowered is not None:
            return self.no_adjustment(env)
        q["B"], b_rule = self.expectation(case.without[nos], nos, "B (without the infraction)")
        if self.empowered is not None and self.empowered.at_least is not None:
            q["B"] = self.at_least(q["B"], self.empowered)
        if case.split:
            self.add("split", os=os)
            env["B'"], _ = self.expectation(case.without[os], os,
                                            "B' (without the infraction, offending side's weighting)", "os")
        elif b_rule.option("offending") == "own-view":
            env["B'"], _ = self.expectation(case.without[os], os, "B' (for the offending side)", "os")
        else:
            env["B'"] = scorer.complement(q["B"])
            if nos in self.weighting:
                self.weighting[os] = [(w, scorer.complement(v)) for w, v in self.weighting[nos]]
                self.formed[os] = self.formed[nos]
            self.add("complement", os=os, text=scorer.complement_text("B"), value=env["B'"])
        if q["A"] is not None:
            here: dict[str, Fraction] = {"A": q["A"]}
            if case.instead is not None:
                self.add("instead", nos=nos, error=m.serious_error.kind)
                here["instead"] = self.weighted(case.instead, nos, "C")
            rule = self.trace.decide("serious-error", {"serious_error": case.instead is not None, "scoring": m.scoring})
            f = rule.award["C"]
            q["C"] = f.evaluate(here)
            self.add("quantity", name="C", formula=f, env=here, value=q["C"])
            env["C'"] = scorer.complement(q["C"])
            q["D"], q["DR"], q["DS"] = q["B"] - q["A"], q["B"] - q["C"], q["C"] - q["A"]
            self.add("differences", D=q["D"], DR=q["DR"], DS=q["DS"])
        env.update({k: v for k, v in q.items() if v is not None})
        facts: dict[str, Any] = {**q, "serious_error": case.instead is not None, "scoring": m.scoring}
        rule = self.trace.decide("damage", facts)
        scores = {}
        for role, side in (("nos", nos), ("os", os)):
            scores[side] = self.award(rule.award[role], env, side, role, rule.outcome)
        return rule.outcome, scores

    def both_non_offending(self) -> tuple[str, dict[Side, SideScore]]:
        """Neither side treated as offending (Law 82C; 86B1): each side's assigned score is formed from
        its own view — its own weighting, the benefit of doubt its own — and the two need not balance."""
        case, q = self.case, self.quantities
        self.add("law", text="Neither side is treated as offending (non_offending: both): each side's assigned score "
                 "is formed from its own view, and the two need not balance.")
        q["B"], _ = self.expectation(case.without["NS"], "NS", "B for NS (without the irregularity, NS's view)")
        b_ew, _ = self.expectation(case.without["EW"], "EW", "B for EW (without the irregularity, EW's view)")
        rule = self.trace.decide("damage", {**q, "serious_error": False, "scoring": self.m.scoring})
        env = {"B": q["B"], "B'": b_ew}
        return rule.outcome, {"NS": self.award(rule.award["nos"], env, "NS", "nos", rule.outcome),
                              "EW": self.award(rule.award["os"], env, "EW", "nos", rule.outcome)}

    # --- the law that empowers the adjustment ------------------------------------------------------

    def empowerment(self) -> Empowerment | None:
        """The rulebook's entry for the case's infraction (an unknown law is an error at its key)."""
        inf = self.m.infraction
        if inf is None:
            return None
        try:
            e = resolve(self.book.infractions, inf.law, self.book.id)
        except UnknownLaw as exc:
            raise self.case.doc.error(["infraction", "law"], exc.message, suggestion=exc.suggestion) from None
        if self.case.both_non_offending and not e.both_sides:
            raise self.case.doc.error(["non_offending"], f"non_offending: both is for a law that rules each side from "
                                      f"its own view (82C, 86B1); {e.law} ({e.title}) in {self.book.id} does not",
                                      expected="non_offending: NS or EW")
        if e.revoke and not inf.revokes:
            raise self.case.doc.error(["infraction"], f"infraction {inf.law} ({e.title}) needs the established revokes",
                                      expected="revokes: [{trick: …, offender: …, offender_won: …, side_won: …, "
                                      "later_tricks: …}]")
        findings = inf.findings or {}
        known = {name for entry in self.book.infractions.values() for name, _ in entry.requires}
        for name in findings:
            if name not in known:               # a finding no law of this rulebook asks for: a typo?
                raise self.case.doc.error(["infraction", "findings", name], f"no law in {self.book.id} makes "
                                          f"'{name}' a condition of adjusting", key=True,
                                          expected="one of " + (", ".join(sorted(known)) or "(none)"),
                                          suggestion=did_you_mean(name, known))
        for name, what in e.requires:
            if name not in findings:
                raise self.case.doc.error(["infraction"], f"Law {e.law} empowers an adjustment only if {what}: the "
                                          f"case must give the Director's finding '{name}'",
                                          expected=f"findings: {{{name}: true or false}}")
            if not findings[name]:
                self.not_empowered = (e, what)
        other = "" if _law_key(inf.law).startswith(_law_key(e.law)) else f" (Law {e.law} in {self.book.id})"
        self.add("law", cites=list(e.cites), text=f"Infraction: Law {inf.law}{other}, {e.title}"
                 f"{f' (by {inf.by})' if inf.by else ''}; the adjustment is empowered by {', '.join(e.cites)}.")
        self.empowering = list(e.cites)
        return e

    def no_adjustment(self, env: dict[str, Fraction]) -> tuple[str, dict[Side, SideScore]]:
        """The law that would empower the adjustment does not, on the Director's findings: the table
        result stands for both sides (B = A; the damage stage then finds no damage)."""
        e, what = self.not_empowered
        q = self.quantities
        if q["A"] is None:
            raise self.case.doc.error(["infraction"], f"Law {e.law} does not empower an adjustment on these findings, "
                                      "so the table result stands: give it", expected="table_result: <result>")
        self.add("law", cites=list(e.cites), text=f"Law {e.law} empowers an adjustment only if {what}; the Director "
                 "finds that it does not hold: no adjustment, the table result stands (B = A).")
        q["B"] = q["C"] = q["A"]
        env.update({"A": q["A"], "B": q["A"], "B'": env["A'"], "C": q["A"], "C'": env["A'"]})
        q["D"] = q["DR"] = q["DS"] = Fraction(0)
        rule = self.trace.decide("damage", {**q, "serious_error": False, "scoring": self.m.scoring})
        nos, os = self.case.nos, self.case.os
        return rule.outcome, {nos: self.award(rule.award["nos"], env, nos, "nos", rule.outcome),
                              os: self.award(rule.award["os"], env, os, "os", rule.outcome)}

    def at_least(self, b: Fraction, e: Empowerment) -> Fraction:
        """The non-offending side's assigned score, raised to the parameter the empowering law names when
        that is more favourable (2017 Law 86B2(b): average plus or the assigned score, whichever is more)."""
        floor = self.trace.parameter(e.at_least)
        if self.scorer.unit != "IMP":
            raise BridgelawError(f"{self.case.file}: Law {e.law} ({e.title}) is for team play at IMPs")
        better = max(b, floor)
        self.add("law", cites=list(e.cites), text=f"Law {e.law}: the non-offending side gets the more favourable of "
                 f"the assigned score ({format_mixed(b)}) and {e.at_least} ({format_mixed(floor)}): B = {format_mixed(better)}; "
                 "the offending side the complement.")
        return better

    def after_revokes(self) -> Any:
        """The table result, after the Law 64A trick transfers when the case lists revokes."""
        m = self.m
        if m.infraction is None or not m.infraction.revokes:
            return m.table_result
        try:
            revokes = [Revoke(**r.model_dump()) for r in m.infraction.revokes]
            after, transfers = rectify(m.table_result, revokes)
        except RevokeError as exc:
            raise self.case.doc.error(["infraction", "revokes"], str(exc)) from None
        for r, t in zip(revokes, transfers):
            ref = t.paragraph if t.paragraph in self.book.paragraphs else t.paragraph[:3]
            self.add("law", cites=[ref], text=f"Revoke by {r.offender} on trick {r.trick}: {t.reason}.")
            self.empowering.append(ref)
        self.add("law", text=f"Table result {m.table_result.text}, after the transfer {after.text} (this is A).")
        subsequent = any(r.exception == "subsequent-same-suit" for r in revokes)
        without = m.without_infraction
        if isinstance(without, PlayedResult) and (without.contract, without.declarer) == (after.contract, after.declarer):
            e = equity(after, without, revokes[0].offender, edition="2017" if "64C1" in self.book.paragraphs else "2007",
                       subsequent_same_suit=subsequent)
            cites = [e.paragraph] if e.paragraph in self.book.paragraphs else []
            self.empowering += cites
            self.add("law", cites=cites, text=f"Law {e.paragraph}: the non-offending side has {e.nos_tricks_after} tricks "
                     f"after the transfer and would have had {e.nos_tricks_without} without the revoke"
                     + (": it is insufficiently compensated." if e.adjust else ": the transfer compensates it."))
        return after

    def award(self, f: Formula, env: dict[str, Fraction], side: Side, role: str | None, label: str) -> SideScore:
        value = f.evaluate(env)
        self.add("award", side=side, role=role, formula=f, env=dict(env), value=value, unit=self.scorer.unit)
        return SideScore(side, value, f.text, role, label)

    # --- artificial adjusted scores --------------------------------------------------------------

    def artificial(self) -> tuple[str, dict[Side, SideScore]]:
        m, case = self.m, self.case
        counts = m.artificial_boards_this_session
        awarded = artificial_scores(self.book, scoring=m.scoring,
                                    responsibility={side: getattr(m.artificial, side) for side in SIDES},
                                    session=case.session, trace=self.trace,
                                    boards={side: getattr(counts, side) for side in SIDES if counts and getattr(counts, side)})
        scores = {}
        for side, a in awarded.items():
            role = None if case.nos is None else ("nos" if side == case.nos else "os")
            value = a.value
            if value is not None and m.scoring == "matchpoints":
                value = a.value * self.scorer.top
                at = next(i for i, r in enumerate(self.trace.records) if r is a.records[-1]) + 1
                self.trace.records.insert(at, Record("share", dict(side=side, share=a.value, top=self.scorer.top,
                                                                   value=value, unit=self.scorer.unit)))
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
        rule = self.trace.decide("event", facts, event=self.case.event)
        if rule is None:
            return
        env = {"NS": ns, "EW": ew, "top": self.scorer.top if self.scorer.unit != "IMP" else None}
        for side in SIDES:
            f = rule.award[side]
            if f.text == side:
                continue
            scores[side] = self.award(f, env, side, scores[side].role, scores[side].label)

    def players(self, scores: dict[Side, SideScore]) -> dict[str, Fraction | None]:
        m = self.m
        players = {d: scores[SIDE_OF[d]].value for d in "NESW"}
        if m.penalty is None:
            return players
        p = m.penalty
        amount = p.amount.value * self.scorer.top / 100 if p.amount.unit == "%" and self.scorer.unit == "MP" else p.amount.value
        rule = self.trace.decide("penalty", {"event": self.case.event, "partner_blameless": p.partner_blameless},
                                 amount=amount, player=p.player, unit=self.scorer.unit)
        if rule is None:
            raise self.case.doc.error(["penalty"], f"rulebook {self.book.id} has no rule for a procedural penalty in a "
                                      f"{self.case.event} event (stage penalty)", key=True,
                                      expected="an event its penalty rules cover (12C3: event: individual)")
        bearers = [p.player] + ([PARTNER[p.player]] if rule.apply["to"] == "offender-and-partner" else [])
        for d in bearers:
            if players[d] is not None:
                players[d] -= amount
        return players

    def victory_points(self, scores: dict[Side, SideScore]) -> dict[Side, Fraction] | None:
        """The match in VPs, weighting the IMPs or the VPs as the rulebook's vp.method says."""
        match = self.m.match
        method = self.trace.parameter("vp.method")
        scale = self.trace.parameter("vp.scale")
        lead = match.imps.NS - match.imps.EW
        self.add("match", match=match, method=method, scale=scale)
        out: dict[Side, Fraction] = {}
        for side in SIDES:
            s = scores[side]
            if s.value is None:
                continue
            before = lead if side == "NS" else -lead
            comps = self.weighting.get(side, [])
            if method == "weight-vps" and len(comps) > 1 and s.formula in ("B", "B'"):
                terms = [(w, before + imps, vp_scale.victory_points(before + imps, match.boards)) for w, imps in comps]
                total = sum((w * points for w, _, points in terms), Fraction(0))
                step = self.trace.parameter("vp.round_to") if "vp.round_to" in self.book.parameters else 0
                mode = self.trace.parameter("vp.round_mode") if step else None
                value = rounding.by_parameter(total, step, mode) if step else total
                self.add("vp-weighted", side=side, terms=terms, total=total, step=step, value=value)
            else:
                if method == "weight-vps" and len(comps) > 1:
                    self.warnings.append(f"{side}'s score is {s.formula}, not a weighted assigned score: its VPs come "
                                         "from its IMPs")
                value = vp_scale.victory_points(before + s.value, match.boards)
                self.add("vp", side=side, before=before, imps=s.value, value=value)
            out[side] = value
        return out

    def build(self) -> Ruling:
        m, book = self.m, self.book
        asked = self.asked or m.date or dt.date.today()
        self.add("rulebook", book=book, dated=book.dated_in_use(), asked=self.asked, given=m.date is not None,
                 day=asked, clamped=asked > book.as_of)
        self.add("basis", scorer=self.scorer)
        self.empowered = self.empowerment()
        facts = {"artificial": m.artificial is not None, "possibilities_numerous": m.possibilities == "numerous",
                 "not_scheduled": m.not_scheduled is not None, "scoring": m.scoring}
        kind_rule = self.trace.decide("kind", facts, not_scheduled=m.not_scheduled)
        kind = kind_rule.apply["kind"]
        if kind == "assigned":
            outcome, scores = self.assigned()
        elif kind == "artificial":
            outcome, scores = self.artificial()
        else:
            outcome = "not-scored"
            scores = {s: SideScore(s, None, "not scored", None, "not-scored") for s in SIDES}
        assigned = {side: self.formed[side] for side in SIDES if side in self.formed} if kind == "assigned" else None
        self.event(scores)
        players = self.players(scores) if self.case.event == "individual" or m.penalty is not None else None
        vp = self.victory_points(scores) if m.match is not None else None
        return Ruling(
            title=m.title, source=m.source, outcome=outcome, unit=self.scorer.unit,
            top=self.scorer.top if self.scorer.unit != "IMP" else None,
            scores=scores, quantities=self.quantities, trace=self.trace, rulebook=book, event=self.case.event,
            players=players, vp=vp, warnings=self.warnings, assigned=assigned, case=self.case,
            empowering=[ref for i, ref in enumerate(self.empowering) if ref not in self.empowering[:i]],
        )


def rule_case(case: Case, book: Rulebook, as_of: dt.date | None = None) -> Ruling:
    """The ruling on `case` under `book` as in force on `as_of` (default: the case's date, else today)."""
    builder = _Builder(case, book.at(as_of or case.model.date))
    builder.asked = as_of
    return builder.build()
