"""Conventions learnt from the file: a results file that prints its figures is its own specification.

Where the Laws leave the arithmetic to the scorer (how a board played fewer times is factored and
rounded, what a cross-IMP figure is divided by, how a total is made …), each program chooses, and a
file is reproduced only with its choices. The program's profile (field/profiles.py) is where the
search starts, not the verdict: the session is scored under it, and when every published figure of
the boards and contestants no ruling touches agrees, nothing more is done. When some do not, each
parameter is decided from the figures that reveal it — never by trying every combination of every
value:

* matchpoints: the boards short of results (fewer lines than the session's most, an artificial
  line, or factored) decide the factoring — its form and the count it factors up to together (3
  forms × 2 counts), then its rounding: the step and where a half goes together (a step alone
  cannot be judged without its halves) — from their lines' figures first, then the totals;
* cross-IMPs: a few full boards decide the divisor; each artificial line decides its own convention
  from the IMPs the rulebook gave it (flat, or per comparison at a share of the IMPs);
* butler: the boards that disagree decide the trimming, then the datum's rounding with its halves;
* totals: the contestants' published totals and percentages decide the totals' factoring (to the
  session's top, to its boards) and a cross-IMP total's form (sum, or average a comparison).

A value is changed only when it reproduces strictly more of the figures that decide it. What is
learnt is laid over the rulebook as one layer (``<book>+learnt``, each value's origin "learnt from N
boards of the file"), so a ruling's trace cites it as it cites a profile's value; a value given on
the command line (``--set``, ``--overlay``), or by a profile chosen with ``--profile``, is never
changed. The session's :class:`Learning` says, for each convention, its value, where it came from
and how many of the figures that decide it it reproduces — what the report's heading prints.

The agreement counted here is the one ``--output`` checks before writing (commands/event.py): the
published figures of the boards no ruling touches and of the contestants who played none of them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from ..core.exact import format_decimal
from ..core.rounding import MODES
from ..core.vocab import TEAM_METHODS
from ..rulebook import Rulebook
from ..rulebook import parameters as params
from ..rulebook.model import Dated, Place
from . import score as scoring
from .model import Board, Session
from .score import Check, ScoredSession, score_session

F = Fraction
FORM, EXPECTED = "fieldscore.neuberg.form", "fieldscore.neuberg.expected"
ROUND_TO, ROUND_MODE = "fieldscore.neuberg.round_to", "fieldscore.neuberg.round_mode"
DIVISOR = "fieldscore.cross_imps.divisor"
ARTIFICIAL, SCALE = scoring.CROSS_ARTIFICIAL, scoring.CROSS_SCALE
CROSS_TOTALS = scoring.CROSS_TOTALS
TO_TOP, TO_BOARDS, BYES = scoring.TOTALS_TOP, scoring.TOTALS_BOARDS, scoring.TOTALS_BYES
DROP, DATUM, HALF = "fieldscore.butler.drop", "fieldscore.butler.round_datum_to", "fieldscore.butler.round_half"

# the values tried for each convention (a profile's or rulebook's own value is tried too)
CANDIDATES: dict[str, tuple] = {
    FORM: ("neuberg", "ties", "none"),
    EXPECTED: ("board", "session"),
    ROUND_TO: (F(0), F(1, 100), F(1, 10), F(1, 2), F(1)),
    ROUND_MODE: MODES,
    DIVISOR: ("comparisons", "none", "results"),
    ARTIFICIAL: ("flat", "per-comparison"),
    SCALE: (F(1), F(1, 2)),
    CROSS_TOTALS: ("sum", "per-comparison"),
    TO_TOP: ("none", "session-top"),
    TO_BOARDS: ("none", "session-boards"),
    BYES: ("none", "average"),
    DROP: (F(1), F(0), F(2)),
    DATUM: (F(0), F(10)),
    HALF: ("even", "away"),
}
SAMPLE = 4                  # full boards that decide a cross-IMP divisor


@dataclass
class Convention:
    """One parameter of the session's scoring: its value, where it came from, and the figures that
    decide it — ``agree`` of ``of`` reproduced (``of`` 0: the file shows nothing that decides it)."""

    name: str
    value: Any
    source: str                   # learnt from 3 boards | profile ruter | rulebook wbf-2017 | --set on the command line
    learnt: bool = False
    was: Any = None               # the starting value a learnt one replaced (None: it confirmed it)
    agree: int = 0
    of: int = 0
    tried: tuple = ()

    @property
    def short(self) -> str:
        return self.name.split(".", 1)[-1]

    def show(self, value: Any) -> str:
        return params.show(value, self.name) if self.name in params.PARAMETERS else str(value)

    def text(self) -> str:
        value = self.show(self.value)
        where = self.source
        if self.was is not None:
            where += f"; {self.show(self.was)} before"
        figures = f": {self.agree} of {self.of} figures" if self.of else ": no figure of the file shows it"
        return f"{self.short} {value} — {where}{figures}"


@dataclass
class Learning:
    """What the session's conventions are and how well they reproduce the file."""

    conventions: list[Convention]
    agree: int                    # published figures of unruled boards and contestants that agree
    of: int
    differ: list[Check] = field(default_factory=list)    # those that do not (after learning)
    effects: list[Check] = field(default_factory=list)   # figures the rulings change (published ≠ computed)
    scorings: int = 1             # times the session was scored (1: the starting conventions reproduced it)

    rescore_all: bool = False     # written anyway: --rescore-all (the report says so)

    @property
    def reproduced(self) -> bool:
        return not self.differ

    def refusal(self) -> str:
        """Why a corrected file is not written: the boards and cells not reproduced, and the
        conventions tried (one line)."""
        boards = sorted({c.line.board for c in self.differ if c.line is not None}, key=lambda b: (b is None, b or 0))
        who = sorted({c.what.rsplit(" ", 1)[0] for c in self.differ if c.line is None})
        where = []
        if boards:
            where.append(f"board{'s' if len(boards) > 1 else ''} {', '.join(str(b) for b in boards[:12])}"
                         + (" …" if len(boards) > 12 else ""))
        if who:
            where.append(f"the total{'s' if len(who) > 1 else ''} of {', '.join(who[:8])}" + (" …" if len(who) > 8 else ""))
        cells = "; ".join(f"{c.what}: published {c.published.text}, computed "
                          f"{'-' if c.computed is None else format_decimal(c.computed, 4)}" for c in self.differ[:4])
        more = f"; … {len(self.differ) - 4} more" if len(self.differ) > 4 else ""
        return (f"{len(self.differ)} published figure{'s' if len(self.differ) > 1 else ''} of boards and contestants "
                f"no ruling touches {'are' if len(self.differ) > 1 else 'is'} not reproduced ({' and '.join(where)}: "
                f"{cells}{more}); conventions tried: {self.tried()}")

    def tried(self) -> str:
        """The conventions tried, for a refusal: ``neuberg.round_to 0, 1/100, 1/10 …``."""
        return "; ".join(f"{c.short} {', '.join(c.show(v) for v in c.tried)}"
                         for c in self.conventions if c.tried) or "none (the file shows no convention to learn)"


