"""Issue 29 item 3: every written file, in either format, reads back to the same scores.

The profile the event was scored with, the session's date and who is ranked with whom (USEBIO
``WINNER_TYPE``) travel with the file — in the format's own fields where it has them (USEBIO DATE and
WINNER_TYPE, PBN ``[Date]``), else in a note the reader understands (``<!-- bridgelaw: profile … -->``,
``% bridgelaw: profile …``); a split weighting and a 1997 non-balancing assignment keep each side's
assignment (``split NS: … | EW: …``). A property test: for the real files kept and the figures
generator's, and random rulings, write → read gives the same standings in both formats.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import importlib.util
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bridgelaw.commands.cli import main
from bridgelaw.core import bridge
from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.run import load_event, outputs, run

DATA = Path(__file__).parent / "data" / "events"
FIGURES = DATA / "figures"
_spec = importlib.util.spec_from_file_location("usebio_shapes", FIGURES / "generate.py")
shapes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shapes)

# pairs files: the real ones kept, and one of each program the generator writes (rulebook in force on the day)
PAIRS = [(DATA / "compscore-mp-pairs-howell.xml", "wbf-2017"), (DATA / "compscore-cross-imp-howell.xml", "wbf-2017"),
         (DATA / "compscore-butler-howell.xml", "wbf-2017"), (DATA / "scorebridge-mp-pairs-8.xml", "wbf-2017"),
         (DATA / "compscore-mp-pairs-mitchell.xml", "wbf-2017"),
         (DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn", "wbf-2017"),
         (DATA / "individual-derived-from-magic-contest.pbn", "wbf-2017"), (DATA / "compscore-butler-mitchell.xml", "wbf-2017"),
         ("ebuscore-pairs-multi-section", "wbf-2017"), ("jss-pairsscorer-mp-pairs", "wbf-2007"),
         ("realbridge-mp-pairs", "wbf-2017"), ("brian-mp-pairs", "wbf-2017"), ("pianola-cross-imp-pairs", "wbf-2007")]


def _path(name, tmp: Path) -> Path:
    if isinstance(name, Path):
        return name
    out = tmp / f"{name}.xml"
    if not out.exists():
        out.write_bytes(shapes.generate(shapes.load(FIGURES / f"{name}.yaml")))
    return out


def _standings(scored) -> list:
    """Each contestant (section, number, direction: its key's form — ``NS 1`` or ``1`` — follows the
    file's numbering, which pairs numbered apart read either way) with its total, percentage and place."""
    return [sorted((s.section, s.contestant.number if s.contestant else s.key.split()[-1], s.direction or "",
                    s.total, s.percent, s.rank) for s in ss.standings) for ss in scored]


def _lines(scored) -> list:
    return [sorted((sl.line.board, sl.line.ns or "", sl.line.ew or "", sl.NS.value, sl.EW.value)
                   for sb in ss.boards.values() for sl in sb.lines) for ss in scored]


def _ruling(line, kind: str, w: int, w2: int, scoring: str) -> str:
    where = f"board: {line.board}, " + (f"section: '{line.section}', " if line.section else "") + \
        f"ns: '{line.ns}', ew: '{line.ew}'"
    r = line.result
    played = isinstance(r, bridge.PlayedResult) and r.contract is not None
    if kind in ("adjusted", "split") and played:
        down = bridge.PlayedResult(r.contract, r.declarer, max(0, r.tricks - 1)).text
        ns = f"[{{result: '{r.text}', weight: {w}/10}}, {{result: '{down}', weight: {10 - w}/10}}]"
        if kind == "adjusted":
            return f"{{{where}, non_offending: NS, adjusted: {ns}}}"
        ew = f"[{{result: '{r.text}', weight: {w2}/10}}, {{result: '{down}', weight: {10 - w2}/10}}]"
        return f"{{{where}, adjusted: {{NS: {ns}, EW: {ew}}}}}"
    if kind == "penalty":
        return f"{{{where}, penalty: {{EW: {'10%' if scoring == 'matchpoints' else '3'}}}}}"
    if kind == "not_played":
        return f"{{{where}, not_played: true}}"
    return f"{{{where}, artificial: {{NS: avg-plus, EW: avg-minus}}}}"


def _round_trip(path: Path, rulebook: str, rulings: str, suffixes=(".xml", ".pbn"), settings_=(), as_of=None):
    event = load_event(str(path))
    scored = run(event, "r.yaml", rulebook, list(settings_), rulings_text=rulings, as_of=as_of)
    for suffix in suffixes:
        ((_, text, encoding),) = outputs(event, scored, [f"out{suffix}"], str(path))
        back = load_event(f"out{suffix}", text=text.encode(encoding))
        again = run(back, None, rulebook, list(settings_), as_of=as_of)
        assert _standings(again) == _standings(scored), suffix
        assert _lines(again) == _lines(scored), suffix
        assert [s.date for s in back.sessions] == [s.date for s in event.sessions], suffix
        assert [(s.conventions.profile.id if s.conventions.profile else None) for s in again] == \
            [(s.conventions.profile.id if s.conventions.profile else None) for s in scored], suffix


@settings(max_examples=int(os.environ.get("ROUND_TRIPS", "15")), deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(PAIRS), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=3, unique=True),
       kinds=st.lists(st.sampled_from(["adjusted", "split", "artificial", "penalty", "not_played"]), min_size=3,
                      max_size=3), w=st.integers(1, 9), w2=st.integers(1, 9))
