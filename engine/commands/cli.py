"""The bridgelaw command line.

    bridgelaw rule CASE [--rulebook ID] [--as-of DATE] [--set P=V]… [--overlay FILE] [--format …]
    bridgelaw check [PATHS…] [--rulebook ID|all] [--as-of DATE] [--set P=V]… [--overlay FILE]
    bridgelaw compare --rulebooks A,B,… [CASES…] [--set P=V]… [--overlay FILE] [--format …]
    bridgelaw score TRAVELLER …                   (whole-field rescoring: docs/travellers.md)
    bridgelaw event EVENT [--rulings FILE] [--output FILE]…   (whole results files: docs/events.md)
    bridgelaw casebook CASES… --out DIR           (a printable casebook: docs/casebook.md)
    bridgelaw serve [--host 127.0.0.1] [--port 8000]   (the web page for TDs: docs/web.md)
    bridgelaw rulebooks | explain NAME | explain --exceptions STAGE | diff A B | lint [RULEBOOK…] | schema KIND
    bridgelaw new regulation ID --extends BASE [--dir DIR]   (a skeleton: docs/rulebooks.md)
    bridgelaw impact --rulebooks CURRENT,PROPOSED FILES|FOLDERS   (a season replayed: docs/comparing.md)

Every command takes --rules DIR (repeatable) and reads BRIDGELAW_RULES: folders of the user's own
rulebooks, offered beside the shipped ones (rulebook/files.py).

Exit status: 0 success; 1 a check found rulings that differ from their expectation, or the lint
found a gap or an overlap; 2 bad input (the message says file:line:column, what was expected
and, where one is close, a suggestion; no traceback); 130 interrupted (Ctrl-C); 143 terminated
(SIGTERM; a partly written output file is removed). Inputs are bounded: docs/limits.md.
"""

from __future__ import annotations

import argparse
import json
import datetime as dt
import os
import signal
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from .. import __version__
from ..render import ruling as render
from ..render.terminal import OutputFailed, SafeOutput
from .. import rulebook as rulebooks
from ..rulebook import files as rulebook_files, snapshot, sources
from ..ruling.case import Case, load_case
from ..core.dates import as_of_option
from ..core.errors import BridgelawError, one_line
from ..core.exact import format_mixed
from ..core.limits import too_long_name
from ..ruling.build import rule_case
from ..ruling.result import Ruling

# Commands other than rule/check import their modules when they run or when their options are
# asked for (see build_parser): `bridgelaw rule` loads neither the web server, the traveller and
# event scorers, the casebook, nor compare/explain/lint.

RULEBOOK_HELP = ("rulebook id (see `bridgelaw rulebooks`) or path to a rulebook file; overrides the case's rulebook: "
                 "(a case names an id only; a ruling under a file that is not a shipped rulebook says so)")


# --- choosing rulebooks -----------------------------------------------------------------------

def what_if(book: rulebooks.Rulebook, args: argparse.Namespace) -> rulebooks.Rulebook:
    """`book` with the command line's --overlay and --set applied (a proposed change, no file edited)."""
    overlay, settings = getattr(args, "overlay", None), getattr(args, "set", None)
    if not overlay and not settings:
        return book
    return rulebooks.proposed(book, overlay, settings)


