"""Tests for bridgelaw.core.exact: parsing and formatting exact numbers."""

from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgelaw.core.exact import (
    ratio,
    NumberError,
    exact_json,
    format_decimal,
    format_mixed,
    lcm_of_denominators,
    parse_exact,
)

# --------------------------------------------------------------------------- parse_exact


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, F(3)),
        (-4, F(-4)),
        (0, F(0)),
        (F(17, 2), F(17, 2)),
        (0.6, F(3, 5)),
        (-1.25, F(-5, 4)),
        (0.1, F(1, 10)),
        (2.0, F(2)),
        (Decimal("0.35"), F(7, 20)),
        ("3", F(3)),
        ("-3", F(-3)),
        ("+3", F(3)),
        ("0", F(0)),
        ("17/2", F(17, 2)),
        ("-17/2", F(-17, 2)),
        ("+17/2", F(17, 2)),
        ("6/4", F(3, 2)),
        ("8 1/2", F(17, 2)),
        ("-4 2/3", F(-14, 3)),
        ("+4 2/3", F(14, 3)),
        ("0.6", F(3, 5)),
        ("-1.25", F(-5, 4)),
        (".5", F(1, 2)),
        ("12.50", F(25, 2)),
        ("  8   1/2  ", F(17, 2)),
        ("17 / 2", F(17, 2)),
        ("- 3", F(-3)),
        ("\u22124 2/3", F(-14, 3)),  # unicode minus
        ("\u221217/2", F(-17, 2)),
        ("\t3\n", F(3)),
    ],
)
def test_parse_exact(value: object, expected: F) -> None:
    result = parse_exact(value)
    assert result == expected
    assert type(result) is F


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("60%", F(3, 5)),
        ("12.5%", F(1, 8)),
        ("33 1/3%", F(1, 3)),
        ("100%", F(1)),
        ("0%", F(0)),
        ("-3%", F(-3, 100)),
        (" 40 % ", F(2, 5)),
        ("200/3%", F(2, 3)),
        # plain numbers are still plain numbers when percentages are allowed
        ("0.6", F(3, 5)),
        ("3", F(3)),
    ],
)
def test_parse_exact_percent(text: str, expected: F) -> None:
    assert parse_exact(text, percent=True) == expected


def test_percent_not_allowed_by_default() -> None:
    with pytest.raises(NumberError, match="percentages are not allowed here") as info:
        parse_exact("60%")
    assert "'60%'" in str(info.value)


def test_error_message_names_the_input() -> None:
    with pytest.raises(NumberError) as info:
        parse_exact("abc")
    assert str(info.value) == "expected a number such as 3, -4 2/3, 17/2 or 0.6, got 'abc'"
    with pytest.raises(NumberError) as info:
        parse_exact("abc", percent=True)
    assert str(info.value) == "expected a number such as 3, -4 2/3, 17/2, 0.6 or 60%, got 'abc'"
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "value",
    [
        "abc",
        "",
        "   ",
        "-",
        "3.",
        "1e3",
        "1,5",
        "3 1/2/4",
        "3 -1/2",
        "--3",
        "+-3",
        "3 4",
        "8 3/2",  # mixed number with an improper fraction part
        "8 2/2",
        "8 0/2",
        "1/2 3",
        "½",
        "\u0663",  # Arabic-Indic digit three
        "60%%",
        "%",
        "nan",
        "inf",
        True,
        False,
        None,
        [3],
        float("nan"),
        float("inf"),
        Decimal("NaN"),
    ],
)
def test_parse_exact_rejects(value: object) -> None:
    with pytest.raises(NumberError):
        parse_exact(value, percent=True)


@pytest.mark.parametrize("text", ["1/0", "-3/0", "8 1/0", "1/0%"])
def test_zero_denominator(text: str) -> None:
    with pytest.raises(NumberError, match="denominator 0"):
        parse_exact(text, percent=True)


