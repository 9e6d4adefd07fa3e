"""bench/event.py — a whole event through `bridgelaw event`'s path: 3 sessions × 27 boards ×
40 tables with 30 rulings (10 a session: weighted, split, artificial by responsibility, not
played, penalties), load + apply + score + write PBN and USEBIO; then 10× and 100× the tables
to show the cost is linear in tables. Then cross-IMPs: the largest real cross-IMP file kept
(Compscore's, 9 tables; no real 40-table cross-IMP file was found) and a synthetic 40-table
cross-IMP USEBIO session (27 boards, 10 rulings), in process and through the CLI
(`bridgelaw event FILE --rulings R --output OUT.xml`, with its bytecode as installed). Each is
timed in CPU seconds beside a plain reader-and-scorer written here (no code shared with the
engine: its own PBN/XML reading, Law 77 scores, IMP scale, matchpoints and cross-IMPs), the two
interleaved; medians of several runs; the load average is printed.

Then the cost of learning a file's conventions (issue 28) on the Ruter 40-table cross-IMP file.

    .venv/bin/python bench/event.py [--repeat 5] [--scales 1,10,100] [--only learning]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import xml.etree.ElementTree as ET
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgelaw.commands.event import bulk, load_event, run        # noqa: E402
from bridgelaw.field.writers import pbn_text, usebio_text     # noqa: E402

CONTRACTS = ["4S", "3NT", "4H", "2S", "3C", "1NT", "5D", "6S"]


def session_pbn(tables: int, boards: int, seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for b in range(1, boards + 1):
        out += ['[Event "Bench pairs"]', f'[Board "{b}"]', '[Vulnerable "None"]', '[Scoring "MatchPoints"]',
                '[ScoreTable "Table\\4R;PairId_NS\\4R;PairId_EW\\4R;Contract\\4L;Declarer;Result\\2R;MP_NS\\8R;MP_EW\\8R"]']
        for t in range(1, tables + 1):
            c = rng.choice(CONTRACTS)
            level = int(c[0])
            tricks = max(0, min(13, level + 6 + rng.choice([-2, -1, -1, 0, 0, 0, 1])))
            out.append(f"{t:4d} {t:4d} {t:4d} {c:4s} {rng.choice('NS')} {tricks:2d} - -")
        out.append("")
    return "\n".join(out)


def rulings_yaml(tables: int, boards: int, seed: int) -> str:
    rng = random.Random(seed)
    picks = rng.sample([(b, t) for b in range(1, boards + 1) for t in range(1, tables + 1)], 10)
    lines = ["rulebook: wbf-2017", "rulings:"]
    kinds = [
        "adjusted: [{result: 4S= N, weight: 2/3}, {result: 4S-1 N, weight: 1/3}]",
        "adjusted: {NS: [{result: 3NT= S, weight: 1/2}, {result: 3NT-1 S, weight: 1/2}], "
        "EW: [{result: 3NT= S, weight: 1/3}, {result: 3NT-1 S, weight: 2/3}]}",
        "artificial: {NS: avg-plus, EW: avg-minus}",
        "artificial: {NS: average, EW: average}",
        "not_played: true",
        "penalty: {EW: 10%}",
        "adjusted: 4H= N",
    ]
    for k, (b, t) in enumerate(picks):
        lines.append(f"  - {{board: {b}, table: {t}, {kinds[k % len(kinds)]}}}")
    return "\n".join(lines) + "\n"


def one_run(folder: Path, tables: int) -> dict[str, float]:
    times = {"load": 0.0, "apply+score": 0.0, "write": 0.0, "plain": 0.0}
    for s in range(3):
        path, rulings = folder / f"s{s}.pbn", folder / f"s{s}.yaml"
        t0 = _cpu()
        event = load_event(str(path))
        t1 = _cpu()
        scored = run(event, str(rulings), None, [])
        t2 = _cpu()
        with bulk():
            pbn, xml = pbn_text(event, scored), usebio_text(event, scored)
        (folder / f"out{s}.pbn").write_text(pbn, encoding="utf-8")
        (folder / f"out{s}.xml").write_text(xml, encoding="utf-8")
        t3 = _cpu()
        plain_pbn(path.read_text(encoding="utf-8"))          # interleaved with the engine's run
        t4 = _cpu()
        times["load"] += t1 - t0
        times["apply+score"] += t2 - t1
        times["write"] += t3 - t2
        times["plain"] += t4 - t3
    times["total"] = times["load"] + times["apply+score"] + times["write"]
    return times


# --- the plain reader-and-scorer (nothing of the engine) ---------------------------------------------

_IMPS = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250,
         2500, 3000, 3500, 4000]


def _imps(diff: int) -> int:
    a = abs(diff)
    n = sum(1 for step in _IMPS if a >= step)
    return n if diff >= 0 else -n


def _points(contract: str, declarer: str, tricks: int, vul: bool) -> int:
    """NS points of an undoubled contract (the bench's sessions have no doubles)."""
    level, strain = int(contract[0]), contract[1:]
    over = tricks - level - 6
    if over < 0:
        pts = over * (100 if vul else 50)
    else:
        per = 20 if strain in ("C", "D") else 30
        trick = per * level + (10 if strain == "NT" else 0)
        pts = trick + (50 if trick < 100 else (500 if vul else 300)) + per * over
        if level == 6:
            pts += 750 if vul else 500
        elif level == 7:
            pts += 1500 if vul else 1000
    return pts if declarer in "NS" else -pts


def plain_pbn(text: str) -> dict[str, float]:
    """Matchpoint totals of a PBN session (two per result beaten), read with regular expressions."""
    totals: dict[str, float] = {}
    for game in text.split("\n\n"):
        rows = [r.split() for r in game.splitlines() if r and r[0] in " 0123456789"]
        scores = [(r[1], r[2], _points(r[3], r[4], int(r[5]), False)) for r in rows if len(r) >= 6]
        values = sorted(p for _, _, p in scores)
        for ns, ew, p in scores:
            below = sum(1 for v in values if v < p)
            equal = sum(1 for v in values if v == p) - 1
            mp = 2 * below + equal
            totals["NS" + ns] = totals.get("NS" + ns, 0) + mp
            totals["EW" + ew] = totals.get("EW" + ew, 0) + 2 * (len(values) - 1) - mp
    return totals


def plain_usebio(data: bytes) -> dict[str, float]:
    """Cross-IMP totals of a USEBIO session (each SCORE against every other, ÷ comparisons)."""
    totals: dict[str, float] = {}
    for board in ET.fromstring(data).iter("BOARD"):
        lines = [(tl.findtext("NS_PAIR_NUMBER"), tl.findtext("EW_PAIR_NUMBER"), tl.findtext("SCORE"))
                 for tl in board.iter("TRAVELLER_LINE")]
        scores = [int(sc) for _, _, sc in lines if re.fullmatch(r"-?[0-9]+", sc or "")]
        for ns, ew, sc in lines:
            if not re.fullmatch(r"-?[0-9]+", sc or ""):
                continue
            x = sum(_imps(int(sc) - o) for o in scores) / max(len(scores) - 1, 1)
            totals["NS" + ns] = totals.get("NS" + ns, 0) + x
            totals["EW" + ew] = totals.get("EW" + ew, 0) - x
    return totals


_TOKEN = re.compile(r'"[^"]*"|\S+')


def plain_cross_pbn(text: str) -> dict[str, float]:
    """Cross-IMP sums of a PBN session (Ruter's IMP;Cross: each line against every other, not divided),
    read with regular expressions: the ScoreTable's Score_NS/Score_EW and pair columns by name."""
    totals: dict[str, float] = {}
    for table in re.findall(r'\[ScoreTable "([^"]*)"\]\r?\n((?:[^\[%\r\n][^\r\n]*\r?\n)*)', text):
        names = [c.split("\\")[0] for c in table[0].split(";")]
        ns_at, ew_at, sn, se = (names.index(n) for n in ("PairId_NS", "PairId_EW", "Score_NS", "Score_EW"))
        rows = []
        for row in table[1].splitlines():
            cells = [c.strip('"') for c in _TOKEN.findall(row)]
            if len(cells) <= se:
                continue
            if re.fullmatch(r"-?[0-9]+", cells[sn]):
                rows.append((cells[ns_at], cells[ew_at], int(cells[sn])))
            elif re.fullmatch(r"-?[0-9]+", cells[se]):
                rows.append((cells[ns_at], cells[ew_at], -int(cells[se])))
        scores = [p for _, _, p in rows]
        for ns, ew, p in rows:
            x = sum(_imps(p - o) for o in scores)
            totals["NS" + ns] = totals.get("NS" + ns, 0) + x
            totals["EW" + ew] = totals.get("EW" + ew, 0) - x
    return totals


def learning(repeat: int) -> None:
    """Issue 28: the cost of learning a file's conventions (field/learn.py) on the largest real session
    kept, Ruter's IMP;Cross file of 40 tables × 42 boards (generated from its figures), its program's
    name removed so that nothing is looked up: read and scored learning them (here 3 scorings: the
    divisor from 4 boards, then the artificial line's convention), beside read and scored with them given
    (--set: one scoring), and the plain reader-and-scorer. Learning may not double reading and scoring."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from test_event_learn import pbn_shapes, strip_program        # noqa: E402  (the tests' generator)
    figures = Path(__file__).resolve().parents[1] / "tests/data/events/figures/ruter-imp-cross-orebro-2011-pbn.yaml"
    given = ["fieldscore.cross_imps.divisor=none", "fieldscore.cross_imps.artificial=per-comparison",
             "fieldscore.cross_imps.artificial_scale=1/2"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ruter-40-tables.pbn"
        path.write_bytes(strip_program(pbn_shapes.generate(pbn_shapes.load(figures))))
        text = path.read_text(encoding="iso-8859-1")
        learnt, told, plain = [], [], []
        for _ in range(repeat):
            t0 = _cpu()
            (ss,) = run(load_event(str(path)), None, "wbf-2007", [])
            t1 = _cpu()
            (st,) = run(load_event(str(path)), None, "wbf-2007", given)
            t2 = _cpu()
            plain_cross_pbn(text)
            t3 = _cpu()
            learnt.append(t1 - t0)
            told.append(t2 - t1)
            plain.append(t3 - t2)
        lr = ss.learning
        a, b, p = statistics.median(learnt), statistics.median(told), statistics.median(plain)
        print(f"learning, Ruter IMP;Cross 40 tables × 42 boards (3,360 lines), no program named: read + scored "
              f"learning its conventions {a:.3f} s CPU ({lr.scorings} scorings; {lr.agree} of {lr.of} figures); "
              f"with them given (--set) {b:.3f} s ({st.learning.scorings} scoring); learning costs {a - b:.3f} s, "
              f"{a / b:.2f}× reading and scoring (< 2× {'met' if a / b < 2 else 'NOT met'}); plain "
              f"reader-and-scorer {p:.3f} s [{repeat} runs, median]")


def _cpu() -> float:
    return time.process_time()


def cross_imp_usebio(tables: int, boards: int, seed: int) -> str:
    rng = random.Random(seed)
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<USEBIO Version="1.2">', '<EVENT EVENT_TYPE="PAIRS">',
           "<PROGRAM_NAME>bench</PROGRAM_NAME>", "<DATE>01/03/2024</DATE>",
           "<BOARD_SCORING_METHOD>CROSS_IMPS</BOARD_SCORING_METHOD>"]
    for b in range(1, boards + 1):
        out.append(f"<BOARD><BOARD_NUMBER>{b}</BOARD_NUMBER>")
        vul = ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS",
               "EW")[(b - 1) % 16]
        for t in range(1, tables + 1):
            c = rng.choice(CONTRACTS)
            by = rng.choice("NS")
            tricks = max(0, min(13, int(c[0]) + 6 + rng.choice([-2, -1, -1, 0, 0, 0, 1])))
            pts = _points(c.replace("NT", "NT"), by, tricks, vul in ("NS", "All"))
            out.append(f"<TRAVELLER_LINE><TABLE_NUMBER>{t}</TABLE_NUMBER><NS_PAIR_NUMBER>{t}</NS_PAIR_NUMBER>"
                       f"<EW_PAIR_NUMBER>{t}</EW_PAIR_NUMBER><CONTRACT>{c}</CONTRACT><PLAYED_BY>{by}</PLAYED_BY>"
                       f"<TRICKS>{tricks}</TRICKS><SCORE>{pts}</SCORE></TRAVELLER_LINE>")
        out.append("</BOARD>")
    out += ["</EVENT>", "</USEBIO>", ""]
    return "\n".join(out)


def cross_imp_rulings(tables: int, boards: int, seed: int) -> str:
    rng = random.Random(seed)
    picks = rng.sample([(b, t) for b in range(1, boards + 1) for t in range(1, tables + 1)], 10)
    kinds = ["artificial: {NS: avg-plus, EW: avg-minus}", "adjusted: [{result: 4S= N, weight: 2/3}, "
             "{result: 4S-1 N, weight: 1/3}]", "penalty: {NS: 3}", "not_played: true", "adjusted: 3NT= S"]
    return "rulebook: wbf-2017\nrulings:\n" + "".join(
        f"  - {{board: {b}, table: {t}, {kinds[k % len(kinds)]}}}\n" for k, (b, t) in enumerate(picks))


def cross_imps(repeat: int) -> None:
    """A cross-IMP file read, ruled (10 rulings) and written — in process and by the CLI — beside the plain
    reader-and-scorer."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = {"real: Compscore cross-IMP Howell (9 tables, 25 boards)":
                 (root / "tests/data/events/compscore-cross-imp-howell.xml", None),
                 "synthetic: 40 tables × 27 boards": (folder / "x40.xml", folder / "x40.yaml")}
        (folder / "x40.xml").write_text(cross_imp_usebio(40, 27, 1), encoding="utf-8")
        (folder / "x40.yaml").write_text(cross_imp_rulings(40, 27, 1), encoding="utf-8")
        for label, (path, rulings) in files.items():
            data = path.read_bytes()
            engine, plain, cli = [], [], []
            # the CLI as installed: with its bytecode (pip compiles it at install; an editable tree run
            # with PYTHONDONTWRITEBYTECODE, as on the development machine, would compile every module
            # on every run), kept in the bench's folder, written by a first run that is not timed
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
            for _ in range(repeat):
                t0 = _cpu()
                event = load_event(str(path))
                scored = run(event, str(rulings) if rulings else None, "wbf-2017", [])
                with bulk():
                    usebio_text(event, scored)
                engine.append(_cpu() - t0)
                t0 = _cpu()
                plain_usebio(data)
                plain.append(_cpu() - t0)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                w0 = time.perf_counter()
                args = [sys.executable, "-m", "bridgelaw", "event", str(path), "--rulebook", "wbf-2017",
                        "--output", str(folder / "out.xml")] + (["--rulings", str(rulings)] if rulings else [])
                if not cli:
                    subprocess.run(args, check=True, capture_output=True, env=env)      # bytecode written
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    w0 = time.perf_counter()
                subprocess.run(args, check=True, capture_output=True, env=env)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cli.append((time.perf_counter() - w0, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime))
            e, p = statistics.median(engine), statistics.median(plain)
            wall = statistics.median(c[0] for c in cli)
            print(f"cross-IMPs, {label}: read + ruled + written {e:.3f} s CPU; plain reader-and-scorer {p:.3f} s "
                  f"({e / p:.1f}×); the CLI {wall:.2f} s wall, "
                  f"{statistics.median(c[1] for c in cli):.2f} s CPU [{repeat} runs, median]; "
                  f"in process < 1 s CPU {'met' if e < 1 else 'NOT met'}, the CLI ≤ 0.5 s "
                  f"{'met' if wall <= 0.5 else 'NOT met'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scales", default="1,10,100")
    ap.add_argument("--only", choices=["learning"], help="run only the learning bench")
    args = ap.parse_args()
    if args.only == "learning":
        learning(args.repeat)
        return
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; 3 sessions × 27 boards, 30 rulings")
    base = None
    for scale in (int(x) for x in args.scales.split(",")):
        tables = 40 * scale
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for s in range(3):
                (folder / f"s{s}.pbn").write_text(session_pbn(tables, 27, s), encoding="utf-8")
                (folder / f"s{s}.yaml").write_text(rulings_yaml(tables, 27, s), encoding="utf-8")
            repeat = args.repeat if scale < 100 else max(1, args.repeat // 3)
            runs = [one_run(folder, tables) for _ in range(repeat)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        lines = 3 * 27 * tables
        base = base or med["total"] / lines
        print(f"{scale:>4}× {tables:>5} tables ({lines:>7} lines): total {med['total']:.3f} s CPU "
              f"(load {med['load']:.3f}, apply+score {med['apply+score']:.3f}, write {med['write']:.3f}); "
              f"plain reader-and-scorer {med['plain']:.3f} s ({med['total'] / med['plain']:.1f}×); "
              f"{1e6 * med['total'] / lines:.1f} µs a line, {med['total'] / lines / base:.2f}× the 1× cost a line "
              f"[{repeat} runs, median]")
        if scale > 1 and med["total"] / lines / base > 2:
            print(f"      NOT linear in tables: a line costs {med['total'] / lines / base:.1f}× what it costs at 40 tables")
    cross_imps(args.repeat)
    learning(args.repeat)


if __name__ == "__main__":
    main()
