"""``python -m bridgelaw.web``: the same as ``bridgelaw serve``."""

import sys

from ..cli import main

sys.exit(main(["serve", *sys.argv[1:]]))
