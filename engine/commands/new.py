"""``bridgelaw new regulation ID --extends BASE [--dir DIR]``: a skeleton of a national body's own
regulation, in a folder of its own, that loads, lints and checks clean as written — its documents
(URL and date), one quoted paragraph, one cited parameter override, its dates and their source,
and a case with ``expect:`` — for the body to edit.

    DIR/ID.yaml                     the regulation (extends BASE, a shipped rulebook or one of --rules)
    DIR/cases/ID-average-plus.yaml  a case ruled under it, its expectation filled from the ruling

Nothing is overwritten: a file that exists already is one line, exit 2, nothing written.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core.errors import BridgelawError
from ..core.files import write_atomic
from ..rulebook.schema import RULE_ID

# The parameter the skeleton overrides (with its base's own value, so that it loads within any
# bounds the base declares), and the case that reads it.
PARAMETER = "artificial.pairs.avg_plus"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "new", help="write a skeleton to start from: a regulation of your own",
        description="Write a skeleton regulation that extends BASE into DIR (default: the current folder), with "
                    "a case under DIR/cases; both load, lint and check clean as written. Edit the lines marked "
                    "EDIT, then try it: bridgelaw compare --rules DIR --rulebooks BASE,ID DIR/cases/",
        epilog="Exit status: 0 written, 2 bad input or a file that exists already (nothing is written).")
    p.add_argument("kind", choices=["regulation"], help="what to write (a regulation: a rulebook that extends another)")
    p.add_argument("id", metavar="ID", help="the rulebook's id: lower-case letters, digits and hyphens, e.g. nbo-2026")
    p.add_argument("--extends", required=True, metavar="BASE",
                   help="the rulebook it extends (see `bridgelaw rulebooks`), e.g. the Laws edition you play under")
    p.add_argument("--dir", default=".", metavar="DIR", help="the folder to write into (made if missing; default .)")
    p.set_defaults(func=cmd_new)
    return p


def cmd_new(args: argparse.Namespace) -> int:
    from .. import rulebook as rulebooks
    if not re.fullmatch(RULE_ID, args.id) or len(args.id) > 60:
        raise BridgelawError(f"new regulation: '{args.id[:60]}' is not a rulebook id",
                             expected="lower-case letters, digits and hyphens, starting with a letter or digit")
    known = rulebooks.available()
    if args.id in known:
        raise BridgelawError(f"new regulation: '{args.id}' is already a rulebook's id ({known[args.id]})",
                             expected="an id of its own")
    base = rulebooks.get(args.extends)
    if PARAMETER not in base.parameters:
        raise BridgelawError(f"new regulation: {args.extends} sets no {PARAMETER}, which the skeleton overrides",
                             expected="a rulebook that extends a Laws edition")
    folder = Path(args.dir)
    book_file, case_file = folder / f"{args.id}.yaml", folder / "cases" / f"{args.id}-average-plus.yaml"
    for file in (book_file, case_file):
        if file.exists() or file.is_symlink():
            raise BridgelawError(f"new regulation: {file} exists already; nothing is written",
                                 expected="a new id, or another --dir")
    today = dt.date.today()
    day = max(today, base.effective_from)
    value = base.parameters[PARAMETER]
    book_text = regulation_text(args.id, args.extends, day, value, folder)
    case_text = case_template(args.id, day)
    # the case's expectation is its ruling under the new regulation: ruled before anything is written
    expect = _ruled(args.id, book_text, case_text, folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cases").mkdir(exist_ok=True)
    write_atomic(book_file, book_text)
    write_atomic(case_file, case_text + expect)
    print(f"wrote {book_file} and {case_file}\n"
          f"try:  bridgelaw lint --rules {folder} {args.id}\n"
          f"      bridgelaw check --rules {folder} --rulebook {args.id} {folder / 'cases'}\n"
          f"      bridgelaw compare --rules {folder} --rulebooks {args.extends},{args.id} {folder / 'cases'}",
          file=sys.stderr)
    return 0


def _percent(value: Fraction) -> str:
    pct = value * 100
    return f"{pct.numerator}%" if pct.denominator == 1 else f"{value.numerator}/{value.denominator}"


def regulation_text(rid: str, base: str, day: dt.date, value: Fraction, folder: Path) -> str:
    tag = rid.upper()
    doc = f"{rid}-regulations"
    group, sub, name = PARAMETER.split(".")
    shown = _percent(value)
    return f"""# {rid}: a regulation of your own on top of {base}. Edit each EDIT; every change cites its paragraph.
# Try it:  bridgelaw lint --rules {folder} {rid}
#          bridgelaw check --rules {folder} --rulebook {rid} {folder / 'cases'}
#          bridgelaw compare --rules {folder} --rulebooks {base},{rid} {folder / 'cases'}
# The format: docs/rulebooks.md ("A national body adds its own regulation").
rulebook: {rid}
title: "EDIT: the title of your regulation"
authority: "EDIT: the body that issues it"
version: "1"
effective:
  from: {day.isoformat()}
  source: "EDIT: where the date it takes effect is published (e.g. the regulation's own page)"
extends: {base}

documents:
  {doc}:
    title: "EDIT: the title of the document your provisions are quoted from"
    by: "EDIT: the body"
    date: {day.isoformat()}
    kind: regulation
    url: "https://example.org/EDIT-the-address-of-your-regulation"

paragraphs:
  {tag}/1:
    source: {{document: {doc}, section: "1"}}
    # the provision's own words, quoted; a paraphrase says confirmed: false
    text: >-
      EDIT: A contestant in no way at fault for an artificial adjusted score receives average plus,
      {shown} of the available matchpoints.

parameters:
  {group}:
    {sub}:
      {name}: {{value: {shown}, cites: [{tag}/1]}}      # EDIT: the value your provision gives
"""


def case_template(rid: str, day: dt.date) -> str:
    return f"""title: "EDIT: average plus and minus under {rid}"
source: "EDIT: where the ruling comes from"
rulebook: {rid}
date: {day.isoformat()}
scoring: matchpoints
board: {{number: 1, vulnerability: None}}
results_on_board: 13            # top 24
artificial: {{NS: in-no-way-at-fault, EW: directly-at-fault}}
# what the regulation should give: filled from its ruling when the skeleton was written; EDIT it
# to what your provisions say, and `bridgelaw check` tells you when a ruling differs
"""


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ruled(rid: str, book_text: str, case_text: str, folder: Path) -> str:
    """The case's `expect:` block: the case ruled under the regulation, both written to a scratch
    folder first (so that a skeleton that would not load is never written)."""
    import tempfile
    from .. import rulebook as rulebooks
    from ..ruling.build import rule_case
    from ..ruling.case import load_case
    with tempfile.TemporaryDirectory() as scratch:
        book_file = Path(scratch) / f"{rid}.yaml"
        book_file.write_text(book_text, encoding="utf-8")
        case_file = Path(scratch) / "case.yaml"
        case_file.write_text(case_text, encoding="utf-8")
        book = rulebooks.load(book_file)
        ruling = rule_case(load_case(case_file), book, None)
    sides = ", ".join(f"{side}: {_number(s.value)}" for side, s in ruling.sides.items())
    return f"expect:\n  {rid}: {{outcome: {ruling.outcome}, {sides}}}\n"
