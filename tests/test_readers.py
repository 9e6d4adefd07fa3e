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


# --- the one date reader behind every file's date: ---------------------------------------------------

CASE = """title: t
rulebook: wbf-2017
date: {date}
scoring: imps
board: {{vulnerability: None}}
non_offending: NS
table_result: 4S= N
other_table: 4S= N
without_infraction: 4S+1 N
"""


@pytest.mark.parametrize("date, message", [
    ('"9999-01-01"', "3:7: date: the day '9999-01-01': the year 9999 is outside 1900–2100"),
    ('"2022-02-30"', "3:7: date: the day '2022-02-30' is not a day of the calendar"),
    ('"2022.02.06"', "3:7: date: the day '2022.02.06' is not a date"),
])
def test_a_quoted_case_date_is_read_as_a_bare_one_is(tmp_path, capsys, date, message):
    """A quoted date: is read by the one date reader, like a bare YAML date (issue 24)."""
    from bridgelaw.commands.cli import main
    path = tmp_path / "c.yaml"
    path.write_text(CASE.format(date=date))
    assert main(["rule", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bridgelaw: error: {path}:{message}") and err.count("\n") == 1, err


def test_a_quoted_case_date_in_range_is_the_day(tmp_path):
    from bridgelaw.ruling.case import load_case
    path = tmp_path / "c.yaml"
    path.write_text(CASE.format(date='"2018-06-30"'))
    assert load_case(path).model.date == dt.date(2018, 6, 30)


def test_a_travellers_quoted_date_uses_the_same_reader(tmp_path, capsys):
    from bridgelaw.commands.cli import main
    path = tmp_path / "t.yaml"
    path.write_text('title: t\nrulebook: wbf-2017\ndate: "0000-01-01"\nscoring: matchpoints\n'
                    "board: {vulnerability: None}\ntables:\n  - {table: 1, ns: 1, ew: 1, result: 4S= N}\n"
                    "  - {table: 2, ns: 2, ew: 2, result: 4S+1 N}\n")
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:3:7: date: the day '0000-01-01': the year 0000 is outside 1900–2100" in err


def test_the_field_readers_read_numbers_and_dates_through_core():
    """One number reader and one date reader: the field's cells delegate to core (no second copy)."""
    from bridgelaw.field import cells
    where = cells.Where("f.pbn", 3, 9)
    with pytest.raises(Exception, match=r"Board '٩' is not a board number"):
        cells.whole_number("٩", where, "Board", 9999)
    assert cells.whole_number(" 0009 ", where, "Board", 9999) == 9
    assert cells.day("2022.??.??", where) is None and cells.day("27/07/2022", where) == dt.date(2022, 7, 27)
    with pytest.raises(InvalidValue, match="is not a day of the calendar") as exc:
        cells.day("2022.02.30", where)
    assert (exc.value.file, exc.value.line, exc.value.column) == ("f.pbn", 3, 9)


@pytest.mark.parametrize("kind, methods", [
    ("PAIRS", "<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>"),
    ("TEAMS", "<BOARD_SCORING_METHOD>IMPS</BOARD_SCORING_METHOD><MATCH_SCORING_METHOD>IMPS</MATCH_SCORING_METHOD>"),
])
def test_a_usebio_sessions_impossible_date_is_placed_at_its_date_element(tmp_path, capsys, kind, methods):
    # a teams file's bad date had no place ("<date>: …"); pairs and teams now read it alike
    path = tmp_path / "e.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                    f'<USEBIO Version="1.2"><EVENT EVENT_TYPE="{kind}">{methods}\n'
                    "<DATE>31/02/2022</DATE>\n"
                    "</EVENT></USEBIO>\n", encoding="utf-8")
    from bridgelaw.commands.cli import main
    assert main(["event", str(path), "--rulebook", "wbf-2017"]) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: {path}:3:1: date '31/02/2022' is not a day of the calendar "
                                       f"(expected a day as YYYY-MM-DD or YYYY.MM.DD or DD/MM/YYYY from {MIN_YEAR} to "
                                       f"{MAX_YEAR})\n")


@pytest.mark.parametrize("table, message", [
    ("٣: ٠=١٠ 1=11", "'٣: ٠=١٠ 1=11': each table starts with its number of boards and a colon"),
    ("¹: 0=10", "'¹: 0=10': each table starts with its number of boards and a colon"),     # was int()'s own error
    ("3: 0=1٠", "'0=1٠' in the 3-board table is not margin=VPs"),
])
def test_a_vp_table_reads_ascii_digits_only(table, message):
    from bridgelaw.core.vp import parse_table
    with pytest.raises(ValueError) as info:
        parse_table(table)
    assert str(info.value).startswith(message)
    assert list(parse_table("3: 0=10 1=11 2=12")) == [3]
