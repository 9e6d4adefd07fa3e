"""An engine error → the form field it belongs to, and its message in the TD's words.

Errors carry the key path of the case they are about (:attr:`BridgelawError.path`, e.g.
``("without_infraction", "EW", 1, "weight")``); the path names the field. Only an error without a
path (a rulebook that is not found, malformed YAML) falls back to the YAML position it points at.
"""

from __future__ import annotations

import copy
import re
from typing import Callable

from ..core.errors import BridgelawError
from ..core.limits import LimitError
from ..core.yamlio import readable_path
from .caseform import CaseForm
from .formfields import APPEAL_FIELDS, PAIR_FIELDS, PLAYER_FIELDS, RECORD_FIELDS
from .caseyaml import positions

SIMPLE_FIELDS = {
    ("jurisdiction",): "jurisdiction", ("title",): "title", ("source",): "source", ("rulebook",): "rulebook", ("date",): "date",
    ("scoring",): "scoring", ("event",): "event", ("board",): "board_number", ("board", "number"): "board_number",
    ("board", "vulnerability"): "vulnerability", ("non_offending",): "non_offending",
    ("table_result",): "table_result", ("other_table",): "other_table", ("field",): "field",
    ("results_on_board",): "results_on_board", ("serious_error",): "se_kind", ("serious_error", "kind"): "se_kind",
    ("serious_error", "instead"): "se_instead", ("artificial",): "art_ns", ("artificial", "NS"): "art_ns",
    ("artificial", "EW"): "art_ew", ("possibilities",): "numerous", ("session",): "session_ns",
    ("session", "NS"): "session_ns", ("session", "EW"): "session_ew", ("artificial_boards_this_session",): "boards_ns",
    ("artificial_boards_this_session", "NS"): "boards_ns", ("artificial_boards_this_session", "EW"): "boards_ew",
    ("notes",): "notes", ("not_scheduled",): "not_scheduled", ("poll",): "poll", ("poll", "polled"): "poll_polled",
    ("poll", "choices"): "poll", ("poll", "benefit_of_doubt"): "poll_bod", ("penalty",): "pen_player", ("penalty", "player"): "pen_player", ("penalty", "side"): "pen_player",
    ("penalty", "amount"): "pen_amount", ("penalty", "partner_blameless"): "pen_blameless",
    ("match",): "match_boards", ("match", "boards"): "match_boards", ("match", "imps"): "match_imps_ns",
    ("match", "imps", "NS"): "match_imps_ns", ("match", "imps", "EW"): "match_imps_ew",
    ("record",): "rec_event", ("record", "pairs"): "rec_pair_ns", ("record", "players"): "rec_n",
    ("players",): "rec_n", ("appeal",): "ap_decision",
    ("infraction",): "infraction", ("infraction", "law"): "inf_law", ("infraction", "by"): "inf_by",
    ("infraction", "note"): "inf_note", ("infraction", "findings"): "findings", ("infraction", "revokes"): "revokes",
    **{("record", key): name for name, key in RECORD_FIELDS.items()},
    **{("record", "pairs", key): name for name, key in PAIR_FIELDS.items()},
    **{("record", "players", key): name for name, key in PLAYER_FIELDS.items()},
    **{("players", key): name for name, key in PLAYER_FIELDS.items()},
    **{("appeal", key): name for name, key in APPEAL_FIELDS.items()},
}
ROW_PARTS = {"result": "result", "weight": "weight", "legal": "illegal"}
REVOKE_PARTS = {"trick": "trick", "offender": "offender", "offender_won": "owon", "side_won": "swon",
                "later_tricks": "later", "exception": "exception", "legal_card_won": "legal"}
POLL_PARTS = {"action": "action", "votes": "votes", "result": "result", "results": "result", "legal": "illegal"}


def error_path(text: str, err: BridgelawError) -> tuple | None:
    """The key path `err` is about: its own, or (for an error without one) the key of the YAML
    `text` at the position it points at."""
    if err.path is not None:
        return tuple(err.path) or None
    if err.line is None or isinstance(err, LimitError):   # over a bound: re-parsing it is the work refused
        return None
    where = (err.line, err.column or 1)
    values, items, keys = positions(text)
    return values.get(where) or items.get(where) or keys.get(where)


