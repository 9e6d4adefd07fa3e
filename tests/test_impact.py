"""bridgelaw impact: a season of real results files replayed under two rulebooks (field/season.py,
commands/impact.py, render/impact.py)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from bridgelaw.commands import cli
from bridgelaw.commands import impact as impact_cmd
from bridgelaw.field import season

sys.path.insert(0, str(Path(__file__).resolve().parent))
import usebio_teams_files  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EVENTS = ROOT / "tests" / "data" / "events"
# the rulings of docs/events.md's walk-through, for the Magic Contest final's session 1
MAGIC_RULINGS = """\
rulebook: wbf-2017
rulings:
  - {board: 3, table: 5, adjusted: [{result: 4H= N, weight: 2/3}, {result: 4H-1 N, weight: 1/3}]}
  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}}
  - {board: 7, table: 1, not_played: true}
"""
TEAMS_RULINGS = """\
rulebook: wbf-2007
rulings:
  - {board: 3, ns: 1-1-2, artificial: {NS: avg-plus, EW: avg-minus}}
  - board: 5
    ns: 2-1-2
    non_offending: EW
    adjusted: [{result: 4S= W, weight: 1/2}, {result: 4S-2 W, weight: 1/2}]
"""


@pytest.fixture(scope="module")
def season_dir(tmp_path_factory) -> Path:
    """Real files: two sessions of the Magic Contest final (one with its rulings beside it), a
    Compscore club session, and the TeamsScorer teams file (with rulings)."""
    folder = tmp_path_factory.mktemp("season")
    (folder / "pairs").mkdir()
    shutil.copy(EVENTS / "ffb-magic-contest-2022-open-dn1-s1.pbn", folder / "pairs" / "s1.pbn")
    (folder / "pairs" / f"s1{season.RULINGS_SUFFIX}").write_text(MAGIC_RULINGS)
    shutil.copy(EVENTS / "ffb-magic-contest-2022-open-dn1-s5.pbn", folder / "pairs" / "s5.pbn")
    shutil.copy(EVENTS / "compscore-mp-pairs-mitchell-02-adjusted.xml", folder / "pairs" / "club.xml")
    (folder / "teams").mkdir()
    (folder / "teams" / "jss.xml").write_bytes(usebio_teams_files.generate(usebio_teams_files.JSS))
    (folder / "teams" / f"jss{season.RULINGS_SUFFIX}").write_text(TEAMS_RULINGS)
    return folder


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIDGELAW_CACHE_DIR", str(tmp_path / "cache"))


def _impact(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(["impact", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_rulings_file_beside_a_results_file_is_found(season_dir):
    found = season.results_files([str(season_dir)])
    assert [(p.relative_to(season_dir).as_posix(), r.name if r else None) for p, r in found] == [
        ("pairs/club.xml", None), ("pairs/s1.pbn", "s1.rulings.yaml"), ("pairs/s5.pbn", None),
        ("teams/jss.xml", "jss.rulings.yaml")]


def test_a_proposal_on_artificial_scores(season_dir, capsys):
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%",
                             str(season_dir / "pairs"), "--format", "json", "--jobs", "1")
    assert (code, err) == (0, "")
    s = json.loads(out)["impact"]
    # club.xml's artificial lines are A6040/A5050 codes: their percentages are the file's, not the
    # rulebook's, so it reads nothing the proposal changes and is not scored again
    # s1's two weighted rulings (its board 3) read nothing the proposal changes: kept, not made again
    assert s["totals"] == {"files": 3, "errors": 0, "rescored": 2, "rulings_made_again": 6, "rulings_kept": 2,
                           "sessions": 3, "boards": 85, "lines": 1843,
                           "contestants": 130, "changed_sessions": 2, "changed_boards": 6, "changed_lines": 6,
                           "changed_contestants": 11, "places_changed": 7}
    assert s["causes"] == [{"cause": "parameter artificial.pairs.avg_plus", "lines": 6}]
    by_file = {Path(e["file"]).name: e for e in s["events"]}
    assert {n: (e["changed_lines"], e["changed_contestants"], e["places_changed"], e["rescored"])
            for n, e in by_file.items()} == {"club.xml": (0, 0, 0, False), "s1.pbn": (5, 10, 7, True),
                                            "s5.pbn": (1, 1, 0, True)}
    assert by_file["s1.pbn"]["rulings"] == str(season_dir / "pairs" / "s1.rulings.yaml")
    # pair 29 had average plus twice (the file's A+ and the ruling's): 2 × 5% of a top of 42 = 4.2
    assert s["moves"][0] == {"file": str(season_dir / "pairs" / "s1.pbn"),
                             "session": "Open /2 DN1 National Finale directe 21-22 - Séance 1", "contestant": "29",
                             "unit": "MP", "before": "569", "after": "573.2", "change": "+4.2",
                             "percent_change": "+0.33", "place": "37 → 35", "places": 2}
    assert [d["contestants"] for d in s["distribution"]] == [0, 0, 0, 0, 4, 7, 0, 0, 0, 0]
    assert s["places_moved"] == [{"places": -1, "contestants": 4}, {"places": 1, "contestants": 2},
                                 {"places": 2, "contestants": 1}]


def test_a_proposal_on_artificial_scores_rules_again_only_the_lines_that_had_one(season_dir, capsys):
    """Issue 30: a line's ruling whose trace reads nothing the proposal changes is kept (field/reuse.py).
    s1's rulings: board 3 table 5's weighted score (ruled both ways: no non-offending side), board 4
    table 2's average plus, board 7 not played; the file's own A+ lines are four more artificial
    rulings. Average plus 65% makes the five artificial rulings again and keeps the two weighted
    ones; --full makes all seven again; the scores are the same either way."""
    path, rulings = season_dir / "pairs" / "s1.pbn", season_dir / "pairs" / f"s1{season.RULINGS_SUFFIX}"
    spec = season.Spec("wbf-2017", "wbf-2017", ("artificial.pairs.avg_plus=65%",))
    quick = season.replay(str(path), str(rulings), spec)
    full = season.replay(str(path), str(rulings), season.Spec(**{**spec.__dict__, "incremental": False}))
    assert quick["reruled"] == {"made": 5, "kept": 2}
    assert full["reruled"] == {"made": 7, "kept": 0}
    assert quick["sessions"] == full["sessions"]
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", str(path),
                             "--jobs", "1", "--no-cache")
    assert (code, err) == (0, "")
    assert "1 scored again under the proposal, the others read nothing it changes; of their rulings 5 made again, " \
           "2 kept: they read nothing it changes)" in out


def test_two_rulebooks_on_teams(season_dir, capsys):
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2007,wbf-laws-committee-2007", str(season_dir / "teams"),
                             "--format", "json", "--jobs", "1")
    assert (code, err) == (0, "")
    s = json.loads(out)["impact"]
    assert s["totals"]["sessions"] == 1 and s["totals"]["contestants"] == 10


def test_an_unreadable_file_is_listed_and_the_run_goes_on(season_dir, tmp_path, capsys):
    folder = tmp_path / "mixed"
    shutil.copytree(season_dir / "pairs", folder)
    shutil.copy(EVENTS / "bridgecomposer-club-game.pbn", folder / "broken.pbn")
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%",
                             str(folder), "--format", "csv", "--jobs", "1")
    assert code == 2
    assert err == (f"bridgelaw: error: {folder}/broken.pbn:153:26: Score_EW gives NS -620, but 4S= E scores NS "
                   "-420 (vulnerability NS) (expected the score of the contract and result)\n")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["file"].rsplit("/", 1)[-1] for r in rows] == ["broken.pbn", "club.xml", "s1.pbn", "s5.pbn", "TOTAL"]
    assert rows[0]["error"].endswith("(expected the score of the contract and result)")
    assert (rows[-1]["changed_lines"], rows[-1]["changed_contestants"], rows[-1]["error"]) == ("6", "11", "1")


def test_a_second_run_reads_the_cache(season_dir, capsys, monkeypatch):
    argv = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", str(season_dir / "pairs"),
            "--format", "json", "--jobs", "1"]
    first = _impact(capsys, *argv)
    cached = list((Path(impact_cmd.cache_folder())).glob("*.json"))
    assert len(cached) == 3 and all(json.loads(p.read_text())["magic"] == impact_cmd.MAGIC for p in cached)
    monkeypatch.setattr(season, "replay", lambda *a: pytest.fail("replayed again"))
    assert _impact(capsys, *argv) == first
    # another proposal is another key
    monkeypatch.undo()
    monkeypatch.setenv("BRIDGELAW_CACHE_DIR", str(cached[0].parent.parent))
    _impact(capsys, *argv[:3], "artificial.pairs.avg_plus=70%", *argv[4:])
    assert len(list(cached[0].parent.glob("*.json"))) == 6


def test_a_corrupt_cache_entry_is_ignored(season_dir, capsys):
    argv = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", str(season_dir / "pairs" / "s1.pbn"),
            "--format", "json"]
    first = _impact(capsys, *argv)
    (entry,) = Path(impact_cmd.cache_folder()).glob("*.json")
    entry.write_text('{"magic": "' + impact_cmd.MAGIC + '", "key": "another", "result": {"sessions": []}}')
    assert _impact(capsys, *argv) == first


def test_a_process_pool_gives_the_same_report(season_dir, capsys):
    argv = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", str(season_dir / "pairs"),
            "--format", "json", "--no-cache"]
    assert _impact(capsys, *argv, "--jobs", "1") == _impact(capsys, *argv, "--jobs", "2")


def test_bad_options_are_one_line(season_dir, capsys):
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017", str(season_dir))
    assert code == 2 and err == ("bridgelaw: error: --rulebooks names one rulebook and no change to it (expected a "
                                 "second rulebook (--rulebooks CURRENT,PROPOSED), --set or --overlay)\n")
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017,wbf-2099", str(season_dir))
    assert code == 2 and err.startswith("bridgelaw: error: unknown rulebook 'wbf-2099'")
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017,ebu", str(season_dir / "missing"))
    assert code == 2 and err == f"bridgelaw: error: no such file or folder: {season_dir}/missing (expected results " \
                                "files (.pbn, .xml) or folders of them)\n"


def test_the_html_report_is_self_contained_and_its_figures_are_the_csvs(season_dir, capsys):
    argv = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", str(season_dir / "pairs"), "--jobs", "1"]
    _, page, _ = _impact(capsys, *argv, "--format", "html")
    _, table, _ = _impact(capsys, *argv, "--format", "csv")
    assert "<script" not in page and not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page
    assert page.count("<svg") == 3
    rows = {r["file"]: r for r in csv.DictReader(io.StringIO(table))}
    bars = re.findall(r'<figure id="affected">.*?</figure>', page, re.S)[0]
    plotted = dict(re.findall(r'data-label="([^"]*)" data-value="(\d+)"', bars))
    assert plotted and plotted == {f: r["changed_lines"] for f, r in rows.items() if f != "TOTAL" and r["changed_lines"] != "0"}
    totals = re.search(r'data-changed-lines="(\d+)"\s+data-changed-contestants="(\d+)" data-places="(\d+)"', page)
    assert totals.groups() == (rows["TOTAL"]["changed_lines"], rows["TOTAL"]["changed_contestants"],
                               rows["TOTAL"]["places_changed"])


def test_the_scheduler_option_without_dask_says_what_to_install(season_dir, capsys, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_dask(name, *a, **k):
        if name == "distributed":
            raise ImportError(name)
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_dask)
    code, _, err = _impact(capsys, "--rulebooks", "wbf-2017,ebu", str(season_dir / "pairs" / "s5.pbn"),
                           "--scheduler", "tcp://127.0.0.1:1", "--no-cache")
    assert code == 2 and err == ("bridgelaw: error: --scheduler needs Dask distributed, which is not installed; "
                                 "pip install 'bridgelaw[dist]'\n")


def test_a_dask_cluster_of_two_workers_gives_the_same_report(season_dir, capsys):
    distributed = pytest.importorskip("distributed")
    argv = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", str(season_dir), "--format",
            "json", "--no-cache"]
    local = _impact(capsys, *argv, "--jobs", "1")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = _impact(capsys, *argv, "--scheduler", cluster.scheduler_address)
    assert remote == local


# --- incremental replay equals full replay ------------------------------------------------------------------

PROPOSALS = [
    "artificial.pairs.avg_plus=65%", "artificial.pairs.avg_minus=35%", "artificial.pairs.average=50%",
    "artificial.imps.avg_plus=2", "artificial.imps.avg_plus=4", "fieldscore.neuberg.round_to=1/10",
    "fieldscore.neuberg.round_to=0", "weighted.imps.round_to=1", "poll.minimum=7", "vp.round_to=1/2",
    "session.pairs.nos_above=65%", "artificial.pairs.avg_plus=59%",
]


@example(changes=["artificial.pairs.avg_plus=65%"], which="pairs/club.xml")      # not scored again
@example(changes=["artificial.pairs.avg_plus=65%"], which="pairs/s1.pbn")        # its ruling and A+ lines
@example(changes=["fieldscore.neuberg.round_to=0"], which="pairs/s1.pbn")
@example(changes=["artificial.imps.avg_plus=4"], which="teams/jss.xml")
@example(changes=["vp.round_to=1/2", "weighted.imps.round_to=1"], which="teams/jss.xml")
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.sampled_from(PROPOSALS), min_size=1, max_size=2, unique=True),
       which=st.sampled_from(["pairs/s1.pbn", "pairs/club.xml", "teams/jss.xml"]))
def test_incremental_replay_equals_full_replay(season_dir, changes, which):
    path = season_dir / which
    rulings = season.rulings_for(path)
    book = "wbf-2007" if which.startswith("teams") else "wbf-2017"
    spec = season.Spec(current=book, proposed=book, settings=tuple(changes))
    full = season.replay(str(path), str(rulings) if rulings.is_file() else None,
                         season.Spec(**{**spec.__dict__, "incremental": False}))
    quick = season.replay(str(path), str(rulings) if rulings.is_file() else None, spec)
    assert full["rerun"] is (full["error"] is None)        # an error (a value out of the Law's bounds) is the same
    assert {**quick, "rerun": None, "reruled": None} == {**full, "rerun": None, "reruled": None}


@example(changes=["artificial.pairs.avg_plus=65%"], which="pairs/s1.pbn")        # its ruling and A+ lines
@example(changes=["fieldscore.neuberg.round_to=0"], which="pairs/club.xml")      # learnt conventions
@example(changes=["artificial.imps.avg_plus=4"], which="teams/jss.xml")
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.sampled_from(PROPOSALS), min_size=1, max_size=2, unique=True),
       which=st.sampled_from(["pairs/s1.pbn", "pairs/club.xml", "teams/jss.xml"]))
def test_a_file_read_once_scores_as_read_twice(season_dir, changes, which):
    """A file is read once and scored under both rulebooks (the event put back as read between the
    two): the same report as reading it afresh for each."""
    from bridgelaw.core.errors import BridgelawError
    from bridgelaw.field.run import load_event, run
    path = season_dir / which
    rulings = season.rulings_for(path)
    rulings = str(rulings) if rulings.is_file() else None
    book = "wbf-2007" if which.startswith("teams") else "wbf-2017"
    once = season.replay(str(path), rulings, season.Spec(book, book, tuple(changes), incremental=False))
    before = run(load_event(str(path)), rulings, book, None)
    if once["error"] is not None:
        with pytest.raises(BridgelawError):
            run(load_event(str(path)), rulings, book, list(changes))
        return
    after = run(load_event(str(path)), rulings, book, list(changes))
    assert once["sessions"] == season.compare_sessions(before, after)


def test_a_file_read_back_with_a_penalty_scores_it_under_both_rulebooks(tmp_path):
    """A corrected file's Adjustment cell with a penalty (taken off its line's cells as the line is
    scored): read once, it counts under both rulebooks, as in two reads."""
    from bridgelaw.field.run import load_event, run
    rulings = tmp_path / "r.yaml"
    rulings.write_text("rulebook: wbf-2017\nrulings:\n  - {board: 5, table: 16, penalty: {NS: 100%}}\n"
                       "  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}}\n")
    out = tmp_path / "corrected.pbn"
    assert cli.main(["event", str(EVENTS / "ffb-magic-contest-2022-open-dn1-s1.pbn"), "--rulings", str(rulings),
                     "--output", str(out)]) == 0
    changes = ["artificial.pairs.avg_plus=65%"]
    once = season.replay(str(out), None, season.Spec("wbf-2017", "wbf-2017", tuple(changes), incremental=False))
    before = run(load_event(str(out)), None, "wbf-2017", None)
    after = run(load_event(str(out)), None, "wbf-2017", changes)
    assert once["sessions"] == season.compare_sessions(before, after)
    moved = {c["key"]: c["total"] for c in once["sessions"][0]["changed_contestants"]}
    assert moved == {"17": ["3539/5", "7099/10"], "36": ["6661/10", "6661/10"], "9": ["6653/10", "3337/5"],
                     "40": ["6307/10", "3164/5"], "22": ["572", "572"], "29": ["571", "2876/5"],
                     "16": ["1031/2", "5197/10"]}


def test_a_proposal_a_file_does_not_read_is_not_ruled_again(season_dir, monkeypatch):
    """The club session has no ruling, and its artificial lines are the file's own percentages
    (A6040): a proposal on artificial scores leaves it as it is, without ruling it again."""
    calls = []
    real = season.run
    monkeypatch.setattr(season, "run", lambda *a, **k: calls.append(1) or real(*a, **k))
    path = season_dir / "pairs" / "club.xml"
    out = season.replay(str(path), None, season.Spec("wbf-2017", "wbf-2017", ("artificial.pairs.avg_minus=35%",)))
    assert (out["rerun"], len(calls), out["error"]) == (False, 1, None)
    assert [len(s["changed_lines"]) for s in out["sessions"]] == [0]
    # Compscore's profile rounds Neuberg to 0.1 already: no change, not scored again; exact Neuberg is
    same = season.replay(str(path), None, season.Spec("wbf-2017", "wbf-2017", ("fieldscore.neuberg.round_to=1/10",)))
    assert (same["rerun"], len(calls)) == (False, 2)
    out = season.replay(str(path), None, season.Spec("wbf-2017", "wbf-2017", ("fieldscore.neuberg.round_to=0",)))
    assert (out["rerun"], len(calls)) == (True, 4)
    assert out["sessions"][0]["changed_lines"][0]["causes"] == ["parameter fieldscore.neuberg.round_to"]


# --- the web page -------------------------------------------------------------------------------------------

def test_the_web_page_takes_files_and_a_proposal(season_dir, capsys):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from bridgelaw.web.app import create_app
    c = TestClient(create_app())
    assert c.get("/impact").status_code == 200
    s1 = (season_dir / "pairs" / "s1.pbn").read_bytes()
    s5 = (season_dir / "pairs" / "s5.pbn").read_bytes()
    files = [("files", ("../../s1.pbn", s1)), ("files", ("s1.rulings.yaml", MAGIC_RULINGS.encode())),
             ("files", ("s5.pbn", s5))]
    r = c.post("/impact", data={"current": "wbf-2017", "settings": "artificial.pairs.avg_plus=65%"}, files=files)
    assert r.status_code == 200, r.text
    shown = dict(re.findall(r'data-(files|changed-lines|changed-contestants|places)="(\d+)"', r.text))
    # the command line on the same two files and rulings
    code, out, _ = _impact(capsys, "--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%",
                           str(season_dir / "pairs" / "s1.pbn"), str(season_dir / "pairs" / "s5.pbn"),
                           "--format", "json", "--jobs", "1", "--no-cache")
    t = json.loads(out)["impact"]["totals"]
    assert shown == {"files": "2", "changed-lines": str(t["changed_lines"]),
                     "changed-contestants": str(t["changed_contestants"]), "places": str(t["places_changed"])}
    assert t["changed_lines"] == 6 and r.text.count("<svg") == 3
    report = r.text[r.text.index('<section class="ruling impact-report"'):r.text.index("</section>")]
    assert "style=" not in report and "<script" not in report           # the page's CSP allows neither
    assert ">s1.pbn<" in report and "../" not in report                  # a file name is a safe base name
    # an overlay instead of settings: the same
    overlay = "parameters:\n  artificial:\n    pairs:\n      avg_plus: {value: 65%}\n"
    r2 = c.post("/impact", data={"current": "wbf-2017", "overlay": overlay}, files=files)
    assert dict(re.findall(r'data-(files|changed-lines|changed-contestants|places)="(\d+)"', r2.text)) == shown


def test_the_web_page_refuses_in_words(season_dir):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from bridgelaw.web.app import create_app
    c = TestClient(create_app())
    s5 = ("files", ("s5.pbn", (season_dir / "pairs" / "s5.pbn").read_bytes()))
    r = c.post("/impact", data={"current": "wbf-2017"}, files=[s5])
    assert r.status_code == 400 and "Give the proposal: another rulebook, settings, or an overlay." in r.text
    r = c.post("/impact", data={"current": "wbf-2017", "settings": "x=1"}, files=[("files", ("notes.txt", b"hello"))])
    assert r.status_code == 400 and "Choose one or more results files" in r.text
    r = c.post("/impact", data={"current": "../../etc/passwd", "proposed": "ebu"}, files=[s5])
    assert r.status_code == 200 and "compared with ebu" in r.text        # an unknown id: the default rulebook
    r = c.post("/impact", data={"current": "wbf-2017", "settings": "artificial.pairs.avg_plus=55%"}, files=[s5])
    assert r.status_code == 200 and "55% is below 60%" in r.text         # the file's error, listed


def test_a_changed_rulings_file_is_replayed_again(season_dir, tmp_path, capsys, monkeypatch):
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(season_dir / "pairs" / "s1.pbn", folder / "s1.pbn")
    (folder / "s1.rulings.yaml").write_text(MAGIC_RULINGS)
    argv = ["--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=65%", str(folder), "--format", "json"]
    first = json.loads(_impact(capsys, *argv)[1])["impact"]["totals"]
    calls = []
    real = season.replay
    monkeypatch.setattr(season, "replay", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    (folder / "s1.rulings.yaml").write_text(MAGIC_RULINGS.replace("board: 4, table: 2", "board: 5, table: 2"))
    second = json.loads(_impact(capsys, *argv)[1])["impact"]["totals"]
    assert calls == [str(folder / "s1.pbn")]
    assert (first["changed_lines"], second["changed_lines"]) == (5, 5)


def test_the_progress_bar_counts_files_on_a_terminal():
    from bridgelaw.commands.event import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True
    clock = iter([0.0, 2.0, 2.0, 2.0])
    stream = Terminal()
    bar = Progress(stream=stream, clock=lambda: next(clock), delay=0.5, unit="files")
    bar("impact", 3, 12)
    bar.done()
    assert stream.getvalue().startswith("\rimpact [######..................] 3/12 files")
    quiet = io.StringIO()                                  # not a terminal: nothing
    Progress(stream=quiet, clock=lambda: 5.0, delay=0.0, unit="files")("impact", 1, 2)
    assert quiet.getvalue() == ""


def test_the_report_never_replaces_an_input(season_dir, tmp_path, capsys):
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(season_dir / "pairs" / "s5.pbn", folder / "s5.pbn")
    before = (folder / "s5.pbn").read_bytes()
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017,ebu", str(folder), "--output", str(folder / "s5.pbn"))
    assert code == 2 and err == (f"bridgelaw: error: --output {folder}/s5.pbn is an input ({folder}/s5.pbn); nothing "
                                 "is written (expected a new file name for the report)\n")
    assert (folder / "s5.pbn").read_bytes() == before
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017", "--overlay", str(tmp_path / "none.yaml"), str(folder))
    assert code == 2 and err.startswith(f"bridgelaw: error: --overlay {tmp_path}/none.yaml: cannot be read (")
    code, out, err = _impact(capsys, "--rulebooks", "wbf-2017,ebu", str(folder), "--jobs", "0")
    assert code == 2 and err == "bridgelaw: error: --jobs 0: no worker (expected 1 or more worker processes)\n"


def test_a_seasons_files_share_the_proposed_rulebook_and_what_it_changes():
    """The rulebook a proposal makes (--set), a program's profile laid over it, and what it changes are
    made once a run, not once a file: the same objects, so that the decisions each keeps serve every file."""
    from bridgelaw import rulebook as rulebooks
    from bridgelaw.field import profiles
    book = rulebooks.get("wbf-2017")
    a = book.with_settings(["artificial.pairs.avg_plus=65%"])
    assert a is book.with_settings(["artificial.pairs.avg_plus=65%"])
    assert a is not book.with_settings(["artificial.pairs.avg_plus=70%"])
    assert a.parameters["artificial.pairs.avg_plus"] == Fraction(13, 20)
    ebu = profiles.profiles()["ebuscore"]
    assert ebu.apply(book) is ebu.apply(book) and ebu.apply(a) is not ebu.apply(book)
    change = season.changes(book, a)
    assert change is season.changes(book, a)
    assert set(change.parameters) == {"artificial.pairs.avg_plus"} and change.stages == {"artificial"}


def test_contestant_count_is_the_number_of_standings_without_them():
    """A session the proposal cannot change is reported by its size: its contestants counted without
    working its standings out — the same number, on every real file the project keeps."""
    from bridgelaw.field.run import load_event, run
    counted = 0
    for path in sorted((ROOT / "tests" / "data" / "events").glob("*")):
        if path.suffix not in (".pbn", ".xml") or path.name.startswith("bridgecomposer"):
            continue
        rulebook = "ebu" if path.name.startswith("scorebridge") else None      # its file names no country
        scored = run(load_event(str(path)), None, rulebook, None)
        for k, ss in enumerate(scored):
            fresh = run(load_event(str(path)), None, rulebook, None)[k]
            fresh.__dict__.pop("standings", None)       # counted, not worked out
            assert fresh.contestant_count == len(ss.standings), path.name
            assert "standings" not in fresh.__dict__
            counted += 1
    assert counted == 11


def test_the_second_run_takes_each_plain_boards_field_from_the_first(season_dir, monkeypatch):
    """A board of plain results is scored once a replay (field/reuse.py memo): the proposal on average
    plus leaves every such field as it was, so the second run takes each from the first; a proposal on
    Neuberg's rounding, which a field reads, makes them again."""
    from bridgelaw.field import reuse, score
    asked: list = []
    real_memo, real_run = reuse.memo, season.run

    def memo(key, make):
        if key[0] == "field":
            asked.append(key in reuse._current.get().memo)
        return real_memo(key, make)
    monkeypatch.setattr(score.reuse, "memo", memo)
    monkeypatch.setattr(season, "run", lambda *a, **k: asked.append("run") or real_run(*a, **k))
    path = season_dir / "pairs" / "s1.pbn"
    rulings = str(season.rulings_for(path))
    for proposal, second_hits in (("artificial.pairs.avg_plus=65%", {True}), ("fieldscore.neuberg.round_to=0", {False})):
        asked.clear()
        out = season.replay(str(path), rulings, season.Spec("wbf-2017", "wbf-2017", (proposal,)))
        assert out["error"] is None and out["rerun"] is True and asked.count("run") == 2
        first, second = asked[1:asked.index("run", 1)], asked[asked.index("run", 1) + 1:]
        # 30 boards, of which 6 have an artificial line (4 the file's, 1 the rulings') or an adjusted one:
        # each side of the other 24 made once in the first run
        assert (len(first), set(first)) == (2 * 24, {False})
        assert (len(second), set(second)) == (2 * 24, second_hits)


@pytest.mark.parametrize("which", ["pairs/club.xml", "teams/jss.xml"])
def test_a_replay_learns_without_the_learning_report(season_dir, which):
    """A replay asks run() for no learning report (what a season's impact never reads): the conventions
    are learnt all the same — the same scores, totals and places as with the report."""
    from bridgelaw.field.run import load_event, run
    path = str(season_dir / which)
    book = "wbf-2007" if which.startswith("teams") else "wbf-2017"
    with_report, without = run(load_event(path), None, book, None), run(load_event(path), None, book, None, report=False)
    assert [ss.learning is not None for ss in with_report] == [True] * len(with_report)
    assert [ss.learning for ss in without] == [None] * len(without)
    if which == "pairs/club.xml":                     # Compscore's profile: Neuberg rounded to 0.1
        assert with_report[0].parameters["fieldscore.neuberg.round_to"] == Fraction(1, 10)
    assert [ss.parameters for ss in without] == [ss.parameters for ss in with_report]
    assert season.compare_sessions(with_report, without) == season.compare_sessions(with_report, with_report)
