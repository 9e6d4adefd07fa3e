"""The cache folder holds data, never code (issue 29, item 1): a planted file runs nothing, an edited
snapshot changes no ruling, a link or FIFO at a snapshot's name is neither followed nor waited on,
and a folder others may write in is not used."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw import rulebook as rulebooks
from bridgelaw.commands.cli import main
from bridgelaw.rulebook import registry, snapshot

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "cases" / "law82c" / "artificial-pairs-both-average-plus.yaml"
AVG_PLUS = "artificial.pairs.avg_plus"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("BRIDGELAW_CACHE_DIR", str(folder))
    monkeypatch.setattr(registry, "_cache", {})
    return folder / "rulebooks"


@pytest.fixture
def rules(tmp_path):
    folder = tmp_path / "rules"
    shutil.copytree(rulebooks.rules_dir(), folder)
    return folder


def loads(monkeypatch) -> list[Path]:
    loaded: list[Path] = []
    real = registry._load
    monkeypatch.setattr(registry, "_load", lambda path: loaded.append(path) or real(path))
    monkeypatch.setattr(registry, "_cache", {})
    return loaded


def snapshot_name(cache: Path, rules: Path, monkeypatch) -> Path:
    """The file name of wbf-2017's snapshot (made once, then removed)."""
    rulebooks.get("wbf-2017", rules)
    (file,) = cache.glob("*" + snapshot.SUFFIX)
    file.unlink()
    monkeypatch.setattr(registry, "_cache", {})
    return file


class _Planted:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_planted_pickle_runs_nothing(cache, rules, monkeypatch, tmp_path):
    name = snapshot_name(cache, rules, monkeypatch)
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Planted(marker))
    pickle.loads(payload)                                 # the payload does run code when unpickled
    assert marker.exists()
    marker.unlink()
    name.write_bytes(payload)                             # at the snapshot's name
    name.with_suffix(".pickle").write_bytes(payload)      # and where the pickles of older versions were
    loaded = loads(monkeypatch)
    book = rulebooks.get("wbf-2017", rules)
    assert not marker.exists() and len(loaded) == 1 and book.parameters[AVG_PLUS] == F(3, 5)
    assert not name.with_suffix(".pickle").exists()       # an old pickle is removed, never read
    assert name.read_bytes().startswith(snapshot.MAGIC + b"\n")


def test_a_planted_file_with_the_magic_and_a_pickle_inside_runs_nothing(cache, rules, monkeypatch, tmp_path):
    name = snapshot_name(cache, rules, monkeypatch)
    marker = tmp_path / "ran"
    name.write_bytes(snapshot.MAGIC + b"\n" + b"0" * 64 + b"\n" + pickle.dumps(_Planted(marker)))
    loaded = loads(monkeypatch)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017" and len(loaded) == 1 and not marker.exists()


def _edited(file: Path, secret: bytes | None = None) -> None:
    """wbf-2017's snapshot with average plus 99 % (its HMAC kept, or made with `secret`)."""
    magic, mac, body = file.read_bytes().split(b"\n", 2)
    stored = json.loads(body)
    book = snapshot.decode(stored["book"])
    book.parameters[AVG_PLUS] = F(99, 100)
    stored["book"] = snapshot.encode(book)
    body = json.dumps(stored, separators=(",", ":")).encode()
    if secret is not None:
        mac = hmac.new(secret, body, hashlib.sha256).hexdigest().encode()
    file.write_bytes(b"\n".join((magic, mac, body)))


