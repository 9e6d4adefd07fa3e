"""An installed wheel carries the rulebooks and the web page's files, and finds its rulebooks."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the checkout's files (setuptools' build/ folder in the
    checkout would keep modules that have since been renamed or removed)."""
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source") / "bridgelaw"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".venv-test", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
        "test-artifacts", "tests", "cases", "travellers", "bench", "docs"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                           "-w", str(out), str(source)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"pip wheel failed: {done.stderr[-2000:]}")
    return next(out.glob("bridgelaw-*.whl"))


def test_wheel_carries_rulebooks_and_web_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"bridgelaw/rules/{p.name}" for p in (ROOT / "rules").glob("*.yaml")}
    assert shipped and shipped <= names
    assert "bridgelaw/web/templates/base.html" in names
    assert any(n.startswith("bridgelaw/web/static/") for n in names)
    assert any(n.endswith("entry_points.txt") for n in names)


def test_wheel_installs_bridgelaw_and_nothing_named_engine(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"bridgelaw", wheel.name.split("-py")[0] + ".dist-info"}, tops   # the package and its metadata
    assert not any(n.startswith("engine/") for n in names)
    assert "bridgelaw/render/explain.py" in names and "bridgelaw/inspect.py" not in names   # no stdlib shadowing
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    from bridgelaw import __version__
    assert f"Version: {__version__}" in text
    assert "Provides-Extra: web" in text
    assert "Requires-Dist: starlette" in text and "extra == \"web\"" in text
    assert any(n.endswith("/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names)
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "bridgelaw = bridgelaw.__main__:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_wheel_carries_every_subpackage(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    engine = ROOT / "engine"
    modules = {"bridgelaw/" + p.relative_to(engine).as_posix() for p in engine.rglob("*.py")}
    assert modules and modules <= names, sorted(modules - names)   # a new subpackage not listed in pyproject.toml


def test_editable_checkout_imports_bridgelaw_not_engine():
    code = "import bridgelaw.commands.cli, importlib.util; print(importlib.util.find_spec('engine') is None)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    import importlib.util
    from bridgelaw.commands.cli import main
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "missing: uvicorn" in err and "pip install 'bridgelaw[web]'" in err
    assert len(err.strip().splitlines()) == 1


def test_installed_layout_finds_its_rulebooks(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = ("from bridgelaw import rulebook; "
            "print(rulebook.rules_dir().relative_to(rulebook.rules_dir().parent.parent).as_posix(), "
            "sorted(rulebook.available()), rulebook.get('wbf-2017').version)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert done.returncode == 0, done.stderr
    expected = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml") if p.name != "calendar.yaml")
    assert done.stdout.strip() == f"bridgelaw/rules {expected} 2017.1"


def test_installed_wheel_takes_a_regulation_of_the_users_own(wheel, tmp_path):
    """From the wheel, outside the checkout: a regulation written by `new regulation` in a folder of
    the user's extends the shipped Laws edition, is listed, linted, checked, compared and used."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(ROOT / "tests" / "data" / "events" / "compscore-mp-pairs-mitchell.xml", work / "club.xml")
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "BRIDGELAW_CACHE_DIR": str(tmp_path / "cache")}

    def run(*argv: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bridgelaw", *argv], cwd=work, env={**env, **extra},
                              capture_output=True, text=True, timeout=120)

    done = run("new", "regulation", "nbo-2026", "--extends", "wbf-2017", "--dir", "nbo")
    assert done.returncode == 0, done.stderr
    assert run("lint", "--rules", "nbo", "nbo-2026").returncode == 0
    done = run("check", "--rules", "nbo", "--rulebook", "nbo-2026", "nbo/cases")
    assert (done.returncode, done.stdout.splitlines()[-1]) == (0, "1 passed, 0 failed"), done.stderr
    done = run("rulebooks", BRIDGELAW_RULES="nbo")
    assert any(line.startswith("nbo-2026 ") for line in done.stdout.splitlines()), done.stdout + done.stderr
    done = run("compare", "--rulebooks", "wbf-2017,nbo-2026", "nbo/cases", BRIDGELAW_RULES="nbo")
    assert done.stdout.splitlines()[-1] == "nbo-2026 vs wbf-2017: 0 of 1 rulings change", done.stderr
    day = next(line for line in (work / "nbo" / "nbo-2026.yaml").read_text().splitlines() if "from:" in line).split()[-1]
    done = run("event", "--rules", "nbo", "club.xml", "--rulebook", "nbo-2026", "--as-of", day, "--format", "csv")
    assert done.returncode == 0 and done.stdout.count("\n") > 20, done.stderr
