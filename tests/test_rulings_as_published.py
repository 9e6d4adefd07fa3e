"""Rulings as tournament directors and appeals committees publish them (issue 22): side names as TDs
write them, sources printed by their title, assigned results without a field (table points), the
result standing when a finding defeats the infraction, procedural penalties at every form of
scoring, judgement words, the 1997 Laws.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from bridgelaw import rulebook
from bridgelaw.core.errors import BridgelawError
from bridgelaw.render import ruling as render
from bridgelaw.ruling.build import rule_case
from bridgelaw.ruling.case import load_case

IMPS = """\
title: Test case
rulebook: wbf-2017
scoring: imps
board: {number: 7, vulnerability: NS}
non_offending: NS
table_result: 5HX-2 N
other_table: 3S+1 W
without_infraction: 4H-1 N
"""


def case(text: str, name: str = "case.yaml"):
    return load_case(name, text=text)


def rule(text: str, book: str | None = None, **kw):
    c = case(text)
    return c, rule_case(c, rulebook.get(book or c.model.rulebook), **kw)


# --- side names as TDs write them -------------------------------------------------------------

@pytest.mark.parametrize("written,side", [("N-S", "NS"), ("North-South", "NS"), ("north south", "NS"),
                                          ("N/S", "NS"), ("E-W", "EW"), ("East-West", "EW"), ("e/w", "EW")])
def test_non_offending_as_tds_write_it(written, side):
    c = case(IMPS.replace("non_offending: NS", f"non_offending: {written}"))
    assert c.model.non_offending == side and c.nos == side


def test_a_side_that_is_no_side_is_still_refused():
    with pytest.raises(BridgelawError) as e:
        case(IMPS.replace("non_offending: NS", "non_offending: North-East"))
    assert (e.value.line, e.value.column) == (5, 16)


def test_appeal_and_infraction_by_a_side():
    c = case(IMPS + "infraction: {law: 16B1, by: E-W, findings: {suggested_over_a_logical_alternative: true}}\n"
             "appeal: {by: North-South, decision: upheld}\n")
    assert c.model.infraction.by == "EW" and c.model.appeal.by == "NS"


# --- sources by title ---------------------------------------------------------------------------

def test_a_published_rulings_source_is_printed_by_its_title():
    text = IMPS.replace("title: Test case\n", "title: Test case\nsource:\n  body: DBF\n  publication: "
                        "Danmarks Bridgeforbunds Appelkomité\n  case: 03-AU-5\n  year: 2004\n"
                        "  url: https://bridge.dk/lov/ak/sager/03/au-5.htm\n")
    c, r = rule(text)
    line = "DBF, Danmarks Bridgeforbunds Appelkomité, case 03-AU-5 (2004) — https://bridge.dk/lov/ak/sager/03/au-5.htm"
    assert r.source == line
    assert f"Source: {line}" in render.text(r, c)


def test_no_corpus_case_names_a_seed_file():
    from pathlib import Path
    import re
    cases = Path(__file__).resolve().parent.parent / "cases"
    for path in cases.rglob("*.yaml"):
        c = load_case(path)
        assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", c.source or ""), path
