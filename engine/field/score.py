"""Scoring a session of the field model — a whole results file's session, or a traveller (a session
of one board): every board through :mod:`.fieldscore`, every adjusted, artificial or penalised line
through the case ruling path (:mod:`.adjust`), and the contestants' totals and ranks.

One routine for every method: :data:`PARAMETERS` says which rulebook parameters each method reads;
the session's trace records each read (value, layer, cites) as a case's trace does. Each line a
ruling changed keeps a trace: its ruling's entries, then what the field did with it (each outcome
scored in the field, factoring, the share of the top, a penalty) — values, never text.

* Each board is one field: every line with a result (or a weighted/split adjusted score) is
  compared with every other; an artificial line is left out of the field but counts among the
  results expected, so the others are factored up (``fieldscore.neuberg.*``); a line not played
  counts nowhere.
* A contestant's session score for an artificial line is its score on the *other* boards of the
  session that have a result — at pairs its share of the matchpoints available there, at IMPs its
  IMPs per board — given to the artificial stage, which decides (per edition) who gets it; each
  contestant's boards with an artificial score by responsibility are counted across the session in
  board order (the stage's ``boards`` fact).
* Cross-IMPs: an artificial score in IMPs enters the total ``flat`` or once ``per-comparison``
  (scaled by comparisons ÷ divisor), as ``fieldscore.cross_imps.artificial`` says.
* Totals: a board with a smaller top enters a matchpoint total as scored or factored up to the
  session's largest top by Neuberg's formula (``fieldscore.totals.factor_to_top``); a contestant who
  played fewer boards keeps its total or has it multiplied by the session's boards over its own
  (``fieldscore.totals.factor_boards``). Each factoring is kept in the standing's ``factored``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, NamedTuple

from ..core import bridge
from ..core.exact import format_mixed, fraction_parts, ratio, total as exact_total
from ..core.errors import BridgelawError
from ..core.vocab import SIDES, TEAM_METHODS, Side, unit_scoring
from ..rulebook import Rulebook
from ..ruling.result import Ruling
from ..ruling.trace import Entry, Trace
from . import fieldscore, teams
from . import penalties, reuse
from .adjust import Ruler, artificial_ruling, at
from .penalties import IMP_BOUND, Borne
from .cells import Published, imp_words
from .model import Board, Contestant, Line, Session, contestant_key, rank, side_keys

TOTALS_TOP = "fieldscore.totals.factor_to_top"
TOTALS_BOARDS = "fieldscore.totals.factor_boards"
CROSS_ARTIFICIAL = "fieldscore.cross_imps.artificial"
CROSS_SCALE = "fieldscore.cross_imps.artificial_scale"
CROSS_TOTALS = "fieldscore.cross_imps.totals"
TOTALS_BYES = "fieldscore.totals.byes"

# The one table of the rulebook parameters each method reads.
# What a board's field reads, by method (the memo of a board's field is keyed by their values) …
FIELD_PARAMETERS: dict[str, tuple[str, ...]] = {
    "matchpoints": ("fieldscore.neuberg.form", "fieldscore.neuberg.round_to", "fieldscore.neuberg.round_mode"),
    "cross-imps": ("fieldscore.cross_imps.divisor",),
    "butler": ("fieldscore.butler.drop", "fieldscore.butler.round_datum_to", "fieldscore.butler.round_half"),
}
PARAMETERS: dict[str, tuple[str, ...]] = {                 # … and what the whole session's scoring reads
    "matchpoints": (*FIELD_PARAMETERS["matchpoints"], "fieldscore.neuberg.expected", TOTALS_TOP, TOTALS_BOARDS,
                    TOTALS_BYES),
    "cross-imps": (*FIELD_PARAMETERS["cross-imps"], CROSS_TOTALS, TOTALS_BOARDS, TOTALS_BYES),
    "butler": (*FIELD_PARAMETERS["butler"], TOTALS_BOARDS, TOTALS_BYES),
    # teams (field/teams.py): a board compared between the match's two rooms; the VP scale is read
    # when the matches are scored in VPs, the cross-IMP divisor when the file publishes pairwise figures
    **{method: () for method in TEAM_METHODS},
}
UNITS = {"matchpoints": "MP", "cross-imps": "IMP", "butler": "IMP",
         "team-imps": "IMP", "point-a-board": "MP", "aggregate": "point"}


@dataclass
class SideScore:
    value: Fraction | None
    percent: Fraction | None = None


@dataclass
class ScoredLine:
    line: Line
    NS: SideScore
    EW: SideScore
    trace: Trace | None = None                  # the line's ruling(s) and what the field did: None for a plain result
    awarded: dict[str, Any] | None = None       # artificial values awarded (share of top or IMPs)
    contestants: dict[str, Fraction | None] = field(default_factory=dict)   # each contestant's score on the line
    own: dict[str, Fraction | None] = field(default_factory=dict)   # individual: a player's own artificial score
    rulings: list[Ruling] = field(default_factory=list)             # the line's rulings (an individual's: one a pairing)
    penalties: list[Borne] = field(default_factory=list)            # the procedural penalties its rulings give
    unfactored: dict[str, Fraction] = field(default_factory=dict)   # each side's matchpoints before factoring

    def side(self, side: str) -> SideScore:
        return self.NS if side == "NS" else self.EW

    @property
    def entries(self) -> list[Entry]:
        return self.trace.entries if self.trace is not None else []

    @property
    def citations(self) -> list[str]:
        return self.trace.citations() if self.trace is not None else []

    @property
    def rules(self) -> list:
        """The rules the line's trace chose, in order."""
        return self.trace.rules() if self.trace is not None else []


