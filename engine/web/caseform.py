"""The ruling form's fields ⇄ a case model (a mapping with exactly the keys of a case file).

Every key a case file accepts has a field: the record (event, session, time, table, pairs,
players, director, what happened), the rulebook and board, a table result and the other
table or the field, the outcome without the infraction as one result, a weighted list, a split
weighting (one list per side) or a poll, a serious error or gamble with one or several weighted
outcomes (C), an artificial score or a board not scheduled, a procedural penalty (individual
events), the match in victory points, the TD's reasons and the appeal; the infraction and the law
that empowers the adjustment (its law, offender, note, the Director's findings the law makes a
condition of adjusting, and for Law 64 the established revokes), both sides non-offending (82C,
86B1) and the TD's benefit-of-doubt factor in a poll. What an opened file holds that the form does
not edit (expect:, published:) is kept as it is (``extra``).

Strings are copied into the model as the TD typed them; the engine's own parsers read them when
the model is ruled. A compact weighted list is written ``4S= W 2/3; 4S-1 W 1/3`` (a result, a
space and its weight, separated by semicolons).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, Mapping

from ..ruling.caseschema import CaseModel
from .caseyaml import MAX_FIELD, MAX_ROWS, dump_yaml

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
FORM_KEYS = {"title", "source", "rulebook", "date", "scoring", "event", "board", "non_offending",
             "table_result", "other_table", "field", "results_on_board", "without_infraction", "poll",
             "serious_error", "artificial", "possibilities", "not_scheduled", "session",
             "artificial_boards_this_session", "penalty", "match", "players", "notes", "record", "appeal",
             "infraction"}
CASE_KEYS = list(CaseModel.model_fields)

TEXT_FIELDS = ("rulebook", "title", "source", "date", "board_number", "table_result", "other_table",
               "results_on_board", "b_result", "se_instead", "session_ns", "session_ew", "boards_ns", "boards_ew",
               "poll_polled", "pen_amount", "match_boards", "match_imps_ns", "match_imps_ew",
               *RECORD_FIELDS, *PAIR_FIELDS, *PLAYER_FIELDS, "ap_lodged", "ap_committee", "ap_reasons",
               "ap_changed_to", "inf_law", "inf_note", "poll_bod")
# every string field, for the hidden copy of the form on the slip page
HIDDEN_FIELDS = (*TEXT_FIELDS, "field", "notes", "scoring", "event", "vulnerability", "kind", "not_scheduled",
                 "non_offending", "b_mode", "se_kind", "art_ns", "art_ew", "pen_player", "ap_decision", "ap_by",
                 "ap_deposit", "inf_by")
_ROW = re.compile(r"^(wi|ew)_(result|weight|illegal)_(\d{1,3})$")
_POLL = re.compile(r"^poll_(action|votes|result|illegal)_(\d{1,3})$")
_REVOKE = re.compile(r"^rv_(trick|offender|owon|swon|later|exception)_(\d{1,2})$")
_FINDING = re.compile(r"^finding_([a-z][a-z0-9_]{0,47})$")
MAX_REVOKES = 13            # at most one revoke a trick
MAX_FINDINGS = 20
_WEIGHT = re.compile(r"^[+-]?\d[\d\s./]*%?$|^[+-]?\.\d+%?$")


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

    @property
    def blank(self) -> bool:
        return not (self.trick.strip() or self.offender or self.owon or self.swon or self.later.strip()
                    or self.exception)


def _rows() -> list[Row]:
    return [Row(), Row()]


@dataclass
class CaseForm:
    """The form's fields, as strings, exactly as the TD typed them."""

    rulebook: str = ""
    title: str = ""
    source: str = ""
    date: str = ""
    scoring: str = "imps"
    event: str = ""
    board_number: str = ""
    vulnerability: str = "None"
    kind: str = "assigned"                 # assigned | artificial | not-scheduled
    not_scheduled: str = "bye"
    non_offending: str = "NS"
    table_result: str = ""
    other_table: str = ""
    field: str = ""                        # one result a line (or comma separated)
    results_on_board: str = ""
    b_mode: str = "one"                    # one | weighted | split | poll
    b_result: str = ""
    rows: list[Row] = dc_field(default_factory=_rows)        # the weighted list (NS's, when split)
    ew_rows: list[Row] = dc_field(default_factory=_rows)     # EW's list of a split weighting
    poll_polled: str = ""
    poll_rows: list[PollRow] = dc_field(default_factory=lambda: [PollRow(), PollRow()])
    poll_bod: str = ""                     # the TD's benefit-of-doubt factor (poll.benefit_of_doubt)
    se_kind: str = ""
    se_instead: str = ""                   # one result, or "4S= W 2/3; 4S-1 W 1/3"
    art_ns: str = "in-no-way-at-fault"
    art_ew: str = "in-no-way-at-fault"
    numerous: bool = False
    session_ns: str = ""
    session_ew: str = ""
    boards_ns: str = ""
    boards_ew: str = ""
    pen_player: str = ""
    pen_amount: str = ""
    pen_blameless: bool = False
    match_boards: str = ""
    match_imps_ns: str = ""
    match_imps_ew: str = ""
    rec_event: str = ""
    rec_session: str = ""
    rec_time: str = ""
    rec_table: str = ""
    rec_pair_ns: str = ""
    rec_pair_ew: str = ""
    rec_n: str = ""
    rec_e: str = ""
    rec_s: str = ""
    rec_w: str = ""
    rec_director: str = ""
    rec_facts: str = ""
    notes: str = ""
    ap_decision: str = ""
    ap_by: str = ""
    ap_lodged: str = ""
    ap_committee: str = ""
    ap_reasons: str = ""
    ap_changed_to: str = ""
    ap_deposit: str = ""
    inf_law: str = ""                      # infraction: the law that empowers the adjustment
    inf_by: str = ""
    inf_note: str = ""
    findings: dict[str, str] = dc_field(default_factory=dict)   # finding name → "yes" | "no"
    revokes: list[RevokeRow] = dc_field(default_factory=lambda: [RevokeRow()])
    extra: dict[str, Any] = dc_field(default_factory=dict)   # keys of an opened file the form does not edit
    compare: list[str] = dc_field(default_factory=list)      # rulebooks to compare (compare page)

    def __getitem__(self, name: str) -> Any:                 # for the templates' hidden copies
        return getattr(self, name)

    # --- from a submitted form -------------------------------------------------------------

    @classmethod
    def from_form(cls, data: Mapping[str, Any], *, getlist=None) -> tuple["CaseForm", str]:
        """The form and the action asked for (rule, add-row, remove-row-N, add-ew-row, …)."""
        def s(name: str, default: str = "") -> str:
            value = data.get(name, default)
            return value.strip() if isinstance(value, str) else default

        f = cls()
        for name in TEXT_FIELDS:
            setattr(f, name, s(name))
        f.field = s("field")
        f.notes = s("notes")
        f.rec_facts = s("rec_facts")
        f.ap_reasons = s("ap_reasons")
        f.scoring = _choice(s("scoring", "imps"), SCORINGS, "imps")
        f.event = _choice(s("event"), EVENTS, "")
        f.vulnerability = s("vulnerability", "None")     # checked by the engine, so a bad one is reported
        f.kind = _choice(s("kind", "assigned"), KINDS, "assigned")
        f.not_scheduled = _choice(s("not_scheduled", "bye"), NOT_SCHEDULED, "bye")
        f.non_offending = s("non_offending", "NS")
        f.inf_by = _choice(s("inf_by"), OFFENDERS, "")
        f.b_mode = _choice(s("b_mode", "one"), B_MODES, "one")
        f.se_kind = s("se_kind")
        f.art_ns = s("art_ns", "in-no-way-at-fault")
        f.art_ew = s("art_ew", "in-no-way-at-fault")
        f.numerous = bool(s("numerous"))
        f.pen_player = _choice(s("pen_player"), DIRECTIONS, "")
        f.pen_blameless = bool(s("pen_blameless"))
        f.ap_decision = _choice(s("ap_decision"), DECISIONS, "")
        f.ap_by = _choice(s("ap_by"), SIDES, "")
        f.ap_deposit = _choice(s("ap_deposit"), DEPOSITS, "")
        lists: dict[str, dict[int, Row]] = {"wi": {}, "ew": {}}
        polls: dict[int, PollRow] = {}
        revokes: dict[int, RevokeRow] = {}
        for key in data.keys():
            if (m := _ROW.match(key)) and int(m[3]) < MAX_ROWS:
                row = lists[m[1]].setdefault(int(m[3]), Row())
                if m[2] == "illegal":
                    row.illegal = True
                else:
                    setattr(row, m[2], s(key))
            elif (m := _POLL.match(key)) and int(m[2]) < MAX_ROWS:
                prow = polls.setdefault(int(m[2]), PollRow())
                if m[1] == "illegal":
                    prow.illegal = True
                else:
                    setattr(prow, m[1], s(key))
            elif (m := _REVOKE.match(key)) and int(m[2]) < MAX_REVOKES:
                rrow = revokes.setdefault(int(m[2]), RevokeRow())
                if m[1] in ("owon", "swon"):
                    setattr(rrow, m[1], bool(s(key)))
                elif m[1] == "offender":
                    rrow.offender = _choice(s(key), SEATS, "")
                elif m[1] == "exception":
                    rrow.exception = s(key)      # checked by the engine, so a bad one is reported
                else:
                    setattr(rrow, m[1], s(key))
            elif (m := _FINDING.match(key)) and len(f.findings) < MAX_FINDINGS and s(key) in ("yes", "no"):
                f.findings[m[1]] = s(key)
        f.rows = [lists["wi"][i] for i in sorted(lists["wi"])] or _rows()
        f.ew_rows = [lists["ew"][i] for i in sorted(lists["ew"])] or _rows()
        f.poll_rows = [polls[i] for i in sorted(polls)] or [PollRow(), PollRow()]
        f.revokes = [revokes[i] for i in sorted(revokes)] or [RevokeRow()]
        extra = s("extra")
        if extra:
            try:
                loaded = json.loads(extra)
            except ValueError:
                loaded = {}
            if isinstance(loaded, dict):
                f.extra = {k: v for k, v in loaded.items() if k in CASE_KEYS and
                           (k not in FORM_KEYS or (k == "source" and isinstance(v, dict)))}
        if getlist is not None:
            f.compare = [str(v) for v in getlist("compare")][:20]
        action = s("action", "rule") or "rule"
        return f, action

    def apply(self, action: str) -> bool:
        """Add or remove a row of a list; True when the action was one of those."""
        m = re.fullmatch(r"(add|remove)-(row|ew-row|poll-row|revoke-row)(?:-(\d{1,3}))?", action)
        if not m:
            return False
        lists = {"row": ("rows", Row, "weighted"), "ew-row": ("ew_rows", Row, "split"),
                 "poll-row": ("poll_rows", PollRow, "poll"), "revoke-row": ("revokes", RevokeRow, None)}
        name, make, mode = lists[m[2]]
        rows = getattr(self, name)
        if m[1] == "add":
            if len(rows) < (MAX_REVOKES if mode is None else MAX_ROWS):
                rows.append(make())
        elif m[3] is not None and 0 <= int(m[3]) < len(rows):
            del rows[int(m[3])]
        if not rows:
            rows.append(make())
        if mode is not None and not (mode == "weighted" and self.b_mode == "split"):
            self.b_mode = mode
        return True

    # --- to a case model ---------------------------------------------------------------------

    def model(self) -> tuple[dict[str, Any], dict[tuple, str]]:
        """The case model (keys in a case file's order) and where each list entry came from:
        ``("wi", i) → "3"``: the model's i-th entry is the form's row 3."""
        m: dict[str, Any] = {}
        rowmap: dict[tuple, str] = {}
        m["title"] = self.title or None
        m["source"] = self.source or None
        m["rulebook"] = self.rulebook or None
        m["date"] = self.date or None
        m["scoring"] = self.scoring
        m["event"] = self.event or None
        board: dict[str, Any] = {}
        if self.board_number:
            board["number"] = _int_or_text(self.board_number)
        board["vulnerability"] = self.vulnerability
        m["board"] = board
        m["results_on_board"] = _int_or_text(self.results_on_board) if self.results_on_board else None
        m["infraction"] = self._infraction(rowmap)
        if self.kind == "artificial":
            m["artificial"] = {"NS": self.art_ns, "EW": self.art_ew}
            m["possibilities"] = "numerous" if self.numerous else None
            session = {k: v for k, v in (("NS", self.session_ns), ("EW", self.session_ew)) if v}
            m["session"] = session or None
            boards = {k: _int_or_text(v) for k, v in (("NS", self.boards_ns), ("EW", self.boards_ew)) if v}
            m["artificial_boards_this_session"] = boards or None
        elif self.kind == "not-scheduled":
            m["not_scheduled"] = self.not_scheduled
        else:
            m["non_offending"] = self.non_offending or None
            m["table_result"] = self.table_result or None
            if self.scoring == "imps":
                m["other_table"] = self.other_table or None
            else:
                m["field"] = split_field(self.field) or None
            if self.b_mode == "weighted":
                m["without_infraction"] = _items(self.rows, "wi", rowmap) or None
            elif self.b_mode == "split":
                ns, ew = _items(self.rows, "wi", rowmap), _items(self.ew_rows, "ew", rowmap)
                m["without_infraction"] = {"NS": ns, "EW": ew} if ns or ew else None
            elif self.b_mode == "poll":
                m["poll"] = self._poll(rowmap)
            else:
                m["without_infraction"] = self.b_result or None
            if self.se_kind:
                m["serious_error"] = {"kind": self.se_kind, "instead": compact_list(self.se_instead, "weight")}
        if self.pen_player in ("NS", "EW"):          # Law 90 at pairs and teams: on the side
            m["penalty"] = {"side": self.pen_player, "amount": self.pen_amount or None}
        elif self.pen_player or self.pen_amount:
            m["penalty"] = {"player": self.pen_player or None, "amount": self.pen_amount or None,
                            "partner_blameless": self.pen_blameless}
        if self.match_boards or self.match_imps_ns or self.match_imps_ew:
            m["match"] = {"boards": _int_or_text(self.match_boards) if self.match_boards else None,
                          "imps": {"NS": self.match_imps_ns or None, "EW": self.match_imps_ew or None}}
        m["notes"] = self.notes or None
        rec: dict[str, Any] = {key: getattr(self, name) for name, key in RECORD_FIELDS.items() if getattr(self, name)}
        pairs = {key: getattr(self, name) for name, key in PAIR_FIELDS.items() if getattr(self, name)}
        players = {key: getattr(self, name) for name, key in PLAYER_FIELDS.items() if getattr(self, name)}
        if pairs:
            rec["pairs"] = pairs
        if players:
            rec["players"] = players
        order = ["event", "session", "time", "table", "pairs", "players", "director", "facts"]
        m["record"] = {k: rec[k] for k in order if k in rec} or None
        if self.ap_decision or any(getattr(self, n) for n in APPEAL_FIELDS if n != "ap_decision"):
            m["appeal"] = {key: getattr(self, name) for name, key in APPEAL_FIELDS.items() if getattr(self, name)}
            m["appeal"].setdefault("decision", None)
        for key, value in self.extra.items():
            if m.get(key) is None:          # a published ruling's source: the form shows none, keeps it
                m[key] = value
        ordered = {k: _drop_none(m[k]) for k in CASE_KEYS if m.get(k) is not None}
        return ordered, rowmap

    def _poll(self, rowmap: dict[tuple, str]) -> dict[str, Any]:
        choices = []
        for i, row in enumerate(self.poll_rows):
            if row.blank:
                continue
            rowmap[("poll", len(choices))] = str(i)
            choice: dict[str, Any] = {"action": row.action or None, "votes": _int_or_text(row.votes) if row.votes else None}
            results = compact_list(row.result, "chance")
            if isinstance(results, list):
                choice["results"] = results
            else:
                choice["result"] = results or None
            if row.illegal:
                choice["legal"] = False
            choices.append(choice)
        return {"polled": _int_or_text(self.poll_polled) if self.poll_polled else None, "choices": choices or None,
                "benefit_of_doubt": self.poll_bod or None}

    def _infraction(self, rowmap: dict[tuple, str]) -> dict[str, Any] | None:
        revokes = []
        for i, row in enumerate(self.revokes):
            if row.blank:
                continue
            rowmap[("revoke", len(revokes))] = str(i)
            revokes.append({"trick": _int_or_text(row.trick) if row.trick else None, "offender": row.offender or None,
                            "offender_won": row.owon, "side_won": row.swon,
                            "later_tricks": _int_or_text(row.later) if row.later else None,
                            "exception": row.exception or None})
        findings = {name: value == "yes" for name, value in self.findings.items() if value in ("yes", "no")}
        if not (self.inf_law or self.inf_by or self.inf_note or findings or revokes):
            return None
        return {"law": self.inf_law or None, "by": self.inf_by or None, "note": self.inf_note or None,
                "findings": findings or None, "revokes": revokes or None}

    def to_yaml(self, *, header: str | None = None) -> tuple[str, dict[tuple, str]]:
        model, rowmap = self.model()
        return dump_yaml(model, header=header), rowmap

    # --- from an opened case file --------------------------------------------------------------

    @classmethod
    def from_tree(cls, tree: Mapping[str, Any]) -> "CaseForm":
        """Fill the form from a case file's data; what the form cannot show is kept in `extra`."""
        f = cls(rows=[], ew_rows=[], poll_rows=[], revokes=[])
        t = dict(tree)
        extra: dict[str, Any] = {k: v for k, v in t.items() if k not in FORM_KEYS}
        if isinstance(t.get("source"), dict):         # a published ruling's reference: kept as given
            extra["source"] = t.pop("source")
        for key in ("title", "source", "rulebook", "table_result", "other_table", "notes", "date", "scoring",
                    "event", "non_offending", "results_on_board"):
            if t.get(key) is not None:
                setattr(f, key, _text(t[key]))
        board = t.get("board")
        if isinstance(board, dict):
            if board.get("number") is not None:
                f.board_number = _text(board["number"])
            if board.get("vulnerability") is not None:
                f.vulnerability = _text(board["vulnerability"])
        if isinstance(t.get("field"), list):
            f.field = "\n".join(_text(v) for v in t["field"])
        w = t.get("without_infraction")
        if isinstance(w, list):
            f.b_mode, f.rows = "weighted", _rows_of(w)
        elif isinstance(w, dict) and set(w) <= {"NS", "EW"}:
            f.b_mode, f.rows, f.ew_rows = "split", _rows_of(w.get("NS") or []), _rows_of(w.get("EW") or [])
        elif w is not None:
            f.b_result = _text(w)
        poll = t.get("poll")
        if isinstance(poll, dict):
            f.b_mode = "poll"
            f.poll_polled = _text(poll.get("polled", ""))
            if poll.get("benefit_of_doubt") is not None:
                f.poll_bod = _text(poll["benefit_of_doubt"])
            for c in poll.get("choices") or []:
                if not isinstance(c, dict):
                    continue
                result = c.get("result")
                if isinstance(c.get("results"), list):
                    result = "; ".join(f"{_text(r.get('result', ''))} {_text(r.get('chance', ''))}".strip()
                                       for r in c["results"] if isinstance(r, dict))
                f.poll_rows.append(PollRow(_text(c.get("action", "")), _text(c.get("votes", "")),
                                           _text(result or ""), c.get("legal") is False))
        se = t.get("serious_error")
        if isinstance(se, dict):
            f.se_kind = _text(se.get("kind", ""))
            instead = se.get("instead", "")
            f.se_instead = ("; ".join(f"{_text(i.get('result', ''))} {_text(i.get('weight', ''))}".strip()
                                      for i in instead if isinstance(i, dict))
                            if isinstance(instead, list) else _text(instead))
        art = t.get("artificial")
        if isinstance(art, dict):
            f.kind = "artificial"
            f.art_ns = _text(art.get("NS", ""))
            f.art_ew = _text(art.get("EW", ""))
        if t.get("not_scheduled") is not None:
            f.kind, f.not_scheduled = "not-scheduled", _text(t["not_scheduled"])
        f.numerous = t.get("possibilities") == "numerous"
        for key, names in (("session", ("session_ns", "session_ew")),
                           ("artificial_boards_this_session", ("boards_ns", "boards_ew"))):
            value = t.get(key)
            if isinstance(value, dict):
                for side, name in zip(("NS", "EW"), names):
                    if value.get(side) is not None:
                        setattr(f, name, _text(value[side]))
        pen = t.get("penalty")
        if isinstance(pen, dict):
            f.pen_player = _text(pen.get("side") or pen.get("player") or "")
            f.pen_amount = _text(pen.get("amount", ""))
            f.pen_blameless = pen.get("partner_blameless") is True
        match = t.get("match")
        if isinstance(match, dict):
            f.match_boards = _text(match.get("boards", ""))
            imps = match.get("imps") if isinstance(match.get("imps"), dict) else {}
            f.match_imps_ns, f.match_imps_ew = _text(imps.get("NS", "")), _text(imps.get("EW", ""))
        rec = t.get("record") if isinstance(t.get("record"), dict) else {}
        for name, key in RECORD_FIELDS.items():
            if rec.get(key) is not None:
                setattr(f, name, _text(rec[key]))
        for source, fields in ((rec.get("pairs"), PAIR_FIELDS), (t.get("players"), PLAYER_FIELDS),
                               (rec.get("players"), PLAYER_FIELDS)):
            if isinstance(source, dict):
                for name, key in fields.items():
                    if source.get(key) is not None:
                        setattr(f, name, _text(source[key]))
        ap = t.get("appeal")
        if isinstance(ap, dict):
            for name, key in APPEAL_FIELDS.items():
                if ap.get(key) is not None:
                    setattr(f, name, _text(ap[key]))
        inf = t.get("infraction")
        if isinstance(inf, dict):
            for name, key in (("inf_law", "law"), ("inf_by", "by"), ("inf_note", "note")):
                if inf.get(key) is not None:
                    setattr(f, name, _text(inf[key]))
            if isinstance(inf.get("findings"), dict):
                f.findings = {str(k): ("yes" if v is True else "no" if v is False else _text(v))
                              for k, v in list(inf["findings"].items())[:MAX_FINDINGS]}
            for r in (inf.get("revokes") or [])[:MAX_REVOKES] if isinstance(inf.get("revokes"), list) else []:
                if isinstance(r, dict):
                    f.revokes.append(RevokeRow(_text(r.get("trick", "")), _text(r.get("offender", "")),
                                               r.get("offender_won") is True, r.get("side_won") is True,
                                               _text(r.get("later_tricks", "")), _text(r.get("exception") or "")))
        f.extra = _jsonable(extra)
        f.revokes = f.revokes or [RevokeRow()]
        f.rows = f.rows or _rows()
        f.ew_rows = f.ew_rows or _rows()
        f.poll_rows = f.poll_rows or [PollRow(), PollRow()]
        return f

    @property
    def extra_json(self) -> str:
        return json.dumps(self.extra, ensure_ascii=False) if self.extra else ""

    @property
    def extra_yaml(self) -> str:
        return dump_yaml(self.extra) if self.extra else ""


