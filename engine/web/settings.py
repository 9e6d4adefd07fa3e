"""The limits of ``bridgelaw serve`` and the one helper the server and the command share.

This module imports nothing of the web stack, so that ``bridgelaw serve --help`` needs no
uvicorn; :mod:`bridgelaw.web.server` applies the limits, :mod:`bridgelaw.commands.serve` offers
them as options.
"""

from __future__ import annotations

from dataclasses import dataclass

TIME_LIMIT = 10.0             # seconds of work one request may take before it is answered 503
READ_TIMEOUT = 15.0           # seconds a client has to send one whole request
PER_CLIENT = 16               # requests one address may have in progress in one process (more wait their turn)
QUEUE_PER_CLIENT = 256        # requests of one address waiting for their turn in one process (503 past it)
QUEUE_WAIT = 30.0             # seconds a request may wait for its turn (503 past it)
CONNECTIONS = 512             # connections one process keeps open; past it the longest idle one is closed
KEEP_ALIVE = 5                # seconds an idle kept-alive connection stays open
MAX_HEADER_BYTES = 32 * 1024  # bytes of a request's line and headers (431 past it), as nginx's default buffers


@dataclass(frozen=True)
class Options:
    """What every worker needs to build the same app and guard its connections."""

    rules: str | None = None                  # --only-rules: the one folder offered
    user_rules: tuple[str, ...] = ()          # --rules, BRIDGELAW_RULES: offered beside the shipped ones
    allowed_hosts: tuple[str, ...] | None = None
    ip_hosts: bool = False
    time_limit: float = TIME_LIMIT
    read_timeout: float = READ_TIMEOUT
    per_client: int = PER_CLIENT
    queue: int = QUEUE_PER_CLIENT
    queue_wait: float = QUEUE_WAIT
    connections: int = CONNECTIONS
    proxies: tuple[str, ...] = ()


def show_host(host: str) -> str:
    """The host as it is written in a URL: an IPv6 address in brackets (once)."""
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare
