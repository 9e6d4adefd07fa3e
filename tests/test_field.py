"""One field (issue 19): ``bridgelaw score`` and ``bridgelaw event`` read, rule and score every board
alike; an adjusted table's ruling is the ruling of its equivalent case, trace and citations; the
field's Python names no federation and no paragraph of the Laws."""

from __future__ import annotations

import json
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.run import load_event, run
from bridgelaw.field.traveller import load_results_traveller, load_traveller, score_traveller
from bridgelaw.render import event as report

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "events"
TRAVELLERS = ROOT / "travellers"
MAGIC = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".pbn", ".xml"))


def values(lines) -> list[tuple]:
    return [(sl.NS.value, sl.EW.value) for sl in lines]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_score_and_event_give_every_board_of_every_results_file_the_same_scores(path):
    """Each board of each real results file, read by `bridgelaw score` as a traveller (the board
    scored within its session) and by `bridgelaw event` (the whole file): the same scores."""
    data = path.read_bytes()
    try:
        scored = run(load_event(str(path), text=data), None, "wbf-2017", [])
    except BridgelawError as exc:             # a file refused is refused the same way, board by board
        with pytest.raises(BridgelawError) as again:
            load_results_traveller(path, text=data, board=1, rulebook="wbf-2017")
        assert str(again.value) == str(exc)
        return
    (session,) = scored
    assert len(session.boards) >= 4
    for number, sb in session.boards.items():
        board = score_traveller(load_results_traveller(path, text=data, board=number, rulebook="wbf-2017"))
        assert values(board.lines) == values(sb.lines), (path.name, number)
        assert (board.top, board.results, board.expected) == (sb.top, sb.results, sb.expected)


def cli_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def event_board(data: dict, number: int | None) -> list[tuple]:
    (session,) = data["sessions"]
    (board,) = [b for b in session["boards"] if b["board"] == number]
    return [(F(line["NS"]["exact"]), F(line["EW"]["exact"])) for line in board["lines"]]


def score_board(data: dict) -> list[tuple]:
    return [(F(t["NS"]["score"]["exact"]), F(t["EW"]["score"]["exact"])) for t in data["tables"]]


@pytest.mark.parametrize("name, number", [("wbf-2017-example-09.yaml", 9), ("ebl-2008-appendix-c.yaml", None),
                                          ("board-09.adjustments.yaml", 9)])
def test_score_and_event_give_the_travellers_the_same_scores(capsys, name, number):
    """The travellers in travellers/ (YAML, and a PBN board with its adjustments file) through both
    commands: a traveller is an event of one board."""
    path = str(TRAVELLERS / name)
    scored = score_board(cli_json(capsys, "score", path))
    assert scored == event_board(cli_json(capsys, "event", path), number)
    if name.startswith("board-09"):
        pbn = score_board(cli_json(capsys, "score", str(TRAVELLERS / "board-09.pbn"), "--adjustments", path))
        assert pbn == scored


def test_a_butler_datum_rounds_its_halves_as_the_rulebook_says_in_both_commands(capsys):
    """Board 2 of the Compscore butler file: four tables, a trimmed mean of -445. Rounded to 10 it
    is -440 (halves to even) or -450 (away from zero): `bridgelaw score` read the parameter too."""
    path = str(DATA / "compscore-butler-howell.xml")
    base = ["--rulebook", "wbf-2017", "--set", "fieldscore.butler.round_datum_to=10"]
    got = {}
    for half in ("even", "away"):
        setting = ["--set", f"fieldscore.butler.round_half={half}"]
        board = cli_json(capsys, "score", path, "--board", "2", *base, *setting)
        assert len(board["tables"]) == 4 and board["parameters"]["fieldscore.butler.round_half"]["value"] == half
        got[half] = score_board(board)
        assert got[half] == event_board(cli_json(capsys, "event", path, *base, *setting), 2)
        assert board["datum"]["NS"]["exact"] == {"even": "-440", "away": "-450"}[half]
    assert got["even"] != got["away"]


RULINGS = """\
rulebook: wbf-2017
rulings:
  - board: 3
    table: 5
    adjusted: [{result: 4H= N, weight: 2/3}, {result: 4H-1 N, weight: 1/3}]
    note: break in tempo before 4H
"""


def equivalent_case(event: dict, number: int, table: int) -> str:
    """The case a TD would write for the table: its weighting, the other tables' results as the field."""
    (session,) = event["sessions"]
    (board,) = [b for b in session["boards"] if b["board"] == number]
    others = [line["what"] for line in board["lines"] if line["table"] != table]
    return ("title: the equivalent case\nrulebook: wbf-2017\nscoring: matchpoints\n"
            f"board: {{number: {number}, vulnerability: EW}}\nnon_offending: NS\n"
            f"field: [{', '.join(others)}]\n"
            "without_infraction: [{result: 4H= N, weight: 2/3}, {result: 4H-1 N, weight: 1/3}]\n")


