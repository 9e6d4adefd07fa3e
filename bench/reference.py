"""The benches' plain reference and their generated cases — nothing from bridgelaw.

`reference_ruling(prepare(case))` rules an A/B/C case (Law 12C1: one or several weighted outcomes
without the infraction, a table result, optionally a serious error) with Law 77 scores, the IMP
scale and matchpoints "as if obtained" written directly in Python over Fractions. It shares no code
with bridgelaw; the benches check that it gives the engine's exact scores on every case they time.

`generate(n, seed)` writes `n` distinct case files (as dicts, JSON-able) the way a director's
cases vary: both editions, teams and pairs, all vulnerabilities, one to three weighted outcomes,
some with a serious error, fields of 3 to 30 results.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
             1750, 2000, 2250, 2500, 3000, 3500, 4000)
CONTRACT = re.compile(r"^([1-7])(C|D|H|S|NT)(XX|X)?(=|[+-]\d+)\s+([NESW])$")
SIGNED = re.compile(r"^(NS|EW)\s*([+-]?\d+)$")


class Unsupported(Exception):
    """A case the reference does not model (polls, artificial scores, unit scores, …)."""


# --- the reference (about 60 lines) -----------------------------------------------------------------

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
        pts = 200 + 300 * (down - 1) if vul else 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -pts * (mult // 2)
    per = 20 if strain in "CD" else 30
    trick_score = (per * level + (10 if strain == "NT" else 0)) * mult
    score = trick_score + 50 * (mult // 2) + ((500 if vul else 300) if trick_score >= 100 else 50)
    score += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    return score + (tricks * (200 if vul else 100) * (mult // 2) if dbl else tricks * per)


def parse_result(text: str, vulnerability: str) -> tuple:
    """("NS", points) or a contract ("C", level, strain, doubled, over/under, side, vulnerable)."""
    text = str(text).strip()
    if m := SIGNED.match(text):
        return ("NS", int(m[2]) if m[1] == "NS" else -int(m[2]))
    if not (m := CONTRACT.match(text)):
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


def reference_ruling(f: dict) -> tuple[Fraction, Fraction]:
    """(NOS score, OS score) in IMPs or matchpoints, by the A/B/C method of Law 12C1."""
    sign = f["sign"]
    if f["imps"]:
        other = ns_points(f["other"])
        score = lambda points: Fraction(imps(sign * (points - other)))          # noqa: E731
        complement = lambda x: -x                                                 # noqa: E731
    else:
        field = [sign * ns_points(r) for r in f["field"]]
        top = 2 * len(field)
        score = lambda points: Fraction(sum(2 if sign * points > x else 1 if sign * points == x else 0  # noqa: E731
                                            for x in field))
        complement = lambda x: top - x                                            # noqa: E731

    def weighted(parts) -> Fraction:
        kept = sum(w for w, _ in parts)
        return sum((w / kept * score(ns_points(r)) for w, r in parts), Fraction(0))

    b = weighted(f["without"])
    if f["table"] is None:
        return b, complement(b)
    a = score(ns_points(f["table"]))
    c = weighted(f["instead"]) if f["instead"] is not None else a
    if b <= a:
        return a, complement(a)                                   # no damage
    if b <= c:
        return a, complement(b)                                   # all self-inflicted
    if c <= a:
        return b, complement(b)                                   # none self-inflicted
    return a + b - c, complement(b)                               # split


def prepare(raw: dict) -> dict:
    """The facts of a case file's raw tree, with results parsed (done once, not timed)."""
    if raw.get("poll") or raw.get("artificial") or raw.get("match") or raw.get("event"):
        raise Unsupported("not an A/B/C case")
    if raw.get("non_offending") not in ("NS", "EW"):
        raise Unsupported("no single non-offending side")
    infraction = raw.get("infraction") or {}
    if str(infraction.get("law", "")).startswith("86"):
        raise Unsupported("Law 86's fouled-board floors (average plus or the assigned score)")
    if not all((infraction.get("findings") or {}).values()):
        raise Unsupported("the empowering law's findings do not all hold (the table result stands)")
    if not isinstance(raw.get("without_infraction"), (str, list)):
        raise Unsupported("split weighting")
    vul = (raw.get("board") or {}).get("vulnerability", "None")

    def weighted(value) -> list[tuple[Fraction, tuple]]:
        items = value if isinstance(value, list) else [{"result": value}]
        return [(weight(i.get("weight", 1)) if isinstance(i, dict) else Fraction(1),
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


def weight(text) -> Fraction:
    text = str(text).strip()
    return Fraction(text[:-1]) / 100 if text.endswith("%") else Fraction(text)


# --- generated cases ----------------------------------------------------------------------------------

WEIGHTS = [("1/2", "1/2"), ("2/3", "1/3"), ("60%", "40%"), ("3/4", "1/4"), ("70%", "30%"), ("0.55", "0.45"),
           ("1/3", "1/3", "1/3"), ("50%", "30%", "20%"), ("1/2", "1/4", "1/4"), ("2/5", "2/5", "1/5")]


def _result(rng: random.Random, near: tuple | None = None) -> tuple:
    """(level, strain, doubled, over, declarer): a contract near `near` when given."""
    if near is not None and rng.random() < 0.7:
        level, strain, _, over, declarer = near
        level = min(7, max(1, level + rng.choice((-1, 0, 0, 0, 1))))
        doubled = rng.choice(("", "", "", "", "X", "XX")) if rng.random() < 0.3 else ""
        over = over + rng.choice((-2, -1, 0, 0, 1))
    else:
        level, strain = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 7)), rng.choice(("C", "D", "H", "S", "NT"))
        doubled = rng.choice(("", "", "", "", "", "X", "X", "XX"))
        over = rng.choice((-3, -2, -1, -1, 0, 0, 0, 1, 1, 2))
        declarer = rng.choice("NESW")
    over = max(-(6 + level), min(7 - level, over))
    return level, strain, doubled, over, declarer


def _text(r: tuple) -> str:
    level, strain, doubled, over, declarer = r
    return f"{level}{strain}{doubled}{'=' if over == 0 else f'{over:+d}'} {declarer}"


def generate(n: int, seed: int = 12) -> list[dict]:
    """`n` distinct A/B/C case files (dicts): no two with the same facts."""
    rng, out, seen = random.Random(seed), [], set()
    while len(out) < n:
        par = _result(rng)
        imps_ = rng.random() < 0.5
        case = {"title": f"generated case {len(out) + 1}", "rulebook": rng.choice(("wbf-2007", "wbf-2017")),
                "scoring": "imps" if imps_ else "matchpoints",
                "board": {"number": rng.randint(1, 36), "vulnerability": rng.choice(("None", "NS", "EW", "All"))},
                "non_offending": rng.choice(("NS", "EW")), "table_result": _text(_result(rng, par))}
        if imps_:
            case["other_table"] = _text(_result(rng, par))
        else:
            case["field"] = [_text(_result(rng, par)) for _ in range(rng.randint(3, 30))]
        k = rng.random()
        if k < 0.35:
            case["without_infraction"] = _text(_result(rng, par))
        else:
            weights = rng.choice([w for w in WEIGHTS if (len(w) == 2) == (k < 0.8)])
            case["without_infraction"] = [{"result": _text(_result(rng, par)), "weight": w} for w in weights]
        if rng.random() < 0.3:
            case["serious_error"] = {"kind": rng.choice(("serious-error", "gambling")),
                                     "instead": _text(_result(rng, par))}
        key = repr(sorted((k, repr(v)) for k, v in case.items() if k != "title"))
        if key not in seen:
            seen.add(key)
            out.append(case)
    return out