@dataclass
class Check:
    """A published figure against the computed one, at its printed precision."""

    line: Line | None
    key: str                      # NS, EW, NS%, EW% (a line); total, percent (a standing)
    what: str
    published: Published
    computed: Fraction | None
    agrees: bool

    @property
    def side(self) -> str:
        return self.key[:2]

    @property
    def table(self) -> int | None:
        return self.line.table if self.line is not None else None

    @property
    def why(self) -> str | None:
        return self.line.published_why if self.line is not None else None

    @property
    def where(self) -> Any:
        return self.line.where if self.line is not None else None


@dataclass
class ScoredBoard:
    board: Board
    lines: list[ScoredLine]
    method: str
    unit: str                               # MP or IMP
    top: Fraction | None
    results: int                            # A: lines with a result (adjusted count once)
    expected: int                           # E
    factored: bool
    divisor: int | None = None
    datum: dict[Side, Fraction | None] = field(default_factory=dict)
    mean: dict[Side, Fraction | None] = field(default_factory=dict)
    dropped: int = 0
    frequencies: dict[Side, list[tuple[int, Fraction]]] = field(default_factory=dict)
    session: "ScoredSession | None" = field(default=None, repr=False)
    traveller: Any = field(default=None, repr=False)    # the traveller it was scored as (bridgelaw score)
    factor: Any = field(default=None, repr=False)       # matchpoints within the results → factored (fieldscore)

    @property
    def balanced(self) -> bool:
        """Every line's two sides scored from the same outcomes (the EW field mirrors the NS field)."""
        return all(sl.line.balanced for sl in self.lines)

    def checks(self, figures: str = "decimal") -> list[Check]:
        """Each published cell of the board's lines against the computed figure."""
        out = []
        for sl in self.lines:
            line = sl.line
            if not line.published:
                continue
            label = line.label                      # once a line, not once a cell
            for key, pub in line.published.items():
                s = sl.side(key[:2])
                value = s.percent if key.endswith("%") else s.value
                out.append(Check(line, key, f"{label} {key}", pub, value, pub.agrees(value, figures)))
        return out


@dataclass
class Standing:
    key: str
    contestant: Contestant | None
    section: str
    direction: str | None
    total: Fraction = Fraction(0)
    available: Fraction = Fraction(0)      # sum of the tops of the boards scored (matchpoints)
    boards: int = 0
    rank: int = 0
    rank_text: str = ""
    adjusted: list[str] = field(default_factory=list)
    factored: list[Entry] = field(default_factory=list)   # how the total was factored (fieldscore.totals.*)
    group: tuple = ()                      # the contestants it is ranked with (Session.ranking)
    tied: int = 1                          # contestants sharing its rank (itself included)
    comparisons: int = 0                   # cross-IMPs: the comparisons its boards' figures were made over

    @property
    def percent(self) -> Fraction | None:
        """100 × total ÷ available (None without a top): worked out once a total and available (ranking
        and the checks ask for it often)."""
        total, available = self.total, self.available
        known = self.__dict__.get("_percent")
        if known is not None and known[0] is total and known[1] is available:
            return known[2]
        if not available:
            value = None
        else:
            tn, td = fraction_parts(total) if type(total) is Fraction else (total, 1)
            an, ad = fraction_parts(available) if type(available) is Fraction else (available, 1)
            value = ratio(100 * tn * ad, td * an)
        self.__dict__["_percent"] = (total, available, value)
        return value


@dataclass
class ScoredSession:
    session: Session
    book: Rulebook
    unit: str
    boards: dict[int | None, ScoredBoard]
    trace: Trace                            # the parameters the method read (value, layer, cites)
    warnings: list[str] = field(default_factory=list)
    keys: dict = field(default_factory=dict, repr=False)     # (id of a scored line, side) → its contestants
    teams: Any = None                       # a teams session: its matches and standings (teams.TeamsResult)
    conventions: Any = None                 # the scoring program's profile chosen (profiles.Choice), if any
    learning: Any = None                    # the conventions learnt from the file (learn.Learning), if learnt
    default: Any = None                     # the rulebook taken by default (defaults.Default), if none was named

    @cached_property
    def standings(self) -> list[Standing]:
        """Each contestant's total, percentage and rank (worked out when first asked for: a
        traveller's report does not show them); a teams session's teams by their match scores."""
        if self.teams is not None:
            return self.teams.standings
        return _standings(self.session, self.boards, self.keys, self.parameters)

    @property
    def contestant_count(self) -> int:
        """How many standings there are, without working them out when they are not yet (the
        session's contestants and those of its lines)."""
        if "standings" in self.__dict__ or self.teams is not None:
            return len(self.standings)
        seen = set(self.session.contestants)
        for ks in self.keys.values():
            seen.update(ks)
        return len(seen)

    @property
    def parameters(self) -> dict[str, Any]:
        return {name: e.data["value"] for name, e in self.trace.parameters().items()}

    def checks(self) -> list[Check]:
        """Every published cell against the computed figure at its printed precision: each line's
        points and percentages, each contestant's total, percentage, place and boards played. Worked
        out once for the way the file prints (``session.figures``) and the ranking (a new ranking is a
        new standings list): learning asks three or four times."""
        figures = self.session.figures
        # the standings only when a contestant has a published figure to check (else none is checked)
        published = self.teams is not None or any(c.published for c in self.session.contestants.values())
        standings = self.standings if published else ()
        known = self.__dict__.get("_checks")          # (figures, standings, checks): the list itself kept
        if known is not None and known[0] == figures and known[1] is standings:
            return list(known[2])
        out = [c for sb in self.boards.values() for c in sb.checks(figures)]
        for st in standings:
            c = st.contestant
            if c is None:
                continue
            for key, pub in c.published.items():
                value = {"total": st.total, "percent": st.percent, "place": Fraction(st.rank),
                         "boards": Fraction(st.boards)}[key]
                agrees = pub.agrees(value, figures)
                if key == "place" and not agrees and st.tied > 1:
                    # a tie the program broke (Magic Contest's Tiebreak column): a place inside it agrees
                    agrees = pub.value.denominator == 1 and st.rank <= pub.value < st.rank + st.tied
                out.append(Check(None, key, f"{st.key} {key}", pub, value, agrees))
        if self.teams is not None:
            out.extend(Check(line, name, what, pub, value, pub.agrees(value, figures))
                       for line, name, what, pub, value in self.teams.figures())
        self.__dict__["_checks"] = (figures, standings, out)
        return list(out)


