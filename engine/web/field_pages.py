"""The pages of whole boards and results files: ``GET|POST /traveller`` (one board's traveller
rescored, :mod:`bridgelaw.web.travel`), ``GET|POST /event`` (a results file with a TD's rulings,
:mod:`bridgelaw.web.event`) and ``POST /api/score``.

These pages read files a scoring program wrote, in formats with many corners; a reader that
fails in a way it did not foresee (an exception that is not a located error) is answered 422 —
the file could not be read — and logged with its traceback, never a 500 that blames the server
for what a file holds.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import BridgelawError
from .answers import MAX_BODY, api_error, field_error
from .guard import TooLarge
from .site import Site, form_data, site_of

log = logging.getLogger("bridgelaw.web")


def unreadable(what: str, exc: BaseException) -> str:
    """The message for a file a reader failed on unexpectedly (the traceback goes to the log)."""
    return (f"This {what} could not be read: bridgelaw's reader stopped on it ({type(exc).__name__}), which is a "
            "bug in bridgelaw, logged on the server. Check the file, or report it with the file.")


def guarded(what: str, request: Request, fn: Callable[[], Response], answer: Callable[[str], Response]) -> Response:
    """`fn`'s response; an exception that is not a BridgelawError is logged and answered by `answer`."""
    try:
        return fn()
    except (BridgelawError, TooLarge, RecursionError):
        raise
    except Exception as exc:                  # noqa: BLE001 — a reader's bug, logged; the file is answered 422
        log.exception("a %s could not be read on %s %s", what, request.method, request.url.path)
        return answer(unreadable(what, exc))


# --- traveller -----------------------------------------------------------------------------------

async def traveller_page(request: Request) -> Response:
    from . import travel
    site = site_of(request)
    if request.method in ("GET", "HEAD"):
        return await site.work(lambda: site.page(request, "traveller.html", tform=travel.TravellerForm(),
                                                 scoring_words=travel.SCORING_WORDS))
    data = await form_data(request, max_files=2, max_fields=20, max_part_size=MAX_BODY)
    if data is None:
        return site.page(request, "traveller.html", 400, tform=travel.TravellerForm(),
                         scoring_words=travel.SCORING_WORDS,
                         errors={"traveller": field_error("The form could not be read; paste the traveller or choose "
                                                          "a file.")})
    tform = await travel.TravellerForm.from_form(data)
    return await site.work(traveller_scored, site, request, tform, data)


def traveller_scored(site: Site, request: Request, tform: Any, data: Any) -> Response:
    from . import travel

    def page(code: int = 200, **context: Any) -> Response:
        return site.page(request, "traveller.html", code, tform=tform, scoring_words=travel.SCORING_WORDS, **context)

    def scored() -> Response:
        try:
            board = travel.score(tform, site.books)
        except travel.FormProblem as exc:
            return page(400, errors={exc.field: field_error(exc.message)})
        except BridgelawError as exc:
            return page(422, errors={travel.field_for(exc, tform): field_error(str(exc))})
        if data.get("download") in ("csv", "pbn"):
            return rescored_download(board, tform, data.get("download"))
        return page(board=travel.view(board))
    return guarded("traveller", request, scored, lambda message: page(422, errors={"traveller": field_error(message)}))


def rescored_download(scored: Any, tform: Any, kind: str) -> Response:
    """The rescored board as `bridgelaw score` writes it: CSV (--format csv) or, for a PBN traveller, PBN (--output)."""
    from ..render import traveller as traveller_cli
    stem = re.sub(r"[^\w.-]+", "-", tform.name.rsplit(".", 1)[0], flags=re.ASCII)[:60] or "traveller"
    if kind == "pbn" and tform.pbn:
        text, media, name = traveller_cli.pbn_output(scored), "application/x-pbn; charset=utf-8", f"{stem}.scored.pbn"
    else:
        text, media, name = traveller_cli.as_csv(scored), "text/csv; charset=utf-8", f"{stem}.scored.csv"
    return Response(text, media_type=media, headers={"content-disposition": f'attachment; filename="{name}"'})


async def api_score(request: Request) -> Response:
    site = site_of(request)
    if not site.traveller_ok:
        return api_error(501, "traveller scoring is not available in this installation")
    from . import travel

    async def work(fn: Callable[..., Response], *args: Any) -> Response:
        return await site.work(lambda: guarded("traveller", request, lambda: fn(*args),
                                               lambda message: api_error(422, message)))
    return await travel.api_score(request, site.books, work)


# --- event ---------------------------------------------------------------------------------------

async def event_page(request: Request) -> Response:
    from . import event
    site = site_of(request)
    if request.method == "POST":          # the upload is read here, on the event loop; handle() finds it
        await form_data(request, max_files=2, max_fields=160,     # cached (its limits), reports an unreadable
                        max_part_size=event.MAX_BYTES)            # form, and does its work in a thread

    def handled() -> Response:
        return guarded("results file", request, lambda: asyncio.run(event.handle(request, site.page, site.books)),
                       lambda message: site.page(request, "event.html", 422, form={}, problem=message))
    return await site.work(handled)




# --- impact --------------------------------------------------------------------------------------

async def impact_page(request: Request) -> Response:
    from . import impact
    site = site_of(request)
    if request.method == "POST":          # read on the event loop (its limits), the work in a thread
        await form_data(request, max_files=2 * impact.MAX_FILES + 1, max_fields=8, max_part_size=impact.MAX_BYTES)

    def handled() -> Response:
        return guarded("results file", request, lambda: asyncio.run(impact.handle(request, site.page, site.books)),
                       lambda message: site.page(request, "impact.html", 422, form={}, problem=message))
    return await site.work(handled)
