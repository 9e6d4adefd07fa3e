"""`bridgelaw score` reads the artificial codes of a PBN score column (A+, A-, A=, A60, A6040 …)
through the events' one parser (events.model.parse_code / read_codes): a board of a real file
scores as `bridgelaw event` scores it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.commands.event import load_event
from bridgelaw.field.score import score_session
from bridgelaw.field.traveller import score_traveller
from bridgelaw.field.traveller import load_results_traveller as load_pbn_traveller

MAGIC = Path(__file__).parent / "data" / "events" / "ffb-magic-contest-2022-open-dn1-s1.pbn"
ROUND = "fieldscore.neuberg.round_to=1/10"


def test_magic_contest_board_9_scores_its_a_minus_a_plus_line_as_the_event_does():
    trav = load_pbn_traveller(MAGIC, board=9, rulebook="wbf-2017")
    line = next(t for t in trav.lines if t.kind == "artificial")
    assert (line.table, line.ns, line.ew) == (5, "1", "9")
    assert line.artificial == {"NS": "directly-at-fault", "EW": "in-no-way-at-fault"}
    scored = next(sl for sl in score_traveller(trav).lines if sl.line is line)
    assert {s: scored.awarded[s] for s in ("NS", "EW")} == {"NS": Fraction(2, 5), "EW": Fraction(3, 5)}


def test_bridgelaw_score_and_event_give_board_9_the_same_scores(capsys):
    import json
    assert main(["score", str(MAGIC), "--board", "9", "--rulebook", "wbf-2017", "--set", ROUND,
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = {t["ns_pair"]: t for t in out["tables"]}
    event = load_event(str(MAGIC))
    ss = score_session(event.sessions[0], rulebook.get("wbf-2017").with_settings([ROUND]))
    want = {sl.line.ns: (sl.NS.value, sl.EW.value) for sl in ss.boards[9].lines}
    assert len(got) == len(want) == 22
    for ns, t in got.items():
        assert (Fraction(t["NS"]["score"]["exact"]), Fraction(t["EW"]["score"]["exact"])) == want[ns], ns
    assert got["1"]["kind"] == "artificial" and got["1"]["artificial"]["NS"]["word"] == "avg-minus"
    assert want["1"] == (Fraction(84, 5), Fraction(126, 5))


BOARD = """[Event "t"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Table\\2R;PairId_NS\\2R;PairId_EW\\2R;Score_NS\\6R;Score_EW\\6R"]
 1  1  1 {a} {b}
 2  2  2 420 -
 3  3  3 450 -
"""


def scored(a: str, b: str = "-"):
    trav = load_pbn_traveller("t.pbn", text=BOARD.format(a=a, b=b), rulebook="wbf-2017")
    sb = score_traveller(trav)
    return {t.line.table: (t.NS.value, t.EW.value) for t in sb.lines}


def test_one_sided_code_mirrors_and_two_sided_percentages_are_as_written():
    # top 4 (3 results, 2 per result beaten)
    assert scored("A+")[1] == (Fraction(12, 5), Fraction(8, 5))            # EW gets A-'s mirror
    assert scored('"A6040"')[1] == (Fraction(12, 5), Fraction(8, 5))
    assert scored("A50", "A50")[1] == (2, 2)
    assert scored("A=", "A=")[1] == (2, 2)
    assert scored("PASS")[2] == (2, 2)                       # PASS is a score of 0 for both


@pytest.mark.parametrize("a, b, message", [
    ("Bye", "-", "t.pbn:5:10: 'Bye': this table did not play the board"),
    ("A+X", "-", "t.pbn:5:10: Score_NS 'A+X' is not a score"),
    ("A+", "A60", "t.pbn:5:10: 'A+/A60': one side has an artificial score by responsibility and the other an "
                  "explicit percentage"),
])
def test_codes_bridgelaw_score_refuses(a, b, message):
    with pytest.raises(BridgelawError) as e:
        scored(a, b)
    assert str(e.value).startswith(message)
