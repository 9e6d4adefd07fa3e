"""The offered rulebooks (the shipped ones and the user's: rulebook/files.py): listing them, loading each once per process (and once per
change of its files across processes: rulebook/snapshot.py)."""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import BridgelawError, did_you_mean
from ..core.limits import too_long_name
from .files import available, extends_dirs, pins, rules_dir, search_dirs, shared_dirs
from .model import Rulebook
from . import snapshot

_cache: dict[tuple, Rulebook] = {}
_listed: dict = {}      # folder (or the offered folders) → (its mtime(s), its rulebooks)


def listing(directory: Path | None = None) -> dict[str, Path]:
    """The rulebooks of a folder (rulebook.available), listed again only when the folder changed;
    without one, every offered rulebook (the shipped folder's and the user's)."""
    if directory is None:
        folders = search_dirs()
        if len(folders) > 1:
            stamps = tuple(_mtime(d) for d in folders)
            found = _listed.get(tuple(folders))
            if found is None or found[0] != stamps:
                found = _listed[tuple(folders)] = (stamps, available())
            return found[1]
    folder = directory or rules_dir()
    try:
        stamp = os.stat(folder).st_mtime_ns
    except OSError:
        return available(directory)
    found = _listed.get(folder)
    if found is None or found[0] != stamp:
        found = _listed[folder] = (stamp, available(directory))
    return found[1]


def _mtime(path: Path) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def canonical(name: str, known) -> str | None:
    """The id of `known` that `name` names, ignoring case (``EBU`` is ``ebu``); None when none does."""
    if name in known:
        return name
    folded = name.casefold()
    found = [k for k in known if k.casefold() == folded]
    return found[0] if len(found) == 1 else None


def get(name: str, directory: Path | None = None, *, path_ok: bool = False) -> Rulebook:
    """A shipped rulebook by id (case ignored), loaded once per process. A path to a rulebook file
    only with `path_ok` (``--rulebook PATH`` on the command line): a case or traveller names an id.
    Within files.pinned(), each is looked up once."""
    memo = pins()
    if memo is None:
        return _get(name, directory, path_ok)
    key = ("get", name, directory, path_ok)
    book = memo.get(key)
    if book is None:
        book = memo[key] = _get(name, directory, path_ok)
    return book


def _get(name: str, directory: Path | None, path_ok: bool) -> Rulebook:
    known = listing(directory)
    path = known.get(canonical(name, known) or name)
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
    # the file, every rulebook it may extend (a chain) and the shared layers they include, as they are now
    around = [p for d in (*extends_dirs(path), *shared_dirs(path)) for p in listing(d).values()]
    key = (str(path.resolve()), _mtime(path), tuple(_mtime(p) for p in around))
    book = _cache.get(key)
    if book is None:
        book = _cache[key] = snapshot.load(path, _load)
    return book


def _load(path: Path) -> Rulebook:
    from .layers import load           # YAML, the schema and every check: only when no snapshot serves
    return load(path)


def siblings(book: Rulebook) -> list[Rulebook]:
    """The rulebooks offered with `book` — every offered one, or those in its folder when it is a
    file given by path (itself included) that load, each once per process: what a
    ruling under one may say of the others (the findings they ask for, which is in force on a day)."""
    folder = book.path.parent.resolve()
    offered = folder in [d.resolve() for d in search_dirs()]     # a shipped or user folder: all offered
    out = []
    for name in listing(None if offered else book.path.parent):
        try:
            out.append(get(name, None if offered else book.path.parent))
        except BridgelawError:
            continue
    return out
