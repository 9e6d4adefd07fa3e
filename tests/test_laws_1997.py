"""The 1997 Laws reviewed again (issue 31): disallowed results never weighted, 12C3 the appeals committee's
power (the Director's by the WBF's dated directive of January 2000), Law 84D for the benefit of doubt, Law 64
with its 1997 64A2 second trick, texts that say when they are not confirmed; and (issue 29) the 1997
rulebooks score matchpoints without a profile.

Sources: the EBU White Book 2004, 64.2 (the 1997 64A2 quoted word for word, with the WBF Laws Committee's
reading of 12 January 2000); the WBF Laws Committee's note on the Bermuda directive (blml, 16 July 2007); the
cases in cases/laws-1997/ and cases/law64c/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError
from bridgelaw.ruling import revoke as rv
from bridgelaw.ruling.build import rule_case
from bridgelaw.ruling.case import load_case

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases" / "laws-1997"
EDITIONS_1997 = ("wbf-1997", "acbl-1997", "dbf-1997", "wbf-appeals-2000")


# --- disallowed results ------------------------------------------------------------------------

@pytest.mark.parametrize("name", EDITIONS_1997)
def test_every_1997_expectation_rule_counts_only_legal_results(name):
    book = rulebook.get(name)
    rules = book.rules_for("expectation")
    assert rules and all(r.apply["outcomes"] == "legal" for r in rules), [r.id for r in rules]


def test_the_disallowed_6s_is_not_weighted_by_the_committee():
    case = load_case(CASES / "disallowed-6s-committee.yaml")
    r = rule_case(case, rulebook.get("wbf-1997"))
    assert (r.sides["EW"].value, r.sides["NS"].value) == (pytest.approx(0.5), pytest.approx(-0.5))
    assert str(r.sides["EW"].value) == "1/2"
    assert [o.text for _, o in r.formed["EW"]] == ["4S+2 N", "4S+1 N"]
    dbf = rule_case(case, rulebook.get("dbf-1997"))
    assert (dbf.sides["EW"].value, dbf.sides["NS"].value) == (1, -1)       # rounded for the non-offending side


# --- 12C3: the committee's power; the Director's from January 2000 at WBF events --------------------

def test_the_director_alone_may_not_weight_under_the_1997_laws(tmp_path, capsys):
    text = (ROOT / "cases" / "laws-1997" / "director-poll-wbf-2000.yaml").read_text()
    text = text.replace("rulebook: wbf-appeals-2000", "rulebook: wbf-1997").replace("jurisdiction: wbf", "")
    path = tmp_path / "case.yaml"
    path.write_text(text)
    assert main(["rule", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "rule director-judges-likely of wbf-1997 selects by the words likely / at all probable (12C2, 12C3)" in err
    assert "an appeals committee's power (12C3), not his" in err and "adjusted_by: committee" in err
    # the same poll as the committee's: weighted, citing 12C3 and 84D
    path.write_text(text.replace("rulebook: wbf-1997", "rulebook: wbf-1997\nadjusted_by: committee"))
    assert main(["rule", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["nos"]["exact"] == "6" and [c["paragraph"] for c in data["citations"]][-2:] == ["12C3", "84D"]


def test_an_appeal_that_changed_the_ruling_is_the_committee_s():
    case = load_case(ROOT / "cases" / "published" / "dbf-2004-03-au-5.yaml")
    assert case.model.adjusted_by is None and case.by_committee
    r = rule_case(case, rulebook.get("wbf-1997"))
    assert "12C3" in r.trace.citations() and str(r.sides["NS"].value) == "13/5"   # weighted by the committee, exact


def test_the_wbf_directive_is_a_dated_layer_in_the_wbf_calendar():
    from bridgelaw.rulebook import calendar
    layer = rulebook.get("wbf-appeals-2000")
    assert layer.extends == "wbf-1997" and str(layer.effective_from) == "2000-01-01"
    assert str(layer.effective_until) == "2007-12-31"
    assert calendar.in_force("wbf", layer.effective_from) == "wbf-appeals-2000"
    assert calendar.in_force("wbf", layer.effective_until) == "wbf-appeals-2000"
    assert calendar.in_force("wbf", layer.effective_from.replace(year=1999)) == "wbf-1997"
    r = rule_case(load_case(CASES / "director-poll-wbf-2000.yaml"), layer)
    assert r.nos.value == 6 and "WBF-AC/2000" in r.trace.citations()


# --- 84D, not 12C3, for the benefit of doubt -----------------------------------------------------

def test_the_benefit_of_doubt_is_cited_to_84d_in_1997():
    r = rule_case(load_case(CASES / "director-poll-wbf-2000.yaml"), rulebook.get("wbf-appeals-2000"))
    (warning,) = [w for w in r.warnings if w.startswith("no benefit of doubt given")]
    assert "(12C3, 84D, WBF-AC/2000) has the Director rule any doubtful point" in warning
    for name in ("wbf-1997", "wbf-2007", "wbf-2017"):
        book = rulebook.get(name)
        assert "84D" in book.paragraphs and "84D" in book.infractions, name


# --- Law 64 in 1997 ------------------------------------------------------------------------------

def _transfer(book: str, **facts) -> int:
    return rv.transfer(rulebook.get(book), rv.Revoke(**{"trick": 5, "offender": "W", **facts})).tricks


@pytest.mark.parametrize("facts, tricks", [
    ({"offender_won": False, "side_won": False, "later_tricks": 4, "legal_card_won": True}, 2),   # the EBU forum case
    ({"offender_won": False, "side_won": True, "later_tricks": 1, "legal_card_won": True}, 2),    # the revoke trick is the further one
    ({"offender_won": False, "side_won": False, "later_tricks": 1, "legal_card_won": True}, 1),   # no further trick: one (WBFLC 2000)
    ({"offender_won": False, "side_won": True, "later_tricks": 3, "legal_card_won": False}, 1),
    ({"offender_won": True, "side_won": True, "later_tricks": 2}, 2),                              # 64A1, as in 2007
    ({"offender_won": False, "side_won": False, "later_tricks": 0}, 0),                            # 64B1
])
def test_the_1997_64a2_transfers_a_second_trick_for_a_card_that_could_have_followed(facts, tricks):
    assert _transfer("wbf-1997", **facts) == tricks
    if "legal_card_won" in facts:       # the 2007 and 2017 64A2 have no such clause: one trick, the fact unread
        assert _transfer("wbf-2007", **facts) == _transfer("wbf-2017", **facts) == min(tricks, 1)


def test_a_1997_revoke_without_the_fact_names_it():
    with pytest.raises(BridgelawError, match=r"needs the fact 'legal_card_won'"):
        _transfer("wbf-1997", offender_won=False, side_won=True, later_tricks=3)
    assert _transfer("wbf-2017", offender_won=False, side_won=True, later_tricks=3) == 1   # never asked in 2017
    with pytest.raises(rv.RevokeError, match="at least one later trick"):
        rv.Revoke(trick=5, offender="W", offender_won=False, side_won=True, later_tricks=0, legal_card_won=True)


def test_both_sides_revoking_in_1997_restores_equity_as_if_neither_had():
    book = rulebook.get("wbf-1997")
    a = rv.Revoke(trick=3, offender="W", offender_won=True, side_won=True, later_tricks=2)
    b = rv.Revoke(trick=6, offender="N", offender_won=True, side_won=True, later_tricks=3)
    t = rv.transfer(book, a, on_board=[a, b])
    assert (t.tricks, t.rule.id, t.rule.cites) == (0, "revoke-both-sides", ("64C", "WBFLC/2001-11-01"))


def test_a_1997_revoke_case_is_empowered_by_64_and_cites_64c():
    case = load_case(ROOT / "cases" / "law64c" / "ebu-forum-revoke-one-trick.yaml")
    r = rule_case(case, rulebook.get("wbf-1997"))
    assert r.nos.value == 10 and r.empowering and r.trace.citations()[0] == "64C"
    assert "64A2" in r.trace.citations()


# --- texts: confirmed or not, and said so --------------------------------------------------------

def test_an_unconfirmed_text_says_so_in_the_ruling_and_the_list(capsys):
    assert main(["rule", str(CASES / "poll-benefit-of-doubt-84d.yaml")]) == 0
    out = capsys.readouterr().out
    law = out[out.index("\nLaw\n"):]
    assert "  84D   (text not confirmed) [English text not reached; in substance:]" in law
    assert main(["rule", str(CASES / "poll-benefit-of-doubt-84d.yaml"), "--format", "json"]) == 0
    cites = {c["paragraph"]: c for c in json.loads(capsys.readouterr().out)["citations"]}
    assert cites["84D"]["confirmed"] is False and "1997 Law 84" in cites["84D"]["tried"]
    assert cites["12C3"]["confirmed"] is False and "tried" in cites["12C3"]
    assert main(["rulebooks", "--format", "json"]) == 0
    listed = {b["id"]: b["sourced"] for b in json.loads(capsys.readouterr().out)}
    assert {"64A2", "84D", "90A"} <= set(listed["wbf-1997"]["not_confirmed"])
    assert "92B" not in listed["wbf-1997"]["not_confirmed"]                         # read in an English text
    assert len(listed["wbf-1997"]["not_confirmed"]) == listed["wbf-1997"]["confirmed"][1] - listed["wbf-1997"]["confirmed"][0]
    book = rulebook.get("wbf-1997")
    p = book.paragraphs["90A"]
    assert not p.confirmed and p.text.startswith("[English text not reached; in substance:]")
    assert "in addition to implementing the penalty provisions" not in p.text       # the reconstruction withdrawn


# --- issue 29: matchpoints without a profile --------------------------------------------------

@pytest.mark.parametrize("name", EDITIONS_1997)
def test_the_1997_rulebooks_score_matchpoints_without_a_profile(name, capsys):
    event = ROOT / "tests" / "data" / "events" / "compscore-mp-pairs-mitchell-02-adjusted.xml"
    assert main(["event", str(event), "--rulebook", name, "--profile", "none", "--as-of", "2005-01-01",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"][0]["rulebook"]["id"] in (name, f"{name}+learnt")     # the file's rounding may be learnt
    book = rulebook.get(name).at(rulebook.get(name).effective_from)
    assert book.parameters["fieldscore.neuberg.round_mode"] == "toward-average"
    assert "fieldscore.neuberg.round_mode" in book.parameter_sources or name != "wbf-1997"
