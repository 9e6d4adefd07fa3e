"""A casebook: a folder of cases as a static, printable book (HTML and Markdown).

    bridgelaw casebook cases/ --out casebook/ [--title TITLE] [--as-of DATE] [--stamp]

writes

    casebook/index.html         the summary table and the indexes (law paragraph, outcome,
                                rulebook, event), linking every case
    casebook/cases/<name>.html  one page per case: its slip (record, ruling, laws, appeal)
    casebook/index.md, casebook/cases/<name>.md   the same in Markdown
    casebook/casebook.json      the index as data (what the tests check against the cases)
    casebook/style.css          the web page's style sheet (print: one case a page)

Each case is ruled under its own rulebook as bridgelaw rule rules it. The output is
deterministic — the same cases give the same bytes, so a casebook can be kept in version
control: no timestamp unless --stamp, and a case without a date: is ruled as its rulebook
stands after its last dated change (not "today"), unless --as-of says otherwise.
Every case is read and ruled before anything is written: a bad case is a one-line error and
no file is written.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from . import ruling as render
from .ruling import plural
from .. import rulebook as rulebooks
from . import slip as slips
from ..ruling.case import Case, load_case
from ..core.dates import as_of_option
from ..core.errors import BridgelawError
from ..core.files import refuse_inputs, target_of, write_all
from ..ruling.build import rule_case
from ..ruling.result import Ruling

STYLE = Path(__file__).resolve().parent.parent / "web" / "static" / "style.css"
INDEXES = (("law", "By law paragraph"), ("outcome", "By outcome"), ("rulebook", "By rulebook"), ("event", "By event"))
NO_EVENT = "(no event named)"


@dataclass
class Entry:
    path: str                 # as given (relative to the folder named on the command line)
    name: str                 # file stem in the casebook: wbf-commentary-2017--example-07
    case: Case
    ruling: Ruling
    slip: slips.Slip

    @property
    def laws(self) -> list[str]:
        return [ref for ref, _ in self.slip.laws]

    @property
    def event(self) -> str:
        r = self.case.model.record
        return r.event if r is not None and r.event else NO_EVENT

    @property
    def appeal(self) -> str | None:
        a = self.case.model.appeal
        return a.decision if a is not None else None

    def keys(self, index: str) -> list[str]:
        return {"law": self.laws, "outcome": [self.ruling.outcome], "rulebook": [self.ruling.rulebook.id],
                "event": [self.event]}[index]


def settled_day(book: rulebooks.Rulebook) -> dt.date:
    """The first day from which the rulebook no longer changes (its last dated change), within its dates:
    an undated case is ruled as of this day so that the casebook does not depend on today's date."""
    days = [book.effective_from]
    for values in book.dated.values():
        for d in values:
            days += [x for x in (d.start, d.end and d.end + dt.timedelta(days=1)) if x]
    for rule in book.all_rules:
        days += [x for x in (rule.start, rule.end and rule.end + dt.timedelta(days=1)) if x]
    day = max(days)
    if book.effective_until and day > book.effective_until:
        day = book.effective_until
    return day


def case_files(paths: list[str]) -> list[tuple[Path, str]]:
    """(file, name in the casebook) for every case under `paths`, sorted, names unique."""
    out: list[tuple[Path, str]] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            for q in sorted(path.rglob("*.yaml")):
                if q.is_file():
                    out.append((q, _name(q.relative_to(path))))
        elif path.is_file():
            out.append((path, _name(Path(path.name))))
        else:
            raise BridgelawError(f"no such file or folder: {p}")
    seen: dict[str, int] = {}
    named = []
    for q, name in out:
        seen[name] = seen.get(name, 0) + 1
        named.append((q, name if seen[name] == 1 else f"{name}-{seen[name]}"))
    return named


def _name(rel: Path) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "--".join(rel.with_suffix("").parts)).strip("-") or "case"


def build(paths: list[str], *, as_of: dt.date | None = None) -> list[Entry]:
    """Every case read and ruled under its own rulebook (the first bad one raises)."""
    entries = []
    for path, name in case_files(paths):
        case = load_case(path)
        book_id = case.rulebook_name(as_of)
        if book_id is None:
            raise case.doc.error([], "the case names no rulebook", expected="rulebook: <id>, or jurisdiction: and date:",
                                 suggestion="known: " + ", ".join(rulebooks.available()))
        try:
            book = rulebooks.get(book_id)
        except BridgelawError as exc:
            exc.file, (exc.line, exc.column) = case.file, case.doc.position(["rulebook"])
            raise
        day = None if case.model.date else (as_of or settled_day(book))
        ruling = rule_case(case, book, day)
        entries.append(Entry(str(path), name, case, ruling, slips.build(ruling, case)))
    if not entries:
        raise BridgelawError(f"no case files (*.yaml) in {', '.join(paths)}")
    return entries


# --- the index -----------------------------------------------------------------------------------