# --- which figures count ---------------------------------------------------------------------------

def ruled_boards(session: Session) -> set:
    """The boards a ruling (or an Adjustment cell read back) touches."""
    out = set()
    for number, b in session.boards.items():
        for l in b.lines:
            if l.ruling is not None or l.kind in ("adjusted", "split") or l.penalties or l.extra.get("penalty_cells"):
                out.add(number)
                break
    return out


def _touched(ss: ScoredSession, ruled: set) -> set[str]:
    """The contestants who played a ruled board (their totals, percentages and places follow the ruling)."""
    out: set[str] = set()
    for number in ruled:
        sb = ss.boards.get(number)
        if sb is None:
            continue
        for sl in sb.lines:
            for side in ("NS", "EW"):
                out.update(ss.keys.get((id(sl), side), ()))
    return out


def split(ss: ScoredSession) -> tuple[list[Check], list[Check]]:
    """The published figures of the boards and contestants no ruling touches, and those the rulings
    change. Places count among the unruled only when there is no ruling (a ruling moves others' places);
    at teams, with a ruling, every match, team and pair figure counts among its effects (a ruled room
    changes its match, the teams' totals and places, and its pairs' IMPs). Worked out once for the
    session's checks (:meth:`ScoredSession.checks`, itself kept for a way of printing and a ranking):
    learning asks three times."""
    checks = ss.checks()
    made = ss.__dict__.get("_checks")              # the checks' own record: a new one for new checks
    known = ss.__dict__.get("_split")
    if known is not None and known[0] is made:
        return list(known[1]), list(known[2])
    plain, effects = [], []
    if not checks:                                 # a file that publishes no figure: nothing to split
        ss.__dict__["_split"] = (made, plain, effects)
        return [], []
    ruled = ruled_boards(ss.session)
    touched = _touched(ss, ruled)
    for c in checks:
        if c.line is not None:
            (effects if c.line.board in ruled else plain).append(c)
        elif (c.key == "place" or ss.teams is not None) and ruled:
            effects.append(c)
        else:
            key = c.what.rsplit(" ", 1)[0]
            (effects if key in touched else plain).append(c)
    ss.__dict__["_split"] = (made, plain, effects)
    return list(plain), list(effects)


