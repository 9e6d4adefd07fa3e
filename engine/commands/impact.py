"""``bridgelaw impact``: a proposal's effect on a season — every results file replayed under the
current and the proposed rulebook, summed up per event and in total.

    bridgelaw impact --rulebooks CURRENT[,PROPOSED] [--set P=V]… [--overlay FILE] [--as-of DATE]
                     [--format text|csv|json|html] [--output FILE] [--jobs N | --scheduler ADDRESS]
                     [--no-cache] [--full] FILES|FOLDERS…

Each file's work is field/season.py's (the one load-rule-score path of field/run.py, twice); this
module finds the files, runs them — on all local cores (a process pool), or on a Dask distributed
cluster given its scheduler's address — keeps each file's result in a JSON cache keyed by the
file's, its rulings' and both rulebooks' sha256, and renders the summary (render/impact.py).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

from .. import __version__
from ..core.dates import as_of_option
from ..core.errors import BridgelawError
from ..core.files import remove_stale_in, same_file, target_of, write_atomic
from ..core.vocab import METHODS
from ..field import season
from ..render import impact as report
from ..rulebook import files as rulebook_files
from .event import Progress

MAGIC = "bridgelaw impact cache 1"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from .cli import _what_if_options
    p = subparsers.add_parser(
        "impact", help="a proposal's effect on a season: every results file replayed under two rulebooks",
        description="Replay every results file (PBN, USEBIO; pairs and teams) — with the rulings file beside it, "
                    f"NAME{season.RULINGS_SUFFIX}, where there is one — under the current and the proposed "
                    "rulebook, and report per event and in total the boards, lines and contestants whose scores "
                    "change, the places that change, the largest moves, and the rule or parameter behind each "
                    "change. --rulebooks A with --set/--overlay compares A with A changed; --rulebooks A,B "
                    "compares A with B (--set/--overlay then change B).",
        epilog="A file that cannot be read is listed with its one-line error and the run goes on (exit 2 at "
               "the end). Results are kept in the cache folder (BRIDGELAW_CACHE_DIR; empty: none) by the "
               "content of each file, its rulings and both rulebooks. See docs/comparing.md.")
    p.add_argument("paths", nargs="+", metavar="FILE|FOLDER", help="results files, or folders searched for *.pbn and *.xml")
    p.add_argument("--rulebooks", required=True, metavar="CURRENT[,PROPOSED]",
                   help="the rulebook in force and the one proposed (ids or files)")
    _what_if_options(p, as_of_default="the day each session was played")
    p.add_argument("--profile", metavar="ID", help="the scoring program's conventions, as for `bridgelaw event`")
    p.add_argument("--scoring", choices=METHODS, help="scoring method, when a file does not say")
    p.add_argument("--format", choices=report.FORMATS, default="text", help="report format (default text)")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE (default: standard output)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: every core; 1: none)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on a Dask distributed cluster, e.g. tcp://127.0.0.1:8786 (pip install 'bridgelaw[dist]')")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the impact cache")
    p.add_argument("--full", action="store_true",
                   help="score every file again under the proposal, even one whose traces read nothing it changes")
    p.set_defaults(func=cmd_impact)
    return p


def spec_of(args: argparse.Namespace) -> season.Spec:
    names = [n.strip() for n in args.rulebooks.split(",") if n.strip()]
    if not names or len(names) > 2:
        raise BridgelawError(f"--rulebooks {args.rulebooks}: name the current rulebook and, optionally, the proposed one",
                             expected="--rulebooks CURRENT,PROPOSED, or --rulebooks CURRENT with --set/--overlay")
    if len(names) == 1 and not (args.set or args.overlay):
        raise BridgelawError("--rulebooks names one rulebook and no change to it",
                             expected="a second rulebook (--rulebooks CURRENT,PROPOSED), --set or --overlay")
    overlay_text = None
    if args.overlay:
        try:
            overlay_text = Path(args.overlay).read_text(encoding="utf-8")
        except (OSError, UnicodeError) as exc:
            raise BridgelawError(f"--overlay {args.overlay}: cannot be read ({exc.strerror or exc})") from None
    day = as_of_option(args.as_of)
    return season.Spec(current=names[0], proposed=names[-1], settings=tuple(args.set or ()), overlay=args.overlay,
                       overlay_text=overlay_text, as_of=day.isoformat() if day else None, profile=args.profile,
                       scoring=args.scoring, incremental=not args.full,
                       rules=tuple(str(d) for d in rulebook_files.user_dirs()))


# --- the cache: one JSON file a (file, rulings, rulebooks, options) ------------------------------------------

def _source_digest() -> str:
    """sha256 of bridgelaw's version and every module and profile of it: a new bridgelaw, another key."""
    h = hashlib.sha256(f"{MAGIC}\n{__version__}\n".encode())
    package = Path(__file__).resolve().parent.parent
    for source in sorted(package.rglob("*.py")):
        h.update(source.relative_to(package).as_posix().encode() + b"\0" + source.read_bytes() + b"\0")
    for profile in sorted((rulebook_files.rules_dir() / "profiles").glob("*.yaml")):
        h.update(profile.name.encode() + b"\0" + profile.read_bytes() + b"\0")
    return h.hexdigest()