def inputs_of(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files a command reads besides its main input, as (what, name): the rulings, adjustments
    and overlay files, and a rulebook given by path with every file it may read (no output may
    replace any of them)."""
    found = [(f"the {what} file", name) for what, name in (
        ("rulings", getattr(args, "rulings", None)), ("adjustments", getattr(args, "adjustments", None)),
        ("overlay", getattr(args, "overlay", None))) if name]
    book = getattr(args, "rulebook", None)
    if book and (book.endswith((".yaml", ".yml")) or "/" in book or "\\" in book) and not too_long_name(book):
        from ..rulebook.files import read_by
        try:
            found += [("the rulebook file" if n == 0 else "a file the rulebook reads", str(p))
                      for n, p in enumerate(sorted(read_by(Path(book)), key=lambda p: p != Path(book).resolve()))]
        except OSError:
            pass
    return found


def _book_for(case: Case, override: str | None, as_of: dt.date | None = None) -> rulebooks.Rulebook:
    if override:
        book = rulebooks.get(override, path_ok=True)
        if override.casefold() not in rulebooks.available():           # a file: its ruling says so
            render.NAMED_FILES.add(book.path.resolve())
        return book
    name = case.rulebook_name(as_of)          # named, or the code in force in the case's jurisdiction that day
    if name is None:
        raise case.doc.error([], "the case names no rulebook",
                             expected="rulebook: <id> in the case, jurisdiction: and date:, or --rulebook",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    try:
        return rulebooks.get(name)
    except BridgelawError as exc:
        exc.file, (exc.line, exc.column) = case.file, case.doc.position(["rulebook" if case.model.rulebook else "jurisdiction"])
        raise


def rule_file(path: str, override: str | None = None, args: argparse.Namespace | None = None) -> tuple[Case, Ruling]:
    case = load_case(path)
    book = _book_for(case, override, as_of_option(getattr(args, "as_of", None)))
    if args is not None:
        book = what_if(book, args)
    return case, rule_case(case, book, as_of_option(getattr(args, "as_of", None)))


# --- rule ------------------------------------------------------------------------------------

def cmd_rule(args: argparse.Namespace) -> int:
    case, ruling = rule_file(args.case, args.rulebook, args)
    if args.format == "json":
        sys.stdout.write(render.as_json(ruling, case))
    else:
        sys.stdout.write(render.RENDERERS[args.format](ruling, case))
    return 0


# --- slip ------------------------------------------------------------------------------------

def cmd_slip(args: argparse.Namespace) -> int:
    from ..render import slip as slips
    case, ruling = rule_file(args.case, args.rulebook, args)
    s = slips.build(ruling, case)
    if args.format == "html":
        style = Path(__file__).resolve().parent.parent / "web" / "static" / "style.css"
        sys.stdout.write(slips.page(s, style.read_text(encoding="utf-8") if style.is_file() else ""))
    else:
        sys.stdout.write(slips.text(s) if args.format == "text" else slips.markdown(s))
    return 0


# --- check -----------------------------------------------------------------------------------

@dataclass
class CheckResult:
    path: str
    status: str                     # pass | fail | error | skip | unreviewed
    details: list[str] = field(default_factory=list)
    ruling: Ruling | None = None
    book: str | None = None


def case_files(paths: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        problem = too_long_name(p)
        if problem:
            raise BridgelawError(f"{p[:60]}…: {problem}")
        path = Path(p)
        if path.is_dir():
            files += sorted(q for q in path.rglob("*.yaml") if q.is_file())
        elif path.is_file():
            files.append(path)
        else:
            raise BridgelawError(f"no such file or folder: {p}")
    return files


def compare(ruling: Ruling, expect) -> list[str]:
    """Differences between a ruling and an expected ruling (empty when it matches)."""
    diffs = []
    if expect.outcome is not None and expect.outcome != ruling.outcome:
        diffs.append(f"outcome: expected {expect.outcome}, got {ruling.outcome}")
    got = {side: s.value for side, s in ruling.sides.items()}
    got["nos"] = ruling.nos.value if ruling.nos else None
    got["os"] = ruling.os.value if ruling.os else None
    for key in ("nos", "os", "NS", "EW"):
        want: Fraction | None = getattr(expect, key)
        if want is not None and want != got[key]:
            diffs.append(f"{key}: expected {format_mixed(want)}, got {_show(got[key])}")
    for side, want in (expect.vp or {}).items():
        have = (ruling.vp or {}).get(side)
        if want != have:
            diffs.append(f"VP {side}: expected {format_mixed(want)}, got {_show(have)}")
    for player, want in (expect.players or {}).items():
        have = (ruling.players or {}).get(player)
        if want != have:
            diffs.append(f"player {player}: expected {format_mixed(want)}, got {_show(have)}")
    if expect.assigned is not None:
        diffs += _compare_assigned(ruling, expect.assigned)
    if expect.penalties is not None:
        have_p = {p.on: p.amount for p in ruling.penalties}
        want_p = dict(expect.penalties)
        if {k: v.text for k, v in have_p.items()} != {k: v.text for k, v in want_p.items()}:
            diffs.append("penalties: expected " + (", ".join(f"{k} {v.text}" for k, v in want_p.items()) or "none")
                         + ", got " + (", ".join(f"{k} {v.text}" for k, v in have_p.items()) or "none"))
    return diffs


def _compare_assigned(ruling: Ruling, want: Any) -> list[str]:
    """Each side's assigned results and weights against the expectation (equal results' weights added)."""
    from ..ruling.caseschema import SplitWeighting

    def normal(parts: list) -> dict[str, Fraction]:
        out: dict[str, Fraction] = {}
        for weight, outcome in parts:
            out[outcome.text] = out.get(outcome.text, Fraction(0)) + weight
        return {k: v for k, v in out.items() if v}

    def listed(value: Any) -> list:
        if isinstance(value, list):
            return [(item.weight if item.weight is not None else Fraction(1), item.result) for item in value]
        return [(Fraction(1), value)]
    wanted = ({side: listed(getattr(want, side)) for side in ("NS", "EW")} if isinstance(want, SplitWeighting)
              else {side: listed(want) for side in ("NS", "EW")})
    have = ruling.assigned or {}
    diffs = []
    for side in ("NS", "EW"):
        w, h = normal(wanted[side]), normal(have.get(side, []))
        if w != h:
            show = lambda d: "; ".join(f"{t} × {format_mixed(x)}" if x != 1 else t for t, x in d.items()) or "none"
            diffs.append(f"assigned {side}: expected {show(w)}, got {show(h)}")
    return diffs


def _show(value: Fraction | None) -> str:
    return "not scored" if value is None else format_mixed(value)


def check_one(path: Path, override: str | None, args: argparse.Namespace | None = None) -> list[CheckResult]:
    """Rule one case file — under its own rulebook, `override`, or every rulebook ('all')."""
    try:
        case = load_case(path)
        names = [n for n in rulebooks.available()] if override == "all" else [override or None]
        results = []
        for name in names:
            day = as_of_option(getattr(args, "as_of", None))
            book = _book_for(case, name, day)
            if override == "all" and (not case.in_scope(book) or (day is not None and not book.covers(day))):
                continue
            book = what_if(book, args) if args is not None else book
            try:
                ruling = rule_case(case, book, as_of_option(getattr(args, "as_of", None)))
            except BridgelawError as exc:
                results.append(CheckResult(str(path), "error", [str(exc)], book=book.id))
                continue
            base_id = book.id.split("+")[0]
            expect = case.expectation_for(base_id)
            if expect is None:
                status = "unreviewed" if override == "all" or case.model.expect is not None else "skip"
                results.append(CheckResult(str(path), status, ["no expectation for " + base_id], ruling, book.id))
                continue
            diffs = compare(ruling, expect)
            results.append(CheckResult(str(path), "fail" if diffs else "pass", diffs, ruling, book.id))
        return results
    except BridgelawError as exc:
        return [CheckResult(str(path), "error", [str(exc)])]


def cmd_check(args: argparse.Namespace) -> int:
    """Each case's line is printed as soon as it is ruled; only the counts are kept."""
    statuses = ("pass", "fail", "error", "skip", "unreviewed")
    counts = dict.fromkeys(statuses, 0)
    several = args.rulebook == "all" or bool(getattr(args, "set", None) or getattr(args, "overlay", None))
    json_out = args.format == "json"
    files = case_files(args.paths or ["cases"])
    if json_out:
        _write('{\n  "results": [')
    first = True
    for path in files:
        for r in check_one(path, args.rulebook, args):
            counts[r.status] += 1
            if json_out:
                item = {"path": r.path, "rulebook": r.book, "status": r.status, "details": r.details,
                        "outcome": r.ruling.outcome if r.ruling else None}
                _write(("" if first else ",") + "\n    " + json.dumps(item, indent=2).replace("\n", "\n    "))
            else:
                _write(_check_line(r, several) + "\n")
            first = False
    if json_out:
        _write(("]" if first else "\n  ]") + ',\n  "summary": ' + json.dumps(counts, indent=2).replace("\n", "\n  ")
               + "\n}\n")
    else:
        extra = [f"{counts[s]} {label}" for s, label in (("skip", "skipped"), ("unreviewed", "unreviewed (NEW)"))
                 if counts[s]]
        _write(f"{counts['pass']} passed, {counts['fail'] + counts['error']} failed" + "".join(f", {e}" for e in extra)
               + "\n")
    if counts["error"]:
        return 2
    return 1 if counts["fail"] else 0


