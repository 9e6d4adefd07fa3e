"""Teams on the one field model: each board of a match compared between its two rooms, the match
totalled and scored (VPs by the rulebook's scale, IMPs, or a point-a-board match's board points),
and the event's standings.

A teams session is a session of the field model whose contestants are teams and whose lines are
the rooms of its matches (:class:`.model.Match`; each line names the team on each side). A line's
field is the other room of its match — the one comparison a teams case makes:

* ``team-imps``: the team's board score is IMP(its points in one room + its points in the other);
* ``point-a-board``: 2 to the team with the better aggregate, 1 each on a tie, 0 to the other —
  matchpoints against the one other room (top 2);
* ``aggregate``: the two rooms' points added (the team's net points).

Every line of a board gets the board score of the team sitting there, so both rooms show it.
An adjusted room is ruled by the case path as its equivalent case with the other room as its
``other_table`` (``field`` at point-a-board): the ruling's scores are the board's (its trace kept,
with ``in-match``: which room it was compared with). A room whose case could not have the other
room (both rooms adjusted) is compared outcome by outcome, each weight times each of the other
room's. An artificial room (average plus and minus: IMPs, or a share of the top at point-a-board) is ruled by the
artificial stage with its team's session facts; the other room's result does not count then. A
procedural penalty is ruled by the penalty stage (:mod:`.penalties`): IMPs (or a share of the board's
points) come off its team's board score, VPs off its team's match score once the match is converted.

A match's VPs go through :func:`bridgelaw.core.vp.victory_points` with the rulebook's ``vp.scale``
(and ``vp.table``); a match with a ruled room gets them from that room's case with its ``match:``
(the IMPs of the match's other boards), so that the rulebook's ``vp.method`` (weighting the IMPs or
the VPs) applies and the trace shows the conversion.

This module is the teams arithmetic; :mod:`.score` calls it and keeps the scored lines.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from ..core import bridge
from ..core import vp as vp_scale
from ..core.errors import BridgelawError
from ..core.exact import format_mixed, total as exact_total, whole
from ..core.vocab import SIDES, other
from ..rulebook import Rulebook
from ..ruling.build import rule_case
from ..ruling.caseschema import Match as MatchFacts
from ..ruling.caseschema import MatchImps
from ..ruling.trace import Trace
from . import fieldscore, penalties, reuse
from .cells import Published, shown
from .model import Board, Contestant, Line, Match, Session, contestant_key, rank

PAIRWISE_DIVISOR = "fieldscore.cross_imps.divisor"
TOP = {"point-a-board": Fraction(2)}          # the board points a board is worth to the two teams together


def _sign(side: str) -> int:
    return 1 if side == "NS" else -1


def _points_of(f: Any) -> Callable[[int], Fraction]:
    """A board's score for a team whose net points (its points in one room plus the other) are n."""
    if f == "team-imps":
        return lambda n: whole(bridge.imps(n))
    if f == "point-a-board":
        return lambda n: whole(2 if n > 0 else 1 if n == 0 else 0)
    return whole


_ONE = whole(1)


def _weighted(line: Line, side: str, ns_points: Callable[[Any], int]) -> list[tuple[Fraction, int]]:
    """The room's NS points as (weight, points) from the view of the team sitting on `side`."""
    if line.kind == "result":
        return [(_ONE, line.points)]
    return [(c.weight, ns_points(c.outcome)) for c in line.parts[side]]


def compared_with_other(line: Line) -> bool:
    """An adjusted room whose ruling was made against the other room of its match (the case's
    ``other_table``, or its ``field`` at point-a-board)."""
    r = line.ruled
    if r is None or r.case is None:
        return False
    m = r.case.model
    return m.other_table is not None or bool(m.field)


