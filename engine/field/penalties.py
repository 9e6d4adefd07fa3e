"""Procedural penalties in a field: read as a TD gives them (a rulings file, a traveller, an
Adjustment cell read back), ruled by the case path's penalty stage, and taken from the scores the
field computes.

A penalty is given per side — ``penalty: {EW: 10%}`` — or, at an individual event, on one player —
``penalty: {player: N, amount: 25%, partner_blameless: true}``. Its amount is in the units the
Regulating Authority uses: a share of a top (``10%``, ``1/10``) or matchpoints (``2 MP``) at pairs, IMPs
(``3``, ``3 IMP``) at IMP scoring, victory points against a teams match (``1 VP``). Each becomes the
facts of a case's ``penalty:`` (:class:`bridgelaw.ruling.caseschema.Penalty`) and is ruled by
:func:`penalty_ruling` — the case path's penalty stage, in table points — so the line keeps a
:class:`~bridgelaw.ruling.result.Ruling` whose ``penalties`` say who bears what, against the board or
the match, and (a share of a top at pairs) whether it is taken before or after factoring
(``penalty.matchpoints.order``). The field applies exactly those: :func:`amount` is a penalty's value on
a board, :func:`apply_sides` takes side penalties from the board's scores, :func:`player_amounts` says
what each player of an individual bears; a match's victory points lose theirs in :mod:`.teams`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Callable, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict

from ..core import bridge
from ..core.errors import BridgelawError, InvalidValue
from ..core.exact import NumberError, format_mixed, parse_exact
from ..core.vocab import PARTNER, SIDES, Side, unit_scoring
from ..rulebook import Rule, Rulebook
from ..ruling import provisions
from ..ruling.case import Case
from ..ruling.caseschema import Board as CaseBoard, CaseModel, Penalty as PenaltyFacts
from ..ruling.draft import Draft
from ..ruling.outcomes import UnitScore
from ..ruling.result import Penalty, Ruling, SideScore
from ..ruling.scorer import Basis
from ..ruling.trace import Trace
from .cells import Where

__all__ = ["PenaltyModel", "Borne", "given", "from_cell", "penalty_ruling", "borne", "amount",
           "apply_sides", "player_amounts", "IMP_BOUND"]

IMP_BOUND = len(bridge.IMP_SCALE)   # the IMP scale's largest step: no board's penalty is more (a case's too)
_AMOUNT = re.compile(r"^\s*(?P<number>[^A-Za-z%]+?)\s*(?P<unit>%|IMPS?|MPS?|VPS?)?\s*$", re.I)
AMOUNT_HINT = ("a share of a top such as 25% or 1/4, or 2 MP (pairs); IMPs such as 3 (IMP scoring); "
               "1 VP against a teams match scored in VPs")


def _amount(value: Any) -> tuple[Fraction, str | None]:
    """A penalty's amount as written: its number and its unit (%, MP, IMP, VP, or None: the event's)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidValue(f"expected a penalty, got {value!r}", expected=AMOUNT_HINT)
    text = str(value).strip()
    m = _AMOUNT.match(text)
    if m is None:
        raise InvalidValue(f"'{text[:30]}' is not a penalty", expected=AMOUNT_HINT)
    try:
        number = parse_exact(m["number"])
    except NumberError as exc:
        raise InvalidValue(str(exc), expected=AMOUNT_HINT) from None
    unit = m["unit"].upper().rstrip("S") if m["unit"] else None
    return number, "%" if unit == "%" else unit


Amount = Annotated[Any, BeforeValidator(_amount)]


class PenaltyModel(BaseModel):
    """``penalty:`` in a rulings file or a traveller's table: per side, or on one player."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, defer_build=True)
    NS: Amount | None = None
    EW: Amount | None = None
    # an individual event: the offending player's seat, the amount, and whether the partner is in no
    # way to blame; the rulebook's penalty stage decides who bears it
    player: Literal["N", "E", "S", "W"] | None = None
    amount: Amount | None = None
    partner_blameless: bool | None = None


@dataclass
class Borne:
    """A penalty a line's ruling gives (its rule, for the paragraph it cites) and, once applied, its
    value in the board's unit (a share of a top as matchpoints) or, against a match, in VPs."""

    penalty: Penalty
    rule: Rule | None
    taken: Fraction | None = None


