"""Tests for bridgelaw.core.bridge: notation, Law 77 scores, IMPs and matchpoints."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgelaw.core.bridge import (
    IMP_SCALE,
    Contract,
    NotationError,
    PlayedResult,
    Score,
    contract_score,
    frequency_table,
    imps,
    is_vulnerable,
    matchpoint_table,
    matchpoints_against,
    ns_score,
    parse_result,
    percent,
    side_of,
    top,
)

STRAINS = ("C", "D", "H", "S", "NT")
DIRECTIONS = ("N", "E", "S", "W")
VULNERABILITIES = ("None", "NS", "EW", "All")

# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "contract", "declarer", "tricks", "canonical"),
    [
        ("4SX-2 W", Contract(4, "S", 1), "W", 8, "4SX-2 W"),
        ("3NT= S", Contract(3, "NT", 0), "S", 9, "3NT= S"),
        ("3N= S", Contract(3, "NT", 0), "S", 9, "3NT= S"),
        ("6CXX+1 N", Contract(6, "C", 2), "N", 13, "6CXX+1 N"),
        ("4H+1 E", Contract(4, "H", 0), "E", 11, "4H+1 E"),
        ("4S= W", Contract(4, "S", 0), "W", 10, "4S= W"),
        ("4SX-2W", Contract(4, "S", 1), "W", 8, "4SX-2 W"),
        ("4sx-2 w", Contract(4, "S", 1), "W", 8, "4SX-2 W"),
        ("3nt=s", Contract(3, "NT", 0), "S", 9, "3NT= S"),
        ("  1nTxX+1  e ", Contract(1, "NT", 2), "E", 8, "1NTXX+1 E"),
        ("7NTXX= S", Contract(7, "NT", 2), "S", 13, "7NTXX= S"),
        ("1NT-7 N", Contract(1, "NT", 0), "N", 0, "1NT-7 N"),
        ("7C-13 E", Contract(7, "C", 0), "E", 0, "7C-13 E"),
        ("1D+6 W", Contract(1, "D", 0), "W", 13, "1D+6 W"),
        ("2H\u22121 N", Contract(2, "H", 0), "N", 7, "2H-1 N"),  # unicode minus
        ("5DX -3 S", Contract(5, "D", 1), "S", 8, "5DX-3 S"),
    ],
)
def test_parse_played_result(
    text: str, contract: Contract, declarer: str, tricks: int, canonical: str
) -> None:
    result = parse_result(text)
    assert result == PlayedResult(contract, declarer, tricks)  # type: ignore[arg-type]
    assert result.text == canonical
    assert parse_result(canonical) == result


@pytest.mark.parametrize("text", ["PASS", "pass", "Pass", " PASS ", "Passed out", "all pass"])
def test_parse_pass(text: str) -> None:
    result = parse_result(text)
    assert result == PlayedResult(None, None, 0)
    assert result.text == "PASS"
    assert ns_score(result, "All") == 0


@pytest.mark.parametrize(
    ("value", "ns", "canonical"),
    [
        ("NS +620", 620, "NS +620"),
        ("NS 620", 620, "NS +620"),
        ("NS -100", -100, "NS -100"),
        ("ns -100", -100, "NS -100"),
        ("EW 100", -100, "NS -100"),
        ("EW +100", -100, "NS -100"),
        ("EW -100", 100, "NS +100"),
        ("+500", 500, "NS +500"),
        ("-50", -50, "NS -50"),
        ("\u221250", -50, "NS -50"),
        ("500", 500, "NS +500"),
        ("0", 0, "NS 0"),
        ("NS 0", 0, "NS 0"),
        ("EW 0", 0, "NS 0"),
        ("NS+1100", 1100, "NS +1100"),
        (-50, -50, "NS -50"),
        (620, 620, "NS +620"),
        (0, 0, "NS 0"),
    ],
)
def test_parse_score(value: str | int, ns: int, canonical: str) -> None:
    result = parse_result(value)
    assert result == Score(ns)
    assert result.text == canonical
    assert parse_result(canonical) == result
    for vulnerability in VULNERABILITIES:
        assert ns_score(result, vulnerability) == ns  # type: ignore[arg-type]


def test_every_result_round_trips() -> None:
    count = 0
    for level in range(1, 8):
        for strain in STRAINS:
            for doubled in range(3):
                for declarer in DIRECTIONS:
                    for tricks in range(14):
                        result = PlayedResult(Contract(level, strain, doubled), declarer, tricks)
                        assert parse_result(result.text) == result
                        assert parse_result(result.text.replace(" ", "").lower()) == result
                        count += 1
    assert count == 7 * 5 * 3 * 4 * 14


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4S+4 W", "4S+4 needs 14 tricks, but a deal has only 13"),
        ("7NT+1 S", "7NT+1 needs 14 tricks, but a deal has only 13"),
        ("1NT-8 N", "1NT-8 is impossible: 1NT can go down at most 7"),
        ("7C-14 E", "7C-14 is impossible: 7C can go down at most 13"),
        ("8S= W", "'8S= W' has level 8; a contract's level is 1 to 7"),
        ("0H= N", "'0H= N' has level 0; a contract's level is 1 to 7"),
        ("4S=", "a contract needs its declarer (N, E, S or W), e.g. 4S= W"),
        ("3NTX-1", "a contract needs its declarer (N, E, S or W), e.g. 3NTX-1 W"),
        ("PASS W", "a passed-out board has no declarer, got 'PASS W'"),
        ("NS +625", "bridge scores are multiples of 10, got 625"),
        ("EW 15", "bridge scores are multiples of 10, got -15"),
        ("-55", "bridge scores are multiples of 10, got -55"),
    ],
)
def test_rejects_impossible(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_result(text)
    assert info.value.message == message
    assert str(info.value) == message
    assert info.value.hint


def test_rejects_score_not_multiple_of_ten() -> None:
    with pytest.raises(NotationError, match="multiples of 10"):
        parse_result(625)
    with pytest.raises(NotationError, match="multiples of 10"):
        parse_result("4")


def test_missing_tricks() -> None:
    with pytest.raises(NotationError, match="does not say how many tricks"):
        parse_result("4S W")


@pytest.mark.parametrize("text", ["+9 IMP", "-3 IMPs", "65%", "60 %", "12 MP", "15 VP"])
def test_rejects_unit_scores(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_result(text)
    assert info.value.message.startswith("not a result")


@pytest.mark.parametrize(
    "value",
    ["", "   ", "abc", "4S", "4Z= W", "4SXXX= W", "4S=X W", "4S= WN", "4S= X", "NS", "NS EW 100",
     "620.5", "++500", "4S= W 620", "S 4S=", True, None, 620.0],
)
def test_rejects_garbage(value: object) -> None:
    with pytest.raises(NotationError) as info:
        parse_result(value)  # type: ignore[arg-type]
    assert info.value.hint == "a result such as 4SX-2 W, 3NT= S, 4♠= N or PASS, or a score such as NS +620"
    assert "\n" not in info.value.message


def test_notation_error() -> None:
    error = NotationError("what is wrong", hint="what would do")
    assert isinstance(error, ValueError)
    assert error.message == "what is wrong"
    assert error.hint == "what would do"
    assert str(error) == "what is wrong"


def test_contract_validation_and_text() -> None:
    assert str(Contract(4, "S", 1)) == "4SX"
    assert str(Contract(6, "C", 2)) == "6CXX"
    assert str(Contract(3, "NT", 0)) == "3NT"
    for bad in [(0, "S", 0), (8, "S", 0), (4, "N", 0), (4, "s", 0), (4, "S", 3), (True, "S", 0)]:
        with pytest.raises(NotationError):
            Contract(*bad)  # type: ignore[arg-type]


def test_played_result_validation() -> None:
    with pytest.raises(NotationError, match="needs its declarer"):
        PlayedResult(Contract(4, "S", 0), None, 10)
    with pytest.raises(NotationError, match="no declarer"):
        PlayedResult(None, "N", 0)
    with pytest.raises(NotationError, match="needs 14 tricks"):
        PlayedResult(Contract(4, "S", 0), "N", 14)
    with pytest.raises(NotationError):
        PlayedResult(Contract(4, "S", 0), "X", 10)  # type: ignore[arg-type]


def test_score_validation() -> None:
    assert Score(-100).text == "NS -100"
    for bad in [625, 620.0, F(620), True]:
        with pytest.raises(NotationError):
            Score(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- vulnerability


def test_is_vulnerable() -> None:
    assert side_of("N") == side_of("S") == "NS"
    assert side_of("E") == side_of("W") == "EW"
    for declarer in DIRECTIONS:
        assert is_vulnerable(declarer, "None") is False
        assert is_vulnerable(declarer, "All") is True
        assert is_vulnerable(declarer, "NS") is (declarer in "NS")
        assert is_vulnerable(declarer, "EW") is (declarer in "EW")
    with pytest.raises(ValueError):
        is_vulnerable("N", "Both")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Law 77


@pytest.mark.parametrize(
    ("text", "vulnerable", "score"),
    [
        ("4S= W", False, 420),
        ("4S= W", True, 620),
        ("4SX-2 W", False, -300),
        ("4SX-2 W", True, -500),
        ("4SX-3 W", False, -500),
        ("4SX-3 W", True, -800),
        ("4SX-4 W", False, -800),
        ("4SX-4 W", True, -1100),
        ("4SX-1 W", False, -100),
        ("5HX-2 N", True, -500),
        ("6CXX+1 N", False, 1580),
        ("6CXX+1 N", True, 2230),
        ("7NTXX= S", True, 2980),
        ("7NTXX= S", False, 2280),
        ("1NT= N", False, 90),
        ("3NT= N", False, 400),
        ("3NT= N", True, 600),
        ("6D+1 N", True, 1390),
        ("7D= N", True, 2140),
        ("6C= N", True, 1370),
        ("1CX= N", False, 140),
        ("2HX+1 N", True, 870),
        ("1NTXX+1 N", False, 760),
        ("1NTXX+1 N", True, 1160),
        ("1HXX= N", False, 520),
        ("2SX= N", False, 470),
        ("4HX= N", True, 790),
        ("5CX= N", False, 550),
        ("4H+1 N", True, 650),
        ("2S+2 N", False, 170),
        ("3H= N", False, 140),
        ("1NT+1 N", False, 120),
        ("3NT-1 N", False, -50),
        ("3NT-2 N", True, -200),
        ("7NTXX-13 N", True, -7600),
        ("7NTXX-13 N", False, -7000),
        ("7NTX-13 N", False, -3500),
        ("7NTX-13 N", True, -3800),
    ],
)
def test_known_contract_scores(text: str, vulnerable: bool, score: int) -> None:
    result = parse_result(text)
    assert isinstance(result, PlayedResult) and result.contract is not None
    assert contract_score(result.contract, vulnerable, result.tricks) == score


def test_contract_score_rejects_impossible_tricks() -> None:
    for tricks in (-1, 14):
        with pytest.raises(ValueError):
            contract_score(Contract(1, "C", 0), False, tricks)


# An independent formulation of Law 77: per-trick loops and cumulative undertrick tables.
FIRST_AND_LATER_TRICK = {"C": (20, 20), "D": (20, 20), "H": (30, 30), "S": (30, 30), "NT": (40, 30)}
TRICK_FACTOR = {0: 1, 1: 2, 2: 4}
GAME_BONUS = {False: 300, True: 500}
SLAM_BONUS = {(6, False): 500, (6, True): 750, (7, False): 1000, (7, True): 1500}
INSULT = {0: 0, 1: 50, 2: 100}
DOUBLED_OVERTRICK = {(1, False): 100, (1, True): 200, (2, False): 200, (2, True): 400}
UNDOUBLED_UNDERTRICK = {False: 50, True: 100}
# Doubled undertrick totals for 0..13 down; redoubled is twice these.
DOUBLED_DOWN_TOTAL = {
    False: (0, 100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500),
    True: (0, 200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800),
}


def reference_score(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> int:
    contracted = level + 6
    if tricks < contracted:
        down = contracted - tricks
        if doubled == 0:
            penalty = 0
            for _ in range(down):
                penalty += UNDOUBLED_UNDERTRICK[vulnerable]
            return -penalty
        return -DOUBLED_DOWN_TOTAL[vulnerable][down] * doubled
    first, later = FIRST_AND_LATER_TRICK[strain]
    below_the_line = 0
    for odd_trick in range(1, level + 1):
        below_the_line += (first if odd_trick == 1 else later) * TRICK_FACTOR[doubled]
    total = below_the_line
    total += GAME_BONUS[vulnerable] if below_the_line >= 100 else 50
    total += SLAM_BONUS.get((level, vulnerable), 0)
    total += INSULT[doubled]
    for _ in range(tricks - contracted):
        total += later if doubled == 0 else DOUBLED_OVERTRICK[(doubled, vulnerable)]
    return total


def test_contract_score_exhaustive_against_reference() -> None:
    checked = 0
    for level in range(1, 8):
        for strain in STRAINS:
            for doubled in range(3):
                for vulnerable in (False, True):
                    for tricks in range(14):
                        contract = Contract(level, strain, doubled)
                        expected = reference_score(level, strain, doubled, vulnerable, tricks)
                        assert contract_score(contract, vulnerable, tricks) == expected, (
                            contract,
                            vulnerable,
                            tricks,
                        )
                        checked += 1
    assert checked == 7 * 5 * 3 * 2 * 14


def test_ns_score_signs_and_vulnerability() -> None:
    four_spades_east = parse_result("4S= E")
    four_spades_north = parse_result("4S= N")
    assert ns_score(four_spades_north, "None") == 420
    assert ns_score(four_spades_north, "NS") == 620
    assert ns_score(four_spades_north, "EW") == 420
    assert ns_score(four_spades_north, "All") == 620
    assert ns_score(four_spades_east, "None") == -420
    assert ns_score(four_spades_east, "NS") == -420
    assert ns_score(four_spades_east, "EW") == -620
    assert ns_score(four_spades_east, "All") == -620
    # Seed 000: EW (not vulnerable) in 4SX; NS +100 at one down, +300 at two, +500 at three.
    assert ns_score(parse_result("4SX-1 W"), "NS") == 100
    assert ns_score(parse_result("4SX-2 W"), "NS") == 300
    assert ns_score(parse_result("4SX-3 W"), "NS") == 500


# --------------------------------------------------------------------------- IMPs


def test_imp_scale_is_law_78b() -> None:
    assert IMP_SCALE == (
        20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
        750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("difference", "expected"),
    [(0, 0), (10, 0), (19, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (420, 9), (430, 10),
     (3990, 23), (4000, 24), (5000, 24), (7600, 24)],
)
def test_imp_boundaries(difference: int, expected: int) -> None:
    assert imps(difference) == expected
    assert imps(-difference) == -expected
    assert imps(F(difference)) == expected


def test_every_imp_step() -> None:
    for step, bound in enumerate(IMP_SCALE, start=1):
        assert imps(bound) == step
        assert imps(bound - 10) == step - 1
        assert imps(-bound) == -step
        assert imps(-(bound - 10)) == -(step - 1)


@pytest.mark.parametrize(
    ("ours", "theirs", "expected"),
    [
        (100, 50, 2),
        (300, 50, 6),
        (500, 50, 10),
        (420, 50, 9),
        (100, 420, -8),
        (300, 420, -3),
        (500, 420, 2),
        (620, 140, 10),
        (-100, 140, -6),
        (-790, 620, -16),
        (500, 620, -3),
        (800, 620, 5),
        (1430, 1100, 8),
        (1600, 1100, 11),
        (680, 1100, -9),
    ],
)
def test_seed_imp_figures(ours: int, theirs: int, expected: int) -> None:
    assert imps(ours - theirs) == expected


def test_weighted_imps_from_the_seeds() -> None:
    # Seeds 001/004: 2/3 of +620 and 1/3 of -100 against +140 at the other table.
    assert F(2, 3) * imps(620 - 140) + F(1, 3) * imps(-100 - 140) == F(14, 3)
    # Seed 002: 1/10 +1600, 4/10 +1430, 4/10 +1100, 1/10 +680 against +1100. The lecture
    # writes "4/10 +230 = +6 IMP" and a total of 2.6, but 1430 - 1100 is 330, worth 8 IMPs,
    # so the weighted result is 1.1 + 3.2 + 0 - 0.9 = 3.4.
    weighted = {1600: F(1, 10), 1430: F(4, 10), 1100: F(4, 10), 680: F(1, 10)}
    assert [imps(score - 1100) for score in weighted] == [11, 8, 0, -9]
    assert sum(w * imps(score - 1100) for score, w in weighted.items()) == F(17, 5)


def test_imps_of_a_fractional_difference_and_what_it_refuses() -> None:
    # a butler datum need not be whole: the steps at or below |difference| count
    assert imps(F(39, 2)) == 0 and imps(F(41, 2)) == 1 and imps(F(-41, 2)) == -1
    assert imps(F(7999, 2)) == 23 and imps(F(4000)) == 24
    with pytest.raises(TypeError):
        imps(50.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        imps(True)


# --------------------------------------------------------------------------- matchpoints

# WBF commentary example 9 (seed 001).
EXAMPLE_9_FIELD = {420: 4, 400: 2, 170: 1, 150: 1, -50: 3}
EXAMPLE_9_WEIGHTS = [(400, F(1, 3)), (-50, F(1, 3)), (420, F(1, 6)), (-50, F(1, 6))]


def example_9_frequencies() -> dict[int, F]:
    field = [(score, F(count)) for score, count in EXAMPLE_9_FIELD.items()]
    return frequency_table(field + EXAMPLE_9_WEIGHTS)


def test_example_9_frequencies() -> None:
    assert example_9_frequencies() == {420: F(25, 6), 400: F(7, 3), 170: 1, 150: 1, -50: F(7, 2)}
    assert sum(example_9_frequencies().values()) == 12


def test_example_9_matchpoint_table() -> None:
    table = matchpoint_table(example_9_frequencies())
    assert table == {420: F(113, 6), 400: F(37, 3), 170: 9, 150: 7, -50: F(5, 2)}
    assert list(table) == [420, 400, 170, 150, -50]


def test_example_9_weighted_pair() -> None:
    table = matchpoint_table(example_9_frequencies())
    weights = frequency_table(EXAMPLE_9_WEIGHTS)
    assert weights == {420: F(1, 6), 400: F(1, 3), -50: F(1, 2)}
    assert F(1, 6) * table[420] + F(1, 3) * table[400] + F(1, 2) * table[-50] == F(17, 2)
    # The same score, each component scored "as if obtained" against the real field.
    as_if_obtained = sum(w * matchpoints_against(s, EXAMPLE_9_FIELD) for s, w in weights.items())
    assert as_if_obtained == F(17, 2)
    assert matchpoints_against(420, EXAMPLE_9_FIELD) == 18
    assert matchpoints_against(400, EXAMPLE_9_FIELD) == 12
    assert matchpoints_against(-50, EXAMPLE_9_FIELD) == 3
    assert percent(F(17, 2), top(12)) == F(850, 22)


def test_frequency_table() -> None:
    assert frequency_table([620, -200, 620, 620]) == {620: 3, -200: 1}
    assert frequency_table([]) == {}
    assert list(frequency_table([-50, 420, 170])) == [420, 170, -50]
    assert all(type(v) is F for v in frequency_table([1, (2, 3)]).values())
    with pytest.raises(ValueError):
        frequency_table([(100, F(-1, 2))])
    with pytest.raises(TypeError):
        frequency_table([(100, 0.5)])
    with pytest.raises(TypeError):
        frequency_table([100.0])


# Seed 002 (EBL lecture on Law 12, tables A–C): ten NS scores, top 18. The adjusted pair is
# first; the other nine NS scores are the field.
LECTURE_FIELD_SCORES = [620, -200, 620, -500, 790, 620, 620, -500, -200]


def test_lecture_table_a() -> None:
    field = frequency_table(LECTURE_FIELD_SCORES)
    assert matchpoints_against(1100, field) == 18
    assert matchpoints_against(620, field) == 12
    assert matchpoints_against(-200, field) == 6
    assert top(10) == 18
    # Whole-board tables when the adjusted pair scored +1100, +620 or -200 (columns of table A).
    assert matchpoint_table(frequency_table(LECTURE_FIELD_SCORES + [1100])) == {
        1100: 18, 790: 16, 620: 11, -200: 5, -500: 1,
    }
    assert matchpoint_table(frequency_table(LECTURE_FIELD_SCORES + [620])) == {
        790: 18, 620: 12, -200: 5, -500: 1,
    }
    assert matchpoint_table(frequency_table(LECTURE_FIELD_SCORES + [-200])) == {
        790: 18, 620: 13, -200: 6, -500: 1,
    }


def test_lecture_table_b() -> None:
    weights = [(1100, F(1, 10)), (620, F(7, 10)), (-200, F(2, 10))]
    table = matchpoint_table(frequency_table(LECTURE_FIELD_SCORES + weights))
    assert table == {
        1100: F(189, 10), 790: F(178, 10), 620: F(121, 10), -200: F(52, 10), -500: 1,
    }
    adjusted_pair = sum(w * table[s] for s, w in weights)
    assert adjusted_pair == F(114, 10)
    field = frequency_table(LECTURE_FIELD_SCORES)
    assert sum(w * matchpoints_against(s, field) for s, w in weights) == F(114, 10)
    assert percent(adjusted_pair, top(10)) == F(190, 3)


def test_lecture_table_c_split_score_for_ew() -> None:
    # EW are given a different weighting (3/10 -1100, 6/10 -620, 1/10 +200), so the EW
    # frequency table differs from the NS one. The lecture's rows for the other EW -620s
    # print 5.2, but its own components (7, 6, 5) give 6.2, as in its second row.
    ew_field = [-score for score in LECTURE_FIELD_SCORES]
    weights = [(-1100, F(3, 10)), (-620, F(6, 10)), (200, F(1, 10))]
    table = matchpoint_table(frequency_table(ew_field + weights))
    assert table[-620] == F(62, 10)
    assert table[200] == F(129, 10)
    assert table[500] == 17
    assert table[-790] == F(6, 10)
    assert sum(w * table[s] for s, w in weights) == F(48, 10)


def test_matchpoints_against_fractional_field() -> None:
    field = {420: F(25, 6), 400: F(4, 3), 170: 1, 150: 1, -50: F(7, 2)}
    # Another +400 against the field with one of the +400s removed.
    assert matchpoints_against(400, field) == F(37, 3)
    assert matchpoints_against(1000, {}) == 0
    assert matchpoints_against(1000, {420: 1}) == 2
    assert matchpoints_against(420, {420: 1}) == 1
    assert matchpoints_against(-50, {420: 1}) == 0
    with pytest.raises(TypeError):
        matchpoints_against(0, {10: 0.5})  # type: ignore[dict-item]


def test_top_and_percent() -> None:
    assert top(10) == 18
    assert top(1) == 0
    assert top(F(25, 2)) == 23
    assert percent(F(9), F(18)) == 50
    assert percent(F(12), 18) == F(200, 3)
    assert percent(0, 18) == 0
    with pytest.raises(ValueError):
        percent(F(1), 0)


def test_single_result_board() -> None:
    assert matchpoint_table({620: 1}) == {620: 0}


@st.composite
def fields_and_weightings(draw: st.DrawFn) -> tuple[dict[int, F], list[tuple[int, F]]]:
    scores = st.integers(min_value=-20, max_value=20).map(lambda n: n * 10)
    frequencies = st.fractions(min_value=0, max_value=5, max_denominator=12)
    field = draw(st.dictionaries(scores, frequencies, max_size=8))
    components = draw(st.lists(st.tuples(scores, st.integers(1, 12)), min_size=1, max_size=5))
    total = sum(k for _, k in components)
    return field, [(score, F(k, total)) for score, k in components]


@given(fields_and_weightings())
def test_weighted_pair_equals_as_if_obtained(
    case: tuple[dict[int, F], list[tuple[int, F]]],
) -> None:
    field, weights = case
    assert sum(w for _, w in weights) == 1
    table = matchpoint_table(frequency_table(list(field.items()) + weights))
    via_table = sum(w * table[score] for score, w in weights)
    as_if_obtained = sum(w * matchpoints_against(score, field) for score, w in weights)
    assert via_table == as_if_obtained


@given(st.lists(st.integers(min_value=-30, max_value=30).map(lambda n: n * 10), min_size=1))
def test_matchpoints_are_conserved(scores: list[int]) -> None:
    # Whole numbers of results: every comparison hands out 2 matchpoints in total, so the
    # matchpoints sum to n(n-1); each result scores the same as against the others.
    n = len(scores)
    table = matchpoint_table(frequency_table(scores))
    assert sum(table[s] for s in scores) == n * (n - 1)
    assert all(0 <= mp <= top(n) for mp in table.values())
    for i, score in enumerate(scores):
        others = frequency_table(scores[:i] + scores[i + 1 :])
        assert matchpoints_against(score, others) == table[score]
    # NS and EW matchpoints add up to the top.
    ew_table = matchpoint_table(frequency_table([-s for s in scores]))
    assert all(table[s] + ew_table[-s] == top(n) for s in scores)
