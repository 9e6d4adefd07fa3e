"""Rulings as tournament directors and appeals committees publish them (issue 22): side names as TDs
write them, sources printed by their title, assigned results without a field (table points), the
result standing when a finding defeats the infraction, procedural penalties at every form of
scoring, judgement words, the 1997 Laws.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from bridgelaw import rulebook
from bridgelaw.core.errors import BridgelawError
from bridgelaw.render import ruling as render
from bridgelaw.ruling.build import rule_case
from bridgelaw.ruling.case import load_case

IMPS = """\
title: Test case
rulebook: wbf-2017
scoring: imps
board: {number: 7, vulnerability: NS}
non_offending: NS
table_result: 5HX-2 N
other_table: 3S+1 W
without_infraction: 4H-1 N
"""


def case(text: str, name: str = "case.yaml"):
    return load_case(name, text=text)


def rule(text: str, book: str | None = None, **kw):
    c = case(text)
    return c, rule_case(c, rulebook.get(book or c.model.rulebook), **kw)


# --- side names as TDs write them -------------------------------------------------------------

@pytest.mark.parametrize("written,side", [("N-S", "NS"), ("North-South", "NS"), ("north south", "NS"),
                                          ("N/S", "NS"), ("E-W", "EW"), ("East-West", "EW"), ("e/w", "EW")])
def test_non_offending_as_tds_write_it(written, side):
    c = case(IMPS.replace("non_offending: NS", f"non_offending: {written}"))
    assert c.model.non_offending == side and c.nos == side


def test_a_side_that_is_no_side_is_still_refused():
    with pytest.raises(BridgelawError) as e:
        case(IMPS.replace("non_offending: NS", "non_offending: North-East"))
    assert (e.value.line, e.value.column) == (5, 16)


def test_appeal_and_infraction_by_a_side():
    c = case(IMPS + "infraction: {law: 16B1, by: E-W, findings: {suggested_over_a_logical_alternative: true}}\n"
             "appeal: {by: North-South, decision: upheld}\n")
    assert c.model.infraction.by == "EW" and c.model.appeal.by == "NS"


# --- sources by title ---------------------------------------------------------------------------

def test_a_published_rulings_source_is_printed_by_its_title():
    text = IMPS.replace("title: Test case\n", "title: Test case\nsource:\n  body: DBF\n  publication: "
                        "Danmarks Bridgeforbunds Appelkomité\n  case: 03-AU-5\n  year: 2004\n"
                        "  url: https://bridge.dk/lov/ak/sager/03/au-5.htm\n")
    c, r = rule(text)
    line = "DBF, Danmarks Bridgeforbunds Appelkomité, case 03-AU-5 (2004) — https://bridge.dk/lov/ak/sager/03/au-5.htm"
    assert r.source == line
    assert f"Source: {line}" in render.text(r, c)


def test_no_corpus_case_names_a_seed_file():
    from pathlib import Path
    import re
    cases = Path(__file__).resolve().parent.parent / "cases"
    for path in cases.rglob("*.yaml"):
        c = load_case(path)
        assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", c.source or ""), path


# --- assigned rulings without a field: table points --------------------------------------------

ADJUSTED = """\
title: Adjusted to 4S making
rulebook: wbf-2017
scoring: imps
board: {number: 7, vulnerability: None}
non_offending: NS
table_result: 4S-1 N
without_infraction: 4S= N
"""


def test_a_single_assigned_result_without_the_other_table_is_ruled_in_table_points():
    c, r = rule(ADJUSTED)
    assert r.unit == "points" and r.outcome == "none-self-inflicted"
    assert (r.sides["NS"].value, r.sides["EW"].value) == (420, -420)
    assert {s: [(w, o.text) for w, o in parts] for s, parts in r.assigned.items()} == \
        {"NS": [(F(1), "4S= N")], "EW": [(F(1), "4S= N")]}
    text = render.text(r, c)
    assert "NS (non-offending):  4S= N, NS +420   [B]" in text
    assert "EW (offending):      4S= N, EW -420   [B']" in text
    assert "compared in table points from NS's view, as the Law's definition of damage compares table results" in text
    assert "teams (IMPs; ruled in table points, no field given)" in text


def test_the_same_case_with_the_other_table_gives_the_same_result_and_the_imps():
    _, points = rule(ADJUSTED)
    c, imps = rule(ADJUSTED + "other_table: 4S= N\n")
    assert imps.unit == "IMP" and imps.outcome == points.outcome
    assert imps.assigned == {s: [(w, o) for w, o in parts] for s, parts in points.assigned.items()} or \
        [(w, o.text) for w, o in imps.assigned["NS"]] == [(w, o.text) for w, o in points.assigned["NS"]]
    assert (imps.sides["NS"].value, imps.sides["EW"].value) == (0, 0)       # 4S= N against 4S= N
    from bridgelaw.ruling.scorer import Scorer
    scorer = Scorer(c)
    for side in ("NS", "EW"):
        assert points.scored(side, lambda o: scorer.score(o, side).value) == imps.sides[side].value


def test_a_split_award_is_a_signed_sum_of_results():
    text = ADJUSTED.replace("table_result: 4S-1 N", "table_result: 5SX-3 N") + \
        "serious_error: {kind: gambling, instead: 4S-1 N}\n"
    c, r = rule(text.replace("without_infraction: 4S= N", "without_infraction: 4S+1 N"))
    assert r.outcome == "split"
    ns = [(w, o.text) for w, o in r.assigned["NS"]]
    assert ns == [(F(1), "5SX-3 N"), (F(1), "4S+1 N"), (F(-1), "4S-1 N")]
    assert render.results_text(r, "NS") == "5SX-3 N (NS -500) + 4S+1 N (NS +450) − 4S-1 N (NS -50)"
    # against any other table the award is IMP(A) + IMP(B) − IMP(C): checked against the IMP ruling
    _, imps = rule(text.replace("without_infraction: 4S= N", "without_infraction: 4S+1 N") + "other_table: 3NT= S\n")
    assert imps.outcome == "split" and [(w, o.text) for w, o in imps.assigned["NS"]] == ns


def test_a_table_result_inside_a_weighted_expectation_needs_the_field():
    text = ADJUSTED.replace("without_infraction: 4S= N", "without_infraction:\n"
                            "  - {result: 4S= N, weight: 1/2}\n  - {result: 4S-2 N, weight: 1/2}")
    with pytest.raises(BridgelawError) as e:
        rule(text)
    assert "A (4S-1 N (-50)) and B (4S= N (+420), 4S-2 N (-100)) cannot be compared in table points" in e.value.message
    assert "other_table (IMPs) or field (matchpoints)" in e.value.expected
    _, r = rule(text + "other_table: 4S= N\n")                      # with the other table it is ruled
    assert r.outcome == "none-self-inflicted" and r.sides["NS"].value == F(-11, 2)


def test_a_rounding_rulebook_leaves_the_rounding_to_the_scoring_in_table_points():
    text = ADJUSTED.replace("rulebook: wbf-2017", "rulebook: ebl-2008").replace(
        "without_infraction: 4S= N", "without_infraction:\n  - {result: 4S= N, weight: 2/3}\n"
        "  - {result: 4S+1 N, weight: 1/3}")
    c, points = rule(text, as_of=None)
    assert points.rounding == {"NS": (1, "half-up"), "EW": (1, "half-up")}
    assert "rounded to the nearest 1 IMP when scored" in " ".join(render.step_lines(points))
    c2, imps = rule(text + "other_table: 4S-1 N\n")
    from bridgelaw.ruling.scorer import Scorer
    scorer = Scorer(c2)
    for side in ("NS", "EW"):
        assert points.scored(side, lambda o: scorer.score(o, side).value) == imps.sides[side].value
    assert imps.sides["NS"].value == 10         # 2/3 × IMP(470) + 1/3 × IMP(500) = 2/3 × 10 + 1/3 × 11 = 10 1/3 → 10


def test_every_corpus_ruling_is_its_results_and_weights_and_rules_alike_in_table_points():
    """For every corpus case with an other table or a field: each side's score is Σ weight × the score
    of its assigned results; and without the other table or field the case rules to the same results."""
    import re
    from pathlib import Path
    from bridgelaw.ruling.scorer import Scorer
    checked = twins = 0
    for path in sorted((Path(__file__).resolve().parent.parent / "cases").rglob("*.yaml")):
        c = load_case(path)
        names = [c.model.rulebook] + ([k for k in c.model.expect if k != c.model.rulebook]
                                      if isinstance(c.model.expect, dict) else [])
        for name in names:
            r = rule_case(c, rulebook.get(name))
            if r.assigned is None or r.unit == "points":
                continue
            scorer = Scorer(c)
            for side in ("NS", "EW"):
                assert r.scored(side, lambda o: scorer.score(o, side).value) == r.sides[side].value, (path, name)
                checked += 1
            text = path.read_text()
            twin = re.sub(r"(?ms)^field:.*?\]\n", "", re.sub(r"(?m)^other_table:.*\n", "", text))
            r2 = rule_case(load_case(str(path), text=twin), rulebook.get(name))
            if r2.unit != "points":                # its outcomes are scores in the event's unit
                continue
            assert {s: [(w, o.text) for w, o in p] for s, p in r2.assigned.items()} == \
                {s: [(w, o.text) for w, o in p] for s, p in r.assigned.items()}, (path, name)
            assert r2.rounding == r.rounding
            twins += 1
    assert checked >= 100 and twins >= 50


# --- no-infraction rulings: the finding that defeats the infraction ends the ruling ----------

UI = """\
title: Slow double, then a pull
rulebook: wbf-2017
scoring: imps
board: {number: 13, vulnerability: All}
non_offending: EW
infraction: {law: 16B1, by: N, findings: FINDINGS}
table_result: 4H= N
"""


def test_no_logical_alternative_the_result_stands_without_an_outcome_without_the_infraction():
    c, r = rule(UI.replace("FINDINGS", "{suggested_over_a_logical_alternative: false}"))
    assert r.outcome == "result-stands" and c.without is None
    assert (r.sides["NS"].value, r.sides["EW"].value) == (620, -620)
    assert [p.ref for p in r.citations] == ["16B1(a)", "16B3"]          # the law whose condition failed, no 12C1
    text = render.text(r, c)
    assert "Law 16B1 empowers an adjustment only if the player chose, from among logical alternatives, one " \
           "demonstrably suggested by the unauthorized information; the Director finds that it does not hold: " \
           "no adjustment, the table result stands" in text
    assert r.assigned == {"NS": [(1, c.model.table_result)], "EW": [(1, c.model.table_result)]}


def test_no_damage_found_the_result_stands():
    _, r = rule(UI.replace("FINDINGS", "{suggested_over_a_logical_alternative: true, damaged: false}"))
    assert r.outcome == "result-stands" and "12B1" not in [p.ref for p in r.citations]


def test_no_damage_needs_no_other_finding():
    _, r = rule(UI.replace("FINDINGS", "{damaged: false}"))           # the required finding is then not asked for
    assert r.outcome == "result-stands"


def test_when_the_law_empowers_the_outcome_without_the_infraction_is_needed():
    # a finding is false, so the case may leave B out; but 16B1 does not make it a condition of adjusting
    with pytest.raises(BridgelawError) as e:
        rule(UI.replace("FINDINGS", "{suggested_over_a_logical_alternative: true, could_have_been_aware: false}"))
    assert "missing required key 'without_infraction'" in e.value.message
    assert e.value.path == ("without_infraction",)


def test_a_21b3_case_cites_21b3_only():
    text = IMPS.replace("title: Test case\n", "title: Test case\ninfraction: {law: 21B3, by: EW}\n")
    _, r = rule(text)
    refs = [p.ref for p in r.citations]
    assert refs[0] == "21B3" and "21B1(a)" not in refs
    _, r21 = rule(text.replace("law: 21B3", "law: 21B"))               # the law named as a whole: both
    assert [p.ref for p in r21.citations][:2] == ["21B1(a)", "21B3"]


# --- judgement words: likely / at all probable ---------------------------------------------------

JUDGED = """\
title: Most favourable likely, most unfavourable at all probable
rulebook: acbl-2007
date: 2014-03-01
scoring: imps
board: {number: 11, vulnerability: None}
non_offending: NS
without_infraction:
  - {result: 6H= S, judged: at all probable}
  - {result: 4H+1 S, judged: likely}
  - {result: 3NT= N, judged: Likely}
  - {result: 4H-1 S, judged: at-all-probable}