def _params(book: Rulebook, method: str, needs_cross: bool, trace: Trace) -> dict[str, Any]:
    names = list(PARAMETERS[method]) + ([CROSS_ARTIFICIAL, CROSS_SCALE] if needs_cross else [])
    missing = [n for n in names if n not in book.parameters]
    if missing:
        raise BridgelawError(f"rulebook {book.id} does not set {', '.join(missing)}, which {method} needs",
                             expected="these parameters in the rulebook, or --set NAME=VALUE")
    return {n: trace.parameter(n) for n in names}


def _entry(line: Line, side: str):
    if line.kind == "result":
        return line.points if side == "NS" else -line.points
    if line.kind in ("adjusted", "split"):
        return line.parts[side]                 # case.Component list; fieldscore turns outcomes into points
    return None


def _points(vulnerability: str | None) -> dict[str, Any]:
    """Each direction's points for an outcome of a weighted line (once per distinct outcome)."""
    vul = vulnerability or "None"
    cache: dict[Any, int] = {}

    def ns(outcome: Any) -> int:
        v = cache.get(outcome)
        if v is None:
            v = cache[outcome] = bridge.ns_score(outcome, vul)
        return v

    return {"NS": ns, "EW": lambda outcome: -ns(outcome)}


def _line_trace(sl: ScoredLine, book: Rulebook) -> Trace:
    if sl.trace is None:
        sl.trace = Trace(book)
    return sl.trace


def rule_adjusted(session: Session, book: Rulebook, board: Board) -> None:
    """Rule each adjusted line of `board` that has no ruling yet (read from a file's Adjustment cell)."""
    todo = [line for line in board.lines if line.kind in ("adjusted", "split") and line.ruled is None]
    if not todo:
        return
    ruler = Ruler(book, session.scoring, board, book.as_of, session.warnings, at(todo[0].where))
    for line in todo:
        ruler.error = at(line.where)
        ruler.rule(line, [], session.individual)


def score_session(session: Session, book: Rulebook, progress: Any = None) -> ScoredSession:
    """Score every board of `session` and total it, under `book` (as in force on the session's day).
    `progress(done, total)` is called once a board (the CLI's progress bar)."""
    method = session.scoring
    unit = UNITS[method]
    trace = Trace(book)
    needs_cross = method == "cross-imps" and any(l.kind == "artificial" for b in session.boards.values() for l in b.lines)
    p = _params(book, method, needs_cross, trace)
    boards: dict[int | None, ScoredBoard] = {}
    # E, the results a board is factored up to: as the file says, its own lines, or the session's most
    most = max((sum(1 for l in b.lines if l.kind != "not-played") for b in session.boards.values()), default=0)
    session_wide = method == "matchpoints" and p["fieldscore.neuberg.expected"] == "session"
    # pass 1: every board's field
    for done, (number, board) in enumerate(session.boards.items(), 1):
        if progress is not None:
            progress(done, len(session.boards))
        rule_adjusted(session, book, board)
        boards[number] = _score_board(board, method, unit, p, most if session_wide else None, book)
    scored = ScoredSession(session, book, unit, boards, trace, session.warnings)
    for sb in boards.values():
        sb.session = scored
    keys: dict[tuple[int, str], list[str]] = {}
    known: dict[tuple, list[str]] = {}      # a pair's keys made once a session (read only, shared)
    for sb in boards.values():
        for sl in sb.lines:
            line = sl.line
            plain = line.team is None and line.players is None
            for side in SIDES:
                if plain:
                    at = (line.section, side, line.ns if side == "NS" else line.ew)
                    ks = known.get(at)
                    if ks is None:
                        ks = known[at] = side_keys(line, side, session)
                else:
                    ks = side_keys(line, side, session)
                keys[(id(sl), side)] = ks
    _artificial(session, book, boards, keys, method, p)
    _rule_penalties(session, book, boards, method)
    if session.matches:                     # a teams session: each match scored (field/teams.py)
        scored.teams = teams.score_matches(session, book, boards, trace, lambda b: _points(b.vulnerability)["NS"])
    for sb in boards.values():              # side penalties off the board's scores (a match's: teams above)
        for sl in sb.lines:
            if sl.penalties:
                penalties.apply_sides(sl, sb, _line_trace(sl, book), unit)
    # a file counting 1 per result beaten (PBN MP2): the same scores in half matchpoints
    if method == "matchpoints" and session.mp_unit != 1:
        trace.add("half-matchpoints", unit=session.mp_unit)
        for sb in boards.values():
            sb.top = sb.top * session.mp_unit
            for sl in sb.lines:
                for side in SIDES:
                    if sl.side(side).value is not None:
                        sl.side(side).value *= session.mp_unit
                sl.own = {k: (v * session.mp_unit if v is not None else None) for k, v in sl.own.items()}
            _percents(sb)
    _contestants(boards, keys, book, unit, session.mp_unit)
    scored.keys = keys
    if p.get(TOTALS_BYES) == "average":
        _byes_at_average(boards, keys)
    return scored