def test_number_error_is_value_error() -> None:
    assert issubclass(NumberError, ValueError)


# --------------------------------------------------------------------------- format_mixed


@pytest.mark.parametrize(
    ("value", "plain", "signed"),
    [
        (F(17, 2), "8 1/2", "+8 1/2"),
        (F(-14, 3), "-4 2/3", "-4 2/3"),
        (F(14, 3), "4 2/3", "+4 2/3"),
        (F(17), "17", "+17"),
        (F(2), "2", "+2"),
        (F(0), "0", "0"),
        (F(-1, 3), "-1/3", "-1/3"),
        (F(2, 3), "2/3", "+2/3"),
        (F(-5), "-5", "-5"),
        (F(113, 6), "18 5/6", "+18 5/6"),
        (7, "7", "+7"),
    ],
)
def test_format_mixed(value: F, plain: str, signed: str) -> None:
    assert format_mixed(value) == plain
    assert format_mixed(value, signed=True) == signed


@given(st.fractions(min_value=-10**20, max_value=10**20, max_denominator=1000), st.booleans())
def test_format_mixed_round_trips(value: F, signed: bool) -> None:
    assert parse_exact(format_mixed(value, signed=signed)) == value


# --------------------------------------------------------------------------- format_decimal


@pytest.mark.parametrize(
    ("value", "places", "plain", "signed"),
    [
        (F(17, 2), 2, "8.5", "+8.5"),
        (F(14, 3), 2, "4.67", "+4.67"),
        (F(-14, 3), 2, "-4.67", "-4.67"),
        (F(12), 2, "12", "+12"),
        (F(1, 3), 2, "0.33", "+0.33"),
        (F(2, 3), 2, "0.67", "+0.67"),
        (F(0), 2, "0", "0"),
        (F(1, 8), 2, "0.13", "+0.13"),  # half away from zero, not half to even
        (F(-1, 8), 2, "-0.13", "-0.13"),
        (F(5, 8), 2, "0.63", "+0.63"),
        (F(1, 1000), 2, "0", "0"),  # rounds to zero: no sign
        (F(-1, 1000), 2, "0", "0"),
        (F(-1, 200), 2, "-0.01", "-0.01"),  # exactly half: away from zero
        (F(1, 200), 2, "0.01", "+0.01"),
        (F(999, 1000), 2, "1", "+1"),
        (F(-2999, 1000), 2, "-3", "-3"),
        (F(5, 2), 0, "3", "+3"),
        (F(-5, 2), 0, "-3", "-3"),
        (F(7, 2), 0, "4", "+4"),  # not banker's rounding
        (F(1, 3), 4, "0.3333", "+0.3333"),
        (F(113, 6), 1, "18.8", "+18.8"),
        (F(57, 5), 2, "11.4", "+11.4"),
        (F(101, 10), 2, "10.1", "+10.1"),
        (F(1001, 100), 1, "10", "+10"),
        (F(-1), 2, "-1", "-1"),
        (25, 2, "25", "+25"),
    ],
)
def test_format_decimal(value: F, places: int, plain: str, signed: str) -> None:
    assert format_decimal(value, places) == plain
    assert format_decimal(value, places, signed=True) == signed


def test_format_decimal_default_places() -> None:
    assert format_decimal(F(14, 3)) == "4.67"


def test_format_decimal_negative_places() -> None:
    with pytest.raises(ValueError):
        format_decimal(F(1), -1)


@given(st.fractions(min_value=-10**20, max_value=10**20, max_denominator=10**6), st.integers(min_value=0, max_value=6))
def test_format_decimal_is_within_half_a_unit(value: F, places: int) -> None:
    text = format_decimal(value, places)
    shown = parse_exact(text)
    assert abs(shown - value) <= F(1, 2 * 10**places)
    assert text != "-0"
    assert not text.startswith("+")
    if "." in text:
        assert not text.endswith("0")
        assert len(text.split(".")[1]) <= places


