"""Rulebook snapshots (bridgelaw.rulebook.snapshot): a loaded, checked rulebook kept in the user's
cache folder, keyed by content, read back instead of the YAML; anything stale, corrupt or made for
another day is loaded afresh."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw import rulebook as rulebooks
from bridgelaw.rulebook import registry, snapshot
from bridgelaw.ruling.build import rule_case
from bridgelaw.ruling.case import load_case

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("BRIDGELAW_CACHE_DIR", str(folder))
    monkeypatch.setattr(registry, "_cache", {})
    return folder / "rulebooks"


@pytest.fixture
def rules(tmp_path):
    """A copy of the shipped rules folder (files a test may change)."""
    folder = tmp_path / "rules"
    shutil.copytree(rulebooks.rules_dir(), folder)
    return folder


def fresh_loads(monkeypatch) -> list[Path]:
    loaded: list[Path] = []
    real = registry._load
    monkeypatch.setattr(registry, "_load", lambda path: loaded.append(path) or real(path))
    return loaded


def test_a_snapshot_is_read_back_instead_of_the_yaml(cache, rules, monkeypatch):
    loaded = fresh_loads(monkeypatch)
    first = rulebooks.get("wbf-2017", rules)
    assert len(loaded) == 1
    files = list(cache.glob("*.snapshot"))
    assert len(files) == 1 and len(files[0].stem) == 64 and int(files[0].stem, 16) >= 0   # named by its key
    monkeypatch.setattr(registry, "_cache", {})
    again = rulebooks.get("wbf-2017", rules)
    assert len(loaded) == 1 and again is not first                      # from the snapshot
    assert (again.sha256, again.as_of, [r.id for r in again.all_rules], again.parameters) == \
        (first.sha256, first.as_of, [r.id for r in first.all_rules], first.parameters)
    assert again._decided                                              # the decisions known (Rulebook.prepare)
    case = load_case(CASE)
    a, b = rule_case(case, first), rule_case(case, again)
    assert (b.outcome, b.nos.value, b.os.value) == (a.outcome, a.nos.value, a.os.value) == ("split", F(0), F(-2))
    assert [rec.kind for rec in b.trace.entries] == [rec.kind for rec in a.trace.entries]
    assert all(r.source is None for r in again.all_rules)              # the schema models are left out
    again.forget_decisions()                                           # durable_rules asked again, in this process
    c = rule_case(case, again)
    assert (c.outcome, c.nos.value, c.os.value) == ("split", F(0), F(-2)) and again._decided
    damage = again.evaluator("damage")
    facts = next(d for d in c.trace.decisions() if d.stage == "damage").facts
    assert damage.applicable({**again.parameters, **facts}) == ["split-damage"]


def test_a_changed_file_is_another_key(cache, rules, monkeypatch):
    loaded = fresh_loads(monkeypatch)
    rulebooks.get("wbf-2017", rules)
    shared = rules / "shared" / "wbf-law12.yaml"                       # a shared layer, not the file itself
    shared.write_text(shared.read_text() + "\n# changed\n")
    monkeypatch.setattr(registry, "_cache", {})
    rulebooks.get("wbf-2017", rules)
    assert len(loaded) == 2 and len(list(cache.glob("*.snapshot"))) == 2
    other = rules / "ebu.yaml"                                         # a rulebook beside it
    other.write_text(other.read_text() + "\n# changed\n")
    monkeypatch.setattr(registry, "_cache", {})
    rulebooks.get("wbf-2017", rules)
    assert len(loaded) == 3


def test_a_running_process_sees_a_shared_layer_edited(cache, rules, monkeypatch):
    # the in-process cache was keyed by the rulebooks' times, not the shared layers': a server went on
    # ruling with the shared layer it had first read
    loaded = fresh_loads(monkeypatch)
    first = rulebooks.get("wbf-2017", rules)
    assert rulebooks.get("wbf-2017", rules) is first
    shared = rules / "shared" / "wbf-law12.yaml"
    shared.write_text(shared.read_text() + "\n# changed\n")
    later = os.stat(shared).st_mtime_ns + 10**9
    os.utime(shared, ns=(later, later))
    again = rulebooks.get("wbf-2017", rules)
    assert again is not first and len(loaded) == 2 and again.sha256 != first.sha256


def test_the_cache_folder_keeps_the_newest_snapshots_only(cache, rules, monkeypatch):
    # every edit of a rulebook (or a new bridgelaw) wrote another snapshot, and none was ever removed
    monkeypatch.setattr(snapshot, "MAX_SNAPSHOTS", 2)
    for name in ("wbf-2017", "wbf-2007", "ebu"):
        rulebooks.get(name, rules)
    assert len(list(cache.glob("*.snapshot"))) == 2
    monkeypatch.setattr(registry, "_cache", {})
    assert rulebooks.get("ebu", rules).id == "ebu" and len(list(cache.glob("*.snapshot"))) == 2


@pytest.mark.parametrize("damage", [b"", b"not a snapshot", b"\x80\x05garbage", "truncate"])
def test_a_corrupt_snapshot_is_loaded_afresh(cache, rules, monkeypatch, damage):
    rulebooks.get("wbf-2017", rules)
    file = next(cache.glob("*.snapshot"))
    data = file.read_bytes()
    file.write_bytes(data[: len(data) // 2] if damage == "truncate" else damage)
    loaded = fresh_loads(monkeypatch)
    monkeypatch.setattr(registry, "_cache", {})
    book = rulebooks.get("wbf-2017", rules)
    assert len(loaded) == 1 and book.id == "wbf-2017"
    assert file.read_bytes() != (data[: len(data) // 2] if damage == "truncate" else damage)   # written again


def test_a_snapshot_of_another_day_is_loaded_afresh(cache, rules, monkeypatch):
    import datetime as dt
    book = rulebooks.get("wbf-2017", rules)
    file = next(cache.glob("*.snapshot"))
    with snapshot._Folder.open(cache) as place:
        place.write(file.stem[:64], snapshot.sources_of(rules / "wbf-2017.yaml")[1], book.at(dt.date(2018, 1, 1)))
    loaded = fresh_loads(monkeypatch)
    monkeypatch.setattr(registry, "_cache", {})
    assert rulebooks.get("wbf-2017", rules).as_of == book.as_of and len(loaded) == 1


def test_a_snapshot_with_another_key_inside_is_not_used(cache, rules, monkeypatch):
    rulebooks.get("wbf-2017", rules)
    rulebooks.get("ebu", rules)
    files = sorted(cache.glob("*.snapshot"))
    a, b = files
    a.write_bytes(b.read_bytes())                 # ebu's snapshot under wbf-2017's name, or the other way
    loaded = fresh_loads(monkeypatch)
    monkeypatch.setattr(registry, "_cache", {})
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017" and rulebooks.get("ebu", rules).id == "ebu"
    assert len(loaded) == 1


def test_snapshots_off_and_an_unwritable_folder(tmp_path, rules, monkeypatch):
    monkeypatch.setattr(registry, "_cache", {})
    monkeypatch.setenv("BRIDGELAW_CACHE_DIR", "")
    assert snapshot.cache_dir() is None
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017"
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("BRIDGELAW_CACHE_DIR", str(blocked))
    monkeypatch.setattr(registry, "_cache", {})
    assert rulebooks.get("wbf-2017", rules).id == "wbf-2017"


def test_the_cache_folder_is_the_users(monkeypatch, tmp_path):
    monkeypatch.delenv("BRIDGELAW_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert snapshot.cache_dir() == tmp_path / "xdg" / "bridgelaw" / "rulebooks"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert snapshot.cache_dir() == tmp_path / "home" / ".cache" / "bridgelaw" / "rulebooks"


def test_a_ruling_from_a_snapshot_needs_no_yaml_loader_nor_rule_engine(tmp_path):
    """`bridgelaw rule` served by a snapshot imports neither the rulebook loader and schema nor
    durable_rules, and rules as before."""
    env = {**os.environ, "BRIDGELAW_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import sys, json\nfrom bridgelaw.commands.cli import main\n"
            f"code = main(['rule', {str(CASE)!r}, '--format', 'json'])\n"
            "print(json.dumps([m for m in ('bridgelaw.rulebook.layers', 'bridgelaw.rulebook.schema', "
            "'durable_rules_engine') if m in sys.modules]), file=sys.stderr)\nsys.exit(code)\n")
    outs = []
    for _ in range(2):                                # the first run writes the snapshot
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        outs.append((json.loads(done.stdout), json.loads(done.stderr.strip().splitlines()[-1])))
    (first, first_modules), (second, second_modules) = outs
    assert "bridgelaw.rulebook.layers" in first_modules and second_modules == []
    assert second == first and second["outcome"] == "split"