def rule_json(*args: str, capsys) -> tuple[int, dict | None, str]:
    code = main([*args, "rule", str(CASE), "--format", "json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else None, err


def test_an_edited_snapshot_changes_no_ruling(cache, monkeypatch, capsys):
    code, first, _ = rule_json(capsys=capsys)
    assert code == 0 and first["sides"]["NS"]["exact"] == "72/5"          # 60 % of 24
    (file,) = cache.glob("*" + snapshot.SUFFIX)
    _edited(file)
    monkeypatch.setattr(registry, "_cache", {})
    code, again, err = rule_json("-v", capsys=capsys)
    assert code == 0 and again == first
    assert err == (f"bridgelaw: rulebook snapshot: {file.name}: ignored (its HMAC does not match its content: "
                   "changed since it was written); the rulebook is loaded afresh\n")
    assert file.read_bytes().startswith(snapshot.MAGIC)


def test_an_edit_signed_with_another_secret_is_ignored_and_the_right_one_is_used(cache, rules, monkeypatch):
    rulebooks.get("wbf-2017", rules)
    (file,) = cache.glob("*" + snapshot.SUFFIX)
    _edited(file, secret=b"x" * 32)
    loaded = loads(monkeypatch)
    assert rulebooks.get("wbf-2017", rules).parameters[AVG_PLUS] == F(3, 5) and len(loaded) == 1
    # the check is the HMAC: the same edit signed with this user's secret is read (the secret is what guards)
    _edited(file, secret=(cache / snapshot.SECRET).read_bytes())
    loaded = loads(monkeypatch)
    assert rulebooks.get("wbf-2017", rules).parameters[AVG_PLUS] == F(99, 100) and loaded == []


def test_a_snapshot_of_other_yaml_files_is_not_used(cache, rules, monkeypatch):
    rulebooks.get("wbf-2017", rules)
    (file,) = cache.glob("*" + snapshot.SUFFIX)
    magic, _, body = file.read_bytes().split(b"\n", 2)
    stored = json.loads(body)
    stored["files"][str((rules / "wbf-2017.yaml").resolve())] = "0" * 64
    body = json.dumps(stored).encode()
    mac = hmac.new((cache / snapshot.SECRET).read_bytes(), body, hashlib.sha256).hexdigest().encode()
    file.write_bytes(b"\n".join((magic, mac, body)))
    with snapshot._Folder.open(cache) as place:
        k, files = snapshot.sources_of(rules / "wbf-2017.yaml")
        assert snapshot._verified(file.read_bytes(), place.secret(False), k, files) == \
            ("made from other YAML files", None)


def test_the_secret_and_the_snapshots_are_private(cache, rules):
    rulebooks.get("wbf-2017", rules)
    secret = cache / snapshot.SECRET
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and secret.stat().st_size == 32
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    (file,) = cache.glob("*" + snapshot.SUFFIX)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600


def test_a_secret_others_may_read_is_not_used(cache, rules, monkeypatch, capsys):
    rulebooks.get("wbf-2017", rules)
    os.chmod(cache / snapshot.SECRET, 0o644)
    loaded = loads(monkeypatch)
    monkeypatch.setattr(snapshot, "verbose", True)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017" and len(loaded) == 1
    err = capsys.readouterr().err
    assert f"{cache / snapshot.SECRET}: not used (it must be this user's, 0600 and 32 bytes)" in err


def test_a_link_at_the_snapshots_name_leaves_its_target_untouched(cache, rules, monkeypatch, tmp_path):
    name = snapshot_name(cache, rules, monkeypatch)
    target = tmp_path / "users-file.txt"
    target.write_text("the user's own file\n")
    name.symlink_to(target)
    loaded = loads(monkeypatch)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017" and len(loaded) == 1
    assert target.read_text() == "the user's own file\n"
    assert not name.is_symlink() and name.read_bytes().startswith(snapshot.MAGIC)   # the link replaced


def test_a_dangling_link_creates_nothing_outside(cache, rules, monkeypatch, tmp_path):
    name = snapshot_name(cache, rules, monkeypatch)
    outside = tmp_path / "outside" / "made.pickle"
    outside.parent.mkdir()
    name.symlink_to(outside)
    (cache / "elsewhere").symlink_to(tmp_path / "outside" / "secret")
    loaded = loads(monkeypatch)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017" and len(loaded) == 1
    assert list(outside.parent.iterdir()) == [] and not name.is_symlink()


def test_a_link_at_the_secrets_name_is_not_followed(cache, rules, monkeypatch, tmp_path):
    cache.mkdir(parents=True, mode=0o700)
    stolen = tmp_path / "stolen"
    (cache / snapshot.SECRET).symlink_to(stolen)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017"
    assert not stolen.exists() and list(cache.glob("*" + snapshot.SUFFIX)) == []


def _cli(tmp_path: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "BRIDGELAW_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "bridgelaw", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_a_fifo_at_the_snapshots_name_does_not_block(tmp_path):
    first = _cli(tmp_path, "rule", str(CASE), "--format", "json")
    assert first.returncode == 0, first.stderr
    folder = tmp_path / "cache" / "rulebooks"
    for file in folder.glob("*" + snapshot.SUFFIX):
        file.unlink()
        os.mkfifo(file)
    done = _cli(tmp_path, "-v", "rule", str(CASE), "--format", "json", timeout=60)   # blocked forever before
    assert done.returncode == 0 and json.loads(done.stdout) == json.loads(first.stdout)
    assert "(not a regular file)" in done.stderr
    assert all(stat.S_ISREG(f.lstat().st_mode) for f in folder.glob("*" + snapshot.SUFFIX))   # replaced


def test_a_fifo_at_the_secrets_name_does_not_block(tmp_path):
    folder = tmp_path / "cache" / "rulebooks"
    folder.mkdir(parents=True, mode=0o700)
    os.mkfifo(folder / snapshot.SECRET)
    done = _cli(tmp_path, "rule", str(CASE), "--format", "json", timeout=60)
    assert done.returncode == 0, done.stderr
    assert list(folder.glob("*" + snapshot.SUFFIX)) == []


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_folder_others_may_write_in_is_not_used(cache, rules, monkeypatch, capsys, mode):
    cache.mkdir(parents=True)
    os.chmod(cache, mode)
    monkeypatch.setattr(snapshot, "verbose", True)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017"
    assert os.listdir(cache) == []
    assert capsys.readouterr().err == (f"bridgelaw: rulebook snapshot: not using {cache}: "
                                       "group or others may write in it\n")


def test_a_link_as_the_folder_is_not_used(cache, rules, monkeypatch, tmp_path):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    cache.parent.mkdir()
    cache.symlink_to(real)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017"
    assert os.listdir(real) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_a_folder_of_another_user_is_not_used(cache, rules, monkeypatch, capsys):
    cache.mkdir(parents=True, mode=0o700)
    os.chown(cache, 65534, 65534)
    monkeypatch.setattr(snapshot, "verbose", True)
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017"
    assert os.listdir(cache) == []
    assert capsys.readouterr().err == (f"bridgelaw: rulebook snapshot: not using {cache}: "
                                       "it is not owned by this user\n")


def test_a_snapshot_is_plain_json_after_two_lines(cache, rules):
    rulebooks.get("wbf-2017", rules)
    (file,) = cache.glob("*" + snapshot.SUFFIX)
    magic, mac, body = file.read_bytes().split(b"\n", 2)
    assert magic == snapshot.MAGIC and len(mac) == 64
    stored = json.loads(body)
    assert sorted(stored) == ["as_of", "book", "files", "key"] and stored["key"] == file.stem
    assert stored["files"][str((rules / "wbf-2017.yaml").resolve())] == \
        hashlib.sha256((rules / "wbf-2017.yaml").read_bytes()).hexdigest()


def test_decode_makes_only_the_listed_classes():
    with pytest.raises(KeyError):
        snapshot.decode([snapshot.OBJECT, "posix.system", "command", "true"])
    with pytest.raises(ValueError):
        snapshot.decode([99, "x"])
    with pytest.raises(ValueError):
        snapshot.decode({"__reduce__": 1})
    with pytest.raises(TypeError):
        snapshot.encode(os.system)
    value = {("a", 1): [F(1, 3), frozenset({2}), 2**70, None, True]}
    assert snapshot.decode(json.loads(json.dumps(snapshot.encode(value)))) == value
