"""An opened case file → the ruling form: every key the form edits fills its field; what the form
does not edit (expect:, published:, …) is kept as it is (``extra``)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Mapping

from .caseform import CaseForm, blank_rows
from .caseyaml import MAX_ROWS
from .formfields import (APPEAL_FIELDS, FORM_KEYS, MAX_FINDINGS, MAX_REVOKES, PAIR_FIELDS, PLAYER_FIELDS,
                         RECORD_FIELDS, PollRow, RevokeRow, Row)


def form_from_tree(tree: Mapping[str, Any]) -> CaseForm:
    """Fill the form from a case file's data; what the form cannot show is kept in `extra`."""
    f = CaseForm(rows=[], ew_rows=[], poll_rows=[], revokes=[])
    t = dict(tree)
    extra: dict[str, Any] = {k: v for k, v in t.items() if k not in FORM_KEYS}
    if isinstance(t.get("source"), dict):         # a published ruling's reference: kept as given
        extra["source"] = t.pop("source")
    for key in ("title", "source", "rulebook", "jurisdiction", "table_result", "other_table", "notes", "date", "scoring",
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
                                           _text(r.get("later_tricks", "")), _text(r.get("exception") or ""),
                                           {True: "yes", False: "no"}.get(r.get("legal_card_won"), "")))
    f.extra = _jsonable(extra)
    f.revokes = f.revokes or [RevokeRow()]
    f.rows = f.rows or blank_rows()
    f.ew_rows = f.ew_rows or blank_rows()
    f.poll_rows = f.poll_rows or [PollRow(), PollRow()]
    return f


def _rows_of(items: list) -> list[Row]:
    return [Row(_text(i.get("result", "")), _text(i.get("weight", "")), i.get("legal") is False)
            for i in items if isinstance(i, dict)][:MAX_ROWS]


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
