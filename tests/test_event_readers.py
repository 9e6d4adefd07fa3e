"""Issue 24's reader items for results files (each failed on the old code), and issue 20's report
items: one located line, exit 2, nothing written."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bridgelaw.commands.cli import main

DATA = Path(__file__).parent / "data" / "events"
MAGIC = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
INDIVIDUAL = DATA / "individual-derived-from-magic-contest.pbn"


def refused(capsys, args, out: Path | None = None) -> str:
    code = main(args + (["--output", str(out)] if out else []))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert out is None or not out.exists()
    return err


@pytest.mark.parametrize("board", ["¹", "⑨", "0", "٩", "9" * 5000])
def test_a_board_tag_that_is_not_a_board_number(tmp_path, capsys, board):
    text = INDIVIDUAL.read_text("latin-1").replace('[Board "1"]', f'[Board "{board}"]', 1)
    path = tmp_path / "b.pbn"
    path.write_text(text, "utf-8")
    err = refused(capsys, ["event", str(path), "--rulebook", "wbf-2017"], tmp_path / "o.pbn")
    assert f"{path}:8:9: Board " in err and "is not a board number (expected 1 to 9,999 in ASCII digits)" in err


@pytest.mark.parametrize("column", ["PlayerId_North", "PlayerId_West"])
def test_an_individual_score_table_without_one_player_column(tmp_path, capsys, column):
    path = tmp_path / "i.pbn"
    path.write_text(INDIVIDUAL.read_text("latin-1").replace(column, "Foo"), "latin-1")
    err = refused(capsys, ["event", str(path), "--rulebook", "wbf-2017"])
    assert f"{path}:24:14: the ScoreTable has " in err and f"but not {column}" in err


@pytest.mark.parametrize("date", ["2022.02.30", "0000.01.01", "9999.12.31", "1" * 5000])
def test_a_date_that_is_not_a_day(tmp_path, capsys, date):
    path = tmp_path / "d.pbn"
    path.write_text(MAGIC.read_text("latin-1").replace('[Date "2022.02.06"]', f'[Date "{date}"]', 1), "latin-1")
    err = refused(capsys, ["event", str(path), "--rulebook", "wbf-2017"])
    assert f"{path}:" in err and "date" in err


def test_a_penalty_beyond_a_top_is_refused_at_the_ruling(tmp_path, capsys):
    """Issue 24: penalty: {EW: 99999999999%} gave EW −9,999,999,997.9 MP."""
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - {board: 5, table: 16, penalty: {EW: 99999999999%}}\n")
    err = refused(capsys, ["event", str(MAGIC), "--rulings", str(rulings)], tmp_path / "o.pbn")
    assert err == (f"bridgelaw: error: {rulings}:3:1: board 5 table 16: a procedural penalty of 99999999999% of a "
                   "top (expected a share of a top from 0% to 100%)\n")


def test_an_adjustment_cell_outside_a_top_is_refused_at_its_cell(tmp_path, capsys):
    """Issue 24: an Adjustment cell art NS=-1/2 EW=3/2 was scored −50% / 150%."""
    text = MAGIC.read_text("latin-1")
    header = "Percentage_NS\\3R;Percentage_EW\\3R\"]"
    assert header in text
    lines = text.splitlines(keepends=True)
    k = next(i for i, l in enumerate(lines) if header in l)
    lines[k] = lines[k].replace(header, "Percentage_NS\\3R;Percentage_EW\\3R;Adjustment\"]")
    lines[k + 1] = lines[k + 1].rstrip("\n") + ' "art NS=-1/2 EW=3/2"\n'
    for j in range(k + 2, len(lines)):
        if not lines[j].strip() or lines[j].startswith("["):
            break
        lines[j] = lines[j].rstrip("\n") + " -\n"
    path = tmp_path / "a.pbn"
    path.write_text("".join(lines), "latin-1")
    err = refused(capsys, ["event", str(path), "--rulebook", "wbf-2017"])
    assert f"{path}:{k + 2}:2: board 1 table 3: an artificial score of -50% of a top" in err


def test_a_huge_tag_is_refused_in_linear_time(tmp_path, capsys):
    """Issue 24: a 60 MB Event tag took 83 s before it was accepted."""
    text = INDIVIDUAL.read_text("latin-1")
    path = tmp_path / "big.pbn"
    path.write_text(text.replace('[Event "', '[Event "' + "x" * 6_000_000, 1), "latin-1")
    start = time.process_time()
    err = refused(capsys, ["event", str(path), "--rulebook", "wbf-2017"])
    assert time.process_time() - start < 2
    assert "is 6,000,0" in err and "characters long (expected lines of at most 65,536 characters" in err


def test_a_rulings_file_may_give_a_files_own_codes(tmp_path, capsys):
    """Issue 20: artificial: {NS: A+, EW: A-} was refused ("no responsibilities give NS A+ …")."""
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - {board: 5, table: 16, artificial: {NS: A+, EW: A-}}\n"
                       "  - {board: 6, table: 16, artificial: {NS: A60, EW: A40}}\n")
    assert main(["event", str(MAGIC), "--rulings", str(rulings), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    lines = {(b["board"], l["table"]): l for b in data["sessions"][0]["boards"] for l in b["lines"]}
    assert (lines[(5, 16)]["NS"]["exact"], lines[(5, 16)]["EW"]["exact"]) == ("126/5", "84/5")
    assert (lines[(6, 16)]["NS"]["exact"], lines[(6, 16)]["EW"]["exact"]) == ("126/5", "84/5")
    assert lines[(5, 16)]["rules"][0].startswith("no-result-obtainable")


def test_the_json_report_gives_the_butler_datum_and_the_text_report_decimal_percentages(capsys):
    assert main(["event", str(DATA / "compscore-butler-howell.xml"), "--rulebook", "wbf-2017", "--format",
                 "json"]) == 0
    board = json.loads(capsys.readouterr().out)["sessions"][0]["boards"][0]
    assert board["datum"] == {"NS": {"exact": "160", "value": 160.0}, "EW": {"exact": "-160", "value": -160.0}}
