"""Issue 32, item 5: `bridgelaw slip CASE` (text, Markdown, printable HTML — one renderer,
render/slip.py) and the text fixes: a line's pairs said once, NS ranked before EW, no "Table None",
singular units, the outcome in words, no parameter id on the slip, no pydantic paths in
messages, Markdown sub-steps as a nested list."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import pytest

from bridgelaw.commands.cli import main
from bridgelaw.core.yamlio import readable_path
from bridgelaw.render.ruling import plural, unit_name

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_07 = REPO / "cases" / "wbf-commentary-2017" / "example-07.yaml"
POLL = REPO / "cases" / "wbf-commentary-2017" / "example-11b-half-reach-slam.yaml"
DATA = REPO / "tests" / "data" / "events"
FIGURES = DATA / "figures"
_spec = importlib.util.spec_from_file_location("usebio_shapes", FIGURES / "generate.py")
shapes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shapes)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def ebuscore(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ebuscore") / "thursday.xml"
    out.write_bytes(shapes.generate(shapes.load(FIGURES / "ebuscore-pairs-multi-section.yaml")))
    return out


def test_slip_as_text(capsys):
    code, out, err = cli(capsys, "slip", str(EXAMPLE_07))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:5] == ["DIRECTOR'S RULING", "", "WBF commentary on Law 12, example 7 (gambling 5H, split damage)", "",
                         "Score adjusted: the offending side gets the assigned score; the non-offending side keeps the "
                         "part of the damage it caused itself."]
    assert "NS (non-offending): 5HX-2 N (table result), plus the damage not of its own making: 0 IMPs" in lines
    assert "EW (offending):     4H-1 N: -2 IMPs" in lines
    assert "  4. NS (non-offending) gets A + B - C = 0 IMPs" in lines
    assert ("Either side may appeal this ruling (Law 92B): the right to appeal expires 30 minutes after the official "
            "score is made available for inspection (the time limit of rulebook wbf-2017).") in lines
    assert "appeal.time_limit_minutes" not in out
    assert "Signed (Director):   ________________________" in lines


def test_slip_as_markdown_and_html(capsys):
    code, md, _ = cli(capsys, "slip", str(POLL), "--rulebook", "wbf-laws-committee-2017", "--format", "markdown")
    assert code == 0
    assert md.startswith("# Director's ruling\n")
    assert "## Scores" in md and "### How the scores were worked out" in md
    assert "-   " not in md                              # no "-   3/5 × …" (a code block under a bullet)
    code, html, _ = cli(capsys, "slip", str(EXAMPLE_07), "--format", "html")
    assert code == 0
    assert html.startswith("<!doctype html>") and "<style>" in html and '<article class="slip" id="slip">' in html
    assert "<script" not in html


def test_the_case_markdown_nests_sub_steps(capsys):
    code, md, _ = cli(capsys, "rule", str(POLL), "--rulebook", "wbf-laws-committee-2017", "--format", "markdown")
    assert code == 0
    assert "    - 3/5 × [6D= S: NS +920 → NS IMP(+920 − 420) = +11]" in md.splitlines()
    assert "-   " not in md


def test_slip_errors_are_one_line(capsys, tmp_path):
    code, out, err = cli(capsys, "slip", str(tmp_path / "none.yaml"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_event_text_says_a_line_once_and_ranks_ns_first(capsys, ebuscore, tmp_path):
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulings:\n- {board: 1, ns: 1, ew: 10, adjusted: [{result: 4S= N, weight: 60%}, "
                       "{result: 4S-1 N, weight: 40%}], non_offending: NS}\n")
    code, out, err = cli(capsys, "event", str(ebuscore), "--rulings", str(rulings))
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("  board 1 NS 1 v EW 10"))
    assert line.startswith("  board 1 NS 1 v EW 10: 3/5 4S= N + 2/5 4S-1 N — ruling 1")
    assert line.count("NS 1 v EW 10") == 1
    code, out, _ = cli(capsys, "event", str(DATA / "compscore-mp-pairs-mitchell.xml"))
    groups = [x for x in out.splitlines() if x in ("NS", "EW")]
    assert groups == ["NS", "EW"]


def test_score_of_a_board_without_table_numbers(capsys, ebuscore):
    code, out, err = cli(capsys, "score", str(ebuscore), "--board", "12", "--rulebook", "ebu")
    assert code == 0, err
    assert "None" not in out
    assert "      -   6  15  3D= N, NS +110       23  (23.00)   71.88      9   (9.00)   28.13" in out.splitlines()


def test_units_and_counts_in_the_singular():
    assert unit_name("MP", Fraction(1)) == "matchpoint" and unit_name("MP", Fraction(2)) == "matchpoints"
    assert unit_name("IMP", Fraction(-1)) == "IMP" and unit_name("IMP", Fraction(1, 2)) == "IMPs"
    assert unit_name("%", Fraction(1)) == "percent"
    assert plural(1, "case") == "1 case" and plural(3, "case") == "3 cases"


def test_messages_name_a_list_entry_by_its_number(capsys, ebuscore, tmp_path):
    assert readable_path(("rulings", 0, "adjusted", 1, "result")) == "ruling 1, adjusted 2, result"
    assert readable_path(("board", "number")) == "board.number"
    assert readable_path(("without_infraction", "EW", 0, "weight")) == "without_infraction.EW 1, weight"
    bad = tmp_path / "bad.yaml"
    bad.write_text("rulings:\n  - {board: 1, ns: 1, ew: 10, adjusted: [{result: 4S= N, weight: 60%}, "
                   "{result: 4Q-1 N, weight: 40%}]}\n")
    code, out, err = cli(capsys, "event", str(ebuscore), "--rulings", str(bad))
    assert code == 2
    assert err == (f"bridgelaw: error: {bad}:2:81: ruling 1, adjusted 2, result: '4Q-1 N': not a result: '4Q-1 N' "
                   "(expected a result such as 4SX-2 W, 3NT= S, 4♠= N or PASS, or a score such as NS +620)\n")
