"""From a checked case and a rulebook to a ruling.

    case ──kind──▶ assigned: A, B, C (exact) ──damage──▶ each side's score
               └─▶ artificial: each side's responsibility ──artificial──▶ each side's score
         ──event──▶ 12C4 knockout averaging, 12C3 individual events ──penalty──▶ players
         ──▶ Ruling: scores, outcome, the trace, cited paragraphs, rulebook identity

Python does the bridge arithmetic and follows what the rules that applied say; which rule
applies, what it awards and what it cites come from the rulebook (see engine/rulebook/stages.py).
Every stage records what it saw and did in the ruling's trace (engine/ruling/trace.py); the
explanation is rendered from the trace when it is shown (engine/render/ruling.py), never here.
The stages are functions of a :class:`~.draft.Draft` (a ruling in the making), one module a
stage group: :mod:`.empowering`, :mod:`.expectation`, :mod:`.damage`, :mod:`.provisions`.
"""

from __future__ import annotations

import datetime as dt

from ..core.dates import today
from ..core.errors import BridgelawError
from ..core.vocab import SIDES
from ..rulebook import Rulebook, siblings
from .case import Case
from .damage import assigned_adjusted, result_stands
from .draft import Draft
from .empowering import empowerment
from .provisions import artificial_adjusted, event, penalty, players, victory_points
from .result import Ruling, SideScore


def build(d: Draft) -> Ruling:
    m, book = d.m, d.book
    asked = d.asked or m.date or today()
    d.add("rulebook", book=book, dated=book.dated_in_use(), asked=d.asked, given=m.date is not None,
          day=asked, clamped=asked > book.as_of)
    d.add("basis", scorer=d.scorer)
    d.empowered = empowerment(d)
    if d.not_empowered is not None and m.artificial is None and m.not_scheduled is None:
        if m.table_result is None and d.not_empowered[0].declined:
            # no result was obtained at this table and the law's choice was declined: no result can stand, the
            # score is artificial by responsibility (the law's declined: paragraphs)
            d.declined = d.not_empowered[0]
        else:
            # a finding defeats the empowering law: the ruling ends here, the table result stands
            outcome, scores = result_stands(d)
            return ruling(d, outcome, scores)
    facts = {"artificial": m.artificial is not None or bool(d.empowered and d.empowered.artificial) or d.declined is not None,
             "possibilities_numerous": m.possibilities == "numerous",
             "not_scheduled": m.not_scheduled is not None, "scoring": m.scoring}
    kind_rule = d.trace.decide("kind", facts, not_scheduled=m.not_scheduled)
    kind = kind_rule.apply["kind"]
    if kind == "assigned":
        outcome, scores = assigned_adjusted(d)
    elif kind == "artificial":
        outcome, scores = artificial_adjusted(d)
    else:
        outcome = "not-scored"
        scores = {s: SideScore(s, None, "not scored", None, "not-scored") for s in SIDES}
    if kind != "assigned":
        d.assigned.clear()
    event(d, scores)
    return ruling(d, outcome, scores)


def ruling(d: Draft, outcome: str, scores: dict) -> Ruling:
    m = d.m
    penalties = penalty(d, scores)
    by_player = players(d, scores, penalties) if d.case.event == "individual" else None
    vp = None
    if m.match is not None and d.scorer.unit == "points":      # the board's IMPs are not known yet
        d.warnings.append("the match's victory points need the board's IMPs: give other_table to convert the match")
    elif m.match is not None:
        vp = victory_points(d, scores, penalties)
    return Ruling(
        title=m.title, source=d.case.source, outcome=outcome, unit=d.scorer.unit,
        top=d.scorer.top if d.scorer.unit in ("MP", "%") else None,
        scores=scores, quantities=d.quantities, trace=d.trace, rulebook=d.book, event=d.case.event,
        players=by_player, vp=vp, warnings=d.warnings, pending=d.assigned, rounded=d.rounded,
        formed={side: d.formed[side] for side in SIDES if side in d.formed} or None, penalties=penalties, case=d.case,
        empowering=[ref for i, ref in enumerate(d.empowering) if ref not in d.empowering[:i]],
    )


def rule_case(case: Case, book: Rulebook, as_of: dt.date | None = None) -> Ruling:
    """The ruling on `case` under `book` as in force on `as_of` (default: the case's date, else today).

    A date given (`as_of`, or the case's date) outside the rulebook's period is an error: a ruling is
    not given under rules not in force that day. Without a date, a rulebook that has ended is read
    as it stood on its last day, and the ruling says so."""
    day = as_of or case.model.date
    if day is not None and not book.covers(day):
        where = "earlier" if day < book.effective_from else "later"
        message = (f"rulebook {book.id} is in force {book.period}; {day.isoformat()} is {where}"
                   + ("" if as_of else " (the case's date)"))
        expected = f"a date {book.period}, or a rulebook in force on {day.isoformat()}"
        others = in_force_on(day, book)
        suggestion = f"in force on {day.isoformat()}: {', '.join(others)}" if others else None
        if as_of is None:
            raise case.doc.error(["date"], message, expected=expected, suggestion=suggestion)
        raise BridgelawError(f"--as-of {day.isoformat()}: {message}", expected=expected, suggestion=suggestion)
    d = Draft(case, book.at(day))
    d.asked = as_of
    return build(d)


def in_force_on(day: dt.date, book: Rulebook) -> list[str]:
    """The rulebooks beside `book` whose period covers `day` (for the error's suggestion)."""
    return [b.id for b in siblings(book) if b.covers(day)]
