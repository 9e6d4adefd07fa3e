"""The JSON API: ``GET /api/rulebooks``, ``POST /api/rule``, ``POST /api/compare`` (and
``POST /api/score``, in :mod:`bridgelaw.web.field_pages`). A case is sent as case YAML or as a
JSON object with the keys of a case file (optionally wrapped: ``{"case": …, "rulebook": …,
"rulebooks": […]}``); the answer is ``bridgelaw rule --format json`` (or ``compare``'s).

Every bound is checked before any work: the body's size (:class:`bridgelaw.web.guard.Guard`),
the JSON's nesting, entries and values (:func:`bridgelaw.web.jsonbody.load_json`) and the case's
lists (``forms.check_list_lengths``) — before the case is written as YAML or ruled; then the work
runs in the app's pool under its time limit, as every route's does.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..core.errors import BridgelawError
from ..core.limits import LimitError
from ..core.yamlio import Document
from ..render import ruling as render
from . import forms, service
from .answers import api_error
from .jsonbody import MAX_JSON_DEPTH, ApiProblem, load_json, plain_tree
from .site import Site, site_of

YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain", "")


class SentCase:
    """The case of an API request: its YAML text, or for a JSON case its tree (YAML text is
    written from the tree only when asked for — ruamel's writer is slow), and the wrapper."""

    __slots__ = ("source", "wrapper", "tree", "_text")

    def __init__(self, source: str, wrapper: dict, text: str | None = None, *, tree: dict | None = None) -> None:
        self.source, self.wrapper, self.tree, self._text = source, wrapper, tree, text

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = forms.dump_yaml(self.tree or {})
        return self._text

    def check_lists(self) -> None:
        """A JSON case's lists against their bounds, before its YAML is written (the YAML way
        checks them after reading)."""
        too_long = forms.check_list_lengths(self.tree) if self.tree is not None else None
        if too_long:
            path, length, limit = too_long
            raise BridgelawError(f"{'.'.join(map(str, path))} lists {length} entries; at most {limit} are accepted "
                                 "here", file="request", expected=f"at most {limit} entries", path=path)


async def api_rulebooks(request: Request) -> Response:
    site = site_of(request)
    return await site.work(lambda: JSONResponse(site.books.listing()))


async def api_rule(request: Request) -> Response:
    site = site_of(request)
    kind, body = await api_body(request)
    return await site.work(api_rule_work, site, request, kind, body)


def api_rule_work(site: Site, request: Request, kind: str, body: bytes) -> Response:
    sent = api_case(kind, body)
    override = request.query_params.get("rulebook") or sent.wrapper.get("rulebook")
    if override is not None and not isinstance(override, str):
        return api_error(400, "rulebook must be a rulebook id (text)")
    try:
        sent.check_lists()
        case, ruling = rule_sent(site, sent, override)
    except BridgelawError as exc:
        return api_bridgelaw_error(exc, sent)
    return Response(render.as_json_bytes(ruling, case), media_type="application/json")


def rule_sent(site: Site, sent: SentCase, override: str | None) -> tuple[Any, Any]:
    """The case and ruling of an API request. A JSON case is ruled from its tree when it is
    plain what YAML written from it would read back as (:func:`plain_tree`) — writing that
    YAML and reading it again took 2 ms of a request; anything else, and any error in the case, goes
    the YAML way, so every answer and every error is the same either way (a bug is not hidden
    by trying again: it is a 500 as anywhere else)."""
    tree = plain_tree(sent.tree) if sent.tree is not None else None
    if tree is not None:
        try:
            return service.rule_document(Document(file="request", tree=tree, text=""), site.books, override)
        except BridgelawError:            # the YAML way below reports it, with its place
            pass
    return service.rule_text(sent.text, "request", site.books, override)


async def api_compare(request: Request) -> Response:
    site = site_of(request)
    kind, body = await api_body(request)
    return await site.work(api_compare_work, site, request, kind, body)


def api_compare_work(site: Site, request: Request, kind: str, body: bytes) -> Response:
    books = site.books
    sent = api_case(kind, body)
    ids = sent.wrapper.get("rulebooks")
    if ids is None:
        query = request.query_params.get("rulebooks")
        ids = [i for i in query.split(",") if i] if query else books.ids()
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        return api_error(400, "rulebooks must be a list of rulebook ids", expected='e.g. ["wbf-2007", "wbf-2017"]')
    ids = list(dict.fromkeys(ids))
    try:
        sent.check_lists()
        for name in ids:
            if name not in books.ids():
                raise BridgelawError(f"unknown rulebook '{name}'", expected="one of " + ", ".join(books.ids()),
                                     suggestion=service.did_you_mean(name, books.ids()))
        if not ids:
            return api_error(400, "rulebooks names no rulebook", expected='e.g. ["wbf-2007", "wbf-2017"]')
        data = service.compare_cli_json(sent.text, books, ids)
    except BridgelawError as exc:
        return api_bridgelaw_error(exc, sent)
    return Response(data, media_type="application/json")


async def api_body(request: Request) -> tuple[str, bytes]:
    """The content type and the body of an API request."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower(), await request.body()


def api_case(kind: str, body: bytes) -> SentCase:
    """The case of an API request (JSON object or YAML text), its kind, and the wrapper
    (``{"case": …, "rulebook": …, "rulebooks": […]}``) when one was sent."""
    if not body.strip():
        raise ApiProblem(400, "the request has no body; send the case as JSON or YAML",
                         expected="a JSON object with the keys of a case file, or case YAML")
    try:
        raw = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiProblem(400, "the request body is not UTF-8 text") from None
    if kind in ("application/json", "text/json") or (not kind and raw.lstrip().startswith("{")):
        data = load_json(raw)
        if not isinstance(data, dict):
            raise ApiProblem(400, "expected a JSON object (the case, or {\"case\": …})",
                             expected="a JSON object with the keys of a case file")
        wrapper: dict = {}
        if "case" in data and set(data) <= {"case", "rulebook", "rulebooks"}:
            wrapper, data = data, data["case"]
        if isinstance(data, str):
            return SentCase("yaml", wrapper, data)
        if not isinstance(data, dict):
            raise ApiProblem(400, "case must be a JSON object or case YAML text")
        return SentCase("json", wrapper, tree=data)
    if kind in YAML_TYPES:
        return SentCase("yaml", {}, raw)
    raise ApiProblem(415, f"unsupported content type '{kind}'", expected="application/json or application/yaml")


def api_bridgelaw_error(exc: BridgelawError, sent: SentCase) -> Response:
    data = exc.to_json()
    path = error_path(sent, exc)
    data["path"] = ".".join(map(str, path)) if path else None
    if sent.source == "json":             # positions would point into YAML the client never saw
        data["line"] = data["column"] = None
        data["file"] = "request"
    malformed = exc.message.startswith(("malformed YAML", "expected a mapping"))
    return JSONResponse(data, status_code=400 if malformed else 422)


def error_path(sent: SentCase, exc: BridgelawError) -> tuple | None:
    """The key path an error points at: its own, else found from its line and column in the
    case's YAML (forms.error_path) — never for an error over a bound (re-reading the text is the
    work the bound refused) or text nested too deeply to walk quickly."""
    if exc.path is not None:
        return tuple(exc.path) or None
    if exc.line is None or isinstance(exc, LimitError) or nesting(sent.text) > MAX_JSON_DEPTH:
        return None
    try:
        return forms.error_path(sent.text, exc)
    except RecursionError:
        return None


_BRACKETS = re.compile(r"[^\[\]{}]+")
_INDENT = re.compile(r"^[ \t-]*", re.M)


def nesting(text: str) -> int:
    """An upper estimate of how deeply YAML text nests: open brackets, or indentation in steps
    of two (quotes are not followed, so brackets inside strings count too)."""
    depth = deepest = 0
    for c in _BRACKETS.sub("", text):
        depth += 1 if c in "[{" else -1
        deepest = max(deepest, depth)
    indent = max((len(m) for m in _INDENT.findall(text)), default=0)
    return max(deepest, indent // 2)
