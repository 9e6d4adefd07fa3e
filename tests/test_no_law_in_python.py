"""Law lives in rulebooks: the engine's Python code names no paragraph id, no edition of the Laws
and no federation (issue 19, item 3). docs/architecture.md lists what Python still knows and why
(arithmetic only).

What is scanned: every module under engine/, tokenized, so that what counts is code, not prose
about it (engine/field/ is held to more: tests/test_field.py scans its comments and docstrings too):

- **string literals** (messages, labels, keys, f-string parts) and **number literals**: these are
  what the program says or decides with, so they must not carry law. A paragraph the engine shows
  comes from the rulebook it read; an edition is a rulebook's business; a federation is a
  rulebook's authority.
- **comments and docstrings are allowed** to name a paragraph, an edition or a federation when
  they explain what a piece of code is for (e.g. "the 12C2(c) session score"): they change nothing
  the program does. A docstring is the first statement of a module, class or function when it is
  a bare string.

The shapes looked for:

- a paragraph id: a law number and a section letter, with an optional item number and
  sub-item — ``12C1``, ``64B``, ``86B2``, ``12C1(e)``, ``16B1(a)``. Bridge notation that has the
  same shape (a contract level 1–7 and a strain C, D or H: ``4H``, ``5D``) is not a paragraph id;
  hexadecimal runs (``1E1E1E``) are not either;
- an edition: ``1997``, ``2007`` or ``2017`` as a word;
- a federation: WBF, EBU, ACBL, EBL, ABF, NZB, SBU, WBU (upper case, as a word; a lower-case id
  such as the VP scale ``wbf-2013`` is a name of arithmetic, not a federation's say).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
EXCLUDED: tuple[str, ...] = ()   # every layer (engine/field/ since issue 19 item 1 landed)

PARAGRAPH = re.compile(r"(?<![\w#])(\d{1,2})([A-H])(\d?)(?:\([a-z]{1,3}\))*(?![0-9A-Fa-f])")
EDITION = re.compile(r"(?<![\w.-])(1997|2007|2017)(?![\w])")
FEDERATION = re.compile(r"\b(WBF|EBU|ACBL|EBL|ABF|NZB|SBU|WBU)\b")


def paragraph_ids(text: str) -> list[str]:
    found = []
    for m in PARAGRAPH.finditer(text):
        number, letter = int(m[1]), m[2]
        if 1 <= number <= 7 and letter in "CDH":      # a contract: 4H, 5D, 3C (levels 1-7)
            continue
        if number == 0:
            continue
        found.append(m[0])
    return found


def editions(text: str) -> list[str]:
    return EDITION.findall(text)


def federations(text: str) -> list[str]:
    return FEDERATION.findall(text)


def docstring_lines(source: str) -> set[int]:
    """The lines (1-based) of every docstring in `source`."""
    lines: set[int] = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                first = body[0]
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


CODE_TOKENS = {tokenize.STRING, tokenize.NUMBER} | {getattr(tokenize, name) for name in ("FSTRING_MIDDLE",)
                                                      if hasattr(tokenize, name)}


def findings(path: Path) -> list[tuple[int, str, str, str]]:
    """(line, what, the id found, the literal) for each piece of law in `path`'s code."""
    source = path.read_text(encoding="utf-8")
    skip = docstring_lines(source)
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in CODE_TOKENS or tok.start[0] in skip:
            continue
        for what, found in (("paragraph id", paragraph_ids(tok.string)), ("edition", editions(tok.string)),
                            ("federation", federations(tok.string))):
            out += [(tok.start[0], what, item, tok.string[:70]) for item in found]
    return out


def scanned() -> list[Path]:
    return [p for p in sorted(ENGINE.rglob("*.py"))
            if p.relative_to(ENGINE).parts[0] not in EXCLUDED]


def test_the_engine_names_no_paragraph_edition_or_federation_in_code():
    problems = [f"{path.relative_to(ROOT)}:{line}: {what} {item!r} in {text!r}"
                for path in scanned() for line, what, item, text in findings(path)]
    assert problems == [], "law in Python (put it in a rulebook):\n" + "\n".join(problems)


# --- the scan itself can fail ------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Law 64B2", ["64B2"]), ("see 12C1(e)(ii)", ["12C1(e)(ii)"]), ("86B2(b)", ["86B2(b)"]), ("72C", ["72C"]),
    ("92B", ["92B"]), ("Law 7B", ["7B"]),
    ("4H-1 N", []), ("5D", []), ("3C", []), ("#1E1E1E", []), ("round 12", []), ("0A", []),
])
def test_paragraph_shapes(text, expected):
    assert paragraph_ids(text) == expected


def test_editions_and_federations():
    assert editions("wbf-2007") == [] and editions("the 2007 Laws") == ["2007"]
    assert editions("edition == 2017") == ["2017"] and editions("wbf-2013") == []
    assert federations("the WBF scale") == ["WBF"] and federations("wbf-2013") == []


def test_a_string_is_found_and_a_docstring_or_comment_is_not(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Module: the 12C2(c) session score (WBF, 2017)."""\n'
                      '# a comment on 64B2 and the EBU\n'
                      'def f():\n'
                      '    """Explains 86B2(b)."""\n'
                      '    return "Law 92B", 2007, f"{x} (WBF)"\n', encoding="utf-8")
    assert [(line, what, item) for line, what, item, _ in findings(sample)] == [
        (5, "paragraph id", "92B"), (5, "edition", "2007"), (5, "federation", "WBF")]