def score_board(board: Board, scored: list[Any], method: str, ns_points: Callable[[Any], int]) -> tuple[int, list[Any]]:
    """Pass 1: each line's NS and EW score — the board score of the team sitting there, against
    the other room of its match. An artificial room, and a room whose other room is artificial,
    not played or missing, is left for later (None). Returns the rooms compared, and the adjusted
    rooms (with how each was scored: ``ruling`` or ``outcomes``)."""
    f = _points_of(method)
    by_match: dict[int, list[Any]] = {}
    for sl in scored:
        if sl.line.match is None:
            raise sl.line.where.error(f"{sl.line.label} is not a room of a match", expected="a teams match's line")
        by_match.setdefault(id(sl.line.match), []).append(sl)
    compared = 0
    adjusted: list[tuple[Any, str, Any]] = []
    for rooms in by_match.values():
        if len(rooms) != 2 or any(sl.line.kind not in ("result", "adjusted", "split") for sl in rooms):
            continue
        compared += 2
        a, b = rooms
        values: dict[str, Fraction] = {}
        ruled = [sl for sl in rooms if sl.line.kind in ("adjusted", "split") and compared_with_other(sl.line)]
        if ruled:                           # the ruling compared this room with the other one: its scores
            sl = ruled[0]
            for side in SIDES:
                values[sl.line.team[side]] = sl.line.ruled.scores[side].value
            adjusted.append((sl, "ruling", rooms[1] if sl is rooms[0] else rooms[0]))
        else:                               # outcome by outcome (both rooms results, or both adjusted)
            for side in SIDES:
                team = a.line.team[side]
                there = _weighted(b.line, other(side), ns_points)

                def against(p1: int, side: str = side, there: list = there) -> Fraction:
                    if len(there) == 1 and there[0][0] == 1:     # the other room's one result
                        return f(_sign(side) * (p1 - there[0][1]))
                    return sum((w2 * f(_sign(side) * (p1 - p2)) for w2, p2 in there), Fraction(0))

                ruled = a.line.ruled if a.line.kind in ("adjusted", "split") else None
                total = ruled.scored(side, lambda o: against(ns_points(o))) if ruled is not None else None
                if total is None and a.line.kind == "result":     # a result against the other room
                    total = against(a.line.points)
                elif total is None:         # an award that is no weighted sum of results
                    total = sum((w1 * against(p1) for w1, p1 in _weighted(a.line, side, ns_points)), Fraction(0))
                values[team] = total
            for sl in rooms:
                if sl.line.kind in ("adjusted", "split"):
                    adjusted.append((sl, "outcomes", b if sl is a else a))
        for sl in rooms:
            for side in SIDES:
                sl.side(side).value = values[sl.line.team[side]]
    return compared, adjusted


def frequencies(scored: list[Any], ns_points: Callable[[Any], int]) -> dict[str, list[tuple[int, Fraction]]]:
    """Each side's points on the board with their frequencies (a weighted room counts its weights)."""
    count: dict[str, dict[int, Fraction | int]] = {"NS": {}, "EW": {}}
    ns, ew = count["NS"], count["EW"]
    for sl in scored:
        line = sl.line
        if line.kind == "result":           # a room's one result: counted as a whole number
            p = line.points
            ns[p] = ns.get(p, 0) + 1
            ew[-p] = ew.get(-p, 0) + 1
            continue
        if line.kind not in ("adjusted", "split"):
            continue
        for side in SIDES:
            c = count[side]
            for w, p in _weighted(line, side, ns_points):
                points = p if side == "NS" else -p
                c[points] = c.get(points, 0) + w
    return {side: sorted((p, whole(v) if type(v) is int else v) for p, v in c.items()) for side, c in count.items()}


def in_match(sl: Any, how: str, other_room: Any, method: str, book: Rulebook) -> None:
    """An adjusted room's trace: its ruling, then how the board's score came from it."""
    line = sl.line
    if sl.trace is None:
        sl.trace = Trace(book)
    sl.trace.entries.extend(line.ruled.trace.entries)
    sl.rulings.append(line.ruled)
    o = other_room.line
    sl.trace.add("in-match", how=how, method=method, match=line.match.label, other=o.label,
                 other_result=o.result.text if o.kind == "result" and o.result is not None else o.kind,
                 values={side: sl.side(side).value for side in SIDES},
                 teams={side: line.team[side] for side in SIDES})


# --- matches ------------------------------------------------------------------------------------------