def field_for_path(path: tuple | None, form: CaseForm, rowmap: dict[tuple, str]) -> str:
    """The form field a key path belongs to ("general" for the error box above the form)."""
    if not path:
        return "general"
    if path[0] in form.extra:
        return "extra"
    if path[0] == "without_infraction":
        if form.b_mode == "one":
            return "b_result"
        rest = path[1:]
        name = "wi"
        if rest and rest[0] in ("NS", "EW"):
            name, rest = ("wi" if rest[0] == "NS" else "ew"), rest[1:]
        if not rest:
            return name
        row = rowmap.get((name, rest[0]))
        part = ROW_PARTS.get(rest[1] if len(rest) > 1 else "result", "result")
        return f"{name}_{part}_{row}" if row is not None else name
    if path[:2] == ("poll", "choices") and len(path) > 2:
        row = rowmap.get(("poll", path[2]))
        part = POLL_PARTS.get(path[3] if len(path) > 3 else "action", "action")
        return f"poll_{part}_{row}" if row is not None else "poll"
    if path[:2] == ("infraction", "revokes") and len(path) > 2:
        row = rowmap.get(("revoke", path[2]))
        part = REVOKE_PARTS.get(path[3] if len(path) > 3 else "trick", "trick")
        return f"rv_{part}_{row}" if row is not None else "revokes"
    if path[:2] == ("infraction", "findings") and len(path) > 2:
        return f"finding_{path[2]}" if path[2] in form.findings else "findings"
    if path[0] == "non_offending" and form.kind != "assigned":
        return "general"
    for n in range(len(path), 0, -1):
        name = SIMPLE_FIELDS.get(tuple(path[:n]))
        if name:
            return name
    return "general"


_FRIENDLY = [
    (re.compile(r"input should be a valid integer.*", re.I), "must be a whole number, such as 7"),
    (re.compile(r"input should be a valid date.*", re.I), "must be a date, such as 2024-05-18"),
    (re.compile(r"input should be greater than or equal to 1", re.I), "must be 1 or more"),
    (re.compile(r"input should be a valid string", re.I), "must be text"),
]


def friendly(err: BridgelawError | str, *, beside_field: bool, path: tuple | None = None) -> str:
    """The engine's message in the TD's words: beside a field, without the key path it starts with
    (the field says where) and "this is needed here" for a missing key."""
    text = err if isinstance(err, str) else err.message
    if beside_field:
        if path:
            prefixes = [p for p in (readable_path(path) + ": ", ".".join(str(p) for p in path) + ": ")
                        if text.startswith(p)]
            if prefixes:
                text = text[len(prefixes[0]):]
            elif text == f"missing required key '{path[-1]}'":
                text = "this is needed here"
    for pattern, words in _FRIENDLY:
        text = pattern.sub(words, text)
    first = text.split(" ", 1)[0]
    return text if "_" in first or not first[:1].isalpha() else text[:1].upper() + text[1:]


def form_errors(text: str, exc: BridgelawError, form: CaseForm, rowmap: dict) -> dict[str, dict]:
    """The error as {form field: {message, expected, suggestion}}, the field found from its key path."""
    path = error_path(text, exc)
    name = field_for_path(path, form, rowmap)
    beside = name not in ("general", "extra")
    return {name: {"message": friendly(exc, beside_field=beside, path=path), "expected": exc.expected,
                   "suggestion": exc.suggestion}}


MAX_ERRORS = 10
_ROW = re.compile(r"^(wi|ew|poll|rv)_(\w+?)_(\d{1,3})$")


def all_errors(form: CaseForm, attempt: Callable[[str], object]) -> dict[str, dict]:
    """Every error of the form at once, not one a submit: the case is written and ruled
    (`attempt`), the field an error belongs to is recorded and emptied in a copy of the form, and
    the copy tried again — until it rules, an error comes back to a field already recorded (an
    empty field that is needed), an error belongs to no one field, or MAX_ERRORS are found.
    The errors are in the order of the form's fields as the summary lists them."""
    errors: dict[str, dict] = {}
    trial = copy.deepcopy(form)
    for _ in range(MAX_ERRORS):
        text, rowmap = trial.to_yaml()
        try:
            attempt(text)
            break
        except BridgelawError as exc:
            found = form_errors(text, exc, trial, rowmap)
        name, entry = next(iter(found.items()))
        if name in errors:
            break
        errors[name] = entry
        if not _empty(trial, name):
            break
    return errors


# what a field is set to in the copy once its error is recorded, so that the next error shows: a
# value that raises no error of its own and changes no other field's (a passed-out board for a result)
PLACEHOLDERS = {"title": "untitled", "board_number": "1", "b_result": "PASS", "other_table": "PASS",
                "se_instead": "PASS", "result": "PASS"}


def _empty(form: CaseForm, name: str) -> bool:
    """Set the field `name` of the copy to its placeholder, or empty it (an optional text field); False
    when it is none that this can get past (a choice, a weight, a whole list, the case as a whole)."""
    m = _ROW.match(name)
    if m:
        rows = {"wi": form.rows, "ew": form.ew_rows, "poll": form.poll_rows, "rv": form.revokes}[m[1]]
        i = int(m[3])
        if m[2] != "result" or i >= len(rows):
            return False
        rows[i].result = PLACEHOLDERS["result"]
        return True
    value = getattr(form, name, None)
    if not isinstance(value, str) or name in ("rulebook", "scoring", "kind", "b_mode", "vulnerability",
                                             "non_offending"):
        return False
    if name in PLACEHOLDERS:
        setattr(form, name, PLACEHOLDERS[name])
        return True
    if not value:
        return False
    setattr(form, name, "")
    return True
