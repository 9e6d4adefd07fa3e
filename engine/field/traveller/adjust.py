"""The adjusted and artificial tables of a traveller, ruled by the same stages as ``bridgelaw rule``.

An assigned adjusted score (``adjusted:``) becomes a case — the table's possible outcomes as
``without_infraction`` — and :func:`bridgelaw.ruling.build.rule_case` rules it: the rulebook's
expectation stage decides which outcomes count and how (weighted average, legal outcomes only,
most favourable likely …). The ruling's ``assigned`` outcomes, per side, are what the table adds
to that side's field. In the case each outcome stands as its rank by points, the order every
scoring method keeps (see :meth:`TableReader.rule`).

An artificial adjusted score goes through :func:`bridgelaw.ruling.artificial.artificial_scores`, the
artificial stage that case rulings use. ``avg-plus`` and the other outcome words stand for the
responsibility whose artificial rule, in this rulebook, gives that outcome.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core import bridge
from ... import rulebook as rulebooks
from ...ruling.artificial import artificial_scores
from ...core.vocab import SIDES, Side
from ...ruling.case import assigned_case
from ...ruling.casechecks import weighted_components
from ...ruling.caseschema import Board, SplitWeighting
from ...ruling.outcomes import Component, UnitScore
from ...core.errors import BridgelawError
from ...core.exact import format_mixed
from ...ruling.build import rule_case
from ...ruling.result import Ruling
from ...rulebook.stages import RESPONSIBILITY
from ...core.yamlio import Document
from .model import KINDS, TableLine, _Scores



@dataclass(frozen=True)
class Ruled:
    """A table's ruling and, per side, the (weight, (side, index)) of each outcome its score is
    formed from: the index into that side's written list."""

    ruling: Ruling
    assigned: dict[Side, list[tuple[Fraction, tuple[Side, int]]]]


