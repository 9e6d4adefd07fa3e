"""Issue 5: rulebook inheritance, dated values, what-if, compare, diff, explain, lint, schema."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import textwrap
from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw.render.ruling import step_lines
from bridgelaw.rulebook import lint
from bridgelaw import rulebook
from bridgelaw.ruling.case import load_case
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.ruling.build import rule_case

RULES = rulebook.rules_dir()
CASES = Path(__file__).resolve().parent.parent / "cases"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    """A rules folder with the two WBF editions, to which a test adds regulations."""
    for name in ("wbf-2007", "wbf-2017"):
        shutil.copy(RULES / f"{name}.yaml", tmp_path / f"{name}.yaml")
    return tmp_path


def regulation(rules: Path, name: str, body: str, extends: str = "wbf-2017") -> Path:
    path = rules / f"{name}.yaml"
    path.write_text(textwrap.dedent(f"""\
        rulebook: {name}
        title: A regulation
        authority: A national body
        version: "1"
        effective: {{from: 2018-01-01}}
        extends: {extends}
    """) + textwrap.dedent(body))
    return path


def load_error(path: Path) -> BridgelawError:
    with pytest.raises(BridgelawError) as exc:
        rulebook.load(path)
    return exc.value


# --- inheritance -----------------------------------------------------------------------------------

def test_regulation_inherits_overrides_and_cites(rules):
    path = regulation(rules, "nba", """\
        paragraphs:
          NBA/1: {text: Average plus is 65%.}
        parameters:
          artificial:
            pairs:
              avg_plus: {value: 65%, cites: [NBA/1]}
    """)
    book = rulebook.load(path)
    base = rulebook.load(rules / "wbf-2017.yaml")
    assert book.chain == ["wbf-2017", "nba"] and book.extends == "wbf-2017"
    assert [r.id for r in book.rules] == [r.id for r in base.rules]
    assert book.parameters["artificial.pairs.avg_plus"] == F(13, 20)
    assert book.parameters["artificial.pairs.avg_minus"] == F(2, 5)
    assert book.sha256 != base.sha256
    assert book.dated["artificial.pairs.avg_plus"][0].origin.startswith("nba (")


def test_replace_and_remove_rules(rules):
    path = regulation(rules, "nba", """\
        paragraphs:
          NBA/2: {text: No knockout averaging.}
        remove:
          - {rule: knockout-average-imps, cites: [NBA/2]}
        rules:
          - id: avg-plus-pairs
            replaces: avg-plus-pairs
            stage: artificial
            when: {all: [{eq: [responsibility, in-no-way-at-fault]}, {eq: [scoring, matchpoints]}]}
            outcome: avg-plus
            award: {score: 7/10}
            explain: Seventy percent.
            cites: [NBA/2]
    """)
    book = rulebook.load(path)
    assert "knockout-average-imps" not in {r.id for r in book.rules}
    rule = book.rule("avg-plus-pairs")
    assert rule.award["score"].text == "7/10"
    assert rule.history[0].startswith("defined in wbf-2017 (")
    assert rule.history[1].startswith("replaces avg-plus-pairs in nba (")


def test_parameter_override_without_citation(rules):
    path = regulation(rules, "nba", """\
        parameters:
          artificial:
            pairs: {avg_plus: 65%}
    """)
    e = load_error(path)
    assert (e.line, e.column) == (9, 23)
    assert "overrides an inherited value: give the regulation paragraph" in e.message


def test_extends_cycle(rules):
    regulation(rules, "aaa", "", extends="bbb")
    regulation(rules, "bbb", "", extends="aaa")
    e = load_error(rules / "aaa.yaml")
    assert "rulebook extends itself: aaa → bbb → aaa" in e.message


def test_extends_unknown_rulebook(rules):
    e = load_error(regulation(rules, "nba", "", extends="wbf-2071"))
    assert (e.line, e.column) == (6, 10)
    assert "extends 'wbf-2071'" in e.message and e.suggestion == "did you mean 'wbf-2017'?"


def test_replaces_nothing(rules):
    e = load_error(regulation(rules, "nba", """\
        rules:
          - id: new-rule
            replaces: no-such-rule
            stage: event
            when: {eq: [event, pairs]}
            award: {NS: NS, EW: EW}
            explain: x
            cites: [12C4]
    """))
    assert (e.line, e.column) == (9, 15)
    assert "replaces 'no-such-rule'" in e.message


def test_remove_nothing_and_same_id_without_replaces(rules):
    e = load_error(regulation(rules, "nba", """\
        remove:
          - {rule: split-damages, cites: [12C4]}
    """))
    assert e.message.startswith("remove: 'split-damages' is not a rule of wbf-2017")
    assert e.suggestion == "did you mean 'split-damage'?"
    e = load_error(regulation(rules, "nbb", """\
        rules:
          - id: split-damage
            stage: event
            when: {eq: [event, pairs]}
            award: {NS: NS, EW: EW}
            explain: x
            cites: [12C4]
    """))
    assert "already defined in wbf-2017" in e.message and "replaces: split-damage" in e.message


def test_removing_an_overridden_rule_leaves_a_dangling_override(rules):
    e = load_error(regulation(rules, "nba", """\
        remove:
          - {rule: avg-plus-pairs, cites: [12C2(a)]}
    """))
    assert "leaves rule 'session-above-60-pairs' overriding nothing" in e.message


def test_overlapping_dated_values(rules):
    e = load_error(regulation(rules, "nba", """\
        paragraphs:
          NBA/1: {text: x}
        parameters:
          poll:
            minimum:
              - {value: 5, cites: [NBA/1], effective: {until: 2020-12-31}}
              - {value: 7, cites: [NBA/1], effective: {from: 2020-06-01}}
    """))
    assert "two values in force at once" in e.message


# --- dates ----------------------------------------------------------------------------------------------

def test_dated_parameter_resolves_by_date(rules):
    book = rulebook.load(regulation(rules, "nba", """\
        paragraphs:
          NBA/1: {text: x}
        parameters:
          poll:
            minimum:
              - {value: 5, cites: [NBA/1], effective: {until: 2020-12-31}}
              - {value: 7, cites: [NBA/1], effective: {from: 2021-01-01}}
    """))
    assert book.at(dt.date(2020, 12, 31)).parameters["poll.minimum"] == 5
    assert book.at(dt.date(2021, 1, 1)).parameters["poll.minimum"] == 7
    assert [(n, d.value) for n, d in book.at(dt.date(2021, 1, 1)).dated_in_use()] == [("poll.minimum", 7)]


def test_acbl_election_ends_2015():
    case = load_case(CASES / "jurisdictions/acbl-likely-probable-2014.yaml")
    acbl = rulebook.get("acbl-2007")
    before = rule_case(case, acbl, dt.date(2015, 12, 31))
    after = rule_case(case, acbl, dt.date(2016, 1, 1))
    assert (before.sides["NS"].value, before.sides["EW"].value) == (0, -1)
    assert (after.sides["NS"].value, after.sides["EW"].value) == (F(-13, 5), F(13, 5))
    assert "ACBL/12C1e-election" in [p.ref for p in before.citations]
    assert "ACBL/revocation-2016" in [p.ref for p in after.citations]
    assert step_lines(before)[0].startswith("Rulebook acbl-2007 2016.1 as of 2015-12-31")


def test_as_of_before_the_first_effective_date(capsys):
    code, out, err = run(capsys, "rule", str(CASES / "wbf-commentary-2017/example-07.yaml"), "--as-of", "2016-01-01")
    assert code == 2 and out == ""
    assert "rulebook wbf-2017 is in force from 2017-03-01; 2016-01-01 is earlier" in err
    code, _, err = run(capsys, "rule", str(CASES / "wbf-commentary-2017/example-07.yaml"), "--as-of", "2016-13-01")
    assert code == 2 and "--as-of '2016-13-01' is not a date" in err


# --- what-if --------------------------------------------------------------------------------------------

SESSION = str(CASES / "law12-provisions/average-plus-second-board.yaml")


def test_set_changes_a_ruling(capsys):
    code, out, _ = run(capsys, "rule", SESSION, "--set", "artificial.imps.avg_plus=4", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["sides"]["NS"]["exact"] == "4" and data["rulebook"]["id"] == "wbf-2017+set"


def test_set_unknown_parameter_and_wrong_kind(capsys):
    code, _, err = run(capsys, "rule", SESSION, "--set", "artificial.imps.avg_pluss=4")
    assert code == 2 and "unknown parameter 'artificial.imps.avg_pluss'" in err
    assert "did you mean 'artificial.imps.avg_plus'?" in err
    code, _, err = run(capsys, "rule", SESSION, "--set", "multiple_boards.replacement=zero")
    assert code == 2 and "expected one of average, not-scored, got 'zero'" in err
    code, _, err = run(capsys, "rule", SESSION, "--set", "artificial.pairs.avg_plus=160%")
    assert code == 2 and "percentage from 0% to 100%" in err


def test_overlay(tmp_path, capsys):
    overlay = tmp_path / "proposal.yaml"
    overlay.write_text("parameters:\n  artificial:\n    imps: {avg_plus: 2}\n")
    code, out, _ = run(capsys, "rule", SESSION, "--overlay", str(overlay), "--format", "json")
    assert code == 0 and json.loads(out)["sides"]["NS"]["exact"] == "2"
    overlay.write_text("parameters:\n  artificial: [\n")
    code, out, err = run(capsys, "rule", SESSION, "--overlay", str(overlay))
    assert code == 2 and out == "" and err.startswith(f"bridgelaw: error: {overlay}:")
    assert "malformed YAML" in err


def test_check_with_a_proposed_change_shows_moved_rulings(capsys):
    code, out, _ = run(capsys, "check", str(CASES / "law12-provisions"), "--set", "artificial.imps.avg_plus=4")
    assert code == 1
    assert "NS: expected 3, got 4" in out


# --- compare, diff, explain, lint, schema ---------------------------------------------------------------

def test_compare_matrix_and_summary(capsys):
    code, out, _ = run(capsys, "compare", "--rulebooks", "wbf-2007,wbf-2017",
                       str(CASES / "law12-provisions/session-percentage-2017.yaml"),
                       str(CASES / "law12-provisions/average-plus-second-board.yaml"))
    assert code == 0
    assert "  wbf-2017               * artificial NS 14 8/25 MP EW 7 MP [12C2(c)]" in out
    assert "  wbf-2007               artificial NS +3 IMPs EW -3 IMPs [12C2(a), 12C2(b)]" in out
    assert ("wbf-2017 vs wbf-2007: 1 of 2 rulings change — 1 in the non-offending side's favour, 0 in the "
            "offending side's, 0 unclear; scores move by 1 matchpoint in all") in out


def test_compare_json_and_csv(capsys):
    case = str(CASES / "jurisdictions/acbl-likely-probable-2014.yaml")
    code, out, _ = run(capsys, "compare", "--rulebooks", "wbf-2007,acbl-2007,wbf-2017", case, "--format", "json")
    data = json.loads(out)
    cell = data["cases"][0]["rulings"]
    assert cell["acbl-2007"]["NS"]["exact"] == "0" and cell["acbl-2007"]["EW"]["exact"] == "-1"
    assert cell["acbl-2007"]["differs"] is True and cell["wbf-2017"] == {
        "out_of_scope": True, "reason": "wbf-2017 is in force from 2017-03-01; the case is dated 2014-03-01"}
    code, out, _ = run(capsys, "compare", "--rulebooks", "wbf-2007,acbl-2007", case, "--format", "csv")
    assert out.splitlines()[2].split(",")[1:5] == ["acbl-2007", "assigned", "0", "-1"]


def test_compare_unknown_rulebook(capsys):
    code, _, err = run(capsys, "compare", "--rulebooks", "wbf-2007,wbf-2071", SESSION)
    assert code == 2 and "unknown rulebook 'wbf-2071'" in err and "acbl-2007, dbf-1997, dbf-2007, ebl-2008-vp-proposal, ebl-2008, ebu, wbf-1997, wbf-2007, wbf-2017, wbf-appeals-2000, wbf-laws-committee-2007" in err


def test_diff_editions(capsys):
    code, out, _ = run(capsys, "diff", "wbf-2007", "wbf-2017")
    assert code == 0
    assert "  session.pairs.os_below: (unset) → 40%" in out
    assert "  + revoke-corrected (revoke)" in out          # 2017 Law 64B8 (both editions leave out illegal outcomes)
    assert "  + session-below-40-pairs (artificial)" in out
    assert "      cites: [12C1(b), 12C1(f)] → [12C1(e), 12C1(e)(i), 12C1(e)(ii)]" in out
    assert "  - 12C1(f)" in out


def test_explain_rule_along_the_chain(capsys):
    code, out, _ = run(capsys, "explain", "split-damage", "--rulebook", "ebu")
    assert code == 0
    assert "split-damage  (ebu 2017.2, stage damage)" in out
    assert "  award     nos = A + B - C" in out
    assert "    defined in wbf-2017 (" in out
    code, out, _ = run(capsys, "explain", "artificial.pairs.avg_plus", "--rulebook", "wbf-2017")
    assert "60%" in out and "wbf-2017 (" in out
    code, _, err = run(capsys, "explain", "split-damages")
    assert code == 2 and "did you mean 'split-damage'?" in err


def test_lint_shipped_rulebooks_are_clean():
    for name in rulebook.available():
        report = lint.lint(rulebook.get(name))
        assert report.findings == [], name


def test_lint_finds_gaps_and_overlaps(rules, capsys):
    regulation(rules, "nba", """\
        paragraphs:
          NBA/1: {text: x}
        remove:
          - {rule: no-damage, cites: [NBA/1]}
        rules:
          - id: generous
            stage: damage
            when: {all: [{given: A}, {lt: [A, B]}]}
            outcome: none-self-inflicted
            award: {nos: B, os: "B'"}
            explain: x
            cites: [NBA/1]
    """)
    report = lint.lint(rulebook.load(rules / "nba.yaml"))
    kinds = {(f.kind, tuple(f.rules)) for f in report.findings}
    assert ("gap", ()) in kinds
    assert ("overlap", ("all-self-inflicted", "generous")) in kinds
    gap = next(f for f in report.findings if f.kind == "gap")
    assert str(gap).startswith("gap: stage damage as of 2018-01-01: no rule applies for A=")
    code, out, _ = run(capsys, "lint", str(rules / "nba.yaml"))
    assert code == 1 and "overlap: stage damage" in out


@pytest.mark.parametrize("kind", ["case", "rulebook", "overlay", "traveller"])
def test_schema(kind, capsys):
    code, out, _ = run(capsys, "schema", kind)
    schema = json.loads(out)
    assert code == 0 and schema["type"] == "object" and schema["additionalProperties"] is False
    if kind == "case":
        assert {"title", "scoring", "board", "without_infraction", "artificial", "expect"} <= set(schema["properties"])
    if kind == "rulebook":
        assert {"rulebook", "extends", "rules", "remove", "parameters"} <= set(schema["properties"])


def test_check_all_counts_unreviewed(capsys):
    code, out, _ = run(capsys, "check", "--rulebook", "all", str(CASES / "jurisdictions"))
    assert code == 0
    assert out.splitlines()[-1] == "37 passed, 0 failed, 4 unreviewed (NEW)"   # 37: with the calendar cases (issue 31)
