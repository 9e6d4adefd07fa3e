"""``bridgelaw serve``: the web page for tournament directors, on this computer.

Wired into the main CLI by ``add_parser(sub)`` in :func:`bridgelaw.cli.build_parser`;
``python -m bridgelaw.web [--host …] [--port …] [--rules DIR]`` runs the same command.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import sys
from pathlib import Path
from typing import Any

from ..errors import BridgelawError

DESCRIPTION = ("Start the bridgelaw web page: enter a case and read the ruling, print a ruling slip, compare "
               "rulebooks, rescore a traveller; a JSON API under /api/ for scoring programs. Open the address it "
               "prints in a browser. Stop it with Ctrl+C.")
EPILOG = ("By default only this computer can reach it (127.0.0.1). To let a phone on the same network reach it, "
          "use --host 0.0.0.0 and open http://THIS-COMPUTER'S-ADDRESS:PORT/ on the phone; anyone on that "
          "network can then use it. Exit status: 0 stopped, 2 bad option (e.g. no rulebooks in --rules).")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser("serve", help="start the web page for tournament directors",
                              description=DESCRIPTION, epilog=EPILOG)
    configure(p)
    return p


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=_port, default=8000, metavar="PORT", help="port to listen on (default 8000)")
    p.add_argument("--rules", metavar="DIR", type=Path, default=None,
                   help="folder of rulebooks (*.yaml) to offer; only these are read (default: the shipped rules)")
    p.set_defaults(func=cmd_serve)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number (expected 1 to 65535)") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is out of range (expected 1 to 65535)")
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
    import uvicorn

    from .app import LOOPBACK_HOSTS, create_app

    if args.rules is not None and not args.rules.is_dir():
        raise BridgelawError(f"--rules {args.rules}: no such folder", expected="a folder holding rulebook files (*.yaml)")
    local = is_loopback(args.host)
    app = create_app(args.rules, allowed_hosts=LOOPBACK_HOSTS if local else None)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"bridgelaw: serving on http://{shown}:{args.port}/ (Ctrl+C to stop)", file=sys.stderr, flush=True)
    if not local:
        print("bridgelaw: warning: listening beyond this computer; anyone on the network can use the page",
              file=sys.stderr, flush=True)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", server_header=False,
                    limit_concurrency=64, timeout_keep_alive=5)
    except OSError as exc:
        raise BridgelawError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
                             suggestion="try another --port") from None
    return 0
