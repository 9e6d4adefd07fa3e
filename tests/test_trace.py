"""The ruling's trace (provenance), citations collected from it, the Law's bounds on parameters,
explanations filled from the parameters in force, and Ruling.assigned."""

from __future__ import annotations

import json
import shutil
import textwrap
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.ruling.case import load_case
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.render.ruling import as_dict, step_lines
from bridgelaw.ruling.build import rule_case

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "cases"
ACBL_2014 = CASES / "jurisdictions" / "acbl-likely-probable-2014.yaml"

POLL_11B = CASES / "wbf-commentary-2017" / "example-11b-half-reach-slam.yaml"     # 6 polled, 3 and 3

ARTIFICIAL_MP = textwrap.dedent("""\
    title: t
    rulebook: wbf-2017
    scoring: matchpoints
    results_on_board: 11
    board: {vulnerability: None}
    artificial: {NS: in-no-way-at-fault, EW: directly-at-fault}
""")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def ruled(path_or_text, book: str | None = None, **kw):
    if isinstance(path_or_text, Path):
        case = load_case(path_or_text)
    else:
        case = load_case("case.yaml", text=path_or_text)
    return rule_case(case, rulebook.get(book or case.model.rulebook) if isinstance(book, str) or book is None
                     else book, **kw)


def regulation(tmp_path: Path, body: str, name: str = "reg") -> Path:
    """A regulation file beside copies of the shipped rulebooks (extends looks in its folder)."""
    for p in rulebook.available().values():
        shutil.copy(p, tmp_path / p.name)
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(f"""\
        rulebook: {name}
        title: a regulation
        authority: a test body
        version: "1"
        effective: {{from: 2017-09-01}}
        extends: wbf-2017
    """) + textwrap.dedent(body), encoding="utf-8")
    return path


# --- the trace records decisions, with what held and what was overridden -------------------------

def test_decision_records_held_and_overridden_rules():
    r = ruled(ACBL_2014)
    decisions = [rec.data["decision"] for rec in r.trace.entries if rec.kind == "decision"]
    expectation = [d for d in decisions if d.stage == "expectation"]
    assert len(expectation) == 2                      # B and B', each from its own side's view
    d = expectation[0]
    assert d.held == ("weighted-average", "most-favourable-likely")
    assert d.overridden == {"weighted-average": "most-favourable-likely"}
    assert d.rule.id == "most-favourable-likely"
    assert d.facts == {"weighted": True, "illegal_outcomes": False, "poll": False, "judged": False, "committee": False,
                       "scoring": "imps"}
    # the optional event stage is recorded too: it was asked, and no rule applied
    assert [(x.stage, x.rule.id if x.rule else None) for x in decisions] == [
        ("kind", "assigned-adjustment"), ("expectation", "most-favourable-likely"),
        ("expectation", "most-favourable-likely"), ("damage", "assigned-score"), ("event", None)]


def test_parameter_reads_carry_value_layer_and_cites():
    r = ruled(ACBL_2014)
    reads = r.trace.parameters()
    assert list(reads) == ["likely.threshold", "probable.threshold"]
    likely = reads["likely.threshold"].data
    assert likely["value"] == F(1, 3)
    assert likely["dated"].place.what == "acbl-2007"
    assert likely["dated"].cites == ("ACBL/likely-probable",)


def test_json_trace_keeps_every_existing_key():
    r = ruled(ACBL_2014)
    data = json.loads(json.dumps(as_dict(r)))
    assert {"title", "source", "outcome", "unit", "top", "event", "sides", "nos", "os", "quantities", "steps",
            "rules", "citations", "players", "vp", "rulebook", "warnings"} <= set(data)
    kinds = [t["kind"] for t in data["trace"]]
    assert kinds[:3] == ["rulebook", "basis", "decision"]
    exp = next(t for t in data["trace"] if t["kind"] == "decision" and t["stage"] == "expectation")
    assert exp["held"] == ["weighted-average", "most-favourable-likely"]
    assert exp["overridden"] == {"weighted-average": "most-favourable-likely"}
    assert exp["rule"] == "most-favourable-likely"
    read = next(t for t in data["trace"] if t["kind"] == "parameter")
    assert (read["name"], read["value"]["exact"]) == ("likely.threshold", "1/3")
    assert {k: read["dated"][k] for k in ("period", "layer", "cites")} == \
        {"period": "always", "layer": "acbl-2007", "cites": ["ACBL/likely-probable"]}
    selected = next(t for t in data["trace"] if t["kind"] == "selected")
    assert selected["parameter"] == "likely.threshold" and selected["outcome"] == "4H= S"