@dataclass
class MatchBoard:
    number: int
    rooms: list[Any]                          # the match's scored lines of this board
    home: Fraction | None                     # the board's score for each team (None: not scored)
    away: Fraction | None
    how: str                                  # compared | ruled | artificial | not-scored
    penalties: list[tuple[str, Fraction]] = field(default_factory=list)    # (team, amount)


@dataclass
class ScoredMatch:
    match: Match
    boards: list[MatchBoard]
    totals: dict[str, Fraction]               # home, away: each team's board scores added (and any carry-over):
                                              # its net IMPs (its margin), or its board points
    score: dict[str, Fraction]                # home, away: the match's score (VPs, IMPs won, or board points)
    unit: str                                 # of the score: VP, IMP, point
    steps: list[str] = field(default_factory=list)   # how the score was reached (the VP conversion)
    ruling: Any = None                        # the ruled room's case that gave the VPs (with match:)
    ruled_line: Any = None
    penalties: list["MatchPenalty"] = field(default_factory=list)   # procedural penalties in VPs, taken from the match

    @property
    def winner(self) -> str | None:
        h, a = self.score["home"], self.score["away"]
        return self.match.home if h > a else self.match.away if a > h else None

    def won(self) -> dict[str, Fraction]:
        """The IMPs each team won (a match of 53-36 IMPs): each board's IMPs to the team they went to."""
        out = {who: self.match.carry.get(team, Fraction(0)) for who, team in (("home", self.match.home),
                                                                                 ("away", self.match.away))}
        for mb in self.boards:
            if mb.home is not None:
                out["home"] += max(mb.home, Fraction(0))
                out["away"] += max(mb.away, Fraction(0))
        return out


@dataclass
class MatchPenalty:
    """A procedural penalty in VPs taken from a team's match score: the team, the board it was given on,
    the penalty as its ruling gives it (its rule cites the paragraph), the team's VPs before and after."""
    team: str
    board: int
    borne: Any                                # penalties.Borne
    before: Fraction
    after: Fraction


@dataclass
class TeamStanding:
    """A team's place in the event (the same attributes a pairs standing has, for the reports)."""
    key: str
    team: str
    contestant: Contestant | None
    section: str
    direction: str | None = None
    total: Fraction = Fraction(0)             # the match scores added: VPs, IMPs or board points
    matches: int = 0
    boards: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    imps_for: Fraction = Fraction(0)
    imps_against: Fraction = Fraction(0)
    rank: int = 0
    rank_text: str = ""
    tied: int = 1                             # teams sharing its rank (itself included)
    group: tuple = ()                         # the teams it is ranked with: its section's
    adjusted: list[str] = field(default_factory=list)
    factored: list[Any] = field(default_factory=list)
    percent: Fraction | None = None


@dataclass
class TeamsResult:
    session: Session
    method: str
    match_scoring: str
    matches: list[ScoredMatch]
    standings: list[TeamStanding]
    pairwise: dict[int, dict[str, Fraction]]     # id(line) → NS, EW pairwise cross-IMPs
    scale: str | None = None                     # the VP scale, when matches are scored in VPs
    unit: str = "IMP"

    def figures(self) -> list[tuple[Line | None, str, str, Published, Fraction | None]]:
        """Each published teams figure (line, key, what, published, computed): the board scores and
        the match scores each match printed, each team's wins or draws and place, each line's
        pairwise cross-IMPs, each pair's boards played."""
        out = []
        for sm in self.matches:
            m = sm.match
            for mb in sm.boards:
                for who in ("home", "away"):
                    pub = m.board_published.get(mb.number, {}).get(who)
                    if pub is not None:
                        team = m.home if who == "home" else m.away
                        out.append((None, f"board-{who}", f"match {m.key} ({m.label}) board {mb.number} team {team}",
                                    pub, mb.home if who == "home" else mb.away))
            for who in ("home", "away"):
                pub = m.published.get(who)
                if pub is not None:
                    team = m.home if who == "home" else m.away
                    out.append((None, f"match-{who}", f"match {m.key} ({m.label}) team {team} {sm.unit}s", pub,
                                sm.score[who]))
        for st in self.standings:
            pub = st.contestant.extra.get("published", {}) if st.contestant is not None else {}
            if "wins_or_draws" in pub:
                out.append((None, "wins_or_draws", f"team {st.team} wins or draws", pub["wins_or_draws"],
                            Fraction(st.wins + st.draws)))
            if "place" in pub:
                value, text = pub["place"]
                out.append((None, "place", f"team {st.team} place", value, Fraction(st.rank)))
        for sm in self.matches:
            for mb in sm.boards:
                for sl in mb.rooms:
                    printed = sl.line.extra.get("pairwise")
                    if not printed:
                        continue
                    pw = self.pairwise.get(id(sl.line))
                    label = sl.line.label           # once a room, not once a side
                    for side, pub in printed.items():
                        out.append((sl.line, side, f"{label} {side} pairwise cross-IMPs", pub,
                                    pw[side] if pw is not None else None))
        totals = self.pair_totals()
        printed = self.pair_imps()
        for c in self.session.contestants.values():
            for number, pair in c.extra.get("pairs", {}).items():
                pub = pair["published"].get("boards")
                if pub is not None:
                    out.append((None, "boards", f"pair {number} boards played", pub,
                                Fraction(totals.get(number, (0, None))[0])))
                pub = pair["published"].get("imps")
                if pub is not None and number in printed:
                    out.append((None, "pair_imps", f"pair {number} pair IMPs", pub, printed[number]))
        return out

    def pair_imps(self, places: int = 2) -> dict[str, Fraction]:
        """Each pair's cross-IMP total as the programs make it (PAIR_IMPS): the sum of its lines'
        pairwise cross-IMPs as printed — each at the decimals the file printed it (else `places`) —
        so −20.99 where the exact sum is −21 (TeamsScorer, EBUScore Teams)."""
        sums: dict[str, list[Fraction]] = {}           # added once a pair, exactly (core.exact.total)
        for sm in self.matches:
            for mb in sm.boards:
                for sl in mb.rooms:
                    pw = self.pairwise.get(id(sl.line))
                    if pw is None or sl.line.kind == "not-played":
                        continue
                    pubs = sl.line.extra.get("pairwise", {})
                    for side in SIDES:
                        who = sl.line.who(side)
                        if who is None or pw.get(side) is None:
                            continue
                        pub = pubs.get(side)
                        sums.setdefault(who, []).append(shown(pw[side], pub.places if pub else places))
        return {who: exact_total(values) for who, values in sums.items()}

    def pair_totals(self) -> dict[str, tuple[int, Fraction | None]]:
        """Each pair's boards played and its pairwise cross-IMPs added (exact)."""
        boards: dict[str, int] = {}
        sums: dict[str, list[Fraction] | None] = {}     # added once a pair (None: no figure)
        for sm in self.matches:
            for mb in sm.boards:
                for sl in mb.rooms:
                    pw = self.pairwise.get(id(sl.line))
                    for side in SIDES:
                        who = sl.line.who(side)
                        if who is None or sl.line.kind == "not-played":
                            continue
                        boards[who] = boards.get(who, 0) + 1
                        acc = sums.get(who)
                        if pw is not None and pw[side] is not None:
                            if acc is None:
                                acc = sums[who] = []
                            acc.append(pw[side])
                        else:
                            sums.setdefault(who, None)
        return {who: (n, None if sums[who] is None else exact_total(sums[who])) for who, n in boards.items()}

    def cell(self, sl: Any, text: str) -> str:
        """The Adjustment cell a room is written back with: an adjusted room whose ruling is not its
        assigned outcomes' comparison with the other room (average plus where that is more favourable, a rounding) is
        written as the scores it was given (``art``), so that the file reads back the same — unless its
        match's VPs weight each outcome's VPs (``vp.method weight-vps``): ``art`` would give the VPs of
        its IMPs, so it keeps its outcomes, which the re-read weights again."""
        line = sl.line
        if line.kind not in ("adjusted", "split") or not compared_with_other(line):
            return text
        others = [o for o in line.match.lines.get(line.board, []) if o is not line]
        if len(others) != 1 or others[0].kind != "result":
            return text
        f = _points_of(self.method)
        q = others[0].points
        pts = {side: sum((c.weight * f(_sign(side) * (bridge.ns_score(c.outcome, _vul(line)) - q))
                          for c in line.parts[side]), Fraction(0)) for side in SIDES}
        given = {side: line.ruled.scores[side].value for side in SIDES}
        if pts == given or (sl.trace is not None and any(e.kind == "vp-weighted" for e in sl.trace.entries)):
            return text
        top = TOP.get(self.method)
        values = {side: given[side] / top if top else given[side] for side in SIDES}
        rest = [c for c in text.split(" & ")[1:]]
        return " & ".join([f"art NS={values['NS']} EW={values['EW']}"] + rest)


