"""Every line of every rulebook has a source or a stated modelling reason (engine/sources.py).

A paragraph names a declared document and a section in it (or says why it is a modelling choice);
a parameter cites sourced paragraphs (or says why it is a modelling choice); every rulebook says
where its effective dates come from. Commentary is kept apart from law: the Laws editions hold
only law, recommendations live in the WBF Laws Committee layers.
"""

import datetime as dt
import json
import re
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.rulebook import sources
from bridgelaw.commands.cli import main
from bridgelaw.core.errors import BridgelawError

REPO = Path(__file__).resolve().parent.parent
SHIPPED = list(rulebook.available())
EDITIONS = ("wbf-2007", "wbf-2017")
LC_LAYERS = ("wbf-laws-committee-2007", "wbf-laws-committee-2017")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_paragraph_and_parameter_is_sourced(name):
    report = sources.report(rulebook.get(name))
    assert report.problems == []
    assert report.paragraphs_sourced == report.paragraphs > 0
    assert report.parameters_sourced == report.parameters > 0


@pytest.mark.parametrize("name", SHIPPED)
def test_every_source_names_document_section_and_date(name):
    book = rulebook.get(name)
    for ref, p in book.paragraphs.items():
        if p.citation is None:
            assert p.modelling and len(p.modelling) > 30, f"{ref}: a modelling reason, stated"
            continue
        d = p.citation.document
        assert d.title and d.by and re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", d.date), ref
        assert p.citation.section.strip(), ref
        assert d.kind in sources.KINDS
        if d.kind in ("law", "regulation"):
            assert p.citation.link, f"{ref}: a law or regulation links to where its text is published"
    for name_, ps in book.parameter_sources.items():
        assert ps.cites or (ps.modelling and len(ps.modelling) > 30), name_


@pytest.mark.parametrize("name", SHIPPED)
def test_every_rulebook_says_where_its_dates_come_from(name):
    book = rulebook.get(name)
    assert book.effective_source and len(book.effective_source) > 30


def test_the_laws_editions_hold_only_law():
    for name in EDITIONS:
        book = rulebook.get(name)
        assert {p.kind for p in book.paragraphs.values()} == {"law"}
        for rule in book.all_rules:
            assert all(book.paragraphs[ref].kind == "law" for ref in rule.cites), rule.id
        assert "multiple_boards.limit" not in book.dated
        assert book.parameters["poll.benefit_of_doubt"] == 1


def test_the_committee_layers_hold_its_recommendations():
    for name, edition in zip(LC_LAYERS, EDITIONS):
        book = rulebook.get(name)
        assert book.extends == edition
        own = {ref: p for ref, p in book.paragraphs.items() if p.origin == name}
        assert own and {p.kind for p in own.values()} == {"recommendation"}
        assert book.parameters["multiple_boards.limit"] == 2
    lc17 = rulebook.get("wbf-laws-committee-2017")
    assert (lc17.parameters["poll.benefit_of_doubt"], lc17.parameters["poll.benefit_of_doubt_ceiling"]) == (Fraction(6, 5),) * 2
    assert lc17.parameters["poll.minimum"] == 5
    assert lc17.parameters["multiple_boards.replacement"] == "average"
    assert rulebook.get("wbf-laws-committee-2007").parameters["multiple_boards.replacement"] == "not-scored"


def test_what_is_not_a_regulation_does_not_pose_as_one():
    # the EBL lecture reports a practice and floats a proposal; the EBU forum's both-at-fault is no rule
    ebl = rulebook.get("ebl-2008")
    assert {p.kind for p in ebl.paragraphs.values() if p.origin == "ebl-2008"} == {"practice"}
    assert ebl.parameters["vp.method"] == "weight-imps"
    proposal = rulebook.get("ebl-2008-vp-proposal")
    assert proposal.paragraphs["EBL-2008/weighted-vps"].kind == "proposal"
    assert proposal.parameters["vp.method"] == "weight-vps"
    ebu = rulebook.get("ebu")
    assert [r.id for r in ebu.all_rules] == [r.id for r in rulebook.get("wbf-2017").all_rules]
    assert not any("both" in ref for ref in ebu.paragraphs)


