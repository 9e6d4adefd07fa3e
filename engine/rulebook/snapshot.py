"""Rulebooks kept between runs: a loaded, checked rulebook saved in the user's cache folder, so that
a command does not read its YAML, build its schema and check it again on every run.

A snapshot holds data, never code. It is the resolved rulebook (rulebook/model.py) with what its
stages know — the compiled conditions, each stage's index, the decision for each set of rules
that can hold (Rulebook.prepare) — written as JSON of plain values: lists, numbers, text, and
arrays tagged with a small number for what JSON lacks (a tuple, a dict with keys that are not
text, a set, a Fraction as numerator and denominator, a date, a path, an integer beyond 2^53, an
object as the name of its class and its fields, a reference to an object met before). Reading it
back builds only the classes listed in ``_CLASSES`` (rulebook objects, never a function, a module
or anything named by the file) and sets their fields: nothing a file holds is called. JSON rather
than marshal: marshal reads code objects and is documented as unsafe on hostile input; JSON's
reader only makes lists, dicts, text and numbers. Nothing of this process is kept (durable_rules'
rulesets are made again when asked, pydantic models and composed YAML nodes are left out, and so
are the decisions kept by the facts they were asked with, and each rulebook file's parsed data: a
place keeps the file's text, to find a line when one is shown).

A snapshot is checked before it is used: its first line names the format, its second is an HMAC
(sha256) of the rest made with a secret of this user's (the file ``secret`` in the cache folder,
32 random bytes, created 0600 with O_CREAT|O_EXCL|O_NOFOLLOW); then the key, the sha256 of each
YAML file it was made from and the day it was made for must be the ones of this run. A snapshot
that fails any check (edited, truncated, another format, another key or day, stale) is ignored and
the rulebook loaded afresh (and written again); ``bridgelaw -v`` says why on stderr.

It is keyed by content: the sha256 of bridgelaw's version and of the source of the modules whose
objects it holds (rulebook/, core/), of the Python version, of the rulebook file's path, and of
every file loading it could read (rulebook/files.read_by: each rulebook in the folders its ``extends:``
is looked up in — beside it, and for a user's rulebook the offered folders — and each shared layer). Any change to any of them is another key; the newest MAX_SNAPSHOTS are kept.

The cache folder is ``$BRIDGELAW_CACHE_DIR``, else ``$XDG_CACHE_HOME/bridgelaw``, else
``~/.cache/bridgelaw`` (never in the source tree, never a name from a request: the file name is the
key's hex digest); ``BRIDGELAW_CACHE_DIR=`` (empty) turns snapshots off. Its ``rulebooks`` folder is
used only when it is a folder (not a link) owned by this user and not writable by group or others
(made 0700 when missing); every file in it is opened through the folder's descriptor without
following links (O_NOFOLLOW) and without blocking (O_NONBLOCK), and read only when fstat says it
is a regular file — a FIFO, a device or a link at a snapshot's name is neither read nor followed.
A snapshot is written to a new temporary file (O_CREAT|O_EXCL|O_NOFOLLOW) renamed over the name:
a link there is replaced, its target never written. An unusable folder just means no snapshot.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import hmac
import json
import math
import os
import secrets
import stat
import sys
from fractions import Fraction
from pathlib import Path, PurePath
from typing import Any

from .. import __version__
from ..core import yamlio
from ..core.files import remove_stale, write_in_folder
from . import conditions, formula, infractions, sources
from .adapter import Index, StageEvaluator, _Part
from .decide import Decision
from .files import read_by
from .model import Bound, Dated, Paragraph, Place, Rule, Rulebook

MAGIC = b"bridgelaw rulebook snapshot 2 (json, hmac-sha256)"
SUFFIX = ".snapshot"
MAX_FILES = 256                 # files a key may read (a rulebook folder larger than this: no snapshot)
MAX_BYTES = 16 * 2**20          # bytes of YAML a key may read
MAX_SNAPSHOT = 64 * 2**20       # a snapshot larger than this is not read
MAX_SNAPSHOTS = 64              # snapshots kept in the cache folder (the newest)
SECRET = "secret"
verbose = False                 # `bridgelaw -v`: say on stderr why a snapshot is not used


_said: set[str] = set()


def set_verbose(flag: bool) -> None:
    """``bridgelaw -v``: say why a snapshot is not used (each reason once per command)."""
    global verbose
    verbose = flag
    _said.clear()


def say(message: str) -> None:
    """`message` on stderr under ``-v``, once per process (a folder not used is said once, not per rulebook)."""
    if verbose and message not in _said:
        _said.add(message)
        print(f"bridgelaw: rulebook snapshot: {message}", file=sys.stderr)


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
    h = hashlib.sha256(MAGIC + f"\n{__version__}\n{sys.version}\n".encode())
    package = Path(__file__).resolve().parent.parent
    for folder in ("rulebook", "core"):
        for source in sorted((package / folder).glob("*.py")):
            h.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return h.digest()


def sources_of(path: Path) -> tuple[str, dict[str, str]] | None:
    """The content key of the rulebook file `path` and the sha256 of each file it is made from, or
    None (too many or too large files to read, or `path` not a regular file)."""
    given = str(path)                   # as given: its messages name the file so
    path = Path(path).resolve()
    files = read_by(path)
    if len(files) > MAX_FILES:
        return None
    h = hashlib.sha256(engine_digest())
    where = "" if Path(given).is_absolute() else os.getcwd()
    h.update(f"{given}\0{where}\0{path}\0".encode())
    size, digests = 0, {}
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
        digest = hashlib.sha256(data).hexdigest()
        digests[str(file)] = digest
        h.update(str(file).encode() + b"\0" + bytes.fromhex(digest))
    return h.hexdigest(), digests


def key(path: Path) -> str | None:
    """The content key of the rulebook file `path` (see :func:`sources_of`)."""
    found = sources_of(path)
    return found[0] if found else None


def load(path: Path, fresh: Any) -> Rulebook:
    """The rulebook of `path` from its snapshot, else `fresh(path)` (loaded, prepared and snapshotted)."""
    folder = cache_dir()
    found = sources_of(path) if folder is not None else None
    if found is None:
        return fresh(path)
    k, files = found
    with _Folder.open(folder) as place:
        book = place.read(k, files) if place else None
        if book is not None:
            return book
        book = fresh(path)
        book.prepare()
        if place:
            place.write(k, files, book)
    return book


# --- the cache folder ---------------------------------------------------------------------------

# a system without these (Windows) keeps no snapshot: the checks below need every one of them
SUPPORTED = (all(hasattr(os, flag) for flag in ("O_NOFOLLOW", "O_NONBLOCK", "O_DIRECTORY", "geteuid"))
             and os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd)
_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_CREATE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))


class _Folder:
    """The cache folder, opened once (O_DIRECTORY|O_NOFOLLOW) and checked: every file is opened
    relative to its descriptor, so the folder cannot be swapped for another between the check
    and the use."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd, self.path = fd, path
        self._secret: bytes | None = None

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: Path) -> Any:
        fd = cls._checked(path)
        if fd is None:
            yield None
            return
        try:
            yield cls(fd, path)
        finally:
            os.close(fd)

    @staticmethod
    def _checked(path: Path) -> int | None:
        if not SUPPORTED:
            say("not kept on this system (no O_NOFOLLOW, O_DIRECTORY or dir_fd)")
            return None
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            say(f"not using {path}: {exc.strerror or exc}")
            return None
        info = os.fstat(fd)
        problem = None
        if info.st_uid != os.geteuid():
            problem = "it is not owned by this user"
        elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            problem = "group or others may write in it"
        if problem:
            os.close(fd)
            say(f"not using {path}: {problem}")
            return None
        return fd

    def _open_regular(self, name: str) -> tuple[int, os.stat_result] | None:
        """`name` in the folder opened for reading, when it is a regular file (never followed,
        never waited on); None when missing or anything else."""
        try:
            fd = os.open(name, _READ, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        except OSError as exc:
            say(f"{name}: not read ({exc.strerror or exc})")
            return None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            say(f"{name}: not read (not a regular file)")
            return None
        return fd, info

    def secret(self, create: bool) -> bytes | None:
        """This user's key for the snapshots' HMAC (made when missing and `create`)."""
        if self._secret is not None:
            return self._secret
        opened = self._open_regular(SECRET)
        if opened is None and create:
            self._make_secret()
            opened = self._open_regular(SECRET)
        if opened is None:
            return None
        fd, info = opened
        with os.fdopen(fd, "rb") as f:
            data = f.read(33)
        if info.st_uid != os.geteuid() or info.st_mode & 0o077 or len(data) != 32:
            say(f"{self.path / SECRET}: not used (it must be this user's, 0600 and 32 bytes)")
            return None
        self._secret = data
        return data

    def _make_secret(self) -> None:
        # written whole under a temporary name, then linked to its name: a reader never sees a part
        tmp = f".{SECRET}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, _CREATE, 0o600, dir_fd=self.fd)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(secrets.token_bytes(32))
                f.flush()
                os.fsync(f.fileno())
            with contextlib.suppress(FileExistsError):
                os.link(tmp, SECRET, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=self.fd)

    def read(self, k: str, files: dict[str, str]) -> Rulebook | None:
        name = k + SUFFIX
        opened = self._open_regular(name)
        if opened is None:
            return None
        fd, info = opened
        with os.fdopen(fd, "rb") as f:
            data = f.read(MAX_SNAPSHOT + 1) if info.st_size <= MAX_SNAPSHOT else b""
        secret = self.secret(create=False)
        why, book = _verified(data, secret, k, files)
        if why:
            say(f"{name}: ignored ({why}); the rulebook is loaded afresh")
        return book

    def write(self, k: str, files: dict[str, str], book: Rulebook) -> None:
        secret = self.secret(create=True)
        if secret is None:
            return
        try:
            body = json.dumps({"key": k, "files": files, "as_of": book.as_of.isoformat(), "book": encode(book)},
                              separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
        except (TypeError, ValueError, RecursionError) as exc:
            say(f"not written ({exc})")
            return
        data = MAGIC + b"\n" + hmac.new(secret, body, hashlib.sha256).hexdigest().encode() + b"\n" + body
        try:
            remove_stale(self.path / (k + SUFFIX))
            write_in_folder(self.fd, k + SUFFIX, data)
        except OSError as exc:
            say(f"not written ({exc.strerror or exc})")
            return
        self._prune(keep=k + SUFFIX)

    def _prune(self, keep: str) -> None:
        """At most MAX_SNAPSHOTS snapshots in the folder: the ones written longest ago are removed (each
        edit of a rulebook, or a new bridgelaw, writes another), and the pickles of older versions."""
        found = []
        try:
            names = os.listdir(self.fd)
        except OSError:
            return
        for name in names:
            if not name.endswith((SUFFIX, ".pickle")) or name == keep:
                continue
            try:
                info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            except OSError:
                continue
            if name.endswith(".pickle"):
                if stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode):
                    with contextlib.suppress(OSError):
                        os.unlink(name, dir_fd=self.fd)
                continue
            found.append((info.st_mtime_ns, name))
        found.sort(reverse=True)
        for _, old in found[MAX_SNAPSHOTS - 1:]:
            with contextlib.suppress(OSError):
                os.unlink(old, dir_fd=self.fd)


def _verified(data: bytes, secret: bytes | None, k: str, files: dict[str, str]) -> tuple[str | None, Rulebook | None]:
    """(why the snapshot `data` is not used, or None; the rulebook it holds)."""
    magic, _, rest = data.partition(b"\n")
    mac, _, body = rest.partition(b"\n")
    if magic != MAGIC:
        return "another format", None
    if secret is None:
        return "no secret to check it with", None
    if not hmac.compare_digest(mac, hmac.new(secret, body, hashlib.sha256).hexdigest().encode()):
        return "its HMAC does not match its content: changed since it was written", None
    try:
        stored = json.loads(body)
        if stored["key"] != k:
            return "made for another key", None
        if stored["files"] != files:
            return "made from other YAML files", None
        book = decode(stored["book"])
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, MemoryError) as exc:
        return f"not readable ({type(exc).__name__})", None
    if not isinstance(book, Rulebook) or stored["as_of"] != book.as_of.isoformat():
        return "not a rulebook", None
    if book.clamp(None) != book.as_of:
        return "made for another day (the rules in force may differ)", None
    return None, book