# --- the search -------------------------------------------------------------------------------------

def learnable(book: Rulebook, name: str, profile_forced: bool, known: Callable[[str], bool]) -> bool:
    """A value the file may decide: the rulebook's own, or the program's profile (unless --profile
    chose it); never a --set or an overlay's."""
    if name not in book.parameters:
        return False
    where = book.in_force(name).place.what
    if where.startswith("profile "):
        return not profile_forced
    return known(where)


def _source(book: Rulebook, name: str) -> str:
    where = book.in_force(name).place.what
    if where.startswith("profile "):
        return where.split(" (", 1)[0]
    if where.startswith("--set"):
        return where
    return f"rulebook {where}" if "+" not in where and " " not in where else where


def _clean(session: Session, ruled: set) -> list[Board]:
    return [b for n, b in session.boards.items() if n not in ruled]


def _rescored(session: Session, b: Board, book: Rulebook, p: dict, most: int):
    """Board `b` scored under the board-level parameters `p` (in the file's matchpoint unit)."""
    method = session.scoring
    session_wide = method == "matchpoints" and p.get(EXPECTED) == "session"
    sb = scoring._score_board(b, method, scoring.UNITS[method], p, most if session_wide else None, book)
    if method == "matchpoints" and session.mp_unit != 1:
        sb.top = sb.top * session.mp_unit
        for sl in sb.lines:
            for s in (sl.NS, sl.EW):
                if s.value is not None:
                    s.value *= session.mp_unit
        scoring._percents(sb)
    return sb


def _board_agreement(session: Session, boards: list[Board], book: Rulebook, p: dict, most: int) -> tuple[int, int]:
    """How many published cells of the result lines of `boards` the board-level parameters `p` reproduce."""
    agree = total = 0
    for b in boards:
        sb = _rescored(session, b, book, p, most)
        for c in sb.checks(session.figures):
            if c.line.kind == "result":
                total += 1
                agree += c.agrees
    return agree, total


def _trial_agreement(ss: ScoredSession, boards: list[Board], book: Rulebook, p: dict, most: int,
                     touched: set[str]) -> tuple[int, int]:
    """The published cells of `boards`' result lines, and the unruled contestants' totals and
    percentages, under the board-level parameters `p`: only `boards` are scored again (the session's
    other boards keep their scores), so a convention that shows only in the totals (a file that
    prints no line figures, or rounds what it prints) is decided from them too."""
    session = ss.session
    method = session.scoring
    trial, keys = dict(ss.boards), dict(ss.keys)
    agree = total = 0
    for b in boards:
        sb = _rescored(session, b, book, p, most)
        orig = ss.boards[b.number]
        for tl, sl in zip(sb.lines, orig.lines):
            for side in ("NS", "EW"):
                ks = ss.keys.get((id(sl), side), [])
                keys[(id(tl), side)] = ks
                if sl.line.kind == "result":
                    v = tl.side(side).value
                else:           # an artificial share of the trial's top; a line not played keeps nothing
                    a = (sl.awarded or {}).get(side)
                    v = a * sb.top if method == "matchpoints" and a is not None and not isinstance(a, str) \
                        else sl.side(side).value
                for k in ks:
                    tl.contestants[k] = sl.own.get(k, v) if sl.own and method != "matchpoints" else v
        trial[b.number] = sb
        for c in sb.checks(session.figures):
            if c.line.kind == "result":
                total += 1
                agree += c.agrees
    view = dataclasses.replace(ss, boards=trial, keys=keys)
    a, t = _standing_agreement(view, {**ss.parameters, **p}, touched)
    return (agree, a), total + t        # the board's own cells first, then the totals


