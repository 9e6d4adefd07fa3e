"""Artificial adjusted scores (the ``artificial`` stage, once per side) and the provisions on the
two scores once they are known: the ``event`` stage (12C4 knockout averaging), the ``penalty``
stage (who bears a procedural penalty) and victory points for a match."""

from __future__ import annotations

from fractions import Fraction

from ..core import rounding
from ..core.errors import BridgelawError
from ..core import vp as vp_scale
from ..core.vocab import PARTNER, SIDE_OF, SIDES, Side
from .artificial import artificial_scores
from .draft import Draft
from .result import SideScore
from .trace import Entry


def artificial_adjusted(d: Draft) -> tuple[str, dict[Side, SideScore]]:
    m, case = d.m, d.case
    counts = m.artificial_boards_this_session
    if m.artificial is not None:
        responsibility = {side: getattr(m.artificial, side) for side in SIDES}
    else:                               # the empowering law's score is artificial, by responsibility
        by_role = dict(d.empowered.artificial)
        responsibility = {side: by_role["nos" if side == case.nos else "os"] for side in SIDES}
        d.add("law", cites=list(d.empowered.cites), text=f"Law {d.empowered.law} ({d.empowered.title}): the score is "
              "artificial, by responsibility: " + ", ".join(f"{s} {responsibility[s]}" for s in SIDES) + ".")
    awarded = artificial_scores(d.book, scoring=m.scoring,
                                responsibility=responsibility,
                                session=case.session, trace=d.trace,
                                boards={side: getattr(counts, side) for side in SIDES if counts and getattr(counts, side)})
    scores = {}
    for side, a in awarded.items():
        role = None if case.nos is None else ("nos" if side == case.nos else "os")
        value = a.value
        if value is not None and m.scoring == "matchpoints":
            value = a.value * d.scorer.top
            at = next(i for i, r in enumerate(d.trace.entries) if r is a.entries[-1]) + 1
            d.trace.entries.insert(at, Entry("share", dict(side=side, share=a.value, top=d.scorer.top,
                                                            value=value, unit=d.scorer.unit)))
        scores[side] = SideScore(side, value, a.formula, role, a.label)
    return "artificial", scores


def event(d: Draft, scores: dict[Side, SideScore]) -> None:
    ns, ew = scores["NS"].value, scores["EW"].value
    if ns is None or ew is None:
        return
    total = ns + ew
    balanced = total == 0 if d.scorer.unit == "IMP" else total == d.scorer.top
    facts = {"event": d.case.event, "scoring": d.m.scoring, "balanced": balanced}
    rule = d.trace.decide("event", facts, event=d.case.event)
    if rule is None:
        return
    env = {"NS": ns, "EW": ew, "top": d.scorer.top if d.scorer.unit != "IMP" else None}
    for side in SIDES:
        f = rule.award[side]
        if f.text == side:
            continue
        scores[side] = d.award(f, env, side, scores[side].role, scores[side].label)


def players(d: Draft, scores: dict[Side, SideScore]) -> dict[str, Fraction | None]:
    m = d.m
    players = {d: scores[SIDE_OF[d]].value for d in "NESW"}
    if m.penalty is None:
        return players
    p = m.penalty
    amount = p.amount.value * d.scorer.top / 100 if p.amount.unit == "%" and d.scorer.unit == "MP" else p.amount.value
    rule = d.trace.decide("penalty", {"event": d.case.event, "partner_blameless": p.partner_blameless},
                          amount=amount, player=p.player, unit=d.scorer.unit)
    if rule is None:
        raise d.case.doc.error(["penalty"], f"rulebook {d.book.id} has no rule for a procedural penalty in a "
                               f"{d.case.event} event (stage penalty)", key=True,
                                  expected="an event its penalty rules cover (e.g. event: individual)")
    bearers = [p.player] + ([PARTNER[p.player]] if rule.apply["to"] == "offender-and-partner" else [])
    for d in bearers:
        if players[d] is not None:
            players[d] -= amount
    return players


def victory_points(d: Draft, scores: dict[Side, SideScore]) -> dict[Side, Fraction] | None:
    """The match in VPs, weighting the IMPs or the VPs as the rulebook's vp.method says."""
    match = d.m.match
    method = d.trace.parameter("vp.method")
    scale = d.trace.parameter("vp.scale")
    table = d.trace.parameter("vp.table") if scale == "table" else None
    lead = match.imps.NS - match.imps.EW
    d.add("match", match=match, method=method, scale=scale)

    def convert(margin: Fraction) -> Fraction:
        try:
            return vp_scale.victory_points(margin, match.boards, scale, table)
        except vp_scale.ScaleError as exc:
            expected = "a VP scale for this match (the rulebook's vp.scale, vp.table)"
            if d.case.doc is None:
                raise BridgelawError(str(exc), expected=expected) from None
            raise d.case.doc.error(["match"], str(exc), key=True, expected=expected) from None

    out: dict[Side, Fraction] = {}
    for side in SIDES:
        s = scores[side]
        if s.value is None:
            continue
        before = lead if side == "NS" else -lead
        comps = d.weighting.get(side, [])
        if method == "weight-vps" and len(comps) > 1 and s.formula in ("B", "B'"):
            terms = [(w, before + imps, convert(before + imps)) for w, imps in comps]
            total = sum((w * points for w, _, points in terms), Fraction(0))
            step = d.trace.parameter("vp.round_to") if "vp.round_to" in d.book.parameters else 0
            mode = d.trace.parameter("vp.round_mode") if step else None
            value = rounding.by_parameter(total, step, mode) if step else total
            d.add("vp-weighted", side=side, terms=terms, total=total, step=step, value=value)
        else:
            if method == "weight-vps" and len(comps) > 1:
                d.warnings.append(f"{side}'s score is {s.formula}, not a weighted assigned score: its VPs come "
                                  "from its IMPs")
            value = convert(before + s.value)
            d.add("vp", side=side, before=before, imps=s.value, value=value)
        out[side] = value
    return out
