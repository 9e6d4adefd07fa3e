"""Where rulebook files are: the shipped rules folder, the user's own rulebook folders (``--rules
DIR`` on any command, ``BRIDGELAW_RULES``: a list of folders separated by os.pathsep), the
rulebooks in a folder, the folders a rulebook's ``extends:`` and shared layers are looked for in.

A user's rulebooks are offered beside the shipped ones and may extend and include them; an id that
a shipped rulebook (or another user folder) already has is refused in one line — never shadowed."""

from __future__ import annotations

import functools
import os
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from ..core.errors import BridgelawError

ENV = "BRIDGELAW_RULES"
_given: tuple[Path, ...] = ()           # --rules DIR, in the order given
CALENDAR_FILE = "calendar.yaml"          # rules/calendar.yaml: each body's codes by date (rulebook/calendar.py), not a rulebook


@functools.lru_cache(maxsize=1)
def rules_dir() -> Path:
    """rules/ inside an installed wheel (bridgelaw/rules), else the checkout's top-level rules/."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "rules"
    return packaged if packaged.is_dir() else here.parent / "rules"


def use(folders) -> None:
    """The command line's ``--rules DIR`` folders (each checked now: a folder with rulebooks)."""
    global _given
    _given = tuple(_checked(Path(f), "--rules") for f in folders or ())
    _user_dirs.cache_clear()
    memo = _PINNED.get()
    if memo:                                # other folders offered: nothing looked up before holds
        memo.clear()


def user_dirs() -> list[Path]:
    """The user's rulebook folders: BRIDGELAW_RULES, then --rules (the shipped folder left out)."""
    return list(_user_dirs(os.environ.get(ENV, ""), _given))


@functools.lru_cache(maxsize=8)
def _user_dirs(env: str, given: tuple[Path, ...]) -> tuple[Path, ...]:
    found = [_checked(Path(part), ENV) for part in env.split(os.pathsep) if part.strip()]
    found += given
    shipped = rules_dir().resolve()
    out: list[Path] = []
    for folder in found:
        if folder != shipped and folder not in out:
            out.append(folder)
    return tuple(out)


def _checked(folder: Path, option: str) -> Path:
    if not folder.is_dir():
        raise BridgelawError(f"{option} {folder}: no such folder", expected="a folder holding rulebook files (*.yaml)")
    if not any(folder.glob("*.yaml")):
        raise BridgelawError(f"{option} {folder}: no rulebooks (*.yaml) in it",
                             expected="a folder holding rulebook files (*.yaml)",
                             suggestion="bridgelaw new regulation ID --extends BASE --dir FOLDER writes one")
    return folder.resolve()


def search_dirs() -> list[Path]:
    """The folders whose rulebooks are offered: the shipped folder, then the user's."""
    return [rules_dir(), *user_dirs()]


# within pinned(): what has been looked up (the folders listed, the rulebooks loaded: registry.get)
_PINNED: ContextVar[dict | None] = ContextVar("bridgelaw_rulebooks_pinned", default=None)


@contextmanager
def pinned():
    """Within it, the offered rulebooks are listed, and each is looked up, once (otherwise each time,
    so that a long-running process sees a rulebook file edited): a season's replay asks for the same
    rulebooks three or four times a results file, and does not edit them meanwhile."""
    if _PINNED.get() is not None:
        yield
        return
    token = _PINNED.set({})
    try:
        yield
    finally:
        _PINNED.reset(token)


def pin_process() -> None:
    """Pinned for the rest of this process: a pool's worker process, which ends with its run."""
    if _PINNED.get() is None:
        _PINNED.set({})


def pins() -> dict | None:
    """The lookups kept by the pinned() being run in, if any."""
    return _PINNED.get()


def available(directory: Path | None = None) -> dict[str, Path]:
    """The rulebooks of `directory` (id → file), or without it every offered rulebook: the shipped
    ones, then the user's (an id offered twice is an error naming both files)."""
    memo = _PINNED.get()
    if memo is None:
        return _available(directory)
    key = ("available", directory)
    if key not in memo:
        memo[key] = _available(directory)
    return memo[key]


def _available(directory: Path | None) -> dict[str, Path]:
    if directory is not None:
        return _folder(Path(directory))
    out: dict[str, Path] = {}
    for folder in search_dirs():
        for name, path in _folder(folder).items():
            if name in out:
                shipped = out[name].parent.resolve() == rules_dir().resolve()
                raise BridgelawError(f"{path}: rulebook id '{name}' is already "
                                     + (f"a shipped rulebook's ({out[name].name})" if shipped else f"in {out[name]}"),
                                     expected="an id of its own (a rulebook is never shadowed)",
                                     suggestion=f"rename the file and its rulebook: line, e.g. '{name}-local'")
            out[name] = path
    return out


def _folder(directory: Path) -> dict[str, Path]:
    return {p.stem: p for p in sorted(directory.glob("*.yaml")) if p.name != CALENDAR_FILE}


def extends_dirs(path: Path) -> list[Path]:
    """Where the rulebook a file `extends:` is looked for: the file's own folder, then — unless it
    is a shipped rulebook, which extends only shipped ones — the offered folders."""
    own = Path(path).resolve().parent
    dirs = [own] if own == rules_dir().resolve() else [own, *(d.resolve() for d in search_dirs())]
    return [d for i, d in enumerate(dirs) if d not in dirs[:i]]


def shared_dirs(path: Path) -> list[Path]:
    """Where a rulebook's shared layers are looked for: beside it, then with the shipped rulebooks."""
    dirs = [path.parent / "shared", rules_dir() / "shared"]
    return [d for i, d in enumerate(dirs) if d not in dirs[:i]]


def read_by(path: Path) -> set[Path]:
    """Every file loading the rulebook file `path` may read (resolved): itself, each rulebook beside
    it and in the folders its ``extends:`` is looked up in (extends_dirs) and each shared layer —
    what a rulebook snapshot is keyed by, and what no output of a command may replace."""
    path = Path(path).resolve()
    files = {path}
    for folder in (*extends_dirs(path), *shared_dirs(path)):
        if folder.is_dir():
            files.update(p.resolve() for p in available(folder).values())
    return files