def _vul(line: Line) -> str:
    return (line.ruled.case.model.board.vulnerability if line.ruled is not None else None) or "None"


def score_matches(session: Session, book: Rulebook, boards: dict[int | None, Any], trace: Trace,
                  ns_points: Callable[[Board], Callable[[Any], int]]) -> TeamsResult:
    """Pass 3 (after the artificial rooms are ruled): each match's board scores, totals and score,
    the pairwise cross-IMPs when the file publishes them, and the event's standings."""
    method, match_scoring = session.scoring, session.match_scoring
    scored_of = {id(sl.line): sl for sb in boards.values() for sl in sb.lines}
    scale = table = None
    if match_scoring == "vps":
        if method == "aggregate":
            raise session.matches[0].where.error("an aggregate (total points) match scored in VPs: no VP scale "
                                                 "converts total points", expected="MATCH_SCORING_METHOD IMPS or PAB")
        scale = trace.parameter("vp.scale")
        if scale == "table":
            table = trace.parameter("vp.table")
    # an aggregate match is its total points whatever the file calls it (no VP scale converts points)
    unit = "point" if method == "aggregate" else {"vps": "VP", "imps": "IMP"}.get(match_scoring or "", "point")
    matches = []
    for match in session.matches:
        mboards = []
        for number in match.boards:
            rooms = [scored_of[id(line)] for line in match.lines[number]]
            mboards.append(_match_board(number, match, rooms, boards[number]))
        totals = {"home": match.carry.get(match.home, Fraction(0)), "away": match.carry.get(match.away, Fraction(0))}
        for mb in mboards:
            if mb.home is not None:
                totals["home"] += mb.home
                totals["away"] += mb.away
        sm = ScoredMatch(match, mboards, totals, dict(totals), unit)
        if unit == "IMP":
            sm.score = sm.won()
        if match_scoring == "vps":
            _victory_points(sm, session, book, scale, table, method)
        _match_penalties(sm, match_scoring)
        matches.append(sm)
    pairwise = _pairwise(session, boards, trace, ns_points)
    result = TeamsResult(session, method, match_scoring, matches, [], pairwise, scale,
                         unit="IMP" if method == "team-imps" else "point")
    result.standings = _standings(session, matches, method)
    return result


def _match_board(number: int, match: Match, rooms: list[Any], sb: Any) -> MatchBoard:
    art = [sl for sl in rooms if sl.line.kind == "artificial"]
    if len(art) > 1:
        raise art[1].line.where.error(f"board {number} of {match.label}: both rooms have an artificial score",
                                      expected="one artificial score a board of a match (the board is cancelled "
                                      "for the match: rule one room)")
    values: dict[str, Fraction | None] = {}
    how = "compared"
    if art:
        a = art[0]
        values = {a.line.team[side]: a.side(side).value for side in SIDES}
        how = "artificial"
        for sl in rooms:                    # the other room's result does not count: the board's score is the artificial one
            if sl is not a:
                for side in SIDES:
                    sl.side(side).value = values[sl.line.team[side]]
    elif len(rooms) == 2 and all(sl.line.kind in ("result", "adjusted", "split") for sl in rooms):
        values = {sl.line.team[side]: sl.side(side).value for sl in rooms[:1] for side in SIDES}
        if any(sl.line.kind != "result" for sl in rooms):
            how = "ruled"
    else:
        missing = next((sl for sl in rooms if sl.line.kind == "not-played"), None)
        if missing is None and len(rooms) == 1:
            raise rooms[0].line.where.error(f"board {number} of {match.label} has a result in one room only",
                                            expected="the other room's line, or a ruling for this one (artificial, "
                                            "or not played)")
        return MatchBoard(number, rooms, None, None, "not-scored")
    top = sb.top if sb is not None else None
    taken = []
    for sl in rooms:                        # a procedural penalty its ruling takes from the team's board score
        for b in sl.penalties:
            p = b.penalty
            if p.against != "board" or p.to != "side":
                continue
            team = sl.line.team[p.side]
            if values.get(team) is not None:
                amount = penalties.amount(p, top)
                values[team] -= amount
                taken.append((team, amount))
    return MatchBoard(number, rooms, values.get(match.home), values.get(match.away), how, taken)