"""


def test_acbl_12c1e_by_the_tds_words():
    c, r = rule(JUDGED)
    assert [x.judged for x in c.without["NS"]] == ["at-all-probable", "likely", "likely", "at-all-probable"]
    # NS: the most favourable result judged likely (6H= is only at all probable); EW: the most unfavourable
    # to EW at all probable — 6H= S
    assert {s: [(w, o.text) for w, o in p] for s, p in r.assigned.items()} == \
        {"NS": [(F(1), "4H+1 S")], "EW": [(F(1), "6H= S")]}
    assert (r.sides["NS"].value, r.sides["EW"].value) == (450, -980)          # table points, not balancing
    steps = render.step_lines(r)
    assert any("B = the most favourable result judged likely (more favourable from this end but judged less "
               "probable: 6H= S): 4H+1 S = 4H+1 S: NS +450" in s for s in steps)
    assert "4H+1 S (likely)" in render.text(r, c)


def test_a_weighting_rulebook_refuses_judgement_words():
    with pytest.raises(BridgelawError) as e:
        rule(JUDGED, "wbf-2007")
    assert "the results are judged likely / at all probable, not weighted: rule weighted-average of wbf-2007" \
        in e.value.message
    assert (e.value.line, e.value.column) == (8, 3)


def test_a_list_is_judged_or_weighted_not_both():
    with pytest.raises(BridgelawError) as e:
        case(JUDGED.replace("{result: 3NT= N, judged: Likely}", "{result: 3NT= N, weight: 1/2}"))
    assert "'3NT= N' has no judgement" in e.value.message and e.value.line == 10
    with pytest.raises(BridgelawError) as e:
        case(JUDGED.replace("judged: Likely}", "judged: likely, weight: 1/2}"))
    assert "weighted or judged" in e.value.message


def test_threshold_ties_are_broken_by_table_points():
    # +420 and +400 both score 0 IMPs against +410 (IMP of ±10): the reported contract is +420's
    text = """\