def _choose(names: list[str], p: dict, evaluate: Callable[[dict], tuple[int, int]],
            tried: dict[str, list]) -> tuple[dict, tuple[int, int]]:
    """The values of `names` (decided together: their candidates' combinations) that reproduce most
    (`evaluate` gives (agreement, figures); an agreement may be a tuple, compared in order), the
    starting values kept on a tie."""
    best_p, best = p, evaluate(p)
    best_changes = 0
    combos: list[dict] = [{}]
    for n in names:
        combos = [{**c, n: v} for c in combos for v in CANDIDATES[n]]
    for n in names:
        tried.setdefault(n, [])
        for v in CANDIDATES[n]:
            if v not in tried[n]:
                tried[n].append(v)
    for combo in combos:
        trial = {**p, **combo}
        if trial == p:
            continue
        got = evaluate(trial)
        changes = sum(1 for n in names if trial[n] != p.get(n))
        if got[0] > best[0] or (got[0] == best[0] and best_p is not p and changes < best_changes):
            best_p, best, best_changes = trial, got, changes      # on a tie, the fewest values changed
    return best_p, best


def _method_names(session: Session, book: Rulebook) -> dict[str, Any]:
    method = session.scoring
    names = list(scoring.PARAMETERS[method])
    if method == "cross-imps":
        names += [ARTIFICIAL, SCALE]
    return {n: book.parameters[n] for n in names if n in book.parameters}


def _short_boards(session: Session, boards: list[Board], most: int) -> list[Board]:
    return [b for b in boards if any(l.kind == "artificial" for l in b.lines)
            or sum(1 for l in b.lines if l.kind != "not-played") < most]


def _standing_agreement(ss: ScoredSession, p: dict, touched: set[str]) -> tuple[int, int]:
    standings = scoring._standings(ss.session, ss.boards, ss.keys, p, ranked=False)   # totals, not places
    figures = ss.session.figures
    agree = total = 0
    for st in standings:
        c = st.contestant
        if c is None or st.key in touched:
            continue
        for key in ("total", "percent"):
            pub = c.published.get(key)
            if pub is not None:
                total += 1
                agree += pub.agrees(st.total if key == "total" else st.percent, figures)
    return agree, total


def _artificial_agreement(ss: ScoredSession, p: dict, ruled: set) -> tuple[int, int]:
    """Each artificial line's published IMPs against its award counted flat or per comparison."""
    agree = total = 0
    for number, sb in ss.boards.items():
        if number in ruled:
            continue
        for sl in sb.lines:
            if sl.line.kind != "artificial" or not sl.awarded:
                continue
            for side in ("NS", "EW"):
                pub, a = sl.line.published.get(side), sl.awarded.get(side)
                if pub is None or a is None or isinstance(a, str):
                    continue
                total += 1
                agree += pub.agrees(scoring._value(a, "cross-imps", sb, p))
    return agree, total


def with_learnt(book: Rulebook, values: dict[str, Any], boards: dict[str, int]) -> Rulebook:
    """`book` with the learnt values as one layer, ``<book>+learnt``: each value's origin "learnt from
    N boards of the file" (as ``--set`` puts its values: the rulebook's other values unchanged)."""
    if not values:
        return book
    dated = dict(book.dated)
    for name, value in values.items():
        n = boards.get(name, 0)
        what = f"learnt from {n} {'board' if n == 1 else 'boards'} of the file" if name not in TOTAL_NAMES \
            else f"learnt from {n} {'contestant' if n == 1 else 'contestants'}' totals"
        dated[name] = [Dated(value, None, None, (), Place(what))]
    text = "\n".join(f"{k}={v}" for k, v in sorted(values.items()))
    return book._derived(dated=dated, suffix="+learnt", extra=text)


TOTAL_NAMES = (CROSS_TOTALS, TO_TOP, TO_BOARDS, BYES)