# --- plain values -------------------------------------------------------------------------------

# The classes a snapshot may hold, by name: nothing else is ever made from one.
_CLASSES: dict[str, type] = {f"{cls.__module__.rpartition('.')[2]}.{cls.__qualname__}": cls for cls in (
    Rulebook, Rule, Paragraph, Place, Bound, Dated, yamlio.Document,
    sources.Document, sources.Citation, sources.ParameterSource, infractions.Empowerment,
    conditions.Name, conditions.Const, conditions.Word, conditions.All, conditions.Any_, conditions.Not,
    conditions.Compare, conditions.Is, conditions.In, conditions.Given, conditions.Always,
    formula.Formula, formula.Num, formula.Var, formula.Neg, formula.BinOp, formula.Call,
    StageEvaluator, _Part, Index, Decision)}
_NAMES = {cls: name for name, cls in _CLASSES.items()}
# what is left out: a rule's schema model, a document's composed nodes, the decisions kept by facts,
# and a rulebook file's parsed data (a Place keeps its document for the text, to find a position)
_LEFT_OUT: dict[type, dict[str, Any]] = {Rule: {"source": None}, yamlio.Document: {"_marked": None, "tree": None},
                                         Rulebook: {"_by_facts": {}}}
LIST, TUPLE, DICT, SET, FROZENSET, FRACTION, DATE, PATH, OBJECT, REF, BIG, FLOAT = range(12)
_EXACT = 2**53