def _match_penalties(sm: ScoredMatch, match_scoring: str | None) -> None:
    """A procedural penalty in VPs its ruling takes from the match: from the team's VPs, after the match is
    converted (only a match scored in VPs has them)."""
    m = sm.match
    total = sum(sm.score.values(), Fraction(0)) if sm.score else None    # the match's VPs (both teams')
    for mb in sm.boards:
        for sl in mb.rooms:
            for b in sl.penalties:
                p = b.penalty
                if p.against != "match":
                    continue
                if match_scoring != "vps":
                    raise sl.line.where.error(f"{sl.line.label}: a procedural penalty in VPs, but {m.label} is not "
                                              "scored in VPs", expected="IMPs off the board's score")
                if total is not None and p.value > total:
                    raise sl.line.where.error(f"{sl.line.label}: a procedural penalty of {format_mixed(p.value)} VP, "
                                              f"more than {m.label} is worth ({format_mixed(total)} VPs)",
                                              expected=f"a penalty of at most {format_mixed(total)} VP")
                team = sl.line.team[p.side]
                who = "home" if team == m.home else "away"
                before = sm.score[who]
                sm.score[who] = before - p.value
                b.taken = p.value
                sm.penalties.append(MatchPenalty(team, mb.number, b, before, sm.score[who]))
                if sl.trace is not None:
                    sl.trace.add("match-penalty", side=p.side, team=team, match=m.label, amount=p.value,
                                 before=before, after=sm.score[who], rule=b.rule)


def _victory_points(sm: ScoredMatch, session: Session, book: Rulebook, scale: str, table: str | None,
                    method: str) -> None:
    """The match's VPs: from its ruled room's case (with match:), or by the scale from its margin."""
    m = sm.match
    boards = len(m.boards)
    ruled = [(mb, sl) for mb in sm.boards for sl in mb.rooms
             if sl.line.kind in ("adjusted", "split") and compared_with_other(sl.line) and mb.how == "ruled"]
    if ruled and method == "team-imps":
        mb, sl = ruled[-1]
        line = sl.line
        other_imps = {side: sum((max(b.home if line.team[side] == m.home else b.away, Fraction(0))
                                 for b in sm.boards if b is not mb and b.home is not None), Fraction(0))
                      + m.carry.get(line.team[side], Fraction(0)) for side in SIDES}
        if not any(amount for _, amount in mb.penalties):   # with a penalty on it: the VPs from the match's IMPs
            ruling = vp_ruling(line, book, boards, other_imps)
            vps = dict(ruling.vp)
            home_side = "NS" if line.team["NS"] == m.home else "EW"
            sm.score = {"home": vps[home_side], "away": vps[other(home_side)]}
            sm.ruling, sm.ruled_line = ruling, sl
            if sl.trace is not None:
                sl.trace.entries.extend(e for e in ruling.trace.entries
                                        if e.kind in ("match", "vp", "vp-weighted") or
                                        (e.kind == "parameter" and e.data["name"].startswith("vp.")))
            if len(ruled) > 1:
                session.warnings.append(f"{m.label}: {len(ruled)} ruled boards; the VPs come from board "
                                        f"{mb.number}'s ruling with the others' scores as ruled")
            return
    try:
        home = vp_scale.victory_points(sm.totals["home"], boards, scale, table)   # each team from its own
        away = vp_scale.victory_points(sm.totals["away"], boards, scale, table)   # net IMPs
    except vp_scale.ScaleError as exc:
        raise m.where.error(f"{m.label}: {exc}", expected="a VP scale for a match of this length "
                            "(the rulebook's vp.scale, vp.table)") from None
    sm.score = {"home": home, "away": away}


