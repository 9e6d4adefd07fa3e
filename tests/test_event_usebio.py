"""USEBIO as scoring programs write it (issue 20 item 1, 3; issue 24's reader items): 1.0, 1.1 and
1.2 event types with the method in BOARD_SCORING_METHOD, a mistyped contract scored from its SCORE
with a warning, byes, every A-code at every method, individual events, and hostile input (encodings,
undefined entities, huge tokens) refused with one located line."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.usebio import load_event_usebio
from bridgelaw.field.run import load_event, run

RESULTS = ["4S N 10 420", "4S N 11 450", "4S N 9 -50", "3S N 10 170"]


def usebio(event_type="PAIRS", method="MATCH_POINTS", lines=None, extra="", version="1.2", encoding="UTF-8",
           program="", tag="MATCH_POINTS", date="27/07/2022") -> bytes:
    lines = lines if lines is not None else [(t, t, *r.split()) for t, r in enumerate(RESULTS, 1)]
    body = []
    for ns, ew, contract, by, tricks, score in lines:
        cells = [f"<NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER>", f"<EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER>"]
        if contract != "-":
            cells += [f"<CONTRACT>{contract}</CONTRACT>", f"<PLAYED_BY>{by}</PLAYED_BY>", f"<TRICKS>{tricks}</TRICKS>"]
        cells.append(f"<SCORE>{score}</SCORE>")
        body.append("<TRAVELLER_LINE>" + "".join(cells) + "</TRAVELLER_LINE>")
    scoring = f"<BOARD_SCORING_METHOD>{method}</BOARD_SCORING_METHOD>" if method else ""
    return (f'<?xml version="1.0" encoding="{encoding}"?>\n<USEBIO Version="{version}">\n'
            f'<EVENT EVENT_TYPE="{event_type}">{program}<DATE>{date}</DATE>{scoring}{extra}\n'
            f'<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n' + "\n".join(body) + "\n</BOARD></EVENT></USEBIO>\n").encode(
        "utf-8")


def scored(data: bytes, rulebook="wbf-2017", settings=()):
    event = load_event_usebio("e.xml", data=data)
    return event, run(event, None, rulebook, list(settings))[0]


@pytest.mark.parametrize("event_type, method, expected", [
    ("PAIRS", "MATCH_POINTS", "matchpoints"), ("PAIRS", "CROSS_IMPS", "cross-imps"),
    ("PAIRS", "BUTLER_IMPS", "butler"), ("MP_PAIRS", "", "matchpoints"), ("CROSS_IMP", "", "cross-imps"),
    ("BUTLER_PAIRS", "", "butler"), ("SWISS_PAIRS", "CROSS_IMPS", "cross-imps"),
    ("INDIVIDUAL", "MATCH_POINTS", "matchpoints")])
def test_an_event_type_and_its_board_scoring_method(event_type, method, expected):
    """Issue 20: USEBIO 1.2's EVENT_TYPE PAIRS (and TEAMS, INDIVIDUAL) was 'not a scoring method'."""
    if event_type == "INDIVIDUAL":
        return                     # tested below with its four players a line
    event = load_event_usebio("e.xml", data=usebio(event_type, method))
    assert event.sessions[0].scoring == expected


def test_a_teams_event_is_handed_to_the_teams_reader():
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("e.xml", data=usebio("TEAMS", "IMPS"))
    assert "teams event" in str(e.value) and str(e.value).startswith("e.xml:3:1:")


def test_an_unknown_event_type_and_no_method_are_one_located_line():
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("e.xml", data=usebio("NOTSUP"))
    assert str(e.value).startswith("e.xml:3:1: EVENT_TYPE 'NOTSUP' is not an event bridgelaw reads")
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("e.xml", data=usebio("PAIRS", "", tag=""))
    assert "does not say how the boards are scored" in str(e.value)