def cache_folder() -> Path | None:
    from ..rulebook.snapshot import cache_dir
    folder = cache_dir()
    return None if folder is None else folder.parent / "impact"


def keys(items: list[tuple[Path, Path | None]], spec: season.Spec) -> list[str]:
    from .. import rulebook as rulebooks
    books = [rulebooks.get(spec.current, path_ok=True).sha256, rulebooks.get(spec.proposed, path_ok=True).sha256]
    common = json.dumps([_source_digest(), books, list(spec.settings), spec.overlay_text, spec.as_of, spec.profile,
                         spec.scoring])
    out = []
    for path, rulings in items:
        try:
            files = [season.digest(path), season.digest(rulings)]
        except OSError:
            files = ["unreadable", str(path)]
        out.append(hashlib.sha256((common + json.dumps(files)).encode()).hexdigest())
    return out


def cache_read(folder: Path, key: str) -> dict[str, Any] | None:
    try:
        with open(folder / f"{key}.json", encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("magic") != MAGIC or data.get("key") != key:
        return None
    result = data.get("result")
    return result if isinstance(result, dict) and "sessions" in result else None


def cache_write(folder: Path, key: str, result: dict[str, Any]) -> None:
    if result.get("error"):
        return                              # an unreadable file is tried again next time
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # a cache entry: not synced to the disk, nor the folder searched at each write (swept once a run)
        write_atomic(folder / f"{key}.json", json.dumps({"magic": MAGIC, "key": key, "result": result}),
                     durable=False, tidy=False)
    except (OSError, BridgelawError):
        return


# --- running the files ----------------------------------------------------------------------------------------

def task(item: tuple[str, str | None], spec: season.Spec) -> dict[str, Any]:
    """One file's replay in a worker (a process of the pool, or a Dask worker)."""
    if spec.rules and [str(d) for d in rulebook_files.user_dirs()] != list(spec.rules):
        rulebook_files.use(spec.rules)
    return season.replay(item[0], item[1], spec)


def execute(items: list[tuple[str, str | None]], spec: season.Spec, jobs: int | None = None,
            scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Each item's replay, in the items' order: in this process, on a pool of `jobs` processes, or
    on the Dask cluster at `scheduler`."""
    if not items:
        return []
    if scheduler:
        return _on_dask(items, spec, scheduler, progress)
    jobs = jobs or _cores()
    if jobs <= 1 or len(items) == 1:
        out = []
        with rulebook_files.pinned():           # the rulebooks looked up once for the run
            for i, item in enumerate(items, 1):
                out.append(task(item, spec))
                if progress:
                    progress(i)
        return out
    results: list[dict[str, Any] | None] = [None] * len(items)
    done = 0
    # each worker process looks the rulebooks up once for the run (it ends with the run)
    with cf.ProcessPoolExecutor(max_workers=min(jobs, len(items)), initializer=rulebook_files.pin_process) as pool:
        futures = {pool.submit(task, item, spec): i for i, item in enumerate(items)}
        for future in cf.as_completed(futures):
            results[futures[future]] = future.result()
            done += 1
            if progress:
                progress(done)
    return [r for r in results if r is not None]


def _on_dask(items, spec, scheduler, progress):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BridgelawError("--scheduler needs Dask distributed, which is not installed",
                             suggestion="pip install 'bridgelaw[dist]'") from None
    try:
        client = Client(scheduler, timeout=20)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BridgelawError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})",
                             expected="the address a dask scheduler prints, e.g. tcp://127.0.0.1:8786") from None
    try:
        futures = client.map(task, items, spec=spec, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(items)
        for done, future in enumerate(as_completed(futures), 1):
            results[index[future.key]] = future.result()
            if progress:
                progress(done)
        return results
    finally:
        client.close()


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def impact(paths: Iterable[str], spec: season.Spec, *, jobs: int | None = None, scheduler: str | None = None,
           cache: bool = True, progress: Any = None) -> list[dict[str, Any]]:
    """Every results file under `paths` replayed (cached results read, new ones kept): one result a file."""
    found = season.results_files(list(paths))
    if not found:
        raise BridgelawError("no results files (.pbn, .xml) in " + ", ".join(paths))
    folder = cache_folder() if cache else None
    if folder is not None:
        remove_stale_in(folder)             # the temporary files of a run killed while it wrote
    ks = keys(found, spec) if folder is not None else [None] * len(found)
    results: list[dict[str, Any] | None] = [cache_read(folder, k) if folder is not None else None for k in ks]
    todo = [i for i, r in enumerate(results) if r is None]
    total = len(found)
    known = total - len(todo)

    def step(done: int) -> None:
        if progress:
            progress("impact", known + done, total)
    fresh = execute([(str(found[i][0]), str(found[i][1]) if found[i][1] else None) for i in todo], spec, jobs,
                    scheduler, step)
    for i, r in zip(todo, fresh):
        results[i] = r
        if folder is not None:
            cache_write(folder, ks[i], r)
    for (path, rulings), r in zip(found, results):
        r["file"], r["rulings"] = str(path), str(rulings) if rulings else None    # as named in this run
    return [r for r in results if r is not None]


def cmd_impact(args: argparse.Namespace) -> int:
    if args.output:
        target_of(args.output)
    if args.jobs is not None and args.jobs < 1:
        raise BridgelawError(f"--jobs {args.jobs}: no worker", expected="1 or more worker processes")
    spec = spec_of(args)
    if args.output:
        inputs = [p for pair in season.results_files(args.paths) for p in pair if p is not None]
        if args.overlay:
            inputs.append(Path(args.overlay))
        for path in inputs:
            if same_file(Path(args.output), path):
                raise BridgelawError(f"--output {args.output} is an input ({path}); nothing is written",
                                     expected="a new file name for the report")
    progress = Progress(delay=0.5, unit="files")
    results = impact(args.paths, spec, jobs=args.jobs, scheduler=args.scheduler, cache=not args.no_cache,
                     progress=progress)
    progress.done()
    summary = report.summarise(results, spec)
    text = report.RENDER[args.format](summary)
    if args.output:
        write_atomic(Path(args.output), text)
    else:
        sys.stdout.write(text)
    for r in results:
        if r.get("error"):
            print(f"bridgelaw: error: {r['error']}", file=sys.stderr)
    return 2 if summary["totals"]["errors"] else 0
