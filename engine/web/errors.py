"""How the app answers what went wrong: bad input is a 400/413/415/422 with a message a person
can act on; work past its time limit a 503 with Retry-After; any other failure a 500 that says so
without a stack trace (the trace goes to the server's log)."""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from .answers import api_error, too_large_response
from .guard import TooLarge
from .jsonbody import ApiProblem
from .site import site_of
from .work import TooSlow

log = logging.getLogger("bridgelaw.web")


def _api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    detail = {404: "There is no such page.", 405: "This page does not take that kind of request."}.get(status) \
        or getattr(exc, "detail", None) or "The request could not be handled."
    if _api(request):
        return JSONResponse({"error": detail}, status_code=status)
    return site_of(request).page(request, "error.html", status, status=status, message=detail)


async def api_problem(request: Request, exc: ApiProblem) -> Response:
    return api_error(exc.status, exc.message, expected=exc.expected)


async def too_large(request: Request, exc: TooLarge) -> Response:
    return too_large_response(request.url.path)


async def too_slow(request: Request, exc: TooSlow) -> Response:
    message = (f"This request took longer than {site_of(request).work.limit:g} seconds and was given up; the server "
               "is busy or the input needs too much work. Try again, or simplify it.")
    headers = {"retry-after": "5"}
    if _api(request):
        response = api_error(503, message)
        response.headers.update(headers)
        return response
    return PlainTextResponse(message, status_code=503, headers=headers)


async def too_deep(request: Request, exc: RecursionError) -> Response:
    log.warning("input nested too deeply on %s %s", request.method, request.url.path)
    message = "The input nests too deeply to be read; a case is a few levels deep."
    if _api(request):
        return api_error(400, message)
    return PlainTextResponse(message, status_code=400)


async def disconnected(request: Request, exc: ClientDisconnect) -> Response:
    return Response(status_code=400)       # the client left (or was too slow); no one reads this


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path)
    message = ("Something went wrong inside bridgelaw on this request; it is not a problem with what you "
               "entered. Please report it with the case file.")
    if _api(request):
        return JSONResponse({"error": message}, status_code=500)
    return HTMLResponse(f"<!doctype html><title>Error</title><h1>Error</h1><p>{message}</p>", status_code=500)


HANDLERS = {HTTPException: http_error, ApiProblem: api_problem, TooLarge: too_large, TooSlow: too_slow,
            RecursionError: too_deep, ClientDisconnect: disconnected, Exception: server_error}