def test_steps_are_rendered_only_when_asked():
    r = ruled(ACBL_2014)
    assert "steps" not in r.__dict__                  # nothing formatted while computing
    assert any("first reaches 1/3 (likely.threshold): 4H= S = 0" in s for s in step_lines(r))


# --- citations come from the trace ------------------------------------------------------------------

def test_regulation_parameter_cites_are_cited(tmp_path):
    path = regulation(tmp_path, """\
        paragraphs:
          REG/poll-factor:
            text: The benefit-of-doubt factor is 1.1.
          REG/poll-size:
            text: Poll at least seven players.
        parameters:
          poll:
            benefit_of_doubt: {value: 1.1, cites: [REG/poll-factor]}
            minimum: {value: 7, cites: [REG/poll-size]}
    """)
    book = rulebook.load(path)
    r = ruled(POLL_11B, book)
    refs = [p.ref for p in r.citations]
    assert "REG/poll-factor" in refs and "REG/poll-size" in refs
    # raw weight 1/2 raised by 11/10 to 11/20: B = 11/20 × IMP(+500) + 9/20 × IMP(+40) = 11/20 × 11 + 9/20 × 1
    assert r.quantities["B"] == F(13, 2)
    assert r.warnings == ["only 6 players were polled; the minimum is 7 (poll.minimum, reg, cites REG/poll-size)"]


def test_regulation_rounding_cite_follows_the_read():
    r = ruled(CASES / "ebl-lecture-2008" / "weighted-imps-teams.yaml", "ebl-2008")
    assert "EBL-2008/weighted-imps" in [p.ref for p in r.citations]
    assert any("rounded to the nearest 1 IMP (weighted.imps.round_to, half-up): 3 2/5 → 3" in s for s in step_lines(r))


# --- the Law's bounds ------------------------------------------------------------------------------------

def test_set_outside_a_law_bound_is_refused(capsys):
    case = str(CASES / "law12-provisions" / "average-plus-second-board.yaml")
    code, out, err = run(capsys, "rule", case, "--set", "artificial.pairs.avg_plus=55%")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "bridgelaw: error: --set artificial.pairs.avg_plus=55%: 55% is below 60%, the least 12C2(a) allows "
        "(expected artificial.pairs.avg_plus at least 60% (12C2(a)))"]
    code, _, err = run(capsys, "rule", case, "--set", "artificial.pairs.avg_minus=45%")
    assert code == 2 and "45% is above 40%, the most 12C2(a) allows" in err
    # the benefit of doubt's 1.2 is the Laws Committee's ceiling, not a bound of the Laws (issue 12)
    poll = str(CASES / "wbf-commentary-2017" / "example-11b-half-reach-slam.yaml")
    code, _, err = run(capsys, "rule", poll, "--set", "poll.benefit_of_doubt=1.5")
    assert code == 2 and "poll.benefit_of_doubt is 1 1/2, above the ceiling 1 1/5 of wbf-laws-committee-2017" in err


def test_overlay_outside_a_law_bound_is_refused(tmp_path, capsys):
    overlay = tmp_path / "proposal.yaml"
    overlay.write_text("parameters:\n  artificial:\n    pairs: {avg_plus: 55%}\n")
    code, _, err = run(capsys, "rule", str(CASES / "law12-provisions" / "average-plus-second-board.yaml"),
                       "--overlay", str(overlay))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"{overlay}:3:" in err and "55% is below 60%, the least 12C2(a) allows" in err


def test_regulation_outside_a_law_bound_is_refused(tmp_path):
    path = regulation(tmp_path, """\
        paragraphs:
          REG/avg-minus:
            text: Average minus is 45%.
        parameters:
          artificial:
            pairs:
              avg_minus: {value: 45%, cites: [REG/avg-minus]}
    """)
    with pytest.raises(BridgelawError) as exc:
        rulebook.load(path)
    e = exc.value
    assert (e.line, e.message) == (13, "parameter artificial.pairs.avg_minus: 45% is above 40%, the most 12C2(a) allows")


def test_only_a_laws_edition_declares_bounds(tmp_path):
    path = regulation(tmp_path, """\
        paragraphs:
          REG/avg-plus:
            text: Average plus is 65%.
        parameters:
          artificial:
            pairs:
              avg_plus: {value: 65%, at_least: 50%, cites: [REG/avg-plus]}
    """)
    with pytest.raises(BridgelawError) as exc:
        rulebook.load(path)
    assert "bounds (at_least, at_most) are the Law's" in exc.value.message


