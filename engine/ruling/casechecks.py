"""The checks of a case that involve several keys at once, each error pointing at the file, line and
column of the key concerned: which keys go together, the weights of a list or a poll, the scoring
basis (other table, field) the outcomes need. :func:`check` returns the case's normalised lists of
weighted components; :func:`.case.check_case` makes them a :class:`.case.Case`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core import bridge
from ..core.exact import format_mixed
from ..core.vocab import SIDES, Side
from ..core.yamlio import Document
from .caseschema import CaseModel, Poll, PollResult, SplitWeighting
from .outcomes import Component, Outcome, UnitScore


@dataclass
class Checked:
    """What the checks normalise: B's possibilities per side (equal unless split; a poll's raw
    weights), C's possibilities (serious error), the 12C2(c) session scores."""
    without: dict[Side, list[Component]] | None
    split: bool
    instead: list[Component] | None
    session: dict[Side, Fraction]


ASSIGNED_ONLY = ("table_result", "other_table", "without_infraction", "poll", "serious_error")


def check(doc: Document, m: CaseModel) -> Checked:
    """The checks that involve several keys; each error points at the key concerned."""
    if m.results_on_board is not None:
        if m.scoring == "matchpoints" and m.results_on_board < 2:
            raise doc.error(["results_on_board"], f"results_on_board is {m.results_on_board}; a board needs at "
                            "least 2 results to be matchpointed", expected="a whole number of at least 2")
        if m.field is not None and m.results_on_board != len(m.field) + 1:
            raise doc.error(["results_on_board"], f"results_on_board is {m.results_on_board} but the field lists "
                            f"{len(m.field)} other results ({len(m.field) + 1} in all)")
    if m.players is not None and (m.event or "") != "individual":
        raise doc.error(["players"], "players are named for individual events", key=True, expected="event: individual")
    if m.appeal is not None:
        if m.appeal.decision == "changed" and not m.appeal.changed_to:
            raise doc.error(["appeal", "decision"], "an appeal that changed the ruling says what it changed it to",
                            expected="appeal: {decision: changed, changed_to: <the new ruling>}")
        if m.appeal.changed_to and m.appeal.decision != "changed":
            raise doc.error(["appeal", "changed_to"], f"changed_to goes with decision: changed, not "
                            f"{m.appeal.decision}", key=True, expected="decision: changed")
    if m.match is not None and m.scoring != "imps":
        raise doc.error(["match"], "match (victory points) is for teams at IMPs", key=True, expected="scoring: imps")
    if m.penalty is not None:
        _check_penalty(doc, m)
    if m.artificial is not None or m.not_scheduled is not None:
        return _check_artificial(doc, m)
    for key in ("possibilities", "session", "artificial_boards_this_session"):
        if getattr(m, key) is not None:
            raise doc.error([key], f"{key} goes with an artificial adjusted score", key=True,
                            expected="artificial: {NS: <responsibility>, EW: <responsibility>}")
    if m.non_offending is None:
        err = doc.error([], "missing required key 'non_offending'", expected="non_offending: NS or EW")
        err.path = ("non_offending",)
        raise err
    if m.non_offending == "both":
        for key in ("table_result", "serious_error"):
            if getattr(m, key) is not None:
                raise doc.error([key], f"{key} does not go with non_offending: both: each side is assigned the "
                                "score it would have had (the result obtained at the table is void)", key=True)
    if m.infraction is not None and m.infraction.revokes is not None and not isinstance(m.table_result, bridge.PlayedResult):
        raise doc.error(["infraction", "revokes"], "revokes need the table_result as played (before the trick "
                        "transfer)", expected="table_result: <contract, result and declarer>, e.g. 4S= S")
    defeated = m.infraction is not None and False in (m.infraction.findings or {}).values()
    if defeated and m.without_infraction is None and m.poll is None:
        # a finding may defeat the empowering law (the rulebook says): the result stands, no B needed
        _check_scoring(doc, m, {"NS": [], "EW": []}, None)
        return Checked(without=None, split=False, instead=None, session={})
    if (m.without_infraction is None) == (m.poll is None):
        err = doc.error(["poll"] if m.poll is not None else [],
                        "give exactly one of without_infraction (the outcome or weighted outcomes) and poll",
                        expected="without_infraction: <result or weighted list>, or poll: {polled: …, choices: […]}")
        err.path = ("poll",) if m.poll is not None else ("without_infraction",)
        raise err
    w = m.without_infraction
    if m.poll is not None:
        comps = _poll_components(doc, m.poll)
        without, split = {"NS": comps, "EW": comps}, False
    elif isinstance(w, SplitWeighting):
        without = {s: weighted_components(doc, getattr(w, s), ["without_infraction", s]) for s in SIDES}
        split = True
    else:
        comps = weighted_components(doc, w, ["without_infraction"])
        without, split = {"NS": comps, "EW": comps}, False
    instead = None
    if m.serious_error is not None:
        if m.table_result is None:
            raise doc.error(["serious_error"], "serious_error needs the table_result it affected", key=True,
                            expected="table_result: <the result obtained at the table>")
        instead = weighted_components(doc, m.serious_error.instead, ["serious_error", "instead"])
        if any(c.judged for c in instead) and len(instead) > 1:
            raise doc.error(["serious_error", "instead"], "C is weighted, not judged: give each result's weight",
                            expected="weights that add up to 1")
        for c in instead:
            if not c.legal:
                raise doc.error(list(c.path), "legal: false belongs to without_infraction, not to instead",
                                expected="what the non-offending side would have scored without its error")
    _check_scoring(doc, m, without, instead)
    return Checked(without=without, split=split, instead=instead, session={})


