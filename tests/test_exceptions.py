"""Exceptions as a tree (transitive overrides, `explain --exceptions`), the shared rule layer of the
two Laws editions, and one hit policy: durable_rules and the plain evaluator agree on every input
the lint searches."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from bridgelaw.rulebook import conditions, lint
from bridgelaw import rulebook
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.rulebook import resolve
from bridgelaw.rulebook.stages import STAGES
from bridgelaw.core.yamlio import load_yaml

REPO = Path(__file__).resolve().parent.parent


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# the further-board rules are the WBF Laws Committee's advice: its layer on the 2017 Laws (issue 12).
# A further board scores average instead of average plus, but a session above 60% keeps its session
# score (12C2(d) lets a regulation vary (a) and (b), not (c): issue 21): the committee layer replaces
# session-above-60-* to win over its further-board rules — over the not-scored one too (issue 31), which
# covers pairs and teams and so sits under both average-plus rules.
WBF_2017_ARTIFICIAL = """\
wbf-laws-committee-2017 2017.1, stage artificial (unique): 13 rules; exceptions are indented under the rule they override
  avg-plus-pairs  [12C2(a)]  avg-plus
    └ further-board-average-pairs  [12C2(d), WBF-LC/average-plus]  average
      └ session-above-60-pairs  [12C2(c), 12C2(d), WBF-LC/average-plus]  session-score
    └ further-board-not-scored  [12C2(d), WBF-LC/average-plus]  not-scored
      └ session-above-60-pairs  [12C2(c), 12C2(d), WBF-LC/average-plus]  session-score
      └ session-above-60-imps  [12C2(c), 12C2(d), WBF-LC/average-plus]  session-score
  average-pairs  [12C2(a)]  average
  avg-minus-pairs  [12C2(a)]  avg-minus
    └ session-below-40-pairs  [12C2(c)]  session-score
  avg-plus-imps  [12C2(a), 12C2(b)]  avg-plus
    └ further-board-average-imps  [12C2(d), WBF-LC/average-plus]  average
      └ session-above-60-imps  [12C2(c), 12C2(d), WBF-LC/average-plus]  session-score
    └ further-board-not-scored  [12C2(d), WBF-LC/average-plus]  not-scored
      └ session-above-60-pairs  [12C2(c), 12C2(d), WBF-LC/average-plus]  session-score
      └ session-above-60-imps  [12C2(c), 12C2(d), WBF-LC/average-plus]  session-score
  average-imps  [12C2(a)]  average
  avg-minus-imps  [12C2(a), 12C2(b)]  avg-minus
    └ session-below-40-imps  [12C2(c)]  session-score
"""


def test_explain_exceptions_wbf_2017(capsys):
    code, out, _ = run(capsys, "explain", "--exceptions", "artificial", "--rulebook", "wbf-laws-committee-2017")
    assert code == 0
    assert out == WBF_2017_ARTIFICIAL
    code, out, _ = run(capsys, "explain", "--exceptions", "artificial", "--rulebook", "wbf-2017")
    assert code == 0 and "10 rules" in out and "further-board" not in out      # the Laws alone set no limit


def test_explain_exceptions_every_rulebook_and_unknown_stage(capsys):
    code, out, _ = run(capsys, "explain", "--exceptions", "artificial")
    assert code == 0 and [line.split(" ")[0] for line in out.splitlines() if "stage artificial" in line] == \
        list(rulebook.available())
    assert "    └ further-board-not-scored  [WBF-LC/average-plus]  not-scored\n" in out   # the 2007 layer
    assert "      └ session-above-60-pairs  [12C2(c), WBF-LC/average-plus]  session-score\n" in out   # wins over it
    code, _, err = run(capsys, "explain", "--exceptions", "artificail")
    assert code == 2 and "unknown stage 'artificail'" in err and "did you mean 'artificial'?" in err


def test_overrides_are_transitive():
    book = rulebook.get("wbf-laws-committee-2017")
    # session-above-60-pairs names only further-board-average-pairs; through it, it beats avg-plus-pairs
    assert book.rule("session-above-60-pairs").overrides == ("further-board-average-pairs", "further-board-not-scored")
    assert book.beats("session-above-60-pairs") == {"further-board-average-pairs", "further-board-not-scored",
                                                    "avg-plus-pairs", "avg-plus-imps"}
    d = book.decision("artificial", {"responsibility": "in-no-way-at-fault", "other_responsibility": "directly-at-fault",
                                     "scoring": "matchpoints", "session": F(7, 10), "boards": F(1)})
    assert d.held == ("avg-plus-pairs", "session-above-60-pairs")
    assert d.overridden == {"avg-plus-pairs": "session-above-60-pairs"}
    assert d.rule.id == "session-above-60-pairs"
    d = book.decision("artificial", {"responsibility": "in-no-way-at-fault", "other_responsibility": "directly-at-fault",
                                     "scoring": "matchpoints", "session": None, "boards": F(3)})
    assert d.held == ("avg-plus-pairs", "further-board-average-pairs")
    assert d.overridden == {"avg-plus-pairs": "further-board-average-pairs"}
    assert d.rule.id == "further-board-average-pairs"


def test_resolve_is_the_one_hit_policy():
    artificial, penalty = STAGES["artificial"], STAGES["penalty"]
    beats = {"b": frozenset({"a"}), "c": frozenset({"b", "a"})}.get
    assert resolve(artificial, ["a", "c"], lambda r: beats(r) or frozenset()).winners == ("c",)
    assert resolve(artificial, ["a", "x"], lambda r: frozenset()).problem == "overlap"
    assert resolve(artificial, [], lambda r: frozenset()).problem == "gap"
    assert resolve(penalty, [], lambda r: frozenset()).problem is None       # optional stage


# --- the shared layer: no rule copied between the two editions -----------------------------------

def _rules_in(path: Path) -> dict[str, dict]:
    return {r["id"]: r for r in (load_yaml(path).tree.get("rules") or [])}


def test_the_editions_copy_no_rule():
    r07, r17 = _rules_in(REPO / "rules" / "wbf-2007.yaml"), _rules_in(REPO / "rules" / "wbf-2017.yaml")
    assert [i for i in r07 if i in r17 and r07[i] == r17[i]] == []
    shared = _rules_in(REPO / "rules" / "shared" / "wbf-law12.yaml")
    assert len(shared) == 21 and not set(shared) & (set(r07) | set(r17))   # 21: Law 90 at pairs and teams (issue 22)
    for edition in ("wbf-2007", "wbf-2017"):
        book = rulebook.get(edition)
        assert set(shared) <= {r.id for r in book.all_rules}
        assert book.rule("no-damage").history[0].startswith(f"defined in {edition} (shared layer wbf-law12) "
                                                             "(rules/shared/wbf-law12.yaml:")


def test_unknown_shared_layer(tmp_path):
    text = (REPO / "rules" / "wbf-2017.yaml").read_text(encoding="utf-8").replace("include: [wbf-law64, wbf-law12]",
                                                                                  "include: [wbf-law64, wbf-law21]")
    (tmp_path / "wbf-2017.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(BridgelawError) as exc:
        rulebook.load(tmp_path / "wbf-2017.yaml")
    e = exc.value
    assert e.message.startswith("no shared layer 'wbf-law21' in ")
    assert e.line == text.splitlines().index("include: [wbf-law64, wbf-law21]   # the rules both Laws editions share: "
                                             "rules/shared/wbf-law64.yaml, wbf-law12.yaml") + 1
    assert "did you mean 'wbf-law12'?" in (e.suggestion or "")


# --- durable_rules and the plain evaluator agree ----------------------------------------------------

@pytest.mark.parametrize("name", sorted(rulebook.available()))
def test_durable_rules_and_plain_evaluator_agree_on_every_lint_input(name):
    book = rulebook.get(name)
    checked = 0
    for day in lint._days(book):
        view = book.at(day)
        for stage in STAGES.values():
            rules = view.rules_for(stage.id)
            if not rules:
                continue
            evaluator = view.evaluator(stage.id)
            for facts in lint.inputs(stage, view):
                env = {**view.parameters, **facts}
                plain = [r.id for r in rules if conditions.evaluate(r.condition, env)]
                assert evaluator.applicable(env) == plain, (name, day, stage.id, facts)
                checked += 1
    # the 1997 Law 12 has fewer stages' rules (no session, knockout or individual provisions): fewer inputs
    assert checked > (700 if book.chain[0] == "wbf-1997" else 900)
