"""The adjusted and artificial lines of a field, ruled by the case ruling path
(:func:`bridgelaw.ruling.build.rule_case`, the stages of ``bridgelaw rule``): each line's ruling
is a :class:`~bridgelaw.ruling.result.Ruling` with its trace, which the field keeps and the
renderers show.

An assigned adjusted score is ruled as its *equivalent case* — the case a TD would write for that
table: its possible outcomes (``without_infraction``, ``legal:`` flags and ``judged:`` words kept),
its non-offending side, the board, and the table's field as a case gives it: at matchpoints the
results of the other tables (``field:``), at IMPs the one other table (``other_table:``). The
ruling's ``assigned`` results, per side, are what the line adds to that side's field, and the field
scores them (``Ruling.scored``). The other adjusted tables of the board are not in a table's case
(their scores are being decided too), so that no ruling waits for another. When a case cannot give
the field (IMPs against several tables: cross-IMPs, butler; a teams room whose other room is not a
result), the table is ruled in table points — its real results, as a TD writes them on the slip —
and the field scores what that ruling assigns.

An artificial adjusted score is ruled as an artificial case (``artificial:`` responsibilities,
the session facts the artificial stage asks for, the board's top) once the session's other boards are scored
(:mod:`.score`); an outcome word written for it (avg-plus …) is read by the artificial stage's rules,
each decision kept for the line's trace. A procedural penalty is ruled by the case path's penalty
stage (:mod:`.penalties`).
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable

from ..core import bridge
from ..core.errors import BridgelawError
from ..core.vocab import RESPONSIBILITY, SIDES, Side, other, unit_scoring
from ..rulebook import Decision, Rulebook
from ..ruling.build import rule_case
from ..ruling.case import Case, assigned_case
from ..ruling.casechecks import weighted_components
from ..ruling.caseschema import Artificial, Board as CaseBoard, BoardCount, CaseModel, SplitWeighting
from ..ruling.outcomes import Component, UnitScore
from ..ruling.result import Ruling
from ..ruling.scorer import basis
from ..ruling.trace import Entry, Trace
from . import reuse
from .model import Board, Line

__all__ = ["Ruler", "Reading", "at", "artificial_ruling", "written_results"]

Raise = Callable[..., BridgelawError]          # (path, message, **kw) → the error at that place


@dataclass(frozen=True)
class Ruled:
    """A table's ruling and, per side, the (weight, (side, index)) of each outcome its score is
    formed from: the index into that side's written list."""

    ruling: Ruling
    assigned: dict[Side, list[tuple[Fraction, tuple[Side, int]]]]


def written_results(doc: Any, value: Any, where: list) -> tuple[dict[Side, list[Component]], bool]:
    """An adjusted score as a TD writes it in a traveller or a rulings file (one result, a weighted or
    judged list, or a split ``{NS: …, EW: …}``; validated as a case's ``without_infraction``): each
    side's components, and whether it is split. Each outcome must be a result or a raw score — the
    field scores it against the other tables — not a score in the event's unit (an error at it)."""
    split = isinstance(value, SplitWeighting)
    if split:
        written = {s: weighted_components(doc, getattr(value, s), where + [s]) for s in SIDES}
    else:
        comps = weighted_components(doc, value, where)
        written = {"NS": comps, "EW": comps}
    base = len(where) + split
    for side in SIDES:
        for c in written[side]:
            if isinstance(c.outcome, UnitScore):
                raise doc.error(list(c.path) + (["result"] if len(c.path) > base else []),
                                f"'{c.outcome.text}' is a score in the event's unit; an adjusted table needs the "
                                "result or the raw score, to rescore the other tables against it",
                                expected=bridge.RESULT_HINT, suggestion="for average plus/minus use artificial:")
    return written, split


def _where(line: Line) -> str:
    """How a rulings entry names `line`: its table, else (a teams room, a pair with no table) its pairs."""
    if line.table is not None:
        return f"table: {line.table}"
    return ", ".join(f"{side}: {pair}" for side, pair in (("ns", line.ns), ("ew", line.ew)) if pair is not None)


