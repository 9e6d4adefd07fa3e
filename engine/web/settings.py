"""The limits of ``bridgelaw serve`` and the one helper the server and the command share.

This module imports nothing of the web stack, so that ``bridgelaw serve --help`` needs no
uvicorn; :mod:`bridgelaw.web.server` applies the limits, :mod:`bridgelaw.commands.serve` offers
them as options.
"""

from __future__ import annotations

TIME_LIMIT = 10.0             # seconds of work one request may take before it is answered 503
READ_TIMEOUT = 15.0           # seconds a client has to send one whole request
PER_CLIENT = 16               # connections one address may hold open in one process
CONNECTIONS = 512             # connections one process keeps open at most (503 past it)
KEEP_ALIVE = 5                # seconds an idle kept-alive connection stays open
MAX_HEADER_BYTES = 32 * 1024  # bytes of a request's line and headers (431 past it), as nginx's default buffers


def show_host(host: str) -> str:
    """The host as it is written in a URL: an IPv6 address in brackets (once)."""
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare
