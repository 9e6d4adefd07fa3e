"""The ``bridgelaw`` command (its console script) and ``python -m bridgelaw``.

The command line lives in :mod:`bridgelaw.commands.cli`; this entry point only imports it, so that a
Ctrl-C while the modules load ends as a Ctrl-C later does: one line, exit status 130.
"""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from .commands.cli import main as run
    except KeyboardInterrupt:
        print("bridgelaw: interrupted", file=sys.stderr)
        return 130
    return run()


if __name__ == "__main__":
    sys.exit(main())