def _check_line(r: CheckResult, several: bool) -> str:
    where = f"{r.path}" + (f"  [{r.book}]" if several and r.book else "")
    if r.status in ("pass", "unreviewed"):
        rl = r.ruling
        if rl.unit == "points" and rl.assigned:            # table points: each side's results, as on the slip
            sides = "  ".join(f"{s}: {render.results_text(rl, s)}" for s in rl.sides)
            return f"{'PASS' if r.status == 'pass' else 'NEW':<5} {where}  {rl.outcome}  {sides}"
        sides = "  ".join(f"{s} {_show(v.value) if v.value is None or rl.unit != 'IMP' else format_mixed(v.value, signed=True)}"
                          for s, v in rl.sides.items())
        return f"{'PASS' if r.status == 'pass' else 'NEW':<5} {where}  {rl.outcome}  {sides} {rl.unit}"
    return f"{r.status.upper():<5} {where}" + "".join(f"\n      {d}" for d in r.details)


# --- compare, diff, explain, lint, schema, rulebooks ----------------------------------------------

def _books(names: str) -> list[rulebooks.Rulebook]:
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    if not wanted:
        raise BridgelawError("--rulebooks names no rulebook", expected="e.g. --rulebooks wbf-2007,wbf-2017")
    return [rulebooks.get(n, path_ok=True) for n in wanted]


