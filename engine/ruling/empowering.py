"""The law that empowers the adjustment (the case's ``infraction:``): its paragraphs, cited before
Law 12's, the Director's findings it needs, and the trick transfers after a revoke (the rulebook's
``revoke`` and ``revoke-equity`` stages)."""

from __future__ import annotations

from typing import Any

from ..core.bridge import PlayedResult
from ..core.errors import did_you_mean
from ..rulebook import Rulebook, siblings
from ..rulebook.infractions import Empowerment, UnknownLaw, resolve
from ..rulebook.infractions import _key as _law_key
from .draft import Draft
from .revoke import Revoke, RevokeError, equity, rectify, transfer


def empowerment(d: Draft) -> Empowerment | None:
    """The rulebook's entry for the case's infraction (an unknown law is an error at its key)."""
    inf = d.m.infraction
    if inf is None:
        return None
    try:
        e = resolve(d.book.infractions, inf.law, d.book.id)
    except UnknownLaw as exc:
        raise d.case.doc.error(["infraction", "law"], exc.message, suggestion=exc.suggestion) from None
    if d.case.both_non_offending and not e.both_sides:
        both = ", ".join(k for k, x in d.book.infractions.items() if x.both_sides) or "none"
        raise d.case.doc.error(["non_offending"], f"non_offending: both is for a law that rules each side from "
                               f"its own view ({both}); {e.law} ({e.title}) in {d.book.id} does not",
                                  expected="non_offending: NS or EW")
    for what, allowed, given in (("event", e.events, d.case.event), ("scoring", e.scoring, d.m.scoring)):
        if allowed and given not in allowed:
            raise d.case.doc.error(["infraction", "law"], f"Law {e.law} ({e.title}) in {d.book.id} is for "
                                   f"{what} {' or '.join(allowed)}; this case's {what} is {given}",
                                      expected=f"{what}: {' or '.join(allowed)}, or another law")
    if e.revoke and not inf.revokes:
        raise d.case.doc.error(["infraction"], f"infraction {inf.law} ({e.title}) needs the established revokes",
                               expected="revokes: [{trick: …, offender: …, offender_won: …, side_won: …, "
                                  "later_tricks: …}]")
    findings = inf.findings or {}
    known = {name for entry in d.book.infractions.values() for name in entry.finding_names}
    for name in findings:
        if name not in known and name not in other_findings(d.book):   # a finding no law asks for: a typo?
            raise d.case.doc.error(["infraction", "findings", name], f"no law in {d.book.id} makes "
                                   f"'{name}' a condition of adjusting", key=True,
                                      expected="one of " + (", ".join(sorted(known)) or "(none)"),
                                      suggestion=did_you_mean(name, known))
    for name, what in e.requires + e.may_find:          # a finding that does not hold defeats the law
        if findings.get(name) is False and d.not_empowered is None:
            d.not_empowered = (e, what)
    for name, what in e.requires:
        if name not in findings and d.not_empowered is None:
            raise d.case.doc.error(["infraction"], f"Law {e.law} empowers an adjustment only if {what}: the "
                                   f"case must give the Director's finding '{name}'",
                                      expected=f"findings: {{{name}: true or false}}")
    for name, why in e.should:
        if findings.get(name) and d.not_empowered is not None:
            d.warnings.append(f"{why}; the case finds that it appears so ({name}: true) but not "
                              f"'{d.not_empowered[1]}'")
    other = "" if _law_key(inf.law).startswith(_law_key(e.law)) else f" (Law {e.law} in {d.book.id})"
    d.add("law", cites=list(e.cites), text=f"Infraction: Law {inf.law}{other}, {e.title}"
          f"{f' (by {inf.by})' if inf.by else ''}; the adjustment is empowered by {', '.join(e.cites)}.")
    d.empowering = list(e.cites)
    return e


def other_findings(book: Rulebook) -> set[str]:
    """The findings the other rulebooks beside `book` ask for: a case ruled under several editions
    may give each edition's (one edition ignores another's; a name no rulebook knows is a typo)."""
    return {n for other in siblings(book) for entry in other.infractions.values() for n in entry.finding_names}


def after_revokes(d: Draft) -> Any:
    """The table result after the trick transfers the rulebook's ``revoke`` stage gives, when the
    case lists revokes; None when its ``revoke-equity`` stage replaces the table result by the
    result had no revoke occurred."""
    m = d.m
    if m.infraction is None or not m.infraction.revokes:
        return m.table_result
    try:
        revokes = [Revoke(**r.model_dump()) for r in m.infraction.revokes]
        transfers = []
        for i, r in enumerate(revokes):
            try:
                transfers.append(transfer(d.book, r, on_board=revokes, trace=d.trace, offender=r.offender,
                                          trick=r.trick))
            except RevokeError as exc:
                raise d.case.doc.error(["infraction", "revokes", i, "exception"], str(exc)) from None
            d.add("transfer", tricks=transfers[-1].tricks)
        after = rectify(m.table_result, revokes, transfers)
    except RevokeError as exc:
        raise d.case.doc.error(["infraction", "revokes"], str(exc)) from None
    for t in transfers:
        d.empowering += [ref for ref in t.rule.cites if ref not in d.empowering]
    d.add("law", text=f"Table result {m.table_result.text}, after the transfer {after.text} (this is A).")
    without = m.without_infraction
    if isinstance(without, PlayedResult) and (without.contract, without.declarer) == (after.contract, after.declarer):
        e = equity(d.book, after, without, revokes, trace=d.trace)
        d.empowering += [ref for ref in e.rule.cites if ref not in d.empowering]
        d.add("equity", after=e.nos_tricks_after, without=e.nos_tricks_without, rule=e.rule)
        if e.adjust == "as-if-no-revoke":
            return None
    return after