def test_a_mistyped_contract_is_scored_from_its_score_with_a_located_warning():
    """Pianola's <CONTRACT>42</CONTRACT> with <SCORE>480</SCORE>: the program used the score."""
    lines = [(1, 1, "42", "S", "12", "480"), (2, 2, "4S", "S", "12", "480"), (3, 3, "4S", "S", "10", "420")]
    event, ss = scored(usebio(lines=lines))
    line = event.sessions[0].boards[1].lines[0]
    assert (line.kind, line.points) == ("result", 480)
    assert ss.warnings == ["e.xml:5:85: '42' by 'S': not a result: '42= S'; scored from its SCORE +480"]
    assert ss.boards[1].lines[0].NS.value == 3
    # neither a contract nor a score: an error at the contract
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("e.xml", data=usebio(lines=[(1, 1, "42", "S", "12", "")]))
    assert str(e.value).startswith("e.xml:5:85: '42' by 'S': not a result")


def test_a_bye_and_an_empty_pair_number():
    """A line with one pair and no result is a bye (not played); an empty pair number on a line with a
    result is an error at the cell (issue 24: it was scored)."""
    bye = [(1, 1, *RESULTS[0].split()), (2, 2, *RESULTS[1].split()), (3, "", "-", "", "", "")]
    event, ss = scored(usebio(lines=bye))
    assert [l.kind for l in event.sessions[0].boards[1].lines] == ["result", "result", "not-played"]
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("e.xml", data=usebio(lines=[(1, "", *RESULTS[0].split())]))
    assert "EW_PAIR_NUMBER is empty on a line with a result" in str(e.value)


@pytest.mark.parametrize("method, code, expected", [
    ("BUTLER_IMPS", "A5050", (F(0), F(0))), ("BUTLER_IMPS", "A6040", (F(3), F(-3))),
    ("CROSS_IMPS", "A5050", (F(0), F(0))), ("MATCH_POINTS", "A6040", (F(24, 5), F(16, 5)))])
def test_every_a_code_at_every_method(method, code, expected):
    """Issue 20: A5050 at butler gave +1/2 IMP to both sides (the percentage used as IMPs)."""
    lines = [(t, t, *r.split()) for t, r in enumerate(RESULTS, 1)] + [(5, 5, "-", "", "", code)]
    event, ss = scored(usebio(method=method, lines=lines))
    sl = ss.boards[1].lines[4]
    assert (sl.NS.value, sl.EW.value) == expected


def test_a_percentage_without_an_imp_equivalent_is_an_error_at_its_cell():
    lines = [(t, t, *r.split()) for t, r in enumerate(RESULTS, 1)] + [(5, 5, "-", "", "", "A7030")]
    with pytest.raises(BridgelawError) as e:
        scored(usebio(method="BUTLER_IMPS", lines=lines))
    assert "'A7030': 70% has no equivalent at IMP scoring" in str(e.value) and str(e.value).startswith("e.xml:9:85:")


def test_average_plus_on_a_40_table_cross_imp_board_is_not_multiplied_twice():
    """Issue 20: with divisor none and per-comparison artificial IMPs, an average-plus table of a
    40-table cross-IMP board scored 711.51 IMPs: 12C2(c)'s session score was multiplied by the
    comparisons twice. It is the contestant's IMPs per comparison (here +3, average plus), times
    the 39 comparisons."""
    boards = []
    for b in (1, 2):
        lines = [f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{t}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{t}</EW_PAIR_NUMBER>"
                 f"<SCORE>{(t % 7) * 10 * (1 if t % 2 else -1)}</SCORE></TRAVELLER_LINE>" for t in range(1, 41)]
        if b == 2:
            lines[0] = ("<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>"
                        "<SCORE>A6040</SCORE></TRAVELLER_LINE>")
        boards.append(f"<BOARD><BOARD_NUMBER>{b}</BOARD_NUMBER>" + "".join(lines) + "</BOARD>")
    data = ('<?xml version="1.0"?><USEBIO Version="1.2"><EVENT EVENT_TYPE="PAIRS">'
            "<BOARD_SCORING_METHOD>CROSS_IMPS</BOARD_SCORING_METHOD>" + "".join(boards) + "</EVENT></USEBIO>").encode()
    event = load_event_usebio("x.xml", data=data)
    ss = run(event, None, "wbf-2017", ["fieldscore.cross_imps.divisor=none",
                                       "fieldscore.cross_imps.artificial=per-comparison"])[0]
    sl = ss.boards[2].lines[0]
    assert (sl.NS.value, sl.EW.value) == (F(3 * 39), F(-3 * 39))
    assert abs(sl.NS.value) < 200


