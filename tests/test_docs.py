"""The docs run: every YAML case in docs/*.md is ruled and matches its expect: line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.ruling.case import load_case
from bridgelaw.commands.cli import compare
from bridgelaw.ruling.build import rule_case

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"```yaml\n(.*?)```", re.S)


def doc_cases() -> list[tuple[str, str]]:
    found = []
    for path in sorted(DOCS.glob("*.md")):
        for i, block in enumerate(BLOCK.findall(path.read_text())):
            if "\nexpect:" in block:
                found.append((f"{path.name}#{i}", block))
    return found


@pytest.mark.parametrize("name,text", doc_cases(), ids=[n for n, _ in doc_cases()])
def test_doc_case(name, text):
    case = load_case(name, text=text)
    for name in ([case.model.rulebook] if not isinstance(case.model.expect, dict) else case.model.expect):
        ruling = rule_case(case, rulebook.get(name))
        assert compare(ruling, case.expectation_for(name)) == []


def test_docs_have_cases():
    assert len(doc_cases()) >= 5