PENALTY_UNITS = {"imps": ("IMP", "VP"), "matchpoints": ("%", "MP")}


def _check_penalty(doc: Document, m: CaseModel) -> None:
    p, individual = m.penalty, (m.event or "") == "individual"
    if (p.player is None) == (p.side is None):
        raise doc.error(["penalty"], "a procedural penalty is on a player or on a side: give exactly one",
                        expected="penalty: {side: EW, amount: …} or penalty: {player: W, amount: …}")
    if individual and p.player is None:
        raise doc.error(["penalty", "side"], "in an individual event a penalty is on a player (the rulebook's penalty stage says whether the partner bears it)", key=True,
                        expected="player: N, E, S or W")
    if individual and p.partner_blameless is None:
        raise doc.error(["penalty"], "missing required key 'partner_blameless'",
                        expected="partner_blameless: true or false (is the offender's partner in no way to blame?)")
    if not individual and p.partner_blameless is not None:
        raise doc.error(["penalty", "partner_blameless"], "partner_blameless is for individual events: at pairs and "
                        "teams the penalty is on the pair or the team", key=True)
    amount, units = p.amount, PENALTY_UNITS[m.scoring]
    if not isinstance(amount, UnitScore) or amount.side != "NS" or amount.value <= 0 or amount.unit not in units:
        shown = amount.text if hasattr(amount, "text") else str(amount)
        raise doc.error(["penalty", "amount"], f"penalty amount '{shown}' is not a positive amount in the event's unit",
                        expected="e.g. 3 IMP or 1 VP (against the match) at IMPs; 10% (of a top) or 2 MP at matchpoints")
    if amount.unit == "VP" and (m.event or "teams") not in ("teams", "knockout"):
        raise doc.error(["penalty", "amount"], f"'{amount.text}' is against a team match; this is a {m.event} event",
                        expected="IMPs")
    if amount.unit == "%" and amount.value > 100:
        raise doc.error(["penalty", "amount"], f"'{amount.text}' is more than a top", expected="a share of a top: 10%, 25%")
    if amount.unit == "IMP" and amount.value > len(bridge.IMP_SCALE):      # as a rulings file's penalty
        raise doc.error(["penalty", "amount"], f"'{amount.text}' is more than a board can be",
                        expected=f"IMPs from 0 to {len(bridge.IMP_SCALE)}")