def at(where: Any) -> Raise:
    """Errors made at one place (a line of a results file), whatever the path."""
    return lambda path, message, **kw: where.error(message, **{k: v for k, v in kw.items() if k != "key"})


class Ruler:
    """Rules the adjusted lines of one board, and reads artificial words, under `book` as in force
    on `as_of`; `method` is the board's scoring (matchpoints, cross-imps, butler); errors are made
    by `error(path, message, **kw)` (a place in a traveller, an adjustments or a rulings file). A
    Ruler is made for a board whose lines have their kinds: each adjusted line's case has the
    board's other results as its field."""

    def __init__(self, book: Rulebook, method: str, board: Board, as_of: dt.date | None, warnings: list[str],
                 error: Raise, doc: Any = None) -> None:
        self.book, self.method, self.board, self.as_of = book, method, board, as_of
        self.dated = book.at(as_of)
        self.scoring = unit_scoring(method)
        self.warnings, self.error, self.doc = warnings, error, doc
        self.case_board = CaseBoard.model_construct(number=board.number, vulnerability=board.vulnerability or "None")
        self._rulings: dict[tuple, Ruled] = {}
        self._field: list[Any] | None = None    # the board's results, and a case's scoring against them,
        self._basis: Any = None                 # worked out once
        self._words: dict[tuple, tuple[dict[Side, str], dict[Side, str]]] = {}

    # --- assigned adjusted scores ------------------------------------------------------------------

    def rule(self, line: Line, path: list, individual: bool = False) -> None:
        """Rule `line`'s written outcomes (set line.ruled and line.parts). Without a non-offending side
        the table is ruled both ways, and must come out the same (a single outcome each way can only
        be assigned as itself, so once is enough)."""
        raw, nos = line.written, line.non_offending
        single = all(len(raw[side]) == 1 for side in SIDES)
        rulings = {n: self._ruled(line, n, path, individual)
                   for n in ((nos,) if nos else ("NS",) if single else SIDES)}
        ruled = rulings[nos or "NS"]
        if len(rulings) == 2 and rulings["NS"].assigned != rulings["EW"].assigned:
            rule = next(r for r in ruled.ruling.rules if r.stage == "expectation")
            raise self.error(path, f"which side is non-offending decides this adjusted score under rule {rule.id} "
                             f"({self.book.id})", expected="non_offending: NS or EW on the table",
                             suggestion=f"e.g. {{{_where(line)}, non_offending: NS, adjusted: …}}")
        line.ruled = ruled.ruling
        line.parts = {side: [Component(raw[s][k].outcome, weight, raw[s][k].legal, raw[s][k].path)
                             for weight, (s, k) in ruled.assigned[side]] for side in SIDES}
        self.warnings.extend(f"{line.label}: {w}" for w in ruled.ruling.warnings)

    def field_of(self, line: Line) -> list[Any]:
        """The results of the board's other tables, as the line's case gives its field (the same for
        every adjusted line: none of them is a result); at teams, the other room of its match."""
        if line.match is not None:
            return [o.result for o in line.match.lines.get(line.board, []) if o is not line and o.kind == "result"]
        if self._field is None:
            self._field = [other.result for other in self.board.lines if other.kind == "result"]
        return self._field

    def _ruled(self, line: Line, nos: Side, path: list, individual: bool) -> Ruled:
        raw, split = line.written, line.split
        field = self.field_of(line)
        # IMPs against several tables (or, at teams, a room whose other room is not a result): a case
        # cannot give that field, so the table is ruled in table points and the field scores the results
        in_points = (self.scoring == "imps" or line.match is not None) and len(field) != 1
        shape = tuple(tuple((c.outcome, c.weight, c.legal, c.judged) for c in raw[side]) for side in SIDES)
        key = (nos, split, individual, in_points, shape, id(line.match), id(line.infraction))
        hit = self._rulings.get(key)
        if hit is None:
            hit = self._rulings[key] = reuse.ruling(
                ("assigned", id(self.board), line.label) + key,
                lambda: self._rule(line, nos, path, field, in_points, individual), lambda ruled: ruled.ruling)
        return hit

    def _rule(self, line: Line, nos: Side, path: list, field: list, in_points: bool, individual: bool) -> Ruled:
        raw = line.written
        position: dict[int, tuple[Side, int]] = {}      # id of an outcome in the case → (side, index) in raw
        lists: dict[int, list[Component]] = {}
        for side in SIDES:
            if id(raw[side]) not in lists:
                made = []
                for k, c in enumerate(raw[side]):
                    # a fresh outcome object for each written one, so that the ruling's assigned
                    # outcomes point back to the written component (two may be the same result)
                    outcome = copy.copy(c.outcome)
                    position[id(outcome)] = (side, k)
                    made.append(replace(c, outcome=outcome))
                lists[id(raw[side])] = made
        without = {side: lists[id(raw[side])] for side in SIDES}
        kw: dict[str, Any] = {}
        if not in_points:
            kw = {"field": field} if self.scoring == "matchpoints" else {"other_table": field[0]}
        doc = self.doc if line.infraction is None or self.doc is None else _Under(self.doc, path[:-1])
        case = assigned_case(doc, title=f"{line.label}", scoring=self.scoring, board=self.case_board,
                             non_offending=nos, without=without, split=line.split, **kw)
        if line.match is not None:      # a teams match: the other room is this line's own field
            case.model.event = "teams"
            case.model.infraction = line.infraction
            case.scoring_basis = basis(case)
        else:                           # a pairs field (cross-IMPs and butler too) or an individual's
            case.model.event = "individual" if individual else "pairs"
            if not in_points:           # every adjusted table of the board has the same field
                self._basis = case.scoring_basis = self._basis or basis(case)
        try:
            ruling = rule_case(case, self.book, self.as_of)
        except BridgelawError as exc:
            if exc.line is not None:
                raise
            message = exc.message.removeprefix(f"{getattr(self.doc, 'file', None)}: ")
            raise self.error(path, message, expected=exc.expected, suggestion=exc.suggestion) from None
        # the results each side's score is formed from; when the award is no weighted sum of results (an
        # empowering law's floor such as average plus), the outcomes its B and B' were formed from
        parts = ruling.assigned or ruling.formed
        if parts is None:               # the law the infraction names gives an artificial score (by responsibility)
            words = ", ".join(f"{side}: {ruling.scores[side].label or 'no score'}" for side in SIDES)
            law = f"Law {line.infraction.law}" if line.infraction is not None else "the ruling"
            raise self.error(path[:-1] + (["infraction"] if line.infraction is not None else []),
                             f"under {self.book.id}, {law} gives an artificial adjusted score by responsibility "
                             f"({words}), not a score formed from results",
                             expected="an artificial: ruling for this line",
                             suggestion=f"artificial: {{{words}}} in place of adjusted: and infraction:")
        return Ruled(ruling, {side: [(w, position[id(o)]) for w, o in parts[side]] for side in SIDES})

    # --- artificial adjusted scores: the words --------------------------------------------------------

    def responsibilities(self, written: dict[Side, str]) -> Reading:
        """Each side's responsibility, and the rulebook's outcome word for it: a responsibility word
        is taken as written; an outcome word (avg-plus, average, avg-minus) stands for the
        responsibility whose artificial rule gives that outcome (the other side's as written). How
        each outcome word was read — the artificial stage's decision for the responsibilities found,
        made in a trace — is kept for the line's trace (``word`` entries)."""
        key = (written["NS"], written["EW"])
        hit = self._words.get(key)
        if hit is not None:
            return hit
        options = [[w] if w in RESPONSIBILITY else list(RESPONSIBILITY) for w in key]
        found = []
        for ns, ew in itertools.product(*options):
            given = {"NS": ns, "EW": ew}
            decided = {side: self.word(given, side) for side in SIDES}
            words = {side: decided[side].rule.outcome for side in SIDES}
            if all(written[s] in (given[s], words[s]) for s in SIDES):
                entries = [Entry("word", {"of": s, "word": written[s], "responsibility": given[s],
                                          "other": given[other(s)], "decision": decided[s]})
                           for s in SIDES if written[s] != given[s]]
                found.append(Reading(given, words, entries))
        if len(found) != 1:
            said = f"NS {written['NS']}, EW {written['EW']}"
            if not found:
                message = f"no responsibilities give {said} in {self.book.id}"
            else:
                message = f"{said} is ambiguous in {self.book.id}: " + " or ".join(
                    f"NS {r.responsibility['NS']}, EW {r.responsibility['EW']}" for r in found)
            raise BridgelawError(message, expected="the responsibility of each side: in-no-way-at-fault, "
                                 "partly-at-fault or directly-at-fault")
        self._words[key] = found[0]
        return found[0]

    def word(self, responsibility: dict[Side, str], side: Side) -> Decision:
        """The artificial stage's decision (its rule's outcome word: avg-plus …) for a side's
        responsibility, before any session facts — decided in a trace, as every decision is: how the
        input's words are read, not the ruling (the line is ruled when it is scored)."""
        facts = {"responsibility": responsibility[side], "other_responsibility": responsibility[other(side)],
                 "scoring": self.scoring, "session": None, "boards": None}
        trace = Trace(self.dated)
        trace.decide("artificial", facts, side=side)
        return trace.entries[0].data["decision"]