def _byes(sl: "ScoredLine", keys: dict) -> list[tuple[str, str]]:
    """(side, contestant) sitting out a Bye row."""
    if sl.line.kind != "not-played" or (sl.line.code or "").lower() != "bye":
        return []
    return [(side, key) for side in SIDES for key in keys.get((id(sl), side), ())]


def _byes_at_average(boards: dict[int | None, ScoredBoard], keys: dict) -> None:
    """A Bye row shows its contestant's average on the boards it played (fieldscore.totals.byes:
    average); its total counts it in _standings."""
    sums: dict[str, list] = {}
    for sb in boards.values():
        for sl in sb.lines:
            for key, v in sl.contestants.items():
                if v is not None:
                    acc = sums.setdefault(key, [Fraction(0), 0])
                    acc[0] += v
                    acc[1] += 1
    for sb in boards.values():
        for sl in sb.lines:
            for side, key in _byes(sl, keys):
                if key in sums and sums[key][1]:
                    sl.side(side).value = sums[key][0] / sums[key][1]
                    if sb.unit == "MP" and sb.top:
                        sl.side(side).percent = 100 * sl.side(side).value / sb.top


def _score_board(board: Board, method: str, unit: str, p: dict[str, Any], session_most: int | None,
                 book: Rulebook) -> ScoredBoard:
    lines = board.lines
    scored = [ScoredLine(l, SideScore(None), SideScore(None)) for l in lines]
    if method in TEAM_METHODS:              # each line against the other room of its match
        return _score_teams_board(board, scored, method, unit, book)
    played = [k for k, l in enumerate(lines) if l.kind != "not-played"]
    entries = {s: [_entry(lines[k], s) for k in played] for s in SIDES}
    expected = board.expected or session_most or len(played)
    sb = ScoredBoard(board, scored, method, unit, None, 0, expected, False)
    points = _points(board.vulnerability)
    fields: dict[Side, fieldscore.Field] = {}
    # a board of plain results: its field is a function of their points (kept within a replay: the
    # second run of a file takes the first's for every board the proposal leaves as it was)
    plain = all(lines[k].kind == "result" for k in played)
    for side in SIDES:
        make = lambda side=side: _side_field(entries[side], points[side], method, p, expected)   # noqa: E731
        if plain:
            r = reuse.memo(("field", side, method, board.vulnerability, expected, tuple(entries[side]),
                            *(p[n] for n in FIELD_PARAMETERS[method])), make)
        else:
            r = make()
        values, fields[side], sb.frequencies[side] = r.values, r.field, r.frequencies
        if method == "matchpoints":
            sb.top, sb.results, sb.factored, sb.factor = r.top, r.results, r.factored, r.factor
            if r.factored:
                for k, m in zip(played, r.raw):
                    if m is not None:
                        scored[k].unfactored[side] = m
        elif method == "cross-imps":
            sb.divisor, sb.results = r.divisor, r.field.results
        else:
            sb.results = r.field.results
            sb.datum[side], sb.mean[side], sb.dropped = r.datum, r.mean, r.dropped
        for k, v in zip(played, values):
            scored[k].side(side).value = v
    if sb.expected < sb.results:
        sb.expected = sb.results
    for sl in scored:
        if sl.line.kind in ("adjusted", "split"):
            _in_field(sl, sb, fields, book, p)
    _percents(sb)
    return sb


class _SideField(NamedTuple):
    """One direction's field of a board as fieldscore scored it (never changed afterwards: a replay's
    two runs may share it)."""

    values: list[Fraction | None]
    field: fieldscore.Field
    frequencies: list[tuple[int, Fraction]]
    top: Fraction | None = None               # matchpoints
    results: int = 0
    factored: bool = False
    factor: Any = None
    raw: list[Fraction | None] | None = None
    divisor: int | None = None                # cross-IMPs
    datum: Fraction | None = None             # Butler
    mean: Fraction | None = None
    dropped: int = 0


