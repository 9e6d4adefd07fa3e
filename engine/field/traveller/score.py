"""Scoring a traveller: every table's NS and EW score in the whole field, exactly.

The field of each direction is built from the tables as :mod:`.adjust` left them — a played
result's points, an adjusted table's assigned components for that side (the ruling's), nothing
for an artificial score — and scored by :mod:`bridgelaw.field.fieldscore` with the rulebook's
``fieldscore.*`` parameters. Each adjusted and artificial table also gets its arithmetic as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...core import bridge
from .. import fieldscore
from ...core.errors import BridgelawError
from ...render.ruling import entry_lines    # pending: field steps become trace records (issue 19)
from ...core.exact import format_decimal, format_mixed
from .common import bulk
from .model import SIDES, Printed, Side, TableLine, Traveller

__all__ = ["ScoredSide", "ScoredTable", "ScoredBoard", "score_traveller", "PublishedCheck", "published_checks",
           "entry"]


def entry(line: TableLine, side: Side) -> fieldscore.FieldEntry:
    """The table's entry in `side`'s field: points from that side's view, the side's assigned
    components (points given by the caller's `points`), or None."""
    if line.kind == "result":
        return line.points if side == "NS" else -line.points
    if line.kind == "artificial":
        return None
    return line.parts[side]


@dataclass
class ScoredSide:
    """One side's score at one table, in the field (not a ruling's award: see ruling.SideScore)."""

    value: Fraction | None               # MP or IMPs; None: not scored
    percent: Fraction | None = None      # matchpoints only
    steps: list[str] = field(default_factory=list)


@dataclass
class ScoredTable:
    line: TableLine
    NS: ScoredSide
    EW: ScoredSide

    def side(self, side: Side) -> ScoredSide:
        return self.NS if side == "NS" else self.EW


@dataclass
class ScoredBoard:
    traveller: Traveller
    unit: str                             # "MP" or "IMP"
    tables: list[ScoredTable]
    results: int                          # A: tables with a result (adjusted count once)
    expected: int                         # E
    top: Fraction | None                  # matchpoints
    factored: bool
    parameters: dict[str, tuple[Any, str]]   # name → (value, "rulebook")
    frequencies: dict[Side, list[tuple[int, Fraction]]]
    datum: dict[Side, Fraction | None] = field(default_factory=dict)
    mean: dict[Side, Fraction | None] = field(default_factory=dict)
    dropped: int = 0
    divisor: int | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def balanced(self) -> bool:
        return all(t.line.balanced for t in self.tables)


USED = {
    "matchpoints": ("fieldscore.neuberg.form", "fieldscore.neuberg.round_to", "fieldscore.neuberg.round_mode"),
    "cross-imps": ("fieldscore.cross_imps.divisor",),
    "butler": ("fieldscore.butler.drop", "fieldscore.butler.round_datum_to"),
}


def score_traveller(trav: Traveller, *, explain: bool = True) -> ScoredBoard:
    """Score every table of the traveller in NS and EW, exactly; with `explain`, each adjusted
    and artificial table also gets its arithmetic as text (``steps``)."""
    with bulk():
        return _score_traveller(trav, explain)


def _score_traveller(trav: Traveller, explain: bool) -> ScoredBoard:
    missing = [name for name in USED[trav.scoring] if name not in trav.book.parameters]
    if missing:
        raise BridgelawError(f"rulebook {trav.book.id} does not set {', '.join(missing)}, which {trav.scoring} needs",
                             expected="these parameters in the rulebook (see `bridgelaw explain --rulebook ID`)")
    params = {name: (trav.book.parameters[name], "rulebook") for name in USED[trav.scoring]}
    p = {name: v for name, (v, _) in params.items()}
    entries = {side: [entry(line, side) for line in trav.tables] for side in SIDES}
    points = {"NS": lambda o: bridge.ns_score(o, trav.vulnerability), "EW": lambda o: -bridge.ns_score(o, trav.vulnerability)}
    values: dict[Side, list[Fraction | None]] = {}
    board = ScoredBoard(trav, "MP" if trav.scoring == "matchpoints" else "IMP", [], 0, trav.expected_results,
                        None, False, params, {})
    fields: dict[Side, fieldscore.Field] = {}
    for side in SIDES:
        if trav.scoring == "matchpoints":
            r = fieldscore.matchpoints(entries[side], points=points[side], expected=trav.expected_results,
                                       form=p["fieldscore.neuberg.form"], round_to=p["fieldscore.neuberg.round_to"],
                                       round_mode=p["fieldscore.neuberg.round_mode"])
            values[side], fields[side] = r.values, r.field
            board.top, board.factored, board.results = r.top, r.factored, r.results
        elif trav.scoring == "cross-imps":
            vals, f, by = fieldscore.cross_imps(entries[side], points=points[side], divisor=p["fieldscore.cross_imps.divisor"])
            values[side], fields[side], board.divisor, board.results = vals, f, by, f.results
        else:
            r = fieldscore.butler(entries[side], points=points[side], drop=int(p["fieldscore.butler.drop"]),
                                  round_datum_to=p["fieldscore.butler.round_datum_to"])
            values[side], fields[side], board.results = r.values, r.field, r.field.results
            board.datum[side], board.mean[side], board.dropped = r.datum, r.mean, r.dropped
        board.frequencies[side] = fields[side].frequencies()
    top = board.top
    top_ok = board.unit == "MP" and top is not None and top > 0
    percents: dict[int, Fraction] = {}       # by id: equal plain results share one Fraction object

    def percent(v: Fraction | None) -> Fraction | None:
        if v is None or not top_ok:
            return None
        pc = percents.get(id(v))
        if pc is None:
            pc = percents[id(v)] = 100 * v / top
        return pc

    for k, line in enumerate(trav.tables):
        sides = {}
        for side in SIDES:
            v = values[side][k]
            steps: list[str] = []
            if line.kind == "artificial":
                a = line.artificial[side]
                if a.value is None:
                    v = None
                elif trav.scoring == "matchpoints":
                    v = a.value * top
                else:
                    v = Fraction(a.value)
                if explain:
                    steps = _artificial_steps(a, side, v, top, trav.scoring)
            elif explain and line.kind in ("adjusted", "split"):
                steps = _adjusted_steps(board, fields[side], line, side, v)
            sides[side] = ScoredSide(v, percent(v), steps)
        board.tables.append(ScoredTable(line, sides["NS"], sides["EW"]))
    board.warnings.extend(trav.warnings)
    if board.results == 0:
        board.warnings.append("no table has a result: only artificial scores")
    return board


def _artificial_steps(a: Any, side: Side, v: Fraction | None, top: Fraction | None, scoring: str) -> list[str]:
    steps = [f"{side}: {a.label} (rule {a.rule})"]
    steps += [f"  {s}" for s in entry_lines(a.entries, a.book)]
    if v is None:
        steps.append(f"  {side}: board not scored")
    elif scoring == "matchpoints":
        steps.append(f"  {side} = {format_mixed(a.value)} × top {format_mixed(top)} = {format_mixed(v)} MP")
    return steps


def _adjusted_steps(board: ScoredBoard, f: fieldscore.Field, line: TableLine, side: Side, v: Fraction | None) -> list[str]:
    trav = board.traveller
    entry = line.parts[side]
    pairs = [(f.points(c.outcome), c.weight) for c in entry]
    unit = board.unit
    weighting = "the weighting" if line.balanced else "its own weighting"
    steps = [f"{side} ({weighting}, rule {line.expectation.get(side, '?')}):"]
    for p in line.excluded.get(side, []):
        steps.append(f"  excluded, not achievable in a legal manner: {p.outcome.text} (weight {format_mixed(p.weight)})")
    if trav.scoring == "matchpoints":
        each = fieldscore.matchpoints_as_if(f, entry)
        how = "as if obtained against the other tables"
    elif trav.scoring == "cross-imps":
        each = [x / board.divisor for x in fieldscore.cross_imps_as_if(f, entry)]
        how = "IMPs against every other table" + (f", ÷ {board.divisor}" if board.divisor != 1 else "")
    else:
        datum = board.datum[side]
        each = [Fraction(bridge.imps(pts - datum)) for pts, _ in pairs]
        how = f"IMP(score − datum {format_mixed(datum)})"
    total = Fraction(0)
    for p, (pts, w), x in zip(entry, pairs, each):
        label = p.outcome.text if isinstance(p.outcome, bridge.Score) and side == "NS" else f"{p.outcome.text} ({side} {pts:+d})"
        steps.append(f"  {format_mixed(w)} × {label}: {format_mixed(x, signed=unit == 'IMP')} {unit}")
        total += w * x
    terms = " + ".join(f"{format_mixed(w)} × {_paren(x)}" for (_, w), x in zip(pairs, each))
    steps.append(f"  {side} = {terms} = {format_mixed(total, signed=unit == 'IMP')} {unit} ({how})")
    if board.factored and v is not None and v != total:
        r, e = board.results, board.expected
        steps.append(f"  factored (Neuberg): ({format_mixed(total)} + 1) × {e} / {r} − 1"
                     + (f", rounded to {format_mixed(board.parameters['fieldscore.neuberg.round_to'][0])}"
                        if board.parameters["fieldscore.neuberg.round_to"][0] else "")
                     + f" = {format_mixed(v)} MP")
    return steps


def _paren(x: Fraction) -> str:
    text = format_mixed(x)
    return f"({text})" if x < 0 else text


# --- published figures -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PublishedCheck:
    table: int
    side: Side
    published: Printed
    computed: Fraction | None
    agrees: bool
    why: str | None


def published_checks(board: ScoredBoard) -> list[PublishedCheck]:
    """Each published figure against the computed score, rounded as the source printed it
    (12.1 is checked to one decimal, 8 1/2 exactly)."""
    checks = []
    for t in board.tables:
        for side, pub in t.line.published.items():
            value = t.side(side).value
            if value is None:
                agrees = False
            elif "/" in pub.text:
                agrees = value == pub.value
            else:
                agrees = Fraction(format_decimal(value, pub.places)) == pub.value
            checks.append(PublishedCheck(t.line.table, side, pub, value, agrees, t.line.published_why))
    return checks
