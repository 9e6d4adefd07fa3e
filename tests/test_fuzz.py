"""Fuzz: mutated copies of every shipped case, traveller, rulebook and an overlay.

Each mutant goes through the command line in-process (``bridgelaw.commands.cli.main``) and must end in
one of two ways: exit status 2 with exactly one line on stderr and nothing on stdout, or a
valid ruling / rescored board (exit 0, output, nothing on stderr). Never a traceback, never a
hang. The seed is fixed, so a failure names a mutant that can be replayed (issue 9 item 2,
issue 14 "Done when").

Mutations: byte flips (towards the characters YAML cares about, NUL and a byte that is not
UTF-8), deletions and duplications of spans, deep nesting, huge numbers, alias bombs.
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
from pathlib import Path

import pytest

from bridgelaw.commands import cli

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "cases").rglob("*.yaml"))
TRAVELLERS = sorted((ROOT / "travellers").glob("*.yaml"))
RULEBOOKS = sorted(p for p in (ROOT / "rules").glob("*.yaml") if p.name != "calendar.yaml")
SHARED = sorted((ROOT / "rules" / "shared").glob("*.yaml"))
CASE_FOR_RULEBOOKS = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"

OVERLAY = """\
parameters:
  artificial: {pairs: {avg_plus: 65%}}
  fieldscore: {neuberg: {round_to: 1/10}}
rules:
  - id: split-damage
    replaces: split-damage
    stage: damage
    when: {all: [{given: A}, {lt: [A, C]}, {lt: [C, B]}]}
    outcome: split
    award: {nos: "round_to(A + B - C, 1/2)", os: "B'"}
    explain: Split, rounded to halves.
    cites: [12C1(e)]