def cmd_compare(args: argparse.Namespace) -> int:
    from ..render import compare as comparing
    books = _books(args.rulebooks)
    proposing = bool(args.set or args.overlay)
    columns: list[comparing.Column] = []
    for book in books:
        index = len(columns)
        columns.append(comparing.Column(book, None if (index == 0 or proposing) else 0))
        if proposing:
            columns.append(comparing.Column(what_if(book, args), index))
    comparing.stream(columns, case_files(args.cases or ["cases"]), args.format, _write, as_of_option(args.as_of))
    return 0


def _write(text: str) -> None:
    """Write a part of a streamed output and let it reach the reader now (a pipe, a terminal)."""
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()


def cmd_diff(args: argparse.Namespace) -> int:
    from ..render import explain as explaining
    a, b = rulebooks.get(args.a, path_ok=True), rulebooks.get(args.b, path_ok=True)
    d = explaining.diff(a, b)
    sys.stdout.write(explaining.diff_json(d) if args.format == "json" else explaining.diff_text(d))
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from ..render import explain as explaining
    names = [args.rulebook] if args.rulebook else list(rulebooks.available())
    books = [rulebooks.get(n, path_ok=True) for n in names]
    if args.exceptions:
        sys.stdout.write("\n".join(explaining.exceptions(b, args.exceptions) for b in books))
        return 0
    if args.name is None:
        if len(books) != 1:
            raise BridgelawError("explain without NAME lists the rules and parameters of the rulebook given "
                                 "by --rulebook", expected="--rulebook ID, ID one of " + ", ".join(names),
                                 suggestion="or name a rule or parameter: bridgelaw explain NAME")
        sys.stdout.write(explaining.listing(books[0]))
        return 0
    sys.stdout.write(explaining.explain(books, args.name))
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    from ..rulebook import lint
    names = args.rulebooks or list(rulebooks.available())
    reports, failed = [], False
    for name in names:
        try:
            book = rulebooks.get(name, path_ok=True)
            reports.append(lint.lint(book))
        except BridgelawError as exc:
            print(one_line(f"bridgelaw: error: {name}: does not load: {exc}"), file=sys.stderr)
            failed = True
            continue
        try:
            _engine_holds(book)
        except BridgelawError as exc:
            print(one_line(f"bridgelaw: error: {exc}"), file=sys.stderr)
            failed = True
    for report in reports:
        sys.stdout.write(lint.text(report))
    if failed:
        return 2
    return 0 if all(r.ok for r in reports) else 1


