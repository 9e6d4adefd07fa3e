"""``bridgelaw impact``'s report: each file's replay (field/season.py, plain data) summed up per
event and in total — as text, CSV, JSON, or one self-contained HTML page whose plots are inline SVG
(no script, no style sheet or font fetched from anywhere)."""

from __future__ import annotations

import csv
import html
import io
import json
from collections import Counter
from fractions import Fraction
from typing import Any

from ..core.exact import format_decimal

FORMATS = ("text", "csv", "json", "html")
MOVES = 20                      # the largest moves listed
AFFECTED = 15                   # the events most affected, plotted
# percentage-point bins of the contestants' changes (the distribution plot)
EDGES = [Fraction(-5), Fraction(-2), Fraction(-1), Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(1),
         Fraction(2), Fraction(5)]
COLUMNS = ["file", "rulings", "sessions", "boards", "lines", "contestants", "changed_sessions", "changed_boards",
           "changed_lines", "changed_contestants", "places_changed", "largest_change", "rescored", "error"]


def _f(v: str | None) -> Fraction | None:
    return None if v is None else Fraction(v)


def _d(v: Fraction | None, signed: bool = False) -> str:
    return "" if v is None else format_decimal(v, 2, signed=signed)


def _bin(x: Fraction) -> str:
    if x <= EDGES[0]:
        return f"≤ {_d(EDGES[0])}"
    for lo, hi in zip(EDGES, EDGES[1:]):
        if x <= hi and x > lo:
            return f"{_d(lo)} to {_d(hi)}" if hi != 0 else f"{_d(lo)} to 0"
    return f"> {_d(EDGES[-1])}"


def bins() -> list[str]:
    return [f"≤ {_d(EDGES[0])}"] + [f"{_d(lo)} to {_d(hi)}" if hi != 0 else f"{_d(lo)} to 0"
                                    for lo, hi in zip(EDGES, EDGES[1:])] + [f"> {_d(EDGES[-1])}"]


def summarise(results: list[dict[str, Any]], spec: Any) -> dict[str, Any]:
    """The summary every format renders (plain data)."""
    events, moves, causes = [], [], Counter()
    distribution = Counter()
    places = Counter()
    totals = Counter()
    for r in results:
        ev = {"file": r["file"], "rulings": r.get("rulings") or "", "error": r.get("error") or "",
              "rescored": bool(r.get("rerun")), "sessions": len(r["sessions"])}
        for key in ("boards", "lines", "contestants"):
            ev[key] = sum(s[key] for s in r["sessions"])
        ev["changed_sessions"] = sum(1 for s in r["sessions"] if s["changed_lines"] or s["changed_contestants"])
        ev["changed_boards"] = sum(len(s["changed_boards"]) for s in r["sessions"])
        ev["changed_lines"] = sum(len(s["changed_lines"]) for s in r["sessions"])
        ev["changed_contestants"] = sum(len(s["changed_contestants"]) for s in r["sessions"])
        ev["places_changed"] = 0
        largest = None
        for s in r["sessions"]:
            for line in s["changed_lines"]:
                for cause in line["causes"]:
                    causes[cause] += 1
            for c in s["changed_contestants"]:
                before, after = _f(c["percent"][0]), _f(c["percent"][1])
                pct = after - before if before is not None and after is not None else None
                moved = c["rank"][0] - c["rank"][1]
                if moved:
                    ev["places_changed"] += 1
                    places[moved] += 1
                if pct is not None:
                    distribution[_bin(pct)] += 1
                change = _f(c["change"])
                size = abs(pct) if pct is not None else abs(change)
                largest = size if largest is None or size > largest else largest
                moves.append({"file": r["file"], "session": s["session"], "contestant": c["key"], "unit": s["unit"],
                              "before": _d(_f(c["total"][0])), "after": _d(_f(c["total"][1])),
                              "change": _d(change, True), "percent_change": _d(pct, True),
                              "place": f"{c['place'][0]} → {c['place'][1]}", "places": moved,
                              "_size": size, "_pct": pct is not None})
        ev["largest_change"] = _d(largest)
        events.append(ev)
        for key in COLUMNS[2:11]:
            totals[key] += ev[key]
        totals["errors"] += bool(ev["error"])
        totals["rescored"] += ev["rescored"]
        again = r.get("reruled") or {}
        totals["rulings_made_again"] += again.get("made", 0)
        totals["rulings_kept"] += again.get("kept", 0)
    totals["files"] = len(results)
    moves.sort(key=lambda m: (not m["_pct"], -m["_size"], -abs(m["places"]), m["file"], m["contestant"]))
    for m in moves:
        del m["_size"], m["_pct"]
    affected = sorted((e for e in events if e["changed_lines"] or e["changed_contestants"]),
                      key=lambda e: (-e["changed_lines"], -e["changed_contestants"], e["file"]))[:AFFECTED]
    return {
        "current": spec.current, "proposed": spec.proposed, "set": list(spec.settings), "overlay": spec.overlay,
        "as_of": spec.as_of,
        "totals": {k: totals[k] for k in ("files", "errors", "rescored", "rulings_made_again", "rulings_kept",
                                          *COLUMNS[2:11])},
        "events": events,
        "causes": [{"cause": c, "lines": n} for c, n in sorted(causes.items(), key=lambda x: (-x[1], x[0]))],
        "moves": moves[:MOVES],
        "distribution": [{"bin": b, "contestants": distribution.get(b, 0)} for b in bins()],
        "places_moved": [{"places": k, "contestants": places[k]} for k in sorted(places)],
        "most_affected": [{"file": e["file"], "changed_lines": e["changed_lines"],
                           "changed_contestants": e["changed_contestants"]} for e in affected],
    }