def score_learning(session: Session, book: Rulebook, *, profile_forced: bool = False, profile: Any = None,
                   known: Callable[[str], bool] = lambda where: True, progress: Any = None,
                   rebook: Callable[[Rulebook], Rulebook] | None = None, report: bool = True) -> ScoredSession:
    """Score `session` under `book` (as in force on its day); when a published figure of an unruled
    board or contestant is not reproduced, learn the conventions that reproduce it and score again.
    `rebook` turns a book with learnt values into the one in force on the session's day; `profile`
    the program's profile chosen (profiles.Profile), which may say who is ranked with whom. The scored
    session's ``learning`` says what was learnt (unless not `report`)."""
    ss = score_session(session, book, progress=progress)
    if session.matches or session.scoring in TEAM_METHODS or session.scoring is None:
        if report:
            ss.learning = _report(ss, book, {}, {}, {}, 1, profile_forced, known)
        return ss
    plain, _ = split(ss)
    base = book
    learnt: dict[str, Any] = {}
    decided_by: dict[str, int] = {}
    tried: dict[str, list] = {}
    scorings = 1
    if any(not c.agrees for c in plain):
        ruled = ruled_boards(session)
        clean = _clean(session, ruled)
        method = session.scoring
        most = max((sum(1 for l in b.lines if l.kind != "not-played") for b in session.boards.values()), default=0)
        p0 = _method_names(session, book)
        free = {n for n in p0 if learnable(book, n, profile_forced, known)}
        p = dict(p0)
        touched0 = _touched(ss, ruled)
        # a file whose totals disagree decides the board conventions with its totals too
        with_totals = any(not c.agrees for c in plain if c.line is None)

        def rescored(values: dict[str, Any]) -> ScoredSession:
            """The session scored again with `values` learnt too (over the starting book)."""
            learnt.update(values)
            return score_session(session, (rebook or (lambda b: b))(with_learnt(base, learnt, decided_by)),
                                 progress=progress)

        def board_step(names: list[str], boards: list[Board]) -> None:
            nonlocal p
            names = [n for n in names if n in free]
            if not names or not boards:
                return
            if with_totals:
                evaluate = lambda trial: _trial_agreement(ss, boards, book, trial, most, touched0)   # noqa: E731
            else:
                evaluate = lambda trial: _board_agreement(session, boards, book, trial, most)       # noqa: E731
            p, _ = _choose(names, p, evaluate, tried)
            for n in names:
                decided_by[n] = len(boards)

        bad_boards = {c.line.board for c in plain if c.line is not None and not c.agrees}
        if method == "matchpoints":
            marked = {id(b) for b in _short_boards(session, clean, most)}
            short = [b for b in clean if id(b) in marked or ss.boards[b.number].factored]
            board_step([FORM, EXPECTED], short)
            board_step([ROUND_TO, ROUND_MODE], short)
        elif method == "cross-imps":
            full = sorted((b for b in clean if not any(l.kind != "result" for l in b.lines)),
                          key=lambda b: -len(b.lines))[:SAMPLE]
            board_step([DIVISOR], full)
        elif method == "butler":
            boards = [b for b in clean if b.number in bad_boards] or clean
            board_step([DROP], boards)
            board_step([DATUM, HALF], boards)
        changed = {n: v for n, v in p.items() if v != p0.get(n)}
        if changed:
            ss = rescored(changed)
            scorings += 1
        # from the scored session: each artificial line's own convention, then the totals
        touched = _touched(ss, ruled)
        later: dict[str, Any] = {}
        if method == "cross-imps":
            names = [n for n in (ARTIFICIAL, SCALE) if n in free]
            if names:
                q = {**p, ARTIFICIAL: p.get(ARTIFICIAL, "flat"), SCALE: p.get(SCALE, F(1))}
                q2, (a, t) = _choose(names, q, lambda trial: _artificial_agreement(ss, trial, ruled), tried)
                if t:
                    for n in names:
                        decided_by[n] = sum(1 for sb in ss.boards.values() if sb.board.number not in ruled
                                            and any(sl.line.kind == "artificial" for sl in sb.lines))
                        if q2[n] != p.get(n):
                            later[n] = q2[n]
        totals = [n for n in ((CROSS_TOTALS, TO_BOARDS, BYES) if method == "cross-imps" else
                              (TO_TOP, TO_BOARDS, BYES) if method == "matchpoints" else (TO_BOARDS, BYES)) if n in free]
        if totals:
            q = dict(ss.parameters)
            q2, (a, t) = _choose(totals, q, lambda trial: _standing_agreement(ss, trial, touched), tried)
            for n in totals:
                decided_by[n] = sum(1 for st in ss.standings if st.contestant is not None and st.key not in touched
                                    and st.contestant.published)
                if q2[n] != q.get(n):
                    later[n] = q2[n]
        if later:
            ss = rescored(later)
            scorings += 1
    printing = _learn_figures(ss, profile_forced)
    ranking = _learn_ranking(ss, profile_forced, profile)
    if report:
        ss.learning = _report(ss, base, learnt, decided_by, tried, scorings, profile_forced, known)
        ss.learning.conventions.extend(c for c in (printing, ranking) if c is not None)
    return ss


