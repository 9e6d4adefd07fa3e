"""Rulebook folders of the user's own (--rules DIR, BRIDGELAW_RULES): offered beside the shipped
rulebooks, extending and including them, never shadowing one; `bridgelaw new regulation`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bridgelaw import rulebook as rulebooks
from bridgelaw.commands import cli
from bridgelaw.rulebook import files, snapshot

ROOT = Path(__file__).resolve().parent.parent
EVENT = ROOT / "tests" / "data" / "events" / "compscore-mp-pairs-mitchell.xml"


@pytest.fixture(autouse=True)
def _no_user_rules(monkeypatch):
    monkeypatch.delenv(files.ENV, raising=False)
    files.use([])
    yield
    files.use([])


def _new(tmp_path, rid="nbo-2026", base="wbf-2017") -> Path:
    folder = tmp_path / "nbo"
    assert cli.main(["new", "regulation", rid, "--extends", base, "--dir", str(folder)]) == 0
    return folder


def test_new_regulation_loads_lints_and_checks_clean(tmp_path, capsys):
    folder = _new(tmp_path)
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml")) == [
        "cases/nbo-2026-average-plus.yaml", "nbo-2026.yaml"]
    text = (folder / "nbo-2026.yaml").read_text()
    for needed in ("extends: wbf-2017", "url: ", "kind: regulation", "effective:\n  from: ", "  source: ",
                   "avg_plus: {value: 60%, cites: [NBO-2026/1]}", "NBO-2026/1:\n    source: {document: "):
        assert needed in text, needed
    capsys.readouterr()
    assert cli.main(["lint", "--rules", str(folder), "nbo-2026"]) == 0
    out = capsys.readouterr().out
    assert "no gap, no overlap, no missing fact" in out
    assert cli.main(["check", "--rules", str(folder), "--rulebook", "nbo-2026", str(folder / "cases")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "1 passed, 0 failed"
    assert "PASS" in out and "NS 14 2/5  EW 9 3/5 MP" in out      # 60% and 40% of a top of 24
    book = rulebooks.get("nbo-2026")
    assert book.chain == ["wbf-2017", "nbo-2026"] and book.dated["artificial.pairs.avg_plus"][0].cites == ("NBO-2026/1",)


def test_new_regulation_refuses_to_overwrite_and_bad_ids(tmp_path, capsys):
    folder = _new(tmp_path)
    before = (folder / "nbo-2026.yaml").read_bytes()
    capsys.readouterr()
    assert cli.main(["new", "regulation", "nbo-2026", "--extends", "wbf-2017", "--dir", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == f"bridgelaw: error: new regulation: {folder}/nbo-2026.yaml exists already; nothing is written " \
                  "(expected a new id, or another --dir)\n"
    assert (folder / "nbo-2026.yaml").read_bytes() == before
    assert cli.main(["new", "regulation", "Bad Id", "--extends", "wbf-2017", "--dir", str(tmp_path / "x")]) == 2
    assert "'Bad Id' is not a rulebook id" in capsys.readouterr().err
    assert cli.main(["new", "regulation", "ebu", "--extends", "wbf-2017", "--dir", str(tmp_path / "x")]) == 2
    assert "'ebu' is already a rulebook's id" in capsys.readouterr().err
    assert cli.main(["new", "regulation", "nbo-x", "--extends", "wbf-2099", "--dir", str(tmp_path / "x")]) == 2
    assert "unknown rulebook 'wbf-2099'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_user_rulebooks_are_offered_beside_the_shipped_ones(tmp_path, capsys):
    folder = _new(tmp_path)
    shipped = [p.stem for p in sorted((ROOT / "rules").glob("*.yaml")) if p.name != files.CALENDAR_FILE]
    assert list(rulebooks.available()) == shipped
    files.use([folder])
    assert list(rulebooks.available()) == [*shipped, "nbo-2026"]
    files.use([])
    capsys.readouterr()
    assert cli.main(["rulebooks", "--rules", str(folder)]) == 0
    lines = capsys.readouterr().out.split("\n\n")[0].splitlines()    # the rulebooks (the calendar follows)
    assert lines[-2].startswith("nbo-2026") and lines[-2].endswith(f"(extends wbf-2017)  [{folder.resolve()}]")
    assert all("[" not in line for line in lines[:-2])         # the shipped ones: no folder shown
    assert lines[-1].split() == ["sourced", "100%:", "59/59", "paragraphs,", "35/35", "parameters;", "33/59",
                                 "texts", "confirmed", "from", "an", "English", "source"]


def test_the_environment_names_folders_too(tmp_path, monkeypatch, capsys):
    folder = _new(tmp_path)
    other = tmp_path / "other"
    monkeypatch.setenv(files.ENV, str(folder))
    assert cli.main(["new", "regulation", "nbo-2027", "--extends", "nbo-2026", "--dir", str(other)]) == 0
    monkeypatch.setenv(files.ENV, f"{folder}{os.pathsep}{os.pathsep}{other}")      # an empty entry is no folder
    assert list(rulebooks.available())[-2:] == ["nbo-2026", "nbo-2027"]
    assert rulebooks.get("nbo-2027").chain == ["wbf-2017", "nbo-2026", "nbo-2027"]   # a user's on a user's
    capsys.readouterr()
    monkeypatch.setenv(files.ENV, str(tmp_path / "missing"))
    assert cli.main(["rulebooks"]) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: BRIDGELAW_RULES {tmp_path}/missing: no such folder "
                                       "(expected a folder holding rulebook files (*.yaml))\n")


def test_an_id_of_a_shipped_rulebook_is_refused_in_one_line(tmp_path, capsys):
    clash = tmp_path / "clash"
    clash.mkdir()
    shutil.copy(ROOT / "rules" / "ebu.yaml", clash / "ebu.yaml")
    for argv in (["rulebooks"], ["rule", str(ROOT / "cases" / "jurisdictions" / "ebu-both-at-fault.yaml")],
                 ["check", "--rulebook", "all", str(ROOT / "cases" / "jurisdictions")], ["lint", "ebu"]):
        assert cli.main([*argv, "--rules", str(clash)]) == 2, argv
        err = capsys.readouterr().err
        assert err == (f"bridgelaw: error: {clash}/ebu.yaml: rulebook id 'ebu' is already a shipped rulebook's "
                       "(ebu.yaml) (expected an id of its own (a rulebook is never shadowed)); rename the file and "
                       "its rulebook: line, e.g. 'ebu-local'\n"), (argv, err)


def test_a_user_rulebook_includes_a_shipped_shared_layer(tmp_path):
    folder = tmp_path / "own"
    folder.mkdir()
    text = (ROOT / "rules" / "wbf-2017.yaml").read_text()
    assert "\ninclude: [wbf-law64, wbf-law12]" in text
    (folder / "own-laws.yaml").write_text(text.replace("rulebook: wbf-2017", "rulebook: own-laws", 1))
    files.use([folder])
    book = rulebooks.get("own-laws")
    shipped = rulebooks.get("wbf-2017")
    assert [r.id for r in book.all_rules] == [r.id for r in shipped.all_rules]


def test_a_rulebook_file_given_by_path_extends_a_shipped_one(tmp_path, capsys):
    """The issue's first complaint: `--rulebooks wbf-2017,./nbo.yaml` failed outside the checkout."""
    folder = _new(tmp_path)
    capsys.readouterr()
    assert cli.main(["compare", "--rulebooks", f"wbf-2017,{folder}/nbo-2026.yaml", str(folder / "cases")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "nbo-2026 vs wbf-2017: 0 of 1 rulings change"


def test_every_command_takes_rules(tmp_path):
    folder = _new(tmp_path)
    for name in ("rule", "check", "compare", "score", "event", "casebook", "rulebooks", "explain", "diff", "lint",
                 "schema", "serve", "new", "impact"):
        parser = cli.build_parser(name)
        action = parser._subparsers._group_actions[0].choices[name]._option_string_actions.get("--rules")
        assert action is not None and action.help and "beside the shipped ones" in action.help, name


def test_event_and_compare_under_a_user_regulation(tmp_path, capsys):
    folder = _new(tmp_path)
    text = (folder / "nbo-2026.yaml").read_text().replace("value: 60%", "value: 65%")
    (folder / "nbo-2026.yaml").write_text(text)
    capsys.readouterr()
    assert cli.main(["compare", "--rules", str(folder), "--rulebooks", "wbf-2017,nbo-2026", str(folder / "cases")]) == 0
    out = capsys.readouterr().out
    assert "nbo-2026 vs wbf-2017: 1 of 1 rulings change" in out
    assert cli.main(["event", "--rules", str(folder), str(EVENT), "--rulebook", "nbo-2026", "--format", "csv"]) == 2
    assert "is in force from" in capsys.readouterr().err          # a regulation of today on a 2022 session
    day = rulebooks.get("nbo-2026").effective_from.isoformat()
    assert cli.main(["event", "--rules", str(folder), str(EVENT), "--rulebook", "nbo-2026", "--as-of", day]) == 0
    assert "nbo-2026" in capsys.readouterr().out


def test_the_snapshot_key_covers_the_user_folders(tmp_path):
    folder = _new(tmp_path)
    files.use([folder])
    path = folder / "nbo-2026.yaml"
    first = snapshot.key(path)
    assert snapshot.key(path) == first
    (folder / "unrelated.yaml").write_text("rulebook: unrelated\n")      # a file beside it may be extended
    second = snapshot.key(path)
    assert second != first
    other = tmp_path / "more"
    other.mkdir()
    (other / "more-rules.yaml").write_text("rulebook: more-rules\n")
    files.use([folder, other])                  # another offered folder: it may be extended
    assert snapshot.key(path) not in (first, second)
    shipped = files.rules_dir() / "wbf-2017.yaml"
    assert all(d == files.rules_dir().resolve() for d in files.extends_dirs(shipped))   # a shipped one reads only shipped


def test_serve_offers_user_rulebooks_beside_or_only(tmp_path):
    pytest.importorskip("starlette")
    from bridgelaw.web.app import create_app
    from starlette.testclient import TestClient
    folder = _new(tmp_path)
    files.use([folder])
    beside = [b["id"] for b in TestClient(create_app()).get("/api/rulebooks").json()]
    assert beside[-1] == "nbo-2026" and "wbf-2017" in beside
    files.use([])
    only = [b["id"] for b in TestClient(create_app(folder)).get("/api/rulebooks").json()]
    assert only == ["nbo-2026"]


def test_serve_options_carry_the_user_folders_to_workers(tmp_path):
    pytest.importorskip("starlette")
    import pickle
    from bridgelaw.web.server import AppFactory
    from bridgelaw.web.settings import Options
    folder = _new(tmp_path)
    factory = pickle.loads(pickle.dumps(AppFactory(Options(user_rules=(str(folder),), allowed_hosts=("127.0.0.1",)))))
    factory()
    assert "nbo-2026" in rulebooks.available()


def test_the_installed_command_from_an_empty_folder(tmp_path):
    """The console script, run from a folder that is neither the checkout nor holds anything of it."""
    script = Path(sys.executable).parent / "bridgelaw"
    if not script.exists():
        pytest.skip("no bridgelaw console script beside this Python")
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in (files.ENV, "PYTHONPATH")}

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(script), *argv], cwd=work, env=env, capture_output=True, text=True, timeout=120)

    done = run("new", "regulation", "nbo-2026", "--extends", "wbf-2017", "--dir", "nbo")
    assert done.returncode == 0, done.stderr
    assert run("lint", "--rules", "nbo", "nbo-2026").returncode == 0
    done = run("check", "--rules", "nbo", "--rulebook", "nbo-2026", "nbo/cases")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr
    env[files.ENV] = str(work / "nbo")
    done = run("rulebooks")
    assert re.search(r"^nbo-2026 ", done.stdout, re.M), done.stdout
    done = run("compare", "--rulebooks", "wbf-2017,nbo-2026", "nbo/cases")
    assert done.stdout.splitlines()[-1] == "nbo-2026 vs wbf-2017: 0 of 1 rulings change", done.stderr


def test_pinned_looks_a_rulebook_up_once_and_only_within(tmp_path):
    """files.pinned() (a season's replay): within it an edited rulebook file is not looked up again —
    the run reads one version —; outside it, it is (a long-running server sees the edit); offering
    other folders (files.use) forgets what was looked up."""
    folder = _new(tmp_path)
    files.use([folder])
    path = folder / "nbo-2026.yaml"
    assert rulebooks.get("nbo-2026").parameters["artificial.pairs.avg_plus"] == Fraction(3, 5)
    with files.pinned():
        first = rulebooks.get("nbo-2026")
        path.write_text(path.read_text().replace("avg_plus: {value: 60%", "avg_plus: {value: 65%"))
        os.utime(path, ns=(path.stat().st_mtime_ns + 10**9,) * 2)
        assert rulebooks.get("nbo-2026") is first
        assert "nbo-2026" in files.available()
        files.use([folder])                     # the folders offered again: looked up anew
        assert rulebooks.get("nbo-2026").parameters["artificial.pairs.avg_plus"] == Fraction(13, 20)
    assert files.pins() is None
    assert rulebooks.get("nbo-2026").parameters["artificial.pairs.avg_plus"] == Fraction(13, 20)