def test_a_weighted_table_of_an_event_carries_the_trace_of_its_equivalent_case(tmp_path, capsys):
    """Board 3 table 5 of the Magic Contest file, adjusted by a weighting: its line in `bridgelaw
    event --format json` carries the trace `bridgelaw rule` gives the equivalent case — then only
    what the field did (each outcome scored in the field) — and cites what that trace cites."""
    rulings = tmp_path / "r.yaml"
    rulings.write_text(RULINGS, encoding="utf-8")
    event = cli_json(capsys, "event", str(MAGIC), "--rulings", str(rulings), "--profile", "none")
    (session,) = event["sessions"]
    (board,) = [b for b in session["boards"] if b["board"] == 3]
    (line,) = [li for li in board["lines"] if li["table"] == 5]
    case = tmp_path / "case.yaml"
    case.write_text(equivalent_case(event, 3, 5), encoding="utf-8")
    ruled = cli_json(capsys, "rule", str(case), "--as-of", "2022-02-06")
    n = len(ruled["trace"])
    assert line["trace"][:n] == ruled["trace"]
    assert {e["kind"] for e in line["trace"][n:]} == {"in-field"}
    assert (F(line["NS"]["exact"]), F(line["EW"]["exact"])) == (F(ruled["sides"]["NS"]["exact"]),
                                                                F(ruled["sides"]["EW"]["exact"])) == (F(124, 3), F(2, 3))
    # the citations: the trace's, nothing more — the same paragraphs `bridgelaw rule` cites
    cited: list[str] = []
    for e in line["trace"]:
        for ref in e.get("cites", []) + (e.get("dated") or {}).get("cites", []):
            if ref not in cited:
                cited.append(ref)
    assert line["citations"] == cited == [c["paragraph"] for c in ruled["citations"]]
    assert main(["event", str(MAGIC), "--rulings", str(rulings)]) == 0
    text = capsys.readouterr().out
    block = text[text.index("board 3 table 5:"):]
    block = block[:block.index("\n  board ", 1)]
    assert block.rstrip().endswith(f"    law: {', '.join(cited)}")
    mentioned = set(re.findall(r"\b12[A-H][0-9](?:\([a-z]+\))*", block))
    assert mentioned == set(cited)           # the steps mention no paragraph the trace does not cite


def test_a_player_penalty_goes_through_the_penalty_stage_of_the_ruling_path():
    """The penalty on one player of an individual event is decided by the penalty stage in the
    line's trace (no rule string of its own): its decision, then who bears what."""
    event = load_event(str(DATA / "individual-derived-from-magic-contest.pbn"))
    rulings = ("rulebook: wbf-2017\nrulings:\n  - board: 1\n    table: 3\n"
               "    penalty: {player: N, amount: 25%, partner_blameless: true}\n")
    (ss,) = run(event, "r.yaml", None, [], rulings_text=rulings)
    (sl,) = [sl for sl in ss.boards[1].lines if sl.line.table == 3]
    kinds = [e.kind for e in sl.entries]
    assert kinds == ["decision", "player-penalty"]
    assert sl.entries[0].data["decision"].stage == "penalty" and sl.citations == ["12C3"]
    assert report.rules(sl) == ["penalty-offender-only (12C3)"]


def test_the_session_records_the_parameters_it_read_with_their_layer_and_cites():
    event = load_event(str(MAGIC))
    (ss,) = run(event, None, "ebu", [], profile="none")       # the regulation's values, not the program's
    read = ss.trace.parameters()
    assert list(read) == ["fieldscore.neuberg.form", "fieldscore.neuberg.round_to", "fieldscore.neuberg.round_mode",
                          "fieldscore.neuberg.expected", "fieldscore.totals.factor_to_top",
                          "fieldscore.totals.factor_boards", "fieldscore.totals.byes"]      # byes: issue 28
    assert read["fieldscore.neuberg.round_to"].data["value"] == F(1, 10)
    assert read["fieldscore.neuberg.round_to"].data["dated"].cites == ("EBU-WB/neuberg-rounding",)
    assert ss.trace.citations() == ["EBU-WB/neuberg-rounding"]
    checks = [c for c in ss.checks() if c.key != "place"]     # (its places rank both directions together)
    assert all(c.agrees for c in checks) and len(checks) > 1000     # the EBU's rounding is Magic Contest's