def _learn_figures(ss: ScoredSession, profile_forced: bool) -> Convention | None:
    """How the file prints its figures (decimal, or 32-bit floats as BriAn does), from the unruled
    figures that disagree."""
    session = ss.session
    if session.matches:
        return None
    start = session.figures
    plain, _ = split(ss)
    agree = sum(c.agrees for c in plain)
    if agree == len(plain) or profile_forced:
        return None
    other = "float32" if start == "decimal" else "decimal"
    session.figures = other
    got = sum(c.agrees for c in split(ss)[0])
    if got > agree:
        return Convention("figures", other, f"learnt from {len(plain)} figures", learnt=True, was=start,
                          agree=got, of=len(plain), tried=("decimal", "float32"))
    session.figures = start
    return None


RANKINGS = ("together", "by-direction", "by-section", None)


def _place_agreement(ss: ScoredSession) -> tuple[int, int]:
    cs = [c for c in ss.checks() if c.key == "place"]
    return sum(c.agrees for c in cs), len(cs)


def _learn_ranking(ss: ScoredSession, profile_forced: bool, profile: Any) -> Convention | None:
    """Who is ranked with whom, from the published places (a file with no ruling: a ruling moves
    places): the file's own word (USEBIO WINNER_TYPE) or a profile chosen with --profile is kept."""
    session = ss.session
    if session.matches or ruled_boards(session):
        return None
    start = session.ranking
    agree, of = _place_agreement(ss)
    if not of:
        return None
    source = "the file (its WINNER_TYPE)" if session.ranking_from_file else \
        f"profile {profile.id}" if profile is not None and profile.ranking else \
        "each section and direction apart (no profile says)"
    learnt = False
    tried: tuple = ()
    if agree < of and not session.ranking_from_file and not profile_forced:
        tried = RANKINGS
        best = (agree, start)
        for value in RANKINGS:
            if value == start:
                continue
            session.ranking = value
            ss.__dict__.pop("standings", None)
            got, _ = _place_agreement(ss)
            if got > best[0]:
                best = (got, value)
        session.ranking = best[1]
        ss.__dict__.pop("standings", None)
        if best[1] != start:
            learnt, agree = True, best[0]
            source = f"learnt from {of} places"
    c = Convention("ranking", session.ranking or "by-section-and-direction", source, learnt=learnt, agree=agree,
                   of=of, tried=tuple(v or "by-section-and-direction" for v in tried))
    if learnt:
        c.was = start or "by-section-and-direction"
    return c


def _deciding(ss: ScoredSession, name: str, plain: list[Check], short_boards: Callable[[], set]) -> list[Check]:
    """The unruled published figures a convention decides (`short_boards`: the numbers of the boards
    with fewer results than the most, or an artificial score)."""
    lines = [c for c in plain if c.line is not None]
    if name in TOTAL_NAMES:
        return [c for c in plain if c.line is None and c.key in ("total", "percent")]
    if name in (ARTIFICIAL, SCALE):
        return [c for c in lines if c.line.kind == "artificial"]
    if name in (FORM, EXPECTED, ROUND_TO, ROUND_MODE):
        short = short_boards()
        cells = [c for c in lines if c.line.board in short and c.line.kind == "result"]
        # a file that prints no line figures shows its factoring in its totals
        return cells or ([c for c in plain if c.line is None and c.key in ("total", "percent")] if short else [])
    return [c for c in lines if c.line.kind == "result"]


def _report(ss: ScoredSession, base: Rulebook, learnt: dict, decided_by: dict, tried: dict, scorings: int,
            profile_forced: bool, known: Callable[[str], bool]) -> Learning:
    plain, effects = split(ss)
    book = ss.book
    convs = []
    session = ss.session
    short: list[set] = []

    def short_boards() -> set:          # worked out once, for the first convention that asks
        if not short:
            most = max((sum(1 for l in b.lines if l.kind != "not-played") for b in session.boards.values()), default=0)
            short.append({b.number for b in _short_boards(session, list(session.boards.values()), most)})
        return short[0]
    for name in ss.parameters:
        if not name.startswith("fieldscore."):
            continue
        deciding = _deciding(ss, name, plain, short_boards)
        c = Convention(name, ss.parameters[name], _source(book, name), learnt=name in learnt,
                       agree=sum(c.agrees for c in deciding), of=len(deciding), tried=tuple(tried.get(name, ())))
        if name in learnt:
            c.was = base.parameters.get(name) if name in base.parameters else None
        convs.append(c)
    return Learning(convs, sum(c.agrees for c in plain), len(plain), [c for c in plain if not c.agrees],
                    [c for c in effects if not c.agrees], scorings)
