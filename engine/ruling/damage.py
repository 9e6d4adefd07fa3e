"""The assigned adjusted score: A (the table result), B and B' (the expectation), C (without the
non-offending side's serious error or gambling action), and the damage stage's award for each
side; both sides non-offending (a law whose infraction entry says both_sides); the result standing
when a finding defeats the empowering law; a floor the empowering law names (its at_least).

Each side's award is also kept as results and weights (:mod:`.combination`): with neither the other
table nor the field the ruling is in table points, and A, B and C are compared there only when every
form of scoring would order them alike (:func:`compare_in_table_points`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from ..core import rounding
from ..core.errors import BridgelawError
from ..core.exact import format_mixed, minus
from ..core.vocab import Side
from ..rulebook.formula import Formula
from ..rulebook.infractions import Empowerment
from . import combination
from .combination import View, Weighted
from .draft import Draft
from .empowering import after_revokes
from .expectation import form_expectation, weighted
from .result import SideScore


def assigned_adjusted(d: Draft) -> tuple[str, dict[Side, SideScore]]:
    case, m, scorer, q = d.case, d.m, d.scorer, d.quantities
    nos, os = case.nos, case.os
    if case.without is None:                 # left out because a finding defeats the law; here it does not
        err = case.doc.error([], "missing required key 'without_infraction': the adjustment is empowered on these "
                             "findings, so the outcome without the infraction is needed",
                             expected="without_infraction: <result or weighted list>, or poll: {…}")
        err.path = ("without_infraction",)
        raise err
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
    q["B"], b_rule = form_expectation(d, case.without[nos], nos, "B (without the infraction)")
    floored = False
    if d.empowered is not None and d.empowered.at_least is not None:
        before = q["B"]
        q["B"] = at_least(d, q["B"], d.empowered)
        floored = q["B"] != before          # average plus is no result: the award is not one as results
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
        if nos in d.rounding:              # the complement of a rounded B is the OS's view rounded the other way
            step, mode = d.rounding[nos]
            d.rounding[os] = (step, rounding.opposite(mode))
        d.add("complement", os=os, text=scorer.complement_text("B"), value=env["B'"])
    c_formula: Formula | None = None
    c_results: Weighted | None = None
    if q["A"] is not None:
        here: dict[str, Fraction] = {"A": q["A"]}
        if case.instead is not None:
            d.add("instead", nos=nos, error=m.serious_error.kind)
            here["instead"] = weighted(d, case.instead, nos, "C")
            c_results = [(c.weight, c.outcome) for c in case.instead]
        rule = d.trace.decide("serious-error", {"serious_error": case.instead is not None, "scoring": m.scoring})
        c_formula = f = rule.award["C"]
        q["C"] = f.evaluate(here)
        d.add("quantity", name="C", formula=f, env=here, value=q["C"])
        env["C'"] = scorer.complement(q["C"])
        q["D"], q["DR"], q["DS"] = minus(q["B"], q["A"]), minus(q["B"], q["C"]), minus(q["C"], q["A"])
        d.add("differences", D=q["D"], DR=q["DR"], DS=q["DS"])
    formed = None if floored else (d.formed[nos], d.formed[os])
    views = combination.Later(quantity_views, nos, os, table_result, formed, c_formula, c_results,
                              scorer.unit == "MP")
    if q["A"] is not None and scorer.unit == "points":
        compare_in_table_points(d, {k: views()[k][1] for k in ("A", "B", "C")})
    env.update({k: v for k, v in q.items() if v is not None})
    facts: dict[str, Any] = {**q, "serious_error": case.instead is not None, "scoring": m.scoring}
    rule = d.trace.decide("damage", facts)
    scores = {}
    for role, side in (("nos", nos), ("os", os)):
        scores[side] = award(d, rule.award[role], env, views, side, role, rule.outcome)
    return rule.outcome, scores


def quantity_views(nos: Side, os: Side, table_result: Any, formed: tuple[Weighted, Weighted] | None,
                   c_formula: Formula | None, c_results: Weighted | None, at_matchpoints: bool) -> dict[str, View]:
    """Each quantity an award may name as the side whose view it is from and its results: A (the
    table result), B and B' (the outcomes they were formed from; none when the empowering law's floor
    replaced B), C (by the serious-error stage's formula) and the differences D, DR, DS."""
    views: dict[str, View] = {}
    if table_result is not None:
        views["A"], views["A'"] = (nos, [(Fraction(1), table_result)]), (os, [(Fraction(1), table_result)])
    if formed is not None:
        views["B"], views["B'"] = (nos, formed[0]), (os, formed[1])
    if c_formula is not None:
        if c_results is None:
            c_results = [(Fraction(1), table_result)]
        views["C"] = (nos, combination.of_formula(c_formula, {"A": views["A"], "instead": (nos, c_results)}, nos,
                                                  at_matchpoints) or [])
        views["C'"] = (os, views["C"][1])
        for name, (x, y) in {"D": ("B", "A"), "DR": ("B", "C"), "DS": ("C", "A")}.items():
            if x in views:
                views[name] = (nos, views[x][1] + [(-w, o) for w, o in views[y][1]])
    return views


def award(d: Draft, f: Formula, env: dict[str, Fraction], views: Callable[[], dict[str, View]], side: Side,
          role: str | None, label: str) -> SideScore:
    """The damage stage's award for `side`, and the same award as results and weights (worked out when
    asked, but at once in table points, where it is the ruling)."""
    score = d.award(f, env, side, role, label)
    own = "B" if role == "nos" and not (d.case.both_non_offending and side != "NS") else "B'"
    rounded = d.rounding.pop(side, None) if own in f.names else None
    results = True
    if rounded is not None:
        if f.text == own:
            d.rounded[side] = rounded       # the side's score is its weighted results, rounded so
        else:                                # a rounded B inside a sum: no longer a weighted sum of results
            results = False
    parts = combination.Later(side_parts, f, views, side, d.scorer.unit == "MP") if results else None
    if d.scorer.unit == "points" and (parts is None or parts() is None):
        raise BridgelawError(f"{d.case.file}: {side}'s award '{f.text}' (rule of {d.book.id}) is not a weighted sum of "
                             "results, so it cannot be given in table points",
                             expected="other_table (IMPs) or field (matchpoints) to score it")
    if parts is not None:
        d.assigned[side] = parts
    return score


def side_parts(f: Formula, views: Callable[[], dict[str, View]], side: Side, at_matchpoints: bool) -> Weighted | None:
    return combination.of_formula(f, views(), side, at_matchpoints)


def compare_in_table_points(d: Draft, lists: dict[str, Weighted]) -> None:
    """A, B and C compared in table points, when every scoring orders them alike: a result that scores
    more points never scores fewer IMPs or matchpoints, so a list whose results all score at least
    as many points as another's is at least as favourable under any scoring. Lists that overlap
    (the table result between the outcomes of a weighted B) are ordered by the field: an error."""
    nos = d.case.nos
    points = {k: [d.scorer.score(o, nos).value for _, o in v] for k, v in lists.items()}
    for x, y in (("A", "B"), ("A", "C"), ("B", "C")):
        (lo_x, hi_x), (lo_y, hi_y) = (min(points[x]), max(points[x])), (min(points[y]), max(points[y]))
        if not (hi_x <= lo_y or hi_y <= lo_x):
            show = {k: ", ".join(f"{o.text} ({format_mixed(p, signed=True)})" for (_, o), p in zip(lists[k], points[k]))
                    for k in (x, y)}
            raise d.case.doc.error([], f"{x} ({show[x]}) and {y} ({show[y]}) cannot be compared in table points: "
                                   f"which is more favourable to {nos} depends on the other table or the field",
                                   expected="other_table (IMPs) or field (matchpoints)")
    d.add("law", text=f"No other table or field is given: A, B and C are compared in table points from {nos}'s "
          "view, as the Law's definition of damage compares table results. Every form of scoring keeps their order — a result that "
          "scores more points never scores fewer IMPs or matchpoints, and no weighted list here overlaps another — "
          "so each side's award is the one a comparison in IMPs or matchpoints gives against any field (where two "
          "of A, B and C score alike there, the rules on either side of that boundary award the same).")


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
    views = combination.Later(dict, {"B": ("NS", d.formed["NS"]), "B'": ("EW", d.formed["EW"])})
    return rule.outcome, {"NS": award(d, rule.award["nos"], env, views, "NS", "nos", rule.outcome),
                          "EW": award(d, rule.award["os"], env, views, "EW", "nos", rule.outcome)}


def result_stands(d: Draft) -> tuple[str, dict[Side, SideScore]]:
    """A finding defeats the law that would empower the adjustment (no logical alternative, no
    misinformation, no damage): the ruling ends there. The table result stands for both sides; the
    law whose condition failed is cited; no Law 12 paragraph, no outcome without the infraction."""
    e, what = d.not_empowered
    m, scorer, case = d.m, d.scorer, d.case
    if m.table_result is None:
        raise case.doc.error(["infraction"], f"Law {e.law} does not empower an adjustment on these findings, "
                             "so the table result stands: give it", expected="table_result: <result>")
    d.add("law", cites=list(e.cites), text=f"Law {e.law} empowers an adjustment only if {what}; the Director "
          "finds that it does not hold: no adjustment, the table result stands (no score is assigned).")
    table_result = after_revokes(d) or m.table_result
    nos, os = case.nos, case.os
    scores = {}
    for side in (nos, os):
        scored = scorer.score(table_result, side)
        d.add("stands", side=side, scored=scored)
        scores[side] = SideScore(side, scored.value, "A" if side == nos else "A'",
                                 "nos" if side == nos else "os", "result-stands")
        d.assigned[side] = [(Fraction(1), table_result)]
    d.quantities["A"] = scores[nos].value
    return "result-stands", scores


def at_least(d: Draft, b: Fraction, e: Empowerment) -> Fraction:
    """The non-offending side's assigned score, raised to the parameter the empowering law names
    when that is more favourable (the law's `at_least`; the law's scope says where it applies)."""
    floor = d.trace.parameter(e.at_least)
    if d.scorer.unit == "points":
        raise BridgelawError(f"{d.case.file}: Law {e.law} ({e.title}) gives the more favourable of {e.at_least} and "
                             "the assigned score, which needs the other table's result to compare them",
                             expected="other_table: <result>")
    better = max(b, floor)
    d.add("law", cites=list(e.cites), text=f"Law {e.law}: the non-offending side gets the more favourable of "
          f"the assigned score ({format_mixed(b)}) and {e.at_least} ({format_mixed(floor)}): B = {format_mixed(better)}; "
             "the offending side the complement.")
    return better
