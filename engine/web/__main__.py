"""``python -m bridgelaw.web``: the same as ``bridgelaw serve``."""

import sys

from ..commands.cli import main

sys.exit(main(["serve", *sys.argv[1:]]))