def groups(entries: list[Entry], index: str) -> list[tuple[str, list[Entry]]]:
    """The entries under each key of one index, keys in order (law paragraphs as the Laws number them)."""
    by: dict[str, list[Entry]] = {}
    for e in entries:
        for key in dict.fromkeys(e.keys(index)):
            by.setdefault(key, []).append(e)
    order = slips.paragraph_key if index == "law" else (lambda k: (k == NO_EVENT, k))
    return [(k, by[k]) for k in sorted(by, key=order)]


def summary(entries: list[Entry]) -> list[dict[str, Any]]:
    """Per law paragraph: how many rulings cite it, how many were appealed and how many changed on appeal."""
    out = []
    for law, group in groups(entries, "law"):
        out.append({"law": law, "rulings": len(group),
                    "appealed": sum(e.appeal is not None for e in group),
                    "changed": sum(e.appeal == "changed" for e in group)})
    return out


def as_data(entries: list[Entry], title: str) -> dict[str, Any]:
    return {
        "title": title,
        "cases": [{"name": e.name, "path": e.path, "title": e.case.model.title, "rulebook": e.ruling.rulebook.id,
                   "outcome": e.ruling.outcome, "laws": e.laws, "event": e.event, "appeal": e.appeal,
                   "html": f"cases/{e.name}.html", "markdown": f"cases/{e.name}.md"} for e in entries],
        "indexes": {index: {k: [e.name for e in group] for k, group in groups(entries, index)}
                    for index, _ in INDEXES},
        "summary": summary(entries),
        "totals": {"rulings": len(entries), "appealed": sum(e.appeal is not None for e in entries),
                   "changed": sum(e.appeal == "changed" for e in entries)},
    }


# --- HTML ----------------------------------------------------------------------------------------

def _page(title: str, body: str, *, css: str) -> str:
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n<link rel=\"stylesheet\" href=\"{css}\">\n</head>\n"
            f"<body class=\"casebook\">\n<main id=\"main\">\n{body}\n</main>\n</body>\n</html>\n")


def index_html(entries: list[Entry], title: str, stamp: str | None) -> str:
    data = as_data(entries, title)
    t = data["totals"]
    out = [f"<h1>{escape(title)}</h1>",
           f"<p class=\"intro\">{plural(t['rulings'], 'ruling')}; {t['appealed']} appealed, {t['changed']} changed on appeal."
           + (f" Built {escape(stamp)}." if stamp else "") + "</p>",
           "<nav aria-label=\"Indexes\"><ul>" + "".join(f"<li><a href=\"#{k}\">{escape(label)}</a></li>"
                                                         for k, label in INDEXES)
           + "<li><a href=\"#cases\">All cases</a></li></ul></nav>",
           "<h2 id=\"summary\">Summary</h2>", "<div class=\"scroll\"><table class=\"compare\" id=\"summary-table\">",
           "<thead><tr><th scope=\"col\">Law paragraph</th><th scope=\"col\">Rulings</th>"
           "<th scope=\"col\">Appealed</th><th scope=\"col\">Changed on appeal</th></tr></thead><tbody>"]
    for row in data["summary"]:
        out.append(f"<tr><th scope=\"row\"><a href=\"#law-{slips.slug(row['law'])}\">{escape(row['law'])}</a></th>"
                   f"<td>{row['rulings']}</td><td>{row['appealed']}</td><td>{row['changed']}</td></tr>")
    out.append(f"<tr><th scope=\"row\">All rulings</th><td>{t['rulings']}</td><td>{t['appealed']}</td>"
               f"<td>{t['changed']}</td></tr></tbody></table></div>")
    for index, label in INDEXES:
        out.append(f"<h2 id=\"{index}\">{escape(label)}</h2>")
        for key, group in groups(entries, index):
            heading = slips.HEADLINES.get(key, key) if index == "outcome" else key
            out.append(f"<h3 id=\"{index}-{slips.slug(key)}\">{escape(heading)}"
                       + (f" <code>{escape(key)}</code>" if index == "outcome" else "") + f" ({len(group)})</h3>")
            out.append("<ul class=\"index\">" + "".join(_link(e) for e in group) + "</ul>")
    out.append("<h2 id=\"cases\">All cases</h2>")
    out.append("<ol class=\"index\">" + "".join(_link(e, detail=True) for e in entries) + "</ol>")
    return _page(title, "\n".join(out), css="style.css")


def _link(e: Entry, detail: bool = False) -> str:
    more = ""
    if detail:
        more = f" — {escape(e.ruling.rulebook.id)}, {escape(e.ruling.outcome)}" + (
            f", appeal {escape(e.appeal)}" if e.appeal else "")
    return f"<li><a href=\"cases/{e.name}.html\">{escape(e.case.model.title)}</a>{more}</li>"