def _title(s: dict[str, Any]) -> str:
    change = [f"--set {x}" for x in s["set"]] + ([f"--overlay {s['overlay']}"] if s["overlay"] else [])
    proposed = s["proposed"] + (" with " + " ".join(change) if change else "")
    return f"{s['current']} compared with {proposed}" + (f", as of {s['as_of']}" if s["as_of"] else "")


def text(s: dict[str, Any]) -> str:
    t = s["totals"]
    out = [f"Impact: {_title(s)}",
           f"{t['files']} files, {t['sessions']} sessions, {t['boards']} boards, {t['lines']} lines, "
           f"{t['contestants']} contestants ({t['errors']} files not read; {t['rescored']} scored again under the "
           "proposal, the others read nothing it changes"
           + (f"; of their rulings {t['rulings_made_again']} made again, {t['rulings_kept']} kept: they read nothing "
              "it changes" if t["rulings_kept"] else "") + ")",
           f"changed: {t['changed_sessions']} sessions, {t['changed_boards']} boards, {t['changed_lines']} lines, "
           f"{t['changed_contestants']} contestants, {t['places_changed']} places", ""]
    changed = [e for e in s["events"] if e["changed_lines"] or e["changed_contestants"] or e["error"]]
    if changed:
        out.append("Per event (files with a change or an error):")
        out.append(f"  {'lines':>6} {'boards':>6} {'contestants':>11} {'places':>6} {'largest':>8}  file")
        for e in changed:
            if e["error"]:
                out.append(f"  {'—':>6} {'—':>6} {'—':>11} {'—':>6} {'—':>8}  {e['file']}: not read: {e['error']}")
                continue
            out.append(f"  {e['changed_lines']:>6} {e['changed_boards']:>6} {e['changed_contestants']:>11} "
                       f"{e['places_changed']:>6} {e['largest_change']:>8}  {e['file']}")
        out.append("")
    if s["causes"]:
        out.append("What changed the lines (from their traces):")
        out += [f"  {c['lines']:>6}  {c['cause']}" for c in s["causes"]]
        out.append("")
    if s["moves"]:
        out.append("Largest moves:")
        for m in s["moves"]:
            pct = f" ({m['percent_change']} points)" if m["percent_change"] else ""
            out.append(f"  {m['contestant']:>8}  {m['before']} → {m['after']} {m['unit']}  {m['change']}{pct}  "
                       f"place {m['place']}  {m['file']} {m['session']}")
        out.append("")
    return "\n".join(out)


