"""The event page (``GET|POST /event``): upload a results file (PBN or USEBIO), pick a board and a
traveller line, enter the ruling in the case page's own fields (an assigned score — one result, a
weighted list or a weighting for each side —, an artificial score, a procedural penalty), see it
applied with every score and place it changes before and after, and download the rulings file the
page wrote and the corrected results file — ``bridgelaw event`` on the web, without YAML. A
rulings file may still be uploaded or pasted.

The ruling's fields are read by :class:`.caseform.CaseForm` (the case page's one reader) and
written as an entry of a rulings file (:func:`ruling_entry`), which is read back by the rulings
path of ``bridgelaw event`` (one path: the page never applies a ruling itself).

The page keeps its state in the form: the results file as sent (compressed, its bytes exact), the
rulings written so far, the options. Safety as for the traveller page: uploads are parsed in
memory, nothing is written to disk, a file name from the form only names the file in messages
(reduced to a safe base name) and picks the format by its extension; the rulebook is one of the
server's rulebook ids — a rulings file naming another is refused.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import BridgelawError
from ..core.exact import format_decimal
from ..core.vocab import METHODS
from ..core.yamlio import load_yaml
from ..field import profiles
from ..field.defaults import NEEDED
from ..field.run import load_event, outputs, refuse_unreproduced, run
from ..render import changes as changing
from ..render import event as report
from .caseform import CaseForm
from .caseyaml import dump_yaml
from .formerrors import error_path, field_for_path, friendly
from .service import safe_name

MAX_BYTES = 256 * 1024
MAX_SETTINGS = 40
MAX_RULINGS = 200
STATE = ("rulebook", "rulings", "scoring", "profile", "overlay", "settings", "event_z", "event_name")
# the ruling's fields: the case form's, as its reader reads them (CaseForm.from_form)
EVENT_KINDS = {"assigned": "Assigned adjusted score (weighted, split or one result)",
               "artificial": "Artificial adjusted score (no result could be obtained)",
               "penalty": "Only a procedural penalty (the table result stands)"}
EVENT_B_MODES = {"one": "One result", "weighted": "A weighted list of results",
                 "split": "A different weighting for each side"}
PENALTY_SIDES = {"": "no penalty", "NS": "North-South", "EW": "East-West"}
ARTIFICIAL = {"in-no-way-at-fault": "in no way at fault (average plus)",
              "partly-at-fault": "partly at fault (average)", "directly-at-fault": "directly at fault (average minus)"}
PICK = re.compile(r"^(\d{1,2}):(\d{1,4})$")


def _d(v: Any) -> str:
    return "" if v is None else format_decimal(v, 2)


def options() -> dict[str, Any]:
    """The form's choices: scoring methods, the programs' profiles, the ruling's kinds."""
    return {"methods": list(METHODS), "profiles": {p.id: p.title for p in profiles.profiles().values()},
            "kinds": EVENT_KINDS, "sides": {"NS": "North-South", "EW": "East-West"}, "b_modes": EVENT_B_MODES, "penalty_sides": PENALTY_SIDES, "artificial": ARTIFICIAL}


def pack(raw: bytes) -> str:
    """The results file as sent, for the form's hidden field: compressed (a 190 KB USEBIO file is
    about 20 KB) and its bytes exact (its encoding kept)."""
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")


def unpack(text: str) -> bytes:
    """The hidden field back to the file's bytes; at most MAX_BYTES are inflated (a bomb is refused)."""
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        d = zlib.decompressobj()
        raw = d.decompress(packed, MAX_BYTES + 1)
    except (ValueError, binascii.Error, zlib.error, UnicodeEncodeError):
        raise BridgelawError("the page's copy of the results file is damaged", expected="the page as the server sent it",
                             suggestion="choose the results file again") from None
    if len(raw) > MAX_BYTES or d.unconsumed_tail:
        raise BridgelawError("the results file is over 256 KiB", expected="a results file of at most 256 KiB")
    return raw


