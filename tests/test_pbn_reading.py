"""The PBN reader's quick ways (issue 30): a row without quotes makes its tokens only when asked, and a
pairs row of plain cells is read at once (pbn_results._plain_line) — each the same as the cell-by-cell
reading it stands for (_line), which still reads every other row and says every error at its cell."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from bridgelaw.core.errors import BridgelawError
from bridgelaw.field import pbn_file, pbn_results
from bridgelaw.field.pbn_file import Row, _split, load_pbn, parse_pbn

DATA = Path(__file__).parent / "data" / "events"


def _fields(line) -> dict:
    out = {f.name: getattr(line, f.name) for f in dataclasses.fields(line) if f.name not in ("extra", "where")}
    out["where"] = (line.where.file, line.where.line, line.where.column)
    out["cells"] = {key: (w.file, w.line, w.column) for key, w in line.extra["cells"].items()}
    out["row"] = line.extra["row"]
    out["extra"] = sorted(line.extra)
    return out


@pytest.mark.parametrize("name, plain", [("ffb-magic-contest-2022-open-dn1-s1.pbn", 656),
                                         ("ffb-magic-contest-2022-open-dn1-s5.pbn", 615),
                                         ("individual-derived-from-magic-contest.pbn", 0)])
def test_a_plain_row_is_read_as_cell_by_cell(name, plain):
    _same_either_way(load_pbn(DATA / name), plain)


SECTIONS = ('[Event "x"]\n[Board "1"]\n[Vulnerable "All"]\n[Scoring "MatchPoints"]\n[ScoreTable "Section;Table\\\\2R;'
            'PairId_NS\\\\2R;PairId_EW\\\\2R;Contract\\\\4L;Declarer;Result\\\\2R;Score_NS;Score_EW;'
            'Percentage_NS;Percentage_EW"]\n'
            'A  1 1 1 3NT  W 10 -    630 40    60\n'
            'A  2 2 2 4S   N 10 620  -   60.0  40.0\n'
            'B  1 1 1 -    -  - 100  -   100   0\n'
            'B  2 2 2 3NTX W  9 -    -   -     -\n'
            'B  3 3 3 PASS -  - -    -   50    50\n'
            'B  4 4 4 -    -  - -    -   50    50\n'
            'B  - 5 - 1NT  S  7 90   -   -     -\n')


def test_a_plain_row_with_sections_and_scores():
    _same_either_way(parse_pbn(SECTIONS, "s.pbn"), 7)


def test_a_line_has_the_cells_its_row_has():
    board = pbn_results.read_pbn(parse_pbn(SECTIONS, "s.pbn")).sessions[0].boards[1]
    full, empty = board.lines[0].extra["cells"], board.lines[-1].extra["cells"]
    assert (dict(full), len(full), "ew" in full) == ({"table": pbn_results.Where("s.pbn", 6, 4), "ns": pbn_results.Where(
        "s.pbn", 6, 6), "ew": pbn_results.Where("s.pbn", 6, 8)}, 3, True)
    assert (dict(empty), len(empty), "ew" in empty, "x" in empty, empty.get("table", 0)) == (
        {"ns": pbn_results.Where("s.pbn", 12, 6)}, 1, False, False, 0)
    with pytest.raises(KeyError):
        empty["ew"]


def _same_either_way(pbn, plain):
    event = pbn_results.read_pbn(pbn, default="matchpoints")
    count = 0
    for board in event.sessions[0].boards.values():
        table = board.extra["game"].score_table
        _, positions, plan = pbn_results._layout(table)
        for row in table.rows:
            line = pbn_results._plain_line(pbn, row, board, plan) if plan is not None else None
            if line is None:
                continue
            count += 1
            assert _fields(line) == _fields(pbn_results._line(pbn, table, row, board, positions, False))
    assert count == plain


def test_a_row_makes_its_tokens_when_asked():
    text = ' 12\t3  4NT "x y" -\n 7  8 3S*   W  +50\n'
    pbn = parse_pbn('[Board "1"]\n[ScoreTable "A;B;C;D;E"]\n' + text)
    quoted, bare = pbn.games[0].score_table.rows
    assert quoted.values == ["12", "3", "4NT", "x y", "-"] and quoted._tokens is None
    assert [(t.raw, t.value, t.line, t.column) for t in quoted.tokens] == [
        ("12", "12", 3, 2), ("3", "3", 3, 5), ("4NT", "4NT", 3, 8), ('"x y"', "x y", 3, 12), ("-", "-", 3, 18)]
    assert quoted.tokens == _split(pbn, ' 12\t3  4NT "x y" -', 3)
    assert bare.values == ["7", "8", "3S*", "W", "+50"] and bare._tokens is None
    assert [(t.raw, t.value, t.line, t.column) for t in bare.tokens] == [
        ("7", "7", 4, 2), ("8", "8", 4, 5), ("3S*", "3S*", 4, 7), ("W", "W", 4, 13), ("+50", "+50", 4, 16)]
    assert bare.tokens == _split(pbn, " 7  8 3S*   W  +50", 4)
    assert bare == Row(3, _split(pbn, " 7  8 3S*   W  +50", 4)) and bare != Row(2, bare.tokens)


HEAD = ('[Event "x"]\n[Board "1"]\n[Vulnerable "None"]\n[Scoring "MatchPoints"]\n[ScoreTable '
        '"Table\\\\2R;PairId_NS\\\\2R;PairId_EW\\\\2R;Contract\\\\4L;Declarer;Result\\\\2R;Score_NS\\\\5R;MP_NS"]\n'
        ' 1  1  1 3NT  W 10  -430 4\n')


@pytest.mark.parametrize("row, error", [
    (" 2  2  2 3NT  W  9  -420 2", "t.pbn:7:21: Score_NS gives NS -420, but 3NT= W scores NS -400 (vulnerability "
     "None) (expected the score of the contract and result)"),
    (" 2  2  1 3NT  W  9  -400 2", "t.pbn:7:8: board 1: EW pair 1 plays the board twice (tables 1 and 2) "
     "(expected each pair once on a board)"),
    (" 1  2  2 3NT  W  9  -400 2", "t.pbn:7:2: board 1: table 1 appears twice on the board (expected each table once)"),
    (" 2  2  2 3NT  W 14  -400 2", "t.pbn:7:17: Result '14' is not a number of tricks (expected 0 to 13)"),
    (" 2  2  2 8NT  W  9  -400 2", "t.pbn:7:10: '8NT' by 'W' making 9: '8NT= W' has level 8; a contract's level is "
     "1 to 7 (expected a contract such as 4SX and a declarer N, E, S or W)"),
    (" 2  2  2 3NT  W  9  -405 x", "t.pbn:7:26: MP_NS 'x' is not a number (expected a decimal such as 42.0 or -3.67)"),
    (" 0  2  2 3NT  W  9  -400 2", "t.pbn:7:2: Table '0' is not a table number (expected 1 to 99,999 in ASCII digits)"),
    (" 2  2  2 3NT  -  9  -400 2", "t.pbn:7:10: contract 3NT has no Declarer (expected a declarer (N, E, S, W) and "
     "the tricks taken by declarer)"),
])
def test_a_row_in_error_is_said_at_its_cell(row, error):
    with pytest.raises(BridgelawError) as exc:
        pbn_results.read_pbn(parse_pbn(HEAD + row + "\n", "t.pbn"))
    assert str(exc.value) == error


@pytest.mark.parametrize("row, read", [(" 2  2  2 3NT  W  9  -400 2", ("result", -400, None, "3NT= W")),
                                       (" 2  2  2 PASS -  -  0 2", ("result", 0, None, "PASS")),
                                       (" 2  2  2 -    -  -  A+ 2", ("artificial", None, "A+", None)),
                                       (" 2  2  2 -    -  -  +50 2", ("result", 50, None, "NS +50")),
                                       (" 2  2  2 -    -  -  - -", ("none", None, None, None))])
def test_a_row_read_either_way(row, read):
    board = pbn_results.read_pbn(parse_pbn(HEAD + row + "\n", "t.pbn")).sessions[0].boards[1]
    line = board.lines[1]
    assert (line.kind, line.points, line.code, line.result.text if line.result else None) == read
    assert (line.where.line, line.where.column, line.extra["cells"]["ew"]) == (7, 2, pbn_results.Where("t.pbn", 7, 8))


UNTERMINATED = "unterminated string in a ScoreTable row: '\"' (expected a closing \" on the same line)"


@pytest.mark.parametrize("row, read", [('1 "2', "s.pbn:3:3: " + UNTERMINATED),
                                       ('1 "2" "3', "s.pbn:3:7: " + UNTERMINATED),
                                       ('a"b" "c\\"d"', ["a", "b", 'c"d']), ('"" - "\\\\"', ["", "-", "\\"])])
def test_a_quoted_row_is_read_whole_or_refused_at_its_stray_quote(row, read):
    try:
        rows = parse_pbn('[Board "1"]\n[ScoreTable "A;B"]\n' + row + "\n", "s.pbn").games[0].score_table.rows
    except BridgelawError as exc:
        assert str(exc) == read
    else:
        assert rows[0].values == read == [t.value for t in rows[0].tokens]


# the tag pattern as first written (one character or one escape at a time): pbn_file._TAG unrolls it
_TAG_AS_WRITTEN = re.compile(r'^\s*\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>(?:[^"\\]|\\.)*)"\s*\]')


@pytest.mark.parametrize("seed", range(4))
def test_a_tag_is_matched_and_unescaped_as_written(seed):
    rng = random.Random(seed)
    pieces = ['[', ']', '"', '\\', '\\"', '\\\\', ' ', '\t', 'a', 'Z9_', ';', '\\4R', 'x y', '\x0b', 'é']
    starts = ['[Event "', '  [ Board  "', '[ScoreTable "Table\\2R;', '[X"', '[', '']
    for _ in range(3_000):
        line = rng.choice(starts) + "".join(rng.choice(pieces) for _ in range(rng.randrange(12)))
        line += rng.choice(['"]', '" ]  x', '"', ']', ''])
        m, want = pbn_file._TAG.match(line), _TAG_AS_WRITTEN.match(line)
        assert (m and (m.span(), m.span("value"), m.groupdict())) == (want and (want.span(), want.span("value"),
                                                                               want.groupdict())), line
        assert pbn_file._unescape(line) == re.sub(r'\\(["\\])', r"\1", line), line


def test_a_comment_line_and_a_row_that_looks_like_one():
    text = ('[Board "1"]\n[ScoreTable "A;B"]\n1 2\n%not a row\n %x 3\n; neither\n{ nor\nthis }\n4 5\n'
            '[Event "x"]\n[TotalScoreTable "A;B"]\n6 7\n')
    game = parse_pbn(text).games[0]
    assert [(r.index, r.values) for r in game.score_table.rows] == [(2, ["1", "2"]), (4, ["%x", "3"])]
    assert [(r.index, r.values) for r in game.tables["TotalScoreTable"].rows] == [(11, ["6", "7"])]
