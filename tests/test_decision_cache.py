"""Which rules hold is read off the compiled conditions by each stage's index (adapter.Index: where
each number lies among the constants it is compared with, the order of the numbers compared, the
words and yes/no values); the decision for each set of held rules is asked of durable_rules once
and kept. These tests check that the answer is always the one durable_rules gives afresh."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from bridgelaw import rulebook
from bridgelaw.rulebook.adapter import StageEvaluator
from bridgelaw.rulebook.conditions import parse
from bridgelaw.core.errors import RulingError

BOOKS = [rulebook.get(name) for name in rulebook.available()]

# numbers near the constants the shipped rules use (0, session shares, board limits), with ties
numbers = st.one_of(st.none(), st.sampled_from([F(0), F(1), F(-1), F(3), F(6), F(40), F(60), F(1, 3), F(-7, 2)]),
                    st.fractions(min_value=-100, max_value=100, max_denominator=12))
damage_facts = st.fixed_dictionaries({
    "A": numbers, "B": numbers, "C": numbers, "D": numbers, "DR": numbers, "DS": numbers,
    "serious_error": st.booleans(), "scoring": st.sampled_from(["matchpoints", "imps"])})
artificial_facts = st.fixed_dictionaries({
    "responsibility": st.sampled_from(["in-no-way-at-fault", "partly-at-fault", "directly-at-fault"]),
    "other_responsibility": st.sampled_from(["in-no-way-at-fault", "partly-at-fault", "directly-at-fault"]),
    "scoring": st.sampled_from(["matchpoints", "imps"]),
    "session": numbers, "boards": st.one_of(st.none(), st.integers(0, 30))})


def fresh(book, stage: str, facts: dict):
    """What durable_rules decides with nothing cached: (held, overridden, rule id) or the error."""
    try:
        d = book._decision(stage, facts)
    except RulingError as exc:
        return str(exc)
    return d.held, d.overridden, d.rule.id if d.rule else None


def cached(book, stage: str, facts: dict):
    try:
        d = book.decision(stage, facts)
    except RulingError as exc:
        return str(exc)
    assert d.facts == facts                   # the trace shows this case's facts, not the cached one's
    return d.held, d.overridden, d.rule.id if d.rule else None


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.id)
@settings(max_examples=150, deadline=None)
@given(facts=damage_facts)
def test_damage_decided_by_pattern_as_afresh(book, facts):
    assert cached(book, "damage", facts) == fresh(book, "damage", facts)


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.id)
@settings(max_examples=100, deadline=None)
@given(facts=artificial_facts)
def test_artificial_decided_by_pattern_as_afresh(book, facts):
    assert cached(book, "artificial", facts) == fresh(book, "artificial", facts)


def test_the_index_reads_what_durable_rules_says():
    vocab = {"A": "number", "B": "number", "C": "number", "imps": "bool"}
    rules = [("below", parse({"all": [{"lt": ["A", 0]}, {"le": ["B", "1/3"]}]}, vocab)),
             ("between", parse({"any": [{"lt": ["A", "B"]}, {"is": ["imps", True]}]}, vocab))]
    ev = StageEvaluator("test/pattern", rules, vocab)

    def held(**q):
        facts = {"imps": False, **q}
        assert list(ev.index.held(facts)) == ev.applicable(facts), facts
        return ev.index.held(facts)

    # A < B, both below zero, C not given: the same rules hold whatever the values
    assert held(A=F(-5), B=F(-1)) == held(A=F(-100), B=F(-1, 3)) == ("below", "between")
    assert held(A=F(-1), B=F(-5)) == ("below",)                       # the order turned
    assert held(A=F(-5), B=F(-5)) == ("below",)                       # a tie
    assert held(A=F(-5), B=F(0)) == ("below", "between")              # B on the constant 0
    assert held(A=F(-5), B=F(1, 3)) == ("below", "between")           # B on the constant 1/3
    assert held(A=F(-5), B=F(1, 2)) == ("between",)                   # B past 1/3
    assert held(A=F(-5), B=F(1, 6)) == held(A=F(-5), B=F(1, 4))
    assert held(A=F(-5), B=F(-1)) == held(A=F(-5), B=F(-1), C=F(-3))  # C: no rule mentions it
    assert held(A=F(-5), imps=True) == ("between",)
    assert held(A=F(0), B=F(1), imps=True) == ("between",)
    assert ev.applicable({"A": F(-5), "B": F(1, 6), "imps": False}) == ev.applicable(
        {"A": F(-5), "B": F(1, 4), "imps": False}) == ["below", "between"]


IMPS = {"serious_error": False, "scoring": "imps"}


def test_a_new_case_in_a_known_order_is_decided_without_the_rule_engine():
    book = rulebook.get("wbf-2017").at(None)
    book.forget_decisions()
    # damaged, no serious error: A < B and C = A, at two tables whose numbers differ
    first = {"A": F(-7), "B": F(3), "C": F(-7), "D": F(10), "DR": F(10), "DS": F(0), **IMPS}
    second = {"A": F(-2), "B": F(9), "C": F(-2), "D": F(11), "DR": F(11), "DS": F(0), **IMPS}
    book.decision("damage", first)
    ev = book.evaluator("damage")
    asked = []
    original = ev.applicable
    ev.applicable = lambda facts: asked.append(facts) or original(facts)
    try:
        d = book.decision("damage", second)
    finally:
        del ev.applicable
    assert asked == [] and d.facts == second and d.rule.id == fresh(book, "damage", second)[2]
    book.forget_decisions()
    ev.applicable = lambda facts: asked.append(facts) or original(facts)
    try:
        book.decision("damage", second)
    finally:
        del ev.applicable
    assert len(asked) == 1


def test_facts_too_large_are_refused_whatever_is_cached():
    book = rulebook.get("wbf-2017").at(None)
    book.decision("damage", {"A": F(-5), "B": F(1), "C": F(-5), "D": F(6), "DR": F(6), "DS": F(0), **IMPS})
    with pytest.raises(RulingError, match="too large to compare exactly"):
        book.decision("damage", {"A": F(-5), "B": F(2**60), "C": F(-5), "D": F(2**60 + 5), "DR": F(2**60 + 5),
                                 "DS": F(0), **IMPS})


def test_decisions_kept_by_facts_only_for_the_same_facts_of_the_same_types():
    from bridgelaw.rulebook.model import _facts_key
    a = _facts_key("damage", {"A": F(-7), "B": F(3), "serious_error": False, "scoring": "imps"})
    assert a == _facts_key("damage", {"A": F(-14, 2), "B": F(3), "serious_error": False, "scoring": "imps"})
    assert a != _facts_key("damage", {"B": F(-7), "A": F(3), "serious_error": False, "scoring": "imps"})
    assert a != _facts_key("damage", {"A": F(-7), "B": F(3), "serious_error": 0, "scoring": "imps"}) or \
        _facts_key("damage", {"A": F(-7), "B": F(3), "serious_error": 0, "scoring": "imps"}) is None
    assert _facts_key("kind", {"artificial": 1}) is None            # an int equals True: not kept
    assert _facts_key("kind", {"scoring": "True"}) != _facts_key("kind", {"scoring": True})
    book = rulebook.get("wbf-2017").at(None)
    facts = {"A": F(-7), "B": F(3), "C": F(-7), "D": F(10), "DR": F(10), "DS": F(0), **IMPS}
    first = book.decision("damage", facts)
    assert book.decision("damage", dict(facts)) is first           # kept by its facts
    assert book.decision("damage", {**facts, "A": -7}).rule.id == first.rule.id   # an int: read again, alike


def test_an_index_that_disagrees_with_durable_rules_is_dropped(monkeypatch):
    from bridgelaw.rulebook import model
    book = rulebook.load(rulebook.available()["wbf-2017"])       # a rulebook of its own: its index is broken below
    monkeypatch.setattr(model, "_SHARED_EVALUATORS", {})          # and compiled rules of its own, not shared
    book._evaluators.clear()
    book._evaluator_of.clear()
    facts = {"A": F(-7), "B": F(3), "C": F(-7), "D": F(10), "DR": F(10), "DS": F(0), **IMPS}
    ev = book.evaluator("damage")
    ev.index.read = lambda facts, defaults=None: (("no-damage",), False)    # says the wrong rule holds
    book.forget_decisions()
    d = book.decision("damage", facts)
    assert d.rule.id == "none-self-inflicted" and ev.index is None       # durable_rules' answer, the index gone
    assert book.decision("damage", {**facts, "A": F(-8), "C": F(-8), "D": F(11), "DR": F(11)}).rule.id == "none-self-inflicted"


def test_rulebooks_made_per_request_share_the_compiled_rules():
    # a profile, overlay or --set applied to each web request made new durable_rules rulesets every
    # time (about 1 MB each, never freed); a rulebook with the same rules finds the ones already made
    from pathlib import Path
    from bridgelaw.ruling.build import rule_case
    from bridgelaw.ruling.case import load_case
    base = rulebook.get("wbf-2017")
    case = load_case(Path(__file__).resolve().parent.parent / "cases" / "wbf-commentary-2017" / "example-07.yaml")
    books = [base.with_settings([f"artificial.pairs.avg_plus={p}%"]) for p in (61, 62, 61)]
    rulings = [rule_case(case, b) for b in books]
    assert [(r.nos.value, r.os.value) for r in rulings] == [(rulings[0].nos.value, rulings[0].os.value)] * 3
    assert books[0].evaluator("damage") is books[1].evaluator("damage") is books[2].evaluator("damage")
    assert books[0].evaluator("damage") is not base.evaluator("damage")       # another label: wbf-2017+set


def test_forgetting_the_facts_keeps_what_each_set_of_held_rules_decides():
    # bench/rulings.py rules each "new" case with the decisions kept by facts forgotten
    book = rulebook.get("wbf-2017").at(None)
    facts = {"A": F(-7), "B": F(3), "C": F(-7), "D": F(10), "DR": F(10), "DS": F(0), **IMPS}
    book.forget_decisions()
    first = book.decision("damage", facts)                          # durable_rules asked: kept both ways
    assert book.decision("damage", facts) is first                  # kept by its facts
    book.forget_facts()
    ev, asked = book.evaluator("damage"), []
    original = ev.applicable
    ev.applicable = lambda f: asked.append(f) or original(f)
    try:
        again = book.decision("damage", facts)
    finally:
        del ev.applicable
    assert again is not first and asked == [] and again.rule is first.rule and again.held == first.held
