"""``bridgelaw score``: score one board's traveller, the whole field, exactly.

    bridgelaw score TRAVELLER [--rulebook ID] [--as-of DATE] [--set P=V]… [--overlay FILE]
                              [--format text|markdown|json|csv]
    bridgelaw score BOARD.pbn [--adjustments FILE] [--board N] [--output FILE | --in-place]
    bridgelaw score EVENT.xml --board N [--adjustments FILE]

TRAVELLER is a YAML traveller (see docs/travellers.md), a YAML adjustments file naming its PBN
(``pbn: board.pbn``), or a results file (PBN, USEBIO .xml): one board of it, scored within its
session as ``bridgelaw event`` scores it. The report goes to standard output; ``--output`` /
``--in-place`` also write the rescored board as PBN (MP_NS/MP_EW or IMP_NS/IMP_EW columns),
atomically, and never over the input unless ``--in-place`` says so. ``--as-of``, ``--set`` and
``--overlay`` are ``bridgelaw rule``'s (the same code). The work is done by :mod:`bridgelaw.field.traveller`
(read), :mod:`bridgelaw.field.score` (score) and :mod:`bridgelaw.render.traveller` (report); this module is
the command only.

Wired into the main CLI by ``traveller_cli.add_parser(sub)`` in :func:`bridgelaw.commands.cli.build_parser`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..core.dates import as_of_option
from ..core.errors import BridgelawError
from ..core.files import refuse_inputs, same_file, target_of, write_atomic
from ..core.vocab import METHODS
from ..field.traveller import Traveller, load_results_traveller, load_traveller, score_traveller
from ..render.traveller import (CSV_HEADER, FORMATS, RENDERERS, as_csv, as_dict, as_json, markdown,  # noqa: F401
                               pbn_output, text)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``score`` subcommand to the main parser's subparsers."""
    p = subparsers.add_parser(
        "score", help="score one board's traveller, rescoring the field around adjusted scores",
        description="Score every table of one board — matchpoints with fractional frequencies and Neuberg, "
                    "cross-IMPs or butler — with weighted, split and artificial adjusted scores, exactly. "
                    "TRAVELLER is a YAML traveller, a YAML adjustments file with pbn:, or a results file "
                    "(PBN, USEBIO .xml).",
        epilog="Exit status: 0 ok, 2 bad input (file:line:column; nothing is written). See docs/travellers.md.")
    p.add_argument("traveller", metavar="TRAVELLER", help="traveller (YAML), PBN or USEBIO file")
    p.add_argument("--profile", metavar="ID",
                   help="a results file's program conventions (rules/profiles): chosen from the program the file "
                        "names unless given; 'none' for the rulebook's defaults")
    p.add_argument("--rulebook", metavar="ID",
                   help="rulebook id or path; overrides the traveller's rulebook: (required for a bare PBN file)")
    p.add_argument("--format", choices=FORMATS, default="text", help="report format (default text)")
    p.add_argument("--scoring", choices=METHODS, help="scoring method; overrides the file's scoring: "
                   "(a results file that does not say defaults to matchpoints)")
    p.add_argument("--adjustments", metavar="FILE",
                   help="PBN or USEBIO input: YAML file with the adjusted and artificial scores, naming the tables")
    p.add_argument("--board", type=int, metavar="N",
                   help="PBN or USEBIO input: the board to score when the file has several")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--output", metavar="FILE", help="also write the rescored board as PBN to FILE (atomically)")
    out.add_argument("--in-place", action="store_true", help="rewrite the PBN input with the rescored board (atomically)")
    from .cli import _what_if_options          # the options of `bridgelaw rule`, defined once
    _what_if_options(p)
    p.set_defaults(func=cmd_score)
    return p


def _is_results(path: str) -> bool:
    return Path(path).suffix.lower() in (".pbn", ".xml")


def load(args: argparse.Namespace) -> Traveller:
    from .cli import what_if                    # as `bridgelaw rule` reads --as-of, --set and --overlay
    changes = {"as_of": as_of_option(getattr(args, "as_of", None)),
               "what_if": (lambda book: what_if(book, args)) if getattr(args, "set", None)
               or getattr(args, "overlay", None) else None}
    if _is_results(args.traveller):
        return load_results_traveller(args.traveller, adjustments=args.adjustments, board=args.board,
                                      rulebook=args.rulebook, scoring=args.scoring, profile=args.profile, **changes)
    if args.adjustments is not None or args.board is not None:
        raise BridgelawError(f"--adjustments and --board are for a PBN or USEBIO file; {args.traveller} is YAML",
                             suggestion="a YAML adjustments file names its PBN with pbn: and its board with board:")
    return load_traveller(args.traveller, rulebook=args.rulebook, scoring=args.scoring, **changes)


def cmd_score(args: argparse.Namespace) -> int:
    from .cli import inputs_of, warn_stale
    if args.output is not None:
        target_of(args.output)                # a device, FIFO or folder is refused before any work
        refuse_inputs("--output", [args.output], inputs_of(args))
    trav = load(args)
    board = score_traveller(trav)
    report = RENDERERS[args.format](board)
    target: Path | None = None
    pbn_text = ""
    if args.output is not None or args.in_place:
        if trav.pbn is None:
            raise BridgelawError(f"--output and --in-place write PBN; the traveller is {trav.event.format.upper()}"
                                 if trav.event.format == "usebio" else "--output and --in-place write PBN; the "
                                 "traveller is YAML",
                                 suggestion="give a PBN file (with --adjustments), or redirect the report with >")
        source = Path(trav.pbn.file)
        target = source if args.in_place else Path(args.output)
        if not args.in_place and same_file(target, source):
            raise BridgelawError(f"--output {args.output} is the input file; it is rewritten only with --in-place")
        if trav.adjustments_file is not None and same_file(target, Path(trav.adjustments_file)):
            raise BridgelawError(f"--output {args.output} is the adjustments file; choose another name")
        target_of(target)                     # a device, FIFO or folder is refused before anything is printed
        pbn_text = pbn_output(board)
    if target is not None:
        warn_stale(write_atomic(target, pbn_text, trav.pbn.encoding))
    sys.stdout.write(report)
    return 0
