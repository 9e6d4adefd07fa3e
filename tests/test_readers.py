"""The shared readers of core (issue 24 "What to build" 1): one whole-number reader for board,
table and pair numbers (`core.numbers`) and one date reader (`core.dates`) for every format,
each refusing with a located one-line error, in time linear in the text."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgelaw.core.dates import MAX_YEAR, MIN_YEAR, as_of_option, read_date
from bridgelaw.core.errors import BridgelawError, InvalidValue
from bridgelaw.core.numbers import whole_number


# --- whole numbers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, number", [("9", 9), (" 12 ", 12), ("0009", 9), ("9999", 9999), (7, 7)])
def test_whole_numbers_in_ascii_digits(text, number):
    assert whole_number(text, what="board number", high=9999) == number


@pytest.mark.parametrize("text, message", [
    ("¹", r"board number '\xb9' is not a whole number in ASCII digits"),        # issue 24 item 1
    ("⑨", r"board number '\u2468' is not a whole number in ASCII digits"),
    ("٩", r"board number '\u0669' is not a whole number in ASCII digits"),      # int() reads it as 9
    ("９", r"board number '\uff19' is not a whole number in ASCII digits"),
    ("9" * 5000, "board number '99999999999999999999…' is too long (5,000 characters)"),
    ("0", "board number '0' is out of range"),
    ("10000", "board number '10000' is out of range"),
    ("-3", "board number '-3' is not a whole number in ASCII digits"),
    ("3.0", "board number '3.0' is not a whole number in ASCII digits"),
    ("", "board number '' is not a whole number in ASCII digits"),
    ("1\x1b[31m", r"board number '1\x1b[31m' is not a whole number in ASCII digits"),
    (True, "board number 'True' is not a whole number"),
    (0, "board number 0 is out of range"),
])
def test_whole_numbers_refused_with_place_and_range(text, message):
    with pytest.raises(InvalidValue) as info:
        whole_number(text, what="board number", high=9999, file="f.pbn", line=3, column=9)
    err = info.value
    assert str(err) == f"f.pbn:3:9: {message} (expected a whole number from 1 to 9,999 in ASCII digits (0-9))"
    assert isinstance(err, ValueError)                  # a pydantic validator may raise it


def test_a_whole_number_error_may_carry_a_key_path():
    with pytest.raises(InvalidValue) as info:
        whole_number("x", what="table number", high=500, path=("tables", 3, "table"))
    assert info.value.path == ("tables", 3, "table")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_whole_number_is_int_of_ascii_digits_or_an_error(text):
    stripped = text.strip(" \t\r\n")
    try:
        got = whole_number(text, what="n", high=10**6, low=0)
    except InvalidValue:
        ok = stripped.isascii() and stripped.isdigit() and len(text) <= 15 and int(stripped) <= 10**6
        assert not ok
    else:
        assert stripped.isascii() and stripped.isdigit() and got == int(stripped)


# --- dates --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, day", [
    ("2022.02.06", dt.date(2022, 2, 6)), ("27/07/2022", dt.date(2022, 7, 27)), (" 2022-07-27 ", dt.date(2022, 7, 27)),
    ("1/7/2022", dt.date(2022, 7, 1)), ("2022.??.??", None), ("????.??.??", None), ("", None), (None, None),
])
def test_dates_in_every_format(text, day):
    assert read_date(text) == day


@pytest.mark.parametrize("text, message", [
    ("2022.02.30", "date '2022.02.30' is not a day of the calendar"),           # issue 24, accepted nonsense
    ("31/02/2022", "date '31/02/2022' is not a day of the calendar"),
    ("0000.01.01", "date '0000.01.01': the year 0000 is outside 1900–2100"),
    ("9999.12.31", "date '9999.12.31': the year 9999 is outside 1900–2100"),
    ("2" * 5000, "date '22222222222222222222…' is too long (5,000 characters)"),
    ("yesterday", "date 'yesterday' is not a date"),
    ("2022.0?.01", "date '2022.0?.01' is not a date"),
    ("٢٠٢٢.01.01", r"date '\u0662\u0660\u0662\u0662.01.01' is not a date"),
    ("2022-02-06\x1b", r"date '2022-02-06\x1b' is not a date"),
])
def test_impossible_dates_are_refused_with_their_place(text, message):
    with pytest.raises(InvalidValue) as info:
        read_date(text, what="date", file="e.pbn", line=2, column=8)
    assert str(info.value) == (f"e.pbn:2:8: {message} (expected a day as YYYY-MM-DD or YYYY.MM.DD or DD/MM/YYYY "
                               f"from {MIN_YEAR} to {MAX_YEAR})")


def test_a_format_not_allowed_is_no_date():
    with pytest.raises(InvalidValue, match="is not a date"):
        read_date("27/07/2022", formats=("pbn",))
    assert read_date("2022.07.27", formats=("pbn",)) == dt.date(2022, 7, 27)


def test_readers_take_linear_time_on_huge_text():
    huge = "9" * 5_000_000
    start = time.perf_counter()
    for reader in (lambda t: whole_number(t, what="n", high=99), lambda t: read_date(t)):
        with pytest.raises(InvalidValue, match="too long"):
            reader(huge)
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize("text, message", [
    ("2016-13-01", "--as-of '2016-13-01' is not a date"),
    ("0001-01-01", "--as-of '0001-01-01': the year 0001 is outside 1900–2100"),
    ("2016.01.01", "--as-of '2016.01.01' is not a date"),
])
def test_as_of_uses_the_same_reader(text, message):
    with pytest.raises(BridgelawError) as info:
        as_of_option(text)
    assert str(info.value) == f"{message} (expected YYYY-MM-DD, e.g. 2015-06-30)"
    assert as_of_option("2016-01-01") == dt.date(2016, 1, 1)
