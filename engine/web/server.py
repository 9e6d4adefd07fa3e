"""Running the web app under uvicorn for ``bridgelaw serve``: the listening socket, worker
processes, and the connection guards that keep the server available to everyone.

- The socket is bound here, before anything is printed, so a busy port or an unknown host name
  is one line and exit status 2 (:func:`listen`).
- ``--workers N`` starts N processes on the port (uvicorn's supervisor), each with a listening
  socket of its own besides the shared one (``SO_REUSEPORT``, :func:`sockets_for`) so the kernel
  spreads connections over them; each builds the app from :class:`AppFactory`, a small picklable
  object that carries the options (rules folder, allowed host names, limits) to every worker.
- HTTP/1.1 is parsed by httptools (llhttp, in C: ``GuardedHttpToolsProtocol``) on uvloop's
  event loop when they are installed (the web extra installs both), else by the pure-Python h11
  (``GuardedH11Protocol``) on asyncio's; ``serve --http`` chooses. Both carry the same guards
  against slow, greedy and numerous clients (:mod:`bridgelaw.web.connections`): a read deadline,
  a bound on headers, turns per client address with a bounded wait instead of refusals, room
  made by closing idle connections, and a stop that does not wait for half-sent requests.
- ``X-Forwarded-For`` is believed only from the addresses ``--proxy`` names (uvicorn's proxy
  headers, off without them).
"""

from __future__ import annotations

import signal
import socket
from typing import Any

from ..core.errors import BridgelawError
from .connections import GuardedH11Protocol, GuardedHttpToolsProtocol
from .settings import KEEP_ALIVE, MAX_HEADER_BYTES, Options, show_host


class AppFactory:
    """Builds the app in each worker process (uvicorn calls it: ``factory=True``). Pickled into
    the worker with its options, so the workers need no environment variables."""

    def __init__(self, options: Options) -> None:
        self.options = options

    def __call__(self) -> Any:
        from .app import create_app
        from ..rulebook import files as rulebook_files
        o = self.options
        rulebook_files.use(o.user_rules)      # the user's folders, as the command was given them
        return create_app(o.rules, allowed_hosts=list(o.allowed_hosts) if o.allowed_hosts else None,
                          ip_hosts=o.ip_hosts, time_limit=o.time_limit)


PROTOCOLS = {"httptools": GuardedHttpToolsProtocol, "h11": GuardedH11Protocol}


def protocol(name: str = "auto") -> type:
    """The guarded protocol class for ``--http``: httptools when installed (``auto``), else h11."""
    if name == "auto":
        name = "httptools" if GuardedHttpToolsProtocol is not None else "h11"
    cls = PROTOCOLS.get(name)
    if cls is None:
        raise BridgelawError(f"--http {name}: httptools is not installed", expected="--http h11 or auto",
                             suggestion="pip install 'bridgelaw[web]'")
    return cls