def case_html(e: Entry, title: str, previous: Entry | None, following: Entry | None) -> str:
    nav = ["<nav class=\"casebook-nav\" aria-label=\"Casebook\"><a href=\"../index.html\">"
           f"{escape(title)}: index</a>"]
    if previous:
        nav.append(f" · <a href=\"{previous.name}.html\" rel=\"prev\">previous case</a>")
    if following:
        nav.append(f" · <a href=\"{following.name}.html\" rel=\"next\">next case</a>")
    nav.append(f" · <span class=\"source\">file <code>{escape(e.path)}</code></span></nav>")
    body = "".join(nav) + "\n" + slips.html(e.slip, prefix="slip")
    return _page(f"{e.case.model.title} — {title}", body, css="../style.css")


# --- Markdown ------------------------------------------------------------------------------------

def index_markdown(entries: list[Entry], title: str, stamp: str | None) -> str:
    data = as_data(entries, title)
    t = data["totals"]
    out = [f"# {title}", "", f"{plural(t['rulings'], 'ruling')}; {t['appealed']} appealed, {t['changed']} changed on appeal."
           + (f" Built {stamp}." if stamp else ""), "", "## Summary", "",
           "| Law paragraph | Rulings | Appealed | Changed on appeal |", "|---|---|---|---|"]
    out += [f"| {r['law']} | {r['rulings']} | {r['appealed']} | {r['changed']} |" for r in data["summary"]]
    out.append(f"| All rulings | {t['rulings']} | {t['appealed']} | {t['changed']} |")
    for index, label in INDEXES:
        out += ["", f"## {label}"]
        for key, group in groups(entries, index):
            out += ["", f"### {key} ({len(group)})", ""]
            out += [f"- [{e.case.model.title}](cases/{e.name}.md)" for e in group]
    return "\n".join(out) + "\n"


def case_markdown(e: Entry, title: str) -> str:
    s = e.slip
    head = [f"[{title}: index](../index.md) · file `{e.path}`", ""]
    text = render.markdown(e.ruling, e.case)
    extra = ["", "## In bridge terms", ""] + [f"- **{line.side}**{f' ({line.role})' if line.role else ''}: "
                                                f"{line.bridge} — {line.points}" for line in s.sides]
    extra += ["", "## Appeal rights", "", s.appeal_rights]
    return "\n".join(head) + text + "\n".join(extra) + "\n"


# --- writing -------------------------------------------------------------------------------------

def write(entries: list[Entry], out: Path, *, title: str, stamp: str | None = None) -> list[Path]:
    """Write the casebook under `out`; the files written, in order."""
    files: dict[Path, str] = {
        out / "index.html": index_html(entries, title, stamp),
        out / "index.md": index_markdown(entries, title, stamp),
        out / "casebook.json": json.dumps(as_data(entries, title) | ({"built": stamp} if stamp else {}),
                                          indent=2, ensure_ascii=False) + "\n",
        out / "style.css": STYLE.read_text(encoding="utf-8"),
    }
    for i, e in enumerate(entries):
        files[out / "cases" / f"{e.name}.html"] = case_html(
            e, title, entries[i - 1] if i else None, entries[i + 1] if i + 1 < len(entries) else None)
        files[out / "cases" / f"{e.name}.md"] = case_markdown(e, title)
    inputs = [("a case file", e.case.file) for e in entries if getattr(e.case, "file", None)]
    refuse_inputs("--out", [str(p) for p in files], inputs)   # a link at an output's name to a case: refused
    for path in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        target_of(path)                       # every name checked before the first is written
    write_all([(path, text, "utf-8") for path, text in files.items()])   # all written, then all renamed
    return list(files)


def cmd_casebook(args: argparse.Namespace) -> int:
    as_of = as_of_option(args.as_of)
    entries = build(args.cases, as_of=as_of)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise BridgelawError(f"--out {args.out}: exists and is not a folder", expected="a folder (created if missing)")
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC") if args.stamp else None
    written = write(entries, out, title=args.title, stamp=stamp)
    print(f"casebook: {plural(len(entries), 'case')}, {plural(len(written), 'file')} in {out}/ (open {out / 'index.html'})")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "casebook", help="a folder of cases as a printable casebook (HTML and Markdown)",
        description="Rule every case under CASES with its own rulebook and write a static casebook to --out: an "
                    "index (summary table of rulings per law paragraph and how many changed on appeal; indexes by "
                    "law paragraph, outcome, rulebook and event) and one page per case (its slip: record, ruling, "
                    "laws, appeal), in HTML and Markdown, with casebook.json. Deterministic: no timestamp unless "
                    "--stamp; a case without date: is ruled as its rulebook stands after its last dated change. "
                    "Exit 2 if a case cannot be read or ruled (nothing is written then).")
    p.add_argument("cases", nargs="+", metavar="CASES", help="case files or folders")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write the casebook to (created if missing)")
    p.add_argument("--title", default="Casebook", help="the casebook's title (default: Casebook)")
    p.add_argument("--as-of", metavar="DATE", help="rule cases without a date: as of DATE (YYYY-MM-DD)")
    p.add_argument("--stamp", action="store_true", help="print the build time on the index (off by default)")
    p.set_defaults(func=cmd_casebook)
