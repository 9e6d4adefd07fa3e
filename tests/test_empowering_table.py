"""docs/rulebooks.md carries the laws that empower an adjusted score, per Laws edition, generated from the
rulebooks' infractions: (scripts/empowering_table.py, `bridgelaw rulebooks --empowering`): the doc fails
this test as soon as a rulebook changes and the table is not regenerated."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bridgelaw import rulebook
from bridgelaw.commands.cli import main
from bridgelaw.render.explain import empowering_table

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("empowering_table", ROOT / "scripts" / "empowering_table.py")
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)

# the laws issue 21 asks the table to hold, at least, in each edition
AT_LEAST = {"wbf-1997": ["64", "84D"],          # issue 31: the 1997 revoke and Director's option
            "wbf-2007": ["16B1", "16D", "21B", "23", "27D", "40", "47E", "50E", "64", "73", "75", "82C", "86D", "87",
                         "90"],
            "wbf-2017": ["16B1", "16C", "21B", "23", "27D", "40B", "47E", "50E", "64", "72C", "73", "75", "82C", "86B1",
                         "86B2", "87", "90"]}


def test_the_doc_holds_the_generated_tables():
    text = script.DOC.read_text(encoding="utf-8")
    start, end = script.section(text)
    assert text[start:end] == "\n" + script.generated() + "\n", \
        "docs/rulebooks.md is stale: run .venv/bin/python scripts/empowering_table.py"
    assert script.main(["--check"]) == 0


def test_every_edition_lists_the_laws_with_condition_text_and_confirmed_state():
    for name, laws in AT_LEAST.items():
        book = rulebook.get(name)
        assert set(laws) <= set(book.infractions), name
        table = empowering_table(book)
        for law in laws:
            e = book.infractions[law]
            assert e.condition and e.effect, f"{name} {law}: its condition and effect, in words"
            row = next(line for line in table.splitlines() if line.startswith(f"| {law} |"))
            assert row.endswith(("| yes |", "| no |")) or "| partly (" in row
            for ref in e.cites:
                assert f"**{ref}**" in row
    row = next(line for line in empowering_table(rulebook.get("wbf-2017")).splitlines() if line.startswith("| 23 |"))
    assert "comparable call" in row and "`could_well_have_been_different`" in row and "| yes |" in row


def test_the_command_prints_them_for_any_rulebook(capsys):
    assert main(["rulebooks", "--empowering", "ebu"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("### ebu — English Bridge Union") and "| 86B2 |" in out
    assert main(["rulebooks", "--empowering"]) == 0
    out = capsys.readouterr().out
    assert out.index("### wbf-2007") < out.index("### wbf-2017")
