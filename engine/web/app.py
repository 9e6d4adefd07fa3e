"""The web server: server-rendered pages for tournament directors and a JSON API.

    GET  /                 the ruling form        POST /            rule it (or add/remove a row)
    POST /upload           open a case file       POST /case.yaml   download the form as a case file
    POST /slip             the printable slip     GET|POST /compare the case under several rulebooks
    GET|POST /traveller    rescore a traveller
    GET  /api/rulebooks    POST /api/rule   POST /api/compare   POST /api/score

Safety: bodies are limited to :data:`MAX_BODY` bytes (413 past it), weighted lists and fields
in length; rulebooks come only from the rules directory; nothing from a request is evaluated;
every response carries a restrictive Content-Security-Policy (no scripts at all); bad input is a
400/413/415/422 with a message a person can act on; any other failure is a 500 that says so
without a stack trace (the trace goes to the server's log). A post from another site (a browser's
``Sec-Fetch-Site`` or ``Origin`` naming another origin) is refused with a 403, so a page the TD
visits cannot submit forms here; clients that send neither header, such as curl, keep working.

Availability: the work of a request (parsing, ruling, rendering) runs in a small pool of threads
(:class:`Work`), off the event loop, so reading and answering other connections goes on; a
request not answered within its time limit gets a 503 (its work, already bounded by the input
limits, finishes in its thread; the pool's size bounds how much such work there is). Requests
must name this server in their Host header (:class:`Guard`): the loopback names, the names given
with ``serve --allow-host``, and with a non-local bind any IP address — never an arbitrary DNS
name, which is what DNS rebinding would send. The slow-client and per-client guards are in
:mod:`bridgelaw.web.server`.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import datetime as dt
import ipaddress
import logging
import queue
import re
import threading
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from .. import __version__
from ..core import limits
from ..render import ruling as render
from ..core.errors import BridgelawError
from ..core.yamlio import Document, load_yaml
from . import forms, service
from .jsonbody import MAX_JSON_DEPTH, ApiProblem, load_json
from .settings import TIME_LIMIT                   # seconds of work a request may take (serve --time-limit)
from .forms import CaseForm

log = logging.getLogger("bridgelaw.web")

HERE = Path(__file__).resolve().parent
MAX_BODY = 256 * 1024
CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),     # "no-referrer" would make browsers post Origin: null
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
WORK_SLOTS = 4                                # requests worked on at once in one server process

FIELD_LABELS = {**forms.LABELS, "traveller": "Traveller", "adjustments": "Adjustments"}


class TooLarge(Exception):
    pass


def _too_large_message(limit: int) -> str:
    return (f"The request is larger than {limit // 1024} KiB, the most this server accepts. A case file is a "
            "few kilobytes; split a very large traveller into boards.")


class Guard:
    """ASGI wrapper around the whole app: security headers on every response (errors included);
    request bodies limited to `limit` bytes (a longer body raises :class:`TooLarge` while it is
    read, which the app answers with a 413)."""

    def __init__(self, app: Callable, limit: int = MAX_BODY, *, hosts: list[str] | None = None,
                 ip_hosts: bool = False) -> None:
        self.app, self.limit = app, limit
        self.hosts = {h.lower() for h in hosts} if hosts else None
        self.ip_hosts = ip_hosts

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                message = {**message, "headers": list(message.get("headers", []))
                           + [(k, v) for k, v in SECURITY_HEADERS if k not in names]}
            await send(message)

        headers = dict(scope.get("headers", []))
        if self.hosts is not None and not host_allowed(headers.get(b"host", b""), self.hosts, self.ip_hosts):
            await PlainTextResponse("Invalid host header", status_code=400)({"type": "http"}, _no_body,
                                                                              send_with_headers)
            return
        if scope.get("method") not in SAFE_METHODS and cross_site(headers):
            await self._forbid(scope, send_with_headers)
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(scope, send_with_headers)
            return
        received = 0

        async def limited_receive() -> dict:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise TooLarge()
            return message

        await self.app(scope, limited_receive, send_with_headers)

    async def _forbid(self, scope: dict, send: Callable) -> None:
        message = ("This request came from another site and was refused: the page's forms post only from "
                   "the page itself. Open the page at this server's address and submit it there.")
        response = (api_error(403, message) if scope["path"].startswith("/api/")
                    else PlainTextResponse(message, status_code=403))
        await response({"type": "http"}, _no_body, send)

    async def _refuse(self, scope: dict, send: Callable) -> None:
        response = too_large_response(scope["path"], self.limit)
        await response({"type": "http"}, _no_body, send)


SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def host_allowed(host: bytes, names: set[str], ip_hosts: bool) -> bool:
    """Whether a Host header names this server: one of `names` (port ignored), or any IP address
    when `ip_hosts` (a DNS-rebinding page can only send its own DNS name, never an IP address)."""
    text = host.decode("latin-1").strip().lower()
    if text.startswith("["):
        name = text[:text.find("]") + 1] if "]" in text else text
    else:
        name = text.rsplit(":", 1)[0] if text.count(":") == 1 else text
    if name in names or name.strip("[]") in names:
        return True
    if not ip_hosts:
        return False
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class TooSlow(Exception):
    """A request's work did not finish within its time limit."""