def test_a_usebio_individual_event_is_read_with_every_player():
    """Issue 20 item 3: USEBIO 1.1's individual lines (N_/S_/E_/W_PLAYER_NUMBER) were read with every
    contestant lost."""
    players = [("1", "2", "3", "4"), ("5", "6", "7", "8")]
    lines = "".join(f"<TRAVELLER_LINE><N_PLAYER_NUMBER>{n}</N_PLAYER_NUMBER><S_PLAYER_NUMBER>{s}</S_PLAYER_NUMBER>"
                    f"<E_PLAYER_NUMBER>{e}</E_PLAYER_NUMBER><W_PLAYER_NUMBER>{w}</W_PLAYER_NUMBER>"
                    f"<SCORE>{score}</SCORE><NS_MATCH_POINTS>{mp}</NS_MATCH_POINTS>"
                    f"<EW_MATCH_POINTS>{2 - mp}</EW_MATCH_POINTS></TRAVELLER_LINE>"
                    for (n, s, e, w), score, mp in zip(players, (420, 170), (2, 0)))
    parts = "".join(f"<PLAYER><PLAYER_NUMBER>{p}</PLAYER_NUMBER><PLACE>1</PLACE></PLAYER>" for p in "12345678")
    data = ('<?xml version="1.0"?><USEBIO Version="1.1"><EVENT EVENT_TYPE="INDIVIDUAL"><DATE>13/05/2019</DATE>'
            f'<PARTICIPANTS EVENT_TYPE="INDIVIDUAL">{parts}</PARTICIPANTS>'
            f'<BOARD EVENT_TYPE="INDIVIDUAL"><BOARD_NUMBER>1</BOARD_NUMBER>{lines}</BOARD></EVENT></USEBIO>').encode()
    event = load_event_usebio("i.xml", data=data)
    s = event.sessions[0]
    assert s.individual and s.scoring == "matchpoints" and len(s.contestants) == 8
    assert s.boards[1].lines[0].players == {"N": "1", "S": "2", "E": "3", "W": "4"}
    ss = run(event, None, "wbf-2017", [])[0]
    assert {st.key: st.total for st in ss.standings} == {"1": 2, "2": 2, "3": 0, "4": 0, "5": 0, "6": 0, "7": 2, "8": 2}
    assert all(c.agrees for c in ss.checks() if c.line is not None)


