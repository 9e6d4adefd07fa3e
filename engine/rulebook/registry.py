"""The rulebooks shipped: where they are, listing them, loading each once per process."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import BridgelawError, did_you_mean
from ..core.limits import too_long_name
from .files import available
from .layers import load
from .model import Rulebook


_cache: dict[tuple, Rulebook] = {}


def get(name: str, directory: Path | None = None, *, path_ok: bool = False) -> Rulebook:
    """A shipped rulebook by id, loaded once per process. A path to a rulebook file only with
    `path_ok` (``--rulebook PATH`` on the command line): a case or traveller names an id."""
    known = available(directory)
    path = known.get(name)
    looks_like_path = name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name
    if path is None and path_ok and looks_like_path:
        problem = too_long_name(name)
        if problem:
            raise BridgelawError(f"--rulebook: {problem}")
        path = Path(name)
        if not path.exists():
            raise BridgelawError(f"no such rulebook file: {name}")
    if path is None:
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise BridgelawError(f"unknown rulebook '{shown}'", expected="one of " + ", ".join(known),
                             suggestion=("a file names its rulebook by id; to try a rulebook file, pass "
                                         "--rulebook PATH on the command line") if looks_like_path
                             else did_you_mean(name[:100], known))
    key = (str(path.resolve()), path.stat().st_mtime, tuple(p.stat().st_mtime for p in known.values()))
    if key not in _cache:
        _cache[key] = load(path)
    return _cache[key]


def siblings(book: Rulebook) -> list[Rulebook]:
    """The rulebooks in `book`'s folder (itself included) that load, each once per process: what a
    ruling under one may say of the others (the findings they ask for, which is in force on a day)."""
    out = []
    for name in available(book.path.parent):
        try:
            out.append(get(name, book.path.parent))
        except BridgelawError:
            continue
    return out
