"""The ruling form's fields → a case model (a mapping with exactly the keys of a case file); an opened
file → the fields is :mod:`.caseopen`.

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

import json
import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, Mapping

from .caseyaml import MAX_FIELD, MAX_ROWS, dump_yaml
from .formfields import (FINDING_KEY, POLL_KEY, REVOKE_KEY, ROW_KEY, WEIGHT_TEXT, APPEAL_FIELDS, B_MODES, CASE_KEYS, DECISIONS,
                         ADJUSTED_BY, DEPOSITS, DIRECTIONS, EVENTS, FORM_KEYS, KINDS, MAX_FINDINGS, MAX_REVOKES, NOT_SCHEDULED, OFFENDERS,
                         PAIR_FIELDS, PLAYER_FIELDS, RECORD_FIELDS, SCORINGS, SEATS, SIDES, TEXT_FIELDS, PollRow,
                         RevokeRow, Row)


def blank_rows() -> list[Row]:
    return [Row(), Row()]


@dataclass
class CaseForm:
    """The form's fields, as strings, exactly as the TD typed them."""

    rulebook: str = ""
    jurisdiction: str = ""                 # a body or a country: with no rulebook, the code in force there that day
    title: str = ""
    source: str = ""
    date: str = ""
    jurisdiction: str = ""                 # a body id or a country (rules/calendar.yaml)
    adjusted_by: str = ""                  # "" | director | committee
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
    rows: list[Row] = dc_field(default_factory=blank_rows)        # the weighted list (NS's, when split)
    ew_rows: list[Row] = dc_field(default_factory=blank_rows)     # EW's list of a split weighting
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
        f.adjusted_by = _choice(s("adjusted_by"), ADJUSTED_BY, "")
        lists: dict[str, dict[int, Row]] = {"wi": {}, "ew": {}}
        polls: dict[int, PollRow] = {}
        revokes: dict[int, RevokeRow] = {}
        for key in data.keys():
            if (m := ROW_KEY.match(key)) and int(m[3]) < MAX_ROWS:
                row = lists[m[1]].setdefault(int(m[3]), Row())
                if m[2] == "illegal":
                    row.illegal = True
                else:
                    setattr(row, m[2], s(key))
            elif (m := POLL_KEY.match(key)) and int(m[2]) < MAX_ROWS:
                prow = polls.setdefault(int(m[2]), PollRow())
                if m[1] == "illegal":
                    prow.illegal = True
                else:
                    setattr(prow, m[1], s(key))
            elif (m := REVOKE_KEY.match(key)) and int(m[2]) < MAX_REVOKES:
                rrow = revokes.setdefault(int(m[2]), RevokeRow())
                if m[1] in ("owon", "swon"):
                    setattr(rrow, m[1], bool(s(key)))
                elif m[1] == "offender":
                    rrow.offender = _choice(s(key), SEATS, "")
                elif m[1] == "exception":
                    rrow.exception = s(key)      # checked by the engine, so a bad one is reported
                elif m[1] == "legal":
                    rrow.legal = _choice(s(key), {"yes": "", "no": ""}, "")
                else:
                    setattr(rrow, m[1], s(key))
            elif (m := FINDING_KEY.match(key)) and len(f.findings) < MAX_FINDINGS and s(key) in ("yes", "no"):
                f.findings[m[1]] = s(key)
        f.rows = [lists["wi"][i] for i in sorted(lists["wi"])] or blank_rows()
        f.ew_rows = [lists["ew"][i] for i in sorted(lists["ew"])] or blank_rows()
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
        m["jurisdiction"] = self.jurisdiction or None
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
        m["adjusted_by"] = self.adjusted_by or None
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
                            "exception": row.exception or None,
                            "legal_card_won": {"yes": True, "no": False}.get(row.legal)})
        findings = {name: value == "yes" for name, value in self.findings.items() if value in ("yes", "no")}
        if not (self.inf_law or self.inf_by or self.inf_note or findings or revokes):
            return None
        return {"law": self.inf_law or None, "by": self.inf_by or None, "note": self.inf_note or None,
                "findings": findings or None, "revokes": revokes or None}

    def to_yaml(self, *, header: str | None = None) -> tuple[str, dict[tuple, str]]:
        model, rowmap = self.model()
        return dump_yaml(model, header=header), rowmap

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


def compact_list(text: str, weight_key: str) -> Any:
    """'4S= W 2/3; 4S-1 W 1/3' → [{result: 4S= W, weight: 2/3}, …]; one result stays as it is."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if len(parts) <= 1:
        return parts[0] if parts else ""
    out = []
    for part in parts[:MAX_ROWS + 1]:
        result, _, weight = part.rpartition(" ")
        if not result or not WEIGHT_TEXT.match(weight):
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
    """A whole number the form's text holds (ASCII digits: '¹'.isdigit() too, which int() refuses), else the text."""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else value
