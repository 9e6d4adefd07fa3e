"""Benchmark: rulings per second through the public API, against a plain reference; the CLI.

    python bench/rulings.py [--cases 1000] [--rounds 15] [--round-seconds 0.2] [--cli-runs 11]
                            [--extra-rules 1000] [--no-cli]

What users do is rule cases they have not ruled before, so the headline is distinct new cases:
`--cases` A/B/C cases generated as a director's cases vary (bench/reference.py: both editions,
teams and pairs, every vulnerability, one to three weighted outcomes, some with a serious error,
fields of 3 to 30 results), each checked first to get the reference's exact scores. Cases are read
and validated once, before the timing (this measures ruling, not YAML); the bench's own inputs are
then frozen out of the garbage collector (gc.freeze), as a server holds only the case at hand.

Timed, interleaved round by round (the machine is shared and noisy; each round's ratio is taken
within the round, and the medians of the rounds are printed with the load average and the CPU
time beside the wall time):

  * new          `rule_case(case, book)` over the distinct cases, each ruled as a case never seen:
                 what a ruling keeps on its case (the scoring basis, the outcomes scored) is
                 emptied first, and so are the decisions the rulebook keeps by the facts they
                 were asked with (Rulebook.forget_facts); what the rulebook knows stays (the
                 decision for each set of rules that hold, built when the rulebook is loaded or
                 snapshotted);
  * reference    the same rulings by bench/reference.py (~60 lines of Fractions, no code shared);
  * repeated     the first 20 cases ruled again and again with everything kept, beside the
                 reference on the same 20;
  * cold         new cases with the rulebook's decisions forgotten before each ruling (every
                 stage asks durable_rules: the first ruling of a process without a snapshot);
  * +N rules     new cases under a rulebook that extends the shipped one with N damage rules
                 whose constants lie inside the facts' range (IMPs and matchpoints, halves,
                 thirds, quarters) and that never apply to a real ruling (each contradicts how A,
                 B, C, D, DR and DS are related), interleaved with the shipped rulebook;
  * CLI          `bridgelaw rule CASE` of the program installed (not editable: pip install into a
                 fresh virtual environment, bytecode compiled as pip does), median wall time of
                 fresh processes, interleaved with `python -c pass` and with a process importing
                 only the dependencies, all from that environment.

Targets (issue 23, quiet machine): distinct new cases ≥ 10,000 rulings/s and within 3× of the
reference; repeated within 2×; +1,000 rules within 1.2× on new cases; `bridgelaw rule` ≤ 0.30 s
and ≤ 12× `python -c pass`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import Unsupported, generate, prepare, reference_ruling  # noqa: E402

from bridgelaw import rulebook  # noqa: E402
from bridgelaw.ruling.build import rule_case  # noqa: E402
from bridgelaw.ruling.case import load_case  # noqa: E402


# --- measuring -------------------------------------------------------------------------------------

def one_round(fn, items, seconds: float) -> tuple[float, float]:
    """(rulings a second of wall time, of CPU time) of `fn` over `items`, for about `seconds`."""
    done, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for item in items:
            fn(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done / max(time.process_time() - cpu, 1e-9)


def interleaved(sides: dict[str, tuple], rounds: int, seconds: float) -> list[dict[str, tuple[float, float]]]:
    """Each round: every side once, the order reversed every other round."""
    names, out = list(sides), []
    for k in range(rounds):
        here = {}
        for name in (names if k % 2 == 0 else names[::-1]):
            fn, items = sides[name]
            here[name] = one_round(fn, items, seconds)
        out.append(here)
    return out


def median(rounds: list[dict], name: str, cpu: bool = False) -> float:
    return statistics.median(r[name][cpu] for r in rounds)


def ratio(rounds: list[dict], a: str, b: str) -> float:
    """The median over the rounds of (a's time per ruling / b's time per ruling) within each round."""
    return statistics.median(r[b][0] / r[a][0] for r in rounds)


# --- the sides ---------------------------------------------------------------------------------------

def ruled(item) -> None:
    case, book = item
    rule_case(case, book)


def new(item) -> None:
    """A case never seen: what a ruling keeps on its case is emptied first, and the decisions the
    rulebook keeps by the facts they were asked with (the decisions for each set of rules that hold
    stay: a rulebook knows them from its snapshot)."""
    case, book = item
    case.scoring_basis = None
    book.forget_facts()
    rule_case(case, book)


def cold(item) -> None:
    """A case never seen by a rulebook that knows no decision: every stage asks durable_rules."""
    case, book = item
    case.scoring_basis = None
    book.forget_decisions()
    rule_case(case, book)


def extra_rules_book(tmp: Path, base: str, n: int, *, inside: bool = True, seed: int = 23):
    """A rulebook extending `base` with `n` damage rules that never apply to a real ruling.

    inside (default): constants inside the facts' range — IMPs and matchpoints from −24 to 60 in
    halves, thirds and quarters — each rule contradicting how a ruling relates its quantities
    (D = DR + DS; C = A without a serious error; A < k < B with B ≤ A), so which rules hold depends
    on every constant. Otherwise constants far outside every fact value (−100,000 − i, 100,000 + i)."""
    for f in rulebook.rules_dir().glob("*.yaml"):
        shutil.copy(f, tmp / f.name)
    shared = tmp / "shared"
    if not shared.exists():
        shutil.copytree(rulebook.rules_dir() / "shared", shared)
    rng = random.Random(seed)

    def k() -> str:
        d = rng.choice((1, 2, 3, 4))
        return str(Fraction(rng.randint(-24 * d, 60 * d), d))

    lines = [f"rulebook: {base}-plus-{n}", "title: bench — extra rules that never apply",
             "authority: bridgelaw bench", "version: '1'", "effective: {from: 2000-01-01}", f"extends: {base}",
             "rules:"]
    for i in range(n):
        if not inside:
            when = f"{{all: [{{given: A}}, {{lt: [A, {-100000 - i}]}}, {{gt: [B, {100000 + i}]}}]}}"
        elif i % 4 == 0:                              # D = DR + DS < k1 + k2 = k
            k1, k2 = Fraction(k()), Fraction(k())
            when = f"{{all: [{{given: A}}, {{ge: [D, {k1 + k2}]}}, {{lt: [DR, {k1}]}}, {{lt: [DS, {k2}]}}]}}"
        elif i % 4 == 1:                              # A < k < B and B ≤ A
            c = k()
            when = f"{{all: [{{given: A}}, {{lt: [A, {c}]}}, {{gt: [B, {c}]}}, {{le: [B, A]}}]}}"
        elif i % 4 == 2:                              # C > k ≥ A, so DS > 0
            c = k()
            when = f"{{all: [{{given: A}}, {{gt: [C, {c}]}}, {{le: [A, {c}]}}, {{eq: [DS, 0]}}]}}"
        else:                                         # without a serious error C = A
            when = f"{{all: [{{is: [serious_error, false]}}, {{given: A}}, {{ne: [C, A]}}, {{ge: [B, {k()}]}}]}}"
        lines += [f"  - id: never-{i}", "    stage: damage", f"    when: {when}",
                  "    outcome: assigned", "    award: {nos: A, os: \"A'\"}",
                  "    explain: never applies", "    cites: [12C1(a)]"]
    path = tmp / f"{base}-plus-{n}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return rulebook.load(path)


# --- the CLI, installed ---------------------------------------------------------------------------

# a process importing only what `bridgelaw rule` depends on, one pydantic model validated
FLOOR = ("import argparse, fractions, json, pydantic, ruamel.yaml\n"
         "class M(pydantic.BaseModel):\n    x: int\nM(x=1)\n")


def install(tmp: Path) -> tuple[Path, Path, bool]:
    """bridgelaw installed as a user installs it (a wheel, not editable, bytecode compiled) into a
    fresh virtual environment that sees this one's dependencies; (its python, its bridgelaw,
    whether pip compiled the bytecode itself)."""
    venv, site, source = tmp / "venv", tmp / "site", tmp / "source"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    source.mkdir()                      # a copy: the build writes build/ and *.egg-info beside its sources
    for name in ("engine", "rules"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
                           str(source)], capture_output=True, text=True,
                          env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    if done.returncode:
        sys.exit(f"bench: pip install failed: {done.stderr[-2000:]}")
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # the package first, then this environment's dependencies (their .pth files not run: no editable finder)
    Path(purelib, "bench-deps.pth").write_text(f"{site}\n{sysconfig.get_paths()['purelib']}\n")
    compiled = any(site.joinpath("bridgelaw").rglob("*.pyc"))
    if not compiled:
        subprocess.run([str(python), "-m", "compileall", "-q", str(site / "bridgelaw")], check=True)
    script = venv / "bin" / "bridgelaw"
    script.write_text(f"#!{python}\nimport sys\nfrom bridgelaw.__main__ import main\nsys.exit(main())\n")
    script.chmod(0o755)
    return python, script, compiled


def cli_times(runs: int, sample: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPYCACHEPREFIX", "PYTHONPATH")}
    with tempfile.TemporaryDirectory(prefix="bridgelaw-installed-") as tmp:
        env["BRIDGELAW_CACHE_DIR"] = str(Path(tmp) / "cache")        # its own snapshots, made by the first run
        python, script, compiled = install(Path(tmp))
        sides = {"cli": [str(script), "rule", sample], "pass": [str(python), "-c", "pass"],
                 "deps": [str(python), "-c", FLOOR]}
        for argv in sides.values():                    # the first run writes the rulebook snapshot
            subprocess.run(argv, check=True, capture_output=True, env=env)
        times: dict[str, list[float]] = {name: [] for name in sides}
        names = list(sides)
        for k in range(runs):
            for name in (names if k % 2 == 0 else names[::-1]):
                start = time.perf_counter()
                subprocess.run(sides[name], check=True, capture_output=True, env=env)
                times[name].append(time.perf_counter() - start)
        return {**times, "compiled by pip": compiled}


# --- main -----------------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=1000, help="distinct generated cases (default 1000)")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds per comparison (default 15)")
    parser.add_argument("--round-seconds", type=float, default=0.2, help="time per side per round (default 0.2)")
    parser.add_argument("--cli-runs", type=int, default=11, help="CLI processes to time (default 11)")
    parser.add_argument("--extra-rules", type=int, default=1000, help="extra rules for the scaling case (default 1000)")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI (no install)")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    load_before, wall0, cpu0 = os.getloadavg(), time.perf_counter(), time.process_time()

    books = {name: rulebook.get(name) for name in ("wbf-2007", "wbf-2017")}
    pool, facts = [], []
    for i, raw in enumerate(generate(args.cases, args.seed)):
        case = load_case(f"generated-{i + 1}.yaml", text=json.dumps(raw))
        f = prepare(raw)
        ruling = rule_case(case, books[raw["rulebook"]])
        expected, got = reference_ruling(f), (ruling.nos.value, ruling.os.value)
        if got != expected:
            sys.exit(f"generated case {i + 1}: the reference gives {expected}, the engine {got}: fix one "
                     f"before timing\n{json.dumps(raw)}")
        pool.append((case, books[raw["rulebook"]]))
        facts.append(f)
    corpus = 0                                          # the corpus's A/B/C cases: checked, not timed
    for path in sorted((ROOT / "cases").rglob("*.yaml")):
        case = load_case(path)
        if case.model.rulebook not in books:
            continue
        try:
            expected = reference_ruling(prepare(case.doc.tree))
        except (Unsupported, KeyError):
            continue
        ruling = rule_case(case, books[case.model.rulebook])
        if (ruling.nos.value, ruling.os.value) != expected:
            sys.exit(f"{path}: the reference gives {expected}, the engine {(ruling.nos.value, ruling.os.value)}")
        corpus += 1
    repeated = pool[:20]
    apart = {name: rulebook.load(rulebook.available()[name]) for name in books}    # what cold forgets
    forgetful = [(case, apart[book.id]) for case, book in pool[:200]]
    gc.collect()
    gc.freeze()

    speed = interleaved({"new": (new, pool), "reference": (reference_ruling, facts),
                         "repeated": (ruled, repeated), "reference repeated": (reference_ruling, facts[:20]),
                         "cold": (cold, forgetful)}, args.rounds, args.round_seconds)

    with tempfile.TemporaryDirectory(prefix="bridgelaw-bench-") as tmp:
        plus = {name: extra_rules_book(Path(tmp), name, args.extra_rules) for name in books}
        big = [(case, plus[book.id]) for case, book in pool]
        for item in big:                             # each set of held rules asked once, before timing
            new(item)
        gc.collect()
        gc.freeze()
        scaling = interleaved({"shipped": (new, pool), "plus": (new, big)}, args.rounds, args.round_seconds)

    sample = str(ROOT / "cases/wbf-commentary-2017/example-07.yaml")
    cli = None if args.no_cli else cli_times(args.cli_runs, sample)
    load_after, wall, cpu = os.getloadavg(), time.perf_counter() - wall0, time.process_time() - cpu0

    def rate(name: str, rounds=speed) -> str:
        wall_rate, cpu_rate = median(rounds, name), median(rounds, name, cpu=True)
        return f"{wall_rate:9,.0f} rulings/s ({1e6 / wall_rate:6.1f} µs wall, {1e6 / cpu_rate:6.1f} µs CPU each)"

    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after (1 min; {os.cpu_count()} cores); "
          f"the bench: {wall:.0f} s wall, {cpu:.0f} s CPU")
    print(f"{len(pool):,} distinct generated cases (and {corpus} corpus cases) with the reference's exact scores; "
          f"{args.rounds} interleaved rounds of {args.round_seconds} s a side, medians")
    print(f"new cases, engine:        {rate('new')}")
    print(f"new cases, reference:     {rate('reference')}")
    print(f"repeated (20), engine:    {rate('repeated')}")
    print(f"repeated (20), reference: {rate('reference repeated')}")
    print(f"cold (decisions forgotten before each ruling): {rate('cold')}")
    new_ratio, repeated_ratio = ratio(speed, "new", "reference"), ratio(speed, "repeated", "reference repeated")
    print(f"ratio engine/reference (time per ruling, median of the rounds' ratios): new cases ×{new_ratio:.2f}, "
          f"repeated ×{repeated_ratio:.2f}, cold ×{ratio(speed, 'cold', 'reference'):.2f}")
    slowdown = ratio(scaling, "plus", "shipped")
    print(f"+{args.extra_rules:,} rules (constants inside the facts' range), new cases: {rate('plus', scaling)}; "
          f"shipped {rate('shipped', scaling)}; ×{slowdown:.2f}")
    if cli is not None:
        c, p, d = (statistics.median(cli[k]) for k in ("cli", "pass", "deps"))
        print(f"CLI `bridgelaw rule` (installed, median of {len(cli['cli'])}): {c:.3f} s (min {min(cli['cli']):.3f}, "
              f"max {max(cli['cli']):.3f}); `python -c pass` {p:.3f} s: ×{c / p:.1f}; the dependencies alone "
              f"{d:.3f} s; bridgelaw's own share {c - d:.3f} s; bytecode compiled at install by pip: "
              f"{'yes' if cli['compiled by pip'] else 'no (the bench compiled it)'}")

    def met(ok: bool) -> str:
        return "met" if ok else "NOT met"

    new_rate = median(speed, "new")
    targets = [f"new ≥ 10,000/s {met(new_rate >= 10000)}", f"new within ×3 {met(new_ratio <= 3)}",
               f"repeated within ×2 {met(repeated_ratio <= 2)}", f"+rules within ×1.2 {met(slowdown <= 1.2)}"]
    if cli is not None:
        targets += [f"CLI ≤ 0.30 s {met(c <= 0.30)}", f"CLI ≤ 12× python -c pass {met(c <= 12 * p)}"]
    print("targets: " + "; ".join(targets))


if __name__ == "__main__":
    main()