def encode(value: Any) -> Any:
    """`value` as plain JSON values (see the module's docstring); TypeError for anything else."""
    memo: dict[int, int] = {}
    keep: list[Any] = []                # the objects met (their ids stay theirs while encoding)

    def enc(v: Any) -> Any:
        t = type(v)
        if t is str or t is bool or v is None:
            return v
        if t is int:
            return v if -_EXACT < v < _EXACT else [BIG, format(v, "x")]
        if t is float:
            return v if math.isfinite(v) else [FLOAT, repr(v)]
        if t is Fraction:
            return [FRACTION, enc(v.numerator), enc(v.denominator)]
        if t is tuple:
            return [TUPLE, *map(enc, v)]
        if t is frozenset:
            return [FROZENSET, *map(enc, v)]
        if t is dt.date:
            return [DATE, v.isoformat()]
        if isinstance(v, PurePath):
            return [PATH, str(v)]
        seen = memo.get(id(v))
        if seen is not None:
            return [REF, seen]
        memo[id(v)] = len(memo)
        keep.append(v)
        if t is list:
            return [LIST, *map(enc, v)]
        if t is dict:
            out: list[Any] = [DICT]
            for item in v.items():
                out += map(enc, item)
            return out
        if t is set:
            return [SET, *map(enc, v)]
        name = _NAMES.get(t)
        if name is None:
            raise TypeError(f"a snapshot does not hold {t.__name__}")
        if hasattr(t, "__slots__"):
            state = {slot: getattr(v, slot) for slot in t.__slots__}
        else:
            state = v.__getstate__()
        state = {**state, **_LEFT_OUT.get(t, {})}
        out = [OBJECT, name]
        for item in state.items():
            out += map(enc, item)
        return out

    return enc(value)


