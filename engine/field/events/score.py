"""Scoring a session of the event model: every board through :mod:`bridgelaw.field.fieldscore`,
artificial scores through the rulebook's ``artificial`` stage (:mod:`bridgelaw.ruling.artificial`)
with the session facts Law 12C2 asks for, and the contestants' totals and ranks.

* Each board is one field: every line with a result (or a weighted/split adjusted score) is
  compared with every other; an artificial line is left out of the field but counts among the
  results expected, so the others are factored up (Neuberg, as the rulebook says); a line not
  played counts nowhere.
* 12C2(c): a contestant's session score is its score on the *other* boards of the session that
  have a result — at pairs its share of the matchpoints available there, at IMPs its IMPs per
  board — given to the artificial stage, which decides (per edition) who gets it.
* 12C2(d): each contestant's boards with an artificial score by responsibility are counted
  across the session in board order; the count is the stage's ``boards`` fact.
* Cross-IMPs: an artificial score in IMPs enters the total ``flat`` or once ``per-comparison``
  (scaled by comparisons ÷ divisor), as ``fieldscore.cross_imps.artificial`` says.
* Totals: a board with a smaller top enters a matchpoint total as scored or factored up to the
  session's largest top by Neuberg (``fieldscore.totals.factor_to_top``); a contestant who played
  fewer boards keeps its total or has it multiplied by the session's boards over its own
  (``fieldscore.totals.factor_boards``). Each factoring is kept in the standing's ``factored``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...core import bridge
from .. import fieldscore
from ...ruling.artificial import artificial_scores
from ...core.errors import BridgelawError
from ...render.ruling import entry_lines    # pending: field steps become trace records (issue 19)
from ...core.exact import format_mixed
from ...rulebook import Rulebook
from .model import SIDES, Board, Contestant, Line, Session, contestant_key, shown, side_keys

TOTALS_TOP = "fieldscore.totals.factor_to_top"
TOTALS_BOARDS = "fieldscore.totals.factor_boards"
USED = {
    "matchpoints": ("fieldscore.neuberg.form", "fieldscore.neuberg.round_to", "fieldscore.neuberg.round_mode",
                    "fieldscore.neuberg.expected",
                    TOTALS_TOP, TOTALS_BOARDS),
    "cross-imps": ("fieldscore.cross_imps.divisor", TOTALS_BOARDS),
    "butler": ("fieldscore.butler.drop", "fieldscore.butler.round_datum_to", "fieldscore.butler.round_half",
               TOTALS_BOARDS),
}
CROSS_ARTIFICIAL = "fieldscore.cross_imps.artificial"


@dataclass
class SideScore:
    value: Fraction | None
    percent: Fraction | None = None
    steps: list[str] = field(default_factory=list)


@dataclass
class ScoredLine:
    line: Line
    NS: SideScore
    EW: SideScore
    awarded: dict[str, Any] | None = None       # artificial values awarded (share of top or IMPs)
    rules: list[str] = field(default_factory=list)
    contestants: dict[str, Fraction | None] = field(default_factory=dict)   # each contestant's score on the line
    own: dict[str, Fraction | None] = field(default_factory=dict)   # individual: a player's own artificial score

    def side(self, side: str) -> SideScore:
        return self.NS if side == "NS" else self.EW


@dataclass
class ScoredBoard:
    board: Board
    lines: list[ScoredLine]
    top: Fraction | None
    results: int
    expected: int
    factored: bool
    divisor: int | None = None


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
    factored: list[str] = field(default_factory=list)   # how the total was factored (fieldscore.totals.*)

    @property
    def percent(self) -> Fraction | None:
        return 100 * self.total / self.available if self.available else None


@dataclass
class Check:
    what: str
    where: Any
    published: Any
    computed: Fraction | None
    agrees: bool


@dataclass
class ScoredSession:
    session: Session
    book: Rulebook
    unit: str
    boards: dict[int, ScoredBoard]
    standings: list[Standing]
    parameters: dict[str, Any]

    def checks(self) -> list[Check]:
        """Every published cell against the computed figure at its printed precision."""
        out = []
        for sb in self.boards.values():
            for sl in sb.lines:
                for key, pub in sl.line.published.items():
                    side = key[:2]
                    s = sl.side(side)
                    value = s.percent if key.endswith("%") else s.value
                    ok = value is not None and shown(value, pub.places) == pub.value
                    out.append(Check(f"{sl.line.label} {key}", sl.line.where, pub, value, ok))
        for st in self.standings:
            c = st.contestant
            if c is None:
                continue
            for key, pub in c.published.items():
                value = st.total if key == "total" else st.percent
                ok = value is not None and shown(value, pub.places) == pub.value
                out.append(Check(f"{st.key} {key}", None, pub, value, ok))
        return out


def _params(book: Rulebook, scoring: str, needs_cross: bool) -> dict[str, Any]:
    names = list(USED[scoring]) + ([CROSS_ARTIFICIAL] if needs_cross else [])
    missing = [n for n in names if n not in book.parameters]
    if missing:
        raise BridgelawError(f"rulebook {book.id} does not set {', '.join(missing)}, which {scoring} needs",
                             expected="these parameters in the rulebook, or --set NAME=VALUE")
    return {n: book.parameters[n] for n in names}


def _entry(line: Line, side: str):
    sign = 1 if side == "NS" else -1
    if line.kind == "result":
        return sign * line.points
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


def score_session(session: Session, book: Rulebook, progress: Any = None) -> ScoredSession:
    """Score every board of `session` and total it. `progress(done, total)` is called once a
    board (the CLI's progress bar)."""
    scoring = session.scoring
    unit_scoring = "matchpoints" if scoring == "matchpoints" else "imps"
    needs_cross = scoring == "cross-imps" and any(l.kind == "artificial" for b in session.boards.values() for l in b.lines)
    p = _params(book, scoring, needs_cross)
    boards: dict[int, ScoredBoard] = {}
    # E, the results a board is factored up to: its own lines, or the session's most
    most = max((sum(1 for l in b.lines if l.kind != "not-played") for b in session.boards.values()), default=0)
    session_wide = scoring == "matchpoints" and p["fieldscore.neuberg.expected"] == "session"
    # pass 1: every board's field
    for done, (number, board) in enumerate(session.boards.items(), 1):
        if progress is not None:
            progress(done, len(session.boards))
        lines = [l for l in board.lines]
        scored = [ScoredLine(l, SideScore(None), SideScore(None)) for l in lines]
        played = [k for k, l in enumerate(lines) if l.kind != "not-played"]
        entries = {s: [_entry(lines[k], s) for k in played] for s in SIDES}
        sb = ScoredBoard(board, scored, None, 0, len(played), False)
        points = _points(board.vulnerability)
        for side in SIDES:
            if scoring == "matchpoints":
                r = fieldscore.matchpoints(entries[side], points=points[side],
                                           expected=most if session_wide else len(played),
                                           form=p["fieldscore.neuberg.form"],
                                           round_to=p["fieldscore.neuberg.round_to"],
                                           round_mode=p["fieldscore.neuberg.round_mode"])
                values = r.values
                sb.top, sb.results, sb.factored = r.top, r.results, r.factored
            elif scoring == "cross-imps":
                values, f, by = fieldscore.cross_imps(entries[side], points=points[side],
                                                      divisor=p["fieldscore.cross_imps.divisor"])
                sb.results, sb.divisor = f.results, by
            else:
                r = fieldscore.butler(entries[side], points=points[side], drop=int(p["fieldscore.butler.drop"]),
                                      round_datum_to=p["fieldscore.butler.round_datum_to"],
                                      round_half=p["fieldscore.butler.round_half"])
                values, sb.results = r.values, r.field.results
            for k, v in zip(played, values):
                scored[k].side(side).value = v
        boards[number] = sb
    # contestants' scores on boards with a result (for 12C2(c)) and artificial counts (12C2(d))
    keys: dict[tuple[int, str], list[str]] = {}
    for number, sb in boards.items():
        for sl in sb.lines:
            for side in SIDES:
                keys[(id(sl), side)] = side_keys(sl.line, side, session)
    have: dict[str, list[tuple[int, Fraction, Fraction | None]]] = {}
    for number, sb in boards.items():
        for sl in sb.lines:
            if sl.line.kind in ("result", "adjusted", "split"):
                for side in SIDES:
                    if sl.side(side).value is not None:
                        for key in keys[(id(sl), side)]:
                            have.setdefault(key, []).append((number, sl.side(side).value, sb.top))
    counts: dict[str, int] = {}
    # pass 2: artificial lines
    for number, sb in sorted(boards.items()):
        for sl in sb.lines:
            line = sl.line
            if line.kind != "artificial":
                continue
            words = {s: v for s, v in line.artificial.items() if isinstance(v, str)}
            if words and len(words) != 2:
                raise line.where.error(f"{line.label}: one side has an artificial score by responsibility and the other "
                                       "an explicit percentage", expected="both sides the same kind")
            awarded: dict[str, Any] = {}
            own: dict[str, Any] = {}
            if words:
                # 12C2(c)/(d) are per contestant: at pairs one pairing (NS pair, EW pair); at an
                # individual two (North with East, South with West), each player with its own facts
                ns_keys, ew_keys = keys[(id(sl), "NS")], keys[(id(sl), "EW")]
                width = max(len(ns_keys), len(ew_keys), 1)
                pairings = [{"NS": ns_keys[k] if k < len(ns_keys) else None,
                             "EW": ew_keys[k] if k < len(ew_keys) else None} for k in range(width)]
                for k, pairing in enumerate(pairings):
                    session_facts, board_facts = {}, {}
                    for side in SIDES:
                        key = pairing[side]
                        if key is None:
                            continue
                        other = [(v, t) for n, v, t in have.get(key, []) if n != number]
                        if other:
                            if unit_scoring == "matchpoints":
                                tops = sum((t for _, t in other if t), Fraction(0))
                                if tops:
                                    session_facts[side] = sum((v for v, _ in other), Fraction(0)) / tops
                            else:
                                session_facts[side] = sum((v for v, _ in other), Fraction(0)) / len(other)
                        counts[key] = counts.get(key, 0) + 1
                        board_facts[side] = counts[key]
                    rules: list = []
                    try:
                        scores = artificial_scores(book, scoring=unit_scoring, responsibility=words,
                                                   session=session_facts, boards=board_facts, rules=rules)
                    except BridgelawError as exc:
                        raise line.where.error(f"{line.label}: {exc.message}", expected=exc.expected,
                                               suggestion=exc.suggestion) from None
                    for side in SIDES:
                        if pairing[side] is not None:
                            own[pairing[side]] = scores[side].value
                    if k == 0:
                        sl.rules = [f"{r.id} ({', '.join(r.cites)})" for r in rules]
                        for side in SIDES:
                            a = scores[side]
                            awarded[side] = a.value
                            sl.side(side).steps = entry_lines(a.entries, a.book)
                    else:
                        for side in SIDES:
                            key, a = pairing[side], scores[side]
                            if key is not None and a.value != awarded[side]:
                                sl.side(side).steps.append(f"{key.split(':')[-1]}: {a.label} on its own "
                                                           f"session facts (rule {a.rule_id})")
            else:
                for pid, share in line.extra.get("own_given", {}).items():     # an individual's, as the file gives it
                    own[contestant_key(line.section, None, pid, "unique")] = share
                for side in SIDES:
                    awarded[side] = line.artificial[side]
                    sl.side(side).steps = [f"{side}: {format_mixed(line.artificial[side] * 100)}% as the file gives it"
                                           if unit_scoring == "matchpoints" else
                                           f"{side}: {format_mixed(line.artificial[side], signed=True)} IMPs as given"]
            if line.mirrored:
                sl.side(line.mirrored).steps.insert(0, f"{line.mirrored}: the file gives only the other side's code "
                                                    f"'{line.code}'; this side's is its mirror")
            sl.awarded = awarded
            for side in SIDES:
                for key in keys[(id(sl), side)]:
                    if key in own and own[key] != awarded[side]:
                        sl.own[key] = _value(own[key], scoring, sb, p)
            if words and line.players is not None:
                line.extra["own_awarded"] = {k.split(":")[-1]: own[k] for k in sl.own}
            for side in SIDES:
                a = awarded[side]
                if a is None:
                    sl.side(side).value = None
                elif scoring == "matchpoints":
                    sl.side(side).value = a * sb.top
                    sl.side(side).steps.append(f"{side} = {format_mixed(a)} × top {format_mixed(sb.top)} = "
                                               f"{format_mixed(a * sb.top)} MP")
                elif scoring == "cross-imps" and p.get(CROSS_ARTIFICIAL) == "per-comparison":
                    comparisons = max(sb.results, 1)
                    v = a * comparisons / sb.divisor
                    sl.side(side).value = v
                    sl.side(side).steps.append(f"{side} = {format_mixed(a, signed=True)} × {comparisons} comparisons "
                                               f"÷ {sb.divisor} = {format_mixed(v, signed=True)} IMPs "
                                               f"({CROSS_ARTIFICIAL}: per-comparison)")
                else:
                    sl.side(side).value = Fraction(a)
    # a file counting 1 per result beaten (PBN MP2): the same scores in half matchpoints
    if scoring == "matchpoints" and session.mp_unit != 1:
        for sb in boards.values():
            sb.top = sb.top * session.mp_unit
            for sl in sb.lines:
                for side in SIDES:
                    if sl.side(side).value is not None:
                        sl.side(side).value *= session.mp_unit
                sl.own = {k: (v * session.mp_unit if v is not None else None) for k, v in sl.own.items()}
    # penalties, percentages
    for sb in boards.values():
        for sl in sb.lines:
            for side in SIDES:
                s = sl.side(side)
                pen = sl.line.penalty.get(side)
                if pen and s.value is not None:
                    amount = pen * sb.top if scoring == "matchpoints" else pen
                    s.value -= amount
                    s.steps.append(f"{side}: procedural penalty {format_mixed(amount)} "
                                   f"{'MP' if scoring == 'matchpoints' else 'IMPs'} → {format_mixed(s.value)}")
                if scoring == "matchpoints" and s.value is not None and sb.top:
                    s.percent = 100 * s.value / sb.top
                unit = "MP" if scoring == "matchpoints" else "IMPs"
                for key in keys[(id(sl), side)]:
                    v = sl.own.get(key, s.value) if key in sl.own else s.value
                    if key in sl.own and pen and v is not None:
                        v -= pen * sb.top if scoring == "matchpoints" else pen
                    player = key.split(":")[-1]
                    ppen = sl.line.player_penalty.get(player)
                    if ppen and v is not None:
                        amount = ppen * sb.top if scoring == "matchpoints" else ppen
                        v -= amount
                        s.steps.append(f"{side}: player {player} bears a procedural penalty of "
                                       f"{format_mixed(amount)} {unit} → {format_mixed(v)} "
                                       f"(rule {sl.line.extra.get('penalty_rule', '?')})")
                    sl.contestants[key] = v
    return ScoredSession(session, book, "MP" if scoring == "matchpoints" else "IMP", boards,
                         _standings(session, boards, keys, p), p)


def _value(a: Any, scoring: str, sb: ScoredBoard, p: dict[str, Any]) -> Fraction | None:
    """An artificial value (share of the top, or IMPs) as the line's score on this board."""
    if a is None:
        return None
    if scoring == "matchpoints":
        return a * sb.top
    if scoring == "cross-imps" and p.get(CROSS_ARTIFICIAL) == "per-comparison":
        return a * max(sb.results, 1) / sb.divisor
    return Fraction(a)


def _to_top(value: Fraction, top: Fraction, session_top: Fraction, unit: Fraction) -> Fraction:
    """Neuberg from a board's top to the session's: (M + 1) × E / A − 1 with M in matchpoints of
    two per result beaten (a file counting one per result is converted there and back), A the
    results the board's top stands for (top ÷ 2 + 1) and E the session's (EBU form; the ACBL's
    (M + ½) × E / A − ½ in its half units is the same)."""
    m, a, e = value / unit, top / unit / 2 + 1, session_top / unit / 2 + 1
    return ((m + 1) * e / a - 1) * unit


def _standings(session: Session, boards: dict[int, ScoredBoard], keys: dict,
               p: dict[str, Any]) -> list[Standing]:
    table: dict[str, Standing] = {}
    tops = [sb.top for sb in boards.values() if sb.top]
    session_top = max(tops) if tops and p.get(TOTALS_TOP) == "session-top" else None
    for key, c in session.contestants.items():
        table[key] = Standing(key, c, c.section, c.direction)
    for number, sb in sorted(boards.items()):
        for sl in sb.lines:
            for side in SIDES:
                for key in keys[(id(sl), side)]:
                    st = table.get(key)
                    if st is None:
                        st = table[key] = Standing(key, None, sl.line.section,
                                                   side if session.pair_numbers == "by-direction" else None)
                    v = sl.contestants.get(key)
                    if v is None:
                        continue
                    top = sb.top
                    if session_top is not None and top and top < session_top:
                        f = _to_top(v, top, session_top, session.mp_unit)
                        st.factored.append(f"board {number}: {format_mixed(v)} of top {format_mixed(top)} → "
                                           f"{format_mixed(f)} of {format_mixed(session_top)} ({TOTALS_TOP}: session-top)")
                        v, top = f, session_top
                    st.total += v
                    st.boards += 1
                    if top:
                        st.available += top
                    if sl.line.kind != "result" or sl.line.penalty or key.split(":")[-1] in sl.line.player_penalty:
                        st.adjusted.append(f"board {number}")
    groups: dict[tuple, list[Standing]] = {}
    for st in table.values():
        groups.setdefault((st.section, st.direction), []).append(st)
    if p.get(TOTALS_BOARDS) == "session-boards":
        most = max((st.boards for st in table.values()), default=0)
        for st in table.values():
            if 0 < st.boards < most:
                before = st.total
                st.total = st.total * most / st.boards
                st.available = st.available * most / st.boards
                st.factored.append(f"total {format_mixed(before)} × {most} boards ÷ {st.boards} played = "
                                   f"{format_mixed(st.total)} ({TOTALS_BOARDS}: session-boards)")
    out = []
    for group_key in sorted(groups, key=lambda k: (k[0], k[1] or "")):
        group = groups[group_key]
        group.sort(key=lambda s: (-(s.percent if s.percent is not None else s.total), s.key))
        previous, rank = None, 0
        for i, st in enumerate(group, 1):
            metric = st.percent if st.percent is not None else st.total
            if metric != previous:
                rank, previous = i, metric
            st.rank = rank
        for st in group:
            tied = sum(1 for o in group if o.rank == st.rank)
            st.rank_text = f"{st.rank}=" if tied > 1 else str(st.rank)
        out.extend(group)
    return out
