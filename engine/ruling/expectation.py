"""The expectation stage: B (and B') formed from the outcomes without the infraction, as the
rule that applies says — which outcomes count (legal only), whether the result best for the
non-offending side is favoured (benefit of doubt), and how the value is formed (a weighted
average, or the outcome at which the cumulative probability reaches a threshold)."""

from __future__ import annotations

from fractions import Fraction
from ..core import rounding
from ..core.errors import BridgelawError
from ..core.exact import format_mixed
from ..core.vocab import Side
from ..rulebook import Rule
from .outcomes import JUDGEMENTS, Component
from .draft import Draft
from .scorer import weighted_sum


def form_expectation(d: Draft, comps: list[Component], side: Side, label: str, role: str = "nos") -> tuple[Fraction, Rule]:
    """B (or B') for one side, formed as the expectation-stage rule says: which outcomes count
    (apply.outcomes), whether the result best for the non-offending side is favoured
    (apply.favour), and how the value is formed (apply.method: weighted-average, or threshold —
    the result at which the cumulative probability from one end reaches a parameter)."""
    poll = d.m.poll is not None
    judged = len(comps) > 1 and any(c.judged for c in comps)
    facts = {"weighted": len(comps) > 1, "illegal_outcomes": any(not c.legal for c in comps),
             "poll": poll, "judged": judged, "committee": d.case.by_committee, "scoring": d.m.scoring}
    rule = d.trace.decide("expectation", facts, quantity=label, side=side)
    option = rule.option
    if judged and option("method") != "threshold":
        raise d.case.doc.error(list(comps[0].path[:-1]) or ["without_infraction"],
                               f"the results are judged likely / at all probable, not weighted: rule {rule.id} of "
                               f"{d.book.id} weights them ({', '.join(rule.cites)})",
                               expected="a weight for each result",
                               suggestion="or rule under a rulebook whose rule selects the most favourable likely "
                                          "result by the words (see bridgelaw explain --exceptions expectation)")
    used = comps
    name = label.split(" ")[0]
    if option("outcomes") == "legal":
        used = legal_only(d, comps, rule)
    elif any(not c.legal for c in comps):
        d.warnings.append(
            f"outcomes marked legal: false are included: rule {rule.id} of {d.book.id} does not exclude them")
    if option("favour") is not None:
        dated = d.book.in_force(option("favour"))
        if (d.m.poll is None or d.m.poll.benefit_of_doubt is None) and (dated is None or not dated.cites):
            # no figure from the case, and none from a text (the rulebook's value is a modelling choice)
            warning = (f"no benefit of doubt given: rule {rule.id} ({', '.join(rule.cites)}) has the Director rule any "
                       f"doubtful point in favour of the non-offending side, and the rulebook gives no figure; the "
                       f"poll's weights are used as they are ({option('favour')}); give the factor the Director "
                       f"used as poll: {{benefit_of_doubt: …}}")
            if warning not in d.warnings:
                d.warnings.append(warning)
        used = favour(d, used, side, option("favour"), option("minimum_polled"))
    if option("method") == "threshold":
        if judged:
            return by_judgement(d, used, side, name, option(f"{role}_judged"), option(f"{role}_from"), rule), rule
        if option(f"{role}_threshold") is None:
            raise d.case.doc.error(list(comps[0].path[:-1]) or ["without_infraction"],
                                   f"rule {rule.id} of {d.book.id} selects by the words likely / at all probable "
                                   f"({', '.join(rule.cites)}): the results are weighted, not judged",
                                   expected="judged: likely or judged: at all probable for each result",
                                   suggestion=f"rule {rule.id}: {' '.join(rule.explain.split())}")
        return threshold(d, used, side, name, option(f"{role}_threshold"), option(f"{role}_from")), rule
    value = weighted(d, used, side, name)
    d.weighting[side] = [(c.weight, d.scorer.score(c.outcome, side).value) for c in used]
    d.formed[side] = [(c.weight, c.outcome) for c in used]
    if len(used) > 1:
        value = round_weighted(d, value, name, side, role)
    return value, rule


