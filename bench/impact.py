"""bench/impact.py — `bridgelaw impact` on a generated season, beside the plain reader-and-scorer.

The season: pairs sessions whose shapes (tables × boards) and results are drawn from the real
files the project keeps (tests/data/events: every session's board count and lines a board, every
undoubled result played — contract, declarer, tricks), written as PBN score tables with the
standard vulnerability of each board number; and teams sessions, the two real-shaped teams files
(tests/usebio_teams_files.py: TeamsScorer and EBUScore Teams), repeated. About one session in three
has a rulings file beside it (NAME.rulings.yaml: an average plus and a weighted score, or at teams
an artificial room). The real files themselves are added (those that read).

Timed in one run, each in CPU seconds (this process and its children):
- impact, full: every file scored under both rulebooks (`--full`), on --jobs processes;
- impact, incremental: the proposal touches artificial scores only (`--set
  artificial.pairs.avg_plus=65%`), so only files whose traces read it are scored again;
- impact, cached: the same again, every result read from the JSON cache;
- the plain reader-and-scorer (bench/event.py's: regular expressions, Law 77, matchpoints or
  cross-IMPs, nothing of the engine) over the same files, once — and twice, as two rulebooks would;
- peak RSS of `impact --jobs 1` at 1/4, 1/2 and all of the files (memory by file count).

    .venv/bin/python bench/impact.py [--sessions 120] [--jobs 2] [--repeat 3] [--incremental-only]

The incremental run (each time into a fresh cache), the real files alone and the plain scorer are run
interleaved ``--repeat`` times, and their medians reported with the load average before each run.
(``--sessions 10000 --incremental-only --repeat 1``: the whole season run, not extrapolated; about 5 minutes.)

It prints sessions a second, the ratios, and the 10,000-session extrapolation, and whether the
issue's target (the whole season in ≤ 60 s on 2 cores, ≤ 3× the plain scorer) is met. The
extrapolation counts the real files (and the process's start) once: they are timed alone too, and
a generated session's cost is the run's less theirs.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from bridgelaw.field.run import load_event        # noqa: E402
from event import plain_pbn, plain_usebio         # noqa: E402  (bench/event.py's plain scorer)
import usebio_teams_files                          # noqa: E402

EVENTS = ROOT / "tests" / "data" / "events"
VULNERABLE = ["None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW"]


def real_distributions() -> tuple[list[tuple[int, int]], list[str]]:
    """(tables, boards) of every real pairs session, and every undoubled result played."""
    shapes, results = [], []
    for path in sorted(EVENTS.glob("*")):
        if path.suffix not in (".pbn", ".xml"):
            continue
        try:
            event = load_event(str(path))
        except Exception:            # a file the engine refuses (bench only reads what reads)
            continue
        for s in event.sessions:
            if s.matches:
                continue
            boards = list(s.boards.values())
            shapes.append((max(len(b.lines) for b in boards), len(boards)))
            for b in boards:
                for line in b.lines:
                    text = getattr(line.result, "text", None)
                    if line.kind == "result" and text and "X" not in text and len(text.split()) == 2:   # no doubles, no passed-out boards
                        results.append(text)
    return shapes, results


def pbn_session(rng: random.Random, tables: int, boards: int, results: list[str]) -> str:
    out = []
    for b in range(1, boards + 1):
        out += ['[Event "Generated season"]', '[Date "2024.03.04"]', f'[Board "{b}"]',
                f'[Vulnerable "{VULNERABLE[(b - 1) % 16]}"]', '[Scoring "MatchPoints"]',
                '[ScoreTable "Table\\4R;PairId_NS\\4R;PairId_EW\\4R;Contract\\4L;Declarer;Result\\2R"]']
        for t in range(1, tables + 1):
            text = rng.choice(results)                       # e.g. "4S= S", "3NT-1 W", "2H+1 N"
            contract, declarer = text.split()
            level = int(contract[0])
            tail = contract[1:]
            strain = tail.rstrip("=+-0123456789")
            rest = tail[len(strain):]
            tricks = level + 6 + (0 if rest == "=" else int(rest))
            out.append(f"{t:4d} {t:4d} {t:4d} {contract[0] + strain:4s} {declarer} {tricks:2d}")
        out.append("")
    return "\n".join(out)


def pairs_rulings(rng: random.Random, tables: int, boards: int) -> str:
    b1, b2 = rng.sample(range(1, boards + 1), 2)
    return ("rulebook: wbf-2017\nrulings:\n"
            f"  - {{board: {b1}, table: {rng.randint(1, tables)}, artificial: {{NS: avg-plus, EW: avg-minus}}}}\n"
            f"  - {{board: {b2}, table: {rng.randint(1, tables)}, adjusted: [{{result: 4S= N, weight: 2/3}}, "
            "{result: 4S-1 N, weight: 1/3}]}\n")


TEAMS_RULINGS = {"jss": "rulebook: wbf-2017\nrulings:\n  - {board: 3, ns: 1-1-2, artificial: {NS: avg-plus, EW: avg-minus}}\n",
                 "ebuscore": "rulebook: wbf-2017\nrulings:\n  - {board: 2, ns: 8-1-2, artificial: {NS: avg-plus, EW: avg-minus}}\n"}


def make_season(folder: Path, sessions: int, seed: int = 30) -> dict[str, int]:
    rng = random.Random(seed)
    shapes, results = real_distributions()
    teams = {"jss": usebio_teams_files.generate(usebio_teams_files.JSS),
             "ebuscore": usebio_teams_files.generate(usebio_teams_files.EBUSCORE)}
    counts = Counter()
    for k in range(sessions):
        ruled = rng.random() < 1 / 3
        if k % 10 == 9:                                       # one session in ten is a teams match
            which = rng.choice(sorted(teams))
            path = folder / f"teams-{k:05d}.xml"
            path.write_bytes(teams[which])
            if ruled:
                path.with_name(path.stem + ".rulings.yaml").write_text(TEAMS_RULINGS[which])
            counts["teams"] += 1
        else:
            tables, boards = rng.choice(shapes)
            path = folder / f"pairs-{k:05d}.pbn"
            path.write_text(pbn_session(rng, tables, boards, results), encoding="utf-8")
            if ruled:
                path.with_name(path.stem + ".rulings.yaml").write_text(pairs_rulings(rng, tables, boards))
            counts["pairs"] += 1
            counts["lines"] += tables * boards
        counts["ruled"] += ruled
    real = folder / "real"
    real.mkdir()
    for path in sorted(EVENTS.glob("*")):
        if path.suffix in (".pbn", ".xml") and not path.name.startswith("bridgecomposer"):   # that one does not read
            shutil.copy(path, real / path.name)
            counts["real"] += 1
    return counts


def cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, dict]:
    """Wall and CPU seconds of `bridgelaw impact …` as a child process, and its JSON report."""
    c0, w0 = cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bridgelaw", "impact", *argv, "--format", "json"], env=env,
                          capture_output=True, text=True)
    w1, c1 = time.perf_counter(), cpu()
    if done.returncode not in (0, 2):
        raise SystemExit(done.stderr[-2000:])
    return w1 - w0, c1 - c0, json.loads(done.stdout)["impact"]


def peak_rss(files: list[Path], env: dict[str, str], argv: list[str]) -> float:
    """Peak RSS (MB) of impact --jobs 1 over `files` (a fresh process)."""
    code = ("import resource, sys; from bridgelaw.commands.cli import main; main(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, "impact", *argv, "--jobs", "1", "--no-cache", "--format", "csv",
                           *map(str, files)], env=env, capture_output=True, text=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def plain_pass(files: list[Path]) -> tuple[float, float, list[str]]:
    """One pass of the plain reader-and-scorer over the files: CPU s, of which the real files', and the
    real files it cannot read."""
    # whatever this process holds put out of the collector's way: the plain scorer's collections must not
    # walk it (at 10,000 sessions a report held made it about 1.6× slower)
    gc.collect()
    gc.freeze()
    c0 = time.process_time()
    skipped = []
    plain_real = 0.0
    for path in files:
        c1 = time.process_time()
        try:
            if path.suffix == ".pbn":
                plain_pbn(path.read_text(encoding="latin-1"))
            else:
                plain_usebio(path.read_bytes())
        except (ValueError, IndexError, KeyError):       # a real PBN layout the plain reader does not know
            skipped.append(path.name)
        if path.parent.name == "real":
            plain_real += time.process_time() - c1
    return time.process_time() - c0, plain_real, skipped


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3,
                    help="the incremental run and the plain scorer, interleaved this many times (medians)")
    ap.add_argument("--incremental-only", action="store_true",
                    help="time only the incremental run and the plain scorer (a season of 10,000 run whole, "
                         "not extrapolated): no --full, cached or memory runs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "season"
        folder.mkdir()
        counts = make_season(folder, args.sessions)
        env = {**os.environ, "BRIDGELAW_CACHE_DIR": str(Path(tmp) / "cache")}
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".pbn", ".xml"))
        n = len(files)
        print(f"season: {n} sessions ({counts['pairs']} pairs, {counts['teams']} teams, {counts['real']} real files), "
              f"{counts['ruled']} with a rulings file; {counts['lines']} generated pairs lines; "
              f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        proposal = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", "--as-of", "2018-01-01",
                    "--jobs", str(args.jobs), str(folder)]
        real_argv = [a if a != str(folder) else str(folder / "real") for a in proposal]
        if not args.incremental_only:
            wall_full, cpu_full, rep_full = timed([*proposal, "--full", "--no-cache"], env)
        # the incremental run (each into a fresh cache: new inputs, not a cache's), the real files alone and
        # the plain scorer, interleaved --repeat times: their medians
        runs: dict[str, list] = {"wall_inc": [], "cpu_inc": [], "cpu_real": [], "plain": [], "plain_real": [],
                                 "load": []}
        skipped: list[str] = []
        for k in range(args.repeat):
            env = {**os.environ, "BRIDGELAW_CACHE_DIR": str(Path(tmp) / f"cache-{k}")}
            runs["load"].append(os.getloadavg()[0])
            wall_inc, cpu_inc, rep_inc = timed(proposal, env)
            runs["wall_inc"].append(wall_inc)
            runs["cpu_inc"].append(cpu_inc)
            # the real files and the process's start are paid once, not once every n sessions: timed alone
            # (incremental, no cache) and taken out of the per-session figure
            runs["cpu_real"].append(timed([*real_argv, "--no-cache"], env)[1])
            plain, plain_real, skipped = plain_pass(files)
            runs["plain"].append(plain)
            runs["plain_real"].append(plain_real)
            if k < args.repeat - 1:
                del rep_inc["events"]       # a season's report is large: only the last run's is compared below
        runs["load"].append(os.getloadavg()[0])
        wall_inc, cpu_inc, cpu_real, plain, plain_real = (statistics.median(runs[k]) for k in
                                                          ("wall_inc", "cpu_inc", "cpu_real", "plain", "plain_real"))
        if args.incremental_only:
            rep_full = rep_inc
        else:
            wall_cached, cpu_cached, rep_cached = timed(proposal, env)     # the last run's cache read
            how = ("rescored", "rulings_made_again", "rulings_kept")  # how the work was done, not what it found
            strip = lambda r: {**r, "totals": {k: v for k, v in r["totals"].items() if k not in how},
                               "events": [{k: v for k, v in e.items() if k != "rescored"} for e in r["events"]]}
            assert strip(rep_full) == strip(rep_inc) == strip(rep_cached), "incremental or cached report differs from full"
        if skipped:
            print(f"the plain scorer reads not {len(skipped)} real files (their layouts): {', '.join(skipped)}")
        print(f"{args.repeat} interleaved runs (medians below); load average before each and after the last: "
              + ", ".join(f"{x:.2f}" for x in runs["load"]) + "; CPU s of each incremental run: "
              + ", ".join(f"{x:.2f}" for x in runs["cpu_inc"]) + ", of each plain pass: "
              + ", ".join(f"{x:.2f}" for x in runs["plain"]))
        t = rep_full["totals"]
        print(f"report: {t['files']} files, {t['errors']} not read, {t['lines']} lines; {t['changed_lines']} lines and "
              f"{t['changed_contestants']} contestants change; incremental scored {rep_inc['totals']['rescored']} "
              f"files again of {t['files']}")
        rows = ([] if args.incremental_only else [("impact --full", wall_full, cpu_full)]) + \
            [("impact (incremental)", wall_inc, cpu_inc)] + \
            ([] if args.incremental_only else [("impact (cached)", wall_cached, cpu_cached)]) + \
            [("plain reader-and-scorer, 1 pass", plain, plain)]
        print(f"{'':34} {'wall s':>8} {'CPU s':>8} {'sessions/s':>11} {'CPU ÷ plain×2':>14}")
        for name, wall, c in rows:
            print(f"{name:34} {wall:8.2f} {c:8.2f} {n / wall:11.1f} {c / (2 * plain):14.1f}")
        for name, wall, c in rows[:-1]:
            if name == "impact (cached)":
                continue
            per = c / n
            print(f"10,000 sessions of this run's mix (its real files among them), {name}: {per * 10_000:.0f} CPU s, ≈ {per * 10_000 / args.jobs:.0f} s on "
                  f"{args.jobs} cores (the plain scorer: {2 * plain / n * 10_000:.1f} CPU s for two passes)")
        generated = n - counts["real"]
        per_session = max(cpu_inc - cpu_real, 0) / generated
        season_cpu = per_session * 10_000 + cpu_real
        plain_per = (plain - plain_real) / generated
        print(f"the real files alone, once (and the process's start): {cpu_real:.2f} CPU s; a generated session "
              f"{per_session * 1000:.1f} CPU ms (the plain scorer {plain_per * 1000:.2f} ms a pass)")
        print(f"10,000 generated sessions plus the real files, incremental: {season_cpu:.0f} CPU s, ≈ "
              f"{season_cpu / 2:.0f} s on 2 cores; per session {per_session / (2 * plain_per):.1f}× the plain scorer's "
              "two passes")
        inc_wall_10k = season_cpu / 2
        print(f"target ≤ 60 s on 2 cores: {'met' if inc_wall_10k <= 60 else 'NOT met'} (≈ {inc_wall_10k:.0f} s); "
              f"≤ 3× the plain scorer's CPU: {'met' if per_session <= 3 * 2 * plain_per else 'NOT met'} "
              f"({per_session / (2 * plain_per):.1f}×; the whole run with its real files {cpu_inc / (2 * plain):.1f}×)")
        print(f"the incremental run as run: {wall_inc:.0f} s wall on {args.jobs} processes for {n} sessions (median)")
        if args.incremental_only:
            return
        base = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", "--as-of", "2018-01-01"]
        mixed = random.Random(7).sample(files, n)             # each prefix with the season's mix of files
        sizes = [max(1, n // 4), max(1, n // 2), n]
        rss = [peak_rss(mixed[:k], env, base) for k in sizes]
        print("peak RSS (impact --jobs 1): " + ", ".join(f"{k} files {m:.0f} MB" for k, m in zip(sizes, rss)))


if __name__ == "__main__":
    main()