"""

SEED = 14
BYTES = [b"\x00", b"\xff", b"[", b"]", b"{", b"}", b":", b"-", b"\n", b" ", b'"', b"*", b"&", b"!",
         b"9", b"%", b"/", b"\t", b"<", b"#", b"|", b">", b",", b"\x07", "é".encode(), b"\xe2\x80\xa8"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(7)
    n = len(data)
    i = rng.randrange(max(n, 1))
    if kind == 0:                                        # byte flip
        return data[:i] + rng.choice(BYTES) + data[i + 1:]
    if kind == 1:                                        # delete a span
        return data[:i] + data[i + rng.randrange(1, 40):]
    if kind == 2:                                        # duplicate a span
        j = min(n, i + rng.randrange(1, 80))
        return data[:j] + data[i:j] + data[j:]
    if kind == 3:                                        # deep nesting as a new key, or inside a value
        depth = rng.choice([70, 1000, 30000])
        deep = b"[" * depth + b"]" * depth
        return data + b"\nnotes: " + deep + b"\n" if rng.random() < 0.5 else data.replace(b": ", b": " + deep + b" #", 1)
    if kind == 4:                                        # a huge number in place of a number
        digits = [k for k in range(n) if data[k:k + 1].isdigit()]
        if not digits:
            return data + b"\nx: " + b"9" * 50 + b"\n"
        k = rng.choice(digits)
        return data[:k] + b"9" * rng.choice([31, 400, 5000]) + data[k:]
    if kind == 5:                                        # an alias bomb under a key the model reads
        bomb = b"a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + b"".join(
            b"a%d: &a%d [" % (k, k) + b", ".join([b"*a%d" % (k - 1)] * 10) + b"]\n" for k in range(1, 9))
        lines = data.split(b"\n")
        keys = [k for k, line in enumerate(lines) if line[:1].isalpha() and b": " in line]
        if keys:
            k = rng.choice(keys)
            lines[k] = lines[k].split(b": ", 1)[0] + b": *a8"
        return bomb + b"\n".join(lines)
    # a line repeated many times (long lists, duplicate keys)
    lines = data.split(b"\n")
    k = rng.randrange(len(lines))
    return b"\n".join(lines[:k] + [lines[k]] * rng.choice([2, 50]) + lines[k:])


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], label: str, first_line: str | None) -> None:
    code, out, err = run(argv)
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("bridgelaw: error: "), f"{label}: {err!r}"
        assert out == "", f"{label}: wrote {out[:200]!r} before failing"
    else:
        assert code == 0 and err == "", f"{label}: exit {code}, {err!r}"
        assert first_line is None or out.startswith(first_line), f"{label}: {out[:200]!r}"


def mutants(path: Path, count: int, rng: random.Random) -> list[bytes]:
    data = path.read_bytes()
    return [mutate(data, rng) for _ in range(count)]


def test_fuzz_cases(tmp_path):
    rng = random.Random(SEED)
    for source in CASES:
        for k, data in enumerate(mutants(source, 6, rng)):
            target = tmp_path / f"{source.stem}-{k}.yaml"
            target.write_bytes(data)
            check(["rule", str(target)], f"{source.name} mutant {k}", "RULING: ")


def test_fuzz_travellers(tmp_path):
    rng = random.Random(SEED + 1)
    shutil.copy(ROOT / "travellers" / "board-09.pbn", tmp_path / "board-09.pbn")
    for source in TRAVELLERS:
        for k, data in enumerate(mutants(source, 40, rng)):
            target = tmp_path / f"{source.stem}-{k}.yaml"
            target.write_bytes(data)
            check(["score", str(target)], f"{source.name} mutant {k}", None)


def test_fuzz_rulebooks(tmp_path):
    """Each mutant rulebook sits in a folder with the others (for extends:) and is named on the
    command line (--rulebook PATH), the only way a rulebook file is read. The shared layers
    (rules/shared/, read through include:) are mutated too, beside an unchanged rulebook."""
    rng = random.Random(SEED + 2)
    for book in RULEBOOKS:
        shutil.copy(book, tmp_path / book.name)
    code, out, err = run(["rule", str(CASE_FOR_RULEBOOKS), "--rulebook", str(tmp_path / "wbf-2017.yaml")])
    assert (code, err) == (0, "") and out.startswith("RULING: ")       # the unmutated copy rules
    for source in RULEBOOKS + SHARED:
        for k, data in enumerate(mutants(source, 8 if source in RULEBOOKS else 30, rng)):
            folder = tmp_path / f"{source.stem}-{k}"
            (folder / "shared").mkdir(parents=True)
            for book in RULEBOOKS:
                if book != source:
                    (folder / book.name).symlink_to(tmp_path / book.name)
            if source in SHARED:
                (folder / "shared" / source.name).write_bytes(data)
                named = folder / "wbf-2017.yaml"
            else:
                (folder / source.name).write_bytes(data)
                named = folder / source.name
            check(["rule", str(CASE_FOR_RULEBOOKS), "--rulebook", str(named)], f"{source.name} mutant {k}", "RULING: ")


def test_fuzz_overlay(tmp_path):
    rng = random.Random(SEED + 3)
    source = tmp_path / "overlay.yaml"
    source.write_text(OVERLAY, encoding="utf-8")
    code, out, err = run(["rule", str(CASE_FOR_RULEBOOKS), "--overlay", str(source)])
    assert (code, err) == (0, "") and out.startswith("RULING: ")
    for k, data in enumerate(mutants(source, 60, rng)):
        target = tmp_path / f"overlay-{k}.yaml"
        target.write_bytes(data)
        check(["rule", str(CASE_FOR_RULEBOOKS), "--overlay", str(target)], f"overlay mutant {k}", "RULING: ")


@pytest.mark.parametrize("argv_tail", [["rule"], ["score"], ["lint"]])
def test_special_files_refused(argv_tail):
    """/dev/zero is refused without being read (issue 14 item 6)."""
    code, out, err = run(argv_tail + ["/dev/zero"])
    assert code == 2 and len(err.splitlines()) == 1 and "not a regular file" in err


# --- issue 24: the hostile mutations of bench/mutants.py ---------------------------------------------
# Non-ASCII digits, YAML tags with every bad scalar, aliases inside their own anchor (in overlays
# too), impossible dates, control characters as escapes, encoding declarations and entities in
# XML, PBN tags holding nonsense — the mutations that found issue 24's tracebacks, drawn by the
# same code the bench uses (bench/mutants.py: 20,000 of each kind on demand).

def _bench():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_mutants", ROOT / "bench" / "mutants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fuzz_kind(kind: str, count: int, tmp_path: Path) -> None:
    import signal
    bench = _bench()
    previous = signal.signal(signal.SIGALRM, bench._alarm)
    try:
        k = bench.Kind(kind, tmp_path)
        for index in range(count):
            name, data = bench.mutant(k, SEED, index)
            argv, _ = k.argv(name, data, index)
            outcome, seconds, detail = bench.run_one(argv, 10.0)
            assert outcome in ("ok", "error"), f"{kind} mutant {index} (seed {SEED}): {outcome} {detail}"
    finally:
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("kind, count", [("case", 120), ("traveller", 60), ("overlay", 60), ("rulebook", 40)])
def test_fuzz_hostile_mutants_of_yaml_kinds(tmp_path, kind, count):
    _fuzz_kind(kind, count, tmp_path)


@pytest.mark.parametrize("kind", ["pbn", "rulings", "usebio"])
def test_fuzz_hostile_mutants_of_results_files(tmp_path, kind):
    _fuzz_kind(kind, 20, tmp_path)


def test_fuzz_web_bodies_are_never_500(tmp_path):
    """The case mutants as API bodies, YAML and JSON: every answer a 2xx or a 4xx."""
    import json
    from starlette.testclient import TestClient
    from bridgelaw.web.app import create_app
    bench = _bench()
    client = TestClient(create_app(), raise_server_exceptions=False)
    k = bench.Kind("case", tmp_path)
    for index in range(120):
        _, data = bench.mutant(k, SEED, index)
        r = client.post("/api/rule", content=data, headers={"content-type": "application/yaml"})
        assert r.status_code < 500, (index, r.text[:300])
        text = data.decode("utf-8", "replace")
        body = json.dumps({"case": text}) if index % 2 else json.dumps({"title": text[:200], "notes": text})
        r = client.post("/api/compare", content=body, headers={"content-type": "application/json"})
        assert r.status_code < 500, (index, r.text[:300])
