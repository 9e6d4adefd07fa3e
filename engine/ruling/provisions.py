"""Artificial adjusted scores (the ``artificial`` stage, once per side) and the provisions on the
two scores once they are known: the ``event`` stage (12C4 knockout averaging), the ``penalty``
stage (who bears a procedural penalty) and victory points for a match."""

from __future__ import annotations

from fractions import Fraction

from ..core import rounding
from ..core.errors import BridgelawError
from ..core.exact import format_mixed
from ..core import vp as vp_scale
from ..core.vocab import PARTNER, SIDE_OF, SIDES, Side
from ..rulebook.formula import Formula
from . import combination
from .artificial import artificial_scores
from .draft import Draft
from .result import Penalty, SideScore
from .trace import Entry


def artificial_adjusted(d: Draft) -> tuple[str, dict[Side, SideScore]]:
    m, case = d.m, d.case
    counts = m.artificial_boards_this_session
    if m.artificial is not None:
        responsibility = {side: getattr(m.artificial, side) for side in SIDES}
    elif d.declined is not None:        # the law's choice declined, no result obtained: artificial by responsibility
        e, what = d.not_empowered
        if case.nos is None or case.both_non_offending:
            raise case.doc.error(["non_offending"], f"Law {e.law} is not applied ({what} does not hold) and no result "
                                 "was obtained: the score is artificial, by responsibility, which needs one "
                                 "non-offending side", expected="non_offending: NS or EW, or artificial: {NS: …, EW: …}")
        by_role = dict(e.declined)
        responsibility = {side: by_role["nos" if side == case.nos else "os"] for side in SIDES}
        d.empowering += [ref for ref in e.declined_cites if ref not in d.empowering]
        d.add("law", cites=list(e.declined_cites), text=f"Law {e.law} is not applied (found not to hold: {what}). "
              "No result was obtained at this table, so none can stand: the score is artificial, by "
              "responsibility (" + ", ".join(e.declined_cites) + "): "
              + ", ".join(f"{s} {responsibility[s]}" for s in SIDES) + ".")
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
    balanced = ns + ew == d.scorer.balanced_at
    facts = {"event": d.case.event, "scoring": d.m.scoring, "balanced": balanced}
    rule = d.trace.decide("event", facts, event=d.case.event)
    if rule is None:
        return
    env = {"NS": ns, "EW": ew, "top": d.scorer.top if d.scorer.unit in ("MP", "%") else None}
    before = {side: d.assigned[side] for side in SIDES if side in d.assigned}
    for side in SIDES:
        f = rule.award[side]
        if f.text == side:
            continue
        scores[side] = d.award(f, env, side, scores[side].role, scores[side].label)
        # a rounded weighted score averaged is no longer results and weights
        parts = None if len(before) < 2 or d.rounded else \
            combination.Later(averaged, f, before, side, d.scorer.unit == "MP")
        if d.scorer.unit == "points" and (parts is None or parts() is None):
            raise BridgelawError(f"{d.case.file}: rule {rule.id} of {d.book.id} ({f.text}) cannot be given in "
                                 "table points", expected="other_table (IMPs) or field (matchpoints)")
        if parts is None:
            d.assigned.pop(side, None)
        else:
            d.assigned[side] = parts


def averaged(f: Formula, before: combination.Pending, side: Side, at_matchpoints: bool) -> combination.Weighted | None:
    """`side`'s score under the event stage's formula over both sides' awards, as results (None when
    either award is none)."""
    views = {}
    for s, pending in before.items():
        parts = combination.parts_of(pending)
        if parts is None:
            return None
        views[s] = (s, parts)
    return combination.of_formula(f, views, side, at_matchpoints)


