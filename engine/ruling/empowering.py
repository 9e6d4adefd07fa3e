"""The law that empowers the adjustment (the case's ``infraction:``): its paragraphs, cited before
Law 12's, the Director's findings it needs, and Law 64's trick transfers after a revoke."""

from __future__ import annotations

from typing import Any

from ..core.bridge import PlayedResult
from ..core.errors import did_you_mean
from ..rulebook.infractions import Empowerment, UnknownLaw, resolve
from ..rulebook.infractions import _key as _law_key
from .draft import Draft
from .revoke import Revoke, RevokeError, equity, rectify


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
        raise d.case.doc.error(["non_offending"], f"non_offending: both is for a law that rules each side from "
                               f"its own view (82C, 86B1); {e.law} ({e.title}) in {d.book.id} does not",
                                  expected="non_offending: NS or EW")
    if e.revoke and not inf.revokes:
        raise d.case.doc.error(["infraction"], f"infraction {inf.law} ({e.title}) needs the established revokes",
                               expected="revokes: [{trick: …, offender: …, offender_won: …, side_won: …, "
                                  "later_tricks: …}]")
    findings = inf.findings or {}
    known = {name for entry in d.book.infractions.values() for name, _ in entry.requires + entry.may_find}
    for name in findings:
        if name not in known:               # a finding no law of this rulebook asks for: a typo?
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
    other = "" if _law_key(inf.law).startswith(_law_key(e.law)) else f" (Law {e.law} in {d.book.id})"
    d.add("law", cites=list(e.cites), text=f"Infraction: Law {inf.law}{other}, {e.title}"
          f"{f' (by {inf.by})' if inf.by else ''}; the adjustment is empowered by {', '.join(e.cites)}.")
    d.empowering = list(e.cites)
    return e


def after_revokes(d: Draft) -> Any:
    """The table result, after the Law 64A trick transfers when the case lists revokes."""
    m = d.m
    if m.infraction is None or not m.infraction.revokes:
        return m.table_result
    try:
        revokes = [Revoke(**r.model_dump()) for r in m.infraction.revokes]
        after, transfers = rectify(m.table_result, revokes)
    except RevokeError as exc:
        raise d.case.doc.error(["infraction", "revokes"], str(exc)) from None
    for r, t in zip(revokes, transfers):
        ref = t.paragraph if t.paragraph in d.book.paragraphs else t.paragraph[:3]
        d.add("law", cites=[ref], text=f"Revoke by {r.offender} on trick {r.trick}: {t.reason}.")
        d.empowering.append(ref)
    d.add("law", text=f"Table result {m.table_result.text}, after the transfer {after.text} (this is A).")
    subsequent = any(r.exception == "subsequent-same-suit" for r in revokes)
    without = m.without_infraction
    if isinstance(without, PlayedResult) and (without.contract, without.declarer) == (after.contract, after.declarer):
        e = equity(after, without, revokes[0].offender, edition="2017" if "64C1" in d.book.paragraphs else "2007",
                   subsequent_same_suit=subsequent)
        cites = [e.paragraph] if e.paragraph in d.book.paragraphs else []
        d.empowering += cites
        d.add("law", cites=cites, text=f"Law {e.paragraph}: the non-offending side has {e.nos_tricks_after} tricks "
              f"after the transfer and would have had {e.nos_tricks_without} without the revoke"
                 + (": it is insufficiently compensated." if e.adjust else ": the transfer compensates it."))
    return after
