"""Large rulebooks: a stage with more rules than one durable_rules ruleset can hold (about 250
fields per fact, about 64 partly matching rules) is partitioned into several rulesets; the
answer is exactly the one of the plain evaluator, and a 1,000-rule rulebook rules the corpus as
the shipped one does and passes `lint`."""

from __future__ import annotations

import importlib.util
from fractions import Fraction as F

import pytest

from bridgelaw.rulebook import conditions as c
from bridgelaw.rulebook import lint
from bridgelaw import rulebook as rulebooks
from bridgelaw.rulebook.adapter import PATHS_PER_RULESET, StageEvaluator
from bridgelaw.ruling.case import load_case
from bridgelaw.commands.cli import main
from bridgelaw.ruling.build import rule_case

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_many_rules_with_their_own_constants_are_exact():
    # 300 rules "A = i/3", each with its own constant: 300 constants, far beyond one fact's
    # ~250 properties (a single ruleset failed with durable_rules error 302)
    rules = [(f"r{i}", c.Compare("eq", c.Name("A"), c.Const(F(i, 3)))) for i in range(300)]
    rules.append(("neg", c.Compare("lt", c.Name("A"), c.Const(F(0)))))
    ev = StageEvaluator("test/many", rules, {"A": "number"})
    assert len(ev.parts) >= 300 // PATHS_PER_RULESET
    for i in (0, 1, 47, 48, 149, 299):
        assert ev.applicable({"A": F(i, 3)}) == [f"r{i}"]
    assert ev.applicable({"A": F(-1)}) == ["neg"]
    assert ev.applicable({"A": F(1000)}) == []


def _bench():
    """bench/rulings.py, whose extra_rules_book builds the rulebook its scaling case times."""
    spec = importlib.util.spec_from_file_location("bench_rulings", ROOT / "bench" / "rulings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def big_and_path(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("big")
    return _bench().extra_rules_book(tmp, "wbf-2017", 1000, inside=False), tmp / "wbf-2017-plus-1000.yaml"


@pytest.fixture(scope="module")
def big(big_and_path):
    return big_and_path[0]


@pytest.fixture(scope="module")
def big_path(big_and_path):
    return big_and_path[1]


def test_a_1000_rule_rulebook_rules_the_corpus_as_the_shipped_one(big):
    shipped = rulebooks.get("wbf-2017")
    assert len(big.rules_for("damage")) == len(shipped.rules_for("damage")) + 1000
    assert len(big.evaluator("damage").parts) > 1
    compared = 0
    for path in sorted((ROOT / "cases" / "wbf-commentary-2017").glob("*.yaml")):
        case = load_case(path)
        if case.model.rulebook != "wbf-2017":
            continue
        want, got = rule_case(case, shipped), rule_case(case, big)
        assert got.outcome == want.outcome, path
        assert {s: v.value for s, v in got.sides.items()} == {s: v.value for s, v in want.sides.items()}, path
        compared += 1
    assert compared >= 5


def test_a_rule_in_the_last_ruleset_fires(big):
    facts = {"A": F(-100999 - 1), "B": F(100999 + 1), "C": F(-100999 - 1), "D": F(201999 + 2), "DR": F(201999 + 2),
             "DS": F(0), "serious_error": False, "scoring": "imps"}
    held = big.evaluator("damage").applicable({**big.parameters, **facts})
    assert held[0] == "none-self-inflicted" and held[-1] == "never-999" and len(held) == 1001


def test_lint_accepts_a_1000_rule_rulebook(big, big_path, capsys):
    report = lint.lint(big)
    assert report.ok, lint.text(report)
    # the command too: it also puts every input the lint searches through durable_rules
    assert main(["lint", str(big_path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "wbf-2017-plus-1000" in out


def test_every_rule_of_a_ruleset_may_fire_at_once():
    # 200 rules that all hold for one fact: durable_rules fails (error 303) past 64 firings in one
    # ruleset; partitioned, all 200 are reported
    rules = [(f"r{i}", c.All((c.Given("A"), c.Compare("gt", c.Name("A"), c.Const(F(-i)))))) for i in range(200)]
    ev = StageEvaluator("test/all-fire", rules, {"A": "number"})
    assert ev.applicable({"A": F(1)}) == [f"r{i}" for i in range(200)]


def test_or_branches_count_as_firings():
    # each rule fires once per true branch of its any: 3 branches, so at most 21 rules a ruleset
    rules = [(f"r{i}", c.Any_((c.Compare("gt", c.Name("A"), c.Const(F(-i))), c.Compare("gt", c.Name("B"), c.Const(F(-i))),
                              c.Compare("gt", c.Name("C"), c.Const(F(-i)))))) for i in range(100)]
    ev = StageEvaluator("test/or", rules, {"A": "number", "B": "number", "C": "number"})
    assert ev.applicable({"A": F(1), "B": F(1), "C": F(1)}) == [f"r{i}" for i in range(100)]


@pytest.fixture(scope="module")
def inside(tmp_path_factory):
    """1,000 extra damage rules whose constants lie inside the facts' range (bench/rulings.py)."""
    return _bench().extra_rules_book(tmp_path_factory.mktemp("inside"), "wbf-2017", 1000)


def test_1000_rules_with_constants_among_the_facts_rule_as_the_shipped_one(inside):
    import json
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    from reference import generate
    shipped = rulebooks.get("wbf-2017")
    evaluator = inside.evaluator("damage")
    assert evaluator.index is not None and len(evaluator.parts) > 1
    compared = 0
    for i, raw in enumerate(generate(120, seed=5)):
        if raw["rulebook"] != "wbf-2017":
            continue
        case = load_case(f"generated-{i}.yaml", text=json.dumps(raw))
        want, got = rule_case(case, shipped), rule_case(case, inside)
        assert (got.outcome, got.nos.value, got.os.value) == (want.outcome, want.nos.value, want.os.value), raw
        damage = next(d for d in got.trace.decisions() if d.stage == "damage")
        # what the index read is what durable_rules says of the same facts, over all 17 rulesets
        assert list(damage.held) == evaluator.applicable({**inside.parameters, **damage.facts}) == \
            [damage.rule.id], raw
        compared += 1
    assert compared >= 40
