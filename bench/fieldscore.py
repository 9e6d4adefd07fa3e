"""Benchmark: scoring a whole traveller with weighted and split adjusted scores.

    python bench/fieldscore.py [--sizes 50 500 5000] [--seed 1]

One board of N tables, 2% of them adjusted (100 of 5,000): each a weighted score of three
components, every fourth of those split (NS and EW weightings differ); the other tables have
results drawn from 24 contracts. For each size and each method (matchpoints, cross-IMPs,
butler) one run measures, on one core:

  * score — ``score_traveller`` on the loaded traveller (field.score: grouped frequencies, every
            table's NS and EW score, each adjusted table's outcomes scored in the field as entries
            of its trace);
  * load  — ``load_traveller`` from the YAML text (parse, validate, check, and rule each adjusted
            table through ``ruling.rule_case`` as its equivalent case — the other tables' results as
            its field —: twice, as no table names a non-offending side);
  * text  — the text report (``bridgelaw score``'s default output);
  * total — load + score + text: the command's work after start-up.

Then the ratios between sizes: linear growth shows as ×10 for ten times the tables.
Aim (issue 4): under 1 second per method at 5,000 tables; linear in the number of tables. A YAML
traveller holds at most 5,000 tables (a list of at most 5,000 entries, docs/limits.md); larger
fields come as results files (bench/event.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgelaw.field.traveller import load_traveller, score_traveller  # noqa: E402
from bridgelaw.commands.score import text as text_report  # noqa: E402

RESULTS = ["4H= S", "4H+1 S", "4H-1 S", "4S= N", "4S+1 N", "4S-1 N", "3NT= S", "3NT+1 S", "3NT-1 S", "3NT-2 S",
           "2S+2 N", "3S= N", "3H+1 S", "1NT+2 N", "4SX-2 E", "5DX-3 E", "4HX= S", "6H-1 S", "6H= S", "PASS",
           "3D= E", "2H+1 E", "NS +150", "NS -100"]
WEIGHTS = [("1/2", "1/3", "1/6"), ("3/5", "3/10", "1/10"), ("1/3", "1/3", "1/3"), ("7/10", "1/5", "1/10")]


def traveller_text(n: int, rng: random.Random) -> str:
    adjusted = set(rng.sample(range(n), max(1, n // 50)))
    lines = ["title: Benchmark board", "rulebook: wbf-2017", "scoring: matchpoints",
             "board: {number: 1, vulnerability: NS}", "tables:"]
    for k in range(n):
        head = f"  - {{table: {k + 1}, ns: {k + 1}, ew: {n + k + 1}, "
        if k not in adjusted:
            lines.append(head + f"result: {rng.choice(RESULTS)}}}")
            continue

        def weighting() -> str:
            results = rng.sample(RESULTS, 3)
            weights = rng.choice(WEIGHTS)
            return "[" + ", ".join(f"{{result: {r}, weight: {w}}}" for r, w in zip(results, weights)) + "]"

        if k % 4 == 0:
            lines.append(head + f"adjusted: {{NS: {weighting()}, EW: {weighting()}}}}}")
        else:
            lines.append(head + f"adjusted: {weighting()}}}")
    return "\n".join(lines) + "\n"


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 500, 5000])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    methods = ("matchpoints", "cross-imps", "butler")
    figures: dict[tuple[int, str], tuple[float, float, float]] = {}
    print(f"{'tables':>7} {'adjusted':>8} {'method':<12} {'load s':>8} {'score s':>8} {'text s':>8} {'total s':>8} "
          f"{'µs/table':>9}")
    for n in args.sizes:
        text = traveller_text(n, rng)
        load_traveller("bench.yaml", text=text)                       # warm caches (rulebook, decisions)
        for method in methods:
            trav, load_s = timed(lambda: load_traveller("bench.yaml", text=text, scoring=method))
            board, score_s = timed(lambda: score_traveller(trav))
            _, text_s = timed(lambda: text_report(board))
            adjusted = sum(t.line.kind in ("adjusted", "split") for t in board.lines)
            figures[n, method] = (load_s, score_s, text_s)
            total = load_s + score_s + text_s
            print(f"{n:>7} {adjusted:>8} {method:<12} {load_s:>8.3f} {score_s:>8.3f} {text_s:>8.3f} {total:>8.3f} "
                  f"{1e6 * total / n:>9.1f}")
    sizes = args.sizes
    if len(sizes) > 1:
        print("\nratios (time at the larger size / time at the smaller; ×tables for linear growth)")
        for small, large in zip(sizes, sizes[1:]):
            for method in methods:
                small_f, large_f = figures[small, method], figures[large, method]
                ratio = [b / a for a, b in zip(small_f, large_f)]
                print(f"  {small:>6} → {large:<6} ×{large / small:<4g} {method:<12} load ×{ratio[0]:5.1f}  "
                      f"score ×{ratio[1]:5.1f}  text ×{ratio[2]:5.1f}  total ×{sum(large_f) / sum(small_f):5.1f}")
    if 5000 in sizes:
        worst_score = max(figures[5000, m][1] for m in methods)
        worst = max(sum(figures[5000, m]) for m in methods)
        print(f"\n5,000 tables, slowest method: scoring {worst_score:.3f} s, load + score + text {worst:.3f} s "
              f"(aim: under 1 s) — " + ("met" if worst < 1 else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