def test_a_written_pairs_file_reads_back_to_the_same_standings_in_both_formats(tmp_path_factory, file, picks, kinds,
                                                                                  w, w2):
    name, rulebook = file
    path = _path(name, tmp_path_factory.getbasetemp())
    event = load_event(str(path))
    lines = [l for s in event.sessions[:1] for b in s.boards.values() for l in b.lines
             if l.kind == "result" and l.ns and l.ew]
    chosen = {id(lines[p % len(lines)]): lines[p % len(lines)] for p in picks}
    scoring = event.sessions[0].scoring
    rulings = f"rulebook: {rulebook}\nrulings:\n" + "".join(
        f"  - {_ruling(line, kinds[k], w, w2, scoring)}\n" for k, line in enumerate(chosen.values()))
    try:
        _round_trip(path, rulebook, rulings)
    except BridgelawError as exc:
        # a ruling the rulebook refuses (an artificial score on a board of one result …) is not a round trip
        assert "r.yaml" in str(exc), exc


def test_a_1997_non_balancing_assignment_keeps_each_sides_result(tmp_path):
    """Issue 29: NS 4H+1, EW 6H= (1997 Law 12C2) was written as one contract, and read back balanced."""
    rulings = ("rulebook: wbf-1997\nrulings:\n  - {board: 1, table: 3, non_offending: NS, adjusted: "
               "[{result: 4H+1 S, judged: likely}, {result: 6H= S, judged: at all probable}]}\n")
    path = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
    last_day = dt.date(2008, 9, 30)         # a 2022 session ruled by the 1997 Laws only as of a day they were in force
    _round_trip(path, "wbf-1997", rulings, as_of=last_day)
    event = load_event(str(path))
    scored = run(event, "r.yaml", None, [], rulings_text=rulings, as_of=last_day)
    ((_, text, _),) = outputs(event, scored, ["out.pbn"], str(path))
    assert '"split NS: 4H+1 S | EW: 6H= S"' in text
    ((_, text, _),) = outputs(event, scored, ["out.xml"], str(path))
    assert "<!-- bridgelaw: split NS: 4H+1 S | EW: 6H= S -->" in text
    assert "<!-- bridgelaw: profile magic-contest -->" in text       # 1997 scores matchpoints with the profile


def test_the_profile_date_and_ranking_travel_to_the_other_format(tmp_path):
    """An EBUScore pair's 209.29 read back as 209 2/7 (its profile's rounding lost), a session re-read
    as in force on today: the profile, the date and WINNER_TYPE travel with the file."""
    path = _path("ebuscore-pairs-multi-section", tmp_path)
    event = load_event(str(path))
    scored = run(event, None, "wbf-2017", [])
    ((_, text, _),) = outputs(event, scored, ["out.pbn"], str(path))
    assert "% bridgelaw: profile ebuscore" in text and '[Date "' in text
    back = load_event("out.pbn", text=text.encode("utf-8"))
    assert back.sessions[0].date == event.sessions[0].date
    assert back.sessions[0].ranking == event.sessions[0].ranking
    # and a profile chosen with --profile is named in a file written in its own format
    out = tmp_path / "out.xml"
    assert main(["event", str(path), "--rulebook", "wbf-2017", "--profile", "jss", "--output", str(out)]) == 0
    assert b"<!-- bridgelaw: profile jss -->" in out.read_bytes()
    again = run(load_event(str(out)), None, "wbf-2017", [])
    assert again[0].conventions.profile.id == "jss"


