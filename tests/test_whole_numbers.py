"""The arithmetic short cuts of the ruling path give the same exact values: whole numbers added and
subtracted as integers (core/exact.plus, minus, whole), a weighted score over the weights' common
denominator (ruling/scorer.weighted_sum), today's date asked of the clock once a second."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F

from hypothesis import given, strategies as st

from bridgelaw.core.dates import today
from bridgelaw.core.exact import exact_json, format_mixed, fraction_parts, minus, plus, whole
from bridgelaw.ruling.scorer import weighted_sum

fractions = st.fractions(min_value=-1000, max_value=1000, max_denominator=60)
wholes = st.integers(-10**30, 10**30).map(F)


@given(a=st.one_of(fractions, wholes), b=st.one_of(fractions, wholes))
def test_plus_and_minus_are_fraction_arithmetic(a, b):
    for got, want in ((plus(a, b), a + b), (minus(a, b), a - b)):
        assert got == want and type(got) is F and fraction_parts(got) == (want.numerator, want.denominator)


def test_whole_numbers_are_the_same_fractions():
    assert whole(7) == F(7) and whole(7) is whole(7) and type(whole(-3)) is F
    assert whole(10**40) == F(10**40)
    assert plus(F(1, 2), F(1, 3)) == F(5, 6) and minus(F(3), F(5)) == F(-2)


@given(st.lists(st.tuples(fractions, st.one_of(fractions, st.integers(-24, 60).map(F))), min_size=1, max_size=6))
def test_weighted_sum_is_the_sum_of_the_products(terms):
    got = weighted_sum(terms)
    assert got == sum((w * v for w, v in terms), F(0)) and type(got) is F


def test_exact_json_and_format_mixed_of_fractions():
    assert exact_json(F(-17, 2)) == {"exact": "-17/2", "value": -8.5}
    assert exact_json(F(6)) == {"exact": "6", "value": 6.0}
    assert format_mixed(F(-14, 3)) == "-4 2/3" and format_mixed(F(5), signed=True) == "+5"


def test_today_is_the_clocks_date():
    assert today() in (dt.date.today(), dt.date.today() - dt.timedelta(days=1))
