"""bench/event.py — a whole event through `bridgelaw event`'s path: 3 sessions × 27 boards ×
40 tables with 30 rulings (10 a session: weighted, split, artificial by responsibility, not
played, penalties), load + apply + score + write PBN and USEBIO; then 10× and 100× the tables
to show the cost is linear in tables. Medians of several runs; the load average is printed.

    .venv/bin/python bench/event.py [--repeat 5] [--scales 1,10,100]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgelaw.commands.event import bulk, load_event, run        # noqa: E402
from bridgelaw.field.writers import pbn_text, usebio_text     # noqa: E402

CONTRACTS = ["4S", "3NT", "4H", "2S", "3C", "1NT", "5D", "6S"]


def session_pbn(tables: int, boards: int, seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for b in range(1, boards + 1):
        out += ['[Event "Bench pairs"]', f'[Board "{b}"]', '[Vulnerable "None"]', '[Scoring "MatchPoints"]',
                '[ScoreTable "Table\\4R;PairId_NS\\4R;PairId_EW\\4R;Contract\\4L;Declarer;Result\\2R;MP_NS\\8R;MP_EW\\8R"]']
        for t in range(1, tables + 1):
            c = rng.choice(CONTRACTS)
            level = int(c[0])
            tricks = max(0, min(13, level + 6 + rng.choice([-2, -1, -1, 0, 0, 0, 1])))
            out.append(f"{t:4d} {t:4d} {t:4d} {c:4s} {rng.choice('NS')} {tricks:2d} - -")
        out.append("")
    return "\n".join(out)


def rulings_yaml(tables: int, boards: int, seed: int) -> str:
    rng = random.Random(seed)
    picks = rng.sample([(b, t) for b in range(1, boards + 1) for t in range(1, tables + 1)], 10)
    lines = ["rulebook: wbf-2017", "rulings:"]
    kinds = [
        "adjusted: [{result: 4S= N, weight: 2/3}, {result: 4S-1 N, weight: 1/3}]",
        "adjusted: {NS: [{result: 3NT= S, weight: 1/2}, {result: 3NT-1 S, weight: 1/2}], "
        "EW: [{result: 3NT= S, weight: 1/3}, {result: 3NT-1 S, weight: 2/3}]}",
        "artificial: {NS: avg-plus, EW: avg-minus}",
        "artificial: {NS: average, EW: average}",
        "not_played: true",
        "penalty: {EW: 10%}",
        "adjusted: 4H= N",
    ]
    for k, (b, t) in enumerate(picks):
        lines.append(f"  - {{board: {b}, table: {t}, {kinds[k % len(kinds)]}}}")
    return "\n".join(lines) + "\n"


def one_run(folder: Path, tables: int) -> dict[str, float]:
    times = {"load": 0.0, "apply+score": 0.0, "write": 0.0}
    for s in range(3):
        path, rulings = folder / f"s{s}.pbn", folder / f"s{s}.yaml"
        t0 = time.perf_counter()
        event = load_event(str(path))
        t1 = time.perf_counter()
        scored = run(event, str(rulings), None, [])
        t2 = time.perf_counter()
        with bulk():
            pbn, xml = pbn_text(event, scored), usebio_text(event, scored)
        (folder / f"out{s}.pbn").write_text(pbn, encoding="utf-8")
        (folder / f"out{s}.xml").write_text(xml, encoding="utf-8")
        t3 = time.perf_counter()
        times["load"] += t1 - t0
        times["apply+score"] += t2 - t1
        times["write"] += t3 - t2
    times["total"] = sum(times.values())
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scales", default="1,10,100")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; 3 sessions × 27 boards, 30 rulings")
    base = None
    for scale in (int(x) for x in args.scales.split(",")):
        tables = 40 * scale
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for s in range(3):
                (folder / f"s{s}.pbn").write_text(session_pbn(tables, 27, s), encoding="utf-8")
                (folder / f"s{s}.yaml").write_text(rulings_yaml(tables, 27, s), encoding="utf-8")
            repeat = args.repeat if scale < 100 else max(1, args.repeat // 3)
            runs = [one_run(folder, tables) for _ in range(repeat)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        lines = 3 * 27 * tables
        base = base or med["total"] / lines
        print(f"{scale:>4}× {tables:>5} tables ({lines:>7} lines): total {med['total']:.3f} s "
              f"(load {med['load']:.3f}, apply+score {med['apply+score']:.3f}, write {med['write']:.3f}); "
              f"{1e6 * med['total'] / lines:.1f} µs a line, {med['total'] / lines / base:.2f}× the 1× cost a line "
              f"[{repeat} runs, median]")


if __name__ == "__main__":
    main()
