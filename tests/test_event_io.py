"""Writing events back and reading them again; bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import os
import shutil
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw.render.event import rules, steps

from bridgelaw import rulebook
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.commands.event import load_event, run
from bridgelaw.field.pbn_results import load_event_pbn
from bridgelaw.field.score import score_session

DATA = Path(__file__).parent / "data" / "events"
MAGIC = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
ROUND = "fieldscore.neuberg.round_to=1/10"

RULINGS = """\
title: two rulings on the national final
rulebook: wbf-2017
rulings:
  - {board: 3, table: 5, adjusted: [{result: 4H= N, weight: 2/3}, {result: 4H-1 N, weight: 1/3}], note: hesitation}
  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}}
  - board: 6
    table: 8
    adjusted:
      NS: [{result: 3NT= S, weight: 1/2}, {result: 3NT-1 S, weight: 1/2}]
      EW: [{result: 3NT= S, weight: 1/3}, {result: 3NT-1 S, weight: 2/3}]
  - {board: 7, table: 1, not_played: true}
  - {board: 8, table: 3, penalty: {EW: 10%}}
"""


def scores(ss):
    lines = {(n, sl.line.section, sl.line.table, sl.line.ns, sl.line.ew): (sl.NS.value, sl.EW.value)
             for n, sb in ss.boards.items() for sl in sb.lines}
    totals = {st.key: (st.total, st.percent) for st in ss.standings}
    return lines, totals


@pytest.fixture
def ruled(tmp_path):
    src = tmp_path / "final.pbn"
    shutil.copy(MAGIC, src)
    rulings = tmp_path / "rulings.yaml"
    rulings.write_text(RULINGS)
    return src, rulings


def test_written_pbn_rereads_to_the_same_scores_without_the_rulings(ruled, tmp_path, capsys):
    src, rulings = ruled
    out = tmp_path / "corrected.pbn"
    assert main(["event", str(src), "--rulings", str(rulings), "--set", ROUND, "--output", str(out)]) == 0
    report = capsys.readouterr().out
    assert "ruling 1 (" in report and "note: hesitation" in report
    before = run(load_event(str(src)), str(rulings), None, [ROUND])[0]
    again = score_session(load_event(str(out)).sessions[0], rulebook.get("wbf-2017").with_settings([ROUND]))
    assert scores(again) == scores(before)
    adjusted = [sl for sb in again.boards.values() for sl in sb.lines if sl.line.extra.get("adjustment")]
    assert len(adjusted) == 5
    # every other line of the file is kept byte for byte; the encoding stays ISO-8859-1
    a, b = src.read_bytes().split(b"\n"), out.read_bytes().split(b"\n")
    assert len(a) == len(b)
    changed = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    assert all(b[i].startswith(b"[ScoreTable") or b[i].startswith(b"[TotalScoreTable") or b[i][:1] in b" 0123456789"
               for i in changed)
    assert "Séance".encode("latin-1") in b[0] + b"".join(b[:60])
    assert src.read_bytes() == MAGIC.read_bytes()            # the input is never modified


def test_crlf_is_kept(ruled, tmp_path):
    src, rulings = ruled
    src.write_bytes(MAGIC.read_bytes().replace(b"\n", b"\r\n"))
    out = tmp_path / "out.pbn"
    assert main(["event", str(src), "--rulings", str(rulings), "--set", ROUND, "--output", str(out)]) == 0
    data = out.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") == src.read_bytes().count(b"\n")


def test_usebio_written_rereads_and_pbn_usebio_pbn_keeps_every_score(ruled, tmp_path):
    src, rulings = ruled
    xml, back = tmp_path / "final.xml", tmp_path / "back.pbn"
    assert main(["event", str(src), "--rulings", str(rulings), "--set", ROUND, "--output", str(xml),
                 "--format", "csv"]) == 0
    before = run(load_event(str(src)), str(rulings), None, [ROUND])[0]
    book = rulebook.get("wbf-2017").with_settings([ROUND])
    from_xml = score_session(load_event(str(xml)).sessions[0], book)
    assert scores(from_xml)[0] == scores(before)[0]
    assert main(["event", str(xml), "--rulebook", "wbf-2017", "--set", ROUND, "--output", str(back)]) == 0
    from_pbn = score_session(load_event(str(back)).sessions[0], book)
    assert scores(from_pbn)[0] == scores(before)[0]
    assert {k: v[0] for k, v in scores(from_pbn)[1].items()} == {k: v[0] for k, v in scores(before)[1].items()}
    # the published cells written by bridgelaw agree with a re-reading
    assert all(c.agrees for c in from_xml.checks() if c.what.startswith("board"))


def test_usebio_fixture_round_trip(tmp_path):
    src = DATA / "compscore-cross-imp-howell.xml"
    out = tmp_path / "x.xml"
    assert main(["event", str(src), "--rulebook", "wbf-2017", "--output", str(out)]) == 0
    book = rulebook.get("wbf-2017")
    a = score_session(load_event(str(src)).sessions[0], book)
    b = score_session(load_event(str(out)).sessions[0], book)
    assert scores(a)[0] == scores(b)[0]
    assert out.read_bytes().count(b"\r\n") > 100               # the input's CRLF kept


def test_formats(capsys):
    for fmt in ("text", "markdown", "json", "csv"):
        assert main(["event", str(DATA / "compscore-cross-imp-howell.xml"), "--rulebook", "wbf-2017",
                     "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert '"standings"' in out and "| section | rank |" in out and "session,section,direction" in out


# --- bad input --------------------------------------------------------------------------------------

BOARD = """[Event "t"]
[Board "1"]
[Vulnerable "None"]
[Scoring "MatchPoints"]
[ScoreTable "Table\\2R;PairId_NS\\2R;PairId_EW\\2R;Score_NS\\6R;Score_EW\\6R"]
 1  1  1 {a} -
 2  2  2 420 -

