"""Benchmark: rulings per second through the public API, and the wall time of one CLI ruling.

    python bench/rulings.py [--seconds 3] [--cli-runs 7]

Measured in one run, on one core:
  * engine      — `rule_case(case, book)` over the whole case corpus, rulebooks loaded once
                  (cases are parsed once too: this measures ruling, not YAML parsing);
  * plain       — the same rulings computed by a hand-written Python function (if-chains over
                  A, B, C with the same scorer), the reference the ratio is taken against;
  * cli         — wall time of `bridgelaw rule CASE` as a fresh process (median of N runs).
Aim (issue 2): ≥ 2,000 rulings/s through the engine and < 0.5 s for one CLI ruling.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgelaw import rulebook  # noqa: E402
from bridgelaw.case import load_case  # noqa: E402
from bridgelaw.cli import case_files  # noqa: E402
from bridgelaw.ruling import rule_case  # noqa: E402
from bridgelaw.scorer import Scorer  # noqa: E402


def plain_ruling(case) -> tuple[str, Fraction, Fraction]:
    """The A/B/C method written directly in Python: the reference for the ratio."""
    s = Scorer(case)
    nos, os = case.nos, case.os

    def avg(comps, side):
        used = [c for c in comps if c.legal]
        kept = sum(c.weight for c in used)
        return sum(c.weight / kept * s.score(c.outcome, side).value for c in used)

    b, b_ = avg(case.without[nos], nos), avg(case.without[os], os)
    if case.model.table_result is None:
        return "assigned", b, b_
    a = s.score(case.model.table_result, nos).value
    a_ = s.complement(a)
    c = avg(case.instead, nos) if case.instead else a
    if b <= a:
        return "no-damage", a, a_
    if b <= c:
        return "all-self-inflicted", a, b_
    if c <= a:
        return "none-self-inflicted", b, b_
    return "split", a + b - c, b_


def rate(fn, items, seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for item in items:
            fn(item)
        done += len(items)
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--cli-runs", type=int, default=7, help="CLI processes to time (default 7)")
    args = parser.parse_args()

    # the A/B/C rulings of the corpus (the plain reference below knows only those)
    cases = [c for c in (load_case(p) for p in case_files([str(ROOT / "cases")]))
             if c.without is not None and c.model.poll is None and c.model.match is None
             and c.event in ("pairs", "teams") and c.model.rulebook in ("wbf-2007", "wbf-2017")]
    pairs = [(c, rulebook.get(c.model.rulebook)) for c in cases]
    for c, b in pairs:                       # warm up: compile every ruleset once
        rule_case(c, b)
    engine_rate = rate(lambda cb: rule_case(*cb), pairs, args.seconds)
    plain_rate = rate(plain_ruling, cases, args.seconds)

    bridgelaw = Path(sys.executable).with_name("bridgelaw")
    command = [str(bridgelaw)] if bridgelaw.exists() else [sys.executable, "-m", "bridgelaw.cli"]
    sample = str(ROOT / "cases/wbf-commentary-2017/example-07.yaml")
    times = []
    for _ in range(args.cli_runs):
        start = time.perf_counter()
        subprocess.run([*command, "rule", sample], check=True, capture_output=True)
        times.append(time.perf_counter() - start)

    print(f"corpus: {len(cases)} A/B/C cases of cases/ (assigned scores, weighted and split, both editions)")
    print(f"engine (durable_rules):  {engine_rate:10,.0f} rulings/s   ({1e6 / engine_rate:7.1f} µs each)")
    print(f"plain Python reference:  {plain_rate:10,.0f} rulings/s   ({1e6 / plain_rate:7.1f} µs each)")
    print(f"ratio engine/plain:      {engine_rate / plain_rate:10.2f}")
    print(f"CLI `bridgelaw rule`:    {statistics.median(times):10.3f} s median of {len(times)} "
          f"(min {min(times):.3f}, max {max(times):.3f})")
    print(f"targets: ≥ 2,000 rulings/s {'met' if engine_rate >= 2000 else 'NOT met'}; "
          f"CLI < 0.5 s {'met' if statistics.median(times) < 0.5 else 'NOT met'}")


if __name__ == "__main__":
    main()
