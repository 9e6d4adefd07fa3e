"""Files bridgelaw writes: never over an input under another name, never into anything but a
regular file, always whole.

:func:`write_atomic` is the one writer of every command (``score --output/--in-place``,
``event --output``, ``casebook``): it writes a temporary file beside the target and renames it
over the target, so a reader sees the old file or the new one. The target — after following
symbolic links — must be a new name or a regular file: a link to ``/dev/full``, a FIFO or a
folder is refused before anything is written (``os.replace`` would have put a regular file in
the device's place). A write killed before its rename (SIGKILL, a power cut) leaves its
temporary file, named ``.NAME.PID.XXXXXXXX.tmp`` after the process that wrote it; the next write
to the same name removes those whose process is gone, and reports them.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import tempfile
from pathlib import Path

from .errors import BridgelawError


def same_file(a: Path, b: Path) -> bool:
    """Whether two names are one file (through links), so that an output never overwrites an input."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def target_of(path: str | Path) -> Path:
    """The file a write to `path` would change (symbolic links followed); a BridgelawError when it
    is anything but a regular file or a name that does not exist yet."""
    real = Path(os.path.realpath(path))   # through a symbolic link: the link stays, its target changes
    try:
        info = os.stat(real)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise BridgelawError(f"cannot write {path}: {exc.strerror or exc}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a device, pipe or socket)"
        shown = f" (a link to {real})" if str(real) != os.path.abspath(path) else ""
        raise BridgelawError(f"cannot write here{shown}: it is {what}", file=str(path),
                             expected="a new file name or a regular file to replace")
    directory = real.parent
    if not directory.is_dir():
        raise BridgelawError(f"cannot write {real}: no such folder {directory}")
    return real


def write_atomic(path: str | Path, text: str | bytes, encoding: str = "utf-8", *, durable: bool = True,
                 tidy: bool = True) -> list[Path]:
    """Write `text` (or bytes) to `path` through a temporary file in the same folder and os.replace:
    a reader sees the old file or the new one, never half of one; on failure nothing changes.
    Returns the stale temporary files of earlier, killed writes to the same name that it removed.
    (`durable`, `tidy`: see :func:`write_all`.)"""
    return write_all([(path, text, encoding)], durable=durable, tidy=tidy)


def write_all(writes: list[tuple[str | Path, str | bytes, str]], *, durable: bool = True,
              tidy: bool = True) -> list[Path]:
    """Write several files (path, text or bytes, encoding) all or none: each is written whole to a
    temporary file beside its target, and only when every one of them is written (and synced) are
    they renamed over their targets, one after the other; on any failure the temporary files are
    removed and no target has changed (a BridgelawError naming the file). Two outputs naming one
    file are refused. Returns the stale temporary files of earlier, killed writes it removed.

    A cache's entries (data that can be made again, thousands to a folder) are written with
    `durable` false — not synced to the disk before the rename: a crash may lose the entry, never
    leave half of one — and `tidy` false: the folder is not searched for stale temporary files at
    each write (:func:`remove_stale_in` sweeps it once)."""
    targets = [target_of(path) for path, _, _ in writes]      # resolved: links followed
    seen: dict[object, int] = {}
    for i, target in enumerate(targets):
        try:
            info = os.stat(target)
            inode: object = (info.st_dev, info.st_ino)
        except OSError:
            inode = None
        for mark in (str(target), inode):
            if mark is None:
                continue
            if mark in seen:
                raise BridgelawError(f"{writes[i][0]} and {writes[seen[mark]][0]} are the same file",
                                     expected="one output per file")
            seen[mark] = i
    removed = [stale for target in targets for stale in remove_stale(target)] if tidy else []
    temporaries: list[str] = []
    try:
        for target, (_, text, encoding) in zip(targets, writes):
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
            except OSError as exc:
                raise BridgelawError(f"cannot write {target}: {exc.strerror or exc}") from None
            temporaries.append(tmp)
            try:
                binary = isinstance(text, bytes)
                with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding=encoding, newline="") as f:
                    f.write(text)
                    f.flush()
                    if durable:
                        os.fsync(f.fileno())
                if target.exists():
                    os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    os.chmod(tmp, 0o666 & ~umask)
            except OSError as exc:
                raise BridgelawError(f"cannot write {target}: {exc.strerror or exc}") from None
        for target, tmp in zip(targets, list(temporaries)):
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise BridgelawError(f"cannot write {target}: {exc.strerror or exc}") from None
            temporaries.remove(tmp)
    finally:
        for tmp in temporaries:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return removed


def input_named(target: str | Path, inputs: list[tuple[str, str | Path]]) -> str | None:
    """What input of the command (`inputs`: (what, name) pairs) the output `target` would
    replace — the same file by its resolved path (symbolic links followed) or by device and inode
    (a hard link) — or None."""
    real = os.path.realpath(target)
    try:
        info = os.stat(real)
    except OSError:
        info = None
    for what, name in inputs:
        if name is None:
            continue
        if os.path.realpath(name) == real:
            return what
        if info is not None:
            try:
                other = os.stat(name)
            except OSError:
                continue
            if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
                return what
    return None


def refuse_inputs(option: str, targets: list[str], inputs: list[tuple[str, str | Path]]) -> None:
    """A BridgelawError when an output names an input of the command (nothing is written then)."""
    for target in targets:
        what = input_named(target, inputs)
        if what is not None:
            raise BridgelawError(f"{option} {target} is {what}; an output never replaces an input",
                                 expected="a new file name")


def remove_stale(target: Path) -> list[Path]:
    """Remove the temporary files ``.NAME.PID.XXXXXXXX.tmp`` beside `target` whose writing process
    no longer runs (a write killed before its rename); the ones removed."""
    return _remove_stale(target.parent, re.escape(f".{target.name}."))


def remove_stale_in(folder: Path) -> list[Path]:
    """:func:`remove_stale` for every file of `folder` at once (one listing of the folder)."""
    return _remove_stale(folder, r"\..+\.")


def _remove_stale(folder: Path, prefix: str) -> list[Path]:
    pattern = re.compile(prefix + r"([0-9]+)\.[A-Za-z0-9_]{8}\.tmp")
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        m = pattern.fullmatch(name)
        if m is None or _running(int(m[1])):
            continue
        stale = folder / name
        try:
            if stat.S_ISREG(os.lstat(stale).st_mode):
                os.unlink(stale)
                removed.append(stale)
        except OSError:
            continue
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True                       # another user's process (or a number no process has): leave it
    return True


def write_in_folder(folder_fd: int, name: str, data: bytes) -> None:
    """Write `data` to `name` in the folder open as `folder_fd` (a private folder: the rulebook
    snapshots), whole and without following a link: a new temporary file (O_CREAT|O_EXCL|O_NOFOLLOW,
    0600) renamed over the name — a link, FIFO or file there is replaced, never written through.
    OSError when it cannot (nothing is left behind)."""
    tmp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, 0o600, dir_fd=folder_fd)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder_fd)
        raise