def penalty(d: Draft, scores: dict[Side, SideScore], note: bool = True) -> list[Penalty]:
    """The procedural penalty (Law 90), in the units the case gives (a fraction of a top or matchpoints at
    pairs, IMPs at teams, VPs against a match): the ``penalty`` stage says who bears it; at pairs and teams
    it is taken from the offending pair's or team's score alone (the opponents' is not changed). In table
    points, and for VPs without the match, it is recorded for the scoring to apply."""
    p = d.m.penalty
    if p is None:
        return []
    unit, given = d.scorer.unit, p.amount
    side = p.side or SIDE_OF[p.player]
    if given.unit == "%" and unit == "MP":
        amount: Fraction | None = given.value * d.scorer.top / 100
    elif given.unit == "MP" and unit == "%":
        raise d.case.doc.error(["penalty", "amount"], f"'{given.text}' is in matchpoints, but the top is unknown",
                               expected="field: [...] or results_on_board: <n>", suggestion="or give it as a share of a top: 10%")
    elif unit == "points" and given.unit != "VP":
        amount = None                           # the board is not scored yet: the scoring applies it
    else:
        amount = given.value
    rule = d.trace.decide("penalty", {"event": d.case.event, "partner_blameless": bool(p.partner_blameless)},
                          amount=amount, given=given, player=p.player or side, unit=unit if given.unit != "VP" else "VP")
    if rule is None:
        raise d.case.doc.error(["penalty"], f"rulebook {d.book.id} has no rule for a procedural penalty in a "
                               f"{d.case.event} event (stage penalty)", key=True,
                                  expected="an event its penalty rules cover (e.g. event: individual)")
    to = rule.apply["to"]
    order = (d.trace.parameter("penalty.matchpoints.order")
             if to == "side" and d.m.scoring == "matchpoints" and given.unit == "%" else None)
    on = p.player if to in ("offender", "offender-and-partner") else side
    record = Penalty(on=on, side=side, amount=given, value=amount, against="match" if given.unit == "VP" else "board",
                     to=to, order=order, rule=rule.id)
    if to == "side" and given.unit != "VP" and amount is not None and scores[side].value is not None:
        s = scores[side]
        before = s.value
        scores[side] = SideScore(side, before - amount, f"{s.formula} − penalty", s.role, s.label)
        d.add("procedural-penalty", penalty=record, before=before, after=before - amount, unit=unit, top=d.scorer.top)
    elif note:
        d.add("procedural-penalty", penalty=record, before=None, after=None, unit=unit, top=d.scorer.top)
    return [record]


def players(d: Draft, scores: dict[Side, SideScore], penalties: list[Penalty] | None = None) -> dict[str, Fraction | None]:
    """Each player's score in an individual event: the side's, less a penalty the player bears (the
    case's penalty, through the penalty stage, unless `penalties` are given already)."""
    if penalties is None:                   # a field's individual line: who bears it, the players' scores show it
        penalties = penalty(d, scores, note=False)
    players = {seat: scores[SIDE_OF[seat]].value for seat in "NESW"}
    for p in penalties:
        if p.to not in ("offender", "offender-and-partner") or p.value is None:
            continue
        bearers = [p.on] + ([PARTNER[p.on]] if p.to == "offender-and-partner" else [])
        for seat in bearers:
            if players[seat] is not None:
                players[seat] -= p.value
    return players


def victory_points(d: Draft, scores: dict[Side, SideScore], penalties: list[Penalty] = ()) -> dict[Side, Fraction] | None:
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
    worth = 2 * convert(Fraction(0))          # what the match is worth: both teams' VPs (twice a draw's)
    for p in penalties:                       # a penalty in VPs is taken from the match, after conversion
        if p.against == "match" and p.side in out:
            if p.value > worth:
                message = (f"a procedural penalty of {format_mixed(p.value)} VP, more than the match is worth "
                           f"({format_mixed(worth)} VPs)")
                expected = f"a penalty of at most {format_mixed(worth)} VP"
                if d.case.doc is None:
                    raise BridgelawError(message, expected=expected)
                raise d.case.doc.error(["penalty"], message, expected=expected)
            d.add("vp-penalty", side=p.side, before=out[p.side], amount=p.value, after=out[p.side] - p.value)
            out[p.side] -= p.value
    return out
