"""The case corpus: every file under cases/ is ruled and matches its expectation exactly.

Each case is ruled under its own rulebook (and under every other rulebook its expect: names,
when the expectations are given per rulebook), through the CLI's own path: bridgelaw.commands.cli.rule_file
then bridgelaw.commands.cli.compare.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgelaw import rulebook as rulebooks
from bridgelaw.ruling.case import load_case
from bridgelaw.ruling.caseschema import EXPECT_KEYS
from bridgelaw.commands.cli import compare, rule_file

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"
FILES = sorted(CASES.rglob("*.yaml"))


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def pairs():
    """(case file, rulebook id) for the case's own rulebook and each rulebook its expect names."""
    out = []
    for path in FILES:
        case = load_case(path)
        names = [case.model.rulebook]
        if isinstance(case.model.expect, dict):
            names += [n for n in case.model.expect if n != case.model.rulebook]
        out += [pytest.param(path, name, id=f"{rel(path)}[{name}]") for name in names]
    return out


def test_the_corpus_is_there():
    assert len(FILES) >= 27
    assert {p.parent.name for p in FILES} >= {
        "ebl-lecture-2008", "rmb-2009", "rmb-2011", "wbf-commentary-2007", "wbf-commentary-2017"}


@pytest.mark.parametrize(("path", "book"), pairs())
def test_case_matches_its_expectation(path, book):
    override = None if book == load_case(path).model.rulebook else book
    case, ruling = rule_file(str(path), override)
    expect = case.expectation_for(book)
    assert expect is not None, f"{rel(path)} has no expectation under {book}"
    assert ruling.rulebook.id == book
    assert compare(ruling, expect) == [], f"{rel(path)} under {book}: " + "; ".join(compare(ruling, expect))


@pytest.mark.parametrize("path", FILES, ids=rel)
def test_every_case_names_a_known_rulebook_and_has_an_expect(path):
    case = load_case(path)
    assert case.model.rulebook in rulebooks.available(), rel(path)
    assert case.model.expect is not None, f"{rel(path)} has no expect:"
    own = case.expectation_for(case.model.rulebook)
    assert own is not None, f"{rel(path)}: expect: has no entry for its own rulebook {case.model.rulebook}"
    expects = case.model.expect.values() if isinstance(case.model.expect, dict) else [case.model.expect]
    for expect in expects:
        # an expectation that pins nothing would pass whatever the ruling
        assert expect.outcome is not None, f"{rel(path)}: expect names no outcome"
        pinned = [k for k in EXPECT_KEYS if k != "outcome" and getattr(expect, k) is not None]
        assert pinned or expect.outcome == "not-scored", f"{rel(path)}: expect pins no score"


@pytest.mark.parametrize("path", FILES, ids=rel)
def test_published_figures_say_why_they_differ(path):
    case = load_case(path)
    published = case.model.published
    if published is None:
        return
    assert published.why.strip(), f"{rel(path)}: published: without a why"
    given = {k: getattr(published, k) for k in ("nos", "os", "NS", "EW") if getattr(published, k) is not None}
    if not given:
        return  # only intermediate figures of the source differ; the why says which
    # a published final figure is recorded because it differs from the ruling: the why explains it
    _, ruling = rule_file(str(path))
    got = {"nos": ruling.nos.value if ruling.nos else None, "os": ruling.os.value if ruling.os else None,
           **{s: v.value for s, v in ruling.sides.items()}}
    assert any(got[k] != v for k, v in given.items()), f"{rel(path)}: published figures equal the ruling"


def test_compare_reports_differences():
    """compare() must be able to fail: a wrong expectation is reported."""
    path = CASES / "wbf-commentary-2017" / "example-07.yaml"
    case, ruling = rule_file(str(path))
    wrong = case.expectation_for(case.model.rulebook).model_copy(update={"nos": ruling.nos.value + 1, "outcome": "assigned"})
    diffs = compare(ruling, wrong)
    assert any(d.startswith("outcome: expected assigned") for d in diffs)
    assert any(d.startswith("nos: expected") for d in diffs)
