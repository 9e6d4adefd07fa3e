"""Tests for bridgelaw.rulebook.conditions (the closed condition language) and its durable_rules twin.

The core of this file is a differential test: random condition trees over a small vocabulary
are compiled to one durable_rules ruleset per generated rule set (bridgelaw.rulebook.adapter.StageEvaluator)
and evaluated on random exact facts; for every rule, durable_rules must agree with the plain
Python evaluator (bridgelaw.rulebook.conditions.evaluate).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgelaw.rulebook import adapter
from bridgelaw.rulebook import conditions as c
from bridgelaw.rulebook.adapter import StageEvaluator

VOCAB: c.Vocabulary = {
    "A": "number",
    "B": "number",
    "C": "number",
    "flag": "bool",
    "kind": ("x", "y", "z"),
}
NUMBERS = ("A", "B", "C")
WORDS = ("x", "y", "z")


def p(node):
    return c.parse(node, VOCAB)


def compile_(node, negate=False):
    return adapter._Compiler().compile(p(node), negate)


# --------------------------------------------------------------------------- parsing


class TestParse:
    def test_all_and_any(self):
        assert p({"all": [{"lt": ["A", "B"]}, {"given": "C"}]}) == c.All(
            (c.Compare("lt", c.Name("A"), c.Name("B")), c.Given("C"))
        )
        assert p({"any": [{"is": "flag"}]}) == c.Any_((c.Is("flag", True),))

    def test_not(self):
        assert p({"not": {"given": "A"}}) == c.Not(c.Given("A"))
        assert p({"not": {"not": {"is": "flag"}}}) == c.Not(c.Not(c.Is("flag", True)))

    @pytest.mark.parametrize("op", c.COMPARISONS)
    def test_every_comparison_between_facts(self, op):
        assert p({op: ["A", "B"]}) == c.Compare(op, c.Name("A"), c.Name("B"))

    @pytest.mark.parametrize(
        ("operand", "value"),
        [
            (0, F(0)),
            (-3, F(-3)),
            ("3/5", F(3, 5)),
            ("60%", F(3, 5)),
            (0.6, F(3, 5)),
            ("33 1/3%", F(1, 3)),
            ("-4 2/3", F(-14, 3)),
            ("1/3", F(1, 3)),
        ],
    )
    def test_constants_are_exact(self, operand, value):
        assert p({"lt": ["A", operand]}) == c.Compare("lt", c.Name("A"), c.Const(value))
        # a constant may stand on the left too
        assert p({"ge": [operand, "A"]}) == c.Compare("ge", c.Const(value), c.Name("A"))

    @pytest.mark.parametrize("op", ["eq", "ne"])
    def test_word_comparisons(self, op):
        assert p({op: ["kind", "y"]}) == c.Compare(op, c.Name("kind"), c.Word("y"))
        assert p({op: ["y", "kind"]}) == c.Compare(op, c.Word("y"), c.Name("kind"))

    def test_is_long_form_and_shorthand(self):
        assert p({"is": ["flag", True]}) == c.Is("flag", True)
        assert p({"is": ["flag", False]}) == c.Is("flag", False)
        assert p({"is": "flag"}) == c.Is("flag", True)

    def test_in(self):
        assert p({"in": ["kind", ["x", "z"]]}) == c.In("kind", ("x", "z"))

    def test_given_and_always(self):
        assert p({"given": "A"}) == c.Given("A")
        assert p({"given": "kind"}) == c.Given("kind")
        assert p({"always": True}) == c.Always()

    @pytest.mark.parametrize(
        ("node", "message", "path"),
        [
            ([1], "exactly one operator", []),
            ({"lt": ["A", "B"], "gt": ["A", "B"]}, "exactly one operator", []),
            ({"all": []}, "'all' takes a non-empty list", ["all"]),
            ({"any": "A"}, "'any' takes a non-empty list", ["any"]),
            ({"all": [{"given": "A"}, {"foo": 1}]}, "unknown operator 'foo'", ["all", 1]),
            ({"lt": ["A"]}, "'lt' takes two operands", ["lt"]),
            ({"lt": ["A", True]}, "true/false is not a comparison operand", ["lt", 1]),
            ({"lt": ["D", 1]}, "unknown fact 'D'", ["lt", 0]),
            ({"lt": [1, 2]}, "needs at least one fact", ["lt"]),
            ({"lt": ["kind", "x"]}, "kind is a word", ["lt", 1]),
            ({"eq": ["kind", "w"]}, "'w' is not a value of kind", ["eq", 1]),
            ({"eq": ["A", "kind"]}, "kind is not a number", ["eq"]),
            ({"lt": ["flag", 1]}, "flag is not a number", ["lt"]),
            ({"is": ["A", True]}, "'A' is not a yes/no fact", ["is", 0]),
            ({"is": ["flag", "yes"]}, "'is' takes a yes/no fact", ["is"]),
            ({"is": "A"}, "'A' is not a yes/no fact", ["is", 0]),
            ({"in": ["kind", []]}, "'in' takes a fact and a list", ["in"]),
            ({"in": ["kind", ["w"]]}, "'w' is not a value of kind", ["in", 1, 0]),
            ({"in": ["A", ["x"]]}, "'A' does not take words", ["in", 0]),
            ({"given": "Q"}, "unknown fact 'Q'", ["given"]),
            ({"always": False}, "'always' takes true", ["always"]),
            ({"not": {"lt": ["A", "Bee"]}}, "unknown fact 'Bee'", ["not", "lt", 1]),
        ],
    )
    def test_rejections(self, node, message, path):
        with pytest.raises(c.ConditionError) as info:
            p(node)
        assert message in info.value.message
        assert info.value.path == path

    def test_unknown_operator_suggests(self):
        with pytest.raises(c.ConditionError) as info:
            p({"al": [{"given": "A"}]})
        assert info.value.suggestion == "did you mean 'all'?"
        assert "one of all, any, not" in info.value.expected

    def test_unknown_word_suggests(self):
        with pytest.raises(c.ConditionError) as info:
            c.parse({"in": ["scoring", ["imp"]]}, {"scoring": ("imps", "matchpoints")})
        assert info.value.suggestion == "did you mean 'imps'?"


# --------------------------------------------------------------------------- names, describe


def test_names():
    cond = p(
        {
            "all": [
                {"given": "A"},
                {"not": {"lt": ["B", "1/3"]}},
                {"any": [{"is": "flag"}, {"in": ["kind", ["x"]]}]},
                {"always": True},
            ]
        }
    )
    assert c.names(cond) == {"A", "B", "flag", "kind"}
    assert c.names(p({"lt": [0, "C"]})) == {"C"}
    assert c.names(p({"eq": ["y", "kind"]})) == {"kind"}
    assert c.names(p({"always": True})) == set()
    assert c.constants(cond) == {F(1, 3)}


@pytest.mark.parametrize(
    ("node", "text"),
    [
        ({"all": [{"given": "A"}, {"lt": ["A", "C"]}, {"lt": ["C", "B"]}]}, "A given and A < C and C < B"),
        ({"not": {"given": "A"}}, "A not given"),
        ({"not": {"lt": ["A", "B"]}}, "not (A < B)"),
        ({"le": ["B", "A"]}, "B ≤ A"),
        ({"ge": ["A", "60%"]}, "A ≥ 3/5"),
        ({"gt": ["A", "-4 2/3"]}, "A > -4 2/3"),
        ({"ne": ["A", 0]}, "A ≠ 0"),
        ({"eq": ["kind", "x"]}, "kind = x"),
        ({"is": "flag"}, "flag"),
        ({"is": ["flag", False]}, "not flag"),
        ({"in": ["kind", ["x", "y"]]}, "kind in (x, y)"),
        ({"always": True}, "always"),
        (
            {"all": [{"given": "A"}, {"any": [{"lt": ["A", "B"]}, {"is": "flag"}]}]},
            "A given and (A < B or flag)",
        ),
        (
            {"any": [{"all": [{"le": ["A", "B"]}, {"le": ["B", "C"]}]}, {"eq": ["A", "C"]}]},
            "(A ≤ B and B ≤ C) or A = C",
        ),
    ],
)
def test_describe(node, text):
    assert c.describe(p(node)) == text


# --------------------------------------------------------------------------- plain evaluation


class TestEvaluate:
    def test_all_short_circuits_on_a_missing_fact(self):
        cond = p({"all": [{"given": "A"}, {"lt": ["A", "B"]}]})
        assert c.evaluate(cond, {"B": F(1)}) is False
        assert c.evaluate(cond, {"A": None, "B": F(1)}) is False
        assert c.evaluate(cond, {"A": F(0), "B": F(1)}) is True

    def test_any_stops_at_its_first_true_branch(self):
        cond = p({"any": [{"is": "flag"}, {"lt": ["A", "B"]}]})
        assert c.evaluate(cond, {"flag": True, "B": F(1)}) is True
        with pytest.raises(c.MissingFact) as info:
            c.evaluate(cond, {"flag": False, "B": F(1)})
        assert info.value.name == "A"

    def test_is_false_is_not_missing(self):
        assert c.evaluate(p({"is": ["flag", False]}), {"flag": False}) is True
        with pytest.raises(c.MissingFact):
            c.evaluate(p({"is": "flag"}), {})

    def test_exact_fractions(self):
        assert c.evaluate(p({"eq": ["A", "B"]}), {"A": F(1, 3) + F(2, 3), "B": F(1)})
        assert c.evaluate(p({"eq": ["A", "60%"]}), {"A": F(3, 5)})
        assert c.evaluate(p({"eq": ["A", 0.3]}), {"A": F("0.1") + F("0.2")})


# --------------------------------------------------------------------------- De Morgan


class TestCompileNegation:
    def test_not_all_becomes_or_of_negations(self):
        assert compile_({"not": {"all": [{"lt": ["A", "B"]}, {"is": "flag"}]}}) == {
            "$or": [{"$gte": {"A": {"$m": "B"}}}, {"flag": 0}]
        }

    def test_not_any_becomes_and_of_negations(self):
        assert compile_({"not": {"any": [{"le": ["A", "B"]}, {"eq": ["kind", "x"]}]}}) == {
            "$and": [{"$gt": {"A": {"$m": "B"}}}, {"$neq": {"kind": "x"}}]
        }

    def test_double_negation_cancels(self):
        assert compile_({"not": {"not": {"lt": ["A", "B"]}}}) == {"$lt": {"A": {"$m": "B"}}}

    @pytest.mark.parametrize(
        ("op", "negated"), [("lt", "$gte"), ("le", "$gt"), ("eq", "$neq"), ("ne", "$eq"), ("ge", "$lt"), ("gt", "$lte")]
    )
    def test_negated_comparisons(self, op, negated):
        assert compile_({"not": {op: ["A", "B"]}}) == {negated: {"A": {"$m": "B"}}}

    def test_constant_on_the_left_is_flipped_then_negated(self):
        # not (0 < A)  ==  A <= 0
        assert compile_({"not": {"lt": [0, "A"]}}) == {"$lte": {"A": {"$m": "bl_k0"}}}

    def test_negated_in_is_and_of_neq(self):
        assert compile_({"not": {"in": ["kind", ["x", "y"]]}}) == {
            "$and": [{"$neq": {"kind": "x"}}, {"$neq": {"kind": "y"}}]
        }

    def test_negated_given_and_is(self):
        assert compile_({"not": {"given": "A"}}) == {"$nex": {"A": 1}}
        assert compile_({"not": {"is": ["flag", False]}}) == {"flag": 1}

    def test_nested_de_morgan(self):
        # not (A < B and (flag or kind = x))  ==  A >= B or (not flag and kind != x)
        assert compile_({"not": {"all": [{"lt": ["A", "B"]}, {"any": [{"is": "flag"}, {"eq": ["kind", "x"]}]}]}}) == {
            "$or": [{"$gte": {"A": {"$m": "B"}}}, {"$and": [{"flag": 0}, {"$neq": {"kind": "x"}}]}]
        }

    def test_always_inside_all_and_any(self):
        assert compile_({"all": [{"always": True}, {"lt": ["A", "B"]}]}) == {"$and": [{"$lt": {"A": {"$m": "B"}}}]}
        assert compile_({"any": [{"always": True}, {"lt": ["A", "B"]}]}) is None


# --------------------------------------------------------------------------- durable_rules evaluator


@pytest.fixture(scope="module")
def fixed_evaluator():
    rules = [
        ("a-eq-b", p({"eq": ["A", "B"]})),
        ("a-lt-b", p({"lt": ["A", "B"]})),
        ("a-eq-third", p({"eq": ["A", "1/3"]})),
        ("a-eq-60pc", p({"eq": ["A", "60%"]})),
        ("a-eq-0.3", p({"eq": ["A", 0.3]})),
        ("a-negative", p({"lt": ["A", 0]})),
        ("c-le-a", p({"all": [{"given": "C"}, {"le": ["C", "A"]}]})),
        ("no-c", p({"not": {"given": "C"}})),
        ("kind-not-xy", p({"not": {"in": ["kind", ["x", "y"]]}})),
        ("flag", p({"is": "flag"})),
    ]
    return StageEvaluator("test/fixed", rules, VOCAB)


def fired(ev, facts):
    return set(ev.applicable(facts))


class TestExactness:
    def test_thirds_sum_to_one(self, fixed_evaluator):
        got = fired(fixed_evaluator, {"A": F(1, 3) + F(2, 3), "B": F(1)})
        assert "a-eq-b" in got and "a-lt-b" not in got

    def test_thirds_against_a_constant(self, fixed_evaluator):
        got = fired(fixed_evaluator, {"A": F(1, 9) * 3, "B": F(1, 3) + F(1, 10**6)})
        assert {"a-eq-third", "a-lt-b"} <= got
        assert "a-eq-b" not in got

    def test_decimal_sum_as_fractions(self, fixed_evaluator):
        a = F("0.1") + F("0.2")
        assert 0.1 + 0.2 != 0.3  # the float trap this guards against
        got = fired(fixed_evaluator, {"A": a, "B": F("0.3")})
        assert {"a-eq-b", "a-eq-0.3"} <= got
        assert "a-lt-b" not in got

    def test_percent_constant(self, fixed_evaluator):
        assert "a-eq-60pc" in fired(fixed_evaluator, {"A": F(6, 10), "B": F(0)})
        assert "a-eq-60pc" not in fired(fixed_evaluator, {"A": F(3, 5) + F(1, 10**9), "B": F(0)})

    def test_large_values(self, fixed_evaluator):
        big = F(10**12)
        assert "a-lt-b" in fired(fixed_evaluator, {"A": big, "B": big + F(1, 3)})
        assert "a-eq-b" in fired(fixed_evaluator, {"A": big + F(1, 3) + F(2, 3), "B": big + 1})
        # matchpoints of a big field: 2 x 4000 results, fractional frequencies
        got = fired(fixed_evaluator, {"A": F(23998, 3), "B": F(8000)})
        assert "a-lt-b" in got and "a-eq-b" not in got
        assert "a-eq-b" in fired(fixed_evaluator, {"A": F(23997, 3), "B": F(7999)})

    def test_negative_values(self, fixed_evaluator):
        got = fired(fixed_evaluator, {"A": F(-17, 2), "B": F(-8) - F(1, 2), "C": F(-9)})
        assert {"a-eq-b", "a-negative", "c-le-a"} <= got
        got = fired(fixed_evaluator, {"A": F(-1, 3), "B": F(-1, 4), "C": F(-1, 3)})
        assert {"a-lt-b", "a-negative", "c-le-a"} <= got
        assert "a-negative" not in fired(fixed_evaluator, {"A": F(0), "B": F(0)})

    def test_missing_and_words(self, fixed_evaluator):
        got = fired(fixed_evaluator, {"A": F(1), "B": F(2), "kind": "z", "flag": True})
        assert {"no-c", "kind-not-xy", "flag", "a-lt-b"} <= got
        got = fired(fixed_evaluator, {"A": F(1), "B": F(2), "C": F(1), "kind": "x", "flag": False})
        assert got == {"a-lt-b", "c-le-a"}

    def test_applicable_is_in_declaration_order(self, fixed_evaluator):
        got = fixed_evaluator.applicable({"A": F(-1), "B": F(-1), "flag": True, "kind": "z"})
        assert got == ["a-eq-b", "a-negative", "no-c", "kind-not-xy", "flag"]

    def test_encode_scales_to_integers(self, fixed_evaluator):
        fact = fixed_evaluator.encode({"A": F(1, 3), "B": F(1, 2), "flag": False, "kind": "y", "C": None})
        # constants 1/3, 3/5, 3/10, 0: common denominator 30
        assert fact["A"] == 10 and fact["B"] == 15
        assert fact["flag"] == 0 and fact["kind"] == "y" and "C" not in fact
        assert all(isinstance(v, int) for k, v in fact.items() if k not in ("kind",))
        assert {fact[fixed_evaluator.constants[k]] for k in (F(1, 3), F(3, 5), F(3, 10))} == {10, 18, 9}

    def test_too_large_to_compare_exactly_is_refused(self, fixed_evaluator):
        with pytest.raises(ValueError, match="too large to compare exactly") as info:
            fixed_evaluator.applicable({"A": F(2**53), "B": F(0)})
        assert "too fine" not in str(info.value)     # issue 14 item 7: only fine fractions are "too fine"
        with pytest.raises(ValueError, match="too fine to compare exactly"):
            # scaled by 30, this passes 2**53
            fixed_evaluator.applicable({"A": F(2**49) + F(1, 3), "B": F(0)})

    def test_evaluator_reusable_after_many_facts(self, fixed_evaluator):
        for i in range(50):
            assert ("a-lt-b" in fired(fixed_evaluator, {"A": F(i, 7), "B": F(i + 1, 7)})) is True


def test_always_in_positive_positions():
    rules = [
        ("always", p({"always": True})),
        ("all-always", p({"all": [{"always": True}, {"lt": ["A", "B"]}]})),
        ("any-always", p({"any": [{"always": True}, {"lt": ["A", "B"]}]})),
        ("not-not-always", p({"not": {"not": {"always": True}}})),
    ]
    ev = StageEvaluator("test/always", rules, VOCAB)
    assert ev.applicable({"A": F(2), "B": F(1)}) == ["always", "any-always", "not-not-always"]
    assert ev.applicable({"A": F(1), "B": F(2)}) == ["always", "all-always", "any-always", "not-not-always"]


# Regression: at 569fb3c the adapter raised ValueError("'not always' can never apply") for a
# condition the parser accepts and the plain evaluator answers (False), so a rulebook with it
# loaded and then crashed in decide().
def test_never_applying_conditions_compile_like_plain_evaluation():
    rules = [
        ("never", p({"not": {"always": True}})),
        ("or-never", p({"any": [{"not": {"always": True}}, {"lt": ["A", "B"]}]})),
        ("not-all-always", p({"not": {"all": [{"always": True}, {"ge": ["A", "B"]}]}})),
    ]
    ev = StageEvaluator("test/never", rules, VOCAB)
    facts = {"A": F(1), "B": F(2)}
    assert [r for r, cond in rules if c.evaluate(cond, facts)] == ["or-never", "not-all-always"]
    assert ev.applicable(facts) == ["or-never", "not-all-always"]


# --------------------------------------------------------------------------- differential test

# Few distinct values, several spellings of each, and constants that coincide with them, so
# that ties (the boundaries of every rule) are common.
CONSTANTS = [0, 1, -1, "1/3", "33 1/3%", "3/5", "60%", 0.6, "0.3", "1/2", "-4 2/3", 10**12]

SPELLINGS = {
    F(0): [F(0), F(1, 3) - F(1, 3)],
    F(1): [F(1), F(1, 3) + F(2, 3)],
    F(-1): [F(-1), F(-2, 3) - F(1, 3)],
    F(1, 3): [F(1, 3), F(1, 9) * 3],
    F(3, 5): [F(3, 5), F(6, 10)],
    F(3, 10): [F(3, 10), F("0.1") + F("0.2")],
    F(-14, 3): [F(-14, 3), F(-4) - F(2, 3)],
    F(10**12): [F(10**12), F(3 * 10**12, 3)],
    F(10**12) + F(1, 3): [F(10**12) + F(1, 3), F(3 * 10**12 + 1, 3)],
}
exact_value = st.sampled_from(sorted(SPELLINGS)).flatmap(lambda v: st.sampled_from(SPELLINGS[v]))
POOL = [v for spellings in SPELLINGS.values() for v in spellings]

number = st.sampled_from(NUMBERS)
operand = st.one_of(number, st.sampled_from(CONSTANTS), st.sampled_from(CONSTANTS))
numeric_compare = st.builds(
    lambda op, left, right, swap: {op: [right, left] if swap else [left, right]},
    st.sampled_from(c.COMPARISONS),
    number,
    operand,
    st.booleans(),
)
word_compare = st.builds(
    lambda op, word, swap: {op: [word, "kind"] if swap else ["kind", word]},
    st.sampled_from(["eq", "ne"]),
    st.sampled_from(WORDS),
    st.booleans(),
)
is_cond = st.one_of(st.just({"is": "flag"}), st.builds(lambda b: {"is": ["flag", b]}, st.booleans()))
in_cond = st.builds(
    lambda words: {"in": ["kind", words]}, st.lists(st.sampled_from(WORDS), min_size=1, max_size=3, unique=True)
)
given_cond = st.builds(lambda n: {"given": n}, st.sampled_from([*NUMBERS, "flag", "kind"]))
leaf = st.one_of(numeric_compare, numeric_compare, word_compare, is_cond, in_cond, given_cond)
condition = st.recursive(
    leaf,
    lambda inner: st.one_of(
        st.builds(lambda xs: {"all": xs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda xs: {"any": xs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda x: {"not": x}, inner),
    ),
    max_leaves=5,
)


def maybe(strategy):
    # mostly present; sometimes missing (absent or None) to exercise given / short-circuits
    return st.one_of(*[strategy] * 7, st.none())


facts_strategy = st.fixed_dictionaries(
    {
        "A": maybe(exact_value),
        "B": maybe(exact_value),
        "C": maybe(exact_value),
        "flag": maybe(st.booleans()),
        "kind": maybe(st.sampled_from(WORDS)),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    raw_rules=st.lists(condition, min_size=2, max_size=6),
    fact_sets=st.lists(facts_strategy, min_size=12, max_size=24),
)
def test_durable_rules_agrees_with_plain_evaluation(raw_rules, fact_sets):
    rules = [(f"r{i}", p(raw)) for i, raw in enumerate(raw_rules)]
    ev = StageEvaluator("test/differential", rules, VOCAB)  # one ruleset per generated rule set
    for facts in fact_sets:
        facts = {k: v for k, v in facts.items() if v is not None or k == "C"}
        got = set(ev.applicable(facts))
        refused = False
        for rule_id, cond in rules:
            try:
                expected = c.evaluate(cond, facts)
            except c.MissingFact:
                refused = True
                continue  # Rulebook.decide refuses such facts before durable_rules is asked
            assert (rule_id in got) == expected, (
                f"{rule_id}: {c.describe(cond)} on {facts}: plain {expected}, durable_rules {rule_id in got}"
            )
        if ev.index is not None and not refused:    # the index reads the same answer off the compiled rules
            assert set(ev.index.held(facts)) == got, (facts, [c.describe(cond) for _, cond in rules])


@pytest.fixture(scope="module")
def fixed_comparisons():
    rules = []
    for op in c.COMPARISONS:
        rules.append((f"{op}-a-b", p({op: ["A", "B"]})))
        rules.append((f"{op}-c-a", p({op: ["C", "A"]})))
        rules.append((f"{op}-a-third", p({op: ["A", "1/3"]})))
        rules.append((f"{op}-third-a", p({op: ["33 1/3%", "A"]})))
        rules.append((f"{op}-60pc-b", p({op: ["60%", "B"]})))
        rules.append((f"not-{op}-a-b", p({"not": {op: ["A", "B"]}})))
        rules.append((f"not-{op}-third-a", p({"not": {op: ["1/3", "A"]}})))
        rules.append((f"not-{op}-b-60pc", p({"not": {op: ["B", "60%"]}})))
    return StageEvaluator("test/comparisons", rules, VOCAB), rules


def test_every_comparison_exhaustively_over_the_pool(fixed_comparisons):
    """Every operator, plain and negated, constant left and right, on every pair of pool values
    (every tie included, reached through different spellings)."""
    ev, rules = fixed_comparisons
    for i, a in enumerate(POOL):
        for j, b in enumerate(POOL):
            facts = {"A": a, "B": b, "C": POOL[(i + j) % len(POOL)]}
            expected = [rule_id for rule_id, cond in rules if c.evaluate(cond, facts)]
            assert ev.applicable(facts) == expected, facts
            assert list(ev.index.held(facts)) == expected, facts
