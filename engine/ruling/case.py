"""Case files: the facts of one ruling as a tournament director writes them (YAML).

    title: WBF commentary on Law 12, example 7
    rulebook: wbf-2017
    scoring: imps
    board: {number: 7, vulnerability: NS}
    non_offending: NS
    table_result: 5HX-2 N
    other_table: 3S+1 W
    without_infraction: 4H-1 N
    serious_error: {kind: gambling, instead: 4S= W}
    expect: {outcome: split, nos: 0, os: -2}

The pydantic models check each value and the structure; :func:`load_case` then checks what
depends on several keys at once, each error pointing at the file, line and column concerned.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag,
                      WithJsonSchema)

from ..core import bridge
from ..core.errors import InvalidValue
from ..core.exact import NumberError, format_mixed, parse_exact
from ..core.limits import short
from ..core.vocab import SIDES, VULNERABILITY_WORDS, Direction, Event, Responsibility, Side, other
from ..core.yamlio import Document, load_yaml


# --- values -------------------------------------------------------------------------------

@dataclass(frozen=True)
class UnitScore:
    """A score already in the event's unit, as sources often give them: ``+9 IMP``, ``65%``,
    ``23 MP``; from NS's view unless written ``EW 35%``."""

    value: Fraction
    unit: Literal["IMP", "MP", "%"]
    side: Side = "NS"

    @property
    def text(self) -> str:
        number = format_mixed(self.value, signed=self.unit == "IMP")
        prefix = "" if self.side == "NS" else "EW "
        return f"{prefix}{number}%" if self.unit == "%" else f"{prefix}{number} {self.unit}"


Outcome = Union[bridge.PlayedResult, bridge.Score, UnitScore]
_UNIT = re.compile(r"^\s*(?:(?P<side>NS|EW)\s+)?(?P<number>[^A-Za-z%]+?)\s*(?P<unit>IMPS?|MPS?|%)\s*$", re.I)
UNIT_HINT = "a score in the event's unit: +9 IMP, -3 IMP, 23 MP or 65%"


def parse_outcome(value: Any) -> Outcome:
    """A result (``4SX-2 W``, ``PASS``), a raw score (``NS +620``) or a unit score (``+9 IMP``)."""
    if isinstance(value, (bridge.PlayedResult, bridge.Score, UnitScore)):
        return value
    if type(value) is str and len(value) <= 24:
        return _parse_short_outcome(value)
    return _parse_outcome(value)


@functools.lru_cache(maxsize=4096)
def _parse_short_outcome(text: str) -> Outcome:
    """Short result texts read before: the results of a case repeat across the requests a server
    rules (at most a few thousand distinct ones). Outcomes are frozen; errors are not remembered."""
    return _parse_outcome(text)


def _parse_outcome(value: Any) -> Outcome:
    if value is None:
        raise InvalidValue("a result is missing (the value is empty)", expected=bridge.RESULT_HINT)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InvalidValue(f"expected a result, got {short(value)}", expected=bridge.RESULT_HINT)
    if isinstance(value, str) and (m := _UNIT.match(value)):
        unit = m["unit"].upper().rstrip("S")
        try:
            number = parse_exact(m["number"])
        except NumberError as exc:
            raise InvalidValue(f"{short(value)}: {exc}", expected=UNIT_HINT) from None
        return UnitScore(number, "%" if unit == "%" else unit, (m["side"] or "NS").upper())
    try:
        return bridge.parse_result(value)
    except bridge.NotationError as exc:
        raise InvalidValue(f"{short(value)}: {exc.message}", expected=exc.hint) from None


def outcome_text(outcome: Outcome) -> str:
    return outcome.text


def _weight(value: Any) -> Fraction:
    try:
        weight = parse_exact(value, percent=True)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="a weight such as 2/3, 60% or 0.6") from None
    if weight < 0:
        raise InvalidValue(f"weight {format_mixed(weight)} is negative", expected="a weight between 0 and 1")
    if weight > 1:
        raise InvalidValue(f"weight {format_mixed(weight)} is more than 1", expected="a weight between 0 and 1")
    return weight