def test_a_bound_within_the_law_is_accepted():
    book = rulebook.get("wbf-2017").with_settings(["artificial.pairs.avg_plus=65%"])
    assert book.parameters["artificial.pairs.avg_plus"] == F(13, 20)


# --- explanations show the value used -----------------------------------------------------------------

def test_explain_text_shows_the_value_actually_used():
    case = load_case("case.yaml", text=ARTIFICIAL_MP)
    book = rulebook.get("wbf-2017").with_settings(["artificial.pairs.avg_plus=65%"])
    r = rule_case(case, book)
    assert r.scores["NS"].value == F(65, 100) * 20
    line = next(s for s in step_lines(r) if "rule avg-plus-pairs" in s)
    assert "gets average plus, 65% of the available matchpoints (12C2(a) says at least 60%)" in line
    plain = rule_case(case, rulebook.get("wbf-2017"))
    assert any("gets average plus, 60% of the available matchpoints" in s for s in step_lines(plain))


def test_explain_command_fills_the_template(capsys):
    code, out, _ = run(capsys, "explain", "avg-plus-pairs", "--rulebook", "wbf-2017")
    assert code == 0 and "average plus, 60% of the available matchpoints" in out and "{" not in out


def test_unknown_template_parameter_is_a_load_error(tmp_path):
    path = regulation(tmp_path, """\
        paragraphs:
          REG/x:
            text: x
        rules:
          - id: avg-plus-pairs
            replaces: avg-plus-pairs
            stage: artificial
            when: {all: [{eq: [responsibility, in-no-way-at-fault]}, {eq: [scoring, matchpoints]}]}
            outcome: avg-plus
            award: {score: artificial.pairs.avg_plus}
            explain: Average plus is {artificial.pairs.avg_pluss}.
            cites: [REG/x]
    """)
    with pytest.raises(BridgelawError) as exc:
        rulebook.load(path)
    e = exc.value
    assert "explain shows {artificial.pairs.avg_pluss}, which is not a parameter" in e.message
    assert e.line == 17 and "artificial.pairs.avg_plus" in (e.suggestion or "")


# --- Ruling.assigned ------------------------------------------------------------------------------------

def test_assigned_weighted_both_sides_share_the_weights():
    r = ruled(ACBL_2014, "wbf-2007", as_of=None)
    weights = [(w, o.text) for w, o in r.assigned["NS"]]
    assert weights == [(F(1, 10), "6H= S"), (F(1, 10), "5H= S"), (F(1, 5), "4H= S"), (F(1, 10), "3NT= N"),
                       (F(1, 5), "4SX-2 E"), (F(1, 5), "4H-1 S"), (F(1, 10), "5HX-1 S")]
    assert r.assigned["EW"] == r.assigned["NS"]


def test_assigned_threshold_is_one_outcome_per_side():
    r = ruled(ACBL_2014)
    assert {s: [(w, o.text) for w, o in parts] for s, parts in r.assigned.items()} == \
        {"NS": [(F(1), "4H= S")], "EW": [(F(1), "5H= S")]}


def test_assigned_poll_carries_the_benefit_of_doubt():
    r = ruled(POLL_11B)
    assert r.outcome == "none-self-inflicted"
    assert [(w, o.text) for w, o in r.assigned["NS"]] == [(F(3, 5), "6D= S"), (F(2, 5), "3NT+2 S")]
    assert r.assigned["EW"] == r.assigned["NS"]


def test_assigned_is_none_for_an_artificial_score():
    assert ruled(ARTIFICIAL_MP).assigned is None
    r = ruled(CASES / "wbf-commentary-2017" / "example-13.yaml", "wbf-2017")
    assert r.outcome == "all-self-inflicted"
    # both sides' B and B' as formed, whichever of them the damage stage then awarded (issue 22: Ruling.formed;
    # Ruling.assigned is now each side's award as results)
    assert set(r.formed) == {"NS", "EW"} and r.formed["NS"] == r.formed["EW"]
    nos, os = r.nos.side, r.os.side
    assert r.assigned[nos] == [(F(1), r.case.model.table_result)] and r.assigned[os] == r.formed[os]


@pytest.mark.parametrize("path", sorted((CASES / "wbf-commentary-2017").glob("*.yaml")), ids=lambda p: p.stem)
def test_json_trace_has_one_object_per_record(path):
    r = ruled(path)
    data = json.loads(json.dumps(as_dict(r)))
    assert [t["kind"] for t in data["trace"]] == [rec.kind for rec in r.trace.entries]
    assert [c["paragraph"] for c in data["citations"]] == r.trace.citations()