def _side_field(entries: list, points: Any, method: str, p: dict[str, Any], expected: int) -> _SideField:
    if method == "matchpoints":
        r = fieldscore.matchpoints(entries, points=points, expected=expected, form=p["fieldscore.neuberg.form"],
                                   round_to=p["fieldscore.neuberg.round_to"], round_mode=p["fieldscore.neuberg.round_mode"])
        return _SideField(r.values, r.field, r.field.frequencies(), r.top, r.results, r.factored, r.factor, r.raw)
    if method == "cross-imps":
        values, f, divisor = fieldscore.cross_imps(entries, points=points, divisor=p["fieldscore.cross_imps.divisor"])
        return _SideField(values, f, f.frequencies(), divisor=divisor)
    r = fieldscore.butler(entries, points=points, drop=int(p["fieldscore.butler.drop"]),
                          round_datum_to=p["fieldscore.butler.round_datum_to"], round_half=p["fieldscore.butler.round_half"])
    return _SideField(r.values, r.field, r.field.frequencies(), datum=r.datum, mean=r.mean, dropped=r.dropped)


def _score_teams_board(board: Board, scored: list[ScoredLine], method: str, unit: str, book: Rulebook) -> ScoredBoard:
    ns_points = _points(board.vulnerability)["NS"]
    compared, adjusted = teams.score_board(board, scored, method, ns_points)
    sb = ScoredBoard(board, scored, method, unit, teams.TOP.get(method), compared, compared, False)
    for sl, how, other_room in adjusted:
        teams.in_match(sl, how, other_room, method, book)
    sb.frequencies = teams.frequencies(scored, ns_points)
    _percents(sb)
    return sb


def _in_field(sl: ScoredLine, sb: ScoredBoard, fields: dict[Side, fieldscore.Field], book: Rulebook,
              p: dict[str, Any]) -> None:
    """An adjusted line's trace: its ruling, then each side's outcomes scored in the field — its score
    is what the ruling assigns, scored so (``Ruling.scored``: each result's score in the field, weighted,
    rounded as the ruling says), then factored as the board is."""
    line = sl.line
    ruling = line.ruled
    t = _line_trace(sl, book)
    t.entries.extend(ruling.trace.entries)
    sl.rulings.append(ruling)
    vulnerability = sb.board.vulnerability or "None"
    for side in SIDES:
        f = fields[side]
        comps = line.parts[side]
        if sb.method == "matchpoints":
            each = fieldscore.matchpoints_as_if(f, comps)
        elif sb.method == "cross-imps":
            each = [x / sb.divisor for x in fieldscore.cross_imps_as_if(f, comps)]
        else:
            each = [Fraction(bridge.imps(f.points(c.outcome) - sb.datum[side])) for c in comps]
        terms = [(c, f.points(c.outcome), x) for c, x in zip(comps, each)]
        by_points = {pts: x for _, pts, x in terms}
        sign = 1 if side == "NS" else -1
        total = ruling.scored(side, lambda o: by_points[sign * bridge.ns_score(o, vulnerability)])
        if total is None:           # an award that is no weighted sum of results: its outcomes, weighted
            total = sum((c.weight * x for c, x in zip(comps, each)), Fraction(0))
        t.add("in-field", side=side, method=sb.method, unit=sb.unit, terms=terms, total=total,
              rule=line.expectation_rule(side).id, balanced=line.balanced, divisor=sb.divisor, datum=sb.datum.get(side))
        s = sl.side(side)
        if sb.factored:
            sl.unfactored[side] = total
            s.value = sb.factor(total)
            if s.value != total:
                t.add("factored", side=side, before=total, after=s.value, results=sb.results, expected=sb.expected,
                      step=p.get("fieldscore.neuberg.round_to"), mode=p.get("fieldscore.neuberg.round_mode"),
                      form=p.get("fieldscore.neuberg.form"))
        else:
            s.value = total


def _percents(sb: ScoredBoard) -> None:
    top_ok = sb.unit == "MP" and sb.top is not None and sb.top > 0
    if not top_ok:
        return
    cache: dict[int, Fraction] = {}          # by id: equal plain results share one Fraction object
    tn, td = sb.top.numerator, sb.top.denominator
    for sl in sb.lines:
        for s in (sl.NS, sl.EW):
            v = s.value
            if v is not None:
                pc = cache.get(id(v))
                if pc is None:              # 100 × v ÷ top, made as one Fraction
                    vn, vd = fraction_parts(v)
                    pc = cache[id(v)] = ratio(100 * vn * td, vd * tn)
                s.percent = pc


