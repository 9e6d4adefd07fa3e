"""The assigned adjusted score: A (the table result), B and B' (the expectation), C (without the
non-offending side's serious error or gambling action), and the damage stage's award for each
side; both sides non-offending (a law whose infraction entry says both_sides); no adjustment when
the empowering law's condition fails; a floor the empowering law names (its at_least)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.exact import format_mixed
from ..core.vocab import Side
from ..rulebook.infractions import Empowerment
from .draft import Draft
from .empowering import after_revokes
from .expectation import form_expectation, weighted
from .result import SideScore


def assigned_adjusted(d: Draft) -> tuple[str, dict[Side, SideScore]]:
    case, m, scorer, q = d.case, d.m, d.scorer, d.quantities
    nos, os = case.nos, case.os
    if case.both_non_offending:
        return both_non_offending(d)
    d.add("sides", nos=nos, os=os)
    env: dict[str, Fraction] = {}
    table_result = after_revokes(d) if m.table_result is not None else None
    if table_result is None and m.table_result is not None:        # the revoke-equity stage voids it
        d.add("law", text="The table result is not used: the score is the result had no revoke occurred.")
        d.add("table", scored=None)
    elif table_result is not None:
        a = scorer.score(table_result, nos)
        q["A"], env["A'"] = a.value, scorer.complement(a.value)
        d.add("table", scored=a)
    else:
        d.add("table", scored=None)
    if d.not_empowered is not None:
        return no_adjustment(d, env)
    q["B"], b_rule = form_expectation(d, case.without[nos], nos, "B (without the infraction)")
    if d.empowered is not None and d.empowered.at_least is not None:
        q["B"] = at_least(d, q["B"], d.empowered)
    if case.split:
        d.add("split", os=os)
        env["B'"], _ = form_expectation(d, case.without[os], os,
                                        "B' (without the infraction, offending side's weighting)", "os")
    elif b_rule.option("offending") == "own-view":
        env["B'"], _ = form_expectation(d, case.without[os], os, "B' (for the offending side)", "os")
    else:
        env["B'"] = scorer.complement(q["B"])
        if nos in d.weighting:
            d.weighting[os] = [(w, scorer.complement(v)) for w, v in d.weighting[nos]]
            d.formed[os] = d.formed[nos]
        d.add("complement", os=os, text=scorer.complement_text("B"), value=env["B'"])
    if q["A"] is not None:
        here: dict[str, Fraction] = {"A": q["A"]}
        if case.instead is not None:
            d.add("instead", nos=nos, error=m.serious_error.kind)
            here["instead"] = weighted(d, case.instead, nos, "C")
        rule = d.trace.decide("serious-error", {"serious_error": case.instead is not None, "scoring": m.scoring})
        f = rule.award["C"]
        q["C"] = f.evaluate(here)
        d.add("quantity", name="C", formula=f, env=here, value=q["C"])
        env["C'"] = scorer.complement(q["C"])
        q["D"], q["DR"], q["DS"] = q["B"] - q["A"], q["B"] - q["C"], q["C"] - q["A"]
        d.add("differences", D=q["D"], DR=q["DR"], DS=q["DS"])
    env.update({k: v for k, v in q.items() if v is not None})
    facts: dict[str, Any] = {**q, "serious_error": case.instead is not None, "scoring": m.scoring}
    rule = d.trace.decide("damage", facts)
    scores = {}
    for role, side in (("nos", nos), ("os", os)):
        scores[side] = d.award(rule.award[role], env, side, role, rule.outcome)
    return rule.outcome, scores


def both_non_offending(d: Draft) -> tuple[str, dict[Side, SideScore]]:
    """Neither side treated as offending (the empowering law says both_sides): each side's assigned score is formed from
    its own view — its own weighting, the benefit of doubt its own — and the two need not balance."""
    case, q = d.case, d.quantities
    d.add("law", text="Neither side is treated as offending (non_offending: both): each side's assigned score "
          "is formed from its own view, and the two need not balance.")
    q["B"], _ = form_expectation(d, case.without["NS"], "NS", "B for NS (without the irregularity, NS's view)")
    b_ew, _ = form_expectation(d, case.without["EW"], "EW", "B for EW (without the irregularity, EW's view)")
    rule = d.trace.decide("damage", {**q, "serious_error": False, "scoring": d.m.scoring})
    env = {"B": q["B"], "B'": b_ew}
    return rule.outcome, {"NS": d.award(rule.award["nos"], env, "NS", "nos", rule.outcome),
                          "EW": d.award(rule.award["os"], env, "EW", "nos", rule.outcome)}


def no_adjustment(d: Draft, env: dict[str, Fraction]) -> tuple[str, dict[Side, SideScore]]:
    """The law that would empower the adjustment does not, on the Director's findings: the table
    result stands for both sides (B = A; the damage stage then finds no damage)."""
    e, what = d.not_empowered
    q = d.quantities
    if q["A"] is None:
        raise d.case.doc.error(["infraction"], f"Law {e.law} does not empower an adjustment on these findings, "
                               "so the table result stands: give it", expected="table_result: <result>")
    d.add("law", cites=list(e.cites), text=f"Law {e.law} empowers an adjustment only if {what}; the Director "
          "finds that it does not hold: no adjustment, the table result stands (B = A).")
    q["B"] = q["C"] = q["A"]
    env.update({"A": q["A"], "B": q["A"], "B'": env["A'"], "C": q["A"], "C'": env["A'"]})
    q["D"] = q["DR"] = q["DS"] = Fraction(0)
    rule = d.trace.decide("damage", {**q, "serious_error": False, "scoring": d.m.scoring})
    nos, os = d.case.nos, d.case.os
    return rule.outcome, {nos: d.award(rule.award["nos"], env, nos, "nos", rule.outcome),
                          os: d.award(rule.award["os"], env, os, "os", rule.outcome)}


def at_least(d: Draft, b: Fraction, e: Empowerment) -> Fraction:
    """The non-offending side's assigned score, raised to the parameter the empowering law names
    when that is more favourable (the law's `at_least`; the law's scope says where it applies)."""
    floor = d.trace.parameter(e.at_least)
    better = max(b, floor)
    d.add("law", cites=list(e.cites), text=f"Law {e.law}: the non-offending side gets the more favourable of "
          f"the assigned score ({format_mixed(b)}) and {e.at_least} ({format_mixed(floor)}): B = {format_mixed(better)}; "
             "the offending side the complement.")
    return better
