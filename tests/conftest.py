"""The test session keeps rulebook snapshots (bridgelaw.rulebook.snapshot) in a folder of its own,
removed at the end: never the user's cache, and no test sees another run's snapshots."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

if "BRIDGELAW_CACHE_DIR" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="bridgelaw-test-cache-")
    os.environ["BRIDGELAW_CACHE_DIR"] = _folder
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)