@pytest.mark.parametrize("encoding", ["x-evil", "UTF-7", "Shift_JIS", "idna", "rot13", "zlib_codec"])
def test_an_encoding_bridgelaw_does_not_read_is_one_located_line(encoding, tmp_path, capsys):
    """Issue 24 item 2: LookupError / ValueError from expat."""
    path = tmp_path / "e.xml"
    path.write_bytes(usebio(encoding=encoding))
    assert main(["event", str(path), "--rulebook", "wbf-2017"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bridgelaw: error: {path}:1:31: the file declares the encoding '{encoding}', which "
                          "bridgelaw does not read (expected UTF-8, ISO-8859-1, Windows-1252")
    assert err.count("\n") == 1


def test_windows_1252_is_read():
    data = usebio(encoding="windows-1252").replace(b"<DATE>", "<EVENT_DESCRIPTION>Caf\u00e9 \u20ac</EVENT_DESCRIPTION><DATE>".encode("cp1252"))
    assert load_event_usebio("e.xml", data=data).title == "Café €"


def test_an_undefined_entity_is_an_error_not_dropped():
    """Issue 24: an undefined &nope; was silently dropped (a DOCTYPE with an external DTD)."""
    data = usebio().replace(b"<USEBIO", b'<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">\n<USEBIO').replace(
        b"<DATE>", b"<EVENT_DESCRIPTION>a &nope; b</EVENT_DESCRIPTION><DATE>")
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("e.xml", data=data)
    assert "the entity &nope; is not defined" in str(e.value) and str(e.value).startswith("e.xml:4:")


def test_a_huge_attribute_is_refused_before_it_is_parsed():
    """Issue 24: a 60 MB attribute took 20 s; one longer than the bound is refused in linear time."""
    data = usebio().replace(b'EVENT_TYPE="PAIRS"', b'EVENT_TYPE="PAIRS" X="' + b"a" * 70_000 + b'"')
    with pytest.raises(BridgelawError) as e:
        load_event_usebio("e.xml", data=data)
    assert "a tag or text of 70," in str(e.value) and "at most 65,536 bytes" in str(e.value)


def test_an_impossible_date_is_an_error_at_the_date():
    """Issue 24: a day that is not one was silently ruled as in force on today."""
    for date in ("30/02/2022", "01/01/0000", "1/1/9999"):
        with pytest.raises(BridgelawError) as e:
            load_event_usebio("e.xml", data=usebio(date=date))
        assert str(e.value).startswith("e.xml:3:") and "date" in str(e.value)


def test_a_usebio_written_back_keeps_its_date_its_elements_and_re_reads_to_the_same_scores(tmp_path):
    """Issue 20 item 5: the written USEBIO had no <DATE> (re-read, the session was ruled as of today)
    and wrote a weighted line as <SCORE>ADJ</SCORE>, dropping its contract."""
    import xml.etree.ElementTree as ET
    src = tmp_path / "in.xml"
    src.write_bytes(usebio(program="<PROGRAM_NAME>Scorer X</PROGRAM_NAME>"))
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - {board: 1, ns: '3', adjusted: "
                       "[{result: 4S= N, weight: 1/2}, {result: 4S-1 N, weight: 1/2}]}\n")
    out = tmp_path / "out.xml"
    assert main(["event", str(src), "--rulings", str(rulings), "--output", str(out)]) == 0
    tree = ET.parse(out).getroot()                   # an independent XML reader
    ev = tree.find("EVENT")
    assert ev.findtext("DATE") == "27/07/2022" and ev.findtext("PROGRAM_NAME") == "Scorer X"
    line = tree.findall("EVENT/BOARD/TRAVELLER_LINE")[2]
    assert [line.findtext(t) for t in ("CONTRACT", "PLAYED_BY", "TRICKS", "SCORE")] == ["4S", "N", "9", "-50"]
    a = run(load_event(str(src)), str(rulings), None, [])[0]
    b = run(load_event(str(out)), None, "wbf-2017", [])[0]
    assert b.book.as_of.isoformat() == "2022-07-27"
    assert [(sl.NS.value, sl.EW.value) for sl in a.boards[1].lines] == \
        [(sl.NS.value, sl.EW.value) for sl in b.boards[1].lines]
    # the file printed no points: none are added (issue 32), but the ruled line's, which says its score
    points = [(l.findtext("NS_MATCH_POINTS"), l.findtext("EW_MATCH_POINTS"))
              for l in tree.findall("EVENT/BOARD/TRAVELLER_LINE")]
    ruled = a.boards[1].lines[2]
    assert points == [(None, None)] * 2 + [("1.5", "4.5")] + [(None, None)]
    assert (ruled.NS.value, ruled.EW.value) == (F(3, 2), F(9, 2))