def _exact_value(value: Any) -> Fraction:
    try:
        return parse_exact(value, percent=True)
    except NumberError as exc:
        raise InvalidValue(str(exc), expected="an exact number such as 8 1/2, 17/2, -4 2/3 or 5") from None


_TEXT = WithJsonSchema({"type": "string"})
_NUM = WithJsonSchema({"type": ["string", "number"]})
OutcomeField = Annotated[Any, BeforeValidator(parse_outcome), _TEXT]
WeightField = Annotated[Fraction, BeforeValidator(_weight), _NUM]
ExactField = Annotated[Fraction, BeforeValidator(_exact_value), _NUM]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, populate_by_name=True, defer_build=True)


def _vulnerability(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    return VULNERABILITY_WORDS.get(" ".join(value.strip().lower().split()), value)


SCORING_WORDS = {"imps": "imps", "imp": "imps", "matchpoints": "matchpoints", "matchpoint": "matchpoints",
                 "match points": "matchpoints", "match-points": "matchpoints", "mps": "matchpoints",
                 "mp": "matchpoints"}


def _scoring(value: Any) -> Any:
    """``IMPs``, ``IMP``, ``Matchpoints``, ``MPs``, ``match points``: the case of a word does not matter."""
    if not isinstance(value, str):
        return value
    return SCORING_WORDS.get(" ".join(value.strip().lower().split()), value)


def _text_value(value: Any) -> Any:
    """A record field is text; a number or date written bare (``table: 7``) is read as its text."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, dt.date, dt.time)):
        return value.isoformat() if isinstance(value, (dt.date, dt.time)) else str(value)
    return value


Text = Annotated[str, BeforeValidator(_text_value), _TEXT]
ScoringField = Annotated[Literal["imps", "matchpoints"], BeforeValidator(_scoring)]


class Board(_Strict):
    number: int | None = Field(default=None, ge=1, strict=True)    # true is no board number
    vulnerability: Annotated[bridge.Vulnerability, BeforeValidator(_vulnerability)]


class WeightedOutcome(_Strict):
    result: OutcomeField
    weight: WeightField
    legal: bool = True


class SplitWeighting(_Strict):
    NS: list[WeightedOutcome] = Field(min_length=1)
    EW: list[WeightedOutcome] = Field(min_length=1)


def _shape(value: Any) -> str:
    if isinstance(value, list):
        return "<list>"
    if isinstance(value, dict):
        return "<split>"
    return "<one>"


Possibilities = Annotated[
    Union[
        Annotated[OutcomeField, Tag("<one>")],
        Annotated[list[WeightedOutcome], Tag("<list>")],
        Annotated[SplitWeighting, Tag("<split>")],
    ],
    Discriminator(_shape),
]
OneOrList = Annotated[
    Union[Annotated[OutcomeField, Tag("<one>")], Annotated[list[WeightedOutcome], Tag("<list>")]],
    Discriminator(lambda v: "<list>" if isinstance(v, list) else "<one>"),
]


class SeriousError(_Strict):
    kind: Literal["serious-error", "gambling"]
    instead: OneOrList
    note: str | None = None


class Artificial(_Strict):
    NS: Responsibility
    EW: Responsibility


class PerSide(_Strict):
    """A value for either or both sides, e.g. session: {NS: 71.6%, EW: 35%}."""
    NS: OutcomeField | None = None
    EW: OutcomeField | None = None


class BoardCount(_Strict):
    NS: int | None = Field(default=None, ge=1)
    EW: int | None = Field(default=None, ge=1)


class PollResult(_Strict):
    result: OutcomeField
    chance: WeightField


class PollChoice(_Strict):
    action: str
    votes: int = Field(ge=0)
    result: OutcomeField | None = None
    results: list[PollResult] | None = Field(default=None, min_length=1)
    legal: bool = True


class Poll(_Strict):
    polled: int = Field(ge=1)
    choices: list[PollChoice] = Field(min_length=1)
    benefit_of_doubt: ExactField | None = None     # the TD's factor (≥ 1), bounded by the rulebook's ceiling


class MatchImps(_Strict):
    NS: ExactField
    EW: ExactField


class Match(_Strict):
    """A team match scored in victory points: its length and the IMPs on its other boards."""
    boards: int = Field(ge=1)
    imps: MatchImps


class Penalty(_Strict):
    player: Direction
    amount: OutcomeField
    partner_blameless: bool


class RevokeFacts(_Strict):
    """One established revoke (Law 64): see engine/ruling/revoke.py and the rulebook's revoke stage."""
    trick: int = Field(ge=1, le=13)
    offender: Direction
    offender_won: bool                  # the offending player won the revoke trick (dummy's trick is not declarer's)
    side_won: bool                      # the offending side won the revoke trick
    later_tricks: int = Field(ge=0, le=12)   # tricks the offending side won after the revoke trick
    exception: str | None = Field(default=None, min_length=1, max_length=60)   # a word the rulebook lists
                                        # (words: exception:), checked when the case is ruled under it


class Infraction(_Strict):
    """The irregularity and the law that empowers the adjustment: ``infraction: {law: 16B1, by: W}``.

    ``law`` is looked up in the rulebook's ``infractions:`` (an unknown law is an error with a
    "did you mean"); a revoke case (law 64…) lists its established revokes, and ``table_result`` is
    then the result before the Law 64A trick transfer."""
    law: Annotated[str, BeforeValidator(lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else v),
                   Field(min_length=1)]          # 16B1, 21B3, "64", 23 …
    by: Direction | None = None
    note: str | None = None
    findings: dict[str, bool] | None = None      # the Director's findings the law makes a condition of adjusting
    revokes: list[RevokeFacts] | None = Field(default=None, min_length=1)


class Expect(_Strict):
    outcome: str | None = None
    nos: ExactField | None = None
    os: ExactField | None = None
    NS: ExactField | None = None
    EW: ExactField | None = None
    players: dict[Direction, ExactField] | None = None
    vp: dict[Side, ExactField] | None = None


EXPECT_KEYS = ("outcome", "nos", "os", "NS", "EW", "players", "vp")
ExpectField = Annotated[
    Union[Annotated[Expect, Tag("<flat>")], Annotated[dict[str, Expect], Tag("<by-rulebook>")]],
    Discriminator(lambda v: "<flat>" if not isinstance(v, dict) or any(k in v for k in EXPECT_KEYS)
                  else "<by-rulebook>"),
]


class Published(_Strict):
    nos: ExactField | None = None
    os: ExactField | None = None
    NS: ExactField | None = None
    EW: ExactField | None = None
    why: str


class Record(_Strict):
    """Who, where and when: what a TD writes at the top of a ruling form. All optional."""
    event: Text | None = None           # the event's name: "County Pairs Championship"
    session: Text | None = None         # "Saturday evening", "2 of 3"
    time: Text | None = None            # time of the ruling, "21:40"
    table: Text | None = None
    pairs: dict[Side, Text] | None = None                # pair numbers (and names): {NS: "3", EW: "12 Lee–Moss"}
    players: dict[Direction, Text] | None = None         # names by seat
    director: Text | None = None        # the TD who ruled
    facts: Text | None = None           # what happened, in the TD's words


AppealDecision = Literal["upheld", "changed", "withdrawn", "pending"]


class Appeal(_Strict):
    """An appeal against the ruling (Law 92): who lodged it and when, the committee, its decision."""
    lodged: Text | None = None          # when: "22:05"
    by: Side | None = None
    committee: Text | None = None
    decision: AppealDecision
    reasons: Text | None = None
    changed_to: Text | None = None      # the ruling as the committee changed it
    deposit: Literal["returned", "forfeited"] | None = None


class CaseModel(_Strict):
    title: str
    source: str | None = None
    rulebook: Text | None = None
    date: dt.date | None = None
    scoring: ScoringField
    event: Event | None = None
    board: Board
    non_offending: Side | Literal["both"] | None = None   # both: each side ruled from its own view (Law 82C)
    players: dict[Direction, str] | None = None
    table_result: OutcomeField | None = None
    other_table: OutcomeField | None = None
    field: list[OutcomeField] | None = Field(default=None, min_length=1)
    results_on_board: int | None = None
    without_infraction: Possibilities | None = None
    poll: Poll | None = None
    serious_error: SeriousError | None = None
    artificial: Artificial | None = None
    possibilities: Literal["numerous"] | None = None
    not_scheduled: Literal["bye", "sit-out"] | None = None
    session: PerSide | None = None
    artificial_boards_this_session: BoardCount | None = None
    penalty: Penalty | None = None
    match: Match | None = None
    infraction: Infraction | None = None
    expect: ExpectField | None = None
    published: Published | None = None
    notes: str | None = None
    record: Record | None = None
    appeal: Appeal | None = None


# --- the checked case ------------------------------------------------------------------------

@dataclass(frozen=True)
class Component:
    outcome: Outcome
    weight: Fraction
    legal: bool = True
    path: tuple = ()


@dataclass
class Case:
    """A validated case: the model plus normalised lists of weighted components."""

    model: CaseModel
    doc: Document
    without: dict[Side, list[Component]] | None  # B's possibilities per side (equal unless split); raw poll weights
    split: bool
    instead: list[Component] | None          # C's possibilities (serious error), None otherwise
    session: dict[Side, Fraction]            # 12C2(c): share of the top at pairs, IMPs a board at teams
    # what every ruling of this case scores against, worked out once (ruling.scorer.basis)
    scoring_basis: Any = field(default=None, repr=False, compare=False)

    @property
    def file(self) -> str:
        return self.doc.file

    @property
    def event(self) -> str:
        return self.model.event or ("teams" if self.model.scoring == "imps" else "pairs")

    @property
    def both_non_offending(self) -> bool:
        """Law 82C: both sides treated as non-offending, each side's score from its own view."""
        return self.model.non_offending == "both"

    @property
    def nos(self) -> Side | None:
        """The non-offending side: as given, or the one side found in no way at fault (NS when both are)."""
        if self.both_non_offending:
            return "NS"
        if self.model.non_offending or self.model.artificial is None:
            return self.model.non_offending
        clean = [s for s in SIDES if getattr(self.model.artificial, s) == "in-no-way-at-fault"]
        return clean[0] if len(clean) == 1 else None

    @property
    def os(self) -> Side | None:
        return other(self.nos) if self.nos else None

    def expectation_for(self, book_id: str) -> Expect | None:
        """The expected ruling under rulebook `book_id`: a flat expect: is for the case's own rulebook."""
        expect = self.model.expect
        if isinstance(expect, dict):
            return expect.get(book_id)
        return expect if book_id == self.model.rulebook else None

    def in_scope(self, book: Any) -> bool:
        """Whether `book` covers this case: its dates (when the case has one) and its declared scope."""
        day = self.model.date
        if day is not None and (day < book.effective_from or (book.effective_until and day > book.effective_until)):
            return False
        scope = book.scope or {}
        return all(getattr(self.model, key, None) in values or
                   (key == "event" and self.event in values) for key, values in scope.items())


TRAVELLER_KEYS = ("tables", "pbn", "expected_results", "pair_numbers")


def load_case(path: str | Path, *, text: str | None = None) -> Case:
    doc = load_yaml(path, text=text)
    tree = doc.tree if isinstance(doc.tree, dict) else {}
    if "non_offending" not in tree and (key := next((k for k in TRAVELLER_KEYS if k in tree), None)):
        raise doc.error([key], f"this is a traveller (it has {key}:), not a case file", key=True,
                        suggestion=f"score it with `bridgelaw score {doc.file}`")
    if "top" in tree:
        raise doc.error(["top"], "unknown key 'top': the top is not given, it comes from the field "
                        "(2 × the number of other results at matchpoints)", key=True,
                        expected="field: [<result>, ...] or results_on_board: <n>")
    return check_case(doc, doc.validate(CaseModel))


ASSIGNED_ONLY = ("table_result", "other_table", "without_infraction", "poll", "serious_error")


def check_case(doc: Document, m: CaseModel) -> Case:
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
        amount, unit = m.penalty.amount, "IMP" if m.scoring == "imps" else None
        if not isinstance(amount, UnitScore) or amount.side != "NS" or amount.value < 0 or \
                (unit and amount.unit != unit) or (not unit and amount.unit == "IMP"):
            raise doc.error(["penalty", "amount"], f"penalty amount '{amount.text}' is not a positive amount "
                            "in the event's unit", expected="e.g. 3 IMP at IMPs, 10% (of a top) or 2 MP at matchpoints")
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
        without = {s: _components(doc, getattr(w, s), ["without_infraction", s]) for s in SIDES}
        split = True
    else:
        comps = _components(doc, w, ["without_infraction"])
        without, split = {"NS": comps, "EW": comps}, False
    instead = None
    if m.serious_error is not None:
        if m.table_result is None:
            raise doc.error(["serious_error"], "serious_error needs the table_result it affected", key=True,
                            expected="table_result: <the result obtained at the table>")
        instead = _components(doc, m.serious_error.instead, ["serious_error", "instead"])
        for c in instead:
            if not c.legal:
                raise doc.error(list(c.path), "legal: false belongs to without_infraction, not to instead",
                                expected="what the non-offending side would have scored without its error")
    _check_scoring(doc, m, without, instead)
    return Case(model=m, doc=doc, without=without, split=split, instead=instead, session={})


def _check_artificial(doc: Document, m: CaseModel) -> Case:
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
    return Case(model=m, doc=doc, without=None, split=False, instead=None, session=session)


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


def _components(doc: Document, value: Any, path: list) -> list[Component]:
    """One outcome or a weighted list (as validated by the models) as components, each with its
    path in `doc`; an empty list, or weights not summing to 1, is an error at `path`."""
    if not isinstance(value, list):
        return [Component(value, Fraction(1), True, tuple(path))]
    if not value:
        raise doc.error(path, "a weighted list needs at least one outcome")
    comps = [Component(item.result, item.weight, item.legal, tuple(path + [i])) for i, item in enumerate(value)]
    total = sum((c.weight for c in comps), Fraction(0))
    if total != 1:
        raise doc.error(path, f"the weights sum to {format_mixed(total)}, not 1",
                        expected="weights that add up to exactly 1 (e.g. 2/3 and 1/3, or 60% and 40%)")
    return comps


weighted_components = _components


def assigned_case(doc: Document, *, title: str, scoring: Literal["imps", "matchpoints"], board: Board,
                  non_offending: Side, without: dict[Side, list[Component]], split: bool,
                  field: list[Outcome] | None = None, other_table: Outcome | None = None,
                  date: dt.date | None = None) -> Case:
    """A case for an assigned adjusted score whose possible outcomes are already checked
    components (a traveller's adjusted table), to be ruled by ``ruling.rule_case``."""
    m = CaseModel.model_construct(title=title, scoring=scoring, board=board, non_offending=non_offending,
                                  field=field, other_table=other_table, date=date)
    return Case(model=m, doc=doc, without=without, split=split, instead=None, session={})


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
            if not isinstance(outcome, UnitScore) and m.other_table is None:
                raise doc.error(path, f"other_table is missing: at IMPs, '{outcome.text}' is scored against the result "
                                "at the other table", expected="other_table: <result>, e.g. other_table: 3S+1 W")
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
            elif m.field is None:
                raise doc.error(path, f"field is missing: at matchpoints, '{outcome.text}' is scored against the "
                                "results at the other tables", expected="field: [<result>, ...], e.g. field: [4H= S, NS +420]")

