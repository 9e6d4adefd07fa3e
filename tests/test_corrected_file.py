"""Issue 28 item 3 and issue 32 item 1: a corrected file changes only what the rulings change.

- With no ruling, every real file kept (and every file the figures generator writes) is written back
  byte for byte, in its own format.
- With one ruling (random board, line and kind), the file changes only inside the ruled board's lines
  and the contestants' figures; only contestants who play the ruled board change total, percentage
  or boards played; every change is listed (--diff) with its ruling.
- A 60/40 weighting on a file of whole-number matchpoints is written at the decimals it needs (10.4
  and 3.6, not 10 and 4), and the pair's total follows exactly.
"""

from __future__ import annotations

import difflib
import importlib.util
import os
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bridgelaw.commands.cli import main
from bridgelaw.core import bridge
from bridgelaw.field import corrected
from bridgelaw.field.run import load_event, outputs, run

DATA = Path(__file__).parent / "data" / "events"
FIGURES = DATA / "figures"
_spec = importlib.util.spec_from_file_location("usebio_shapes", FIGURES / "generate.py")
shapes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shapes)

# real files kept, with the rulebook in force on their day
KEPT = [("compscore-mp-pairs-howell.xml", "wbf-2017"), ("compscore-cross-imp-howell.xml", "wbf-2017"),
        ("compscore-butler-howell.xml", "wbf-2017"), ("compscore-butler-mitchell.xml", "wbf-2017"),
        ("compscore-mp-pairs-mitchell.xml", "wbf-2017"), ("compscore-mp-pairs-mitchell-02.xml", "wbf-2017"),
        ("compscore-mp-pairs-mitchell-02-adjusted.xml", "wbf-2017"), ("scorebridge-mp-pairs-8.xml", "wbf-2017"),
        ("ffb-magic-contest-2022-open-dn1-s1.pbn", "wbf-2017"), ("ffb-magic-contest-2022-open-dn1-s5.pbn", "wbf-2017"),
        ("individual-derived-from-magic-contest.pbn", "wbf-2017")]
GENERATED = [("ebuscore-pairs-multi-section", "wbf-2017"), ("jss-pairsscorer-mp-pairs", "wbf-2007"),
             ("jss-pairsscorer-multi-section", "wbf-2007"), ("realbridge-mp-pairs", "wbf-2017"),
             ("brian-mp-pairs", "wbf-2017"), ("pianola-cross-imp-pairs", "wbf-2007")]


def _generated(tmp: Path, name: str) -> Path:
    out = tmp / f"{name}.xml"
    if not out.exists():
        out.write_bytes(shapes.generate(shapes.load(FIGURES / f"{name}.yaml")))
    return out


def _written(path: Path, rulebook: str, rulings: str | None = None):
    event = load_event(str(path))
    scored = run(event, "r.yaml" if rulings else None, rulebook, [], rulings_text=rulings)
    ((_, text, encoding),) = outputs(event, scored, [f"out{path.suffix}"], str(path))
    return event, scored, text.encode(encoding)


@pytest.mark.parametrize("name, rulebook", KEPT, ids=[k[0] for k in KEPT])
def test_a_kept_file_with_no_ruling_is_written_back_byte_for_byte(name, rulebook):
    _, scored, data = _written(DATA / name, rulebook)
    assert data == (DATA / name).read_bytes()
    assert corrected.changes(scored) == []


@pytest.mark.parametrize("name, rulebook", GENERATED, ids=[g[0] for g in GENERATED])
def test_a_generated_file_with_no_ruling_is_written_back_byte_for_byte(tmp_path, name, rulebook):
    path = _generated(tmp_path, name)
    _, _, data = _written(path, rulebook)
    assert data == path.read_bytes()           # ISO-8859-1 stays ISO-8859-1, CRLF, indentation, "37.2"


def _ruling(line, kind: str, weight: int, scoring: str = "matchpoints") -> str:
    where = f"board: {line.board}, " + (f"section: '{line.section}', " if line.section else "") + \
        (f"table: {line.table}" if line.table is not None else f"ns: '{line.ns}', ew: '{line.ew}'")
    if kind == "adjusted" and isinstance(line.result, bridge.PlayedResult) and line.result.contract is not None:
        r = line.result
        down = bridge.PlayedResult(r.contract, r.declarer, max(0, r.tricks - 1)).text
        return (f"{{{where}, non_offending: NS, adjusted: [{{result: '{r.text}', weight: {weight}/10}}, "
                f"{{result: '{down}', weight: {10 - weight}/10}}]}}")
    if kind == "penalty":
        return f"{{{where}, penalty: {{EW: {'10%' if scoring == 'matchpoints' else '3'}}}}}"
    return f"{{{where}, artificial: {{NS: avg-plus, EW: avg-minus}}}}"


