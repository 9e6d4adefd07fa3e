"""``bridgelaw event``: read a whole results file, apply the TD's rulings, print the session
results, and write the corrected file.

    bridgelaw event EVENT.(pbn|xml) [--rulings RULINGS.yaml] [--rulebook ID] [--as-of DATE] [--set P=V]… [--overlay FILE]
                    [--scoring matchpoints|cross-imps|butler] [--format text|markdown|json|csv]
                    [--output FILE.pbn|FILE.xml]… [--rescore-all]

Wired into the main CLI by ``events.cli.add_parser(sub)`` in :func:`bridgelaw.commands.cli.build_parser`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ..core.dates import as_of_option
from ..core.errors import BridgelawError
from ..core.files import refuse_inputs, same_file, target_of, write_all
from ..core.vocab import METHODS
from ..field.corrected import changes
from ..field.run import load_event, outputs, refuse_unreproduced, run
from ..field.traveller import bulk
from ..render import event as report
from .cli import _what_if_options, inputs_of, warn_stale, what_if


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "event", help="apply a TD's rulings to a whole results file (PBN or USEBIO) and write it back",
        description="Read every board of a PBN or USEBIO results file, apply the rulings file's adjusted and "
                    "artificial scores through the rulebook (session scores and board counts across the "
                    "session), rescore every board, print the session results, and write the corrected file.",
        epilog="Exit status: 0 ok, 2 bad input (file:line:column; nothing is written). See docs/events.md.")
    p.add_argument("event", metavar="EVENT", help="results file: .pbn or USEBIO .xml (or a YAML traveller: one board)")
    p.add_argument("--rulings", metavar="FILE", help="rulings for the event (YAML, see docs/events.md)")
    p.add_argument("--rulebook", metavar="ID", help="rulebook id; overrides the rulings file's rulebook:")
    _what_if_options(p, as_of_default="the day the file says each session was played")
    p.add_argument("--profile", metavar="ID",
                   help="the scoring program's conventions (rules/profiles): chosen from the program the file names "
                        "unless given; 'none' for the rulebook's defaults (see docs/events.md)")
    p.add_argument("--compare", metavar="RULEBOOK|OVERLAY",
                   help="score the event a second time under another rulebook (an id) or with an overlay file "
                        "(a proposed regulation), and print which contestants' scores and places change, and by "
                        "how much (nothing is written)")
    p.add_argument("--scoring", choices=METHODS,
                   help="scoring method, when the file does not say or to override it")
    p.add_argument("--format", choices=report.FORMATS, default="text", help="report format (default text)")
    p.add_argument("--diff", action="store_true",
                   help="list every figure the corrected file changes: where (board, line or contestant, cell), "
                        "old, new, and why (the ruling); with --format json, a changed_figures section")
    p.add_argument("--output", action="append", default=[], metavar="FILE",
                   help="write the corrected event to FILE: .pbn or .xml (USEBIO); may be given twice; "
                        "never an input (the results, rulings, overlay or rulebook files); "
                        "two outputs are written both or neither")
    p.add_argument("--rescore-all", action="store_true",
                   help="write --output even when a published figure of a board or contestant no ruling touches is "
                        "not reproduced (the file is then rescored throughout, and the report says so)")
    p.set_defaults(func=cmd_event)
    return p


class Progress:
    """A progress bar on stderr (one line, redrawn per board) once a run has taken more than
    `delay` seconds; silent when the stream is not a terminal. `stream` and `clock` are
    parameters so that a test can give a fake terminal and a fake clock."""

    WIDTH = 24

    def __init__(self, stream: Any = None, clock: Any = time.monotonic, delay: float = 1.0, unit: str = "boards") -> None:
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.delay = delay
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = 0

    def __call__(self, what: str, done: int | None = None, total: int | None = None) -> None:
        if not self.tty or self.clock() - self.start <= self.delay:
            return
        text = what
        if done is not None and total:
            filled = self.WIDTH * done // total
            text = f"{what} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} {self.unit}"
        text = text[:78]
        self.stream.write(f"\r{text:<{max(self.shown, len(text))}}")
        self.stream.flush()
        self.shown = max(self.shown, len(text))

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


def cmd_event(args: argparse.Namespace) -> int:
    for target in args.output:
        target_of(target)                     # a device, FIFO or folder is refused before any work
    refuse_inputs("--output", args.output, inputs_of(args))
    progress = Progress()
    event = load_event(args.event, args.scoring, rulebook=args.rulebook, as_of=as_of_option(args.as_of),
                       what_if=(lambda book: what_if(book, args)) if args.set or args.overlay else None)
    scored = run(event, args.rulings, args.rulebook, args.set, progress=progress, overlay=args.overlay,
                 profile=args.profile,
                 as_of=as_of_option(args.as_of))
    if args.compare:
        if args.output:
            raise BridgelawError("--compare prints a comparison; it writes no file", expected="no --output with it")
        proposal = Path(args.compare)
        overlay_file = proposal.suffix.lower() in (".yaml", ".yml") and proposal.is_file()
        # read again under the proposal: a YAML traveller's adjusted tables are ruled as it is read
        proposed = argparse.Namespace(**{**vars(args), "overlay": str(proposal) if overlay_file else args.overlay,
                                         "rulebook": args.rulebook if overlay_file else args.compare})
        other = load_event(args.event, args.scoring, rulebook=proposed.rulebook, as_of=as_of_option(args.as_of),
                           what_if=(lambda book: what_if(book, proposed)) if args.set or proposed.overlay else None)
        compared = run(other, args.rulings, proposed.rulebook, args.set, overlay=proposed.overlay,
                       profile=args.profile, as_of=as_of_option(args.as_of))
        progress.done()
        sys.stdout.write(report.comparison_json(scored, compared) if args.format == "json"
                         else report.comparison_text(scored, compared))
        return 0
    for target in args.output:
        if same_file(Path(args.event), Path(target)):
            raise BridgelawError(f"--output {target} is the results file read; an output never replaces an input",
                                 expected="a new file name", suggestion="e.g. --output "
                                 + str(Path(args.event).with_name(Path(args.event).stem + "-corrected"
                                                                  + Path(target).suffix)))
    if args.output:
        refuse_unreproduced(event, scored, args.rescore_all)
    with bulk():
        writes = outputs(event, scored, args.output, args.event)
    progress.done()
    if args.diff:
        changed = changes(scored)
        if args.format == "json":
            sys.stdout.write(report.changes_json(scored, changed))
        else:
            sys.stdout.write(report.RENDER[args.format](scored) + report.CHANGES[args.format](changed, len(scored)))
    else:
        sys.stdout.write(report.RENDER[args.format](scored))
    warn_stale(write_all(writes))             # all written, then all renamed: none changed on failure
    return 0
