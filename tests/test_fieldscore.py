"""Tests for bridgelaw.field.fieldscore: whole-field matchpoints (fractional frequencies, Neuberg),
cross-IMPs and butler with weighted and split adjusted scores, exact.

The grouped algorithms are checked against the published figures (WBF commentary example 9,
the EBL 2008 lecture's tables B and C) and, on random boards, against plain O(n²)
implementations of the rules as the issue states them.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgelaw.field import fieldscore as fs
from bridgelaw.core.bridge import imps, matchpoint_table, top
from bridgelaw.ruling.outcomes import Component
from bridgelaw.core.bridge import imps as imps_exact
from bridgelaw.field.fieldscore import neuberg, round_half_even, round_toward

# The data below writes a weighted table as (points, weight) pairs, as the sources print them;
# fieldscore takes the one weighted-outcome type, Component, whose outcomes here are points.


def _weighting(entry):
    return [Component(points, weight) for points, weight in entry]


def _entries(entries):
    return [e if e is None or isinstance(e, int) else _weighting(e) for e in entries]


def Field(entries):
    return fs.Field(_entries(entries))


def matchpoints(entries, **kw):
    return fs.matchpoints(_entries(entries), **kw)


def cross_imps(entries, **kw):
    return fs.cross_imps(_entries(entries), **kw)


def butler(entries, **kw):
    return fs.butler(_entries(entries), **kw)


def matchpoints_as_if(field, entry):
    return fs.matchpoints_as_if(field, _weighting(entry))


def cross_imps_as_if(field, entry):
    return fs.cross_imps_as_if(field, _weighting(entry))


def test_outcomes_are_scored_by_the_points_function() -> None:
    # a Component's outcome is any result; `points` gives its points from the direction's view
    from bridgelaw.core.bridge import ns_score, parse_result
    outcome = {text: parse_result(text) for text in ("4H= S", "4H-1 S", "3NT= S")}
    ew = fs.matchpoints([-420, -400, [Component(outcome["4H= S"], F(1, 2)), Component(outcome["4H-1 S"], F(1, 2))]],
                        points=lambda o: -ns_score(o, "None"))
    assert ew.values == matchpoints([-420, -400, [(-420, F(1, 2)), (50, F(1, 2))]]).values
    assert ew.values[2] == F(1, 2) * 1 + F(1, 2) * 4      # -420 ties one (1), +50 beats both (4)

# --------------------------------------------------------------------------- published examples

# WBF commentary on Law 12 (2017), example 9: pair A's weighted score and the field
PAIR_A = [(400, F(1, 3)), (-50, F(1, 3)), (420, F(1, 6)), (-50, F(1, 6))]
FIELD_9 = [420, 420, 420, 420, 400, 400, 170, 150, -50, -50, -50]


def test_commentary_example_9_frequencies() -> None:
    r = matchpoints([*FIELD_9, PAIR_A])
    assert r.field.frequencies() == [(420, F(25, 6)), (400, F(7, 3)), (170, F(1)), (150, F(1)), (-50, F(7, 2))]
    assert r.top == 22 and r.results == 12 and not r.factored


def test_commentary_example_9_matchpoints() -> None:
    r = matchpoints([*FIELD_9, PAIR_A])
    by_score = dict(zip(FIELD_9, r.values))
    assert by_score == {420: F(113, 6), 400: F(37, 3), 170: F(9), 150: F(7), -50: F(5, 2)}  # 18 5/6, 12 1/3, 9, 7, 2 1/2
    assert r.values[-1] == F(17, 2)                                                        # pair A: 8 1/2
    assert sum(r.values) == 12 * 11


def test_commentary_example_9_as_if_obtained() -> None:
    # the other way the commentary computes pair A: each component against the 11 other results
    field = matchpoints([*FIELD_9, PAIR_A]).field
    assert matchpoints_as_if(field, PAIR_A) == [F(12), F(3), F(18), F(3)]


def test_commentary_example_9_ew_is_the_complement() -> None:
    ns = matchpoints([*FIELD_9, PAIR_A]).values
    ew = matchpoints([*(-s for s in FIELD_9), [(-p, w) for p, w in PAIR_A]]).values
    assert [a + b for a, b in zip(ns, ew)] == [F(22)] * 12


# EBL 2008 lecture, Appendix C: ten tables, table 1 weighted; table B (NS), table C (EW, split)
LECTURE_NS = [(1100, F(1, 10)), (620, F(7, 10)), (-200, F(2, 10))]
LECTURE_EW = [(-1100, F(3, 10)), (-620, F(6, 10)), (200, F(1, 10))]      # EW's points
LECTURE_OTHERS = [620, -200, 620, -500, 790, 620, 620, -500, -200]        # NS points, rows 2-10
TABLE_B = [F("11.4"), F("12.1"), F("5.2"), F("12.1"), F(1), F("17.8"), F("12.1"), F("12.1"), F(1), F("5.2")]
TABLE_C_PRINTED = [F("4.8"), F("6.2"), F("12.9"), F("5.2"), F(17), F("0.6"), F("5.2"), F("5.2"), F(17), F("12.9")]
TABLE_C = [F("4.8"), F("6.2"), F("12.9"), F("6.2"), F(17), F("0.6"), F("6.2"), F("6.2"), F(17), F("12.9")]


def test_lecture_table_b_every_row() -> None:
    r = matchpoints([LECTURE_NS, *LECTURE_OTHERS])
    assert r.top == 18
    assert r.values == TABLE_B
    assert sum(r.values) == 90


def test_lecture_table_c_every_row_and_the_slips() -> None:
    r = matchpoints([LECTURE_EW, *(-s for s in LECTURE_OTHERS)])
    assert r.values == TABLE_C
    assert sum(r.values) == 90
    slips = [row for row, (got, printed) in enumerate(zip(r.values, TABLE_C_PRINTED), start=1) if got != printed]
    assert slips == [4, 7, 8]                       # the three other EW -620s, printed 5.2
    assert sum(TABLE_C_PRINTED) == 87               # the printed column does not sum to 10 × 9


def test_lecture_table_c_rows_by_hand() -> None:
    # row 2 (EW -620): 3/10 × 7 + 6/10 × 6 + 1/10 × 5 = 6.2; row 6 (EW -790): 3/10 × 2 = 0.6
    field = Field([LECTURE_EW, *(-s for s in LECTURE_OTHERS)])
    assert matchpoints_as_if(field, LECTURE_EW) == [F(0), F(6), F(12)]
    assert F(3, 10) * 7 + F(6, 10) * 6 + F(1, 10) * 5 == F("6.2")


def test_lecture_table_a_columns() -> None:
    # table A: each possible result of table 1 scored against the other nine, as plain boards
    for own, ns_mp in ((1100, [18, 11, 5, 11, 1, 16, 11, 11, 1, 5]),
                       (620, [12, 12, 5, 12, 1, 18, 12, 12, 1, 5]),
                       (-200, [6, 13, 6, 13, 1, 18, 13, 13, 1, 6])):
        assert matchpoints([own, *LECTURE_OTHERS]).values == [F(x) for x in ns_mp]


# --------------------------------------------------------------------------- plain boards


def test_plain_board_is_plain_matchpointing() -> None:
    scores = [620, 620, 650, -100, 170, 620, -200, 650, 0]
    table = matchpoint_table({s: scores.count(s) for s in set(scores)})
    assert matchpoints(scores).values == [table[s] for s in scores]
    assert matchpoints(scores).top == top(len(scores))


def test_single_result() -> None:
    r = matchpoints([420])
    assert r.values == [F(0)] and r.top == 0


# --------------------------------------------------------------------------- Neuberg


def test_neuberg_formula() -> None:
    assert neuberg(F(113, 6), 12, 13) == F(1475, 72)      # (18 5/6 + 1) × 13 / 12 − 1
    assert neuberg(F(0), 1, 5) == 4                       # a lone result gets average of 2 × 4


def test_neuberg_factors_when_results_are_missing() -> None:
    r = matchpoints([*FIELD_9, PAIR_A, None], expected=13)
    assert r.factored and r.results == 12 and r.expected == 13 and r.top == 24
    assert r.values[0] == F(1475, 72) and r.values[-1] is None
    # factored scores keep the average: Σ MP' = A × (E − 1)
    assert sum(v for v in r.values if v is not None) == 12 * 12


def test_neuberg_expected_beyond_the_tables() -> None:
    r = matchpoints([420, 400, 170], expected=5)
    assert r.top == 8
    assert r.values == [(F(4) + 1) * 5 / 3 - 1, (F(2) + 1) * 5 / 3 - 1, (F(0) + 1) * 5 / 3 - 1]


def test_neuberg_form_none() -> None:
    r = matchpoints([420, 400, None], form="none")
    assert not r.factored and r.top == 2 and r.values == [F(2), F(0), None]


def test_missing_results_as_ties() -> None:
    # 3 results of 4 (top 6), each missing result a tie with every table: M + 1 for M = 4, 2, 0;
    # two results tied (M = 1 each) with two missing: 1 + 2 = 3, average
    r = matchpoints([420, 400, 170, None], form="ties")
    assert r.factored and r.top == 6 and r.values[:3] == [F(5), F(3), F(1)]
    r = matchpoints([420, 420, None, None], form="ties")
    assert r.top == 6 and r.values[:2] == [F(3), F(3)]
    # the average is kept, as Neuberg keeps it: Σ = A × (E − 1)
    r = matchpoints([*FIELD_9, PAIR_A, None], expected=13, form="ties")
    assert sum(v for v in r.values if v is not None) == 12 * 12
    assert r.values[0] == F(113, 6) + 1


def test_neuberg_rounding_toward_average() -> None:
    # 3 results of 4 (top 6): (M + 1) × 4/3 − 1 for M = 0, 2, 4 → 1/3, 3, 5 2/3; to 0.5: 0.5, 3, 5.5
    r = matchpoints([420, 400, 170, None], round_to=F(1, 2))
    assert r.values[:3] == [F(11, 2), F(3), F(1, 2)]
    # exactly halfway goes toward average (3): 2 results of 3, M = 0 → 1/2 exactly, 2 → 7/2
    r = matchpoints([420, 400, None], round_to=F(1))
    assert r.top == 4 and r.values[:2] == [F(3), F(1)]   # 3.5 → 3, 0.5 → 1


def test_neuberg_rounding_mode_is_a_parameter() -> None:
    # the same halves (3.5 and 0.5 of a top of 4) away from zero, or to the even step
    assert matchpoints([420, 400, None], round_to=F(1), round_mode="half-up").values[:2] == [F(4), F(1)]
    assert matchpoints([420, 400, None], round_to=F(1), round_mode="half-even").values[:2] == [F(4), F(0)]
    with pytest.raises(ValueError, match="unknown rounding mode"):
        matchpoints([420, 400, None], round_to=F(1), round_mode="sideways")


def test_the_neuberg_form_is_named_for_the_formula_and_the_former_name_is_read() -> None:
    from bridgelaw import rulebook
    from bridgelaw.rulebook import parameters
    assert parameters.check("fieldscore.neuberg.form", "ebu") == "neuberg"
    book = rulebook.get("wbf-2017")
    assert book.parameters["fieldscore.neuberg.form"] == "neuberg"
    assert book.with_settings(["fieldscore.neuberg.form=ebu"]).parameters["fieldscore.neuberg.form"] == "neuberg"
    assert book.parameters["fieldscore.neuberg.round_mode"] == "toward-average"
    assert rulebook.get("ebu").in_force("fieldscore.neuberg.round_mode").cites == ("EBU-WB/neuberg-rounding",)
    with pytest.raises(ValueError, match="unknown Neuberg form"):
        matchpoints([420, 400, None], form="ebu")


def test_round_toward_average_on_ties() -> None:
    assert round_toward(F("9.25"), F(1, 10), F(12)) == F("9.3")
    assert round_toward(F("14.75"), F(1, 10), F(12)) == F("14.7")
    assert round_toward(F("9.24"), F(1, 10), F(12)) == F("9.2")
    assert round_toward(F(7, 3), F(1, 20), F(5)) == F("2.35")
    assert round_toward(F(7, 3), 0, F(5)) == F(7, 3)


# --------------------------------------------------------------------------- cross-IMPs


def test_cross_imps_plain_board() -> None:
    values, field, by = cross_imps([420, 400, -50])
    # 420: IMP(20)=1, IMP(470)=10 → 11/2; 400: -1 + 10 → 9/2; -50: -10 - 10 → -10
    assert by == 2 and values == [F(11, 2), F(9, 2), F(-10)]
    assert cross_imps([420, 400, -50], divisor="none")[0] == [F(11), F(9), F(-20)]
    assert cross_imps([420, 400, -50], divisor="results")[0] == [F(11, 3), F(3), F(-20, 3)]


def test_cross_imps_weighted_table() -> None:
    # the adjusted table: Σ w × (its component against the others); the others: Σ w × IMP(own − component)
    entries = [420, 100, [(620, F(2, 3)), (-100, F(1, 3))]]
    values, _, _ = cross_imps(entries, divisor="none")
    assert values[0] == imps(420 - 100) + F(2, 3) * imps(420 - 620) + F(1, 3) * imps(420 + 100)
    assert values[1] == imps(100 - 420) + F(2, 3) * imps(100 - 620) + F(1, 3) * imps(100 + 100)
    assert values[2] == F(2, 3) * (imps(620 - 420) + imps(620 - 100)) + F(1, 3) * (imps(-100 - 420) + imps(-100 - 100))
    assert sum(values) == 0


def test_cross_imps_two_tables_is_teams_scoring() -> None:
    # commentary example 8: 2/3 of +620 and 1/3 of -100 against +140 → 4 2/3 IMPs
    values, _, by = cross_imps([[(620, F(2, 3)), (-100, F(1, 3))], 140])
    assert by == 1 and values == [F(14, 3), F(-14, 3)]


def test_cross_imps_as_if() -> None:
    entries = [420, 100, [(620, F(2, 3)), (-100, F(1, 3))]]
    field = Field(entries)
    assert cross_imps_as_if(field, entries[2]) == [F(imps(200) + imps(520)), F(imps(-520) + imps(-200))]


# --------------------------------------------------------------------------- butler


def test_butler_drop_and_datum() -> None:
    r = butler([420, 420, 400, 170, -50], drop=1)
    assert r.mean == F(420 + 400 + 170, 3) and r.datum == r.mean and r.dropped == 1
    assert r.values == [F(imps_exact(420 - r.mean))] * 2 + [F(imps_exact(400 - r.mean)), F(imps_exact(170 - r.mean)),
                                                            F(imps_exact(-50 - r.mean))]


def test_butler_rounded_datum_half_even() -> None:
    assert butler([620, 630, 620, 630], drop=0, round_datum_to=10).datum == 620      # 625 → 620
    assert butler([630, 640, 630, 640], drop=0, round_datum_to=10).datum == 640      # 635 → 640
    assert butler([-620, -630, -620, -630], drop=0, round_datum_to=10).datum == -620  # symmetric


def test_butler_drops_weight_at_the_ends() -> None:
    # 1/2 of +1100 is the top; dropping one result takes it and 1/2 of +620
    entries = [[(1100, F(1, 2)), (-200, F(1, 2))], 620, 620, 100, -500]
    r = butler(entries, drop=1)
    # bottom: -500 (weight 1) dropped; top: 1/2 × +1100 and 1/2 of the +620s dropped
    # kept: 1/2 × -200, +100, 3/2 × +620 → (-100 + 100 + 930) / 3 = 310
    assert r.mean == 310 and r.datum == 310


def test_butler_never_drops_everything() -> None:
    r = butler([420, 400], drop=1)
    assert r.dropped == 0 and r.datum == 410


def test_butler_fractional_difference_imps() -> None:
    assert imps_exact(F(39, 2)) == 0 and imps_exact(20) == 1 and imps_exact(F(-41, 2)) == -1
    assert imps_exact(F(4000)) == 24


def test_round_half_even() -> None:
    assert round_half_even(F(625), F(10)) == 620 and round_half_even(F(635), F(10)) == 640
    assert round_half_even(F(1253, 2), F(10)) == 630 and round_half_even(F(7, 3), 0) == F(7, 3)


# --------------------------------------------------------------------------- bad input


def test_weights_must_sum_to_one() -> None:
    with pytest.raises(ValueError, match="sum to 1"):
        Field([[(420, F(1, 2)), (400, F(1, 3))]])
    with pytest.raises(ValueError, match="negative"):
        Field([[(420, F(3, 2)), (400, F(-1, 2))]])


def test_expected_fewer_than_results() -> None:
    with pytest.raises(ValueError, match="expected 2 results"):
        matchpoints([1, 2, 3], expected=2)


# --------------------------------------------------------------------------- O(n²) references


def _parts(entry):
    return [(entry, F(1))] if isinstance(entry, int) else list(entry)


def ref_matchpoints(entries):
    """Each table: Σ w × (its component scored as if obtained against the other tables)."""
    out = []
    for t, entry in enumerate(entries):
        if entry is None:
            out.append(None)
            continue
        total = F(0)
        for c, w in _parts(entry):
            mp = F(0)
            for u, other in enumerate(entries):
                if u == t or other is None:
                    continue
                for d, v in _parts(other):
                    mp += v * (2 if c > d else 1 if c == d else 0)
            total += w * mp
        out.append(total)
    return out


def ref_cross_imps(entries):
    out = []
    for t, entry in enumerate(entries):
        if entry is None:
            out.append(None)
            continue
        total = F(0)
        for u, other in enumerate(entries):
            if u == t or other is None:
                continue
            total += sum((w * v * imps(c - d) for c, w in _parts(entry) for d, v in _parts(other)), F(0))
        out.append(total)
    return out


def ref_butler_datum(entries, drop):
    """Expand weights to whole copies (× the lcm of the denominators), drop, average."""
    import math
    scale = math.lcm(*(w.denominator for e in entries if e is not None for _, w in _parts(e)))
    copies = sorted(c for e in entries if e is not None for c, w in _parts(e) for _ in range(int(w * scale)))
    results = sum(e is not None for e in entries)
    drop = max(0, min(drop, (results - 1) // 2))
    kept = copies[drop * scale: len(copies) - drop * scale]
    return F(sum(kept), len(kept))


POOL = [-500, -200, -100, -50, 0, 100, 140, 170, 400, 420, 430, 450, 600, 620, 650, 1100]


@st.composite
def boards(draw, artificial=True, split=True):
    n = draw(st.integers(min_value=1, max_value=9))
    ns, ew = [], []
    for _ in range(n):
        kind = draw(st.sampled_from(["result"] * 4 + ["weighted"] * 2 + (["split"] if split else [])
                                    + (["none"] if artificial else [])))
        if kind == "none":
            ns.append(None)
            ew.append(None)
            continue
        if kind == "result":
            s = draw(st.sampled_from(POOL))
            ns.append(s)
            ew.append(-s)
            continue
        parts = []
        for side in range(2 if kind == "split" else 1):
            k = draw(st.integers(min_value=1, max_value=4))
            scores = draw(st.lists(st.sampled_from(POOL), min_size=k, max_size=k))
            raw = draw(st.lists(st.integers(min_value=1, max_value=7), min_size=k, max_size=k))
            parts.append([(s, F(r, sum(raw))) for s, r in zip(scores, raw)])
        ns.append(parts[0])
        ew.append([(-s, w) for s, w in parts[-1]])
    return ns, ew


@settings(max_examples=80, deadline=None)
@given(boards())
def test_matchpoints_equal_the_quadratic_reference(board) -> None:
    ns, ew = board
    for entries in (ns, ew):
        assert matchpoints(entries, form="none").values == ref_matchpoints(entries)


@settings(max_examples=80, deadline=None)
@given(boards(artificial=False, split=False))
def test_balanced_matchpoints_sum_to_n_times_n_minus_one(board) -> None:
    ns, ew = board
    n = len(ns)
    for entries in (ns, ew):
        assert sum(matchpoints(entries).values) == n * (n - 1)
    # and NS + EW = top at every table
    assert [a + b for a, b in zip(matchpoints(ns).values, matchpoints(ew).values)] == [F(2 * (n - 1))] * n


@settings(max_examples=80, deadline=None)
@given(boards())
def test_cross_imps_equal_the_quadratic_reference(board) -> None:
    ns, ew = board
    for entries in (ns, ew):
        assert cross_imps(entries, divisor="none")[0] == ref_cross_imps(entries)


@settings(max_examples=60, deadline=None)
@given(boards(artificial=False, split=False))
def test_balanced_cross_imps_are_zero_sum(board) -> None:
    ns, ew = board
    values = cross_imps(ns)[0]
    assert sum(values) == 0
    assert cross_imps(ew)[0] == [-v for v in values]


@settings(max_examples=80, deadline=None)
@given(boards(), st.integers(min_value=0, max_value=3))
def test_butler_datum_equals_the_expanded_reference(board, drop) -> None:
    ns, _ = board
    if all(e is None for e in ns):
        assert butler(ns).datum is None
        return
    r = butler(ns, drop=drop)
    assert r.mean == ref_butler_datum(ns, drop)
    for entry, value in zip(ns, r.values):
        if entry is None:
            assert value is None
        else:
            assert value == sum((w * imps_exact(c - r.datum) for c, w in _parts(entry)), F(0))


@settings(max_examples=60, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_order_of_tables_and_components_does_not_matter(board, rnd: random.Random) -> None:
    ns, _ = board
    order = list(range(len(ns)))
    rnd.shuffle(order)
    shuffled = []
    for k in order:
        e = ns[k]
        if isinstance(e, list):
            e = list(e)
            rnd.shuffle(e)
        shuffled.append(e)
    for score in (lambda es: matchpoints(es, expected=len(es) + 1, round_to=F(1, 10)).values,
                  lambda es: cross_imps(es)[0],
                  lambda es: butler(es, drop=1, round_datum_to=10).values):
        before = score(ns)
        after = score(shuffled)
        assert [after[order.index(k)] for k in range(len(ns))] == before


@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.integers(-7600, 7600), min_size=1, max_size=70), at=st.integers(-8000, 8000))
def test_a_fields_imp_units_are_its_tables_imps_added(scores, at):
    """Field.imp_units (score by score under 48 distinct scores, by the scale's 24 steps from there)
    is Σ IMP(at − v) over the tables, in the field's integer units."""
    f = fs.Field(scores)
    assert f.imp_units(at) == sum(imps(at - v) for v in scores) * f.scale
