"""The case file's schema (pydantic): each key, its values and the structure, as a tournament
director writes them (see docs/cases.md). What depends on several keys at once is checked in
:mod:`.casechecks`; the checked case is :class:`.case.Case`.

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
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BeforeValidator, Discriminator, Field, Tag

from ..core import bridge
from ..core.vocab import Direction, Event, Responsibility
from .outcomes import (DayField, ExactField, JudgedField, OutcomeField, ScoringField, SideField, SideOrBoth, SideOrSeat, StrictModel, Text,
                       WeightField, vulnerability_word)

class Board(StrictModel):
    number: int | None = Field(default=None, ge=1, strict=True)    # true is no board number
    vulnerability: Annotated[bridge.Vulnerability, BeforeValidator(vulnerability_word)]


class WeightedOutcome(StrictModel):
    """One possible result: with its weight (12C1(c)), or judged ``likely`` / ``at all probable``
    (1997 12C2; 2007 12C1(e) where a Regulating Authority elects it) — every item of a list one way."""
    result: OutcomeField
    weight: WeightField | None = None
    legal: bool = True
    judged: JudgedField | None = None


class SplitWeighting(StrictModel):
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


class SeriousError(StrictModel):
    kind: Literal["serious-error", "gambling"]
    instead: OneOrList
    note: str | None = None


class Artificial(StrictModel):
    NS: Responsibility
    EW: Responsibility


class PerSide(StrictModel):
    """A value for either or both sides, e.g. session: {NS: 71.6%, EW: 35%}."""
    NS: OutcomeField | None = None
    EW: OutcomeField | None = None


class BoardCount(StrictModel):
    NS: int | None = Field(default=None, ge=1)
    EW: int | None = Field(default=None, ge=1)


class PollResult(StrictModel):
    result: OutcomeField
    chance: WeightField


class PollChoice(StrictModel):
    action: str
    votes: int = Field(ge=0)
    result: OutcomeField | None = None
    results: list[PollResult] | None = Field(default=None, min_length=1)
    legal: bool = True


class Poll(StrictModel):
    polled: int = Field(ge=1)
    choices: list[PollChoice] = Field(min_length=1)
    benefit_of_doubt: ExactField | None = None     # the TD's factor (≥ 1), bounded by the rulebook's ceiling


class MatchImps(StrictModel):
    NS: ExactField
    EW: ExactField


class Match(StrictModel):
    """A team match scored in victory points: its length and the IMPs on its other boards."""
    boards: int = Field(ge=1)
    imps: MatchImps


class Penalty(StrictModel):
    """A procedural penalty (Law 90): on a player (an individual event: 12C3 decides whether the partner
    bears it) or on a side — a pair or a team — in the units the Regulating Authority uses: a fraction of a
    top (``10%``) or matchpoints at pairs, IMPs at teams, or VPs against a team match."""
    player: Direction | None = None
    side: SideField | None = None
    amount: OutcomeField
    partner_blameless: bool | None = None


class RevokeFacts(StrictModel):
    """One established revoke (Law 64): see engine/ruling/revoke.py and the rulebook's revoke stage."""
    trick: int = Field(ge=1, le=13)
    offender: Direction
    offender_won: bool                  # the offending player won the revoke trick (dummy's trick is not declarer's)
    side_won: bool                      # the offending side won the revoke trick
    later_tricks: int = Field(ge=0, le=12)   # tricks the offending side won after the revoke trick
    exception: str | None = Field(default=None, min_length=1, max_length=60)   # a word the rulebook lists
                                        # (words: exception:), checked when the case is ruled under it
    legal_card_won: bool | None = None  # the offender won a later trick with a card he could legally have played
                                        # to the revoke trick (asked for by an edition whose rule needs it)


class Infraction(StrictModel):
    """The irregularity and the law that empowers the adjustment: ``infraction: {law: 16B1, by: W}``.

    ``law`` is looked up in the rulebook's ``infractions:`` (an unknown law is an error with a
    "did you mean"); a revoke case (law 64…) lists its established revokes, and ``table_result`` is
    then the result before the Law 64A trick transfer."""
    law: Annotated[str, BeforeValidator(lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else v),
                   Field(min_length=1)]          # 16B1, 21B3, "64", 23 …
    by: SideOrSeat | None = None         # a seat (W) or a side (EW, E-W)
    note: str | None = None
    findings: dict[str, bool] | None = None      # the Director's findings the law makes a condition of adjusting
    revokes: list[RevokeFacts] | None = Field(default=None, min_length=1)