Fail = Callable[[list, str, str], BridgelawError]       # (path under penalty:, message, expected) → the error


def _unit_score(number: Fraction, unit: str | None, *, method: str, vps: bool, fail: Fail,
                path: list, label: str) -> UnitScore:
    """A written amount in the units of the case path (10%, 2 MP, 3 IMP, 1 VP), checked against the
    event: what its scoring can take from a board, within what a board can be."""
    scoring = unit_scoring(method)
    if unit is None:
        unit = "%" if scoring == "matchpoints" else "IMP"
        if unit == "%":
            if number > 1:
                raise fail(path, f"a penalty of {format_mixed(number)} at matchpoints", "a share of a top: 25% or 1/4")
            number *= 100
    if unit in ("%", "MP") and scoring != "matchpoints":
        raise fail(path, f"a penalty of {format_mixed(number)}{'%' if unit == '%' else ' MP'} at IMP scoring",
                   "IMPs such as 3 (or 1 VP against a teams match scored in VPs)")
    if unit == "IMP" and scoring != "imps":
        raise fail(path, f"a penalty of {format_mixed(number)} IMP at matchpoints", "a share of a top: 25% or 1/4")
    if unit == "VP" and not vps:
        raise fail(path, f"a penalty of {format_mixed(number)} VP: victory points are against a teams match "
                   "scored in VPs", "a share of a top (pairs) or IMPs (IMP scoring)")
    if number <= 0 or (unit == "%" and number > 100) or (unit == "IMP" and number > IMP_BOUND):
        shown = f"{format_mixed(number)}% of a top" if unit == "%" else f"{format_mixed(number)} {unit}"
        bound = {"%": "a share of a top from 0% to 100%", "IMP": f"IMPs from 0 to {IMP_BOUND}"}.get(unit, f"more than 0 {unit}")
        raise _Bound(f"{label}: a procedural penalty of {shown}", bound)
    return UnitScore(number, unit)


class _Bound(Exception):
    """An amount outside what a board can be: reported at the ruling (its line)."""

    def __init__(self, message: str, expected: str) -> None:
        super().__init__(message)
        self.message, self.expected = message, expected


def given(m: PenaltyModel, *, line: Any, method: str, vps: bool, fail: Fail, bound: Callable[[str, str], BridgelawError],
          where: Where) -> list[tuple[PenaltyFacts, Where]]:
    """The case facts of a TD's ``penalty:`` on `line` (errors by `fail` at a path under ``penalty:``,
    an amount out of bounds by `bound`)."""
    try:
        if m.player is not None:
            if line.players is None:
                raise fail(["player"], f"a penalty on one player needs an individual event (the lines of "
                           f"{line.label} are pairs)", "penalty: {NS: 25%} or {EW: 25%}")
            if m.NS is not None or m.EW is not None:
                raise fail(["NS" if m.NS is not None else "EW"], "a penalty names a player or a side, not both",
                           "penalty: {player: N, amount: 25%, partner_blameless: true}")
            for name in ("amount", "partner_blameless"):
                if getattr(m, name) is None:
                    raise fail([], f"the penalty on player {m.player} has no {name}",
                               "penalty: {player: N, amount: 25%, partner_blameless: true}")
            amount = _unit_score(*m.amount, method=method, vps=vps, fail=fail, path=["amount"], label=line.label)
            return [(PenaltyFacts.model_construct(player=m.player, side=None, amount=amount,
                                                  partner_blameless=m.partner_blameless), where)]
        if m.amount is not None or m.partner_blameless is not None:
            raise fail([], "amount and partner_blameless go with player:",
                       "penalty: {player: N, amount: 25%, partner_blameless: true} (an individual event), "
                       "or penalty: {NS: 25%} / {EW: 25%}")
        if line.players is not None and (m.NS is not None or m.EW is not None):
            raise fail(["NS" if m.NS is not None else "EW"], "at an individual event a penalty is on a player "
                       "(the rulebook's penalty stage says whether the partner bears it)",
                       "penalty: {player: N, amount: 25%, partner_blameless: true}")
        out = []
        for side in SIDES:
            v = getattr(m, side)
            if v is not None:
                amount = _unit_score(*v, method=method, vps=vps, fail=fail, path=[side], label=line.label)
                out.append((PenaltyFacts.model_construct(side=side, player=None, amount=amount,
                                                         partner_blameless=None), where))
        return out
    except _Bound as b:
        raise bound(b.message, b.expected) from None


