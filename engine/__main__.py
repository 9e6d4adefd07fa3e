"""The ``bridgelaw`` command (its console script) and ``python -m bridgelaw``.

The command line lives in :mod:`bridgelaw.commands.cli`; this entry point only imports it, so that a
Ctrl-C or a SIGTERM while the modules load ends as one later does: one line, exit status 130
(interrupted) or 143 (terminated). The SIGTERM handler is set before anything else is imported; it
raises, and also notes that the signal came — an exception raised inside a finalizer or a weakref
callback is swallowed by Python, and the note still ends the command.
"""

from __future__ import annotations

import signal
import sys


class _Terminated(BaseException):
    """SIGTERM while the command's modules load."""


_signalled = False


def _terminate(signum: int, frame: object) -> None:
    global _signalled
    _signalled = True
    raise _Terminated


def main() -> int:
    try:
        signal.signal(signal.SIGTERM, _terminate)       # cli.main puts its own in place while it runs
    except ValueError:                  # not the main thread
        pass
    try:
        from .commands.cli import main as run
        if _signalled:
            raise _Terminated
        return run()
    except KeyboardInterrupt:
        print("bridgelaw: interrupted", file=sys.stderr)
        return 130
    except _Terminated:
        print("bridgelaw: terminated", file=sys.stderr)
        return 143


if __name__ == "__main__":
    sys.exit(main())