def _allowed_lines(event, ss, board: int) -> set[int]:
    """The lines of the input a ruling on `board` may change: the board's lines, the contestants'."""
    if event.format == "pbn":
        game = ss.boards[board].board.extra["game"]
        table = game.score_table
        allowed = {table.tag_index, *(r.index for r in table.rows)}
        for g in event.source.games:
            for name, t in g.tables.items():
                if name.lower() == "totalscoretable":
                    allowed |= {t.tag_index, *(r.index for r in t.rows)}
        return allowed
    data = event.source.source.data
    nodes = [sl.line.extra["node"] for sl in ss.boards[board].lines]
    nodes += [c.extra["node"] for c in ss.session.contestants.values() if "node" in c.extra]
    allowed = set()
    for n in nodes:
        end = data.find(b">", n.close) + 1
        allowed |= set(range(data.count(b"\n", 0, n.start), data.count(b"\n", 0, end) + 1))
    return allowed


SAMPLE = [("compscore-mp-pairs-howell.xml", "wbf-2017"), ("scorebridge-mp-pairs-8.xml", "wbf-2017"),
          ("compscore-cross-imp-howell.xml", "wbf-2017"), ("compscore-butler-howell.xml", "wbf-2017"),
          ("individual-derived-from-magic-contest.pbn", "wbf-2017"), ("ffb-magic-contest-2022-open-dn1-s5.pbn", "wbf-2017"),
          ("ebuscore-pairs-multi-section", "wbf-2017"), ("brian-mp-pairs", "wbf-2017"),
          ("pianola-cross-imp-pairs", "wbf-2007")]


@settings(max_examples=int(os.environ.get("ROUND_TRIPS", "12")), deadline=None,
          phases=[Phase.explicit, Phase.reuse, Phase.generate], suppress_health_check=list(HealthCheck))
@given(file=st.sampled_from(SAMPLE), pick=st.integers(0, 10_000), kind=st.sampled_from(["adjusted", "artificial", "penalty"]),
       weight=st.integers(1, 9))
def test_one_ruling_changes_only_its_board_and_the_figures_that_follow(tmp_path_factory, file, pick, kind, weight):
    name, rulebook = file
    path = DATA / name if "." in name else _generated(tmp_path_factory.getbasetemp(), name)
    event = load_event(str(path))
    lines = [l for s in event.sessions for b in s.boards.values() for l in b.lines if l.kind == "result"
             and l.ns and l.ew]
    line = lines[pick % len(lines)]
    if line.players is not None and kind == "penalty":
        kind = "artificial"                     # an individual's penalty names a player
    rulings = f"rulebook: {rulebook}\nrulings:\n  - {_ruling(line, kind, weight, event.sessions[0].scoring)}\n"
    event, scored, data = _written(path, rulebook, rulings)
    ss = scored[0]
    text_in = path.read_bytes().decode("latin-1").splitlines()
    text_out = data.decode("latin-1").splitlines()
    allowed = _allowed_lines(event, ss, line.board)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, text_in, text_out, autojunk=False).get_opcodes():
        if op != "equal":
            assert set(range(i1, max(i2, i1 + 1))) <= allowed | {len(text_in)}, (op, i1, i2, text_in[i1:i2][:3])
    playing = {k for sl in ss.boards[line.board].lines for side in ("NS", "EW") for k in ss.keys[(id(sl), side)]}
    for c in corrected.changes(scored):
        assert c.why
        if c.board is not None:
            assert c.board == line.board
        elif c.cell != "place":
            assert c.where in playing, c