def _artificial(session: Session, book: Rulebook, boards: dict[int | None, ScoredBoard], keys: dict,
                method: str, p: dict[str, Any]) -> None:
    """Pass 2: each artificial line ruled with its contestants' session facts (their scores on the
    session's other boards with a result; their artificial boards so far), or as the file gives it."""
    scoring = unit_scoring(method)
    have: dict[str, list[tuple[Any, Fraction, Fraction | None]]] = {}
    artificial = [(number, sl) for number, sb in boards.items() for sl in sb.lines if sl.line.kind == "artificial"]
    if not artificial:
        return                              # nothing to rule: no session facts to gather
    # the session facts are gathered for the contestants of an artificial line only
    needed = {key for _, sl in artificial for side in SIDES for key in keys[(id(sl), side)]}
    with_artificial = {number for number, _ in artificial}
    for number, sb in boards.items():
        # cross-IMPs: a board's score in IMPs per comparison (the divisor undone), so that a
        # contestant's session IMPs are on the scale its artificial IMPs are given on (the session
        # score an artificial score may take is not multiplied by the comparisons twice)
        per = Fraction(sb.divisor or 1, max(sb.results - 1, 1)) if method == "cross-imps" else 1
        for sl in sb.lines:
            if sl.line.kind in ("result", "adjusted", "split"):
                for side in SIDES:
                    ks = keys[(id(sl), side)]
                    if needed.isdisjoint(ks):
                        continue
                    value = sl.side(side).value
                    if value is not None:
                        if per != 1:
                            value = value * per
                        for key in ks:
                            if key in needed:
                                have.setdefault(key, []).append((number, value, sb.top))
    counts: dict[str, int] = {}
    event = "individual" if session.individual else "teams" if session.matches else "pairs"
    for number, sb in sorted(boards.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        if number not in with_artificial:
            continue                        # its scores (and percentages) as pass 1 left them
        for sl in sb.lines:
            line = sl.line
            if line.kind != "artificial":
                continue
            t = _line_trace(sl, book)
            t.entries.extend(line.reading)          # how its outcome words were read (the artificial stage's rules)
            if line.mirrored:
                t.add("mirrored", side=line.mirrored, code=line.code)
            words = {s: v for s, v in line.artificial.items() if isinstance(v, str)}
            if method != "matchpoints" and line.code and len(words) < 2:
                # a file's percentage code on an IMP line (Compscore's A5050 at butler): the average
                # plus, average or minus it stands for, in the rulebook's IMPs (never the share as IMPs)
                words = imp_words(line.artificial, line.code, line.extra.get("code_where", line.where))
                t.add("code-at-imps", code=line.code, words=dict(words))
            if words and len(words) != 2:
                raise line.where.error(f"{line.label}: one side has an artificial score by responsibility and the other "
                                       "an explicit percentage", expected="both sides the same kind")
            awarded: dict[str, Any] = {}
            own: dict[str, Any] = {}
            if words:
                # per contestant: at pairs one pairing (NS pair, EW pair); at an individual two (North
                # with East, South with West), each player with its own facts
                ns_keys, ew_keys = keys[(id(sl), "NS")], keys[(id(sl), "EW")]
                width = max(len(ns_keys), len(ew_keys), 1)
                pairings = [{"NS": ns_keys[k] if k < len(ns_keys) else None,
                             "EW": ew_keys[k] if k < len(ew_keys) else None} for k in range(width)]
                for k, pairing in enumerate(pairings):
                    session_facts: dict[Side, Fraction] = {}
                    board_facts: dict[Side, int] = {}
                    for side in SIDES:
                        given = line.given.get(side, {})
                        key = pairing[side]
                        if "session" in given:
                            session_facts[side] = given["session"]
                        elif key is not None:
                            other = [(v, top) for n, v, top in have.get(key, []) if n != number]
                            if other:
                                if scoring == "matchpoints":
                                    tops = sum((top for _, top in other if top), Fraction(0))
                                    if tops:
                                        session_facts[side] = sum((v for v, _ in other), Fraction(0)) / tops
                                else:
                                    session_facts[side] = sum((v for v, _ in other), Fraction(0)) / len(other)
                        if key is not None:
                            counts[key] = counts.get(key, 0) + 1
                        if "boards" in given:
                            board_facts[side] = given["boards"]
                        elif key is not None:
                            board_facts[side] = counts[key]
                    try:
                        ruling = artificial_ruling(book, method=method, board=sb.board, responsibility=words,
                                                   session=session_facts, boards=board_facts, top=sb.top,
                                                   event=event, title=line.label)
                    except BridgelawError as exc:
                        if exc.file is not None:
                            raise
                        raise line.where.error(f"{line.label}: {exc.message}", expected=exc.expected,
                                               suggestion=exc.suggestion) from None
                    shares = _shares(ruling)
                    sl.rulings.append(ruling)
                    for side in SIDES:
                        if pairing[side] is not None:
                            own[pairing[side]] = shares[side]
                    if k == 0:
                        t.entries.extend(ruling.trace.entries)
                        awarded = shares
                    else:
                        for side in SIDES:
                            key = pairing[side]
                            if key is not None and shares[side] != awarded[side]:
                                label = ruling.scores[side].label
                                rule = next(r.data["decision"].rule for r in ruling.trace.entries
                                            if r.kind == "decision" and r.data.get("side") == side
                                            and r.data["decision"].stage == "artificial")
                                t.add("own-facts", side=side, contestant=key.split(":")[-1], label=label, rule=rule)
            else:
                for side in SIDES:
                    _check_amount(line, line.artificial[side], method, "an artificial score")
                for pid, share in line.extra.get("own_given", {}).items():     # an individual's, as the file gives it
                    own[contestant_key(line.section, None, pid, "unique")] = share
                for side in SIDES:
                    awarded[side] = line.artificial[side]
                    t.add("as-given", side=side, value=line.artificial[side], scoring=scoring, code=line.code)
            sl.awarded = awarded
            for side in SIDES:
                for key in keys[(id(sl), side)]:
                    if key in own and own[key] != awarded[side]:
                        sl.own[key] = _value(own[key], method, sb, p)
            if words and line.players is not None:
                line.extra["own_awarded"] = {k.split(":")[-1]: own[k] for k in sl.own}
            for side in SIDES:
                a = awarded[side]
                s = sl.side(side)
                if a is None:
                    s.value = None
                elif scoring == "matchpoints":
                    s.value = a * sb.top
                    if not words:
                        t.add("share", side=side, share=a, top=sb.top, value=s.value, unit="MP")
                elif method == "cross-imps" and p.get(CROSS_ARTIFICIAL) == "per-comparison":
                    comparisons = max(sb.results, 1)
                    scale = p.get(CROSS_SCALE, 1)
                    s.value = a * scale * comparisons / sb.divisor
                    t.add("per-comparison", side=side, imps=a, comparisons=comparisons, divisor=sb.divisor,
                          value=s.value, parameter=CROSS_ARTIFICIAL, scale=scale)
                else:
                    s.value = Fraction(a)
        _percents(sb)


def _shares(ruling: Ruling) -> dict[str, Any]:
    """Each side's artificial value as the artificial stage gave it: a share of the top at
    matchpoints, IMPs at IMPs; None when not scored."""
    out: dict[str, Any] = {side: None for side in SIDES}
    for e in ruling.trace.entries:
        if e.kind == "artificial":
            out[e.data["side"]] = e.data["value"]
    return out


def _value(a: Any, method: str, sb: ScoredBoard, p: dict[str, Any]) -> Fraction | None:
    """An artificial value (share of the top, or IMPs) as the line's score on this board."""
    if a is None:
        return None
    if unit_scoring(method) == "matchpoints":
        return a * sb.top
    if method == "cross-imps" and p.get(CROSS_ARTIFICIAL) == "per-comparison":
        return a * p.get(CROSS_SCALE, 1) * max(sb.results, 1) / sb.divisor
    return Fraction(a)


def _check_amount(line: Line, value: Any, method: str, what: str) -> None:
    """An explicit artificial score within what a board can be: at matchpoints a share of the top
    from 0 to 1, at IMPs at most 24 either way. An error at the ruling (rulings file) or the line's
    cell otherwise — never −9,999,999,997.9 MP."""
    if value is None or isinstance(value, str):
        return
    low = Fraction(0) if method == "matchpoints" else Fraction(-IMP_BOUND)
    high = Fraction(1) if method == "matchpoints" else Fraction(IMP_BOUND)
    if low <= value <= high:
        return
    shown = f"{format_mixed(value * 100)}% of a top" if method == "matchpoints" else f"{format_mixed(value)} IMPs"
    bound = "a share of a top from 0% to 100%" if method == "matchpoints" else f"IMPs from {low} to {high}"
    r = line.ruling
    if r is not None:
        raise BridgelawError(f"{line.label}: {what} of {shown}", file=r["file"], line=r["line"], column=1,
                             expected=bound)
    raise line.where.error(f"{line.label}: {what} of {shown}", expected=bound)


def _rule_penalties(session: Session, book: Rulebook, boards: dict[int | None, ScoredBoard], method: str) -> None:
    """Each procedural penalty a line was given, ruled by the case path's penalty stage (one ruling a
    penalty, kept with the line's rulings and trace); what the rulings give is applied afterwards."""
    event = "individual" if session.individual else "teams" if session.matches else "pairs"
    for sb in boards.values():
        for sl in sb.lines:
            line = sl.line
            for word, text, where in line.extra.pop("penalty_cells", ()):     # a file read back: its cell's penalties
                penalties.from_cell(line, word, text, where, method)
            for k, (facts, where) in enumerate(line.penalties):
                try:
                    ruling = reuse.ruling(
                        ("penalty", id(line), k, repr(facts), method, event),
                        lambda: penalties.penalty_ruling(book, method=method, event=event, facts=facts, board=sb.board,
                                                         title=line.label, where=where or line.where))
                except BridgelawError as exc:
                    if exc.file is not None:
                        raise
                    raise (where or line.where).error(f"{line.label}: {exc.message}", expected=exc.expected,
                                                      suggestion=exc.suggestion) from None
                sl.rulings.append(ruling)
                _line_trace(sl, book).entries.extend(ruling.trace.entries)
                sl.penalties.extend(penalties.borne(ruling))


def _contestants(boards: dict[int | None, ScoredBoard], keys: dict, book: Rulebook, unit: str,
                 mp_unit: Fraction) -> None:
    """Each contestant's score on each line: its side's (an individual's own artificial score where it
    has one), less a penalty its ruling puts on that player."""
    for sb in boards.values():
        for sl in sb.lines:
            for side in SIDES:
                s = sl.side(side)
                for key in keys[(id(sl), side)]:
                    sl.contestants[key] = sl.own.get(key, s.value) if key in sl.own else s.value
            if not sl.penalties or sl.line.players is None:
                continue
            t = _line_trace(sl, book)
            seat_of = {pid: seat for seat, pid in sl.line.players.items()}
            for pid, b, amount in penalties.player_amounts(sl, sb.top, mp_unit):
                key = contestant_key(sl.line.section, None, pid, "unique")
                v = sl.contestants.get(key)
                v = v - amount if v is not None else None
                a = b.penalty.amount
                t.add("player-penalty", side="NS" if seat_of[pid] in "NS" else "EW", player=pid,
                      share=a.value / 100 if a.unit == "%" else a.value, amount=amount, value=v, unit=unit,
                      rule=b.rule)
                sl.contestants[key] = v


def _to_top(value: Fraction, top: Fraction, session_top: Fraction, unit: Fraction) -> Fraction:
    """Neuberg's formula from a board's top to the session's: (M + 1) × E / A − 1 with M in
    matchpoints of two per result beaten (a file counting one per result is converted there and
    back), A the results the board's top stands for (top ÷ 2 + 1) and E the session's."""
    m, a, e = value / unit, top / unit / 2 + 1, session_top / unit / 2 + 1
    return ((m + 1) * e / a - 1) * unit


def _standings(session: Session, boards: dict[int | None, ScoredBoard], keys: dict,
               p: dict[str, Any], *, ranked: bool = True) -> list[Standing]:
    """Each contestant's standing: its total (factored as `p` says) and the tops it played; ranked
    in its group unless `ranked` is false (learning compares totals and percentages only)."""
    table: dict[str, Standing] = {}
    tops = [sb.top for sb in boards.values() if sb.top]
    session_top = max(tops) if tops and p.get(TOTALS_TOP) == "session-top" else None
    for key, c in session.contestants.items():
        table[key] = Standing(key, c, c.section, c.direction)
    # each total and top added once a standing, exactly (core.exact.total: whole numerators over the
    # common denominator, one Fraction at the end, not one an addition)
    sums: dict[str, tuple[list[Fraction], list[Fraction]]] = {}
    by_direction = session.pair_numbers == "by-direction"
    mp_unit = session.mp_unit
    for number, sb in sorted(boards.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        # what is the same for every line of the board worked out once a board (a top is a Fraction:
        # compared and tested once, not once a contestant)
        board_top = sb.top
        has_top = bool(board_top)
        to_top = session_top is not None and has_top and board_top < session_top
        cross = sb.method == "cross-imps"
        for sl in sb.lines:
            line = sl.line
            ruled = line.kind != "result" or bool(sl.penalties and any(b.penalty.to == "side" for b in sl.penalties))
            entries = sl.trace.entries if sl.trace is not None else None
            for key, v in sl.contestants.items():       # each of the line's contestants (_contestants: both sides')
                acc = sums.get(key)
                if acc is None:         # its values, the tops they are out of, and its standing
                    st = table.get(key)
                    if st is None:
                        side = "NS" if key in keys[(id(sl), "NS")] else "EW"
                        st = table[key] = Standing(key, None, line.section, side if by_direction else None)
                    acc = sums[key] = ([], [], st)
                if v is None:
                    continue
                st = acc[2]
                top = board_top
                if to_top:
                    f = _to_top(v, top, session_top, mp_unit)
                    st.factored.append(Entry("to-top", {"board": number, "before": v, "top": top, "after": f,
                                                        "session_top": session_top, "parameter": TOTALS_TOP}))
                    v, top = f, session_top
                acc[0].append(v)
                if cross:
                    st.comparisons += max(sb.results - (1 if line.kind != "artificial" else 0), 1)
                if has_top:
                    acc[1].append(top)
                if ruled or (entries is not None and any(e.kind == "player-penalty" and
                                                         e.data["player"] == key.split(":")[-1] for e in entries)):
                    st.adjusted.append(f"board {number}")
    for values, tops_played, st in sums.values():
        if values:                          # a contestant with a score on some board
            st.boards = len(values)
            st.total = exact_total(values)
            st.available = exact_total(tops_played)
    for st in table.values():
        adjustment = st.contestant.extra.get("adjustment") if st.contestant is not None else None
        if adjustment:                      # a pair-level adjustment the file gives (USEBIO ADJUSTMENT)
            before = st.total
            st.total += adjustment
            st.factored.append(Entry("file-adjustment", {"before": before, "amount": adjustment, "after": st.total}))
    groups: dict[tuple, list[Standing]] = {}
    for st in table.values():
        st.group = {"together": ("", None), "by-section": (st.section, None),
                    "by-direction": ("", st.direction)}.get(session.ranking or "", (st.section, st.direction))
        groups.setdefault(st.group, []).append(st)
    if p.get(TOTALS_BOARDS) == "session-boards":
        most = max((st.boards for st in table.values()), default=0)
        for st in table.values():
            if 0 < st.boards < most:
                before = st.total
                st.total = st.total * most / st.boards
                st.available = st.available * most / st.boards
                st.factored.append(Entry("to-boards", {"before": before, "most": most, "played": st.boards,
                                                       "after": st.total, "parameter": TOTALS_BOARDS}))
    if p.get(TOTALS_BYES) == "average":
        byes: dict[str, list] = {}
        for number, sb in boards.items():
            for sl in sb.lines:
                for _, key in _byes(sl, keys):
                    byes.setdefault(key, []).append(sb.top)
        for key, tops in byes.items():
            st = table.get(key)
            if st is None or not st.boards:
                continue
            before = st.total
            st.total = st.total * (st.boards + len(tops)) / st.boards
            if st.available:
                st.available += sum((t for t in tops if t), Fraction(0))
            st.factored.append(Entry("byes", {"before": before, "byes": len(tops), "played": st.boards,
                                              "after": st.total, "parameter": TOTALS_BYES}))
            st.boards += len(tops)
    if p.get(CROSS_TOTALS) == "per-comparison":
        for st in table.values():
            if st.comparisons:
                before = st.total
                st.total = st.total / st.comparisons
                st.factored.append(Entry("per-comparison", {"before": before, "comparisons": st.comparisons,
                                                            "after": st.total, "parameter": CROSS_TOTALS}))
    out = []
    for group_key in sorted(groups, key=lambda k: (k[0], {"NS": 0, "EW": 1}.get(k[1] or "", 2), k[1] or "")):   # NS first
        group = groups[group_key]
        if ranked:
            rank(group, lambda s: s.percent if s.percent is not None else s.total)
        out.extend(group)
    return out
