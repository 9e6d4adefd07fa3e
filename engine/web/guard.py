"""The guard around the whole app (ASGI): security headers on every answer, the Host a request
must name, posts from other sites refused, and the bounds on a request's headers and body checked
before anything reads them.

Safety: bodies are limited to :data:`MAX_BODY` bytes (413 past it) and headers to
:data:`MAX_HEADER_BYTES` (431); every response carries a restrictive Content-Security-Policy (no
scripts at all). A post from another site (a browser's ``Sec-Fetch-Site`` or ``Origin`` naming
another origin) is refused with a 403, so a page the TD visits cannot submit forms here; clients
that send neither header, such as curl, keep working. Requests must name this server in their
Host header: the loopback names, the names given with ``serve --allow-host``, and with a
non-local bind any IP address — never an arbitrary DNS name, which is what DNS rebinding would send.
"""

from __future__ import annotations

import ipaddress
from typing import Callable

from starlette.responses import PlainTextResponse

from .answers import MAX_BODY, api_error, too_large_response
from .settings import MAX_HEADER_BYTES

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
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
HEADERS_TOO_LARGE = (f"The request's headers are larger than {MAX_HEADER_BYTES // 1024} KiB, the most this server "
                     "accepts; clear this site's cookies or send fewer headers.")


class TooLarge(Exception):
    pass


class Guard:
    """ASGI wrapper around the whole app: security headers on every response (errors included);
    request headers limited to MAX_HEADER_BYTES (431) and bodies to `limit` bytes (a longer body
    raises :class:`TooLarge` while it is read, which the app answers with a 413)."""

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

        raw = scope.get("headers", [])
        if sum(len(k) + len(v) + 4 for k, v in raw) + len(scope.get("raw_path") or b"") > MAX_HEADER_BYTES:
            await _answer(scope, send_with_headers, 431, HEADERS_TOO_LARGE)
            return
        headers = dict(raw)
        if self.hosts is not None and not host_allowed(headers.get(b"host", b""), self.hosts, self.ip_hosts):
            await PlainTextResponse("Invalid host header", status_code=400)({"type": "http"}, _no_body,
                                                                              send_with_headers)
            return
        if scope.get("method") not in SAFE_METHODS and cross_site(headers):
            await _answer(scope, send_with_headers, 403, (
                "This request came from another site and was refused: the page's forms post only from "
                "the page itself. Open the page at this server's address and submit it there."))
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > self.limit):
            await too_large_response(scope["path"], self.limit)({"type": "http"}, _no_body, send_with_headers)
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


async def _answer(scope: dict, send: Callable, status: int, message: str) -> None:
    response = api_error(status, message) if scope["path"].startswith("/api/") \
        else PlainTextResponse(message, status_code=status)
    await response({"type": "http"}, _no_body, send)


async def _no_body() -> dict:
    return {"type": "http.disconnect"}


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
