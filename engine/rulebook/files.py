"""Where rulebook files are: the shipped rules folder and the rulebooks in a folder."""

from __future__ import annotations

from pathlib import Path


def rules_dir() -> Path:
    """rules/ inside an installed wheel (bridgelaw/rules), else the checkout's top-level rules/."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "rules"
    return packaged if packaged.is_dir() else here.parent / "rules"


def available(directory: Path | None = None) -> dict[str, Path]:
    directory = directory or rules_dir()
    return {p.stem: p for p in sorted(directory.glob("*.yaml"))}