def test_a_weighted_ruling_on_whole_number_matchpoints_keeps_its_decimals(tmp_path, capsys):
    """Issue 32: a 60/40 ruling on a file whose board figures are whole numbers was written 10/4."""
    path = DATA / "compscore-mp-pairs-mitchell.xml"
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - {board: 1, ns: 1NS, non_offending: NS, adjusted: "
                       "[{result: 4S= N, weight: 3/5}, {result: 4S-1 N, weight: 2/5}]}\n")
    out = tmp_path / "out.xml"
    assert main(["event", str(path), "--rulings", str(rulings), "--output", str(out), "--diff"]) == 0
    report = capsys.readouterr().out
    assert "board 1 NS 1NS v EW 1EW NS points: 30 → 31.2  (rulings entry 1" in report
    text = out.read_text("ascii")
    assert "<NS_MATCH_POINTS>31.2</NS_MATCH_POINTS>\n    <EW_MATCH_POINTS>4.8</EW_MATCH_POINTS>" in text
    assert "    <!-- bridgelaw: adj 4S= N @3/5; 4S-1 N @2/5 -->\n    <NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER>" in text
    # pair 1 NS: its printed total plus what its board-1 line changes, exactly
    event = load_event(str(path))
    again = load_event(str(out))
    before = {c.key: c.published["total"].value for c in event.sessions[0].contestants.values()}
    after = {c.key: c.published["total"].value for c in again.sessions[0].contestants.values()}
    moved = {k for k in before if before[k] != after[k]}
    assert after["NS 1NS"] - before["NS 1NS"] == F("31.2") - 30
    # the lines of board 1 add up: each changed total moved by its pair's change on board 1
    b1_in = {(l.ns, l.ew): l.published for l in event.sessions[0].boards[1].lines}
    b1_out = {(l.ns, l.ew): l.published for l in again.sessions[0].boards[1].lines}
    delta = {}
    for pairs, pub in b1_out.items():
        delta[f"NS {pairs[0]}"] = pub["NS"].value - b1_in[pairs]["NS"].value
        delta[f"EW {pairs[1]}"] = pub["EW"].value - b1_in[pairs]["EW"].value
    assert moved == {k for k, d in delta.items() if d}
    for k in moved:
        assert abs(after[k] - before[k] - delta[k]) <= F(1, 100)    # factored to the session's top where short
    # the program's own lines of other boards: untouched, byte for byte (a one-line ruling, a short diff)
    changed = [l for l in difflib.unified_diff(path.read_text("ascii").splitlines(), text.splitlines(), n=0)
               if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))]
    assert len(changed) < 200 and all("MATCH_POINTS" in l or "TOTAL_SCORE" in l or "PERCENTAGE" in l
                                      or "PLACE" in l or "bridgelaw:" in l for l in changed)


def test_a_teams_file_with_no_ruling_is_written_back_byte_for_byte_and_one_ruling_changes_its_match(tmp_path):
    """The teams writer edits the file in place too: TeamsScorer's ISO-8859-1, CRLF file comes back as it
    was; a ruling on board 3 of match 1 changes that board's score, the match's VPs, board 3's pairwise
    cross-IMPs on every line, and the totals, wins, places and pair IMPs that follow — nothing else."""
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from usebio_teams_files import EBUSCORE, JSS, generate
    for figures in (JSS, EBUSCORE):
        path = tmp_path / "teams.xml"
        path.write_bytes(generate(figures))
        _, _, data = _written(path, "wbf-2007")
        assert data == path.read_bytes()
    path.write_bytes(generate(JSS))
    rulings = ("rulebook: wbf-2007\nrulings:\n  - {board: 3, ns: 1-1-2, non_offending: EW, adjusted: "
               "[{result: 4S= W, weight: 1/2}, {result: 4S-2 W, weight: 1/2}]}\n")
    event, scored, data = _written(path, "wbf-2007", rulings)
    changed = [l for l in difflib.unified_diff(path.read_bytes().decode("latin-1").splitlines(),
                                               data.decode("latin-1").splitlines(), n=0)
               if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))]
    tags = {l.strip("+- ").split(">")[0] for l in changed if "<!-- bridgelaw:" not in l}
    assert tags <= {"<TOTAL_SCORE", "<WINS_OR_DRAWS", "<PLACE", "<PAIR_IMPS", "<IMPS", "<TEAM_SCORE",
                    "<OPPOSING_TEAM_SCORE", "<NS_CROSS_IMP_POINTS", "<EW_CROSS_IMP_POINTS",
                    "<TRAVELLER_LINE"}, tags            # (the line the comment opens, as difflib aligns it)
    assert [l.replace(" ", "") for l in changed if "bridgelaw:" in l] == ["+<!--bridgelaw:adj4S=W@1/2;4S-2W@1/2-->"]
    assert "+          <IMPS>-10</IMPS>" in [l.rstrip() for l in changed] or \
        any(l.startswith("+") and "<IMPS>-10</IMPS>" in l for l in changed)
    assert any(l.startswith("+") and "<TEAM_SCORE>8</TEAM_SCORE>" in l for l in changed)