def vp_ruling(line: Line, book: Rulebook, boards: int, other_imps: dict[str, Fraction]) -> Any:
    """The ruled room's equivalent case again, with ``match:`` — the match's length and the IMPs
    each side's team has on its other boards — so that the case path converts the match to VPs."""
    case = copy.copy(line.ruled.case)
    facts = MatchFacts.model_construct(boards=boards, imps=MatchImps.model_construct(NS=other_imps["NS"],
                                                                                      EW=other_imps["EW"]))
    case.model = case.model.model_copy(update={"match": facts})
    try:
        return reuse.ruling(("match", id(line), boards, tuple(sorted(other_imps.items()))),
                            lambda: rule_case(case, book, book.as_of))
    except BridgelawError as exc:
        if exc.file is not None:
            raise
        raise line.where.error(f"{line.label}: {exc.message}", expected=exc.expected,
                               suggestion=exc.suggestion) from None


def _pairwise(session: Session, boards: dict[int | None, Any], trace: Trace,
              ns_points: Callable[[Board], Callable[[Any], int]]) -> dict[int, dict[str, Fraction]]:
    """Each line's pairwise cross-IMPs over the whole board (every room of every match), when the
    file publishes them: the figure a program gives each pair for grading, not a match score."""
    if not any("pairwise" in sl.line.extra for sb in boards.values() for sl in sb.lines):
        return {}
    divisor = trace.parameter(PAIRWISE_DIVISOR)
    out: dict[int, dict[str, Fraction]] = {}
    for sb in boards.values():
        played = [sl for sl in sb.lines if sl.line.kind in ("result", "adjusted", "split")]
        if len(played) < 2:
            continue
        points = ns_points(sb.board)
        values: dict[str, list[Fraction]] = {}
        for side in SIDES:
            entries = [(sl.line.points if side == "NS" else -sl.line.points) if sl.line.kind == "result"
                       else sl.line.parts[side] for sl in played]
            pts = points if side == "NS" else (lambda o: -points(o))
            values[side], _, _ = fieldscore.cross_imps(entries, points=pts, divisor=divisor)
        for k, sl in enumerate(played):
            out[id(sl.line)] = {side: values[side][k] for side in SIDES}
    return out


def _standings(session: Session, matches: list[ScoredMatch], method: str) -> list[TeamStanding]:
    table: dict[str, TeamStanding] = {}

    def standing(team: str, section: str) -> TeamStanding:
        key = contestant_key(section, None, team, "unique")
        st = table.get(key)
        if st is None:
            st = table[key] = TeamStanding(key, team, session.contestants.get(key), section)
        return st

    for c in session.contestants.values():
        standing(c.number, c.section)
    for sm in matches:
        m = sm.match
        section = m.extra.get("section", "")
        won = sm.totals if method == "point-a-board" else sm.won()     # board points, or IMPs (points) won
        for who, team in (("home", m.home), ("away", m.away)):
            st = standing(team, section)
            st.matches += 1
            st.total += sm.score[who]
            st.imps_for += won[who]
            st.imps_against += won["away" if who == "home" else "home"]
            st.boards += sum(1 for mb in sm.boards if mb.home is not None)
            w = sm.winner
            if w is None:
                st.draws += 1
            elif w == team:
                st.wins += 1
            else:
                st.losses += 1
            st.adjusted.extend(f"board {mb.number}" for mb in sm.boards
                               if mb.how in ("ruled", "artificial") or mb.penalties
                               or any(p.board == mb.number and p.team == team for p in sm.penalties))
    groups: dict[str, list[TeamStanding]] = {}
    for st in table.values():
        st.group = (st.section, None)
        groups.setdefault(st.section, []).append(st)
    out: list[TeamStanding] = []
    for section in sorted(groups):
        rank(groups[section], lambda s: s.total)
        out.extend(groups[section])
    return out
