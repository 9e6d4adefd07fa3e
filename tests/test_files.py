"""The one writer (core/files.py; issue 24 "Files"): never into anything but a regular file or a
new name, whatever a symbolic link points at; a killed write's temporary file removed and named
by the next write to the same name; every command that writes goes through it."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bridgelaw.commands import cli
from bridgelaw.core.errors import BridgelawError
from bridgelaw.core.files import remove_stale, target_of, write_atomic

ROOT = Path(__file__).resolve().parent.parent
PBN = ROOT / "travellers" / "board-09.pbn"
ADJUSTMENTS = ROOT / "travellers" / "board-09.adjustments.yaml"
EVENT = ROOT / "tests" / "data" / "events" / "ffb-magic-contest-2022-open-dn1-s1.pbn"
CASE = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"


def run(*argv: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def copies(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copy(PBN, tmp_path / PBN.name)
    shutil.copy(ADJUSTMENTS, tmp_path / ADJUSTMENTS.name)
    return tmp_path / PBN.name, tmp_path / ADJUSTMENTS.name


def special_targets(tmp_path: Path) -> dict[str, Path]:
    """Names that lead to something other than a regular file: a FIFO, a link to a FIFO, a
    link to a folder, a folder."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "via-fifo.pbn").symlink_to(fifo)
    (tmp_path / "folder").mkdir()
    (tmp_path / "via-folder.pbn").symlink_to(tmp_path / "folder")
    return {"fifo": fifo, "link to a fifo": tmp_path / "via-fifo.pbn", "folder": tmp_path / "folder",
            "link to a folder": tmp_path / "via-folder.pbn"}


@pytest.mark.parametrize("kind", ["fifo", "link to a fifo", "folder", "link to a folder"])
def test_score_output_refuses_a_special_file_before_any_work(tmp_path, kind):
    pbn, adj = copies(tmp_path)
    target = special_targets(tmp_path)[kind]
    code, out, err = run("score", pbn, "--adjustments", adj, "--output", target)
    assert (code, out) == (2, "")
    real = Path(os.path.realpath(target))
    link = f" (a link to {real})" if target.is_symlink() else ""
    what = "a folder" if real.is_dir() else "not a regular file (a device, pipe or socket)"
    assert err == (f"bridgelaw: error: {target}: cannot write here{link}: it is {what} "
                   "(expected a new file name or a regular file to replace)\n")
    assert Path(os.path.realpath(target)).is_fifo() or real.is_dir()          # still what it was
    assert not any(p.name.endswith(".tmp") for p in tmp_path.rglob("*"))


@pytest.mark.parametrize("kind", ["fifo", "link to a fifo"])
def test_event_output_refuses_a_special_file(tmp_path, kind):
    target = special_targets(tmp_path)[kind]
    code, out, err = run("event", EVENT, "--output", target)
    assert (code, out) == (2, "") and "it is not a regular file (a device, pipe or socket)" in err
    assert len(err.splitlines()) == 1 and Path(os.path.realpath(target)).is_fifo()


def test_a_link_to_a_device_is_refused(tmp_path):
    """A link to /dev/full or /dev/null is refused before anything is opened (as root, os.replace
    used to turn the device into a regular file)."""
    for device in ("/dev/full", "/dev/null"):
        link = tmp_path / Path(device).name
        link.symlink_to(device)
        with pytest.raises(BridgelawError, match=r"it is not a regular file \(a device, pipe or socket\)"):
            target_of(link)
        with pytest.raises(BridgelawError):
            write_atomic(link, "x")
        assert Path(device).is_char_device()


def test_a_link_to_a_regular_file_or_a_new_name_is_written(tmp_path):
    real = tmp_path / "real.pbn"
    real.write_text("old")
    (tmp_path / "link.pbn").symlink_to(real)
    assert write_atomic(tmp_path / "link.pbn", "new") == []
    assert real.read_text() == "new" and (tmp_path / "link.pbn").is_symlink()
    (tmp_path / "dangling.pbn").symlink_to(tmp_path / "not-yet.pbn")
    write_atomic(tmp_path / "dangling.pbn", "made")
    assert (tmp_path / "not-yet.pbn").read_text() == "made"


def dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_a_killed_writes_temporary_file_is_removed_and_named_by_the_next_write(tmp_path):
    pbn, adj = copies(tmp_path)
    out = tmp_path / "scored.pbn"
    stale = tmp_path / f".scored.pbn.{dead_pid()}.abcd1234.tmp"       # a write killed by SIGKILL left it
    stale.write_text("half a file")
    alive = tmp_path / f".scored.pbn.{os.getppid()}.wxyz5678.tmp"     # a write still running: left alone
    alive.write_text("being written")
    other = tmp_path / f".other.pbn.{dead_pid()}.abcd1234.tmp"        # another name's: not this write's
    other.write_text("x")
    code, stdout, err = run("score", pbn, "--adjustments", adj, "--output", out)
    assert code == 0 and stdout
    assert err == (f"bridgelaw: warning: removed {stale}, the temporary file of an earlier write that was killed "
                   "before it finished\n")
    assert not stale.exists() and alive.exists() and other.exists() and out.read_text().startswith("%")


def test_a_sigkilled_write_leaves_a_file_the_next_write_removes(tmp_path):
    """A real SIGKILL in the middle of a write (the process stops inside write())."""
    target = tmp_path / "out.pbn"
    code = ("import os, signal, sys\n"
            "from bridgelaw.core import files\n"
            "real = os.fsync\n"
            "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)\n"
            f"files.write_atomic({str(target)!r}, 'x' * 100000)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert done.returncode == -9
    left = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and not target.exists()
    assert remove_stale(target) == left and not left[0].exists()


def test_the_casebook_writes_through_the_one_writer(tmp_path):
    out = tmp_path / "book"
    (out / "cases").mkdir(parents=True)
    os.mkfifo(out / "index.md")
    code, stdout, err = run("casebook", CASE, "--out", out)
    assert (code, stdout) == (2, "") and "index.md: cannot write here: it is not a regular file" in err
    assert sorted(p.name for p in out.rglob("*")) == ["cases", "index.md"]          # nothing written


def test_a_cache_entry_is_written_whole_without_a_search_and_swept_once(tmp_path, monkeypatch):
    """A cache's entry (impact: thousands to a folder) is written through a renamed temporary file, but
    neither synced nor the folder listed at each write — a write would cost the folder's size, a
    season's writes its square —; remove_stale_in sweeps the whole folder's stale temporaries once."""
    from bridgelaw.core import files
    from bridgelaw.commands.impact import cache_write
    listed, synced = [], []
    real_listdir, real_fsync = os.listdir, os.fsync
    monkeypatch.setattr(os, "listdir", lambda p=".": listed.append(p) or real_listdir(p))
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    for i in range(50):
        cache_write(tmp_path, f"{i:064x}", {"sessions": [], "error": None})
    assert listed == [] and synced == []
    assert len(list(tmp_path.glob("*.json"))) == 50 and not list(tmp_path.glob(".*.tmp"))
    write_atomic(tmp_path / "out.pbn", "x")             # an output the user asked for: synced, its name's stale swept
    assert len(synced) == 1 and len(listed) == 1
    dead = tmp_path / f".{0:064x}.json.{dead_pid()}.abcd1234.tmp"
    alive = tmp_path / f".{1:064x}.json.{os.getppid()}.wxyz5678.tmp"
    for p in (dead, alive):
        p.write_text("half an entry")
    assert files.remove_stale_in(tmp_path) == [dead] and alive.exists() and len(listed) == 2