def _check_artificial(doc: Document, m: CaseModel) -> Checked:
    if m.artificial is not None and m.not_scheduled is not None:
        raise doc.error(["not_scheduled"], "a board not scheduled for a contestant gets no artificial score",
                        key=True, expected="either artificial or not_scheduled")
    for key in ASSIGNED_ONLY:
        if getattr(m, key) is not None:
            what = "an artificial adjusted score" if m.artificial is not None else "a board not scheduled"
            raise doc.error([key], f"{key} does not go with {what}: no result was obtained", key=True,
                            suggestion="remove it, or remove artificial to assign a score")
    if m.possibilities is not None and m.artificial is None:
        raise doc.error(["possibilities"], "possibilities: numerous needs artificial (who was at fault)", key=True)
    session: dict[Side, Fraction] = {}
    for side in SIDES:
        value = getattr(m.session, side) if m.session is not None else None
        if value is None:
            continue
        where = ["session", side]
        if not isinstance(value, UnitScore) or value.side != "NS":
            raise doc.error(where, f"session score '{value.text}' is not a percentage or IMPs a board",
                            expected="e.g. 71.6% at matchpoints, +1.25 IMP at IMPs")
        if m.scoring == "matchpoints":
            if value.unit != "%":
                raise doc.error(where, f"session score '{value.text}' at matchpoints must be a percentage",
                                expected="e.g. 71.6%")
            if not 0 <= value.value <= 100:
                raise doc.error(where, f"session score {value.text} is outside 0% to 100%",
                                expected="a percentage from 0% to 100%")
            session[side] = value.value / 100
        else:
            if value.unit != "IMP":
                raise doc.error(where, f"session score '{value.text}' at IMPs must be IMPs a board",
                                expected="e.g. +1.25 IMP")
            session[side] = value.value
    _check_scoring(doc, m, {"NS": [], "EW": []}, None)
    return Checked(without=None, split=False, instead=None, session=session)


def _poll_components(doc: Document, poll: Poll) -> list[Component]:
    """Raw weights from a poll: votes / polled × chance, equal results merged."""
    votes = sum(c.votes for c in poll.choices)
    if votes != poll.polled:
        what = "exceed" if votes > poll.polled else "fall short of"
        raise doc.error(["poll", "polled"], f"the votes ({votes}) {what} the number polled ({poll.polled})",
                        expected="votes that add up to polled")
    merged: dict[tuple[str, bool], Component] = {}
    for i, choice in enumerate(poll.choices):
        here = ["poll", "choices", i]
        if (choice.result is None) == (choice.results is None):
            raise doc.error(here, f"choice '{choice.action}' needs exactly one of result and results",
                            expected="result: <result>, or results: [{result: …, chance: …}, …]")
        results = choice.results or [PollResult(result=choice.result, chance=Fraction(1))]
        total = sum((r.chance for r in results), Fraction(0))
        if total != 1:
            raise doc.error(here + ["results"], f"the chances of choice '{choice.action}' sum to "
                            f"{format_mixed(total)}, not 1", expected="chances that add up to exactly 1")
        for j, r in enumerate(results):
            if choice.votes == 0:
                continue
            weight = Fraction(choice.votes, poll.polled) * r.chance
            key = (r.result.text, choice.legal)
            path = tuple(here + (["results", j] if choice.results else ["result"]))
            previous = merged.get(key)
            merged[key] = Component(r.result, weight + (previous.weight if previous else 0), choice.legal,
                                    previous.path if previous else path)
    return list(merged.values())


def weighted_components(doc: Document, value: Any, path: list) -> list[Component]:
    """One outcome or a weighted list (as validated by the models) as components, each with its
    path in `doc`; an empty list, or weights not summing to 1, is an error at `path`."""
    if not isinstance(value, list):
        return [Component(value, Fraction(1), True, tuple(path))]
    if not value:
        raise doc.error(path, "a weighted list needs at least one outcome")
    judged = [item.judged is not None for item in value]
    for i, item in enumerate(value):
        if item.judged is not None and item.weight is not None:
            raise doc.error(path + [i, "judged"], "a result is weighted or judged (likely, at all probable), not both",
                            key=True, suggestion="remove weight: or judged:")
        if any(judged) and item.judged is None:
            raise doc.error(path + [i], f"'{item.result.text}' has no judgement: in a list judged likely / at all "
                            "probable every result is judged", expected="judged: likely or judged: at all probable")
        if not any(judged) and item.weight is None:
            raise doc.error(path + [i], "missing required key 'weight'",
                            expected="weight: 2/3, 60% or 0.6 (or judged: likely / at all probable for every result)")
    if any(judged):                            # no weights: the rule that applies selects by the words
        return [Component(item.result, Fraction(1) if len(value) == 1 else Fraction(0), item.legal,
                          tuple(path + [i]), item.judged) for i, item in enumerate(value)]
    comps = [Component(item.result, item.weight, item.legal, tuple(path + [i])) for i, item in enumerate(value)]
    total = sum((c.weight for c in comps), Fraction(0))
    if total != 1:
        raise doc.error(path, f"the weights sum to {format_mixed(total)}, not 1",
                        expected="weights that add up to exactly 1 (e.g. 2/3 and 1/3, or 60% and 40%)")
    return comps