# --- the Adjustment cell ----------------------------------------------------------------------------------

_CELL = re.compile(r"^(NS|EW)=([+-]?[0-9]{1,9}(?:/[0-9]{1,9})?)(MP|VP)?$")


def from_cell(line: Any, word: str, text: str, where: Where, method: str) -> None:
    """A penalty clause of an Adjustment cell as the line's penalties: ``pen EW=1/10`` (a share of a top
    at matchpoints, IMPs at IMP scoring), ``pen EW=2MP``, ``pen EW=1VP``; ``ppen 3a=1/4 4b=1/4`` (what
    each player of an individual bore: the penalty is on the first of a side's, the partner blameless
    unless both bore it)."""
    def fail(path: list, message: str, expected: str) -> BridgelawError:
        return where.error(f"Adjustment '{word} {text[:40]}': {message}", expected=expected)

    if word == "ppen":
        return _borne_by_players(line, text.split(), where, method, fail)
    for item in text.split():
        m = _CELL.match(item)
        if m is None:
            raise fail([], f"'{item[:30]}' is not SIDE=value", "pen EW=1/4, pen EW=3 (IMPs), pen EW=2MP, pen EW=1VP")
        amount = _cell_amount(parse_exact(m[2]), m[3], method, where, fail, line.label)
        line.penalties = [*line.penalties, (PenaltyFacts.model_construct(side=m[1], player=None, amount=amount,
                                                                         partner_blameless=None), where)]


def _cell_amount(number: Fraction, unit: str | None, method: str, where: Where, fail: Fail, label: str) -> UnitScore:
    try:
        return _unit_score(number, unit, method=method, vps=True, fail=fail, path=[], label=label)
    except _Bound as b:
        raise where.error(b.message, expected=b.expected) from None


def _borne_by_players(line: Any, items: list[str], where: Where, method: str, fail: Fail) -> None:
    if line.players is None:
        raise where.error("Adjustment 'ppen' names players, but the line is not an individual's",
                          expected="PlayerId_North … columns")
    seats = {pid: seat for seat, pid in line.players.items()}
    bore: dict[Side, list[tuple[str, Fraction]]] = {}
    for item in items:
        pid, _, value = item.partition("=")
        if pid not in seats:
            raise where.error(f"Adjustment 'ppen': player {pid[:24]} does not play on this line",
                              expected="one of " + ", ".join(line.players.values()))
        try:
            number = parse_exact(value)
        except NumberError as exc:
            raise fail([], str(exc), "an exact number such as 1/4") from None
        seat = seats[pid]
        bore.setdefault("NS" if seat in "NS" else "EW", []).append((seat, number))
    for side, who in bore.items():
        if len({n for _, n in who}) > 1:
            raise fail([], "the two players of a side bear different penalties", "one penalty a side")
        seat = min(s for s, _ in who) if len(who) > 1 else who[0][0]
        amount = _cell_amount(who[0][1], None, method, where, fail, line.label)
        line.penalties = [*line.penalties, (PenaltyFacts.model_construct(side=None, player=seat, amount=amount,
                                                                         partner_blameless=len(who) == 1), where)]


# --- ruling -------------------------------------------------------------------------------------------

class _At:
    """A case's document for a penalty the field rules: an error anywhere in it is at the penalty."""

    def __init__(self, where: Any) -> None:
        self.where, self.file = where, where.file

    def error(self, path: list, message: str, **kw: Any) -> BridgelawError:
        kw.pop("key", None)
        return self.where.error(message, **kw)