# Texts not matched word for word against an English text of the source (issue 21: a text is confirmed
# only when its words were read in an English text, quoted with its source; the rest say confirmed: false
# and what was tried): the two regulation paraphrases; in 2007 every text but 92B, 16A4, 16B1(a), 87A and
# 87B (read on the PZBS pages) — Law 12 itself is rendered from the Italian of the 2008 EBL lecture, the
# rest from the Norwegian text or forum quotations; in 2017 the laws whose English pages were not
# reached (Law 12 itself is read in seed 001 and on the PZBS pages, and confirmed).
UNCONFIRMED = {
    "acbl-1997": ["ACBL/likely-probable"],
    "acbl-2007": ["ACBL/likely-probable"],
    "wbf-1997": ["12C2", "12C3", "16A", "16A2", "40C", "73F2", "82C", "64A1", "64A2", "64B1", "64B2", "64B3", "64B4",
                 "64B5", "64B6", "64C", "84D", "90A"],
    "wbf-appeals-2000": ["WBF-AC/2000"],
    "ebu": ["EBU-WB/neuberg-artificial"],
    "wbf-2007": ["12A1", "12A2", "12B1", "12C1(a)", "12C1(b)", "12C1(c)", "12C1(d)", "12C1(e)", "12C1(e)(i)",
                 "12C1(e)(ii)", "12C1(f)", "12C2(a)", "12C2(b)", "12C2(c)", "12C3", "12C4", "12A", "12A3", "12B2",
                 "16B3", "16D2", "21B1(a)", "21B3", "23", "27D", "40B4", "40C1", "47E2(b)", "50E", "64A1", "64A2",
                 "64B1", "64B2", "64B3", "64B4", "64B5", "64B6", "64B7", "64C", "73F", "75", "82C", "84D", "86A",
                 "86D", "90A"],
    "wbf-2017": ["16B3", "16C2", "27D", "40B5", "47E2(b)", "50E", "64A1", "64A2", "64B1", "64B2", "64B3", "64B4",
                 "64B5", "64B6", "64B7", "64B8", "64C1", "64C2(a)", "64C2(b)", "72C", "73E2", "75", "86B1", "86B2",
                 "86B3", "90A"],
}


def test_unconfirmed_texts_are_exactly_the_listed_ones():
    for name in SHIPPED:
        book = rulebook.get(name)
        got = [ref for ref, p in book.paragraphs.items() if not p.confirmed and p.origin == name]
        assert got == UNCONFIRMED.get(name, []), name
    # no paragraph of the 2017 Law 12C, the adjustment itself, is unconfirmed (the 2007 one was not read in English)
    assert not [r for r in UNCONFIRMED["wbf-2017"] if r.startswith("12C")]


def test_every_unconfirmed_text_says_what_was_tried_and_no_confirmed_one_is_bracketed():
    for name in EDITIONS:
        for ref, p in rulebook.get(name).paragraphs.items():
            if not p.confirmed:
                assert p.tried and len(p.tried) > 30, f"{name} {ref}: says where its words were looked for"
            else:
                assert p.citation is not None and p.citation.link, f"{name} {ref}: a confirmed text names its source"
                assert not p.text.startswith("[") and "in substance" not in p.text, \
                    f"{name} {ref}: a text in substance is not confirmed"


@pytest.mark.parametrize("name, start, end", [
    ("wbf-2017", "2017-03-01", None),           # in effect for the WBF from March 2017
    ("acbl-2007", "2008-09-08", "2017-09-24"),  # ACBL: 8 Sep 2008; its 2017 Laws from 25 Sep 2017
    ("ebu", "2017-08-01", None),                # EBU events from 1 Aug 2017
])
def test_effective_dates_from_their_sources(name, start, end):
    book = rulebook.get(name)
    assert book.effective_from == dt.date.fromisoformat(start)
    assert book.effective_until == (dt.date.fromisoformat(end) if end else None)


def test_acbl_election_revoked_from_2016():
    acbl = rulebook.get("acbl-2007")
    rule = acbl.rule("most-favourable-likely")
    assert rule.end == dt.date(2015, 12, 31)
    assert "Effective January 1, 2016" in acbl.paragraphs["ACBL/revocation-2016"].text


# --- the test can fail: a rulebook without sources -----------------------------------------------

def write(tmp_path, text):
    src = (REPO / "rules" / "wbf-2017.yaml").read_text()
    (tmp_path / "wbf-2017.yaml").write_text(src)
    path = tmp_path / "reg.yaml"
    path.write_text(text)
    return path