def _items(rows: list[Row], name: str, rowmap: dict[tuple, str]) -> list[dict[str, Any]]:
    items = []
    for i, row in enumerate(rows):
        if row.blank:
            continue
        rowmap[(name, len(items))] = str(i)
        item: dict[str, Any] = {"result": row.result, "weight": row.weight}
        if row.illegal:
            item["legal"] = False
        items.append(item)
    return items


def _rows_of(items: list) -> list[Row]:
    return [Row(_text(i.get("result", "")), _text(i.get("weight", "")), i.get("legal") is False)
            for i in items if isinstance(i, dict)][:MAX_ROWS]


def compact_list(text: str, weight_key: str) -> Any:
    """'4S= W 2/3; 4S-1 W 1/3' → [{result: 4S= W, weight: 2/3}, …]; one result stays as it is."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if len(parts) <= 1:
        return parts[0] if parts else ""
    out = []
    for part in parts[:MAX_ROWS + 1]:
        result, _, weight = part.rpartition(" ")
        if not result or not _WEIGHT.match(weight):
            result, weight = part, ""
        out.append({"result": result.strip(), weight_key: weight or None})
    return out


def _drop_none(value: Any) -> Any:
    """Nested mappings without their empty entries (an empty entry is missing, so the engine names it)."""
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_none(v) for v in value]
    return value


def split_field(text: str) -> list[str]:
    parts = [p.strip() for p in re.split(r"[\n,;]+", text)]
    return [p for p in parts if p][:MAX_FIELD + 1]


def _choice(value: str, choices, default: str) -> str:
    return value if value in choices else default


def _int_or_text(value: str) -> Any:
    return int(value) if value.isdigit() and len(value) < 10 else value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value).strip()


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


LABELS = {
    "rulebook": "Rulebook", "title": "Case title", "source": "Source", "date": "Date", "scoring": "Scoring",
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
                 "exception": "exception to the trick transfer"}


def label(name: str) -> str:
    """The words for a field in the error summary: "East-West's weighting, weight 2"."""
    if name in LABELS:
        return LABELS[name]
    if (m := _REVOKE.match(name)):
        return f"Revoke {int(m[2]) + 1}, {_REVOKE_LABEL[m[1]]}"
    if (m := _FINDING.match(name)):
        return f"Finding {m[1]}"
    m = _LIST_LABEL.match(name)
    if m:
        which = {"wi": "Weighted list (B)", "ew": "East-West's weighting", "poll": "Poll choice"}[m[1]]
        return f"{which}, {m[2]} {int(m[3]) + 1}" if m[1] != "poll" else f"{which} {int(m[3]) + 1}, {m[2]}"
    return name