@dataclass(frozen=True)
class Reading:
    """Artificial words read: each side's responsibility, the rulebook's outcome word for it, and how
    each outcome word written was read (``word`` entries, each with the artificial stage's decision)."""

    responsibility: dict[Side, str]
    words: dict[Side, str]
    entries: list[Entry]


# --- artificial scores at scoring time ---------------------------------------------

def artificial_ruling(book: Rulebook, *, method: str, board: Board, responsibility: dict[Side, str],
                      session: dict[Side, Fraction], boards: dict[Side, int], top: Fraction | None,
                      event: str, title: str) -> Ruling:
    """The ruling on an artificial adjusted score, as a case: the responsibilities, the contestants'
    session scores and their boards without a result this session, and at matchpoints the board's top (results_on_board:
    the results its top stands for), so that each side's score is in the board's matchpoints."""
    scoring = unit_scoring(method)
    counts = BoardCount.model_construct(**{s: boards.get(s) for s in SIDES}) if boards else None
    results = int(top / 2) + 1 if scoring == "matchpoints" and top is not None else None
    m = CaseModel.model_construct(
        title=title, scoring=scoring, event=event,
        board=CaseBoard.model_construct(number=board.number, vulnerability=board.vulnerability or "None"),
        artificial=Artificial.model_construct(NS=responsibility["NS"], EW=responsibility["EW"]),
        artificial_boards_this_session=counts, results_on_board=results)
    case = Case(model=m, doc=None, without=None, split=False, instead=None, session=dict(session))
    key = ("artificial", method, id(board), title, tuple(responsibility.items()), tuple(sorted(session.items())),
           tuple(sorted(boards.items())), top, event)
    return reuse.ruling(key, lambda: rule_case(case, book, book.as_of))


class _Under:
    """A case's document for a ruling of a rulings file: a path in the case is a path under the
    ruling's entry (its infraction's law, its findings)."""

    def __init__(self, doc: Any, prefix: list) -> None:
        self.doc, self.prefix, self.file = doc, list(prefix), getattr(doc, "file", None)

    def error(self, path: list, message: str, **kw: Any) -> BridgelawError:
        return self.doc.error(self.prefix + list(path), message, **kw)