def threshold(d: Draft, comps: list[Component], side: Side, name: str, key: str, start: str) -> Fraction:
    """The outcome at which the cumulative probability, counted from the `start` end of the
    side's own view, first reaches parameter `key` (2007 12C1(e) as the ACBL reads it:
    "likely" for the non-offending side, "at all probable" for the offending side)."""
    limit = d.trace.parameter(key)
    # results that score alike are ordered by their table points, so the result reported is the one a
    # TD reading the table would pick (+420 before +400 when both score the same against the field)
    scored = sorted(((d.scorer.score(c.outcome, side), c) for c in comps),
                    key=lambda sc: (sc[0].value, d.scorer.points(sc[1].outcome, side)),
                    reverse=start == "most-favourable")
    cumulative = Fraction(0)
    for s, c in scored:
        cumulative += c.weight
        d.add("cumulative", weight=c.weight, scored=s, cumulative=cumulative)
        if cumulative >= limit:
            d.add("selected", name=name, start=start, threshold=limit, parameter=key, outcome=c.outcome,
                  value=s.value)
            d.formed[side] = [(Fraction(1), c.outcome)]
            return s.value
    raise BridgelawError(f"{d.case.file}: the probabilities never reach {format_mixed(limit)} ({key})")


def by_judgement(d: Draft, comps: list[Component], side: Side, name: str, word: str | None, start: str,
                 rule: Rule) -> Fraction:
    """The first result from the `start` end of the side's own view that the TD judged at least
    `word`: the most favourable *likely* result for the non-offending side, the most unfavourable
    result *at all probable* for the offending side (a likely result is also at all probable)."""
    if word is None:
        raise BridgelawError(f"{d.case.file}: rule {rule.id} of {d.book.id} selects by probability, not by the "
                             f"words likely / at all probable, for {name}", expected="weights for each result")
    accepted = JUDGEMENTS[:JUDGEMENTS.index(word) + 1]
    scored = sorted(((d.scorer.score(c.outcome, side), c) for c in comps),
                    key=lambda sc: (sc[0].value, d.scorer.points(sc[1].outcome, side)),
                    reverse=start == "most-favourable")
    for s, c in scored:
        if c.judged in accepted:
            d.add("judged", name=name, start=start, word=word, outcome=c.outcome, scored=s,
                  passed=[x.outcome for _, x in scored[:scored.index((s, c))]])
            d.formed[side] = [(Fraction(1), c.outcome)]
            return s.value
    raise d.case.doc.error(list(comps[0].path[:-1]), f"no result is judged {word.replace('-', ' ')} for {name}",
                           expected=f"at least one result with judged: {word.replace('-', ' ')}")


def round_weighted(d: Draft, value: Fraction, name: str, side: Side, role: str) -> Fraction:
    """A weighted IMP score rounded as the rulebook says; in table points, the rounding is recorded
    for the scoring (the IMPs are not known yet)."""
    if d.scorer.unit not in ("IMP", "points") or d.m.scoring != "imps" or "weighted.imps.round_to" not in d.book.parameters:
        return value
    step = d.trace.parameter("weighted.imps.round_to")
    if not step:
        return value
    mode = rounding.for_role(d.trace.parameter("weighted.imps.round_mode"), role)
    d.rounding[side] = (step, mode)
    if d.scorer.unit == "points":
        d.add("rounded-later", name=name, side=side, step=step, mode=mode, parameter="weighted.imps.round_to")
        return value
    rounded = rounding.by_parameter(value, step, mode)
    d.add("rounded", name=name, step=step, mode=mode, before=value, after=rounded, unit="IMP",
          parameter="weighted.imps.round_to")
    return rounded