def decode(tree: Any) -> Any:
    """The value `encode` made `tree` from; ValueError for anything encode does not make."""
    made: list[Any] = []

    def dec(x: Any) -> Any:
        if type(x) is not list:
            if type(x) is dict:
                raise ValueError("a JSON object inside a value")
            return x
        tag = x[0]
        if tag == TUPLE:
            return tuple(map(dec, x[1:]))
        if tag == FRACTION:
            return Fraction(_int(dec(x[1])), _int(dec(x[2])))
        if tag == OBJECT:
            cls = _CLASSES[x[1]]
            obj = cls.__new__(cls)
            made.append(obj)
            state = {_text(dec(x[i])): dec(x[i + 1]) for i in range(2, len(x) - 1, 2)}
            if hasattr(cls, "__slots__"):
                for name, value in state.items():
                    if name not in cls.__slots__:
                        raise ValueError(f"{x[1]} has no field {name}")
                    object.__setattr__(obj, name, value)
            elif cls is StageEvaluator:
                obj.__setstate__(state)
            else:
                obj.__dict__.update(state)
            return obj
        if tag == REF:
            return made[x[1]]
        if tag == LIST:
            out: Any = []
            made.append(out)
            out.extend(map(dec, x[1:]))
            return out
        if tag == DICT:
            out = {}
            made.append(out)
            for i in range(1, len(x) - 1, 2):
                out[dec(x[i])] = dec(x[i + 1])
            return out
        if tag == SET:
            at = len(made)
            made.append(None)
            out = made[at] = set(map(dec, x[1:]))
            return out
        if tag == FROZENSET:
            return frozenset(map(dec, x[1:]))
        if tag == DATE:
            return dt.date.fromisoformat(_text(x[1]))
        if tag == PATH:
            return Path(_text(x[1]))
        if tag == BIG:
            return int(_text(x[1]), 16)
        if tag == FLOAT:
            return float(_text(x[1]))
        raise ValueError(f"unknown tag {tag!r}")

    return dec(tree)


def _int(v: Any) -> int:
    if type(v) is not int:
        raise ValueError("not an integer")
    return v


def _text(v: Any) -> str:
    if type(v) is not str:
        raise ValueError("not text")
    return v