title: Two results that score alike
rulebook: acbl-2007
date: 2014-03-01
scoring: imps
board: {number: 1, vulnerability: None}
non_offending: NS
other_table: NS +410
without_infraction:
  - {result: 3NT= N, weight: 1/2}
  - {result: 4S= N, weight: 1/2}
"""
    _, r = rule(text)
    assert [o.text for _, o in r.assigned["NS"]] == ["4S= N"] and r.sides["NS"].value == 0
    _, r2 = rule(text.replace("  - {result: 3NT= N, weight: 1/2}\n  - {result: 4S= N, weight: 1/2}\n",
                              "  - {result: 4S= N, weight: 1/2}\n  - {result: 3NT= N, weight: 1/2}\n"))
    assert [o.text for _, o in r2.assigned["NS"]] == ["4S= N"]             # whatever the order written


# --- procedural penalties at every form of scoring ------------------------------------------------

PAIRS_PP = """\
title: Slow play, 10% of a top
rulebook: wbf-2017
scoring: matchpoints
board: {number: 3, vulnerability: None}
non_offending: NS
field: [NS +420, NS +420, NS +400, NS +170, NS -50, NS -50]
table_result: 4S= N
without_infraction: 4S= N
penalty: {side: E-W, amount: 10%}
"""


def test_a_fraction_of_a_top_at_pairs():
    c, r = rule(PAIRS_PP)
    assert (r.sides["NS"].value, r.sides["EW"].value) == (10, F(4, 5))     # EW 2 − 10% of 12; NS unchanged
    [p] = r.penalties
    assert (p.side, p.value, p.against, p.order, p.rule) == ("EW", F(6, 5), "board", "after-factoring",
                                                             "penalty-pair-or-team")
    assert "90A" in [x.ref for x in r.citations]
    text = render.text(r, c)
    assert "EW: procedural penalty 10% of a top = 1 1/5 MP (of the top 12), taken from EW's score: 2 − 1 1/5 = 4/5 " \
           "matchpoints; after-factoring (penalty.matchpoints.order)" in text
    assert "Procedural penalty, EW: 10% of a top = 1 1/5 MP, included in the score above" in text
    from bridgelaw.render import slip
    s = slip.build(r, c)
    assert s.penalties == ["Procedural penalty (Law 90A): EW: 10% of a top = 1 1/5 MP, included in the score above"]
    assert 'id="slip-penalty-0">Procedural penalty (Law 90A): EW: 10% of a top' in slip.html(s)
    data = render.as_dict(r, c)
    assert data["penalties"][0]["value"] == {"exact": "6/5", "value": 1.2} and data["penalties"][0]["unit"] == "%"


def test_imps_at_teams_and_vps_against_a_match():
    text = IMPS + "penalty: {side: EW, amount: 3 IMP}\n"
    _, r = rule(text)
    base = rule(IMPS)[1]
    assert r.sides["EW"].value == base.sides["EW"].value - 3 and r.sides["NS"].value == base.sides["NS"].value
    vp_text = IMPS + "match: {boards: 8, imps: {NS: 10, EW: 12}}\npenalty: {side: EW, amount: 1 VP}\n"
    _, rv = rule(vp_text)
    _, plain = rule(IMPS + "match: {boards: 8, imps: {NS: 10, EW: 12}}\n")
    assert rv.vp["EW"] == plain.vp["EW"] - 1 and rv.vp["NS"] == plain.vp["NS"]
    assert rv.sides["EW"].value == plain.sides["EW"].value                 # the board's IMPs are not changed
    from bridgelaw.render import slip
    for text_, line in ((text, "Procedural penalty (Law 90A): EW: 3 IMPs, included in the score above"),
                        (vp_text, "Procedural penalty (Law 90A): EW: 1 VP from the match")):
        c, ruled = rule(text_)
        assert slip.build(ruled, c).penalties == [line]
        assert "90A" in [p.ref for p in ruled.citations]


def test_in_table_points_a_penalty_is_left_to_the_scoring():
    _, r = rule(ADJUSTED + "penalty: {side: NS, amount: 10%}\n".replace("10%", "3 IMP"))
    [p] = r.penalties
    assert p.value is None and r.sides["NS"].value == 420
    assert "NS: 3 IMPs (taken when the board is scored)" in render.penalties_text(r)


@pytest.mark.parametrize("change,words", [
    ("penalty: {side: EW, amount: 10%}", "is not a positive amount in the event's unit"),
    ("penalty: {side: EW, player: W, amount: 3 IMP}", "on a player or on a side"),
    ("penalty: {side: EW, amount: 3 IMP, partner_blameless: true}", "partner_blameless is for individual events"),
    ("penalty: {side: EW, amount: -3 IMP}", "is not a positive amount"),
    ("penalty: {side: EW, amount: 0 IMP}", "is not a positive amount"),       # as a rulings file's: refused
    ("penalty: {side: EW, amount: 25 IMP}", "'+25 IMP' is more than a board can be"),
])
def test_penalty_mistakes(change, words):
    with pytest.raises(BridgelawError) as e:
        case(IMPS + change + "\n")
    assert words in e.value.message and e.value.line == 9


# --- the 1997 Laws ----------------------------------------------------------------------------------

LAWS_1997 = """\
title: Pulling partner's slow double (1997 Laws)
rulebook: wbf-1997
date: 1999-08-29
scoring: imps
board: {number: 13, vulnerability: All}
infraction: {law: "16", by: N, findings: {suggested_over_a_logical_alternative: true}}
non_offending: EW
table_result: 4H= N
without_infraction: 3CX-1 E
"""


def test_a_1997_case_rules_under_wbf_1997_citing_12c2_and_16a():
    c, r = rule(LAWS_1997)
    assert r.outcome == "none-self-inflicted" and r.unit == "points"
    assert (r.sides["NS"].value, r.sides["EW"].value) == (200, -200)
    assert [p.ref for p in r.citations] == ["16A", "16A2", "12C2"]
    assert "Infraction: Law 16 (Law 16A in wbf-1997)" in " ".join(render.step_lines(r))


def test_a_1997_case_is_refused_under_the_2007_laws_for_its_date(capsys):
    from bridgelaw.commands.cli import main
    import tempfile, os
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "c.yaml")
        open(path, "w").write(LAWS_1997)
        assert main(["rule", path, "--rulebook", "wbf-2007"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "rulebook wbf-2007 is in force from 2008-01-01 to 2017-12-31; 1999-08-29 is earlier" in err
    assert "in force on 1999-08-29: acbl-1997, dbf-1997, wbf-1997" in err


def test_1997_words_and_weights():
    judged = LAWS_1997.replace("without_infraction: 3CX-1 E", "without_infraction:\n"
                               "  - {result: 3CX-1 E, judged: likely}\n  - {result: 3CX= E, judged: at all probable}")
    _, r = rule(judged)
    # EW (non-offending) get the most favourable likely result, NS (offending) the most unfavourable probable one
    assert {s: [o.text for _, o in p] for s, p in r.assigned.items()} == {"EW": ["3CX-1 E"], "NS": ["3CX= E"]}
    assert "12C2" in [p.ref for p in r.citations]
    weighted = LAWS_1997.replace("without_infraction: 3CX-1 E", "without_infraction:\n"
                                 "  - {result: 3CX-1 E, weight: 2/3}\n  - {result: 3CX= E, weight: 1/3}")
    with pytest.raises(BridgelawError, match=r"rule director-judges-likely of wbf-1997 selects by the words likely"
                       r".*an appeals committee's power \(12C3\), not his"):
        rule(weighted)                        # the Director alone may not weight (issue 31)
    weighted = weighted.replace("rulebook: wbf-1997", "rulebook: wbf-1997\nadjusted_by: committee")
    _, w = rule(weighted)                     # 12C3: the appeals committee varies it to do equity
    assert w.formed["EW"] == [(F(2, 3), w.formed["EW"][0][1]), (F(1, 3), w.formed["EW"][1][1])]
    assert "12C3" in [p.ref for p in w.citations]
    _, acbl = rule(weighted.replace("rulebook: wbf-1997", "rulebook: acbl-1997"))
    # no 12C3 in the ACBL: EW's most favourable result, 3CX= E (EW +670), has 1/3 ≥ 1/3: likely; for NS it is
    # the most unfavourable, and 1/3 ≥ 1/6: at all probable
    assert [o.text for _, o in acbl.assigned["EW"]] == ["3CX= E"]
    assert [o.text for _, o in acbl.assigned["NS"]] == ["3CX= E"]


def test_denmark_rounds_weighted_imps_in_the_non_offending_sides_favour():
    text = LAWS_1997.replace("rulebook: wbf-1997", "rulebook: dbf-1997\nadjusted_by: committee").replace(
        "without_infraction: 3CX-1 E", "without_infraction:\n  - {result: 3CX-1 E, weight: 4/5}\n"
        "  - {result: 4H-1 N, weight: 1/5}") + "other_table: 4H= N\n"
    _, r = rule(text)
    # EW: 4/5 × IMP(620 − 200 ...) — from EW's view 4H= N at both tables is 0; 3CX-1 E is −200 vs −620 → +9;
    # 4H-1 N is +100 vs −620 → +12: 4/5 × 9 + 1/5 × 12 = 9 3/5, rounded up for EW to 10, NS gets −10
    assert (r.sides["EW"].value, r.sides["NS"].value) == (10, -10)
    assert r.rounding == {"EW": (1, "up"), "NS": (1, "down")}


def test_compare_three_editions_over_the_corpus(capsys):
    from bridgelaw.commands.cli import main
    from pathlib import Path
    cases = Path(__file__).resolve().parent.parent / "cases"
    assert main(["compare", "--rulebooks", "wbf-1997,wbf-2007,wbf-2017", str(cases), "--format", "json"]) == 0
    import json
    data = json.loads(capsys.readouterr().out)
    assert [s["rulebook"] for s in data["summary"]] == ["wbf-2007", "wbf-2017"]
    assert len(data["cases"]) >= 55
