"""Benchmark: rulings per second through the public API, against a plain hand-written reference.

    python bench/rulings.py [--rounds 15] [--round-seconds 0.2] [--cli-runs 9]

Measured in one run, the two sides of each comparison interleaved round by round (this machine
is shared and noisy: medians of the rounds are printed, with the load average):

  * engine       `rule_case(case, book)` over the A/B/C cases of the corpus (cases parsed and
                 rulebooks loaded once: this measures ruling, not YAML parsing);
  * reference    the same rulings by `reference_ruling` below: Law 77 scores, the IMP scale,
                 matchpoints "as if obtained" and the four A/B/C cases written directly in
                 Python, from the case file's raw YAML with its results parsed once (as the
                 engine's cases are). It shares no code with bridgelaw and is checked to give
                 the engine's scores for every case it times;
  * new case     the same, each ruling with the cache of decisions by exact facts emptied first:
                 what a case whose facts were never seen costs. Decisions cached by order pattern
                 stay (StageEvaluator.pattern: the numbers in the same order among themselves and
                 the stage's constants, the same words — decided alike, exactly);
  * cold         the same, each ruling with both decision caches emptied first (every stage asks
                 durable_rules: the first ruling of a process, or of a pattern never seen);
  * +1,000 rules the engine under a rulebook that extends the shipped one with 1,000 extra
                 damage rules that never apply (each with its own constants);
  * CLI          the wall time of `bridgelaw rule CASE` as a fresh process (median of N runs), its
                 bytecode compiled once beforehand as an installed program's is; interleaved with
                 its floor, a process importing only the dependencies (see FLOOR).

Targets (issue 9): ≥ 10,000 rulings/s; the rulebook with 1,000 extra rules within 1.2× of the
shipped one; `bridgelaw rule` ≤ 0.25 s median.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent

from bridgelaw import rulebook  # noqa: E402
from bridgelaw.ruling.case import load_case  # noqa: E402
from bridgelaw.ruling.build import rule_case  # noqa: E402


# --- the reference: plain Python, nothing from bridgelaw -----------------------------------------

IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
             1750, 2000, 2250, 2500, 3000, 3500, 4000)
CONTRACT = re.compile(r"^([1-7])(C|D|H|S|NT)(XX|X)?(=|[+-]\d+)\s+([NESW])$")
SIGNED = re.compile(r"^(NS|EW)\s*([+-]?\d+)$")


class Unsupported(Exception):
    """A case the reference does not model (polls, artificial scores, unit scores, …)."""


def imps(diff: int) -> int:
    n = sum(1 for step in IMP_STEPS if abs(diff) >= step)
    return n if diff >= 0 else -n


def contract_score(level: int, strain: str, dbl: str, tricks: int, vul: bool) -> int:
    """Law 77: the declaring side's score; `tricks` over (+) or under (−) the contract."""
    mult = {"": 1, "X": 2, "XX": 4}[dbl]
    if tricks < 0:
        down = -tricks
        if not dbl:
            return -(100 if vul else 50) * down
        if vul:
            pts = 200 + 300 * (down - 1)
        else:
            pts = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -pts * (mult // 2)
    per = 20 if strain in "CD" else 30
    trick_score = (per * level + (10 if strain == "NT" else 0)) * mult
    score = trick_score + (50 * (mult // 2))                      # insult: 50 doubled, 100 redoubled
    score += (500 if vul else 300) if trick_score >= 100 else 50
    if level == 6:
        score += 750 if vul else 500
    if level == 7:
        score += 1500 if vul else 1000
    if dbl:
        score += tricks * (200 if vul else 100) * (mult // 2)
    else:
        score += tricks * per
    return score


def parse_result(text: str, vulnerability: str) -> tuple:
    """A result as written in a case file, parsed once (outside the timing): ("NS", points) or a
    contract ("C", level, strain, doubled, over/under, declaring side, vulnerable)."""
    text = str(text).strip()
    m = SIGNED.match(text)
    if m:
        return ("NS", int(m[2]) if m[1] == "NS" else -int(m[2]))
    m = CONTRACT.match(text)
    if not m:
        raise Unsupported(text)
    side = "NS" if m[5] in "NS" else "EW"
    return ("C", int(m[1]), m[2], m[3] or "", 0 if m[4] == "=" else int(m[4]), side,
            vulnerability in ("All", "Both") or vulnerability == side)


def ns_points(result: tuple) -> int:
    if result[0] == "NS":
        return result[1]
    _, level, strain, dbl, tricks, side, vul = result
    score = contract_score(level, strain, dbl, tricks, vul)
    return score if side == "NS" else -score


def prepare(raw: dict) -> dict:
    """The facts of a case file's raw YAML, with results parsed (not timed)."""
    if raw.get("poll") or raw.get("artificial") or raw.get("match") or raw.get("event"):
        raise Unsupported("not an A/B/C case")
    if raw.get("non_offending") not in ("NS", "EW"):
        raise Unsupported("no single non-offending side")
    infraction = raw.get("infraction") or {}
    if str(infraction.get("law", "")).startswith("86"):
        raise Unsupported("Law 86's fouled-board floors (average plus or the assigned score)")
    findings = infraction.get("findings") or {}
    if not all(findings.values()):
        raise Unsupported("the empowering law's findings do not all hold (the table result stands)")
    if not isinstance(raw.get("without_infraction"), (str, list)):
        raise Unsupported("split weighting")
    vul = (raw.get("board") or {}).get("vulnerability", "None")

    def weighted(value) -> list[tuple[Fraction, tuple]]:
        items = value if isinstance(value, list) else [{"result": value}]
        return [(Fraction(str(i.get("weight", 1))) if isinstance(i, dict) else Fraction(1),
                 parse_result(i["result"] if isinstance(i, dict) else i, vul))
                for i in items if not isinstance(i, dict) or i.get("legal", True)]

    if raw["scoring"] != "imps" and "field" not in raw:
        raise Unsupported("pairs without a field")
    instead = (raw.get("serious_error") or {}).get("instead")
    return {"imps": raw["scoring"] == "imps", "sign": 1 if raw["non_offending"] == "NS" else -1,
            "other": parse_result(raw["other_table"], vul) if raw["scoring"] == "imps" else None,
            "field": [parse_result(r, vul) for r in raw.get("field", [])],
            "without": weighted(raw["without_infraction"]),
            "table": parse_result(raw["table_result"], vul) if raw.get("table_result") is not None else None,
            "instead": weighted(instead) if instead is not None else None}


def reference_ruling(f: dict) -> tuple[Fraction, Fraction]:
    """(NOS score, OS score) in IMPs or matchpoints, by the A/B/C method of Law 12C1."""
    sign = f["sign"]
    if f["imps"]:
        other = ns_points(f["other"])

        def score(points: int) -> Fraction:                   # from the NOS's view
            return Fraction(imps(sign * (points - other)))
        complement = lambda x: -x                                 # noqa: E731
    else:
        field = [sign * ns_points(r) for r in f["field"]]
        top = 2 * len(field)

        def score(points: int) -> Fraction:
            mine = sign * points
            return Fraction(sum(2 if mine > x else 1 if mine == x else 0 for x in field))
        complement = lambda x: top - x                            # noqa: E731

    def weighted(parts) -> Fraction:
        kept = sum(w for w, _ in parts)
        return sum((w / kept * score(ns_points(r)) for w, r in parts), Fraction(0))

    b = weighted(f["without"])
    b_ = complement(b)
    if f["table"] is None:
        return b, b_
    a = score(ns_points(f["table"]))
    c = weighted(f["instead"]) if f["instead"] is not None else a
    if b <= a:
        return a, complement(a)                                   # no damage
    if b <= c:
        return a, b_                                              # all self-inflicted
    if c <= a:
        return b, b_                                              # none self-inflicted
    return a + b - c, b_                                          # split


# --- measuring -------------------------------------------------------------------------------------

def one_round(fn, items, seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while True:
        for item in items:
            fn(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


# The CLI's floor: a process that only imports what `bridgelaw rule` depends on and validates one
# pydantic model (which loads pydantic's plugins), as `rule` does for its case and rulebook.
FLOOR = ("import argparse, fractions, json, pydantic, ruamel.yaml, durable_rules_engine\n"
         "class M(pydantic.BaseModel):\n    x: int\nM(x=1)\n")


def interleaved(sides: dict[str, tuple], rounds: int, seconds: float) -> dict[str, float]:
    """Median rate of each side over `rounds` rounds, the sides alternating within each round."""
    rates: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for k in range(rounds):
        for name in (names if k % 2 == 0 else names[::-1]):
            fn, items = sides[name]
            rates[name].append(one_round(fn, items, seconds))
    return {name: statistics.median(r) for name, r in rates.items()}


def cold(item) -> None:
    """A ruling with the rulebook's decision caches emptied first: every stage asks durable_rules
    (the rulesets themselves stay compiled)."""
    case, book = item
    book.forget_decisions()
    rule_case(case, book)


def new_case(item) -> None:
    """A ruling whose exact facts were never seen: the decisions by order pattern stay cached."""
    case, book = item
    book.forget_decisions(patterns=False)
    rule_case(case, book)


def extra_rules_book(tmp: Path, base: str, n: int):
    """A rulebook extending `base` with `n` damage rules that never apply, each with its own constants."""
    for f in rulebook.rules_dir().glob("*.yaml"):
        shutil.copy(f, tmp / f.name)
    lines = [f"rulebook: {base}-plus-{n}", "title: bench — extra rules that never apply",
             "authority: bridgelaw bench", "version: '1'", "effective: {from: 2000-01-01}", f"extends: {base}",
             "rules:"]
    for i in range(n):
        lines += [f"  - id: never-{i}", "    stage: damage",
                  f"    when: {{all: [{{given: A}}, {{lt: [A, {-100000 - i}]}}, {{gt: [B, {100000 + i}]}}]}}",
                  "    outcome: assigned", "    award: {nos: A, os: \"A'\"}",
                  "    explain: never applies", "    cites: [12C1(a)]"]
    path = tmp / f"{base}-plus-{n}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return rulebook.load(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds per comparison (default 15)")
    parser.add_argument("--round-seconds", type=float, default=0.2, help="time per side per round (default 0.2)")
    parser.add_argument("--cli-runs", type=int, default=9, help="CLI processes to time (default 9)")
    parser.add_argument("--extra-rules", type=int, default=1000, help="extra rules for the scaling case (default 1000)")
    args = parser.parse_args()
    load_before = os.getloadavg()

    yaml = YAML(typ="safe")
    timed = []
    for path in sorted((ROOT / "cases").rglob("*.yaml")):
        raw = yaml.load(path.read_text())
        if raw.get("rulebook") not in ("wbf-2007", "wbf-2017"):
            continue
        try:
            facts = prepare(raw)
        except (Unsupported, KeyError):
            continue
        expected = reference_ruling(facts)
        case = load_case(path)
        book = rulebook.get(raw["rulebook"])
        ruling = rule_case(case, book)
        got = (ruling.nos.value, ruling.os.value)
        if got != expected:
            sys.exit(f"{path}: the reference gives {expected}, the engine {got}: fix one before timing")
        timed.append((facts, case, book))
    if not timed:
        sys.exit("no case of the corpus is an A/B/C case the reference models")
    engine_items = [(case, book) for _, case, book in timed]
    reference_items = [raw for raw, _, _ in timed]
    speed = interleaved({"engine": (lambda cb: rule_case(*cb), engine_items),
                         "new case": (new_case, engine_items),
                         "cold": (cold, engine_items),
                         "reference": (reference_ruling, reference_items)}, args.rounds, args.round_seconds)

    with tempfile.TemporaryDirectory(prefix="bridgelaw-bench-") as tmp:
        books = {b.id: extra_rules_book(Path(tmp), b.id, args.extra_rules) for b in {b.id: b for _, _, b in timed}.values()}
        big_items = [(case, books[book.id]) for case, book in engine_items]
        for case, book in big_items:                                 # warm up: compile the big rulesets
            rule_case(case, book)
        scaling = interleaved({"shipped": (lambda cb: rule_case(*cb), engine_items),
                               "plus": (lambda cb: rule_case(*cb), big_items),
                               "shipped new": (new_case, engine_items),
                               "plus new": (new_case, big_items),
                               "shipped cold": (cold, engine_items),
                               "plus cold": (cold, big_items)}, args.rounds, args.round_seconds)

    bridgelaw = Path(sys.executable).with_name("bridgelaw")
    command = [str(bridgelaw)] if bridgelaw.exists() else [sys.executable, "-m", "bridgelaw.commands.cli"]
    sample = str(ROOT / "cases/wbf-commentary-2017/example-07.yaml")
    # as an installed program runs: bytecode compiled once (kept in a temporary folder, not the tree)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times, floor_times = [], []
    with tempfile.TemporaryDirectory(prefix="bridgelaw-pyc-") as pyc:
        env["PYTHONPYCACHEPREFIX"] = pyc
        runs = [("cli", [*command, "rule", sample]), ("floor", [sys.executable, "-c", FLOOR])]
        for _, argv in runs:
            subprocess.run(argv, check=True, capture_output=True, env=env)   # compiles
        for k in range(args.cli_runs):                   # interleaved: a burst of load falls on both
            for name, argv in (runs if k % 2 == 0 else runs[::-1]):
                start = time.perf_counter()
                subprocess.run(argv, check=True, capture_output=True, env=env)
                (times if name == "cli" else floor_times).append(time.perf_counter() - start)
    cli, floor = statistics.median(times), statistics.median(floor_times)
    load_after = os.getloadavg()

    ratio = speed["engine"] / speed["reference"]
    slowdown = scaling["shipped"] / scaling["plus"]
    slowdown_new = scaling["shipped new"] / scaling["plus new"]
    slowdown_cold = scaling["shipped cold"] / scaling["plus cold"]
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min; {os.cpu_count()} cores)")
    print(f"corpus: {len(timed)} A/B/C cases (both editions, teams and pairs, weighted and split), "
          f"{args.rounds} interleaved rounds of {args.round_seconds} s, medians")
    print(f"engine  rule_case:            {speed['engine']:10,.0f} rulings/s  ({1e6 / speed['engine']:7.1f} µs each)")
    print(f"reference (plain Python):     {speed['reference']:10,.0f} rulings/s  ({1e6 / speed['reference']:7.1f} µs each)")
    print(f"engine, new case (facts unseen): {speed['new case']:7,.0f} rulings/s  ({1e6 / speed['new case']:7.1f} µs each)")
    print(f"engine, cold (no cached decisions): {speed['cold']:6,.0f} rulings/s  ({1e6 / speed['cold']:7.1f} µs each)")
    print(f"ratio engine/reference:       {ratio:10.3f}  (new case {speed['new case'] / speed['reference']:.3f}, "
          f"cold {speed['cold'] / speed['reference']:.3f})")
    print(f"shipped rulebook:             {scaling['shipped']:10,.0f} rulings/s  (new case {scaling['shipped new']:,.0f}, "
          f"cold {scaling['shipped cold']:,.0f})")
    print(f"+{args.extra_rules:,} never-applying rules:   {scaling['plus']:10,.0f} rulings/s  "
          f"(slowdown ×{slowdown:.2f}; new case {scaling['plus new']:,.0f}, ×{slowdown_new:.2f}; "
          f"cold {scaling['plus cold']:,.0f}, ×{slowdown_cold:.2f})")
    print(f"CLI `bridgelaw rule`:         {cli:10.3f} s median of {len(times)} (min {min(times):.3f}, max {max(times):.3f})")
    print(f"  its floor, the dependencies alone: {floor:.3f} s median, interleaved (Python, pydantic with one "
          f"model validated, ruamel.yaml, durable_rules); bridgelaw's own share {cli - floor:.3f} s")

    def met(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print(f"targets: ≥ 10,000 rulings/s {met(speed['engine'] >= 10000)} (new case: {met(speed['new case'] >= 10000)}, "
          f"cold: {met(speed['cold'] >= 10000)}); +{args.extra_rules:,} rules within ×1.2 {met(slowdown <= 1.2)} "
          f"(new case: {met(slowdown_new <= 1.2)}, cold: {met(slowdown_cold <= 1.2)}); CLI ≤ 0.25 s {met(cli <= 0.25)}")


if __name__ == "__main__":
    main()
