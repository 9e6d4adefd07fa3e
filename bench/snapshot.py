"""Benchmark: start-up with a warm rulebook snapshot, this tree against another version.

    python bench/snapshot.py [--runs 15] [--before GIT_REF] [--case CASE]

Timed in fresh processes, interleaved round by round in a shuffled order (the machine is shared and
noisy), medians printed with the load average before and after:

  * ``bridgelaw rule CASE --format json``, wall time, each version with its own warm cache folder
    (the first, untimed run of each writes the snapshot);
  * the snapshot's load alone: ``rulebook.get(ID)`` in a process that has imported bridgelaw
    already (read, verify, decode — or unpickle, for a version that pickled);
  * ``python -c pass``, the floor.

With ``--before GIT_REF`` the other version is that commit's engine/ (git archive into a temporary
folder, imported through PYTHONPATH ahead of the editable install); without it only this tree runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOAD = ("import sys, time\nfrom bridgelaw import rulebook\nfrom bridgelaw.rulebook import registry\n"
        "t = time.perf_counter()\nbook = rulebook.get(sys.argv[1])\nprint(time.perf_counter() - t)\n")


def version(ref: str, into: Path) -> dict[str, str]:
    """PYTHONPATH making `ref`'s engine/ (and its rules/) the bridgelaw imported."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "engine", "rules"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "pkg").mkdir()
    (into / "pkg" / "bridgelaw").symlink_to(into / "engine")
    return {"PYTHONPATH": str(into / "pkg")}


def timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"{cmd}: exit {done.returncode}: {done.stderr}")
    return time.perf_counter() - start


def loaded(cmd: list[str], env: dict[str, str]) -> float:
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--before", metavar="GIT_REF")
    ap.add_argument("--case", default=str(ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"))
    ap.add_argument("--rulebook", default="wbf-2017")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        versions = {"this tree": {**base, "BRIDGELAW_CACHE_DIR": f"{tmp}/cache-now"}}
        if args.before:
            old = Path(tmp) / "before"
            old.mkdir()
            versions[f"before ({args.before})"] = {**base, **version(args.before, old),
                                                   "BRIDGELAW_CACHE_DIR": f"{tmp}/cache-before"}
        rule = [sys.executable, "-m", "bridgelaw", "rule", args.case, "--format", "json"]
        load = [sys.executable, "-c", LOAD, args.rulebook]
        for env in versions.values():
            timed(rule, env)                               # writes the snapshots
            loaded(load, env)
        jobs = [(f"{name}: bridgelaw rule", lambda env=env: timed(rule, env)) for name, env in versions.items()]
        jobs += [(f"{name}: load {args.rulebook}", lambda env=env: loaded(load, env)) for name, env in versions.items()]
        jobs.append(("python -c pass", lambda: timed([sys.executable, "-c", "pass"], base)))
        times: dict[str, list[float]] = {name: [] for name, _ in jobs}
        load_before = os.getloadavg()
        for _ in range(args.runs):
            random.shuffle(jobs)
            for name, job in jobs:
                times[name].append(job())
        load_after = os.getloadavg()
        files = {name: sum(f.stat().st_size for f in Path(env["BRIDGELAW_CACHE_DIR"]).rglob("*") if f.is_file())
                 for name, env in versions.items()}
    print(f"{args.runs} interleaved runs; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    for name in sorted(times):
        values = times[name]
        print(f"  {name:<40} median {statistics.median(values) * 1000:7.1f} ms  "
              f"(min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f})")
    for name, size in files.items():
        print(f"  {name}: cache folder {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
