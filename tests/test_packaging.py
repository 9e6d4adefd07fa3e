"""An installed wheel carries the rulebooks and the web page's files, and finds its rulebooks."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                           "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"pip wheel failed: {done.stderr[-2000:]}")
    return next(out.glob("bridgelaw-*.whl"))


def test_wheel_carries_rulebooks_and_web_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"engine/rules/{p.name}" for p in (ROOT / "rules").glob("*.yaml")}
    assert shipped and shipped <= names
    assert "engine/web/templates/base.html" in names
    assert any(n.startswith("engine/web/static/") for n in names)
    assert any(n.endswith("entry_points.txt") for n in names)


def test_installed_layout_finds_its_rulebooks(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = ("from engine import rulebook; "
            "print(rulebook.rules_dir().relative_to(rulebook.rules_dir().parent.parent).as_posix(), "
            "sorted(rulebook.available()), rulebook.get('wbf-2017').version)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert done.returncode == 0, done.stderr
    expected = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))
    assert done.stdout.strip() == f"engine/rules {expected} 2017.1"
