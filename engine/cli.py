"""The bridgelaw command line.

    bridgelaw rule CASE [--rulebook ID] [--format text|markdown|json]
    bridgelaw check [PATHS…] [--rulebook ID] [--format text|json]
    bridgelaw rulebooks [--format text|json]

Exit status: 0 success; 1 a check found rulings that differ from their expectation; 2 bad
input (the message says file:line:column, what was expected and, where one is close, a
suggestion; no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Sequence

from . import __version__, render
from . import rulebook as rulebooks
from .case import Case, load_case
from .errors import BridgelawError
from .exact import format_mixed
from .ruling import Ruling, rule_case

DEFAULT_RULEBOOK_HELP = "rulebook id (see `bridgelaw rulebooks`) or path to a rulebook file; overrides the case's rulebook:"


def _book_for(case: Case, override: str | None) -> rulebooks.Rulebook:
    if override:
        return rulebooks.get(override)
    name = case.model.rulebook
    if name is None:
        raise case.doc.error([], "the case names no rulebook", expected="rulebook: <id> in the case, or --rulebook",
                             suggestion="known: " + ", ".join(rulebooks.available()))
    try:
        return rulebooks.get(name)
    except BridgelawError as exc:
        line, col = case.doc.position(["rulebook"])
        exc.file, exc.line, exc.column = case.file, line, col
        raise


def rule_file(path: str, override: str | None = None) -> tuple[Case, Ruling]:
    case = load_case(path)
    return case, rule_case(case, _book_for(case, override))


# --- rule ------------------------------------------------------------------------------------

def cmd_rule(args: argparse.Namespace) -> int:
    case, ruling = rule_file(args.case, args.rulebook)
    if args.format == "json":
        sys.stdout.write(render.as_json(ruling))
    else:
        sys.stdout.write(render.RENDERERS[args.format](ruling, case))
    return 0


# --- check -----------------------------------------------------------------------------------

@dataclass
class CheckResult:
    path: str
    status: str                     # pass | fail | error | skip
    details: list[str] = field(default_factory=list)
    ruling: Ruling | None = None


def case_files(paths: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            files += sorted(q for q in path.rglob("*.yaml") if q.is_file())
        elif path.is_file():
            files.append(path)
        else:
            raise BridgelawError(f"no such file or folder: {p}")
    return files


def compare(ruling: Ruling, expect) -> list[str]:
    """Differences between a ruling and a case's `expect` block (empty when it matches)."""
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
    for player, want in (expect.players or {}).items():
        have = (ruling.players or {}).get(player)
        if want != have:
            diffs.append(f"player {player}: expected {format_mixed(want)}, got {_show(have)}")
    return diffs


def _show(value: Fraction | None) -> str:
    return "not scored" if value is None else format_mixed(value)


def check_one(path: Path, override: str | None) -> CheckResult:
    try:
        case, ruling = rule_file(str(path), override)
    except BridgelawError as exc:
        return CheckResult(str(path), "error", [str(exc)])
    if case.model.expect is None:
        return CheckResult(str(path), "skip", ["no expect"], ruling)
    diffs = compare(ruling, case.model.expect)
    return CheckResult(str(path), "fail" if diffs else "pass", diffs, ruling)


def cmd_check(args: argparse.Namespace) -> int:
    results = [check_one(p, args.rulebook) for p in case_files(args.paths or ["cases"])]
    counts = {s: sum(r.status == s for r in results) for s in ("pass", "fail", "error", "skip")}
    if args.format == "json":
        data = {"results": [{"path": r.path, "status": r.status, "details": r.details,
                             "outcome": r.ruling.outcome if r.ruling else None} for r in results],
                "summary": counts}
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        for r in results:
            if r.status == "pass":
                rl = r.ruling
                sides = "  ".join(f"{s} {_show(v.value) if v.value is None or rl.unit != 'IMP' else format_mixed(v.value, signed=True)}"
                                  for s, v in rl.sides.items())
                print(f"PASS  {r.path}  {rl.outcome}  {sides} {rl.unit}")
            else:
                print(f"{r.status.upper():<5} {r.path}" + "".join(f"\n      {d}" for d in r.details))
        print(f"{counts['pass']} passed, {counts['fail'] + counts['error']} failed"
              + (f", {counts['skip']} skipped" if counts["skip"] else ""))
    if counts["error"]:
        return 2
    return 1 if counts["fail"] else 0


# --- rulebooks -------------------------------------------------------------------------------

def cmd_rulebooks(args: argparse.Namespace) -> int:
    books = [rulebooks.get(name) for name in rulebooks.available()]
    if args.format == "json":
        data = [{"id": b.id, "title": b.title, "authority": b.authority, "version": b.version,
                 "effective": {"from": b.effective_from.isoformat(),
                               "until": b.effective_until.isoformat() if b.effective_until else None},
                 "rules": len(b.rules), "sha256": b.sha256} for b in books]
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return 0
    for b in books:
        until = b.effective_until.isoformat() if b.effective_until else "—"
        print(f"{b.id:<12} {b.version:<8} {b.effective_from.isoformat()} → {until:<10}  {b.authority}: {b.title}")
    return 0


# --- main ------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bridgelaw",
        description="Rule Law 12 score adjustments from case files, under versioned rulebooks.",
        epilog="Exit status: 0 ok, 1 a check failed, 2 bad input. Docs: docs/ in the source tree.",
    )
    parser.add_argument("--version", action="version", version=f"bridgelaw {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rule", help="rule one case file", description="Rule one case and print the ruling.")
    p.add_argument("case", metavar="CASE", help="case file (YAML)")
    p.add_argument("--rulebook", metavar="ID", help=DEFAULT_RULEBOOK_HELP)
    p.add_argument("--format", choices=["text", "markdown", "json"], default="text", help="output format (default text)")
    p.set_defaults(func=cmd_rule)

    p = sub.add_parser("check", help="rule every case that has expect: and compare",
                       description="Rule every case file under PATHS that has an expect: block; print PASS/FAIL "
                                   "per case and a summary. Exit 1 if any ruling differs, 2 if a case cannot be read.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="case files or folders (default: cases)")
    p.add_argument("--rulebook", metavar="ID", help=DEFAULT_RULEBOOK_HELP)
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("rulebooks", help="list the rulebooks", description="List the rulebooks with versions and dates.")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    p.set_defaults(func=cmd_rulebooks)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BridgelawError as exc:
        print(f"bridgelaw: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