"""


@pytest.mark.parametrize("cell, message", [
    ("A+X", "6:10: Score_NS 'A+X' is not a score or a known code"),
    ("²", "6:10: '²' is not a number: only ASCII digits 0-9"),
    ("①", "6:10: '①' is not a number: only ASCII digits 0-9"),
    ("４２０", "6:10: '４２０' is not a number: only ASCII digits 0-9"),
    ("٤٢٠", "6:10: '٤٢٠' is not a number: only ASCII digits 0-9"),
    ("4_20", "6:10: '4_20' is not a number: no '_' inside a number"),
    ("425", "6:10: Score_NS 425 is not a multiple of 10"),
    ("7610", "6:10: Score_NS 7610 is beyond the largest possible score"),
    ("9" * 5000, "6:10: '999999999999…' has 5,000 digits"),
    ("99999", "6:10: Score_NS 99999 is beyond the largest possible score"),
])
def test_bad_score_cells(tmp_path, capsys, cell, message):
    src = tmp_path / "b.pbn"
    src.write_text(BOARD.format(a=cell), encoding="utf-8")
    out = tmp_path / "o.pbn"
    assert main(["event", str(src), "--rulebook", "wbf-2017", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bridgelaw: error: {src}:{message}"), err
    assert err.count("\n") == 1 and len(err) < 400
    assert not out.exists()


@pytest.mark.parametrize("text, message", [
    (BOARD.format(a="420").replace(" 2  2  2", " 2  1  2"), "7:5: board 1: NS pair 1 plays the board twice (tables 1 and 2)"),
    (BOARD.format(a="420").replace(" 2  2  2", " 1  2  2"), "7:2: board 1: table 1 appears twice"),
    (BOARD.format(a="420").replace("[Board \"1\"]", "[Board \"" + "1" * 5000 + "\"]"), "2:9: Board '11111111111111111111' is not"),
    (BOARD.format(a="420").replace(" 2  2  2", "9" * 5000 + "  2  2"), "7:1: '999999999999…' has 5,000 digits"),
    (BOARD.format(a="420").replace("Table\\2R", "Table\\100000000R"), "5:14: ScoreTable column 'Table' is 100000000"),
    (BOARD.format(a="420").replace("Table\\2R", "Table\\²R"), "5:14: ScoreTable column 'Table\\²R' is not"),
])
def test_bad_lines(tmp_path, capsys, text, message):
    src = tmp_path / "b.pbn"
    src.write_text(text, encoding="utf-8")
    assert main(["event", str(src), "--rulebook", "wbf-2017"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bridgelaw: error: {src}:{message}"), err
    assert err.count("\n") == 1


def test_bad_ruling_writes_nothing(ruled, tmp_path, capsys):
    src, rulings = ruled
    rulings.write_text(RULINGS + "  - {board: 3, table: 5, artificial: {NS: avg-plus, EW: avg-minus}}\n")
    out = tmp_path / "o.pbn"
    assert main(["event", str(src), "--rulings", str(rulings), "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{rulings}:13:13:" in err and "already has a ruling" in err and err.count("\n") == 1
    assert not out.exists()


def test_artificial_codes_in_a_pbn(tmp_path):
    text = BOARD.format(a="A6040") + BOARD.format(a="A+").replace('[Board "1"]', '[Board "2"]') + \
        BOARD.format(a="NP").replace('[Board "1"]', '[Board "3"]')
    event = load_event_pbn("a.pbn", text=text)
    lines = {b: event.sessions[0].boards[b].lines[0] for b in (1, 2, 3)}
    assert lines[1].artificial == {"NS": F(3, 5), "EW": F(2, 5)}
    assert lines[2].artificial == {"NS": "in-no-way-at-fault", "EW": "directly-at-fault"} and lines[2].mirrored == "EW"
    assert lines[3].kind == "not-played"
    ss = score_session(event.sessions[0], rulebook.get("wbf-2017"))
    assert (ss.boards[3].top, ss.boards[3].lines[1].NS.value) == (0, 0)       # one result left: top 0
    assert ss.boards[1].lines[0].NS.value == F(3, 5) * 2                       # 2 expected: top 2


def test_docs_rulings_example_runs():
    """The rulings file in docs/events.md applies to the Magic Contest fixture as the doc says."""
    import re
    doc = (Path(__file__).resolve().parent.parent / "docs" / "events.md").read_text()
    block = re.findall(r"```yaml\n(.*?)```", doc, re.S)[0]
    ss = run(load_event(str(MAGIC)), "events.md", None, [ROUND], rulings_text=block)[0]
    adjusted = [sl for sb in ss.boards.values() for sl in sb.lines if sl.line.ruling]
    assert [(sl.line.board, sl.line.table, sl.line.kind) for sl in adjusted] == [
        (3, 5, "adjusted"), (4, 2, "artificial"), (6, 8, "split"), (7, 1, "not-played"), (8, 3, "result")]
    assert steps(adjusted[4], "EW")[-1].startswith("EW: procedural penalty 4 1/5 MP")   # 10% of a top of 42


XML = """<?xml version="1.0"?>
<USEBIO Version="1.2">
<EVENT EVENT_TYPE="MP_PAIRS">
{sessions}
</EVENT>
</USEBIO>
"""
SESSION = """<SESSION><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><SCORE>{a}</SCORE></TRAVELLER_LINE>
<TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER><SCORE>-50</SCORE></TRAVELLER_LINE>
</BOARD></SESSION>"""


def test_usebio_sessions_and_codes(tmp_path, capsys):
    src = tmp_path / "two.xml"
    src.write_text(XML.format(sessions=SESSION.format(a="420") + SESSION.format(a="A6040")))
    event = load_event(str(src))
    assert len(event.sessions) == 2
    assert event.sessions[1].boards[1].lines[0].artificial == {"NS": F(3, 5), "EW": F(2, 5)}
    out = tmp_path / "o.xml"
    assert main(["event", str(src), "--rulebook", "wbf-2017", "--output", str(out)]) == 0
    again = load_event(str(out))
    assert [s.boards[1].lines[0].kind for s in again.sessions] == ["result", "artificial"]
    assert main(["event", str(src), "--rulebook", "wbf-2017", "--output", str(tmp_path / "o.pbn")]) == 2
    assert "has 2 sessions; a PBN file holds one" in capsys.readouterr().err
    assert not (tmp_path / "o.pbn").exists()


@pytest.mark.parametrize("text, message", [
    (XML.format(sessions=SESSION.format(a="AXX")), "5:85: SCORE 'AXX' is not a score or a known code"),
    (XML.format(sessions=SESSION.format(a="420")).replace("</EVENT>", ""), "9:3: not well-formed XML: mismatched tag"),
    ('<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<USEBIO/>',
     "2:30: the XML declares an entity"),
    ('<?xml version="1.0"?>\n<RESULTS/>', "1:1: the root element is <RESULTS>"),
])
def test_bad_usebio(tmp_path, capsys, text, message):
    src = tmp_path / "b.xml"
    src.write_text(text)
    assert main(["event", str(src), "--rulebook", "wbf-2017"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bridgelaw: error: {src}:{message}"), err
    assert err.count("\n") == 1


def test_special_files_are_refused(tmp_path, capsys):
    fifo = tmp_path / "f.pbn"
    os.mkfifo(fifo)
    assert main(["event", str(fifo), "--rulebook", "wbf-2017"]) == 2
    assert "is not a regular file" in capsys.readouterr().err


def test_a_totalscoretable_is_added_when_the_file_has_none(tmp_path):
    src = tmp_path / "t.pbn"
    src.write_text(BOARD.format(a="420").replace(" 2  2  2 420", " 2  2  2 -50"))
    out = tmp_path / "o.pbn"
    assert main(["event", str(src), "--rulebook", "wbf-2017", "--output", str(out)]) == 0
    assert out.read_bytes() == src.read_bytes()          # no ruling: the file as it was (issue 28)
    rulings = tmp_path / "r.yaml"                        # a ruling that changes nothing of the scores
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - {board: 1, table: 1, adjusted: 4S= N}\n")
    assert main(["event", str(src), "--rulings", str(rulings), "--output", str(out)]) == 0
    text = out.read_text()
    assert "[TotalScoreTable" in text
    again = load_event(str(out))
    st = {c.key: c.published for c in again.sessions[0].contestants.values()}
    assert {k: (v["total"].value, v["percent"].value) for k, v in st.items()} == {
        "NS 1": (2, 100), "EW 1": (0, 0), "NS 2": (0, 0), "EW 2": (2, 100)}
    ss = score_session(again.sessions[0], rulebook.get("wbf-2017"))
    assert all(c.agrees for c in ss.checks())


@pytest.mark.parametrize("cell", ["²", "４２０", "4_20", "9" * 5000])
def test_the_traveller_path_gets_the_same_one_line_errors(tmp_path, capsys, cell):
    """bridgelaw score reads PBN through the same tokenizer: no int() traceback, no silent 420."""
    src = tmp_path / "b.pbn"
    src.write_text(BOARD.format(a="420").replace(" 2  2  2", f" {cell}  2  2"), encoding="utf-8")
    assert main(["score", str(src), "--rulebook", "wbf-2017"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bridgelaw: error: {src}:7:2: ") and err.count("\n") == 1


def test_bye_in_the_contract_column_is_not_played():
    text = BOARD.format(a="420").replace("Score_NS\\6R;Score_EW\\6R", "Contract;Score_NS\\6R;Score_EW\\6R") \
        .replace(" 1  1  1 420 -", " 1  1  1 Bye - -").replace(" 2  2  2 420 -", " 2  2  2 - 420 -")
    event = load_event_pbn("bye.pbn", text=text)
    assert [l.kind for l in event.sessions[0].boards[1].lines] == ["not-played", "result"]


def test_mutated_fixtures_never_give_a_traceback():
    """A fixed-seed fuzz over the real fixtures: each mutant is read, ruled, scored and written,
    or refused with one line — never another exception."""
    import random
    from bridgelaw.commands.event import outputs
    rng = random.Random(11)
    files = [MAGIC, DATA / "compscore-butler-howell.xml", DATA / "compscore-cross-imp-howell.xml"]
    junk = ["A+", "²", "９", "-", '"', "[", "]", "\n", "A6040", "NP", "99999999", "X", "<", "&", ";", "PASS", "%", "{"]
    refused = 0
    for _ in range(40):
        f = rng.choice(files)
        data = bytearray(f.read_bytes())
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(data))
            data[pos:pos + rng.randint(1, 6)] = rng.choice(junk).encode() if rng.random() < 0.6 else b""
        try:
            event = load_event(f.name, text=bytes(data))
            outputs(event, run(event, None, "wbf-2017", []), ["o.pbn", "o.xml"], f.name)
        except BridgelawError as exc:
            assert "\n" not in str(exc)
            refused += 1
    assert 0 < refused < 40


def test_the_input_is_never_rewritten_by_any_name(ruled, tmp_path, capsys):
    """Issue 29: no --output names an input of the command — the results file included, by its own
    name, a link to it or another path to it; nothing is written."""
    src, rulings = ruled
    before = src.read_bytes()
    link = tmp_path / "link.pbn"
    link.symlink_to(src)
    (tmp_path / "x").mkdir()
    for name in (str(src), str(link), f"{tmp_path}/x/../final.pbn"):
        capsys.readouterr()
        assert main(["event", str(src), "--rulings", str(rulings), "--set", ROUND, "--output", name]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"bridgelaw: error: --output {name} is the results file read; an output never "
                              "replaces an input (expected a new file name); e.g. --output ") and err.count("\n") == 1
    assert src.read_bytes() == before and link.is_symlink()


@pytest.mark.parametrize("weight, words", [("1e100000000", "got '1e100000000'"), ("2/0", "denominator 0"),
                                           ("2/3", "do not sum to 1")])
def test_an_adjustment_cells_weight_is_read_as_any_exact_number(ruled, tmp_path, capsys, weight, words):
    """A weight in a re-read Adjustment cell goes through the one number reader (parse_exact), with
    its syntax and bounds: ``@1e100000000`` hung the reading (Fraction built a 100-million-digit number)."""
    src, rulings = ruled
    out = tmp_path / "corrected.pbn"
    assert main(["event", str(src), "--rulings", str(rulings), "--set", ROUND, "--output", str(out)]) == 0
    capsys.readouterr()
    text = out.read_bytes().replace(b"@1/3", b"@" + weight.encode(), 1)
    assert text != out.read_bytes()
    out.write_bytes(text)
    assert main(["event", str(out), "--set", ROUND]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    written = [p.name for p in tmp_path.iterdir()]
    assert sorted(written) == ["corrected.pbn", "final.pbn", "rulings.yaml"]


def test_markdown_totals_at_the_files_own_decimals_as_the_text_report(capsys):
    # the Markdown report wrote every total to 2 decimals where the text report and the web page
    # follow the file (Magic Contest prints totals to 0.1)
    from bridgelaw.commands.cli import main
    magic = Path(__file__).parent / "data" / "events" / "ffb-magic-contest-2022-open-dn1-s1.pbn"
    assert main(["event", str(magic), "--rulebook", "wbf-2017", "--format", "markdown"]) == 0
    assert "|  EW | 1 | 7 | 771.2 | 61.21 | 30 | Player 7a - Player 7b |" in capsys.readouterr().out
    assert main(["event", str(magic), "--rulebook", "wbf-2017"]) == 0
    assert "    1        7     771.2   61.21     30  Player 7a - Player 7b" in capsys.readouterr().out