def view(scored: list) -> list[dict]:
    out = []
    for k, ss in enumerate(scored):
        t_places, p_places = report.printed_places(ss)
        rows = [{"rank": st.rank_text, "pair": st.key.split(":")[-1], "group": " ".join(
                    x for x in (st.group[0] if st.group else st.section, (st.group[1] if st.group else st.direction)
                                or "") if x),
                 "total": report.fixed_or_blank(st.total, t_places), "percent": report.fixed_or_blank(st.percent, p_places),
                 "boards": st.boards, "names": st.contestant.names if st.contestant and st.contestant.names else "",
                 "adjusted": ", ".join(st.adjusted)} for st in ss.standings]
        lines = [{"label": sl.line.label, "pairs": _pairs(sl.line), "what": report._what(sl.line),
                  "NS": _d(sl.NS.value), "EW": _d(sl.EW.value), "note": (sl.line.ruling or {}).get("note"),
                  "steps": report.steps(sl, book=ss.book), "rules": report.rules(sl), "citations": sl.citations}
                 for _, sl in report.adjusted_lines(ss)]
        boards = [{"value": f"{k + 1}:{n}", "label": f"Board {n}" + (f" ({ss.session.name})" if len(scored) > 1 else "")}
                  for n in ss.boards if n is not None]
        checks = ss.checks()
        lr = ss.learning
        out.append({"name": ss.session.name, "scoring": ss.session.scoring, "unit": ss.unit,
                    "rulebook": ss.book.identity, "rows": rows, "lines": lines, "warnings": ss.warnings,
                    "default": ss.default.text if ss.default is not None else None,
                    "conventions": ss.conventions.text if ss.conventions is not None else None,
                    "learnt": report.conventions_lines(ss), "published": report.published_lines(ss, 20),
                    "reproduced": lr is None or lr.reproduced,
                    "checked": len(checks), "agree": sum(c.agrees for c in checks), "boards": boards})
    return out


def _pairs(line) -> str:
    """ "(NS 4 v EW 11)" after a line's label when the label names a table, not the pairs."""
    return f"NS {line.ns} v EW {line.ew}" if line.table is not None and line.ns is not None else ""


def board_lines(scored: list, pick: str) -> tuple[Any, list[dict]] | None:
    """The lines of the board picked ("session:board"), each with its score, for the line choice."""
    m = PICK.match(pick or "")
    if not m or not 1 <= int(m[1]) <= len(scored):
        return None
    ss = scored[int(m[1]) - 1]
    sb = ss.boards.get(int(m[2]))
    if sb is None:
        return None
    rows = [{"index": i, "label": sl.line.label, "pairs": _pairs(sl.line), "what": report._what(sl.line),
             "NS": _d(sl.NS.value), "EW": _d(sl.EW.value), "ruled": bool(sl.line.ruling)}
            for i, sl in enumerate(sb.lines)]
    return sb, rows


def ruling_entry(f: CaseForm, line, session: int | None, note: str) -> tuple[dict[str, Any], dict]:
    """The ruling the fields give for `line`, as an entry of a rulings file, and where each list
    entry came from (the case form's row map, for errors)."""
    model, rowmap = f.model()
    entry: dict[str, Any] = {"board": line.board}
    if session is not None:
        entry["session"] = session
    if line.section:
        entry["section"] = line.section
    if line.table is not None:
        entry["table"] = line.table
    else:
        entry.update({k: v for k, v in (("ns", line.ns), ("ew", line.ew)) if v is not None})
    if f.kind == "assigned":
        entry["adjusted"] = model.get("without_infraction")
        if entry["adjusted"] is None:
            raise MissingRuling("b_result" if f.b_mode == "one" else "wi", "the result without the infraction is "
                                "needed for an assigned score", "one result such as 4S= N, or results with weights")
        if f.non_offending in ("NS", "EW"):
            entry["non_offending"] = f.non_offending
    elif f.kind == "artificial":
        entry["artificial"] = {"NS": f.art_ns, "EW": f.art_ew}
    if f.pen_player in ("NS", "EW"):
        entry["penalty"] = {f.pen_player: f.pen_amount or None}
    elif f.kind == "penalty":
        raise MissingRuling("pen_player", "a penalty needs the side it is on", "North-South or East-West")
    if note:
        entry["note"] = note
    return entry, rowmap


class MissingRuling(BridgelawError):
    """A field the ruling of a line needs, left empty (said beside the field)."""

    def __init__(self, field: str, message: str, expected: str) -> None:
        super().__init__(message, expected=expected)
        self.field = field