class Expect(StrictModel):
    outcome: str | None = None
    nos: ExactField | None = None
    os: ExactField | None = None
    NS: ExactField | None = None
    EW: ExactField | None = None
    players: dict[Direction, ExactField] | None = None
    vp: dict[SideField, ExactField] | None = None
    # the results (and weights) each side is assigned, as a published ruling states them: one result for
    # both sides, a weighted list, or {NS: …, EW: …}; compared with Ruling.assigned
    assigned: Possibilities | None = None
    penalties: dict[str, OutcomeField] | None = None    # on whom (NS, EW, or a seat) → amount: {EW: 10%}


EXPECT_KEYS = ("outcome", "nos", "os", "NS", "EW", "players", "vp", "assigned", "penalties")
ExpectField = Annotated[
    Union[Annotated[Expect, Tag("<flat>")], Annotated[dict[str, Expect], Tag("<by-rulebook>")]],
    Discriminator(lambda v: "<flat>" if not isinstance(v, dict) or any(k in v for k in EXPECT_KEYS)
                  else "<by-rulebook>"),
]


class Published(StrictModel):
    nos: ExactField | None = None
    os: ExactField | None = None
    NS: ExactField | None = None
    EW: ExactField | None = None
    why: str


class Record(StrictModel):
    """Who, where and when: what a TD writes at the top of a ruling form. All optional."""
    event: Text | None = None           # the event's name: "County Pairs Championship"
    session: Text | None = None         # "Saturday evening", "2 of 3"
    time: Text | None = None            # time of the ruling, "21:40"
    table: Text | None = None
    pairs: dict[SideField, Text] | None = None                # pair numbers (and names): {NS: "3", EW: "12 Lee–Moss"}
    players: dict[Direction, Text] | None = None         # names by seat
    director: Text | None = None        # the TD who ruled
    facts: Text | None = None           # what happened, in the TD's words


AppealDecision = Literal["upheld", "changed", "withdrawn", "pending"]


class Appeal(StrictModel):
    """An appeal against the ruling (Law 92): who lodged it and when, the committee, its decision."""
    lodged: Text | None = None          # when: "22:05"
    by: SideField | None = None
    committee: Text | None = None
    decision: AppealDecision
    reasons: Text | None = None
    changed_to: Text | None = None      # the ruling as the committee changed it
    deposit: Literal["returned", "forfeited"] | None = None


class SourceRef(StrictModel):
    """Where a published ruling comes from: the body that published it, the publication (casebook,
    appeals page), the case's number there, the year, the address; all but the body optional."""
    body: Text                          # the federation, league or committee: DBF, ACBL, NSWBA …
    publication: Text | None = None     # the casebook or page: "NABC Appeals Casebook, Summer 2012"
    case: Text | None = None            # the case's number or name in it: "02-AU-7", "Appeal 4"
    year: int | None = Field(default=None, ge=1900, le=2100)
    url: Text | None = None
    section: Text | None = None         # where in the publication, when it has several rulings a page

    @property
    def text(self) -> str:
        """One line: "DBF, Danmarks Bridgeforbunds Appelkomité, case 02-AU-7 (2003) — https://…"."""
        head = ", ".join(p for p in (self.body, self.publication) if p)
        if self.case:
            head += f", case {self.case}"
        if self.section:
            head += f", {self.section}"
        if self.year:
            head += f" ({self.year})"
        return head + (f" — {self.url}" if self.url else "")


class CaseModel(StrictModel):
    title: str
    source: str | SourceRef | None = None     # a line of text, or the published ruling's reference
    rulebook: Text | None = None
    # where the case was ruled: a body id (ebu, sbu …) or a country a body names (GB-SCT, Scotland); without
    # rulebook:, the case is ruled under the code in force there on its date (rules/calendar.yaml)
    jurisdiction: Text | None = None
    date: DayField | None = None
    scoring: ScoringField
    event: Event | None = None
    board: Board
    non_offending: SideOrBoth | None = None   # both: each side ruled from its own view (Law 82C)
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
    # who awarded the adjusted score the case records: the Director at the table, or an appeals committee (the
    # 1997 12C3 gives the power to vary a score to do equity to a committee); default: committee when the case's
    # appeal changed the ruling, else director
    adjusted_by: Literal["director", "committee"] | None = None
    published: Published | None = None
    notes: str | None = None
    record: Record | None = None
    appeal: Appeal | None = None
