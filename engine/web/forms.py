"""The ruling form: form fields ⇄ a case model (the keys of a case file) ⇄ case YAML.

The web page never rules a form directly. It builds the case *model* — a mapping with exactly
the keys of a case file — serialises it to YAML with ruamel.yaml and runs that text through
:func:`bridgelaw.case.load_case`, the same path as ``bridgelaw rule``; web and CLI cannot disagree.
A :class:`~bridgelaw.errors.BridgelawError` points at a line and column of that YAML;
:func:`field_for_error` walks the YAML's positions back to the key path and from there to the
form field concerned, so the message can be shown beside it.

Everything a request sends is data: strings are copied into the model, numbers are parsed by
the engine's own parsers, the hidden ``extra`` field is JSON (``json.loads``), nothing is
evaluated.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, Mapping

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from ..case import CaseModel
from ..errors import BridgelawError

MAX_ROWS = 20               # outcomes in one weighted list
MAX_FIELD = 1000            # results in a field (other tables at matchpoints)
MAX_LIST = 1000             # any other list in a case sent to the API

SCORINGS = {"imps": "Teams (IMPs)", "matchpoints": "Pairs (matchpoints)"}
EVENTS = {"": "as the scoring says (teams at IMPs, pairs at matchpoints)", "pairs": "pairs",
          "teams": "teams", "individual": "individual", "knockout": "knockout (12C4)"}
VULNERABILITIES = {"None": "None (love all)", "NS": "North-South", "EW": "East-West", "All": "Both (All)"}
RESPONSIBILITIES = {"in-no-way-at-fault": "in no way at fault (average plus)",
                    "partly-at-fault": "partly at fault (average)",
                    "directly-at-fault": "directly at fault (average minus)"}
SERIOUS = {"": "no", "serious-error": "extremely serious error", "gambling": "gambling action"}

# keys of a case file the form edits itself; any other key of an opened file is kept as it is
FORM_KEYS = {"title", "source", "rulebook", "date", "scoring", "event", "board", "non_offending",
             "table_result", "other_table", "field", "results_on_board", "without_infraction",
             "serious_error", "artificial", "possibilities", "session", "artificial_boards_this_session",
             "notes"}
CASE_KEYS = list(CaseModel.model_fields)

_ROW = re.compile(r"^wi_(result|weight|illegal)_(\d{1,3})$")


@dataclass
class Row:
    result: str = ""
    weight: str = ""
    illegal: bool = False

    @property
    def blank(self) -> bool:
        return not self.result.strip() and not self.weight.strip() and not self.illegal


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
    kind: str = "assigned"                 # assigned | artificial
    non_offending: str = "NS"
    table_result: str = ""
    other_table: str = ""
    field: str = ""                        # one result a line (or comma separated)
    results_on_board: str = ""
    b_mode: str = "one"                    # one | weighted
    b_result: str = ""
    rows: list[Row] = dc_field(default_factory=lambda: [Row(), Row()])
    se_kind: str = ""
    se_instead: str = ""
    art_ns: str = "in-no-way-at-fault"
    art_ew: str = "in-no-way-at-fault"
    numerous: bool = False
    session_ns: str = ""
    session_ew: str = ""
    boards_ns: str = ""
    boards_ew: str = ""
    notes: str = ""
    extra: dict[str, Any] = dc_field(default_factory=dict)   # keys of an opened file the form does not edit
    compare: list[str] = dc_field(default_factory=list)      # rulebooks to compare (compare page)

    # --- from a submitted form -------------------------------------------------------------

    @classmethod
    def from_form(cls, data: Mapping[str, Any], *, getlist=None) -> tuple["CaseForm", str]:
        """The form and the action asked for (rule, add-row, remove-row-N, …)."""
        def s(name: str, default: str = "") -> str:
            value = data.get(name, default)
            return value.strip() if isinstance(value, str) else default

        f = cls()
        for name in ("rulebook", "title", "source", "date", "board_number", "table_result", "other_table",
                     "results_on_board", "b_result", "se_instead", "session_ns", "session_ew", "boards_ns",
                     "boards_ew"):
            setattr(f, name, s(name))
        f.field = s("field")
        f.notes = s("notes")
        f.scoring = _choice(s("scoring", "imps"), SCORINGS, "imps")
        f.event = _choice(s("event"), EVENTS, "")
        f.vulnerability = s("vulnerability", "None")     # checked by the engine, so a bad one is reported
        f.kind = _choice(s("kind", "assigned"), ("assigned", "artificial"), "assigned")
        f.non_offending = s("non_offending", "NS")
        f.b_mode = _choice(s("b_mode", "one"), ("one", "weighted"), "one")
        f.se_kind = s("se_kind")
        f.art_ns = s("art_ns", "in-no-way-at-fault")
        f.art_ew = s("art_ew", "in-no-way-at-fault")
        f.numerous = bool(s("numerous"))
        rows: dict[int, Row] = {}
        for key in data.keys():
            m = _ROW.match(key)
            if m and int(m[2]) < MAX_ROWS:
                row = rows.setdefault(int(m[2]), Row())
                if m[1] == "illegal":
                    row.illegal = True
                else:
                    setattr(row, m[1], s(key))
        f.rows = [rows[i] for i in sorted(rows)] or [Row(), Row()]
        extra = s("extra")
        if extra:
            try:
                loaded = json.loads(extra)
            except ValueError:
                loaded = {}
            if isinstance(loaded, dict):
                f.extra = {k: v for k, v in loaded.items() if k in CASE_KEYS and k not in FORM_KEYS
                           or k in ("without_infraction", "serious_error")}
        if getlist is not None:
            f.compare = [str(v) for v in getlist("compare")][:20]
        action = s("action", "rule") or "rule"
        return f, action

    def apply(self, action: str) -> bool:
        """Add or remove a row of the weighted list; True when the action was one of those."""
        if action == "add-row":
            if len(self.rows) < MAX_ROWS:
                self.rows.append(Row())
            self.b_mode = "weighted"
            return True
        if action.startswith("remove-row-"):
            try:
                i = int(action.removeprefix("remove-row-"))
            except ValueError:
                return True
            if 0 <= i < len(self.rows):
                del self.rows[i]
            if not self.rows:
                self.rows = [Row()]
            self.b_mode = "weighted"
            return True
        return False

    # --- to a case model ---------------------------------------------------------------------

    def model(self) -> tuple[dict[str, Any], dict[tuple, str]]:
        """The case model (keys in a case file's order) and where each weighted-list entry
        came from: ``("without_infraction", i) → "wi_…_{row}"`` prefixes."""
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
        if self.kind == "artificial":
            m["artificial"] = {"NS": self.art_ns, "EW": self.art_ew}
            m["possibilities"] = "numerous" if self.numerous else None
            session = {k: v for k, v in (("NS", self.session_ns), ("EW", self.session_ew)) if v}
            m["session"] = session or None
            boards = {k: _int_or_text(v) for k, v in (("NS", self.boards_ns), ("EW", self.boards_ew)) if v}
            m["artificial_boards_this_session"] = boards or None
        else:
            m["non_offending"] = self.non_offending or None
            m["table_result"] = self.table_result or None
            if self.scoring == "imps":
                m["other_table"] = self.other_table or None
            else:
                results = split_field(self.field)
                m["field"] = results or None
            if self.b_mode == "weighted":
                items = []
                for i, row in enumerate(self.rows):
                    if row.blank:
                        continue
                    rowmap[("without_infraction", len(items))] = str(i)
                    item: dict[str, Any] = {"result": row.result, "weight": row.weight}
                    if row.illegal:
                        item["legal"] = False
                    items.append(item)
                m["without_infraction"] = items or None
            else:
                m["without_infraction"] = self.b_result or None
            if self.se_kind:
                m["serious_error"] = {"kind": self.se_kind, "instead": self.se_instead}
        m["notes"] = self.notes or None
        for key, value in self.extra.items():
            if key in ("without_infraction", "serious_error") and m.get(key) is not None:
                continue                            # the form's own entry wins
            if self.kind == "artificial" and key in ("without_infraction", "serious_error"):
                continue
            m[key] = value
        ordered = {k: m[k] for k in CASE_KEYS if m.get(k) is not None}
        return ordered, rowmap

    def to_yaml(self, *, header: str | None = None) -> tuple[str, dict[tuple, str]]:
        model, rowmap = self.model()
        return dump_yaml(model, header=header), rowmap

    # --- from an opened case file --------------------------------------------------------------

    @classmethod
    def from_tree(cls, tree: Mapping[str, Any]) -> "CaseForm":
        """Fill the form from a case file's data; what the form cannot show is kept in `extra`."""
        f = cls(rows=[])
        t = dict(tree)
        for key in ("title", "source", "rulebook", "table_result", "other_table", "notes"):
            if t.get(key) is not None:
                setattr(f, key, _text(t[key]))
        if t.get("date") is not None:
            f.date = _text(t["date"])
        if t.get("scoring") is not None:
            f.scoring = _text(t["scoring"])
        if t.get("event") is not None:
            f.event = _text(t["event"])
        board = t.get("board")
        if isinstance(board, dict):
            if board.get("number") is not None:
                f.board_number = _text(board["number"])
            if board.get("vulnerability") is not None:
                f.vulnerability = _text(board["vulnerability"])
        if t.get("non_offending") is not None:
            f.non_offending = _text(t["non_offending"])
        if isinstance(t.get("field"), list):
            f.field = "\n".join(_text(v) for v in t["field"])
        if t.get("results_on_board") is not None:
            f.results_on_board = _text(t["results_on_board"])
        extra: dict[str, Any] = {k: v for k, v in t.items() if k not in FORM_KEYS}
        w = t.get("without_infraction")
        if isinstance(w, list) and all(isinstance(i, dict) and set(i) <= {"result", "weight", "legal"} for i in w) \
                and len(w) <= MAX_ROWS:
            f.b_mode = "weighted"
            f.rows = [Row(_text(i.get("result", "")), _text(i.get("weight", "")), i.get("legal") is False) for i in w]
        elif w is not None and not isinstance(w, (list, dict)):
            f.b_result = _text(w)
        elif w is not None:
            extra["without_infraction"] = w        # a split weighting: kept as the file gives it
        se = t.get("serious_error")
        if isinstance(se, dict) and set(se) <= {"kind", "instead"} and not isinstance(se.get("instead"), (list, dict)):
            f.se_kind = _text(se.get("kind", ""))
            f.se_instead = _text(se.get("instead", ""))
        elif se is not None:
            extra["serious_error"] = se
        art = t.get("artificial")
        if isinstance(art, dict):
            f.kind = "artificial"
            f.art_ns = _text(art.get("NS", ""))
            f.art_ew = _text(art.get("EW", ""))
        elif art is not None:
            extra["artificial"] = art
        f.numerous = t.get("possibilities") == "numerous"
        for key, names in (("session", ("session_ns", "session_ew")),
                           ("artificial_boards_this_session", ("boards_ns", "boards_ew"))):
            value = t.get(key)
            if isinstance(value, dict):
                for side, name in zip(("NS", "EW"), names):
                    if value.get(side) is not None:
                        setattr(f, name, _text(value[side]))
            elif value is not None:
                extra[key] = value
        f.extra = _jsonable(extra)
        if not f.rows:
            f.rows = [Row(), Row()]
        return f

    @property
    def extra_json(self) -> str:
        return json.dumps(self.extra, ensure_ascii=False) if self.extra else ""

    @property
    def extra_yaml(self) -> str:
        return dump_yaml(self.extra) if self.extra else ""


# --- YAML ------------------------------------------------------------------------------------

def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.default_flow_style = False
    y.width = 4096
    y.allow_unicode = True
    return y


def dump_yaml(model: Mapping[str, Any], *, header: str | None = None) -> str:
    """A case model as case-file YAML (block style; strings quoted only where YAML needs it)."""
    buf = io.StringIO()
    _yaml().dump(_commented(model), buf)
    text = buf.getvalue()
    if header:
        text = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + text
    return text


def _commented(value: Any) -> Any:
    if isinstance(value, Mapping):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = _commented(v)
        return out
    if isinstance(value, list):
        seq = CommentedSeq(_commented(v) for v in value)
        return seq
    if isinstance(value, str) and "\n" in value:
        from ruamel.yaml.scalarstring import LiteralScalarString
        return LiteralScalarString(value if value.endswith("\n") else value + "\n")
    return value


def positions(text: str) -> tuple[dict, dict, dict]:
    """(value, item, key) positions of every node of a YAML text: 1-based (line, column) → path."""
    values: dict[tuple[int, int], tuple] = {}
    items: dict[tuple[int, int], tuple] = {}
    keys: dict[tuple[int, int], tuple] = {}
    try:
        root = YAML(typ="rt").load(text)
    except YAMLError:
        return values, items, keys

    def walk(node: Any, path: tuple) -> None:
        if isinstance(node, CommentedMap):
            for k in node:
                kl, kc = node.lc.key(k)
                vl, vc = node.lc.value(k)
                keys.setdefault((kl + 1, kc + 1), path + (k,))
                values.setdefault((vl + 1, vc + 1), path + (k,))
                walk(node[k], path + (k,))
        elif isinstance(node, CommentedSeq):
            for i, v in enumerate(node):
                il, ic = node.lc.item(i)
                items.setdefault((il + 1, ic + 1), path + (i,))
                walk(v, path + (i,))

    walk(root, ())
    return values, items, keys


_MISSING = re.compile(r"^missing required key '([^']+)'")


def error_path(text: str, err: BridgelawError) -> tuple | None:
    """The key path of `text` that `err` points at (None when it points at no key)."""
    if err.line is None:
        return None
    where = (err.line, err.column or 1)
    values, items, keys = positions(text)
    missing = _MISSING.match(err.message)
    if where in values:
        path = values[where]
        return path + (missing[1],) if missing else path
    if where in items:
        return items[where]
    if where in keys:
        path = keys[where]
        if where == (first_key_line(text), 1) and f"'{path[0]}'" not in err.message \
                and not err.message.startswith(f"{path[0]} "):
            # the top of the document is where its first key is: an error about the whole case
            return (missing[1],) if missing else None
        return path
    if missing:
        return (missing[1],)
    return None


def first_key_line(text: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            return i
    return 1


SIMPLE_FIELDS = {
    ("title",): "title", ("source",): "source", ("rulebook",): "rulebook", ("date",): "date",
    ("scoring",): "scoring", ("event",): "event", ("board",): "board_number", ("board", "number"): "board_number",
    ("board", "vulnerability"): "vulnerability", ("non_offending",): "non_offending",
    ("table_result",): "table_result", ("other_table",): "other_table", ("field",): "field",
    ("results_on_board",): "results_on_board", ("serious_error",): "se_kind", ("serious_error", "kind"): "se_kind",
    ("serious_error", "instead"): "se_instead", ("artificial",): "art_ns", ("artificial", "NS"): "art_ns",
    ("artificial", "EW"): "art_ew", ("possibilities",): "numerous", ("session",): "session_ns",
    ("session", "NS"): "session_ns", ("session", "EW"): "session_ew", ("artificial_boards_this_session",): "boards_ns",
    ("artificial_boards_this_session", "NS"): "boards_ns", ("artificial_boards_this_session", "EW"): "boards_ew",
    ("notes",): "notes",
}


def field_for_path(path: tuple | None, form: CaseForm, rowmap: dict[tuple, str]) -> str:
    """The form field a key path belongs to ("general" for the error box above the form)."""
    if not path:
        return "general"
    if path[0] in form.extra and not (path[0] in ("without_infraction", "serious_error")
                                       and _form_has(form, path[0])):
        return "extra"
    if path[0] == "field":
        return "field"
    if path[0] == "without_infraction":
        if form.b_mode == "one":
            return "b_result"
        if len(path) == 1:
            return "wi"
        row = rowmap.get(("without_infraction", path[1]))
        if row is None:
            return "wi"
        part = path[2] if len(path) > 2 else "result"
        return {"result": f"wi_result_{row}", "weight": f"wi_weight_{row}", "legal": f"wi_illegal_{row}"}.get(
            part, f"wi_result_{row}")
    if path[0] in ("non_offending",) and form.kind == "artificial":
        return "general"
    for n in range(len(path), 0, -1):
        name = SIMPLE_FIELDS.get(tuple(path[:n]))
        if name:
            return name
    return "general"


def _form_has(form: CaseForm, key: str) -> bool:
    if key == "without_infraction":
        return bool(form.b_result) if form.b_mode == "one" else any(not r.blank for r in form.rows)
    return bool(form.se_kind)


_PREFIX = re.compile(r"^[A-Za-z_][\w]*(?:\.[\w]+)*: ")
_FRIENDLY = [
    (re.compile(r"input should be a valid integer.*", re.I), "must be a whole number, such as 7"),
    (re.compile(r"input should be a valid date.*", re.I), "must be a date, such as 2024-05-18"),
    (re.compile(r"input should be greater than or equal to 1", re.I), "must be 1 or more"),
    (re.compile(r"input should be a valid string", re.I), "must be text"),
]


def friendly(message: str, *, beside_field: bool) -> str:
    """The engine's message in the TD's words: beside a field, without the key path it starts with."""
    text = message
    if beside_field:
        text = _PREFIX.sub("", text, count=1)
        if _MISSING.match(text):
            text = "this is needed here"
    for pattern, words in _FRIENDLY:
        text = pattern.sub(words, text)
    first = text.split(" ", 1)[0]
    return text if "_" in first or not first[:1].isalpha() else text[:1].upper() + text[1:]


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


def check_list_lengths(tree: Any, path: tuple = ()) -> tuple[tuple, int, int] | None:
    """The first list in `tree` that is longer than allowed: (path, length, limit)."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            found = check_list_lengths(v, path + (k,))
            if found:
                return found
    elif isinstance(tree, list):
        limit = MAX_FIELD if path[:1] == ("field",) else MAX_ROWS if _weighted(path) else MAX_LIST
        if len(tree) > limit:
            return path, len(tree), limit
        for i, v in enumerate(tree):
            found = check_list_lengths(v, path + (i,))
            if found:
                return found
    return None


def _weighted(path: tuple) -> bool:
    keys = [p for p in path if isinstance(p, str)]
    return bool(keys) and keys[0] in ("without_infraction", "serious_error", "poll")
