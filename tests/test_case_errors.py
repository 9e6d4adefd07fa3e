"""Case files with bad input: every mistake a tournament director can make in a case file is
one BridgelawError saying file:line:column, what is wrong, what was expected and, where one is
close, a suggestion.

Each test writes a small case to tmp_path by changing one thing in a case that loads (see
``test_templates_load``), and asserts the exact (1-based) line and column and the key phrases.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgelaw.commands import cli
from bridgelaw.ruling.case import Case, load_case
from bridgelaw.core.errors import BridgelawError

# line numbers:  1 title, 2 rulebook, 3 scoring, 4 board, 5 non_offending,
#                6 table_result, 7 other_table, 8 without_infraction
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

# line numbers:  1 title, 2 rulebook, 3 scoring, 4 board, 5 non_offending,
#                6 field, 7 table_result, 8 without_infraction
MATCHPOINTS = """\
title: Test case
rulebook: wbf-2017
scoring: matchpoints
board: {number: 7, vulnerability: None}
non_offending: NS
field: [NS +420, NS +400, NS -50]
table_result: 4S-1 N
without_infraction: 4S= N
"""

# IMPS with a weighted without_infraction on lines 8-10:
#   line 9:  "  - {result: 4H-1 N, weight: 1/2}"   weight value at column 30
#   line 10: "  - {result: 4H= N, weight: 1/2}"    weight key at column 21, value at 29
WEIGHTED = IMPS.replace(
    "without_infraction: 4H-1 N\n",
    "without_infraction:\n"
    "  - {result: 4H-1 N, weight: 1/2}\n"
    "  - {result: 4H= N, weight: 1/2}\n",
)


def variant(base: str, old: str, new: str) -> str:
    assert base.count(old) == 1, f"{old!r} must occur exactly once in the template"
    return base.replace(old, new)


def write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def case_error(tmp_path: Path, text: str) -> tuple[BridgelawError, Path]:
    path = write(tmp_path, text)
    with pytest.raises(BridgelawError) as info:
        load_case(path)
    return info.value, path


def assert_error(
    err: BridgelawError,
    path: Path,
    line: int,
    column: int,
    message: tuple[str, ...] = (),
    expected: tuple[str, ...] = (),
    suggestion: str | None | type(...) = ...,
) -> None:
    """The error points at `path`:`line`:`column`, and says what it should, on one line."""
    assert err.file == str(path), str(err)
    assert (err.line, err.column) == (line, column), str(err)
    for phrase in message:
        assert phrase in err.message, f"{phrase!r} not in message {err.message!r}"
    if expected:
        assert err.expected is not None, f"no expected in {err}"
        for phrase in expected:
            assert phrase in err.expected, f"{phrase!r} not in expected {err.expected!r}"
    if suggestion is not ...:
        assert err.suggestion == suggestion, str(err)
    text = str(err)
    assert text.startswith(f"{path}:{line}:{column}: {err.message}"), text
    if err.expected:
        assert f"(expected {err.expected})" in text
    if err.suggestion:
        assert text.endswith(f"; {err.suggestion}")
    assert "\n" not in text, "an error is one line"


# --------------------------------------------------------------------------- the templates


@pytest.mark.parametrize("text", [IMPS, MATCHPOINTS, WEIGHTED], ids=["imps", "matchpoints", "weighted"])
def test_templates_load(tmp_path, text):
    """The unchanged templates are valid, so each error below comes from its one change."""
    case = load_case(write(tmp_path, text))
    assert isinstance(case, Case)
    assert case.nos == "NS" and case.os == "EW"
    _, ruling = cli.rule_file(str(tmp_path / "case.yaml"))
    assert ruling.rulebook.id == "wbf-2017"


def test_weighted_template_components(tmp_path):
    case = load_case(write(tmp_path, WEIGHTED))
    assert [c.outcome.text for c in case.without["NS"]] == ["4H-1 N", "4H= N"]
    assert [str(c.weight) for c in case.without["NS"]] == ["1/2", "1/2"]


# --------------------------------------------------------------------------- malformed YAML


def test_bad_indentation_less_indented_key(tmp_path):
    text = "title: Test case\nboard:\n  vulnerability: NS\n number: 7\nscoring: imps\n"
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 4, 2, message=("malformed YAML",), expected=("indentation",))


def test_bad_indentation_more_indented_key(tmp_path):
    text = variant(IMPS, "board: {number: 7, vulnerability: NS}\n", "  board: {number: 7, vulnerability: NS}\n")
    err, path = case_error(tmp_path, text)
    # '  board:' continues the scalar 'imps' of line 3; the ':' at line 4, column 8 is the problem
    assert_error(err, path, 4, 8, message=("malformed YAML", "mapping values are not allowed"),
                 expected=("indentation",))


def test_unclosed_brace(tmp_path):
    text = variant(IMPS, "board: {number: 7, vulnerability: NS}", "board: {number: 7, vulnerability: NS")
    err, path = case_error(tmp_path, text)
    # the parser finds out on the next line, at the ':' of 'non_offending:'
    assert_error(err, path, 5, 14, message=("malformed YAML", "','", "'}'"))


def test_unclosed_bracket_at_end_of_file(tmp_path):
    text = variant(MATCHPOINTS, "without_infraction: 4S= N\n", "without_infraction: 4S= N\nnotes: [a, b\n")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 10, 1, message=("malformed YAML", "']'"))


def test_duplicate_key(tmp_path):
    text = variant(IMPS, "scoring: imps\n", "scoring: imps\nscoring: matchpoints\n")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 4, 1, message=("malformed YAML", "duplicate key", "scoring"))


# --------------------------------------------------------------------------- the top level


@pytest.mark.parametrize("text", ["- title: a\n- title: b\n", "just a sentence\n", "", "# only a comment\n", "42\n"],
                         ids=["list", "scalar", "empty", "comment", "number"])
def test_top_level_not_a_mapping(tmp_path, text):
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 1, 1, message=("expected a mapping of keys to values",))


# --------------------------------------------------------------------------- unknown keys


def test_unknown_top_level_key(tmp_path):
    err, path = case_error(tmp_path, IMPS + "colour: red\n")
    assert_error(err, path, 9, 1, message=("unknown key 'colour'",),
                 expected=("board", "non_offending", "without_infraction"), suggestion=None)


def test_misspelt_key_beside_the_right_one(tmp_path):
    text = variant(IMPS, "non_offending: NS\n", "non_offending: NS\nnon_offeding: NS\n")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 6, 1, message=("unknown key 'non_offeding'",), expected=("non_offending",),
                 suggestion="did you mean 'non_offending'?")


def test_misspelt_top_level_key(tmp_path):
    """The misspelt key is reported, not the required key it leaves missing."""
    err, path = case_error(tmp_path, variant(IMPS, "non_offending: NS", "non_offeding: NS"))
    assert_error(err, path, 5, 1, message=("unknown key 'non_offeding'",),
                 suggestion="did you mean 'non_offending'?")


def test_unknown_nested_key_beside_the_right_one(tmp_path):
    text = variant(IMPS, "vulnerability: NS}", "vulnerability: NS, vulnerable: NS}")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 4, 39, message=("unknown key 'vulnerable'",), expected=("number", "vulnerability"),
                 suggestion="did you mean 'vulnerability'?")


def test_misspelt_nested_key(tmp_path):
    err, path = case_error(tmp_path, variant(IMPS, "board: {number: 7, vulnerability: NS}", "board: {vulnerable: NS}"))
    assert_error(err, path, 4, 9, message=("unknown key 'vulnerable'",), suggestion="did you mean 'vulnerability'?")


def test_unknown_key_in_weighted_entry_beside_the_right_one(tmp_path):
    text = variant(WEIGHTED, "{result: 4H= N, weight: 1/2}", "{result: 4H= N, weight: 1/2, wieght: 1/2}")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 10, 34, message=("unknown key 'wieght'",), expected=("legal", "result", "weight"),
                 suggestion="did you mean 'weight'?")


def test_misspelt_key_in_weighted_entry(tmp_path):
    err, path = case_error(tmp_path, variant(WEIGHTED, "{result: 4H= N, weight: 1/2}", "{result: 4H= N, wieght: 1/2}"))
    assert_error(err, path, 10, 21, message=("unknown key 'wieght'",), suggestion="did you mean 'weight'?")


def test_missing_required_key(tmp_path):
    err, path = case_error(tmp_path, variant(IMPS, "title: Test case\n", ""))
    assert_error(err, path, 1, 1, message=("missing required key 'title'",))


def test_missing_nested_key_points_at_its_mapping(tmp_path):
    err, path = case_error(tmp_path, variant(IMPS, "{number: 7, vulnerability: NS}", "{number: 7}"))
    assert_error(err, path, 4, 8, message=("missing required key 'vulnerability'",))


# --------------------------------------------------------------------------- impossible results


@pytest.mark.parametrize(("result", "message", "expected"), [
    ("4S+4 N", ("'4S+4 N'", "needs 14 tricks", "only 13"), ("4S+3",)),
    ("1NT-8 S", ("'1NT-8 S'", "can go down at most 7"), ("1 to 7",)),
    ("8S= N", ("'8S= N'", "level 8", "1 to 7"), ("4SX-2 W",)),
    ("4S=", ("'4S='", "needs its declarer", "4S= W"), ()),
    ("NS +625", ("'NS +625'", "multiples of 10", "625"), ("NS +620",)),
    ("4Z= N", ("not a result", "'4Z= N'"), ("4SX-2 W", "PASS")),
], ids=["too-many-tricks", "too-many-down", "level-8", "no-declarer", "score-625", "no-strain"])
def test_impossible_table_result(tmp_path, result, message, expected):
    err, path = case_error(tmp_path, variant(IMPS, "table_result: 5HX-2 N", f"table_result: {result}"))
    assert err.message.startswith("table_result: ")
    assert_error(err, path, 6, 15, message=message, expected=expected)


def test_impossible_result_inside_a_weighted_list(tmp_path):
    err, path = case_error(tmp_path, variant(WEIGHTED, "{result: 4H= N,", "{result: 4H+4 N,"))
    assert_error(err, path, 10, 14, message=("'4H+4 N'", "only 13"), expected=("4H+3",))


def test_impossible_result_in_the_field(tmp_path):
    err, path = case_error(tmp_path, variant(MATCHPOINTS, "NS +400,", "NS +405,"))
    assert_error(err, path, 6, 18, message=("'NS +405'", "multiples of 10"))


# --------------------------------------------------------------------------- enumerated values


@pytest.mark.parametrize(("old", "new", "line", "column", "expected", "suggestion"), [
    ("vulnerability: NS}", "vulnerability: Non}", 4, 35, ("'None', 'NS', 'EW' or 'All'",), "did you mean 'None'?"),
    ("vulnerability: NS}", "vulnerability: Al}", 4, 35, ("'All'",), "did you mean 'All'?"),
    ("scoring: imps", "scoring: impz", 3, 10, ("'imps' or 'matchpoints'",), "did you mean 'imps'?"),
    ("scoring: imps", "scoring: matchpont", 3, 10, ("'imps' or 'matchpoints'",), "did you mean 'matchpoints'?"),
    ("non_offending: NS", "non_offending: N", 5, 16, ("'NS' or 'EW'",), "did you mean 'NS'?"),
], ids=["vulnerability-none", "vulnerability-all", "scoring-imp", "scoring-matchpoint", "non-offending-N"])
def test_unknown_enumerated_value(tmp_path, old, new, line, column, expected, suggestion):
    err, path = case_error(tmp_path, variant(IMPS, old, new))
    bad = new.split(": ")[1].rstrip("}")
    assert_error(err, path, line, column, message=(f"'{bad}' is not allowed",), expected=expected,
                 suggestion=suggestion)


def test_unknown_vulnerability_without_close_match(tmp_path):
    err, path = case_error(tmp_path, variant(IMPS, "vulnerability: NS}", "vulnerability: Everyone}"))
    assert_error(err, path, 4, 35, message=("board.vulnerability", "'Everyone' is not allowed"),
                 expected=("'None', 'NS', 'EW' or 'All'",))


def test_unknown_serious_error_kind(tmp_path):
    text = IMPS + "serious_error: {kind: gamble, instead: 4S= W}\n"
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 9, 23, message=("serious_error.kind", "'gamble' is not allowed"),
                 expected=("'serious-error' or 'gambling'",), suggestion="did you mean 'gambling'?")


# --------------------------------------------------------------------------- what the scoring needs


def test_missing_other_table_points_at_the_table_result(tmp_path):
    # without the other table a case is ruled in table points, unless a result must be compared with IMPs
    text = variant(variant(IMPS, "other_table: 3S+1 W\n", ""), "without_infraction: 4H-1 N", "without_infraction: +2 IMP")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 6, 15, message=("other_table is missing", "'5HX-2 N'"), expected=("other_table:",))


def test_missing_other_table_points_at_without_infraction(tmp_path):
    text = variant(variant(IMPS, "other_table: 3S+1 W\n", ""), "table_result: 5HX-2 N\n", "")
    text += "table_result: -3 IMP\n"                 # a unit score it would be compared with
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 6, 21, message=("other_table is missing", "'4H-1 N'"), expected=("other_table:",))


def test_missing_field_at_matchpoints(tmp_path):
    text = variant(variant(MATCHPOINTS, "field: [NS +420, NS +400, NS -50]\n", ""), "without_infraction: 4S= N",
                   "without_infraction: 60%")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 6, 15, message=("field is missing", "'4S-1 N'"), expected=("field: [",))


def test_field_given_at_imps(tmp_path):
    err, path = case_error(tmp_path, IMPS + "field: [NS +420, NS -50]\n")
    assert_error(err, path, 9, 1, message=("field is for matchpoints",))
    assert "other_table" in err.suggestion


def test_other_table_given_at_matchpoints(tmp_path):
    err, path = case_error(tmp_path, MATCHPOINTS + "other_table: 3S+1 W\n")
    assert_error(err, path, 9, 1, message=("other_table is for IMPs",))
    assert "field" in err.suggestion


def test_results_on_board_at_imps(tmp_path):
    err, path = case_error(tmp_path, IMPS + "results_on_board: 12\n")
    assert_error(err, path, 9, 1, message=("results_on_board is for matchpoints",))


# --------------------------------------------------------------------------- weights


def test_negative_weight(tmp_path):
    err, path = case_error(tmp_path, variant(WEIGHTED, "weight: 1/2}\n  - {result: 4H=", "weight: -1/2}\n  - {result: 4H="))
    assert_error(err, path, 9, 30, message=("weight -1/2 is negative",), expected=("between 0 and 1",))


def test_weight_more_than_one(tmp_path):
    err, path = case_error(tmp_path, variant(WEIGHTED, "weight: 1/2}\n  - {result: 4H=", "weight: 3/2}\n  - {result: 4H="))
    assert_error(err, path, 9, 30, message=("weight 1 1/2 is more than 1",), expected=("between 0 and 1",))


@pytest.mark.parametrize(("first", "second", "total"), [
    ("1/2", "1/3", "5/6"),
    ("60%", "30%", "9/10"),
    ("0.5", "0.75", "1 1/4"),
])
def test_weights_do_not_sum_to_one(tmp_path, first, second, total):
    text = variant(variant(WEIGHTED, "4H-1 N, weight: 1/2}", f"4H-1 N, weight: {first}}}"),
                   "4H= N, weight: 1/2}", f"4H= N, weight: {second}}}")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 9, 3, message=(f"sum to {total}, not 1",), expected=("add up to exactly 1",))


def test_split_weights_that_do_not_sum_to_one_point_at_the_side(tmp_path):
    text = variant(IMPS, "without_infraction: 4H-1 N\n",
                   "without_infraction:\n"
                   "  NS:\n"
                   "    - {result: 4H-1 N, weight: 1}\n"
                   "  EW:\n"
                   "    - {result: 4H-1 N, weight: 2/3}\n")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 12, 5, message=("sum to 2/3, not 1",))


def test_weight_not_a_number(tmp_path):
    err, path = case_error(tmp_path, variant(WEIGHTED, "4H-1 N, weight: 1/2}", "4H-1 N, weight: half}"))
    assert_error(err, path, 9, 30, message=("without_infraction 1, weight", "'half'"),
                 expected=("a weight such as 2/3, 60% or 0.6",))


def test_weight_not_finite(tmp_path):
    err, path = case_error(tmp_path, variant(WEIGHTED, "4H-1 N, weight: 1/2}", "4H-1 N, weight: .inf}"))
    assert_error(err, path, 9, 30, message=("finite",), expected=("a weight such as",))


def test_empty_weighted_list(tmp_path):
    err, path = case_error(tmp_path, variant(IMPS, "without_infraction: 4H-1 N", "without_infraction: []"))
    assert_error(err, path, 8, 21, message=("at least one outcome",))


def test_empty_value_message_has_no_python_type_names(tmp_path):
    err, path = case_error(tmp_path, variant(MATCHPOINTS, "NS +400,", "~,"))
    assert (err.line, err.column) == (6, 18), str(err)
    assert "NoneType" not in str(err)


# --------------------------------------------------------------------------- scores in the event's unit


def test_imps_at_matchpoints(tmp_path):
    err, path = case_error(tmp_path, variant(MATCHPOINTS, "table_result: 4S-1 N", "table_result: +9 IMP"))
    assert_error(err, path, 7, 15, message=("'+9 IMP' is in IMPs, but scoring is matchpoints",),
                 expected=("MP", "%"))


def test_percent_at_imps(tmp_path):
    err, path = case_error(tmp_path, variant(IMPS, "table_result: 5HX-2 N", "table_result: 65%"))
    assert_error(err, path, 6, 15, message=("'65%' is not in IMPs",), expected=("IMP",))


def test_matchpoints_without_a_top(tmp_path):
    text = variant(variant(MATCHPOINTS, "field: [NS +420, NS +400, NS -50]\n", ""), "table_result: 4S-1 N\n", "")
    text = variant(text, "without_infraction: 4S= N", "without_infraction: 23 MP")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 6, 21, message=("'23 MP' is in matchpoints, but the top is unknown",),
                 expected=("results_on_board",), suggestion="or give it as a percentage")


def test_unit_score_in_the_field(tmp_path):
    err, path = case_error(tmp_path, variant(MATCHPOINTS, "NS +400,", "55%,"))
    assert_error(err, path, 6, 18, message=("the field lists results or scores, not unit scores",))


def test_results_on_board_one(tmp_path):
    text = variant(MATCHPOINTS, "field: [NS +420, NS +400, NS -50]", "results_on_board: 1")
    text = variant(variant(text, "table_result: 4S-1 N\n", ""), "without_infraction: 4S= N", "without_infraction: 60%")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 6, 19, message=("results_on_board is 1", "at least 2"), expected=("at least 2",))


def test_results_on_board_disagrees_with_field(tmp_path):
    text = variant(MATCHPOINTS, "without_infraction: 4S= N\n", "without_infraction: 4S= N\nresults_on_board: 9\n")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 9, 19, message=("results_on_board is 9", "3 other results (4 in all)"))


def test_percentage_above_100(tmp_path):
    text = variant(MATCHPOINTS, "without_infraction: 4S= N", "without_infraction: 150%")
    text = variant(text, "table_result: 4S-1 N\n", "")
    err, path = case_error(tmp_path, text)
    assert (err.line, err.column) == (7, 21)
    assert "150%" in err.message


def test_negative_percentage(tmp_path):
    text = variant(MATCHPOINTS, "without_infraction: 4S= N", "without_infraction: -5%")
    text = variant(text, "table_result: 4S-1 N\n", "")
    err, path = case_error(tmp_path, text)
    assert (err.line, err.column) == (7, 21)
    assert "-5%" in err.message


def test_matchpoints_above_the_top(tmp_path):
    text = variant(MATCHPOINTS, "field: [NS +420, NS +400, NS -50]", "results_on_board: 10")
    text = variant(variant(text, "table_result: 4S-1 N\n", ""), "without_infraction: 4S= N", "without_infraction: 23 MP")
    err, path = case_error(tmp_path, text)
    assert (err.line, err.column) == (7, 21)
    assert "23 MP" in err.message


def test_empty_field(tmp_path):
    err, path = case_error(tmp_path, variant(MATCHPOINTS, "field: [NS +420, NS +400, NS -50]", "field: []"))
    assert (err.line, err.column) == (6, 8)
    assert "field" in err.message


# --------------------------------------------------------------------------- serious error


def test_serious_error_without_table_result(tmp_path):
    text = variant(IMPS, "table_result: 5HX-2 N\n", "") + "serious_error: {kind: gambling, instead: 4S= W}\n"
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 8, 1, message=("serious_error needs the table_result",), expected=("table_result:",))


def test_serious_error_instead_not_legal(tmp_path):
    text = IMPS + "serious_error:\n  kind: gambling\n  instead:\n    - {result: 4S= W, weight: 1, legal: false}\n"
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 12, 7, message=("legal: false belongs to without_infraction",))


# --------------------------------------------------------------------------- the rulebook


def test_unknown_rulebook_in_the_case(tmp_path):
    path = write(tmp_path, variant(IMPS, "rulebook: wbf-2017", "rulebook: wbf-2071"))
    with pytest.raises(BridgelawError) as info:
        cli.rule_file(str(path))
    err = info.value
    assert_error(err, path, 2, 11, message=("unknown rulebook 'wbf-2071'",), suggestion="did you mean 'wbf-2017'?")
    assert "wbf-2007, wbf-2017" in err.expected
    assert "wbf-2007, wbf-2017" in str(err)


def test_unknown_rulebook_on_the_command_line(tmp_path):
    path = write(tmp_path, IMPS)
    with pytest.raises(BridgelawError) as info:
        cli.rule_file(str(path), "wbf-2018")
    err = info.value
    assert err.message == "unknown rulebook 'wbf-2018'"
    assert "wbf-2007, wbf-2017" in err.expected
    assert err.suggestion == "did you mean 'wbf-2017'?"
    # the mistake is on the command line, not in the case: no position in the case file
    assert err.line is None


def test_no_rulebook_at_all(tmp_path):
    path = write(tmp_path, variant(IMPS, "rulebook: wbf-2017\n", ""))
    with pytest.raises(BridgelawError) as info:
        cli.rule_file(str(path))
    err = info.value
    assert_error(err, path, 1, 1, message=("the case names no rulebook",), expected=("--rulebook",))
    assert "wbf-2007" in err.suggestion and "wbf-2017" in err.suggestion


# --------------------------------------------------------------------------- files


def test_missing_file(tmp_path):
    path = tmp_path / "no-such-case.yaml"
    with pytest.raises(BridgelawError) as info:
        load_case(path)
    assert info.value.message == "no such file"
    assert str(info.value) == f"{path}: no such file"


def test_directory_instead_of_file(tmp_path):
    with pytest.raises(BridgelawError) as info:
        load_case(tmp_path)
    assert info.value.message == "this is a folder, expected a YAML file"


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(IMPS.replace("Test case", "Caf\u00e9").encode("latin-1"))
    with pytest.raises(BridgelawError) as info:
        load_case(path)
    assert info.value.message == "byte 0xe9 is not UTF-8 text"
    assert (info.value.line, info.value.column) == (1, 11)     # "title: Caf|é"


def test_valid_date(tmp_path):
    case = load_case(write(tmp_path, variant(IMPS, "title: Test case\n", "title: Test case\ndate: 2017-02-28\n")))
    assert case.model.date.isoformat() == "2017-02-28"


def test_impossible_date_is_a_bridgelaw_error(tmp_path):
    text = variant(IMPS, "title: Test case\n", "title: Test case\ndate: 2017-02-30\n")
    err, path = case_error(tmp_path, text)
    assert_error(err, path, 2, 7, message=("day is out of range for month",), expected=("YYYY-MM-DD",))


def test_trailing_tab_then_an_error(tmp_path):
    err, path = case_error(tmp_path, variant(IMPS, "scoring: imps", "scoring: impz\t"))
    assert_error(err, path, 3, 10, message=("'impz' is not allowed",), suggestion="did you mean 'imps'?")


def test_trailing_tab_alone_is_fine(tmp_path):
    case = load_case(write(tmp_path, variant(IMPS, "scoring: imps", "scoring: imps\t")))
    assert case.model.scoring == "imps"


def test_short_result_texts_are_remembered_within_a_bound():
    from bridgelaw.ruling.outcomes import InvalidValue, _parse_short_outcome, parse_outcome
    assert _parse_short_outcome.cache_info().maxsize == 4096
    assert parse_outcome("4SX-2 W") is parse_outcome("4SX-2 W")
    assert parse_outcome("4SX-2 W").text == "4SX-2 W"
    for _ in range(2):                                  # an error is raised again, not remembered
        with pytest.raises(InvalidValue, match="level 8"):
            parse_outcome("8H= N")
    assert parse_outcome(620) == parse_outcome("NS +620")
