"""``bridgelaw event``: read a whole results file, apply the TD's rulings, print the session
results, and write the corrected file.

    bridgelaw event EVENT.(pbn|xml) [--rulings RULINGS.yaml] [--rulebook ID] [--as-of DATE] [--set P=V]… [--overlay FILE]
                    [--scoring matchpoints|cross-imps|butler] [--format text|markdown|json|csv]
                    [--output FILE.pbn|FILE.xml]…

Wired into the main CLI by ``events.cli.add_parser(sub)`` in :func:`bridgelaw.cli.build_parser`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path
from typing import Any

from ..cli import _as_of, _what_if_options, proposed
from ..errors import BridgelawError
from ..traveller.load import bulk
from . import report
from .model import Event
from .pbn_in import load_event_pbn
from .rulings import apply, book_for, in_force, load_rulings
from .score import ScoredSession, score_session
from .usebio import load_event_usebio
from ..traveller_cli import same_file
from .writers import encode_check, pbn_fresh, pbn_text, usebio_text, write_atomic


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "event", help="apply a TD's rulings to a whole results file (PBN or USEBIO) and write it back",
        description="Read every board of a PBN or USEBIO results file, apply the rulings file's adjusted and "
                    "artificial scores through the rulebook (12C2 session scores and board counts across the "
                    "session), rescore every board, print the session results, and write the corrected file.",
        epilog="Exit status: 0 ok, 2 bad input (file:line:column; nothing is written). See docs/events.md.")
    p.add_argument("event", metavar="EVENT", help="results file: .pbn or USEBIO .xml")
    p.add_argument("--rulings", metavar="FILE", help="rulings for the event (YAML, see docs/events.md)")
    p.add_argument("--rulebook", metavar="ID", help="rulebook id; overrides the rulings file's rulebook:")
    _what_if_options(p, as_of_default="the day the file says each session was played")
    p.add_argument("--scoring", choices=["matchpoints", "cross-imps", "butler"],
                   help="scoring method, when the file does not say or to override it")
    p.add_argument("--format", choices=report.FORMATS, default="text", help="report format (default text)")
    p.add_argument("--output", action="append", default=[], metavar="FILE",
                   help="write the corrected event to FILE: .pbn or .xml (USEBIO); may be given twice; "
                        "never the input unless named explicitly")
    p.set_defaults(func=cmd_event)
    return p


def load_event(path: str, scoring: str | None = None, text: bytes | None = None) -> Event:
    with bulk():
        return _load_event(path, scoring, text)


def _load_event(path: str, scoring: str | None = None, text: bytes | None = None) -> Event:
    suffix = Path(path).suffix.lower()
    if suffix == ".xml":
        return load_event_usebio(path, data=text, scoring=scoring)
    if suffix == ".pbn":
        return load_event_pbn(path, scoring=scoring, data=text)
    raise BridgelawError(f"{path}: not a .pbn or .xml file", expected="a PBN (.pbn) or USEBIO (.xml) results file")


class Progress:
    """A progress bar on stderr (one line, redrawn per board) once a run has taken more than
    `delay` seconds; silent when the stream is not a terminal. `stream` and `clock` are
    parameters so that a test can give a fake terminal and a fake clock."""

    WIDTH = 24

    def __init__(self, stream: Any = None, clock: Any = time.monotonic, delay: float = 1.0) -> None:
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
            text = f"{what} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} boards"
        text = text[:78]
        self.stream.write(f"\r{text:<{max(self.shown, len(text))}}")
        self.stream.flush()
        self.shown = max(self.shown, len(text))

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


def run(event: Event, rulings_path: str | None, rulebook: str | None, settings: list[str] | None,
        rulings_text: str | None = None, progress=None, *, overlay: str | None = None,
        as_of: dt.date | None = None) -> list[ScoredSession]:
    """Apply the rulings and score every session: under `rulebook` (else the rulings file's), with
    the what-if `overlay` and `settings` (``--overlay``, ``--set``), each session as in force on
    `as_of` (``--as-of``), else on the day it was played."""
    with bulk():
        return _run(event, rulings_path, rulebook, settings, rulings_text, progress, overlay, as_of)


def _run(event: Event, rulings_path: str | None, rulebook: str | None, settings: list[str] | None,
         rulings_text: str | None, progress, overlay: str | None, as_of: dt.date | None) -> list[ScoredSession]:
    rulings = load_rulings(rulings_path, text=rulings_text) if rulings_path else None
    book = proposed(book_for(rulings, rulebook, event), overlay, settings)
    if rulings is not None:
        if rulings.model.scoring:
            for s in event.sessions:
                s.scoring = rulings.model.scoring
        apply(event, rulings, book, as_of)
    scored = []
    for k, s in enumerate(event.sessions, 1):
        what = f"session {k} of {len(event.sessions)}"
        step = (lambda done, total, what=what: progress(what, done, total)) if progress else None
        scored.append(score_session(s, in_force(book, s, as_of), progress=step))
    return scored


def outputs(event: Event, scored: list[ScoredSession], targets: list[str], source: str) -> list[tuple[Path, str, str]]:
    """(path, text, encoding) for each output, all built before anything is written."""
    out = []
    for target in targets:
        path = Path(target)
        suffix = path.suffix.lower()
        if suffix == ".xml":
            text, encoding = usebio_text(event, scored), "utf-8"
        elif suffix == ".pbn":
            if event.format == "pbn":
                text, encoding = pbn_text(event, scored), event.source.encoding
            else:
                text, encoding = pbn_fresh(event, scored), "utf-8"
        else:
            raise BridgelawError(f"--output {target}: not a .pbn or .xml file name",
                                 expected="FILE.pbn or FILE.xml (USEBIO)")
        encode_check(text, encoding, target)
        out.append((path, text, encoding))
    return out


def cmd_event(args: argparse.Namespace) -> int:
    progress = Progress()
    event = load_event(args.event, args.scoring)
    scored = run(event, args.rulings, args.rulebook, args.set, progress=progress, overlay=args.overlay,
                 as_of=_as_of(args.as_of))
    for target in args.output:
        if same_file(Path(args.event), Path(target)) and target != args.event:
            raise BridgelawError(f"--output {target} is the input file under another name",
                                 expected="a new file name, or the input's own name to overwrite it")
    with bulk():
        writes = outputs(event, scored, args.output, args.event)
    progress.done()
    sys.stdout.write(report.RENDER[args.format](scored))
    for path, text, encoding in writes:
        write_atomic(path, text, encoding)
    return 0