class TableReader:
    """Turns a table's validated scores into a TableLine, ruling its adjusted or artificial score.

    `book` is the rulebook as chosen (with any what-if); `as_of` the day it is read at; errors
    point into `doc`."""

    def __init__(self, doc: Document | None, book: rulebooks.Rulebook, scoring: str, board: Board,
                 as_of: dt.date | None, warnings: list[str]) -> None:
        self.doc, self.book, self.scoring, self.board, self.as_of = doc, book, scoring, board, as_of
        self.dated = book.at(as_of)
        self.vulnerability = board.vulnerability
        self.unit_scoring = "matchpoints" if scoring == "matchpoints" else "imps"
        self.warnings = warnings
        self._rulings: dict[tuple, Ruled] = {}
        self._words: dict[tuple, dict[Side, str]] = {}

    def error(self, path: list, message: str, **kw: Any) -> BridgelawError:
        return self.doc.error(path, message, **kw)

    def points(self, outcome: Any, path: list) -> int:
        if isinstance(outcome, UnitScore):
            raise self.error(path, f"'{outcome.text}' is a score in the event's unit; a traveller needs the result "
                             "or the raw score, to rescore the other tables against it",
                             expected=bridge.RESULT_HINT, suggestion="for average plus/minus use artificial:")
        return bridge.ns_score(outcome, self.vulnerability)

    def kind_of(self, m: _Scores, path: list, *, missing_ok: bool = False) -> str | None:
        given = [k for k in KINDS if getattr(m, k) is not None]
        if len(given) > 1:
            raise self.error(path + [given[1]], f"table has both {given[0]} and {given[1]}; give exactly one",
                             key=True, expected="one of result, adjusted or artificial")
        if not given:
            if missing_ok:
                return None
            raise self.error(path, "table has no score", expected="one of result, adjusted or artificial",
                             suggestion="a board not played at this table is left out, with expected_results: set")
        if given[0] != "artificial":
            for extra in ("session", "boards"):
                if getattr(m, extra) is not None:
                    raise self.error(path + [extra], f"{extra} belongs to an artificial score", key=True)
        if given[0] != "adjusted" and m.non_offending is not None:
            raise self.error(path + ["non_offending"], "non_offending goes with an adjusted score", key=True)
        return given[0]

    def fill(self, line: TableLine, m: _Scores, kind: str, path: list) -> None:
        line.note = m.note
        if m.published is not None:
            line.published = {s: getattr(m.published, s) for s in SIDES if getattr(m.published, s) is not None}
            line.published_why = m.published.why
        if kind == "result":
            line.kind, line.result = "result", m.result
            line.points = self.points(m.result, path + ["result"])
        elif kind == "adjusted":
            self.adjusted(line, m.adjusted, m.non_offending, path + ["adjusted"])
        else:
            self.artificial(line, m, path)

    # --- assigned adjusted scores ------------------------------------------------------------------

    def adjusted(self, line: TableLine, value: Any, nos: Side | None, path: list) -> None:
        split = isinstance(value, SplitWeighting)
        line.kind = "split" if split else "adjusted"
        if split:
            raw = {s: weighted_components(self.doc, getattr(value, s), path + [s]) for s in SIDES}
        else:
            comps = weighted_components(self.doc, value, path)
            raw = {"NS": comps, "EW": comps}
        for side in SIDES:
            base = len(path) + split
            for c in raw[side]:
                self.points(c.outcome, list(c.path) + (["result"] if len(c.path) > base else []))
        line.raw_parts, line.non_offending = raw, nos
        # Without non_offending the table is ruled both ways, and must come out the same (a single
        # outcome each way can only be assigned as itself, so once is enough).
        single = all(len(raw[side]) == 1 for side in SIDES)
        rulings = {n: self.rule(raw, split, n, path) for n in ((nos,) if nos else ("NS",) if single else SIDES)}
        ruling = rulings[nos or "NS"]
        if len(rulings) == 2 and rulings["NS"].assigned != rulings["EW"].assigned:
            rule = _expectation_rules(ruling.ruling)[0]
            raise self.error(path, f"which side is non-offending decides this adjusted score under rule {rule.id} "
                             f"({self.book.id})", expected="non_offending: NS or EW on the table",
                             suggestion=f"e.g. {{table: {line.table}, non_offending: NS, adjusted: …}}")
        line.parts = _assigned(ruling.assigned, raw)
        rules = _expectation_rules(ruling.ruling)
        first = nos or "NS"
        for side in SIDES:
            rule = rules[0] if side == first else rules[-1]
            line.expectation[side] = rule.id
            if rule.apply.get("outcomes") == "legal":
                line.excluded[side] = [c for c in raw[side] if not c.legal]
        self.warnings.extend(f"table {line.table}: {w}" for w in ruling.ruling.warnings)

    def rule(self, raw: dict[Side, list[Component]], split: bool, nos: Side, path: list) -> Ruled:
        """The ruling on the table's facts with `nos` non-offending.

        In the case each outcome stands as its rank among the table's outcomes by NS points (a
        score in the event's unit: higher is better for NS, lower for EW) — the order every scoring
        method keeps; a real reference would blur it (against one other table +620 and +650 may be
        the same IMPs). What the stages choose then depends only on that order, the weights and
        the legal: flags, so equal shapes share one ruling."""
        points = {id(c): bridge.ns_score(c.outcome, self.vulnerability) for side in SIDES for c in raw[side]}
        rank = {p: k for k, p in enumerate(sorted(set(points.values())))}
        shape = tuple(tuple((rank[points[id(c)]], c.weight, c.legal) for c in raw[side]) for side in SIDES)
        key = (nos, split, shape)
        hit = self._rulings.get(key)
        if hit is None:
            hit = self._rulings[key] = self._rule(raw, split, nos, path, {k: rank[p] for k, p in points.items()})
        return hit

    def _rule(self, raw: dict[Side, list[Component]], split: bool, nos: Side, path: list,
              rank: dict[int, int]) -> Ruled:
        unit = "%" if self.unit_scoring == "matchpoints" else "IMP"
        position: dict[int, tuple[Side, int]] = {}      # id of a stand-in outcome → (side, index) in raw
        lists: dict[int, list[Component]] = {}
        for side in SIDES:
            if id(raw[side]) not in lists:
                stand_ins = []
                for k, c in enumerate(raw[side]):
                    stand_in = UnitScore(Fraction(rank[id(c)]), unit)
                    position[id(stand_in)] = (side, k)
                    stand_ins.append(Component(stand_in, c.weight, c.legal, c.path))
                lists[id(raw[side])] = stand_ins
        without = {side: lists[id(raw[side])] for side in SIDES}
        case = assigned_case(self.doc, title=f"table at {'/'.join(map(str, path))}", scoring=self.unit_scoring,
                             board=self.board, non_offending=nos, without=without, split=split)
        try:
            ruling = rule_case(case, self.book, self.as_of)
        except BridgelawError as exc:
            if exc.line is not None:
                raise
            message = exc.message.removeprefix(f"{self.doc.file}: ")
            raise self.error(path, message, expected=exc.expected, suggestion=exc.suggestion) from None
        return Ruled(ruling, {side: [(w, position[id(o)]) for w, o in ruling.assigned[side]] for side in SIDES})

    # --- artificial adjusted scores ----------------------------------------------------------------

    def artificial(self, line: TableLine, m: _Scores, path: list) -> None:
        line.kind = "artificial"
        written = {"NS": m.artificial.NS, "EW": m.artificial.EW}
        session = None
        if m.session is not None:
            session = {s: getattr(m.session, s) for s in SIDES if getattr(m.session, s) is not None} or None
            for s, value in (session or {}).items():       # as a case refuses it (issue 14 item 6)
                if self.unit_scoring == "matchpoints" and not 0 <= value <= 1:
                    raise self.error(path + ["session", s], f"session score {format_mixed(value * 100)}% is outside "
                                     "0% to 100%", expected="a percentage from 0% to 100%")
        boards = None
        if m.boards is not None:
            boards = {s: getattr(m.boards, s) for s in SIDES if getattr(m.boards, s) is not None} or None
        try:
            line.responsibility, line.artificial_words = self.responsibilities(written)
            line.artificial = artificial_scores(self.dated, scoring=self.unit_scoring,
                                                responsibility=line.responsibility, session=session, boards=boards)
        except BridgelawError as exc:
            if exc.file is not None:
                raise
            raise self.error(path + ["artificial"], exc.message, expected=exc.expected,
                             suggestion=exc.suggestion) from None

    def responsibilities(self, written: dict[Side, str]) -> tuple[dict[Side, str], dict[Side, str]]:
        """Each side's responsibility, and the rulebook's outcome word for it: a responsibility word
        is taken as written; an outcome word (avg-plus, average, avg-minus) stands for the
        responsibility whose artificial rule gives that outcome (the other side's as written)."""
        key = (written["NS"], written["EW"])
        hit = self._words.get(key)
        if hit is not None:
            return hit
        options = [[w] if w in RESPONSIBILITY else list(RESPONSIBILITY) for w in key]
        found = []
        for ns, ew in itertools.product(*options):
            given = {"NS": ns, "EW": ew}
            words = {side: self.word(given, side) for side in SIDES}
            if all(written[s] in (given[s], words[s]) for s in SIDES):
                found.append((given, words))
        if len(found) != 1:
            said = f"NS {written['NS']}, EW {written['EW']}"
            if not found:
                message = f"no responsibilities give {said} in {self.book.id}"
            else:
                message = f"{said} is ambiguous in {self.book.id}: " + " or ".join(
                    f"NS {given['NS']}, EW {given['EW']}" for given, _ in found)
            raise BridgelawError(message, expected="the responsibility of each side: in-no-way-at-fault, "
                                 "partly-at-fault or directly-at-fault")
        self._words[key] = found[0]
        return found[0]

    def word(self, responsibility: dict[Side, str], side: Side) -> str:
        other = "EW" if side == "NS" else "NS"
        rule = self.dated.decide("artificial", {"responsibility": responsibility[side],
                                                "other_responsibility": responsibility[other],
                                                "scoring": self.unit_scoring, "session": None, "boards": None})
        return rule.outcome


def _assigned(assigned: dict[Side, list[tuple[Fraction, tuple[Side, int]]]],
              raw: dict[Side, list[Component]]) -> dict[Side, list[Component]]:
    """The ruling's assigned outcomes per side as the table's components, with the ruling's weights."""
    return {side: [Component(raw[s][k].outcome, weight, raw[s][k].legal, raw[s][k].path)
                   for weight, (s, k) in assigned[side]] for side in SIDES}


def _expectation_rules(ruling: Ruling) -> list:
    """The expectation stage's rules in the order the ruling used them: the non-offending side's
    first, then the offending side's (the same rule when both are formed alike)."""
    return [r for r in ruling.rules if r.stage == "expectation"]
