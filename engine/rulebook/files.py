"""Where rulebook files are: the shipped rules folder, the rulebooks in a folder, the folders a
rulebook's shared layers are looked for in."""

from __future__ import annotations

import functools
from pathlib import Path

CALENDAR_FILE = "calendar.yaml"          # rules/calendar.yaml: each body's codes by date (rulebook/calendar.py), not a rulebook


@functools.lru_cache(maxsize=1)
def rules_dir() -> Path:
    """rules/ inside an installed wheel (bridgelaw/rules), else the checkout's top-level rules/."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "rules"
    return packaged if packaged.is_dir() else here.parent / "rules"


def available(directory: Path | None = None) -> dict[str, Path]:
    directory = directory or rules_dir()
    return {p.stem: p for p in sorted(directory.glob("*.yaml")) if p.name != CALENDAR_FILE}


def shared_dirs(path: Path) -> list[Path]:
    """Where a rulebook's shared layers are looked for: beside it, then with the shipped rulebooks."""
    dirs = [path.parent / "shared", rules_dir() / "shared"]
    return [d for i, d in enumerate(dirs) if d not in dirs[:i]]
