"""Rulebooks kept between runs: a loaded, checked rulebook saved in the user's cache folder, so that
a command does not read its YAML, build its schema and check it again on every run.

A snapshot is the resolved rulebook (rulebook/model.py) with what its stages know — the compiled
conditions, each stage's index, the decision for each set of rules that can hold (Rulebook.prepare)
— pickled, without anything of this process (durable_rules' rulesets are made again when asked,
pydantic models and composed YAML nodes are left out).

It is keyed by content: the sha256 of bridgelaw's version and of the source of the modules whose
objects it holds (rulebook/, core/), of the Python version, of the rulebook file's path, and of
every file loading it could read (each rulebook in the folders its ``extends:`` is looked up in —
beside it, and for a user's rulebook the offered folders: rulebook/files.py — and each shared layer). Any change to any of them is another key. A snapshot that does not read back (stale,
corrupt, truncated, another format) is ignored and the rulebook loaded afresh; one made for another
day (the rules in force change with the date) is made again; the newest MAX_SNAPSHOTS are kept.
Files are written whole (core.files.write_atomic: a temporary file, then renamed) under the cache
folder only: ``$BRIDGELAW_CACHE_DIR``, else
``$XDG_CACHE_HOME/bridgelaw``, else ``~/.cache/bridgelaw`` (never in the source tree, never a name
from a request: the file name is the key's hex digest). ``BRIDGELAW_CACHE_DIR=`` (empty) turns
snapshots off; an unwritable folder just means no snapshot.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import pickle
import stat
import sys
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import BridgelawError
from ..core.files import write_atomic
from .files import available, extends_dirs, shared_dirs
from .model import Rule, Rulebook

MAGIC = "bridgelaw rulebook snapshot 1"
MAX_FILES = 256                 # files a key may read (a rulebook folder larger than this: no snapshot)
MAX_BYTES = 16 * 2**20
MAX_SNAPSHOTS = 64              # snapshots kept in the cache folder (the newest)


def cache_dir() -> Path | None:
    """The folder snapshots are kept in, or None when they are turned off."""
    given = os.environ.get("BRIDGELAW_CACHE_DIR")
    if given is not None:
        return Path(given) / "rulebooks" if given else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bridgelaw" / "rulebooks"


@functools.lru_cache(maxsize=1)
def engine_digest() -> bytes:
    """sha256 of bridgelaw's version, the Python version, and the source of rulebook/ and core/."""
    h = hashlib.sha256(f"{MAGIC}\n{__version__}\n{sys.version}\n".encode())
    package = Path(__file__).resolve().parent.parent
    for folder in ("rulebook", "core"):
        for source in sorted((package / folder).glob("*.py")):
            h.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return h.digest()


def key(path: Path) -> str | None:
    """The content key of the rulebook file `path`, or None (too many or too large files to read)."""
    given = str(path)                   # as given: its messages name the file so
    path = Path(path).resolve()
    files = {path}
    for folder in (*extends_dirs(path), *shared_dirs(path)):     # what extends: and include: may read
        if folder.is_dir():
            files.update(available(folder).values())
    if len(files) > MAX_FILES:
        return None
    h = hashlib.sha256(engine_digest())
    where = "" if Path(given).is_absolute() else os.getcwd()
    h.update(f"{given}\0{where}\0{path}\0".encode())
    size = 0
    for file in sorted(files):
        try:
            if not stat.S_ISREG(os.stat(file).st_mode):
                if file == path:
                    return None         # not a regular file: the loader says what is wrong with it
                continue
            with open(file, "rb") as f:
                data = f.read(MAX_BYTES - size + 1)      # bounded: a file may grow while it is read
        except OSError:
            data = b"\0missing"
        size += len(data)
        if size > MAX_BYTES:
            return None
        h.update(str(file).encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def load(path: Path, fresh: Any) -> Rulebook:
    """The rulebook of `path` from its snapshot, else `fresh(path)` (loaded, prepared and snapshotted)."""
    folder = cache_dir()
    k = key(path) if folder is not None else None
    if k is None:
        return fresh(path)
    file = folder / f"{k}.pickle"
    book = _read(file, k)
    if book is not None:
        return book
    book = fresh(path)
    book.prepare()
    _write(folder, file, k, book)
    return book


def _read(file: Path, k: str) -> Rulebook | None:
    try:
        with open(file, "rb") as f:
            magic, stored, _ = pickle.load(f)
            if magic != MAGIC or stored != k:
                return None
            book = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, ImportError,
            IndexError, KeyError, MemoryError, RecursionError):
        return None
    if not isinstance(book, Rulebook) or book.clamp(None) != book.as_of:
        return None                     # made for another day: the rules in force may differ
    return book


def _write(folder: Path, file: Path, k: str, book: Rulebook) -> None:
    try:
        buffer = io.BytesIO()
        pickle.dump((MAGIC, k, book.as_of.isoformat()), buffer, protocol=pickle.HIGHEST_PROTOCOL)
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(book)
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(file, buffer.getvalue())
    except (OSError, BridgelawError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return                          # no snapshot: the next run loads afresh
    _prune(folder, keep=file)


def _prune(folder: Path, keep: Path) -> None:
    """At most MAX_SNAPSHOTS snapshots in the folder: the ones written longest ago are removed (each
    edit of a rulebook, or a new bridgelaw, writes another)."""
    try:
        found = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    for old in found[MAX_SNAPSHOTS:]:
        if old != keep:
            with contextlib.suppress(OSError):
                old.unlink()


class _Pickler(pickle.Pickler):
    """Leaves out what belongs to one load: a rule's schema model (used while its layers are
    applied) and a document's composed YAML nodes (made again when an error needs a position)."""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is Rule:
            return _new, (Rule,), {**obj.__dict__, "source": None}
        if type(obj).__name__ == "Document" and type(obj).__module__.endswith("core.yamlio"):
            return _new, (type(obj),), {**obj.__dict__, "_marked": None}
        return NotImplemented


def _new(cls: type) -> Any:
    return cls.__new__(cls)