def legal_only(d: Draft, comps: list[Component], rule: Rule) -> list[Component]:
    used = [c for c in comps if c.legal]
    for c in comps:
        if not c.legal:
            d.add("excluded", outcome=c.outcome, weight=c.weight)
    if not used:
        raise BridgelawError(f"{d.case.file}: every possible outcome is marked not legal; rule {rule.id} "
                             "leaves nothing to assign", suggestion="add the outcome that could have been reached legally")
    kept = sum((c.weight for c in used), Fraction(0))
    if kept != 1 and not any(c.judged for c in used):       # judged results carry words, not weights
        d.add("rescaled", kept=kept)
        used = [Component(c.outcome, c.weight / kept, c.legal, c.path) for c in used]
    return used


def favour(d: Draft, comps: list[Component], side: Side, factor_key: str, minimum_key: str | None) -> list[Component]:
    """Raise the weight of the result most favourable to `side` by the TD's factor (the case's
    poll.benefit_of_doubt) or else the factor parameter `factor_key` (the commentary's benefit of
    doubt), at least 1 and at most the rulebook's poll.benefit_of_doubt_ceiling when it has one,
    scaling the others down in proportion."""
    given = d.m.poll.benefit_of_doubt if d.m.poll is not None else None
    factor = given if given is not None else d.trace.parameter(factor_key)
    where = "the case's poll.benefit_of_doubt" if given is not None else factor_key

    def refuse(message: str, expected: str) -> BridgelawError:
        if given is not None:                   # point at the case's key
            return d.case.doc.error(["poll", "benefit_of_doubt"], message, expected=expected)
        return BridgelawError(f"{d.case.file}: {message}", expected=expected)
    if factor < 1:
        raise refuse(f"{where} is {format_mixed(factor)}; a benefit of doubt cannot favour the offending side",
                     "a factor of at least 1")
    if "poll.benefit_of_doubt_ceiling" in d.book.parameters:
        ceiling = d.trace.parameter("poll.benefit_of_doubt_ceiling")
        if factor > ceiling:
            raise refuse(f"{where} is {format_mixed(factor)}, above the ceiling {format_mixed(ceiling)} of "
                         f"{d.book.id} (poll.benefit_of_doubt_ceiling)", f"a factor from 1 to {format_mixed(ceiling)}")
    if d.m.poll is not None:
        polled = d.m.poll.polled
        if minimum_key is not None:
            minimum = d.trace.parameter(minimum_key)
            if polled < minimum:
                dated = d.book.in_force(minimum_key)
                why = f", cites {', '.join(dated.cites)}" if dated and dated.cites else ""
                d.warnings.append(f"only {polled} players were polled; the minimum is {format_mixed(minimum)} "
                                  f"({minimum_key}, {dated.place.what if dated else d.book.id}{why})")
        d.add("poll", polled=polled, comps=comps)
    values = [d.scorer.score(c.outcome, side).value for c in comps]
    best = max(values)
    group = [c for c, v in zip(comps, values) if v == best]
    raw = sum((c.weight for c in group), Fraction(0))
    raised = min(Fraction(1), raw * factor)
    if raised == raw:
        d.add("favour", side=side, factor=factor, group=group, raw=raw, raised=raised, scale=None, adjusted=comps)
        return comps
    scale = (1 - raised) / (1 - raw)
    adjusted = [Component(c.outcome, c.weight * raised / raw if v == best else c.weight * scale, c.legal, c.path)
                for c, v in zip(comps, values)]
    d.add("favour", side=side, factor=factor, group=group, raw=raw, raised=raised, scale=scale, adjusted=adjusted)
    return adjusted


def weighted(d: Draft, comps: list[Component], side: Side, name: str) -> Fraction:
    scored = [(c.weight, d.scorer.score(c.outcome, side)) for c in comps]
    total = scored[0][1].value if len(scored) == 1 else weighted_sum((w, s.value) for w, s in scored)
    d.add("weighted", name=name, side=side, terms=scored, total=total)
    return total
