"""bench/instructions.py — a season's replays counted in machine instructions (valgrind), not seconds.

On a shared machine with two cores a timing moves by a fifth from one run to the next; the number of
instructions a replay executes does not. This counts them with valgrind's cachegrind (no cache
simulation) for the replays of a small generated season (bench/impact.py's generator: unruled and
ruled pairs sessions, unruled and ruled teams matches), under the proposal
``--set artificial.pairs.avg_plus=65%``: the process is run twice — warmed up on the first sessions only,
and warmed up then replaying each other session once (a file it has not seen: no cache of a repeated
input counted) — and the difference is the replays' count. With ``--against DIR`` (another
tree's ``engine`` folder, e.g. a ``git worktree`` of an older commit) the same is counted for it, in the
same run, and the ratio printed. The plain reader-and-scorer of bench/event.py is counted over the same
files, for the ratio the issue's target is stated in (a replay ÷ the plain scorer's two passes).

    .venv/bin/python bench/instructions.py [--sessions 24] [--against /tmp/old/engine]

It needs valgrind (``apt-get install valgrind``); about a minute a tree at 24 sessions.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WARM = 3       # the first sessions warm the process up (imports, rulebooks, decisions) and are not counted

# the child: warm up on the first WARM files, then replay each other file of the folder once (`reps`: 0 or
# 1) — every counted replay a file this process has not seen
CHILD = """
import sys
from bridgelaw.field.season import Spec, results_files, replay
from bridgelaw.rulebook.files import pinned
spec = Spec(current="wbf-2017", proposed="wbf-2017", settings=("artificial.pairs.avg_plus=65%",), as_of="2018-01-01")
files = [(str(p), str(r) if r else None) for p, r in results_files([sys.argv[1]])]
warm = int(sys.argv[4])
with pinned():
    for p, r in files[:warm]:
        replay(p, r, spec)
    for _ in range(int(sys.argv[2])):
        for p, r in files[warm:]:
            replay(p, r, spec)
"""


# the plain reader-and-scorer of bench/event.py over the same files, `reps` times
PLAIN = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from event import plain_pbn, plain_usebio
files = sorted(p for p in Path(sys.argv[1]).iterdir() if p.suffix in (".pbn", ".xml"))[int(sys.argv[4]):]
for _ in range(int(sys.argv[2])):
    for p in files:
        plain_pbn(p.read_text(encoding="latin-1")) if p.suffix == ".pbn" else plain_usebio(p.read_bytes())
"""


def count(engine: Path | None, folder: Path, reps: int, code: str = CHILD) -> int:
    """Instructions of the child process (valgrind cachegrind's I refs)."""
    env = dict(os.environ)
    if engine is not None:                 # another tree: its engine folder imported as bridgelaw
        shim = Path(tempfile.mkdtemp())
        (shim / "bridgelaw").symlink_to(engine.resolve())
        env["PYTHONPATH"] = str(shim)
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           sys.executable, "-c", code, str(folder), str(reps), str(ROOT / "bench"), str(WARM)],
                          env=env, capture_output=True, text=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or m is None:
        raise SystemExit(done.stderr[-2000:])
    return int(m[1].replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=24)
    ap.add_argument("--against", type=Path, help="another tree's engine folder, counted in the same run")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]
    import impact                                          # bench/impact.py's season
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "season"
        folder.mkdir()
        counts = impact.make_season(folder, args.sessions)
        shutil.rmtree(folder / "real")                     # the generated sessions only
        n = counts["pairs"] + counts["teams"] - WARM        # the sessions counted
        print(f"season: {n + WARM} sessions ({counts['pairs']} pairs, {counts['teams']} teams), {counts['ruled']} "
              f"with a rulings file, {counts['lines']} pairs lines; the first {WARM} warm up, {n} are counted")
        trees = [("this tree", None)] + ([(f"against {args.against}", args.against)] if args.against else [])
        # each tree's bytecode made before counting: a tree imported for the first time (a new worktree, a
        # module just edited) would otherwise have its compiling counted in the first of its two runs
        for engine in [ROOT / "engine"] + ([args.against] if args.against else []):
            compileall.compile_dir(str(engine), quiet=1)
        per = {}
        for name, engine in trees:
            total = count(engine, folder, 1) - count(engine, folder, 0)
            per[name] = total / n
            print(f"{name:40} {total / 1e9:8.3f} G instructions, {total / n / 1e6:8.1f} M a session")
        plain = (count(None, folder, 1, PLAIN) - count(None, folder, 0, PLAIN)) / n
        print(f"{'the plain reader-and-scorer, one pass':40} {plain * n / 1e9:8.3f} G instructions, "
              f"{plain / 1e6:8.1f} M a session")
        print(f"a replay ÷ the plain scorer's two passes: {per['this tree'] / (2 * plain):.2f}"
              + (f" (the other tree: {per[f'against {args.against}'] / (2 * plain):.2f})" if args.against else ""))
        if args.against:
            a, b = per["this tree"], per[f"against {args.against}"]
            print(f"this tree ÷ the other: {a / b:.3f} ({(a / b - 1) * 100:+.1f} %)")


if __name__ == "__main__":
    main()