# a rulings entry's keys → the case form's (for the error beside its field)
_AS_CASE = {"adjusted": ("without_infraction",), "artificial": ("artificial",), "non_offending": ("non_offending",),
            "note": ("notes",)}


def entry_errors(exc: BridgelawError, f: CaseForm, rowmap: dict, index: int, text: str) -> dict[str, dict] | None:
    """An error in the entry just written (the rulings `text`), beside the field it is about (None
    for another entry's)."""
    path = tuple(error_path(text, exc) or ())
    if path[:2] != ("rulings", index):
        # an error placed at the entry itself (its "- " in the file: a bound found when scoring the line)
        if exc.line is None or exc.line != load_yaml("rulings.yaml", text=text).position(["rulings", index])[0]:
            return None
        path = ("rulings", index)
    rest = path[2:]
    if not rest and f.pen_player and "penalty" in exc.message:
        rest = ("penalty", f.pen_player)
    if rest[:1] == ("penalty",):
        case_path: tuple | None = ("penalty", "amount") if len(rest) > 1 else ("penalty",)
    elif rest[:1] and rest[0] in _AS_CASE:
        case_path = _AS_CASE[rest[0]] + tuple(rest[1:])
    else:
        case_path = None
    name = "note" if rest[:1] == ("note",) else field_for_path(case_path, f, rowmap) if case_path else "general"
    message = re.sub(r"^ruling \d+(, [\w ]+?)*: ", "", exc.message)
    message = friendly(message, beside_field=name != "general")
    return {name: {"message": message, "expected": exc.expected, "suggestion": exc.suggestion}}


def _rulings_tree(text: str) -> dict[str, Any]:
    if not text.strip():
        return {}
    tree = load_yaml("rulings.yaml", text=text).tree
    return tree if isinstance(tree, dict) else {}


def _with_entry(text: str, entry: dict[str, Any]) -> tuple[str, int]:
    """The rulings text with `entry` added (replacing a ruling of the same line), and its index."""
    tree = _rulings_tree(text)
    rulings = [r for r in tree.get("rulings") or [] if not _same_line(r, entry)]
    if len(rulings) >= MAX_RULINGS:
        raise BridgelawError(f"{len(rulings)} rulings", expected=f"at most {MAX_RULINGS} on this page")
    rulings.append(entry)
    tree["rulings"] = rulings
    return written(tree), len(rulings) - 1


def _same_line(r: Any, entry: dict[str, Any]) -> bool:
    keys = ("board", "session", "section", "table", "ns", "ew")
    return isinstance(r, dict) and all(str(r.get(k)) == str(entry.get(k)) for k in keys)


def written(tree: dict[str, Any]) -> str:
    return dump_yaml(tree, header="bridgelaw rulings, written by the event page\n"
                                  "apply them again with: bridgelaw event RESULTS-FILE --rulings THIS-FILE.yaml")


def _without(text: str, index: int) -> str:
    tree = _rulings_tree(text)
    rulings = list(tree.get("rulings") or [])
    if 0 <= index < len(rulings):
        del rulings[index]
    tree["rulings"] = rulings
    return written(tree)


def _listed(text: str) -> list[dict[str, str]]:
    """The rulings written so far, one line each, for the list with its Remove buttons."""
    try:
        tree = _rulings_tree(text)
    except BridgelawError:
        return []
    out = []
    for r in tree.get("rulings") or []:
        if not isinstance(r, dict):
            continue
        where = ", ".join([f"board {r.get('board')}"] + [f"{k} {r[k]}" for k in ("session", "section", "table")
                                                         if k in r])
        if "ns" in r or "ew" in r:
            where += f", NS {r.get('ns', '?')} v EW {r.get('ew', '?')}"
        what = []
        if "adjusted" in r:
            what.append("assigned " + _flat(r["adjusted"]) + (f" (non-offending {r['non_offending']})"
                                                             if r.get("non_offending") else ""))
        if "artificial" in r:
            what.append("artificial " + _flat(r["artificial"]))
        if r.get("not_played"):
            what.append("not played")
        if "penalty" in r:
            what.append("procedural penalty " + _flat(r["penalty"]))
        if r.get("note"):
            what.append(f"note: {r['note']}")
        out.append({"where": where, "what": "; ".join(what)})
    return out