def _engine_holds(book: rulebooks.Rulebook) -> None:
    """Put the lint's inputs through durable_rules itself, stage by stage and date by date: a
    rulebook beyond the engine's limits (docs/limits.md) is reported before it is used."""
    from ..rulebook import lint
    from ..rulebook.adapter import StageLimitError
    from ..rulebook.stages import STAGES
    for day in lint._days(book):
        view = book.at(day)
        for stage in STAGES.values():
            if not view.rules_for(stage.id):
                continue
            try:
                evaluator = view.evaluator(stage.id)
                for facts in lint.inputs(stage, view):
                    evaluator.applicable({**view.parameters, **facts})
            except StageLimitError as exc:
                message = (f"{book.id}: the rule engine cannot hold it: {exc.message}"
                           + (f" (on {day.isoformat()})" if len(lint._days(book)) > 1 else ""))
                rule = next((r for r in book.all_rules if r.id == exc.rule_id), None)
                place = rule.places[-1] if rule is not None and rule.places else None
                if place is not None and place.doc is not None:
                    raise place.doc.error(list(place.path), message) from None
                raise BridgelawError(message) from None
            except ValueError:
                continue                # numbers too fine for one sample: not a limit of the engine


def cmd_schema(args: argparse.Namespace) -> int:
    from ..ruling.caseschema import CaseModel
    from ..rulebook import LayerModel, RulebookModel
    models: dict[str, Any] = {"case": CaseModel, "rulebook": RulebookModel, "overlay": LayerModel}
    if args.kind == "traveller":
        from ..field.traveller import TravellerModel
        models["traveller"] = TravellerModel
    schema = models[args.kind].model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"bridgelaw {args.kind} file"
    sys.stdout.write(json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
    return 0


def cmd_rulebooks(args: argparse.Namespace) -> int:
    if args.empowering is not None:
        from ..render import explain as explaining
        names = args.empowering or [n for n in rulebooks.available() if rulebooks.get(n).extends is None]
        sys.stdout.write(explaining.empowering_tables([rulebooks.get(n, path_ok=True) for n in names]))
        return 0
    from ..rulebook import calendar
    if args.calendar:
        if args.format == "json":
            sys.stdout.write(json.dumps([b.as_json() for b in calendar.bodies()], indent=2, ensure_ascii=False) + "\n")
            return 0
        sys.stdout.write(_calendar_text(calendar.bodies(), sources=True))
        return 0
    books = [rulebooks.get(name) for name in rulebooks.available()]
    if args.format == "json":
        data = [b.summary() for b in books]
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return 0
    width = max(len(b.id) for b in books)
    for b in books:
        until = b.effective_until.isoformat() if b.effective_until else "—"
        on = f"  (extends {b.extends})" if b.extends else ""
        if b.path.parent.resolve() != rulebook_files.rules_dir().resolve():
            on += f"  [{b.path.parent}]"                    # a user's folder (--rules, BRIDGELAW_RULES)
        print(f"{b.id:<{width}} {b.version:<8} {b.effective_from.isoformat()} → {until:<10}  {b.title}{on}")
        print(f"{'':<{width}} {sources.report(b).line}")
    sys.stdout.write("\n" + _calendar_text(calendar.bodies(), sources=False))
    return 0


def _calendar_text(bodies: list, *, sources: bool) -> str:
    """Each body's codes, from the day each took effect (rules/calendar.yaml); with `sources`, each entry's."""
    out = ["Calendar (rules/calendar.yaml): the code in force for each body from the day it took effect "
           "(≈: the source gives no day; see --calendar for the sources)" if not sources else
           "Calendar (rules/calendar.yaml): the code in force for each body, each entry with its source "
           "(≈: the source gives no day)"]
    width = max(len(b.id) for b in bodies)
    for b in bodies:
        where = f" ({', '.join(b.countries)})" if b.countries else ""
        out.append(f"{b.id:<{width}} {b.name}{where}")
        for e in b.editions:
            out.append(f"{'':<{width}}   {e.rulebook:<10} {e.period}" + (f"\n{'':<{width}}     {e.source}" if sources else ""))
    return "\n".join(out) + "\n"


# --- main ------------------------------------------------------------------------------------

def _what_if_options(p: argparse.ArgumentParser, *, as_of: bool = True, as_of_default: str = "the case's date:") -> None:
    if as_of:
        p.add_argument("--as-of", metavar="DATE", help="rule as the rulebook stood on DATE (YYYY-MM-DD; "
                       f"default: {as_of_default}, else today)")
    p.add_argument("--set", action="append", metavar="PARAM=VALUE",
                   help="what-if: change a rulebook parameter (repeatable), e.g. artificial.pairs.avg_plus=65%%")
    p.add_argument("--overlay", metavar="FILE", help="what-if: apply a proposed change written as an overlay file")


# Subcommands defined in other modules: (module, function adding the subcommand, its one-line help).
# Their modules are imported only when the subcommand is the one run (or when every subcommand is
# wanted, e.g. for the full --help); otherwise a placeholder with the same help line lists them.
# tests/test_cli.py checks that each placeholder's help is the real subcommand's.
LAZY: dict[str, tuple[str, str, str]] = {
    "compare": (".commands.cli", "_add_compare", "one corpus under several rulebooks, side by side"),
    "score": (".commands.score", "add_parser", "score one board's traveller, rescoring the field around adjusted scores"),
    "casebook": (".render.casebook", "add_parser", "a folder of cases as a printable casebook (HTML and Markdown)"),
    "event": (".commands.event", "add_parser",
              "apply a TD's rulings to a whole results file (PBN or USEBIO) and write it back"),
    "serve": (".commands.serve", "add_parser", "start the web page for tournament directors"),
    "new": (".commands.new", "add_parser", "write a skeleton to start from: a regulation of your own"),
    "impact": (".commands.impact", "add_parser",
               "a proposal's effect on a season: every results file replayed under two rulebooks"),
}


def _add_compare(sub: Any) -> argparse.ArgumentParser:
    from ..render import compare as comparing
    p = sub.add_parser("compare", help=LAZY["compare"][2],
                       description="Rule each case under each rulebook; mark the rulings that differ from the first "
                                   "rulebook (with --set/--overlay: from the rulebook the change is made to) and "
                                   "summarise how many change, by how much, in whose favour.")
    p.add_argument("cases", nargs="*", metavar="CASE", help="case files or folders (default: cases)")
    p.add_argument("--rulebooks", required=True, metavar="A,B,…", help="comma-separated rulebook ids")
    p.add_argument("--format", choices=list(comparing.RENDERERS), default="text", help="output format (default text)")
    _what_if_options(p)
    p.set_defaults(func=cmd_compare)
    return p


def _add_lazy(sub: Any, name: str, command: str | None) -> None:
    module, function, help_line = LAZY[name]
    if command is None or command == name:
        import importlib
        getattr(importlib.import_module(module, "bridgelaw"), function)(sub)
    else:
        sub.add_parser(name, help=help_line, add_help=False)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `command`, only that subcommand's options are defined in full
    (the others are listed by name and help line)."""
    parser = argparse.ArgumentParser(
        prog="bridgelaw",
        description="Rule Law 12 score adjustments from case files, under versioned rulebooks.",
        epilog="Exit status: 0 ok, 1 a check or lint failed, 2 bad input. Docs: docs/ in the source tree.",
    )
    parser.add_argument("--version", action="version", version=f"bridgelaw {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="say on stderr what is done behind the scenes (e.g. why a rulebook snapshot is not used)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rule", help="rule one case file", description="Rule one case and print the ruling.")
    p.add_argument("case", metavar="CASE", help="case file (YAML)")
    p.add_argument("--rulebook", metavar="ID", help=RULEBOOK_HELP)
    p.add_argument("--format", choices=["text", "markdown", "json"], default="text", help="output format (default text)")
    _what_if_options(p)
    p.set_defaults(func=cmd_rule)

    p = sub.add_parser("slip", help="the ruling slip of one case: what a TD signs and hands to the players",
                       description="Rule one case and print its ruling slip (the web page's Printable slip): where and "
                       "when, the headline, each side's score in bridge terms and in points, the arithmetic, the "
                       "laws, the right to appeal. --format html is a whole printable page (print it to PDF "
                       "from a browser).")
    p.add_argument("case", metavar="CASE", help="case file (YAML)")
    p.add_argument("--rulebook", metavar="ID", help=RULEBOOK_HELP)
    p.add_argument("--format", choices=["text", "markdown", "html"], default="text", help="output format (default text)")
    _what_if_options(p)
    p.set_defaults(func=cmd_slip)

    p = sub.add_parser("check", help="rule every case that has expect: and compare",
                       description="Rule every case file under PATHS and compare with its expect: block; print "
                                   "PASS/FAIL per case and a summary. With --rulebook all, every case runs under every "
                                   "rulebook whose scope covers it; rulings without an expectation for that rulebook "
                                   "are listed as NEW (unreviewed). Exit 1 if any ruling differs, 2 if a case cannot "
                                   "be read.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="case files or folders (default: cases)")
    p.add_argument("--rulebook", metavar="ID", help=RULEBOOK_HELP + " `all` for every rulebook")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    _what_if_options(p)
    p.set_defaults(func=cmd_check)

    _add_lazy(sub, "compare", command)
    for name in ("score", "casebook", "event", "serve"):
        _add_lazy(sub, name, command)

    p = sub.add_parser("rulebooks", help="list the rulebooks",
                       description="List the rulebooks with versions, dates, the share of each that is sourced and "
                                   "how many of its texts are confirmed from an English text of their source. With "
                                   "--empowering, print instead the laws that empower an adjusted score, as a Markdown "
                                   "table per rulebook (docs/rulebooks.md is generated from it).")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    p.add_argument("--empowering", nargs="*", metavar="ID", help="the empowering laws of these rulebooks (default: "
                   "every Laws edition, a rulebook that extends nothing), as Markdown")
    p.add_argument("--calendar", action="store_true", help="print only the calendar of each body's codes "
                   "(rules/calendar.yaml), each entry with its source")
    p.set_defaults(func=cmd_rulebooks)

    p = sub.add_parser("explain", help="explain a rule or a parameter",
                       description="A rule's explanation, condition, award, cited paragraphs and where it was defined "
                                   "or replaced along the extends chain; or a parameter's values and sources. Without "
                                   "NAME, list the rules and parameters of the rulebook given by --rulebook (which "
                                   "is then required).")
    p.add_argument("name", nargs="?", metavar="NAME", help="rule id or parameter name (omit it, with --rulebook, "
                   "to list them)")
    p.add_argument("--rulebook", metavar="ID", help="only this rulebook (default: every rulebook that has NAME; "
                   "required without NAME)")
    p.add_argument("--exceptions", metavar="STAGE", help="print the stage's rules as a tree of exceptions (the rules "
                   "that override each rule, indented under it), per rulebook")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("diff", help="the structural difference between two rulebooks",
                       description="Parameters changed, rules added, removed or changed, citations changed — after "
                                   "inheritance.")
    p.add_argument("a", metavar="RULEBOOK_A")
    p.add_argument("b", metavar="RULEBOOK_B")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("lint", help="check rulebooks for gaps and overlaps",
                       description="Load each rulebook (schema, citations, references) and search each stage's input "
                                   "space for inputs where no rule or two rules apply; print a witness for each. "
                                   "Exit 1 on a finding, 2 if a rulebook does not load.")
    p.add_argument("rulebooks", nargs="*", metavar="RULEBOOK", help="rulebook ids or files (default: all)")
    p.set_defaults(func=cmd_lint)

    p = sub.add_parser("schema", help="print a JSON Schema for editors",
                       description="Print the JSON Schema of a file kind, for editors that validate YAML.")
    p.add_argument("kind", choices=["case", "rulebook", "overlay", "traveller"])
    p.set_defaults(func=cmd_schema)

    _add_lazy(sub, "new", command)
    _add_lazy(sub, "impact", command)
    for p in sub.choices.values():          # every command (not a placeholder) reads the user's rulebook folders
        if p.add_help and "--rules" not in p._option_string_actions:
            rules_option(p)
    return parser


RULES_HELP = ("a folder of your own rulebooks (*.yaml), offered beside the shipped ones: they may extend and "
              "include them, an id a shipped rulebook has is refused (repeatable; also BRIDGELAW_RULES, folders "
              "separated by %s)" % ("':'" if os.pathsep == ":" else "';'"))


def rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", action="append", default=[], metavar="DIR", help=RULES_HELP)


def warn_stale(removed: list[Path]) -> None:
    """Say which temporary files of earlier, killed writes the writer removed (core.files)."""
    for path in removed:
        print(f"bridgelaw: warning: removed {one_line(str(path))}, the temporary file of an earlier write that "
              "was killed before it finished", file=sys.stderr)


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line, when it is one of LAZY (else None: build all)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in LAZY else "rule"
        if arg in ("-h", "--help", "--version"):
            return None
    return None


def _discard(stdout: Any) -> None:
    """Point the standard output at /dev/null: the buffer's rest is dropped at exit, not written again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class Terminated(BaseException):
    """SIGTERM arrived: unwind (removing partly written files) and exit 143."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:                  # not the main thread (e.g. called from a test's thread)
        pass
    stdout = sys.stdout
    try:
        parser = build_parser(_command(argv))
        args = parser.parse_args(argv)
        snapshot.set_verbose(args.verbose)
        rulebook_files.use(getattr(args, "rules", None) or [])
        if rulebook_files.user_dirs():          # BRIDGELAW_RULES checked now, and an id offered twice:
            rulebook_files.available()          # one line, before any work
        sys.stdout = SafeOutput(stdout)        # control characters from any input escaped in every format
        code = args.func(args)
        sys.stdout.flush()
        return code
    except BridgelawError as exc:
        print(f"bridgelaw: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _discard(stdout)
        return 0
    except OutputFailed as exc:
        _discard(stdout)                       # what is left in the buffer is not written again at exit
        print(f"bridgelaw: error: cannot write the output: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bridgelaw: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("bridgelaw: terminated", file=sys.stderr)
        return 143
    finally:
        sys.stdout = stdout
        snapshot.set_verbose(False)
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