def listen(host: str, port: int, workers: int = 1) -> socket.socket:
    """A listening socket on host:port; a name that does not resolve or an address that cannot be
    bound is a BridgelawError (one line, exit 2). For several workers it is made with
    ``SO_REUSEPORT`` (where the system has it), so that each worker can listen on the port with
    a socket of its own (:func:`sockets_for`); the port is first bound without it, so a port
    another program — or another ``bridgelaw serve`` — holds is still reported as busy."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise BridgelawError(f"cannot listen on {host}: no such address on this computer "
                             f"({getattr(exc, 'strerror', None) or exc})",
                             expected="an address of this computer such as 127.0.0.1, ::1 or 0.0.0.0") from None
    error: OSError | None = None
    reuse_port = workers > 1 and hasattr(socket, "SO_REUSEPORT")
    for family, _, _, _, address in infos:
        try:
            sock = _listening(family, address, False)
            if reuse_port:                    # the port is free (and, for port 0, chosen): now the real one
                address = sock.getsockname()
                sock.close()
                sock = _listening(family, address, True)
        except OSError as exc:
            error = exc
            continue
        sock.set_inheritable(True)
        return sock
    reason = error.strerror if error is not None and error.strerror else str(error)
    suggestion = "try another --port" if error is not None and error.errno == 98 else None
    raise BridgelawError(f"cannot listen on {show_host(host)}:{port}: {reason}", suggestion=suggestion)


class _OwnListener:
    """What a worker process is handed (pickled) besides the shared listening socket: in the
    worker it becomes a listening socket of its own on the same address (``SO_REUSEPORT``), so
    the kernel spreads new connections over the workers' sockets. On the shared socket alone,
    the worker that happened to be waiting took a whole burst of connections: 8 kept-alive
    connections often all went to one of 2 workers, which then did all the work (half the
    throughput). The shared socket stays: it holds connections that come while the workers start."""

    def __init__(self, family: int, address: Any) -> None:
        self.family, self.address = family, address

    def __reduce__(self) -> tuple:
        return _listening, (self.family, self.address, True)


def _listening(family: int, address: Any, reuse_port: bool) -> socket.socket:
    """A listening socket on `address` (an OSError if it cannot be bound)."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def sockets_for(sock: socket.socket, workers: int) -> list[Any]:
    """What the workers listen on: `sock`, and with several workers where the system has
    ``SO_REUSEPORT`` (:func:`listen` made `sock` so), each worker's own socket too."""
    if workers > 1 and _reuses_port(sock):
        return [sock, _OwnListener(sock.family, sock.getsockname())]
    return [sock]


def _reuses_port(sock: socket.socket) -> bool:
    return hasattr(socket, "SO_REUSEPORT") and bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT))


class Stop:
    """Ctrl+C (SIGINT) and SIGTERM while `serve` runs: they ask the server to stop — a flag, and
    the running server's own — and raise nothing. A KeyboardInterrupt that happens to be raised
    inside a weakref callback or a finalizer is swallowed by Python ("Exception ignored"); with
    uvloop that happened now and then to a Ctrl+C right after the start, and the server went on
    serving. uvicorn's own handlers (flags too) take over while it serves."""

    def __init__(self) -> None:
        self.asked = False
        self.server: Any = None               # the uvicorn.Server of a single process, once made

    def __call__(self, signum: int, frame: Any) -> None:
        self.asked = True
        if self.server is not None:
            self.server.should_exit = True

    def __enter__(self) -> Stop:
        self._before = {sig: signal.signal(sig, self) for sig in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc: Any) -> None:
        for sig, handler in self._before.items():
            signal.signal(sig, handler)


def run(sock: socket.socket, options: Options, workers: int, http: str = "auto", stop: Stop | None = None) -> None:
    """Serve the app on `sock` with `workers` processes until Ctrl+C or SIGTERM (asked of `stop`,
    which catches them from before the first line), with the guarded protocol `http` names
    (:func:`protocol`) on uvloop's event loop when it is installed."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    stop = stop or Stop()

    # X-Forwarded-For is believed only from the proxies --proxy names (none by default); the number
    # of connections is the guards' (a new one past it closes an idle one) rather than uvicorn's 503s
    config = uvicorn.Config(AppFactory(options), factory=True, http=protocol(http), loop="auto", workers=workers,
                            log_level="warning", access_log=False, server_header=False,
                            proxy_headers=bool(options.proxies), forwarded_allow_ips=list(options.proxies) or None,
                            limit_concurrency=None, timeout_keep_alive=KEEP_ALIVE, lifespan="off",
                            h11_max_incomplete_event_size=MAX_HEADER_BYTES + (256 << 10))   # the guards' bound first
    try:
        if workers > 1:
            supervisor = Multiprocess(config, sockets=sockets_for(sock, workers))   # its signal handlers now
            if stop.asked:
                supervisor.signal_queue.append(signal.SIGINT)
            supervisor.run()
        else:
            # uvicorn stops gracefully on SIGINT and SIGTERM, then raises the signal again: `stop` takes it
            server = uvicorn.Server(config)
            stop.server = server
            server.should_exit = stop.asked
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        stop.server = None
        sock.close()