def _check_scoring(doc: Document, m: CaseModel, without: dict, instead: list | None) -> None:
    places: list[tuple[list, Outcome]] = []
    if m.table_result is not None:
        places.append((["table_result"], m.table_result))
    for comps in ([*without["NS"], *without["EW"]], instead or []):
        places.extend((list(c.path), c.outcome) for c in comps)
    if m.scoring == "imps":
        if m.field is not None:
            raise doc.error(["field"], "field is for matchpoints; at IMPs give other_table", key=True,
                            suggestion="use other_table: <result at the other table>, or scoring: matchpoints")
        if m.results_on_board is not None:
            raise doc.error(["results_on_board"], "results_on_board is for matchpoints", key=True)
        if m.other_table is not None and isinstance(m.other_table, UnitScore):
            raise doc.error(["other_table"], "other_table must be the result at the other table, not a unit score",
                            expected=bridge.RESULT_HINT)
        for path, outcome in places:
            if isinstance(outcome, UnitScore) and outcome.unit != "IMP":
                raise doc.error(path, f"'{outcome.text}' is not in IMPs (scoring: imps)", expected="e.g. +9 IMP")
        if m.other_table is None:
            _one_unit(doc, places, "other_table is missing: at IMPs, '{result}' is scored against the result at the "
                      "other table to be compared with '{unit}'", "other_table: <result>, e.g. other_table: 3S+1 W")
    else:
        if m.other_table is not None:
            raise doc.error(["other_table"], "other_table is for IMPs; at matchpoints give field", key=True,
                            suggestion="use field: [<result>, ...], or scoring: imps")
        for i, outcome in enumerate(m.field or []):
            if isinstance(outcome, UnitScore):
                raise doc.error(["field", i], "the field lists results or scores, not unit scores",
                                expected=bridge.RESULT_HINT)
        has_top = m.field is not None or m.results_on_board is not None
        for path, outcome in places:
            if isinstance(outcome, UnitScore):
                if outcome.unit == "IMP":
                    raise doc.error(path, f"'{outcome.text}' is in IMPs, but scoring is matchpoints",
                                    expected="e.g. 23 MP or 65%")
                if outcome.unit == "MP" and not has_top:
                    raise doc.error(path, f"'{outcome.text}' is in matchpoints, but the top is unknown",
                                    expected="field: [...] or results_on_board: <n>", suggestion="or give it as a percentage")
                top = 100 if outcome.unit == "%" else 2 * (len(m.field) if m.field is not None else m.results_on_board - 1)
                if not 0 <= outcome.value <= top:
                    raise doc.error(path, f"'{outcome.text}' is outside 0 to the top ({format_mixed(top)}"
                                    f"{'%' if outcome.unit == '%' else ' MP'})", expected="a score from 0 to the top")
        if m.field is None:
            _one_unit(doc, places, "field is missing: at matchpoints, '{result}' is scored against the results at the "
                      "other tables to be compared with '{unit}'", "field: [<result>, ...], e.g. field: [4H= S, NS +420]")


def _one_unit(doc: Document, places: list[tuple[list, Outcome]], message: str, expected: str) -> None:
    """Without the other table or the field, a case's outcomes are all results (ruled in table points)
    or all scores in the event's unit; a result beside a unit score cannot be compared with it."""
    unit = next((o for _, o in places if isinstance(o, UnitScore)), None)
    result = next(((path, o) for path, o in places if not isinstance(o, UnitScore)), None)
    if unit is not None and result is not None:
        raise doc.error(result[0], message.format(result=result[1].text, unit=unit.text), expected=expected)
