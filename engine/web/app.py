"""The web server: server-rendered pages for tournament directors and a JSON API.

    GET  /                 the ruling form        POST /            rule it (or add/remove a row)
    POST /upload           open a case file       POST /case.yaml   download the form as a case file
    POST /slip             the printable slip     GET|POST /compare the case under several rulebooks
    GET|POST /traveller    rescore a traveller    GET|POST /event   a results file with rulings
    GET|POST /impact       a proposal on several results files (with their rulings)
    GET  /api/rulebooks    POST /api/rule   POST /api/compare   POST /api/score

The routes are plain functions in modules by page — :mod:`.pages` (the ruling form),
:mod:`.compare_page`, :mod:`.field_pages` (traveller, event, ``/api/score``), :mod:`.api` — that
find what the app shares (rulebooks, templates, the work pool) in :mod:`.site`; :mod:`.guard`
wraps the app (security headers, Host, cross-site posts, the bounds on headers and bodies) and
:mod:`.errors` answers what went wrong.

Safety: bodies, headers, JSON and the lists of a case are bounded before anything reads them;
rulebooks come only from the rules directory; nothing from a request is evaluated; bad input is
a 400/413/415/422/431 with a message a person can act on; any other failure is a 500 that says so
without a stack trace (the trace goes to the server's log) — except a reader's failure on an
uploaded results file, a 422 (:mod:`.field_pages`).

Availability: the work of every request (parsing, ruling, rendering) runs in a small pool of
threads (:class:`.work.Work`), off the event loop, so reading and answering other connections
goes on; a request not answered within its time limit gets a 503 (its work, already bounded by
the input limits, finishes in its thread; the pool's size bounds how much such work there is).
The slow-client and per-client guards are in :mod:`bridgelaw.web.server`.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.errors import BridgelawError
from . import api, compare_page, errors, field_pages, pages, service
from .guard import CSP, LOOPBACK_HOSTS, Guard  # noqa: F401 — the names serve and the tests use
from .answers import MAX_BODY  # noqa: F401
from .settings import TIME_LIMIT
from .site import HERE, Site
from .work import WORK_SLOTS, Work


def create_app(rules_dir: Path | str | None = None, *, allowed_hosts: list[str] | None = None,
               ip_hosts: bool = False, time_limit: float = TIME_LIMIT, slots: int = WORK_SLOTS) -> Guard:
    """The web app; rulebooks from `rules_dir` (default: the shipped rules/). With `allowed_hosts`,
    a request must name one of them in its Host header (or, with `ip_hosts`, an IP address); each
    request's work gets `time_limit` seconds in a pool of `slots` threads."""
    books = service.Books(Path(rules_dir) if rules_dir else None)
    if not books.load():                      # every rulebook checked now: a bad one stops the start
        raise BridgelawError(f"no rulebooks (*.yaml) in {books.directory or service.rulebooks.rules_dir()}",
                             expected="a folder holding rulebook files such as wbf-2017.yaml")
    site = Site(books, Work(time_limit, slots))
    routes = [
        Route("/", pages.home, methods=["GET", "POST"]),
        Route("/upload", pages.upload, methods=["POST"]),
        Route("/case.yaml", pages.download, methods=["POST"]),
        Route("/slip", pages.slip, methods=["POST"]),
        Route("/compare", compare_page.compare_page, methods=["GET", "POST"]),
        Route("/traveller", field_pages.traveller_page, methods=["GET", "POST"]),
        Route("/event", field_pages.event_page, methods=["GET", "POST"]),
        Route("/impact", field_pages.impact_page, methods=["GET", "POST"]),
        Route("/api/rulebooks", api.api_rulebooks, methods=["GET"]),
        Route("/api/rule", api.api_rule, methods=["POST"]),
        Route("/api/compare", api.api_compare, methods=["POST"]),
        Route("/api/score", field_pages.api_score, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers=errors.HANDLERS)
    app.state.site = site
    app.state.books, app.state.work = books, site.work
    return Guard(app, hosts=allowed_hosts, ip_hosts=ip_hosts)
