"""The ruling form's vocabulary: the choices each select and radio offers, which form field is
which key of a case file, the rows of its lists, and the words for each field in an error summary."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from ..ruling.caseschema import CaseModel

SCORINGS = {"imps": "Teams (IMPs)", "matchpoints": "Pairs (matchpoints)"}
EVENTS = {"": "as the scoring says (teams at IMPs, pairs at matchpoints)", "pairs": "pairs",
          "teams": "teams", "individual": "individual", "knockout": "knockout"}
VULNERABILITIES = {"None": "None (love all)", "NS": "North-South", "EW": "East-West", "All": "Both (game all)"}
RESPONSIBILITIES = {"in-no-way-at-fault": "in no way at fault (average plus)",
                    "partly-at-fault": "partly at fault (average)",
                    "directly-at-fault": "directly at fault (average minus)"}
SERIOUS = {"": "no", "serious-error": "extremely serious error", "gambling": "gambling action"}
KINDS = {"assigned": "Assigned adjusted score (a result could be obtained)",
         "artificial": "Artificial adjusted score (no result could be obtained)",
         "not-scheduled": "Board not scheduled for a contestant (bye or sit-out: not scored)"}
B_MODES = {"one": "One result", "weighted": "A weighted list of results", "split": "A different weighting for each side",
           "poll": "From a poll of players"}
NOT_SCHEDULED = {"bye": "bye", "sit-out": "sit-out"}
DIRECTIONS = {"": "no penalty", "NS": "North-South (the pair or team)", "EW": "East-West (the pair or team)",
              "N": "North", "E": "East", "S": "South", "W": "West"}
SIDES = {"": "—", "NS": "North-South", "EW": "East-West"}
DECISIONS = {"": "no appeal", "pending": "lodged, not yet heard", "upheld": "upheld: the ruling stands",
             "changed": "changed: the committee changed the ruling", "withdrawn": "withdrawn"}
DEPOSITS = {"": "—", "returned": "returned", "forfeited": "forfeited"}
ADJUSTED_BY = {"": "as the appeal says (the committee's when it changed the ruling)", "director": "the Director",
               "committee": "an appeals committee"}
NON_OFFENDING = {"NS": "North-South", "EW": "East-West",
                 "both": "Both (each side ruled from its own view: a Director's error, the other table's result)"}
SEATS = {"": "—", "N": "North", "E": "East", "S": "South", "W": "West"}
OFFENDERS = {**SEATS, "NS": "North-South", "EW": "East-West"}   # infraction.by: a seat or a side
FINDING_CHOICES = {"": "not given", "yes": "yes, it holds", "no": "no, it does not hold"}


class _Exceptions(Mapping[str, str]):
    """The exceptions to a revoke's trick transfer a case may name: the words the shipped rulebooks
    declare (``words: exception:``), each with what it means (per rulebook where they differ), read
    once when first asked; "" is none."""

    def __init__(self) -> None:
        self._choices: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        if self._choices is None:
            from .. import rulebook as rulebooks
            meanings: dict[str, dict[str, list[str]]] = {}
            for name in rulebooks.available():
                for word, meaning in rulebooks.get(name).words.get("exception", {}).items():
                    meanings.setdefault(word, {}).setdefault(meaning, []).append(name)
            choices = {"": "none"}
            for word, by_meaning in meanings.items():
                if word == "none":
                    continue
                choices[word] = next(iter(by_meaning)) if len(by_meaning) == 1 else "; ".join(
                    f"{', '.join(books)}: {meaning}" for meaning, books in by_meaning.items())
            self._choices = choices
        return self._choices

    def __getitem__(self, key: str) -> str:
        return self._load()[key]

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


EXCEPTIONS = _Exceptions()

# the record: form field → key in record:
RECORD_FIELDS = {"rec_event": "event", "rec_session": "session", "rec_time": "time", "rec_table": "table",
                 "rec_director": "director", "rec_facts": "facts"}
PAIR_FIELDS = {"rec_pair_ns": "NS", "rec_pair_ew": "EW"}
PLAYER_FIELDS = {"rec_n": "N", "rec_e": "E", "rec_s": "S", "rec_w": "W"}
APPEAL_FIELDS = {"ap_lodged": "lodged", "ap_by": "by", "ap_committee": "committee", "ap_decision": "decision",
                 "ap_reasons": "reasons", "ap_changed_to": "changed_to", "ap_deposit": "deposit"}

# keys of a case file the form edits itself; any other key of an opened file is kept as it is
FORM_KEYS = {"title", "source", "rulebook", "jurisdiction", "date", "scoring", "event", "board", "non_offending",
             "table_result", "other_table", "field", "results_on_board", "without_infraction", "poll",
             "serious_error", "artificial", "possibilities", "not_scheduled", "session",
             "artificial_boards_this_session", "penalty", "match", "players", "notes", "record", "appeal",
             "infraction", "adjusted_by"}
CASE_KEYS = list(CaseModel.model_fields)

TEXT_FIELDS = ("rulebook", "jurisdiction", "title", "source", "date", "board_number", "table_result", "other_table",
               "results_on_board", "b_result", "se_instead", "session_ns", "session_ew", "boards_ns", "boards_ew",
               "poll_polled", "pen_amount", "match_boards", "match_imps_ns", "match_imps_ew",
               *RECORD_FIELDS, *PAIR_FIELDS, *PLAYER_FIELDS, "ap_lodged", "ap_committee", "ap_reasons",
               "ap_changed_to", "inf_law", "inf_note", "poll_bod")
# every string field, for the hidden copy of the form on the slip page
HIDDEN_FIELDS = (*TEXT_FIELDS, "field", "notes", "scoring", "event", "vulnerability", "kind", "not_scheduled",
                 "non_offending", "b_mode", "se_kind", "art_ns", "art_ew", "pen_player", "ap_decision", "ap_by",
                 "ap_deposit", "inf_by", "adjusted_by")
ROW_KEY = re.compile(r"^(wi|ew)_(result|weight|illegal)_(\d{1,3})$")
POLL_KEY = re.compile(r"^poll_(action|votes|result|illegal)_(\d{1,3})$")
REVOKE_KEY = re.compile(r"^rv_(trick|offender|owon|swon|later|exception|legal)_(\d{1,2})$")
FINDING_KEY = re.compile(r"^finding_([a-z][a-z0-9_]{0,47})$")
MAX_REVOKES = 13            # at most one revoke a trick
MAX_FINDINGS = 20
WEIGHT_TEXT = re.compile(r"^[+-]?\d[\d\s./]*%?$|^[+-]?\.\d+%?$")


@dataclass
class Row:
    result: str = ""
    weight: str = ""
    illegal: bool = False

    @property
    def blank(self) -> bool:
        return not self.result.strip() and not self.weight.strip() and not self.illegal


@dataclass
class PollRow:
    action: str = ""
    votes: str = ""
    result: str = ""          # one result, or a compact list "6D= S 1/2; 3NT+2 S 1/2" (result and chance)
    illegal: bool = False

    @property
    def blank(self) -> bool:
        return not (self.action.strip() or self.votes.strip() or self.result.strip() or self.illegal)


@dataclass
class RevokeRow:
    """One established revoke (Law 64), as typed: its trick, offender, who won it, the later tricks."""
    trick: str = ""
    offender: str = ""
    owon: bool = False         # the offending player won the revoke trick
    swon: bool = False         # the offending side won the revoke trick
    later: str = ""            # tricks the offending side won after it
    exception: str = ""        # a 64B exception, or none
    legal: str = ""            # "yes" | "no" | "": the offender later won a trick with a card he could legally
                               # have played to the revoke trick (an edition whose 64A2 asks: legal_card_won)

    @property
    def blank(self) -> bool:
        return not (self.trick.strip() or self.offender or self.owon or self.swon or self.later.strip()
                    or self.exception or self.legal)


LABELS = {
    "rulebook": "Rulebook", "jurisdiction": "Jurisdiction", "adjusted_by": "Adjusted score by", "title": "Case title", "source": "Source", "date": "Date", "scoring": "Scoring",
    "event": "Form of event", "board_number": "Board number", "vulnerability": "Vulnerability",
    "non_offending": "Non-offending side", "table_result": "Table result (A)", "other_table": "Other table",
    "field": "Results at the other tables", "results_on_board": "Results on the board",
    "b_result": "Result without the infraction (B)", "wi": "Weighted list (B)", "ew": "East-West's weighting",
    "poll": "Poll", "poll_polled": "Players polled", "se_kind": "Serious error or gamble",
    "se_instead": "What the non-offending side would have scored without it (C)",
    "art_ns": "North-South at fault?", "art_ew": "East-West at fault?", "numerous": "Possibilities numerous",
    "session_ns": "Session score NS", "session_ew": "Session score EW", "boards_ns": "Boards without result NS",
    "boards_ew": "Boards without result EW", "not_scheduled": "Board not scheduled",
    "pen_player": "Procedural penalty on", "pen_amount": "Penalty", "pen_blameless": "Partner blameless",
    "match_boards": "Boards in the match", "match_imps_ns": "IMPs on the other boards, NS",
    "match_imps_ew": "IMPs on the other boards, EW", "rec_event": "Event", "rec_session": "Session",
    "rec_time": "Time of the ruling", "rec_table": "Table", "rec_director": "Director",
    "rec_pair_ns": "North-South pair", "rec_pair_ew": "East-West pair", "rec_n": "North", "rec_e": "East",
    "rec_s": "South", "rec_w": "West", "rec_facts": "What happened", "notes": "Your reasons",
    "ap_decision": "Appeal", "ap_by": "Appeal lodged by", "ap_lodged": "Appeal lodged at",
    "ap_committee": "Committee", "ap_reasons": "Committee's reasons", "ap_changed_to": "The ruling as changed",
    "ap_deposit": "Deposit", "extra": "Kept from the opened file", "general": "The case",
    "compare": "Rulebooks to compare", "infraction": "Infraction", "inf_law": "Law infringed",
    "inf_by": "Offender", "inf_note": "The irregularity", "findings": "The Director's findings",
    "revokes": "Established revokes", "poll_bod": "Benefit-of-doubt factor",
}
_LIST_LABEL = re.compile(r"^(wi|ew|poll)_(result|weight|illegal|action|votes)_(\d+)$")
_REVOKE_LABEL = {"trick": "trick", "offender": "offender", "owon": "won by the offender",
                 "swon": "won by the offending side", "later": "later tricks",
                 "exception": "exception to the trick transfer",
                 "legal": "a later trick won with a card that could have been played to the revoke trick"}


def label(name: str) -> str:
    """The words for a field in the error summary: "East-West's weighting, weight 2"."""
    if name in LABELS:
        return LABELS[name]
    if (m := REVOKE_KEY.match(name)):
        return f"Revoke {int(m[2]) + 1}, {_REVOKE_LABEL[m[1]]}"
    if (m := FINDING_KEY.match(name)):
        return f"Finding {m[1]}"
    m = _LIST_LABEL.match(name)
    if m:
        which = {"wi": "Weighted list (B)", "ew": "East-West's weighting", "poll": "Poll choice"}[m[1]]
        return f"{which}, {m[2]} {int(m[3]) + 1}" if m[1] != "poll" else f"{which} {int(m[3]) + 1}, {m[2]}"
    return name