REG = textwrap.dedent("""\
    rulebook: reg
    title: t
    authority: a
    version: "1"
    effective: {from: 2018-01-01}
    extends: wbf-2017
    PARAGRAPHS
    parameters:
      artificial:
        pairs:
          avg_plus: {value: 65%, cites: [REG/x]}
    """)


def test_a_paragraph_without_source_is_reported(tmp_path):
    path = write(tmp_path, REG.replace("PARAGRAPHS", "paragraphs:\n  REG/x: {text: a regulation without a source}"))
    report = sources.report(rulebook.load(path))
    assert report.problems == ["paragraph REG/x (reg): no source and no modelling reason",
                               "parameter artificial.pairs.avg_plus: cites REG/x, which has no source"]
    base = sources.report(rulebook.get("wbf-2017"))
    p, n = base.paragraphs + 1, base.parameters          # one paragraph added, one parameter overridden: both unsourced
    assert report.line == (f"sourced {100 * (p - 1 + n - 1) // (p + n)}%: {p - 1}/{p} paragraphs, {n - 1}/{n} parameters; "
                           f"{base.texts_confirmed}/{p} texts confirmed from an English source")   # REG/x: no source


def test_a_modelling_reason_counts_as_sourced(tmp_path):
    path = write(tmp_path, REG.replace("PARAGRAPHS", "paragraphs:\n  REG/x: {text: t, modelling: "
                                       "\"no document: the club's committee decided this at its meeting\"}"))
    assert sources.report(rulebook.load(path)).problems == []


def test_an_undeclared_document_is_an_error_with_a_suggestion(tmp_path):
    path = write(tmp_path, REG.replace("PARAGRAPHS", "paragraphs:\n  REG/x: {text: t, source: {document: laws-2071, section: x}}"))
    with pytest.raises(BridgelawError) as exc:
        rulebook.load(path)
    assert "paragraph REG/x cites document 'laws-2071', which no layer declares under documents:" in exc.value.message
    assert exc.value.suggestion == "did you mean 'laws-2017'?"
    assert exc.value.line == 8          # the line of REG/x, where the document is named


def test_parameter_sources_must_cite_or_reason(tmp_path):
    path = write(tmp_path, REG.replace("PARAGRAPHS", "parameter_sources:\n  vp.round_to: {cites: [REG/none]}\n"
                                       "paragraphs:\n  REG/x: {text: t, modelling: a stated reason}"))
    with pytest.raises(BridgelawError) as exc:
        rulebook.load(path)
    assert "parameter_sources.vp.round_to cites REG/none, which this rulebook does not define" in exc.value.message


# --- the CLI shows it -----------------------------------------------------------------------------

def test_rulebooks_prints_the_sourced_share(capsys):
    assert main(["rulebooks"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^wbf-2017 .*\n\s+sourced 100%: (\d+)/\1 paragraphs, (\d+)/\2 parameters; "
                     r"32/\1 texts confirmed from an English source$", out, re.M)
    assert re.search(r"^wbf-2007 .*\n\s+sourced 100%: (\d+)/\1 paragraphs, .*; 5/\1 texts confirmed", out, re.M)
    assert main(["rulebooks", "--format", "json"]) == 0
    data = {b["id"]: b for b in json.loads(capsys.readouterr().out)}
    assert data["wbf-2017"]["sourced"]["confirmed"] == [32, 58]
    assert data["ebl-2008-vp-proposal"]["sourced"]["by_kind"] == {"law": 51, "practice": 1, "proposal": 1}
    assert data["acbl-2007"]["sourced"]["by_kind"] == {"guidance": 1, "law": 51, "regulation": 2}


def test_compare_with_and_without_the_committee_layer(capsys):
    case = str(REPO / "cases/law12-provisions/average-plus-third-board-2017.yaml")
    assert main(["compare", "--rulebooks", "wbf-2017,wbf-laws-committee-2017", case, "--format", "json"]) == 0
    cell = json.loads(capsys.readouterr().out)["cases"][0]["rulings"]
    assert cell["wbf-2017"]["NS"]["exact"] == "72/5"
    assert cell["wbf-laws-committee-2017"]["NS"]["exact"] == "12" and cell["wbf-laws-committee-2017"]["differs"]


def test_diff_of_the_committee_layers(capsys):
    assert main(["diff", "wbf-laws-committee-2007", "wbf-laws-committee-2017"]) == 0
    assert "  multiple_boards.replacement: not-scored → average" in capsys.readouterr().out