def as_csv(s: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for e in s["events"]:
        w.writerow([e[c] if not isinstance(e[c], bool) else int(e[c]) for c in COLUMNS])
    t = s["totals"]
    w.writerow(["TOTAL", "", *[t[c] for c in COLUMNS[2:11]], "", t["rescored"], t["errors"]])
    return buf.getvalue()


def as_json(s: dict[str, Any]) -> str:
    return json.dumps({"impact": s}, indent=1, ensure_ascii=False) + "\n"


# --- HTML with inline SVG --------------------------------------------------------------------------------------

def _bars(title: str, items: list[tuple[str, int]], ident: str, width: int = 640) -> str:
    """A horizontal bar chart as inline SVG; each bar carries its value (data-value) and its label."""
    e = html.escape
    if not items:
        return f'<figure id="{ident}"><figcaption>{e(title)}</figcaption><p>nothing changed</p></figure>'
    row, label_w = 22, 260
    most = max(v for _, v in items) or 1
    height = row * len(items) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{e(title)}">']
    for i, (label, value) in enumerate(items):
        y = 5 + i * row
        w = int((width - label_w - 60) * value / most)
        shown = label if len(label) <= 40 else "…" + label[-39:]
        parts.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end" font-size="12">{e(shown)}</text>'
                     f'<rect class="bar" data-label="{e(label)}" data-value="{value}" x="{label_w}" y="{y + 3}" '
                     f'width="{max(w, 1)}" height="{row - 6}" fill="#4a78a8"/>'
                     f'<text x="{label_w + max(w, 1) + 4}" y="{y + 15}" font-size="12">{value}</text>')
    parts.append("</svg>")
    return f'<figure id="{ident}"><figcaption>{e(title)}</figcaption>{"".join(parts)}</figure>'


def as_html(s: dict[str, Any]) -> str:
    e = html.escape
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Impact: {e(_title(s))}</title>
<style>body{{font-family:sans-serif;margin:1.5em;max-width:70em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td:first-child{{text-align:left}}
tr.total td{{font-weight:bold}}figure{{margin:1.5em 0}}figcaption{{font-weight:bold;margin-bottom:.4em}}</style>
</head><body>
<h1>Impact of a proposal</h1>
{body(s)}</body></html>
"""


def body(s: dict[str, Any]) -> str:
    """The report without its page: the web page shows it inside its own (every value escaped)."""
    e = html.escape
    t = s["totals"]
    head = [c.replace("_", " ") for c in COLUMNS if c not in ("rulings",)]
    rows = []
    for ev in s["events"]:
        cells = [ev[c] for c in COLUMNS if c != "rulings"]
        rows.append("<tr>" + "".join(f"<td>{e(str(int(v) if isinstance(v, bool) else v))}</td>" for v in cells) + "</tr>")
    total = ["TOTAL", *[t[c] for c in COLUMNS[2:11]], "", t["rescored"], t["errors"]]
    rows.append('<tr class="total">' + "".join(f"<td>{e(str(v))}</td>" for v in total) + "</tr>")
    moves = "".join(f"<tr><td>{e(m['contestant'])}</td><td>{e(m['before'])} → {e(m['after'])} {e(m['unit'])}</td>"
                    f"<td>{e(m['change'])}</td><td>{e(m['percent_change'])}</td><td>{e(m['place'])}</td>"
                    f"<td>{e(m['file'])} {e(m['session'])}</td></tr>" for m in s["moves"])
    causes = "".join(f"<tr><td>{c['lines']}</td><td>{e(c['cause'])}</td></tr>" for c in s["causes"])
    plots = [
        _bars("Distribution of contestants' score changes (percentage points)",
              [(d["bin"], d["contestants"]) for d in s["distribution"]], "distribution"),
        _bars("Places moved (up is positive)", [(f"{p['places']:+d}", p["contestants"]) for p in s["places_moved"]],
              "places"),
        _bars("Events most affected (lines changed)", [(m["file"], m["changed_lines"]) for m in s["most_affected"]],
              "affected"),
    ]
    return f"""<p id="title">{e(_title(s))}</p>
<p id="totals" data-files="{t['files']}" data-changed-lines="{t['changed_lines']}"
 data-changed-contestants="{t['changed_contestants']}" data-places="{t['places_changed']}">{t['files']} files,
{t['sessions']} sessions, {t['lines']} lines: {t['changed_lines']} lines, {t['changed_boards']} boards,
{t['changed_contestants']} contestants and {t['places_changed']} places change; {t['errors']} files not read.</p>
{"".join(plots)}
<h2>What changed the lines</h2>
<table id="causes"><tr><th>lines</th><th>rule or parameter (from the traces)</th></tr>{causes}</table>
<h2>Largest moves</h2>
<table id="moves"><tr><th>contestant</th><th>total</th><th>change</th><th>points</th><th>place</th><th>event</th></tr>{moves}</table>
<h2>Per event</h2>
<table id="events"><tr>{"".join(f"<th>{e(h)}</th>" for h in head)}</tr>{"".join(rows)}</table>
"""


RENDER = {"text": text, "csv": as_csv, "json": as_json, "html": as_html}
