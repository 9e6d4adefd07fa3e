"""bridgelaw casebook: the whole corpus as a printable casebook, its index checked against the cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridgelaw import rulebook as rulebooks
from bridgelaw.ruling.case import load_case
from bridgelaw.commands.cli import main
from bridgelaw.ruling.build import rule_case

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "cases"

APPEALED = """\
title: Hesitation before 4S, appealed
rulebook: wbf-2017
date: 2025-03-01
scoring: imps
board: {number: 7, vulnerability: NS}
record:
  event: County Teams
  table: 4
  director: Eve Stone
  time: "15:42"
non_offending: NS
table_result: 4S= W
other_table: 4H= N
without_infraction: 4H= N
notes: Pass was a logical alternative.
appeal: {by: EW, lodged: "16:10", decision: DECISION, changed_to: "4S= W for both sides", reasons: "No logical alternative."}
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def corpus_book(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("casebook")
    assert main(["casebook", str(CASES), "--out", str(out), "--title", "bridgelaw corpus"]) == 0
    return out


def test_the_index_lists_every_case_with_its_ruling(corpus_book):
    data = json.loads((corpus_book / "casebook.json").read_text(encoding="utf-8"))
    files = sorted(CASES.rglob("*.yaml"))
    assert [Path(c["path"]) for c in data["cases"]] == files
    for entry in data["cases"]:
        case = load_case(entry["path"])
        book = rulebooks.get(case.model.rulebook)
        ruling = rule_case(case, book)
        assert (entry["title"], entry["rulebook"], entry["outcome"]) == (case.model.title, book.id, ruling.outcome)
        assert set(ruling.citations and [p.ref for p in ruling.citations]) <= set(entry["laws"])
        for law in entry["laws"]:
            assert entry["name"] in data["indexes"]["law"][law]
        assert entry["name"] in data["indexes"]["outcome"][entry["outcome"]]
        assert entry["name"] in data["indexes"]["rulebook"][entry["rulebook"]]
        assert (corpus_book / entry["html"]).is_file() and (corpus_book / entry["markdown"]).is_file()
    appeals = [load_case(f).model.appeal for f in files]          # the published rulings' appeals (issue 22)
    assert data["totals"] == {"rulings": len(files), "appealed": sum(a is not None for a in appeals),
                              "changed": sum(a is not None and a.decision == "changed" for a in appeals)}
    assert data["totals"]["appealed"] >= 25
    per_law = {row["law"]: row["rulings"] for row in data["summary"]}
    assert per_law == {law: len(names) for law, names in data["indexes"]["law"].items()}
    assert sum(len(v) for v in data["indexes"]["rulebook"].values()) == len(files)


def test_the_index_page_links_every_case_page(corpus_book):
    html = (corpus_book / "index.html").read_text(encoding="utf-8")
    data = json.loads((corpus_book / "casebook.json").read_text(encoding="utf-8"))
    for entry in data["cases"]:
        assert f'href="{entry["html"]}"' in html
    assert "<h2 id=\"law\">By law paragraph</h2>" in html and "<h2 id=\"event\">By event</h2>" in html
    page = (corpus_book / data["cases"][0]["html"]).read_text(encoding="utf-8")
    assert "Director's ruling" in page and 'href="../style.css"' in page and "Law 92B" in page


def test_the_casebook_is_deterministic(tmp_path, corpus_book):
    again = tmp_path / "again"
    assert main(["casebook", str(CASES), "--out", str(again), "--title", "bridgelaw corpus"]) == 0
    for path in sorted(corpus_book.rglob("*")):
        if path.is_file():
            assert (again / path.relative_to(corpus_book)).read_bytes() == path.read_bytes(), path


def test_appeals_are_counted_per_law(tmp_path, capsys):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "a-changed.yaml").write_text(APPEALED.replace("DECISION", "changed"), encoding="utf-8")
    (cases / "b-upheld.yaml").write_text(APPEALED.replace("DECISION", "upheld").replace(
        ', changed_to: "4S= W for both sides"', ""), encoding="utf-8")
    (cases / "c-none.yaml").write_text(APPEALED.split("appeal:")[0], encoding="utf-8")
    code, out, err = run(capsys, "casebook", str(cases), "--out", str(tmp_path / "book"))
    assert (code, err) == (0, "")
    assert out == f"casebook: 3 cases, 10 files in {tmp_path / 'book'}/ (open {tmp_path / 'book' / 'index.html'})\n"
    data = json.loads((tmp_path / "book" / "casebook.json").read_text(encoding="utf-8"))
    assert data["totals"] == {"rulings": 3, "appealed": 2, "changed": 1}
    assert {"law": "12C1(b)", "rulings": 3, "appealed": 2, "changed": 1} in data["summary"]
    assert data["indexes"]["event"] == {"County Teams": ["a-changed", "b-upheld", "c-none"]}
    page = (tmp_path / "book" / "cases" / "a-changed.html").read_text(encoding="utf-8")
    assert "changed: the ruling was changed" in page and "4S= W for both sides" in page
    assert "Eve Stone" in page and "Pass was a logical alternative." in page
    md = (tmp_path / "book" / "index.md").read_text(encoding="utf-8")
    assert "| 12C1(b) | 3 | 2 | 1 |" in md and "| All rulings | 3 | 2 | 1 |" in md


def test_a_bad_case_writes_nothing(tmp_path, capsys):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "good.yaml").write_text(APPEALED.split("appeal:")[0], encoding="utf-8")
    (cases / "bad.yaml").write_text(APPEALED.split("appeal:")[0].replace("4S= W", "4Z= W"), encoding="utf-8")
    out_dir = tmp_path / "book"
    code, out, err = run(capsys, "casebook", str(cases), "--out", str(out_dir))
    assert code == 2 and out == ""
    assert err.startswith(f"bridgelaw: error: {cases / 'bad.yaml'}:12:15: table_result: '4Z= W'")
    assert not out_dir.exists()


def test_changed_needs_what_it_changed_to(tmp_path, capsys):
    path = tmp_path / "case.yaml"
    path.write_text(APPEALED.replace("DECISION", "changed").replace(', changed_to: "4S= W for both sides"', ""),
                    encoding="utf-8")
    code, out, err = run(capsys, "rule", str(path))
    assert code == 2
    assert err == (f"bridgelaw: error: {path}:16:45: an appeal that changed the ruling says what it changed it to "
                   "(expected appeal: {decision: changed, changed_to: <the new ruling>})\n")


def test_docs_show_the_corpus_summary(corpus_book):
    """docs/casebook.md quotes the start of the corpus's summary table: it must match the casebook."""
    doc = (REPO / "docs" / "casebook.md").read_text(encoding="utf-8")
    quoted = [line for line in doc.splitlines() if line.startswith("| 12")]
    index = (corpus_book / "index.md").read_text(encoding="utf-8").splitlines()
    assert quoted and all(line in index for line in quoted)
    assert f"casebook: {len(list(CASES.rglob('*.yaml')))} cases" in doc