def penalty_ruling(book: Rulebook, *, method: str, event: str, facts: PenaltyFacts, board: Any, title: str,
                   where: Any) -> Ruling:
    """The ruling on one procedural penalty of a line, by the case path's penalty stage: a case with
    that ``penalty:`` and no board score yet (table points: the field applies it once the board is
    scored). Its ``penalties`` say who bears it and how; its trace holds the decision and what it read."""
    scoring = unit_scoring(method)
    m = CaseModel.model_construct(title=title, scoring=scoring, event=event, penalty=facts,
                                  board=CaseBoard.model_construct(number=board.number,
                                                                  vulnerability=board.vulnerability or "None"))
    case = Case(model=m, doc=_At(where), without=None, split=False, instead=None, session={})
    case.scoring_basis = Basis("points", None, None, None)
    d = Draft(case, book)
    scores = {s: SideScore(s, None, "", None, "") for s in SIDES}
    penalties = provisions.penalty(d, scores, note=False)
    return Ruling(title=title, source=None, outcome="procedural-penalty", unit="points", top=None, scores=scores,
                  quantities=d.quantities, trace=d.trace, rulebook=d.book, event=event, warnings=d.warnings,
                  penalties=penalties, case=case)


def borne(ruling: Ruling) -> list[Borne]:
    """The ruling's penalties, each with the rule that decided it."""
    rules = {r.id: r for r in ruling.rules}
    return [Borne(p, rules.get(p.rule)) for p in ruling.penalties]


# --- applying ----------------------------------------------------------------------------------------

def amount(p: Penalty, top: Fraction | None) -> Fraction:
    """A penalty against a board in the board's unit: a share of the top as matchpoints (or a point-a-board's
    board points), matchpoints or IMPs as given."""
    if p.amount.unit == "%":
        return p.amount.value * (top or 0) / 100
    return p.amount.value


def apply_sides(sl: Any, sb: Any, trace: Trace, unit: str) -> None:
    """Take each side penalty of a scored line from that side's score on the board — a share of a top
    at matchpoints from the factored score, or before factoring (as the ruling's ``order`` says: the
    board's unfactored matchpoints less the share of its unfactored top, then factored again)."""
    for b in sl.penalties:
        p = b.penalty
        if p.against != "board" or p.to != "side":
            continue
        s = sl.side(p.side)
        if s.value is None:
            continue
        before = s.value
        raw = sl.unfactored.get(p.side)
        if p.order == "before-factoring" and sb.factored and raw is not None:
            raw_top = bridge.top(sb.results)
            taken_raw = amount(p, raw_top)
            after = sb.factor(raw - taken_raw)
            trace.add("penalty", side=p.side, amount=p.amount, taken=before - after, before=before, after=after,
                      unit=unit, top=raw_top, order=p.order, factored=True, unfactored=raw,
                      unfactored_taken=taken_raw, rule=b.rule)
        else:
            taken = amount(p, sb.top)
            after = before - taken
            trace.add("penalty", side=p.side, amount=p.amount, taken=taken, before=before, after=after, unit=unit,
                      top=sb.top if p.amount.unit == "%" else None, order=p.order, factored=sb.factored,
                      rule=b.rule)
        b.taken = before - after
        s.value = after
        if unit == "MP" and sb.top:
            s.percent = bridge.percent(s.value, sb.top)


def player_amounts(sl: Any, top: Fraction | None, scale: Fraction = Fraction(1)) -> list[tuple[str, Borne, Fraction]]:
    """What each player of an individual's line bears: (player id, the penalty, its value on the board),
    the offender and, when the ruling says so, the partner. `scale`: matchpoints given in the file's unit."""
    out = []
    for b in sl.penalties:
        p = b.penalty
        if p.to not in ("offender", "offender-and-partner") or sl.line.players is None:
            continue
        seats = [p.on] + ([PARTNER[p.on]] if p.to == "offender-and-partner" else [])
        value = amount(p, top) * (1 if p.amount.unit == "%" else scale)
        b.taken = value
        out.extend((sl.line.players[seat], b, value) for seat in seats)
    return out