class Work:
    """Runs the CPU work of requests off the event loop: in at most `slots` threads of this
    process (work waiting for a thread waits in line), each request answered within `limit`
    seconds or refused with :class:`TooSlow`. Work that was given up keeps its thread until it
    ends (Python cannot stop a thread), so at most `slots` pieces of work run at any time.

    A piece of work goes to the thread that went idle last (a stack, not a queue): under light
    load one thread does nearly everything with its caches warm, the others wait for bursts and
    slow requests — handing work round four threads in turn cost about 0.2 ms of CPU a request."""

    def __init__(self, limit: float = TIME_LIMIT, slots: int = WORK_SLOTS) -> None:
        self.limit, self.slots = limit, slots
        self._threads: list[threading.Thread] = []
        self._idle: list[queue.SimpleQueue] = []        # the inboxes of idle threads, the last idle on top
        self._line: collections.deque = collections.deque()     # work waiting for a thread
        self._lock = threading.Lock()

    async def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        job: concurrent.futures.Future = concurrent.futures.Future()
        self._give((job, fn, args))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(job), self.limit)
        except asyncio.TimeoutError:         # still waiting in line: cancelled; running: let finish
            raise TooSlow() from None

    def _give(self, item: tuple) -> None:
        with self._lock:
            if self._idle:
                self._idle.pop().put(item)
                return
            if len(self._threads) < self.slots:
                # daemon threads: stopping the server does not wait for work it has given up
                thread = threading.Thread(target=self._serve, args=(item,), daemon=True,
                                          name=f"bridgelaw-work-{len(self._threads)}")
                self._threads.append(thread)
                thread.start()
                return
            self._line.append(item)

    def _serve(self, item: tuple | None) -> None:
        inbox: queue.SimpleQueue = queue.SimpleQueue()
        while True:
            if item is None:
                with self._lock:
                    if self._line:
                        item = self._line.popleft()
                    else:
                        self._idle.append(inbox)
                if item is None:
                    item = inbox.get()
            job, fn, args = item
            item = None
            if not job.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as exc:     # noqa: BLE001 — handed to the request, which reports it
                job.set_exception(exc)
            else:
                job.set_result(result)
            job = fn = args = result = None   # nothing of a request is kept while the thread waits


def cross_site(headers: dict[bytes, bytes]) -> bool:
    """Whether a request was sent by a page of another origin. Browsers say so in
    ``Sec-Fetch-Site`` and ``Origin``; a client that sends neither (curl, scripts) is not a browser
    acting for a visited site, so it is let through."""
    site = headers.get(b"sec-fetch-site")
    if site is not None:                      # a current browser: its word decides
        return site not in (b"same-origin", b"none")
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", b"").decode("latin-1").lower()
    if origin == b"null":
        return True
    origin_host = origin.decode("latin-1").lower().split("://", 1)[-1].rstrip("/")
    return origin_host != host


