"""The traveller page and ``POST /api/score``: one board's traveller (YAML, or PBN with an
adjustments YAML) rescored with :mod:`bridgelaw.field.traveller` and :mod:`bridgelaw.field.score`, shown as
``bridgelaw score`` shows it (each adjusted table's steps and laws from its trace).

Safety: a traveller from a request never makes the server read a file. A ``pbn:`` key (which
names a PBN file on disk) is refused — the PBN is pasted or uploaded instead; a ``rulebook:`` or
a chosen rulebook must be one of the server's rulebook ids, and the engine is handed that
rulebook's file from the server's rules directory. Posted text is parsed in memory — nothing is
written to disk — and a file name from the form or an upload is reduced to a safe base name used
only in messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..core.errors import BridgelawError, InvalidValue
from ..core.exact import format_decimal, format_mixed
from ..core.numbers import whole_number
from ..core.yamlio import load_yaml
from . import forms
from .service import safe_name

try:
    from ..core.vocab import METHODS as SCORINGS
    from ..field.traveller import load_results_traveller, load_traveller, score_traveller
    from ..render import traveller as traveller_cli
except ImportError:                           # the traveller scorer is not in this installation
    traveller_cli = None                      # type: ignore[assignment]
    SCORINGS = ()

SCORING_WORDS = {"": "as the traveller says", "matchpoints": "matchpoints", "cross-imps": "cross-IMPs",
                 "butler": "butler IMPs"}
MAX_TEXT = 200 * 1024


def available() -> bool:
    return traveller_cli is not None


class FormProblem(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")          # PBN 2.1's own encoding


@dataclass
class TravellerForm:
    traveller: str = ""
    adjustments: str = ""
    name: str = ""
    adjustments_name: str = "adjustments.yaml"
    rulebook: str = ""
    scoring: str = ""
    board: str = ""

    @classmethod
    async def from_form(cls, data: Any) -> "TravellerForm":
        def s(key: str) -> str:
            value = data.get(key, "")
            return value.strip() if isinstance(value, str) else ""
        f = cls(traveller=s("traveller"), adjustments=s("adjustments"), rulebook=s("rulebook"),
                scoring=s("scoring") if s("scoring") in SCORINGS else "", board=s("board"),
                name=safe_name(s("name"), ""))
        upload = data.get("traveller_file")
        if isinstance(upload, UploadFile) and upload.filename:
            f.traveller = _decode(await upload.read())
            f.name = safe_name(upload.filename, "traveller.yaml")
        upload = data.get("adjustments_file")
        if isinstance(upload, UploadFile) and upload.filename:
            f.adjustments = _decode(await upload.read())
            f.adjustments_name = safe_name(upload.filename, "adjustments.yaml")
        if not f.name or not f.name.lower().endswith((".pbn", ".yaml", ".yml")):
            f.name = "traveller.pbn" if looks_like_pbn(f.traveller) else "traveller.yaml"
        return f

    @property
    def pbn(self) -> bool:
        return self.name.lower().endswith(".pbn")


def looks_like_pbn(text: str) -> bool:
    head = text.lstrip()[:2000]
    return head.startswith(("%", "[")) or '[ScoreTable "' in head or '[Board "' in head


def _checked_yaml(text: str, name: str, books: Any, field: str, *, pbn_allowed: bool) -> dict:
    doc = load_yaml(name, text=text)
    too_long = forms.check_list_lengths(doc.tree)
    if too_long:
        path, n, limit = too_long
        raise doc.error(list(path), f"{'.'.join(map(str, path))} lists {n} entries; at most {limit} are accepted here")
    for i, table in enumerate(doc.tree.get("tables") or []):
        adjusted = table.get("adjusted") if isinstance(table, dict) else None
        lists = [adjusted] if isinstance(adjusted, list) else list(adjusted.values()) if isinstance(adjusted, dict) else []
        for weighted in lists:
            if isinstance(weighted, list) and len(weighted) > forms.MAX_ROWS:
                raise doc.error(["tables", i, "adjusted"], f"table {table.get('table', i + 1)}'s adjusted score lists "
                                f"{len(weighted)} outcomes; at most {forms.MAX_ROWS} are accepted here")
    if "pbn" in doc.tree and not pbn_allowed:
        raise doc.error(["pbn"], "this file names a PBN file (pbn:); the web page does not read files from the server",
                        key=True, suggestion="paste or upload the PBN as the traveller and this file as its adjustments")
    name_ = doc.tree.get("rulebook")
    if name_ is not None and name_ not in books.ids():
        raise doc.error(["rulebook"], f"unknown rulebook '{name_}'", expected="one of " + ", ".join(books.ids()),
                        suggestion=forms_did_you_mean(str(name_), books.ids()))
    return doc.tree


def forms_did_you_mean(word: str, choices: list[str]) -> str | None:
    from ..core.errors import did_you_mean
    return did_you_mean(word, choices)


def _rulebook_path(books: Any, chosen: str, tree: dict | None) -> str | None:
    """The file of the chosen (or the traveller's) rulebook in the server's rules directory."""
    name = chosen or (tree or {}).get("rulebook")
    if not name:
        return None
    if name not in books.ids():
        raise FormProblem("rulebook", f"Unknown rulebook '{name}'; choose one of {', '.join(books.ids())}.")
    return str(books.path(name))


def score(f: TravellerForm, books: Any):
    """The scored board (traveller.ScoredBoard), or a FormProblem / BridgelawError."""
    if not available():
        raise FormProblem("traveller", "Traveller scoring is not available in this installation.")
    if not f.traveller.strip():
        raise FormProblem("traveller", "Paste a traveller (YAML or PBN) or choose a file.")
    if len(f.traveller) > MAX_TEXT or len(f.adjustments) > MAX_TEXT:
        raise FormProblem("traveller", f"The traveller is larger than {MAX_TEXT // 1024} KiB.")
    try:
        board = whole_number(f.board, what="board number", high=9999) if f.board else None
    except InvalidValue:
        raise FormProblem("board", "The board number is a whole number such as 9.") from None
    scoring = f.scoring or None
    if not f.pbn:
        if f.adjustments.strip():
            raise FormProblem("adjustments", "Adjustments go with a PBN traveller; a YAML traveller lists its "
                                             "adjusted scores itself.")
        tree = _checked_yaml(f.traveller, f.name, books, "traveller", pbn_allowed=False)
        return score_traveller(load_traveller(f.name, rulebook=_rulebook_path(books, f.rulebook, tree),
                                              scoring=scoring, text=f.traveller))
    tree = None
    if f.adjustments.strip():
        tree = _checked_yaml(f.adjustments, f.adjustments_name, books, "adjustments", pbn_allowed=True)
    rulebook = _rulebook_path(books, f.rulebook, tree)
    # Parsed from the posted text in memory: a name from the request never becomes a path.
    trav = load_results_traveller(f.name, text=f.traveller, board=board, rulebook=rulebook, scoring=scoring,
                                  adjustments=f.adjustments_name if tree is not None else None,
                                  adjustments_text=f.adjustments if tree is not None else None)
    return score_traveller(trav)


def field_for(exc: BridgelawError, f: TravellerForm) -> str:
    if exc.file == f.adjustments_name and f.pbn and f.adjustments.strip():
        return "adjustments"
    return "traveller"


# --- the page --------------------------------------------------------------------------------

def _exact(value: dict | None, unit: str) -> str:
    if value is None:
        return "—"
    x = Fraction(value["exact"])
    text = format_mixed(x, signed=unit == "IMP")
    if x.denominator != 1:
        text += f" ({format_decimal(x, signed=unit == 'IMP')})"
    return text


def view(board: Any) -> dict[str, Any]:
    """What the traveller template shows, from the CLI's JSON of the scored board."""
    data = traveller_cli.as_dict(board)
    unit = data["unit"]
    rows = []
    for t in data["tables"]:
        if t.get("adjusted"):
            sides = t["adjusted"]
            same = sides["NS"] == sides["EW"]
            what = "; ".join(
                (f"{side}: " if not same else "") + ", ".join(
                    p["result"] + ("" if len(sides[side]) == 1 else f" × {format_mixed(Fraction(p['weight']))}")
                    + ("" if p["legal"] else " (not legal)") for p in sides[side])
                for side in (("NS",) if same else ("NS", "EW")))
            what = "adjusted: " + what + (f" (played {t['result']})" if t.get("result") else "")
        elif t.get("artificial"):
            what = "artificial: " + ", ".join(f"{side} {a['label']}" for side, a in t["artificial"].items())
        else:
            what = t["result"] or "—"
        cells = {}
        for side in ("NS", "EW"):
            s = t[side]
            pct = s.get("percent")
            cells[side] = _exact(s["score"], unit) + (f" = {format_decimal(Fraction(pct['exact']))}%"
                                                      if pct and unit != "IMP" else "")
        rows.append({"table": t["table"], "ns_pair": t["ns_pair"], "ew_pair": t["ew_pair"], "what": what,
                     "ns_points": t["ns_points"], "NS": cells["NS"], "EW": cells["EW"],
                     "adjusted": t["kind"] != "result",
                     "steps": (t["NS"]["steps"] + t["EW"]["steps"]
                               + ([f"Law: {', '.join(t['citations'])}"] if t.get("citations") else []))
                     if t["kind"] != "result" else []})
    return {"title": data["title"], "board": data["board"], "scoring": data["scoring"], "unit": unit,
            "top": _exact(data["top"], "MP") if data["top"] else None, "rulebook": data["rulebook"],
            "rows": rows, "warnings": data["warnings"], "published": data["published"],
            "text": traveller_cli.text(board), "results": data["results"]}


# --- POST /api/score -------------------------------------------------------------------------

async def api_score(request: Request, books: Any, work: Any) -> Response:
    """The body: a YAML traveller, or JSON {"traveller": text, "adjustments": text?, "format":
    "yaml"|"pbn"?, "rulebook"?, "scoring"?, "board"?}. The answer: `bridgelaw score --format json`.
    The work is done by `work` (the app's thread pool, off the event loop)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = await request.body()
    return await work(_api_score, kind, body, request.query_params.get("rulebook", ""), books)


def _api_score(kind: str, body: bytes, query_rulebook: str, books: Any) -> Response:
    if not body.strip():
        return _problem(400, "the request has no body; send a traveller (YAML or PBN) or JSON {\"traveller\": …}")
    try:
        raw = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _problem(400, "the request body is not UTF-8 text")
    f = TravellerForm()
    if kind in ("application/json", "text/json"):
        from .jsonbody import ApiProblem, load_json
        try:
            data = load_json(raw)
        except ApiProblem as exc:
            return _problem(exc.status, exc.message, expected=exc.expected)
        if not isinstance(data, dict) or not isinstance(data.get("traveller"), str):
            return _problem(400, 'expected a JSON object with "traveller": the traveller text (YAML or PBN)')
        for key in ("adjustments", "rulebook", "scoring", "format"):
            if key in data and not isinstance(data[key], str):
                return _problem(400, f"{key} must be text")
        if "board" in data and not (isinstance(data["board"], int) and not isinstance(data["board"], bool)):
            return _problem(400, "board must be a whole number")
        f.traveller, f.adjustments = data["traveller"], data.get("adjustments", "")
        f.rulebook = data.get("rulebook", "")
        f.scoring = data.get("scoring", "")
        if f.scoring and f.scoring not in SCORINGS:
            return _problem(422, f"unknown scoring '{f.scoring}'", expected=", ".join(SCORINGS))
        f.board = str(data["board"]) if "board" in data else ""
        fmt = data.get("format") or ("pbn" if looks_like_pbn(f.traveller) else "yaml")
        if fmt not in ("yaml", "pbn"):
            return _problem(400, f"format must be yaml or pbn, not '{fmt}'")
        f.name = f"request.{fmt}"
    elif kind in ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain",
                  "application/x-pbn", "text/x-pbn", ""):
        f.traveller = raw
        f.name = "request.pbn" if kind.endswith("pbn") or looks_like_pbn(raw) else "request.yaml"
    else:
        return _problem(415, f"unsupported content type '{kind}'", expected="application/json or application/yaml")
    f.adjustments_name = "adjustments.yaml"
    f.rulebook = f.rulebook or query_rulebook
    try:
        scored = score(f, books)
    except FormProblem as exc:
        return _problem(400 if exc.field in ("traveller", "board") else 422, exc.message)
    except BridgelawError as exc:
        data = exc.to_json()
        malformed = exc.message.startswith(("malformed YAML", "expected a mapping"))
        return JSONResponse(data, status_code=400 if malformed else 422)
    return Response(traveller_cli.as_json(scored), media_type="application/json")


def _problem(status: int, message: str, *, expected: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "file": None, "line": None, "column": None, "expected": expected,
                         "suggestion": None}, status_code=status)