# --------------------------------------------------------------------------- exact_json


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (F(17, 2), {"exact": "17/2", "value": 8.5}),
        (F(-14, 3), {"exact": "-14/3", "value": -14 / 3}),
        (F(3), {"exact": "3", "value": 3.0}),
        (F(0), {"exact": "0", "value": 0.0}),
    ],
)
def test_exact_json(value: F, expected: dict) -> None:
    result = exact_json(value)
    assert result == expected
    assert type(result["value"]) is float
    assert F(result["exact"]) == value


@given(st.fractions() | st.builds(F, st.integers(-10 ** 400, 10 ** 400), st.integers(1, 10 ** 400)))
def test_exact_json_value_is_floats(value: F) -> None:
    try:
        expected = float(value)
    except OverflowError:
        expected = None
    assert exact_json(value) == {"exact": str(value), "value": expected}


# --------------------------------------------------------------------------- lcm_of_denominators


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], 1),
        ([F(3)], 1),
        ([3, 4], 1),
        ([F(1, 2), F(1, 3)], 6),
        ([F(1, 6), F(1, 3), F(1, 2)], 6),
        ([F(25, 6), F(7, 3), 1, F(7, 2)], 6),
        ([F(1, 4), F(5, 6), F(-7, 10)], 60),
    ],
)
def test_lcm_of_denominators(values: list, expected: int) -> None:
    assert lcm_of_denominators(values) == expected
    assert lcm_of_denominators(iter(values)) == expected


def test_lcm_of_denominators_rejects_floats() -> None:
    with pytest.raises(TypeError):
        lcm_of_denominators([0.5])


def test_numbers_are_bounded() -> None:
    """Numbers of more than 30 digits are refused (docs/limits.md), whatever their form."""
    for value in ("9" * 31, 10**30, "1/" + "7" * 31, 1e300, 1e-300, F(1, 10**30)):
        with pytest.raises(NumberError, match="digits|too large|too fine"):
            parse_exact(value)
    assert parse_exact("9" * 30) == 10**30 - 1
    assert parse_exact("-4 2/3") == F(-14, 3)


def test_short_number_texts_are_remembered_within_a_bound() -> None:
    from bridgelaw.core import exact
    assert exact._parse_short_text.cache_info().maxsize == 2048
    for _ in range(2):                                  # an error is raised again, not remembered
        with pytest.raises(NumberError, match="denominator 0"):
            parse_exact("1/0")
    assert parse_exact("8 1/2") is parse_exact("8 1/2") == F(17, 2)
    assert parse_exact("60%", percent=True) == F(3, 5)
    with pytest.raises(NumberError, match="percentages are not allowed"):
        parse_exact("60%")                              # the same text, read without percent
    long_text = "1" * 20 + "/" + "3" * 10               # past the remembered length: read each time
    assert parse_exact(long_text) == F(int("1" * 20), int("3" * 10))


@given(st.integers(-10**30, 10**30), st.integers(-10**12, 10**12).filter(lambda d: d != 0))
def test_ratio_is_the_fraction_of_two_ints(n, d):
    """ratio() makes Fractions without Fraction's type checks: the same value, terms, hash and text."""
    made, plain = ratio(n, d), F(n, d)
    assert type(made) is F
    assert (made.numerator, made.denominator) == (plain.numerator, plain.denominator)
    assert made == plain and hash(made) == hash(plain) and str(made) == str(plain)
    assert made + F(1, 3) == plain + F(1, 3)


def test_ratio_lowest_terms_sign_and_zero():
    assert (ratio(6, -4).numerator, ratio(6, -4).denominator) == (-3, 2)
    assert ratio(8, 4) is ratio(2, 1)                   # a whole number: the one kept Fraction
    assert ratio(0, 5) == 0 and ratio(0, 5).denominator == 1
    with pytest.raises(ZeroDivisionError):
        ratio(1, 0)