def too_large_response(path: str, limit: int = MAX_BODY) -> Response:
    message = _too_large_message(limit)
    if path.startswith("/api/"):
        return api_error(413, message)
    return PlainTextResponse(message, status_code=413)


async def _no_body() -> dict:
    return {"type": "http.disconnect"}


def create_app(rules_dir: Path | str | None = None, *, allowed_hosts: list[str] | None = None,
               ip_hosts: bool = False, time_limit: float = TIME_LIMIT, slots: int = WORK_SLOTS) -> Guard:
    """The web app; rulebooks from `rules_dir` (default: the shipped rules/). With `allowed_hosts`,
    a request must name one of them in its Host header (or, with `ip_hosts`, an IP address); each
    request's work gets `time_limit` seconds in a pool of `slots` threads."""
    books = service.Books(Path(rules_dir) if rules_dir else None)
    if not books.load():                      # every rulebook checked now: a bad one stops the start
        raise BridgelawError(f"no rulebooks (*.yaml) in {books.directory or service.rulebooks.rules_dir()}",
                             expected="a folder holding rulebook files such as wbf-2017.yaml")
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(
        version=__version__, labels=FIELD_LABELS, forms=forms, max_rows=forms.MAX_ROWS,
        rules_dir=str(books.directory or service.rulebooks.rules_dir()),
    )
    traveller_ok = _traveller_available()
    work = Work(time_limit, slots)

    def page(request: Request, name: str, code: int = 200, **context: Any) -> Response:
        context.setdefault("errors", {})
        context.setdefault("books", books.choices())
        context.setdefault("book_options", {b["id"]: b["label"] for b in context["books"]})
        context.setdefault("traveller_books", {"": "as the traveller says", **context["book_options"]})
        if name == "compare.html":
            context.update(compare_page=True, form_action="/compare")
        context.setdefault("traveller", traveller_ok)
        context["infraction_laws"], context["known_findings"] = books.infractions()
        return templates.TemplateResponse(request, name, context, status_code=code)

    def default_form() -> CaseForm:
        f = CaseForm(rulebook=books.default())
        f.compare = books.ids()
        return f

    # --- the ruling page ----------------------------------------------------------------------

    def ruled(request: Request, f: CaseForm, *, template: str = "rule.html") -> Response:
        text, rowmap = f.to_yaml()
        try:
            case, ruling = service.rule_text(text, "the form", books)
        except BridgelawError as exc:
            return page(request, "rule.html", 422, form=f, errors=form_errors(text, exc, f, rowmap))
        return page(request, template, form=f, r=service.view(ruling, case))

    async def home(request: Request) -> Response:
        if request.method in ("GET", "HEAD"):
            return await work(lambda: page(request, "rule.html", form=default_form()))
        f, action, data = await read_form(request)

        def answer() -> Response:
            if f.apply(action):
                return page(request, "rule.html", form=f)
            return ruled(request, f)
        return await work(answer)

    async def slip(request: Request) -> Response:
        f, _, _ = await read_form(request)
        return await work(lambda: ruled(request, f, template="slip.html"))

    async def download(request: Request) -> Response:
        f, _, _ = await read_form(request)
        now = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        text, _ = f.to_yaml(header=f"bridgelaw case, saved from the web page on {now}\n"
                                   "rule it again with: bridgelaw rule THIS-FILE.yaml, or open it on the web page")
        return Response(text, media_type="application/yaml; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="{case_filename(f)}"'})

    async def upload(request: Request) -> Response:
        try:
            data = await request.form(max_files=1, max_fields=20, max_part_size=MAX_BODY)
        except TooLarge:
            raise
        except Exception:
            return page(request, "rule.html", 400, form=default_form(),
                        errors=general("The upload could not be read; choose a case file (.yaml) and try again."))
        upload_file = data.get("case_file")
        if not isinstance(upload_file, UploadFile) or not upload_file.filename:
            return page(request, "rule.html", 400, form=default_form(),
                        errors=general("Choose a case file (.yaml) to open."))
        name = service.safe_name(upload_file.filename, "case.yaml")
        raw = await upload_file.read()
        return await work(opened, request, name, raw)

    def opened(request: Request, name: str, raw: bytes) -> Response:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return page(request, "rule.html", 400, form=default_form(),
                        errors=general(f"{name} is not a text file in UTF-8; is it a case file (.yaml)?"))
        try:
            doc = load_yaml(name, text=text)
        except BridgelawError as exc:
            return page(request, "rule.html", 400, form=default_form(), errors=general(str(exc)))
        too_long = forms.check_list_lengths(doc.tree)
        if too_long:
            path, n, limit = too_long
            return page(request, "rule.html", 422, form=default_form(),
                        errors=general(f"{name}: {'.'.join(map(str, path))} lists {n} entries; at most {limit} "
                                       "are accepted here"))
        f = CaseForm.from_tree(doc.tree)
        f.compare = books.ids()
        return ruled(request, f)

    # --- compare -------------------------------------------------------------------------------------

    async def compare_page(request: Request) -> Response:
        if request.method in ("GET", "HEAD"):
            return await work(lambda: page(request, "compare.html", form=default_form()))
        f, action, data = await read_form(request)
        return await work(compared, request, f, action, data)

    def compared(request: Request, f: CaseForm, action: str, data: Any) -> Response:
        if not f.compare and action in ("compare", "rule"):
            f.compare = [] if "compare_sent" in data else books.ids()
        if f.apply(action):
            return page(request, "compare.html", form=f)
        unknown = [c for c in f.compare if c not in books.ids()]
        if unknown:
            return page(request, "compare.html", 422, form=f,
                        errors={"compare": {"message": f"Unknown rulebook '{unknown[0]}'",
                                            "expected": "one of " + ", ".join(books.ids()), "suggestion": None}})
        text, rowmap = f.to_yaml()
        try:
            case, columns = service.compare(text, "the form", books, f.compare)
        except BridgelawError as exc:
            errors = form_errors(text, exc, f, rowmap)
            if not f.compare:
                errors = {"compare": {"message": "Choose at least one rulebook to compare.", "expected": None,
                                      "suggestion": None}}
            return page(request, "compare.html", 422, form=f, errors=errors)
        return page(request, "compare.html", form=f, columns=columns, rows=service.compare_rows(columns))

    async def event_route(request: Request) -> Response:      # the event page: engine/web/event.py
        from . import event
        if request.method == "POST":          # the upload is read here, on the event loop; handle() finds it
            try:                              # cached (same limits) and does its work in a thread
                await request.form(max_files=2, max_fields=10, max_part_size=event.MAX_BYTES)
            except TooLarge:
                raise
            except Exception:                 # handle() reports the unreadable form
                pass
        return await work(lambda: asyncio.run(event.handle(request, page, books)))

    # --- traveller -----------------------------------------------------------------------------------

    async def traveller_page(request: Request) -> Response:
        from . import travel
        if request.method in ("GET", "HEAD"):
            return await work(lambda: page(request, "traveller.html", tform=travel.TravellerForm(),
                                           scoring_words=travel.SCORING_WORDS))
        try:
            data = await request.form(max_files=2, max_fields=20, max_part_size=MAX_BODY)
        except TooLarge:
            raise
        except Exception:
            return page(request, "traveller.html", 400, tform=travel.TravellerForm(), scoring_words=travel.SCORING_WORDS,
                        errors={"traveller": _err("The form could not be read; paste the traveller or choose a file.")})
        tform = await travel.TravellerForm.from_form(data)
        return await work(traveller_scored, request, tform, data)

    def traveller_scored(request: Request, tform: Any, data: Any) -> Response:
        from . import travel
        try:
            scored = travel.score(tform, books)
        except travel.FormProblem as exc:
            return page(request, "traveller.html", 400, tform=tform, scoring_words=travel.SCORING_WORDS,
                        errors={exc.field: _err(exc.message)})
        except BridgelawError as exc:
            return page(request, "traveller.html", 422, tform=tform, scoring_words=travel.SCORING_WORDS,
                        errors={travel.field_for(exc, tform): _err(str(exc))})
        if data.get("download") in ("csv", "pbn"):
            return rescored_download(scored, tform, data.get("download"))
        return page(request, "traveller.html", tform=tform, scoring_words=travel.SCORING_WORDS,
                    board=travel.view(scored))

    # --- JSON API ------------------------------------------------------------------------------------

    async def api_rulebooks(request: Request) -> Response:
        return await work(lambda: JSONResponse(books.listing()))

    async def api_rule(request: Request) -> Response:
        """A case ruled in the event loop's own thread, not handed to a work thread: its work is
        bounded by the API's limits (the body, a field of 1,000 results, 20 outcomes a weighting:
        about 25 ms for the largest case accepted, 0.5 ms for a corpus case), and the hand-over
        cost 0.2 ms of CPU — a fifth of such a request. Concurrency comes from --workers."""
        kind, body = await api_body(request)
        return api_rule_work(request, kind, body)

    def api_rule_work(request: Request, kind: str, body: bytes) -> Response:
        sent = api_case(kind, body)
        override = request.query_params.get("rulebook") or sent.wrapper.get("rulebook")
        if override is not None and not isinstance(override, str):
            return api_error(400, "rulebook must be a rulebook id (text)")
        try:
            case, ruling = rule_sent(sent, override)
        except BridgelawError as exc:
            return api_bridgelaw_error(exc, sent.text, sent.source)
        return Response(render.as_json_bytes(ruling, case), media_type="application/json")

    def rule_sent(sent: SentCase, override: str | None) -> tuple[Any, Any]:
        """The case and ruling of an API request. A JSON case is ruled from its tree when it is
        plain what YAML written from it would read back as (:func:`plain_tree`) — writing that
        YAML and reading it again took 2 ms of a request; anything else, and any error in the case, goes
        the YAML way, so every answer and every error is the same either way (a bug is not hidden
        by trying again: it is a 500 as anywhere else)."""
        tree = plain_tree(sent.tree) if sent.tree is not None else None
        if tree is not None:
            try:
                return service.rule_document(Document(file="request", tree=tree, text=""), books, override)
            except BridgelawError:            # the YAML way below reports it, with its place
                pass
        return service.rule_text(sent.text, "request", books, override)

    async def api_compare(request: Request) -> Response:
        kind, body = await api_body(request)
        return await work(api_compare_work, request, kind, body)

    def api_compare_work(request: Request, kind: str, body: bytes) -> Response:
        sent = api_case(kind, body)
        text, source, wrapper = sent.text, sent.source, sent.wrapper
        ids = wrapper.get("rulebooks")
        if ids is None:
            query = request.query_params.get("rulebooks")
            ids = [i for i in query.split(",") if i] if query else books.ids()
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            return api_error(400, "rulebooks must be a list of rulebook ids", expected='e.g. ["wbf-2007", "wbf-2017"]')
        ids = list(dict.fromkeys(ids))
        for name in ids:
            if name not in books.ids():
                return api_bridgelaw_error(BridgelawError(
                    f"unknown rulebook '{name}'", expected="one of " + ", ".join(books.ids()),
                    suggestion=service.did_you_mean(name, books.ids())), text, source)
        if not ids:
            return api_error(400, "rulebooks names no rulebook", expected='e.g. ["wbf-2007", "wbf-2017"]')
        try:
            data = service.compare_cli_json(text, books, ids)
        except BridgelawError as exc:
            return api_bridgelaw_error(exc, text, source)
        return Response(data, media_type="application/json")

    async def api_score(request: Request) -> Response:
        if not traveller_ok:
            return api_error(501, "traveller scoring is not available in this installation")
        from . import travel
        return await travel.api_score(request, books, work)

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
        if kind in ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain", ""):
            return SentCase("yaml", {}, raw)
        raise ApiProblem(415, f"unsupported content type '{kind}'",
                         expected="application/json or application/yaml")

    def api_bridgelaw_error(exc: BridgelawError, text: str, source: str) -> Response:
        data = exc.to_json()
        path = error_path(text, exc)
        data["path"] = ".".join(map(str, path)) if path else None
        if source == "json":                  # positions would point into YAML the client never saw
            data["line"] = data["column"] = None
            data["file"] = "request"
        malformed = exc.message.startswith(("malformed YAML", "expected a mapping"))
        return JSONResponse(data, status_code=400 if malformed else 422)

    # --- helpers ---------------------------------------------------------------------------------------

    async def read_form(request: Request) -> tuple[CaseForm, str, Any]:
        try:
            data = await request.form(max_files=0, max_fields=300, max_part_size=MAX_BODY)
        except TooLarge:
            raise
        except Exception:
            raise HTTPException(400, "The form could not be read; reload the page and try again.") from None
        f, action = CaseForm.from_form(data, getlist=data.getlist)
        return f, action, data

    # --- errors -------------------------------------------------------------------------------------

    async def http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        detail = {404: "There is no such page.", 405: "This page does not take that kind of request."}.get(status) \
            or getattr(exc, "detail", None) or "The request could not be handled."
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": detail}, status_code=status)
        return page(request, "error.html", status, status=status, message=detail)

    async def api_problem(request: Request, exc: ApiProblem) -> Response:
        return api_error(exc.status, exc.message, expected=exc.expected)

    async def too_slow(request: Request, exc: TooSlow) -> Response:
        message = (f"This request took longer than {work.limit:g} seconds and was given up; the server is busy "
                   "or the input needs too much work. Try again, or simplify it.")
        headers = {"retry-after": "5"}
        if request.url.path.startswith("/api/"):
            response = api_error(503, message)
            response.headers.update(headers)
            return response
        return PlainTextResponse(message, status_code=503, headers=headers)

    async def too_deep(request: Request, exc: RecursionError) -> Response:
        log.warning("input nested too deeply on %s %s", request.method, request.url.path)
        message = "The input nests too deeply to be read; a case is a few levels deep."
        if request.url.path.startswith("/api/"):
            return api_error(400, message)
        return PlainTextResponse(message, status_code=400)

    async def disconnected(request: Request, exc: ClientDisconnect) -> Response:
        return Response(status_code=400)       # the client left (or was too slow); no one reads this

    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        message = ("Something went wrong inside bridgelaw on this request; it is not a problem with what you "
                   "entered. Please report it with the case file.")
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=500)
        return HTMLResponse(f"<!doctype html><title>Error</title><h1>Error</h1><p>{message}</p>", status_code=500)

    routes = [
        Route("/", home, methods=["GET", "POST"]),
        Route("/upload", upload, methods=["POST"]),
        Route("/case.yaml", download, methods=["POST"]),
        Route("/slip", slip, methods=["POST"]),
        Route("/compare", compare_page, methods=["GET", "POST"]),
        Route("/traveller", traveller_page, methods=["GET", "POST"]),
        Route("/event", event_route, methods=["GET", "POST"]),
        Route("/api/rulebooks", api_rulebooks, methods=["GET"]),
        Route("/api/rule", api_rule, methods=["POST"]),
        Route("/api/compare", api_compare, methods=["POST"]),
        Route("/api/score", api_score, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    async def too_large(request: Request, exc: TooLarge) -> Response:
        return too_large_response(request.url.path)

    app = Starlette(routes=routes,
                    exception_handlers={HTTPException: http_error, ApiProblem: api_problem, TooLarge: too_large,
                                        TooSlow: too_slow, RecursionError: too_deep,
                                        ClientDisconnect: disconnected, Exception: server_error})
    app.state.books = books
    app.state.work = work
    return Guard(app, hosts=allowed_hosts, ip_hosts=ip_hosts)


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


_PLAIN_INT = 10 ** 15                       # far inside the YAML reader's bound on digits
_PLAIN_FLOAT = re.compile(r"-?[0-9]{1,15}\.[0-9]{1,15}")     # as Python writes it: no exponent, inf or nan
_PLAIN_NODES = 20_000                       # with the depth bound, the YAML stays far below limits.MAX_FILE_BYTES


class _NotPlain(Exception):
    pass


def plain_tree(data: Any) -> Any:
    """The tree the YAML way would read from a JSON tree — ``load_yaml(forms.dump_yaml(data)).tree``
    — when that is plain to see, else None: objects and lists of at most ``limits.MAX_ITEMS``
    entries (20,000 values in all), keys of printable characters other than ``<<`` (a merge key),
    text of printable characters and line breaks (a text of several lines is written as a literal
    block, which reads back with one line break at its end), whole numbers of at most 15 digits,
    decimal numbers of at most 15 digits either side of the point (as Python writes them: no
    exponent), true, false and null. Anything else — tabs, control characters, larger numbers, … —
    gives None: such a tree goes the YAML way. (The depth is bounded by :func:`load_json`;
    ``tests/test_web_api.py`` checks the claim on random trees.)"""
    try:
        return _plain(data, [_PLAIN_NODES])
    except _NotPlain:
        return None


def _plain(item: Any, budget: list[int]) -> Any:
    budget[0] -= 1
    kind = type(item)
    if budget[0] < 0:
        raise _NotPlain
    if kind is str:
        if "\n" not in item:
            if item.isprintable():
                return item
        elif all(line.isprintable() for line in item.split("\n")):
            return item if item.endswith("\n") else item + "\n"
    elif kind is dict:
        if len(item) <= limits.MAX_ITEMS and "<<" not in item:
            out = {}
            for key, value in item.items():
                if not key.isprintable():
                    raise _NotPlain
                out[key] = _plain(value, budget)
            return out
    elif kind is list:
        if len(item) <= limits.MAX_ITEMS:
            return [_plain(value, budget) for value in item]
    elif kind is int:
        if -_PLAIN_INT < item < _PLAIN_INT:
            return item
    elif kind is float:
        if _PLAIN_FLOAT.fullmatch(repr(item)):
            return item
    elif item is None or kind is bool:
        return item
    raise _NotPlain


def api_error(status: int, message: str, *, expected: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "file": None, "line": None, "column": None, "expected": expected,
                         "suggestion": None, "path": None}, status_code=status)


def _err(message: str, expected: str | None = None, suggestion: str | None = None) -> dict:
    return {"message": message, "expected": expected, "suggestion": suggestion}


def general(message: str) -> dict:
    return {"general": _err(message)}


def error_path(text: str, exc: BridgelawError) -> list | None:
    """The key path an error points at (forms.error_path), or None where the text nests too deeply
    to walk quickly — ruamel's round-trip parser takes seconds on a few hundred levels before it
    gives up (the error itself, e.g. a bound on nesting, is still reported)."""
    if nesting(text) > MAX_JSON_DEPTH:
        return None
    try:
        return forms.error_path(text, exc)
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


def form_errors(text: str, exc: BridgelawError, f: CaseForm, rowmap: dict) -> dict[str, dict]:
    """The error as {form field: message}, the field found from the error's key path."""
    return forms.form_errors(text, exc, f, rowmap)


def rescored_download(scored: Any, tform: Any, kind: str) -> Response:
    """The rescored board as `bridgelaw score` writes it: CSV (--format csv) or, for a PBN traveller, PBN (--output)."""
    from ..render import traveller as traveller_cli
    stem = re.sub(r"[^\w.-]+", "-", tform.name.rsplit(".", 1)[0])[:60] or "traveller"
    if kind == "pbn" and tform.pbn:
        text, media, name = traveller_cli.pbn_output(scored), "application/x-pbn; charset=utf-8", f"{stem}.scored.pbn"
    else:
        text, media, name = traveller_cli.as_csv(scored), "text/csv; charset=utf-8", f"{stem}.scored.csv"
    return Response(text, media_type=media, headers={"content-disposition": f'attachment; filename="{name}"'})


def case_filename(f: CaseForm) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", f.title.lower()).strip("-")[:48].strip("-")
    board = f"board-{f.board_number}" if f.board_number.isdigit() else ""
    if board and words.startswith(board):
        board = ""
    stem = "-".join(p for p in (board, words) if p) or "case"
    return f"{stem}.yaml"


def _traveller_available() -> bool:
    try:
        from . import travel  # noqa: F401
    except ImportError:
        return False
    return travel.available()
