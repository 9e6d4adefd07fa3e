"""The checked case: the facts of one ruling as a tournament director writes them (a YAML case file,
:mod:`.caseschema`), read and checked (:mod:`.casechecks`) into a :class:`Case` that
``ruling.rule_case`` rules.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from ..core.errors import BridgelawError
from ..core.vocab import SIDES, Side, other
from ..core.yamlio import Document, load_yaml
from ..rulebook.infractions import knows
from . import casechecks
from .caseschema import Board, CaseModel, Expect
from .outcomes import Component, Outcome


@dataclass
class Case:
    """A validated case: the model plus normalised lists of weighted components."""

    model: CaseModel
    doc: Document
    without: dict[Side, list[Component]] | None  # B's possibilities per side (equal unless split); raw poll weights
    split: bool
    instead: list[Component] | None          # C's possibilities (serious error), None otherwise
    session: dict[Side, Fraction]            # 12C2(c): share of the top at pairs, IMPs a board at teams
    # what every ruling of this case scores against, worked out once (ruling.scorer.basis)
    scoring_basis: Any = field(default=None, repr=False, compare=False)

    @property
    def file(self) -> str:
        return self.doc.file

    @property
    def source(self) -> str | None:
        """Where the case comes from, as one line of text (a published ruling's reference by its title)."""
        src = self.model.source
        return src if src is None or isinstance(src, str) else src.text

    @property
    def event(self) -> str:
        return self.model.event or ("teams" if self.model.scoring == "imps" else "pairs")

    @property
    def both_non_offending(self) -> bool:
        """Law 82C: both sides treated as non-offending, each side's score from its own view."""
        return self.model.non_offending == "both"

    @property
    def by_committee(self) -> bool:
        """The adjusted score the case records is an appeals committee's: as the case says (adjusted_by), else
        when its appeal changed the ruling."""
        if self.model.adjusted_by is not None:
            return self.model.adjusted_by == "committee"
        return self.model.appeal is not None and self.model.appeal.decision == "changed"

    @cached_property                        # read a dozen times a ruling; the model's sides are not changed
    def nos(self) -> Side | None:
        """The non-offending side: as given, or the one side found in no way at fault (NS when both are)."""
        if self.both_non_offending:
            return "NS"
        if self.model.non_offending or self.model.artificial is None:
            return self.model.non_offending
        clean = [s for s in SIDES if getattr(self.model.artificial, s) == "in-no-way-at-fault"]
        return clean[0] if len(clean) == 1 else None

    @cached_property
    def os(self) -> Side | None:
        return other(self.nos) if self.nos else None

    def rulebook_name(self, as_of: dt.date | None = None) -> str | None:
        """The rulebook the case names; else, when it names its jurisdiction, the code in force there on
        `as_of` or the case's date (rules/calendar.yaml: a body id or a country); else None. A jurisdiction
        without a date, or one the calendar does not know that day, is an error at the case's jurisdiction: key.
        A case that names both, with a date, must name the code in force there that day or a rulebook on top of
        it (a regulation or recommendation that extends it)."""
        if self.model.jurisdiction is None:
            return self.model.rulebook
        if self.model.rulebook is not None:
            if self.model.date is not None and as_of is None:
                self._check_jurisdiction(self.model.rulebook, self.model.date)
            return self.model.rulebook
        from ..rulebook import calendar
        day = as_of or self.model.date
        if day is None:
            raise self.doc.error(["jurisdiction"], "a case that names its jurisdiction and no rulebook needs its "
                                 "date: the code in force there depends on the day", expected="date: YYYY-MM-DD",
                                 suggestion="or name the rulebook: (see `bridgelaw rulebooks`)")
        try:
            return calendar.in_force(calendar.body_for(self.model.jurisdiction), day)
        except BridgelawError as exc:
            raise self.doc.error(["jurisdiction"], exc.message, expected=exc.expected,
                                 suggestion=exc.suggestion) from None

    def _check_jurisdiction(self, name: str, day: dt.date) -> None:
        from ..rulebook import calendar, get
        try:
            code = calendar.in_force(calendar.body_for(self.model.jurisdiction), day)
            chain = get(name).chain
        except BridgelawError as exc:
            raise self.doc.error(["jurisdiction"], exc.message, expected=exc.expected,
                                 suggestion=exc.suggestion) from None
        if code not in chain:
            raise self.doc.error(["rulebook"], f"rulebook {name} is not the code in force in jurisdiction "
                                 f"{self.model.jurisdiction} on {day.isoformat()}: {code} is (rules/calendar.yaml)",
                                 expected=f"rulebook: {code}, or a rulebook that extends it",
                                 suggestion="or leave rulebook: out: the calendar chooses")

    def expectation_for(self, book_id: str) -> Expect | None:
        """The expected ruling under rulebook `book_id`: a flat expect: is for the case's own rulebook (named,
        or the code in force in its jurisdiction on its date)."""
        expect = self.model.expect
        if isinstance(expect, dict):
            return expect.get(book_id)
        try:
            own = self.rulebook_name()
        except BridgelawError:
            return None
        return expect if own is not None and book_id.casefold() == own.casefold() else None

    def in_scope(self, book: Any) -> bool:
        """Whether `book` covers this case: its dates (when the case has one), its declared scope, and the
        law the infraction names (a rulebook that does not encode that law does not cover the case)."""
        day = self.model.date
        if day is not None and not book.covers(day):
            return False
        if self.model.infraction is not None and not knows(book.infractions, self.model.infraction.law):
            return False
        scope = book.scope or {}
        return all(getattr(self.model, key, None) in values or
                   (key == "event" and self.event in values) for key, values in scope.items())


TRAVELLER_KEYS = ("tables", "pbn", "expected_results", "pair_numbers")


def load_case(path: str | Path, *, text: str | None = None) -> Case:
    doc = load_yaml(path, text=text)
    tree = doc.tree if isinstance(doc.tree, dict) else {}
    if "non_offending" not in tree and (key := next((k for k in TRAVELLER_KEYS if k in tree), None)):
        raise doc.error([key], f"this is a traveller (it has {key}:), not a case file", key=True,
                        suggestion=f"score it with `bridgelaw score {doc.file}`")
    if "top" in tree:
        raise doc.error(["top"], "unknown key 'top': the top is not given, it comes from the field "
                        "(2 × the number of other results at matchpoints)", key=True,
                        expected="field: [<result>, ...] or results_on_board: <n>")
    return check_case(doc, doc.validate(CaseModel))


def check_case(doc: Document, m: CaseModel) -> Case:
    """The checked case of a validated model; each error points at the key concerned."""
    c = casechecks.check(doc, m)
    return Case(model=m, doc=doc, without=c.without, split=c.split, instead=c.instead, session=c.session)


def assigned_case(doc: Document, *, title: str, scoring: Literal["imps", "matchpoints"], board: Board,
                  non_offending: Side, without: dict[Side, list[Component]], split: bool,
                  field: list[Outcome] | None = None, other_table: Outcome | None = None,
                  date: dt.date | None = None) -> Case:
    """A case for an assigned adjusted score whose possible outcomes are already checked
    components (a traveller's adjusted table), to be ruled by ``ruling.rule_case``."""
    m = CaseModel.model_construct(title=title, scoring=scoring, board=board, non_offending=non_offending,
                                  field=field, other_table=other_table, date=date)
    return Case(model=m, doc=doc, without=without, split=split, instead=None, session={})
