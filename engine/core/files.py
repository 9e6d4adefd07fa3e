"""Files bridgelaw writes: never over an input under another name, always whole."""

from __future__ import annotations

import contextlib
import os
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


def write_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` through a temporary file in the same folder and os.replace: a
    reader sees the old file or the new one, never half of one; on failure nothing changes."""
    path = Path(os.path.realpath(path))          # through a symbolic link: the link stays, its target changes
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise BridgelawError(f"cannot write {path}: no such folder {directory}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise BridgelawError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise BridgelawError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
