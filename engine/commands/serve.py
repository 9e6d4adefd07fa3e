"""``bridgelaw serve``: the web page for tournament directors, on this computer.

Wired into the main CLI by ``add_parser(sub)`` in :func:`bridgelaw.commands.cli.build_parser`;
``python -m bridgelaw.web [--host …] [--port …] [--rules DIR]… [--only-rules DIR] [--workers N] …`` runs the same command;
:mod:`bridgelaw.web.server` binds the socket and runs uvicorn.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import os
import sys
from pathlib import Path
from typing import Any

from ..core.errors import BridgelawError
from ..web.settings import CONNECTIONS, PER_CLIENT, QUEUE_PER_CLIENT, QUEUE_WAIT, READ_TIMEOUT, TIME_LIMIT, show_host


DESCRIPTION = ("Start the bridgelaw web page: enter a case and read the ruling, print a ruling slip, compare "
               "rulebooks, rescore a traveller; a JSON API under /api/ for scoring programs. Open the address it "
               "prints in a browser. Stop it with Ctrl+C.")
EPILOG = ("By default only this computer can reach it (127.0.0.1). To let a phone on the same network reach it, "
          "use --host 0.0.0.0 and open http://THIS-COMPUTER'S-ADDRESS:PORT/ on the phone; anyone on that "
          "network can then use it. The page answers only to its IP addresses, localhost and the names given "
          "with --allow-host (a guard against DNS rebinding). Every rulebook of the rules folder is checked "
          "before the server starts. Exit status: 0 stopped, 2 bad option, a rulebook that does not load, or an "
          "address or port that cannot be listened on (one line on stderr, nothing served).")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser("serve", help="start the web page for tournament directors",
                              description=DESCRIPTION, epilog=EPILOG)
    configure(p)
    return p


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every network)")
    p.add_argument("--port", type=_port, default=8000, metavar="PORT", help="port to listen on (default 8000; 0: any free port, the one taken is printed)")
    p.add_argument("--rules", metavar="DIR", type=Path, action="append", default=[],
                   help="a folder of your own rulebooks (*.yaml), offered beside the shipped ones (repeatable; "
                        "also BRIDGELAW_RULES)")
    p.add_argument("--only-rules", metavar="DIR", type=Path, default=None,
                   help="offer only the rulebooks of this folder, none of the shipped ones (they may still "
                        "extend and include shipped ones)")
    p.add_argument("--workers", type=_positive(int, 64), default=None, metavar="N",
                   help="server processes sharing the port (default: the number of cores, here "
                        f"{default_workers()})")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME", dest="allow_hosts",
                   help="a host name the page may be opened by, e.g. td-laptop.local (repeat for several); "
                        "IP addresses and localhost need none")
    p.add_argument("--time-limit", type=_positive(float, 600), default=TIME_LIMIT, metavar="SECONDS",
                   help="answer 503 to a request whose work takes longer (default %(default)g)")
    p.add_argument("--read-timeout", type=_positive(float, 600), default=READ_TIMEOUT, metavar="SECONDS",
                   help="close a connection whose request has not fully arrived in this time (default %(default)g)")
    p.add_argument("--max-per-client", "--per-client", type=_positive(int, 10_000), default=PER_CLIENT, metavar="N",
                   dest="per_client",
                   help="requests one client address may have in progress in each process (default %(default)d); "
                        "more wait their turn (--max-waiting, --max-wait) instead of being refused; idle kept-alive "
                        "connections count for nothing")
    p.add_argument("--max-waiting", type=_positive(int, 100_000), default=QUEUE_PER_CLIENT, metavar="N", dest="queue",
                   help="requests of one client address that may wait for their turn in each process (default "
                        "%(default)d); past it a request is answered 503")
    p.add_argument("--max-wait", type=_positive(float, 600), default=QUEUE_WAIT, metavar="SECONDS", dest="queue_wait",
                   help="seconds a request may wait for its turn (default %(default)g); past it 503")
    p.add_argument("--max-connections", type=_positive(int, 100_000), default=CONNECTIONS, metavar="N",
                   dest="connections",
                   help="connections each process keeps open (default %(default)d); a new one past it closes the "
                        "longest-open idle connection, else one whose request is still trickling in")
    p.add_argument("--proxy", action="append", default=[], metavar="ADDRESS", dest="proxies", type=_address,
                   help="the address of a reverse proxy in front of this server (repeat for several): its "
                        "X-Forwarded-For is believed and its connections are not capped per client (the proxy "
                        "limits its clients); without it X-Forwarded-For is ignored")
    p.add_argument("--http", choices=("auto", "httptools", "h11"), default="auto",
                   help="HTTP/1.1 parser: httptools (in C, the web extra installs it) or h11 (pure Python, "
                        "slower); auto (default): httptools when installed")
    p.set_defaults(func=cmd_serve)


def _positive(kind: type, most: float) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a {'whole ' if kind is int else ''}number") from None
        if not 0 < value <= most:
            raise argparse.ArgumentTypeError(f"{text} is out of range (expected more than 0 and at most {most:g})")
        return value
    return parse


def _address(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text.strip("[]")))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an IP address (expected e.g. 127.0.0.1 or ::1)") from None


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number (expected 1 to 65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is out of range (expected 1 to 65535, or 0 for any free port)")
    return port


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


WEB_MODULES = ("starlette", "uvicorn", "jinja2", "multipart")


def cmd_serve(args: argparse.Namespace) -> int:
    missing = [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise BridgelawError("bridgelaw serve needs the web extra, which is not installed "
                             f"(missing: {', '.join(missing)})",
                             suggestion="pip install 'bridgelaw[web]'")
    from ..web import server
    from ..web.app import create_app
    from ..web.guard import LOOPBACK_HOSTS

    from ..rulebook import files as rulebook_files
    rulebook_files.use(args.rules)            # as every command reads --rules (python -m bridgelaw.web too)
    user_rules = tuple(str(d) for d in rulebook_files.user_dirs())
    only = args.only_rules
    if only is not None and not only.is_dir():
        raise BridgelawError(f"--only-rules {only}: no such folder", expected="a folder holding rulebook files (*.yaml)")
    host = args.host.strip("[]")              # [::1] as in a URL is the address ::1
    local = is_loopback(host)
    names = [*LOOPBACK_HOSTS, *(name.lower() for name in args.allow_hosts)]
    if not local and not _is_address(host) and host.lower() not in names:
        names.append(host.lower())            # listening on a name: the page is opened by that name
    server.protocol(args.http)                # before anything is served: a missing httptools is one line
    options = server.Options(rules=str(only.resolve()) if only else None, user_rules=user_rules,
                             allowed_hosts=tuple(names),
                             ip_hosts=not local, time_limit=args.time_limit, read_timeout=args.read_timeout,
                             per_client=args.per_client, queue=args.queue, queue_wait=args.queue_wait,
                             connections=args.connections,
                             proxies=tuple(dict.fromkeys(args.proxies)))
    create_app(only, allowed_hosts=names)            # every rulebook checked before anything is served
    workers = args.workers or default_workers()
    sock = server.listen(host, args.port, workers)
    port = sock.getsockname()[1]
    with server.Stop() as stop:               # Ctrl+C from here on (even during the first line) stops it cleanly
        print(f"bridgelaw: serving on http://{show_host(host)}:{port}/ with {workers} "
              f"process{'es' if workers > 1 else ''} (Ctrl+C to stop)", file=sys.stderr, flush=True)
        if not local:
            print("bridgelaw: warning: listening beyond this computer; anyone on the network can use the page",
                  file=sys.stderr, flush=True)
        server.run(sock, options, workers, args.http, stop)
    return 0


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                    # not on Linux
        return max(1, os.cpu_count() or 1)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