def test_weight_zero_is_refused_at_its_place(tmp_path, capsys):
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - board: 1\n    ns: 1NS\n"
                       "    adjusted: [{result: 4S= N, weight: 1}, {result: 4S-1 N, weight: 0}]\n")
    assert main(["event", str(DATA / "compscore-mp-pairs-mitchell.xml"), "--rulings", str(rulings)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bridgelaw: error: {rulings}:5:") and "weight 0" in err and err.count("\n") == 1


@pytest.fixture(scope="module")
def teams_files(tmp_path_factory):
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from usebio_teams_files import EBUSCORE, JSS, generate
    d = tmp_path_factory.mktemp("teams")
    out = []
    for name, figures in (("jss", JSS), ("ebuscore", EBUSCORE)):
        path = d / f"{name}.xml"
        path.write_bytes(generate(figures))
        out.append(path)
    return out


def _teams(scored) -> list:
    return [([(sm.match.home, sm.match.away, sm.score, [(mb.home, mb.away) for mb in sm.boards])
              for sm in ss.teams.matches], [(s.team, s.total, s.rank_text) for s in ss.teams.standings])
            for ss in scored]


@settings(max_examples=int(os.environ.get("ROUND_TRIPS", "15")), deadline=None,
          phases=[Phase.explicit, Phase.reuse, Phase.generate], suppress_health_check=list(HealthCheck))
@given(which=st.integers(0, 1), pick=st.integers(0, 10_000), kind=st.sampled_from(["adjusted", "split", "artificial"]),
       w=st.integers(1, 9), w2=st.integers(1, 9), method=st.sampled_from(["weight-imps", "weight-vps"]),
       scale=st.sampled_from([None, "wbf-2013"]))
def test_a_written_teams_file_reads_back_to_the_same_matches(teams_files, which, pick, kind, w, w2, method, scale):
    """A split weighting at teams under vp.method weight-vps kept each side's assignment (a match
    15–5½ read back 15–6): every match's board scores and VPs, every team's total and place."""
    path = teams_files[which]
    event = load_event(str(path))
    lines = [l for s in event.sessions for b in s.boards.values() for l in b.lines if l.kind == "result"]
    line = lines[pick % len(lines)]
    where = f"board: {line.board}, ns: '{line.ns}'"
    r = line.result
    down = bridge.PlayedResult(r.contract, r.declarer, max(0, r.tricks - 1)).text \
        if isinstance(r, bridge.PlayedResult) and r.contract is not None else None
    if kind != "artificial" and down is not None:
        ns = f"[{{result: '{r.text}', weight: {w}/10}}, {{result: '{down}', weight: {10 - w}/10}}]"
        ew = f"[{{result: '{r.text}', weight: {w2}/10}}, {{result: '{down}', weight: {10 - w2}/10}}]"
        ruling = f"{{{where}, non_offending: EW, adjusted: {ns}}}" if kind == "adjusted" else \
            f"{{{where}, adjusted: {{NS: {ns}, EW: {ew}}}}}"
    else:
        ruling = f"{{{where}, artificial: {{NS: avg-plus, EW: avg-minus}}}}"
    settings_ = [f"vp.method={method}"] + ([f"vp.scale={scale}"] if scale else [])
    scored = run(event, "r.yaml", None, settings_, rulings_text=f"rulebook: wbf-2007\nrulings:\n  - {ruling}\n")
    ((_, text, encoding),) = outputs(event, scored, ["out.xml"], str(path))
    again = run(load_event("out.xml", text=text.encode(encoding)), None, "wbf-2007", settings_)
    assert _teams(again) == _teams(scored)


def test_a_control_character_that_xml_cannot_hold_is_refused_at_its_place(tmp_path, capsys):
    """Issue 29: a PBN whose [Event] holds ESC/BEL was written raw into --output x.xml (not well-formed)."""
    src = tmp_path / "e.pbn"
    src.write_text('[Event "bad\x1b\x07 title"]\n[Board "1"]\n[Vulnerable "None"]\n[Scoring "MatchPoints"]\n'
                   '[ScoreTable "Table\\2R;PairId_NS\\2R;PairId_EW\\2R;Score_NS\\6R;Score_EW\\6R"]\n'
                   ' 1  1  1 420 -\n 2  2  2 -50 -\n\n', encoding="utf-8")
    out = tmp_path / "out.xml"
    assert main(["event", str(src), "--rulebook", "wbf-2017", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"bridgelaw: error: {src}:1:12: the Event tag holds the control character U+001B, which XML "
                   "cannot carry (expected text without control characters but tab)\n")
    assert not out.exists()


def test_a_pbn_written_from_usebio_keeps_the_adjusted_lines_contract():
    """Issue 32: the PBN written from a USEBIO input blanked the adjusted line's contract."""
    path = DATA / "compscore-mp-pairs-mitchell.xml"
    rulings = ("rulebook: wbf-2017\nrulings:\n  - {board: 1, ns: 1NS, non_offending: NS, adjusted: "
               "[{result: 4S= N, weight: 3/5}, {result: 4S-1 N, weight: 2/5}]}\n")
    event = load_event(str(path))
    line = next(l for l in event.sessions[0].boards[1].lines if l.ns == "1NS")
    played = line.result
    scored = run(event, "r.yaml", None, [], rulings_text=rulings)
    ((_, text, _),) = outputs(event, scored, ["out.pbn"], str(path))
    row = next(r for r in text.splitlines() if r.endswith('"adj 4S= N @3/5; 4S-1 N @2/5"'))
    c = played.contract
    assert row.split()[4:7] == [f"{c.level}{'NT' if c.strain in ('N', 'NT') else c.strain}{'X' * c.doubled}",
                                played.declarer, str(played.tricks)]
    assert " 31.20 " in row or " 31.2 " in row


def test_an_individuals_own_average_plus_travels_to_usebio():
    """Issue 29: a PBN individual's `A+` line gives each player 60 % or its own session percentage if
    higher (player 31b 26.318 of 42 when a split ruling raised its board 3); USEBIO's A6060 says 60 %
    for all four, so the written file carries each player's own share (`& own 31b=…`): read back,
    31b's total was 102.9, not 104.018 (found by the property test above)."""
    path = DATA / "individual-derived-from-magic-contest.pbn"
    rulings = ("rulebook: wbf-2017\nrulings:\n"
               "  - {board: 3, ns: '28a-31b', ew: '19a-26b', adjusted: {NS: [{result: '2S+2 E', weight: 1/10}, "
               "{result: '2S+1 E', weight: 9/10}], EW: [{result: '2S+2 E', weight: 8/10}, {result: '2S+1 E', weight: 2/10}]}}\n"
               "  - {board: 3, ns: '39a-1b', ew: '8a-13b', not_played: true}\n")
    _round_trip(path, "wbf-2017", rulings)
    event = load_event(str(path))
    scored = run(event, "r.yaml", None, [], rulings_text=rulings)
    st = next(s for s in scored[0].standings if s.key == "31b")
    assert st.total == Fraction(64491, 620)
    ((_, text, _),) = outputs(event, scored, ["out.xml"], str(path))
    assert "<!-- bridgelaw: art NS=3/5 EW=3/5 & own 31b=777/1240 -->" in text


def test_a_weighted_ruling_under_weight_vps_keeps_its_weighted_vps(teams_files):
    """Issue 29: under vp.method weight-vps (the EBL's 2008 proposal) a weighted ruling's match is the
    weighted average of each outcome's VPs (17½–2½); the written file gave the room its rounded IMPs
    (`art NS=… EW=…`), which read back as the VPs of those IMPs (18–2). It keeps its outcomes now."""
    path = teams_files[0]
    rulings = ("rulebook: ebl-2008-vp-proposal\nrulings:\n  - {board: 17, ns: '1-1-2', adjusted: "
               "[{result: 4S-1 N, weight: 1/3}, {result: 4S= N, weight: 2/3}]}\n")
    as_of = dt.date(2009, 1, 1)
    event = load_event(str(path))
    scored = run(event, "r.yaml", None, [], rulings_text=rulings, as_of=as_of)
    match = next(sm for sm in scored[0].teams.matches if (sm.match.home, sm.match.away) == ("1", "4"))
    assert match.score == {"home": Fraction(35, 2), "away": Fraction(5, 2)}
    ((_, text, encoding),) = outputs(event, scored, ["out.xml"], str(path))
    assert "<!-- bridgelaw: adj 4S-1 N @1/3; 4S= N @2/3 -->" in text
    again = run(load_event("out.xml", text=text.encode(encoding)), None, "ebl-2008-vp-proposal", [], as_of=as_of)
    assert _teams(again) == _teams(scored)