def test_diff_in_every_format(tmp_path, capsys):
    import json
    path = str(DATA / "compscore-mp-pairs-howell.xml")
    assert main(["event", path, "--rulebook", "wbf-2017", "--diff"]) == 0
    assert capsys.readouterr().out.endswith("\nChanged figures: none (the corrected file is the input as it was)\n")
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - {board: 1, ns: '3', penalty: {NS: 25%}, note: slow play}\n")
    assert main(["event", path, "--rulings", str(rulings), "--diff", "--format", "json"]) == 0
    changed = json.loads(capsys.readouterr().out)["changed_figures"]
    first = changed[0]
    assert set(first) == {"session", "board", "where", "cell", "old", "new", "why"}
    assert first["board"] == 1 and first["why"] == f"rulings entry 1 ({rulings}:3): slow play"
    assert all(c["old"] != c["new"] for c in changed)
    assert main(["event", path, "--rulings", str(rulings), "--diff", "--format", "csv"]) == 0
    tail = capsys.readouterr().out.split("\n\nsession,board,where,cell,old,new,why\n")[1]
    assert len(tail.strip().splitlines()) == len(changed)
    assert main(["event", path, "--rulings", str(rulings), "--diff", "--format", "markdown"]) == 0
    assert f"## Changed figures ({len(changed)})" in capsys.readouterr().out


def test_the_web_page_downloads_an_iso_8859_1_usebio_as_it_was(tmp_path):
    """Issue 32: the corrected USEBIO came back re-encoded (ISO-8859-1 → UTF-8). The page now carries
    the upload byte for byte (web/event.pack) and offers the upload's own format first."""
    import re
    from html import unescape

    from starlette.testclient import TestClient

    from bridgelaw.web.app import create_app

    data = _generated(tmp_path, "ebuscore-pairs-multi-section").read_bytes()
    assert b"iso-8859-1" in data[:100].lower() and b"Player 1a" in data
    data = data.replace(b"Player 1a", b"Pl\xe0yer 1a", 1)         # a name in ISO-8859-1 (not UTF-8)
    c = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    r = c.post("/event", files={"event_file": ("ebu.xml", data, "application/xml")}, data={"rulebook": "wbf-2017"})
    assert r.status_code == 200, r.text[:300]
    page = unescape(r.text)
    assert page.index('value="xml">Download the corrected USEBIO file') < page.index('value="pbn" class="secondary">Download as PBN')
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', r.text))
    # the page's copy of the upload is compressed base64: byte for byte, no line break a browser would send as CRLF
    assert "\n" not in hidden["event_z"] and hidden["event_name"] == "ebu.xml"
    d = c.post("/event", data={**{k: unescape(v) for k, v in hidden.items()}, "download": "xml"})
    assert d.status_code == 200 and d.content == data


def test_a_reproduced_total_moves_to_the_figure_the_program_prints(tmp_path, capsys):
    """Where bridgelaw reproduces a printed figure from the lines as printed, the corrected figure is
    its own from the new lines at the file's precision: EBUScore's 53.87 (exactly 53.8733) moved by
    0.1736 is 54.05 (54.0469), not the printed 53.87 + 0.1736 = 54.04."""
    path = _generated(tmp_path, "ebuscore-pairs-multi-section")
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulings:\n  - {board: 1, ns: 1, ew: 10, non_offending: NS, adjusted: "
                       "[{result: 4S= N, weight: 60%}, {result: 4S-1 N, weight: 40%}]}\n")
    out = tmp_path / "out.xml"
    assert main(["event", str(path), "--rulings", str(rulings), "--output", str(out), "--diff"]) == 0
    report = capsys.readouterr().out
    assert "  A:12 percentage: 53.87 → 54.05  (follows from board 1)\n" in report
    assert "  A:1 percentage: 40.89 → 38.71  (follows from board 1)\n" in report


def test_a_result_taken_off_a_factored_board_reads_back_the_same(tmp_path):
    """Found by bench/mutants.py (roundtrip): a line ruled not played on Compscore's Howell file (totals
    factored to the session's top) was written with totals bridgelaw did not read back — the board's
    printed figures were counted on the ruled board's new, lower top."""
    src = DATA / "compscore-mp-pairs-howell.xml"
    rulings = "rulebook: wbf-2017\nrulings:\n  - {board: 7, ns: 11, ew: 5, not_played: true}\n"
    event = load_event(str(src))
    scored = run(event, "r.yaml", None, [], rulings_text=rulings)
    ((_, text, encoding),) = outputs(event, scored, ["out.xml"], str(src))
    again = run(load_event("out.xml", text=text.encode(encoding)), None, None, [])
    assert [(st.key, st.total, st.boards) for st in again[0].standings] == \
        [(st.key, st.total, st.boards) for st in scored[0].standings]
    assert "<PAIR_NUMBER>6</PAIR_NUMBER>" in text and "<TOTAL_SCORE>162.20</TOTAL_SCORE>" in text   # 161.40 before
