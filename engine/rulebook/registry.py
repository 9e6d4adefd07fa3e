"""The rulebooks shipped: where they are, listing them, loading each once per process."""

from __future__ import annotations

from pathlib import Path

from ..errors import BridgelawError, did_you_mean
from .model import Rulebook

def rules_dir() -> Path:
    """rules/ inside an installed wheel (bridgelaw/rules), else the checkout's top-level rules/."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "rules"
    return packaged if packaged.is_dir() else here.parent / "rules"


def available(directory: Path | None = None) -> dict[str, Path]:
    directory = directory or rules_dir()
    return {p.stem: p for p in sorted(directory.glob("*.yaml"))}


_cache: dict[tuple, Rulebook] = {}


def get(name: str, directory: Path | None = None) -> Rulebook:
    """A shipped rulebook by id (or a path to a rulebook file), loaded once per process."""
    known = available(directory)
    path = known.get(name)
    if path is None and (name.endswith((".yaml", ".yml")) or "/" in name):
        path = Path(name)
        if not path.is_file():
            raise BridgelawError(f"no such rulebook file: {name}")
    if path is None:
        raise BridgelawError(f"unknown rulebook '{name}'", expected="one of " + ", ".join(known),
                             suggestion=did_you_mean(name, known))
    key = (str(path.resolve()), path.stat().st_mtime, tuple(p.stat().st_mtime for p in known.values()))
    if key not in _cache:
        from .layers import load
        _cache[key] = load(path)
    return _cache[key]