def _flat(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {_flat(x)}" for k, x in v.items() if k in ("NS", "EW", "player", "amount"))
    if isinstance(v, list):
        return " + ".join(f"{x.get('weight')} {x.get('result')}" if isinstance(x, dict) else _flat(x) for x in v)
    return str(v)


async def handle(request: Request, page, books) -> Response:
    if request.method == "GET":
        return page(request, "event.html", form={}, options=options(), rform=CaseForm(kind="assigned", b_mode="weighted"))
    try:
        data = await request.form(max_files=2, max_fields=160, max_part_size=MAX_BYTES)
    except Exception:
        return page(request, "event.html", 400, form={}, options=options(), rform=CaseForm(),
                    problem="The form could not be read; choose the files again.")
    form = {k: data.get(k) if isinstance(data.get(k), str) else "" for k in (
        *STATE, "download", "event_text", "pick", "line", "action", "note", "rescore_all")}
    rform, action = CaseForm.from_form(data)
    if "b_mode" not in data:
        rform.b_mode = "weighted"                   # a line's ruling is most often a weighted score
    rform.kind = data.get("kind") if data.get("kind") in EVENT_KINDS else "assigned"    # the case form's, and penalty
    if rform.b_mode not in EVENT_B_MODES:
        rform.b_mode = "one"
    if form["scoring"] not in METHODS:
        form["scoring"] = ""
    if form["profile"] not in ("", "none", *profiles.profiles()):
        form["profile"] = ""
    settings = [s.strip() for s in form["settings"].splitlines() if s.strip()]

    def again(code: int = 200, **context: Any) -> Response:
        context.setdefault("listed", _listed(form["rulings"]))
        return page(request, "event.html", code, form=form, options=options(), rform=rform, **context)

    upload = data.get("event_file")
    try:
        if isinstance(upload, UploadFile) and upload.filename:
            raw = await upload.read()
            name = safe_name(upload.filename, "event.pbn")
        elif form["event_z"]:
            raw, name = unpack(form["event_z"]), safe_name(form["event_name"], "event.pbn")
        elif form["event_text"]:
            latin = form["event_name"].endswith(".latin1")
            raw = form["event_text"].encode("latin-1", "replace") if latin else form["event_text"].encode("utf-8")
            name = safe_name(form["event_name"].removesuffix(".latin1"), "event.pbn")
        else:
            return again(400, problem="Choose a results file (.pbn or USEBIO .xml).")
    except BridgelawError as exc:
        return again(400, problem=str(exc))
    form["event_z"], form["event_name"] = pack(raw), name
    rulings_upload = data.get("rulings_file")
    if isinstance(rulings_upload, UploadFile) and rulings_upload.filename:
        form["rulings"] = (await rulings_upload.read()).decode("utf-8", "replace")
    form["rulebook"] = books.canonical(form["rulebook"]) or ""      # "": the calendar's, for the file
    m = re.fullmatch(r"remove-ruling-(\d{1,3})", action)
    if m:
        try:
            form["rulings"] = _without(form["rulings"], int(m[1]))
        except BridgelawError as exc:
            return again(422, problem=str(exc))
    event = scored = None
    entry_index, rowmap = None, {}
    try:
        if form["rulings"].strip():
            tree = _rulings_tree(form["rulings"])
            named = tree.get("rulebook")
            if named is not None and books.canonical(str(named)) is None:
                raise BridgelawError(f"rulings.yaml: unknown rulebook '{str(named)[:60]}'",
                                     expected="one of " + ", ".join(books.ids()))
            if named:
                form["rulebook"] = books.canonical(str(named))
        if len(settings) > MAX_SETTINGS:
            raise BridgelawError(f"{len(settings)} settings", expected=f"at most {MAX_SETTINGS}, one PARAM=VALUE a line")
        before_text = form["rulings"]
        if action == "apply":
            picked = _picked(load_event(name, form["scoring"] or None, text=raw), form)
            if picked is None:
                scored = _scored(name, raw, form, settings, books)
                return again(422, errors={"line": {"message": "Choose one of the board's lines to rule.",
                                                   "expected": None, "suggestion": None}}, **_shown(scored, form, books))
            line, session = picked
            entry, rowmap = ruling_entry(rform, line, session, form["note"].strip())
            form["rulings"], entry_index = _with_entry(form["rulings"], entry)
        else:
            rform.apply(action)                     # a row added to or removed from a weighted list
        scored = _scored(name, raw, form, settings, books)
    except BridgelawError as exc:
        if entry_index is not None:
            errors = entry_errors(exc, rform, rowmap, entry_index, form["rulings"])
            if errors is not None:
                form["rulings"] = before_text               # the entry is not kept: nothing half-applied
                try:
                    scored = _scored(name, raw, form, settings, books)
                except BridgelawError:
                    scored = None
                return again(422, errors=errors, **_shown(scored, form, books))
        if entry_index is None and isinstance(exc, MissingRuling):
            scored = _scored(name, raw, form, settings, books)
            return again(422, errors={exc.field: {"message": exc.message, "expected": exc.expected, "suggestion": None}},
                         **_shown(scored, form, books))
        if exc.expected == NEEDED:                   # no rulebook, and none by default: the page's own words
            return again(422, problem=f"{exc.message}. Choose the rulebook under “Rulebook” below and score the "
                                      "event again.")
        return again(422, problem=str(exc))
    if form["download"] in ("pbn", "xml"):
        event = load_event(name, form["scoring"] or None, text=raw)
        scored = _scored(name, raw, form, settings, books, event=event)
        stem = name.rsplit(".", 1)[0]
        try:
            # as `bridgelaw event --output`: no file contradicting the one uploaded unless the box is ticked
            refuse_unreproduced(event, scored, form["rescore_all"] == "yes")
            ((_, text, encoding),) = outputs(event, scored, [f"{stem}-corrected.{form['download']}"], name)
        except BridgelawError as exc:
            return again(422, problem=str(exc), **_shown(scored, form, books))
        media = "application/xml" if form["download"] == "xml" else "text/plain"
        return Response(text.encode(encoding), media_type=f"{media}; charset={encoding}", headers={
            "Content-Disposition": f'attachment; filename="{stem}-corrected.{form["download"]}"'})
    if form["download"] == "rulings":
        stem = name.rsplit(".", 1)[0]
        return Response(form["rulings"].encode("utf-8"), media_type="application/yaml; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{stem}-rulings.yaml"'})
    if action == "apply":
        rform = CaseForm(kind="assigned", b_mode="weighted")       # the ruling is applied: a fresh form
        form["note"] = ""
    return again(**_shown(scored, form, books))


def _picked(event, form: dict[str, str]) -> tuple[Any, int | None] | None:
    m = PICK.match(form["pick"] or "")
    if not m or not form["line"].isascii() or not form["line"].isdigit():
        return None
    k, number, index = int(m[1]), int(m[2]), int(form["line"])
    if not 1 <= k <= len(event.sessions):
        return None
    board = event.sessions[k - 1].boards.get(number)
    if board is None or index >= len(board.lines):
        return None
    return board.lines[index], (k if len(event.sessions) > 1 else None)


def _scored(name: str, raw: bytes, form: dict[str, str], settings: list[str], books, event=None) -> list:
    event = event or load_event(name, form["scoring"] or None, text=raw)
    rulebook = str(books.path(form["rulebook"])) if form["rulebook"] else None
    return run(event, "rulings.yaml" if form["rulings"].strip() else None, rulebook, settings,
               rulings_text=form["rulings"], profile=form["profile"] or None,
               overlay_text=form["overlay"] if form["overlay"].strip() else None)


def _shown(scored: list | None, form: dict[str, str], books) -> dict[str, Any]:
    """What the page shows of a scored event: its sessions, the board picked, and — with rulings —
    every score and place they change (the event scored again without them)."""
    if scored is None:
        return {}
    out: dict[str, Any] = {"sessions": view(scored)}
    picked = board_lines(scored, form["pick"])
    if picked is not None:
        out["board"] = picked[1]
    if _listed(form["rulings"]):
        without = dict(form, rulings="")
        plain = _scored(form["event_name"], unpack(form["event_z"]), without, [s.strip() for s in
                        form["settings"].splitlines() if s.strip()], books)
        out["changes"] = changing.changes(plain, scored)
    return out