def test_a_traveller_read_twice_scores_the_same():
    assert values(score_traveller(load_traveller(TRAVELLERS / "wbf-2017-example-09.yaml")).lines) == \
        values(score_traveller(load_traveller(TRAVELLERS / "wbf-2017-example-09.yaml")).lines)


def test_the_field_names_no_federation_and_no_paragraph():
    """Law knowledge lives in rulebooks: no Python under engine/field/ names a federation or a
    paragraph of the Laws — in code, messages, comments or docstrings (the shapes are
    tests/test_no_law_in_python.py's, which scans the literals of the whole engine)."""
    from test_no_law_in_python import federations, paragraph_ids
    found = []
    for path in sorted((ROOT / "engine" / "field").rglob("*.py")):
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{n}: {x}" for x in paragraph_ids(text) + federations(text)]
            found += [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}" for m in re.finditer(r"\bLaw\s+[0-9]+", text)]
    assert found == []
    assert federations("the EBU form") and paragraph_ids("12C2(c) session facts")   # the checks can fail


@pytest.mark.parametrize("name, number, penalty", [("ffb-magic-contest-2022-open-dn1-s1.pbn", 3, "10%"),
                                                   ("compscore-cross-imp-howell.xml", 1, "3 IMP"),
                                                   ("compscore-butler-howell.xml", 1, "3 IMP")])
def test_score_and_event_rule_a_weighted_table_and_a_penalty_alike(name, number, penalty):
    """Issue 22: a weighted adjusted table (in table points at cross-IMPs and butler) and a procedural
    penalty, given to `bridgelaw score` in an adjustments file and to `bridgelaw event` in a rulings
    file: the board scores the same, and the penalty's ruling cites the same paragraph."""
    path = DATA / name
    data = path.read_bytes()
    board = load_event(str(path), text=data).sessions[0].boards[number]
    (a, b), results = board.lines[:2], [l.result.text for l in board.lines[2:4]]
    weighting = f"[{{result: {results[0]}, weight: 1/3}}, {{result: {results[1]}, weight: 2/3}}]"
    # a file without table numbers: its rows are tables 1, 2, … to an adjustments file; a rulings file names the pairs
    ta, tb = a.table or 1, b.table or 2
    adjustments = (f"rulebook: wbf-2017\nboard: {number}\ntables:\n  - {{table: {ta}, adjusted: {weighting}}}\n"
                   f"  - {{table: {tb}, penalty: {{EW: {penalty}}}}}\n")
    rulings = (f"rulebook: wbf-2017\nrulings:\n  - {{board: {number}, ns: {a.ns}, adjusted: {weighting}}}\n"
               f"  - {{board: {number}, ns: {b.ns}, penalty: {{EW: {penalty}}}}}\n")
    scored = score_traveller(load_results_traveller(path, text=data, adjustments="a.yaml",
                                                    adjustments_text=adjustments))
    (session,) = run(load_event(str(path), text=data), "r.yaml", None, [], rulings_text=rulings)
    evented = session.boards[number]
    assert values(scored.lines) == values(evented.lines)
    assert [sl.citations for sl in scored.lines[:2]] == [sl.citations for sl in evented.lines[:2]]
    assert "90A" in evented.lines[1].citations and evented.lines[1].penalties[0].taken > 0
    assert evented.lines[0].line.ruled.unit == ("MP" if name.startswith("ffb") else "points")


def test_a_line_holds_only_what_it_was_given_and_makes_its_containers_when_used():
    """Line: the six fields every line has, any other by name (an unknown name refused); a default
    read from the class, a container made for the line itself on first use (never shared)."""
    from bridgelaw.field.model import Line
    a, b = Line(1, "", 1, "1", "2", None), Line(1, "", 2, "3", "4", None, kind="artificial", code="A+")
    assert set(vars(a)) == {"board", "section", "table", "ns", "ew", "where"}
    assert (a.kind, a.result, b.kind, b.code) == ("result", None, "artificial", "A+")
    a.extra["row"] = "r"
    assert (a.extra, b.extra, "extra" in vars(b)) == ({"row": "r"}, {}, True)
    assert a.published is not b.published
    assert a.penalties == () and "penalties" not in vars(a)       # none: the shared empty tuple, never changed
    with pytest.raises(AttributeError):
        a.penalties.append("p")
    with pytest.raises(TypeError, match="Line has no field colour"):
        Line(1, "", 1, "1", "2", None, colour="red")
    with pytest.raises(AttributeError):
        a.colour
    del a.section                   # a property failing inside names what it missed, not itself
    with pytest.raises(AttributeError, match="no attribute 'section'"):
        a.label
    assert Line(1, "", 1, "1", "2", None, kind="artificial") == Line(1, "", 1, "1", "2", None, kind="artificial")
