"""Rulebook files with bad input, and the shipped rulebooks.

Each test copies the text of rules/wbf-2017.yaml, changes one thing, writes it to
tmp_path/wbf-2017.yaml (the file name must be the rulebook's id) and loads it with
bridgelaw.rulebook.load. Expected positions are computed from the mutated text (the 1-based
line and column of a unique snippet), so they stay exact while the shipped file evolves.
"""

from __future__ import annotations

import re
from pathlib import Path

import datetime as dt

import pytest

from bridgelaw import rulebook
from bridgelaw.core.errors import BridgelawError

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "rules"


def _inlined() -> str:
    """rules/wbf-2017.yaml with its shared Law 12 layer (rules/shared/wbf-law12.yaml) written into it, so
    that every rule a test changes is in the one file the test writes (the Law 64 layer stays included)."""
    text = (RULES / "wbf-2017.yaml").read_text(encoding="utf-8")
    shared = (RULES / "shared" / "wbf-law12.yaml").read_text(encoding="utf-8")
    rules = shared[shared.index("\nrules:\n") + len("\nrules:\n"):]
    text = re.sub(r"\ninclude: \[wbf-law64, wbf-law12\][^\n]*\n", "\ninclude: [wbf-law64]\n", text)
    return text.replace("\nrules:\n", "\nrules:\n" + rules + "\n", 1)


SRC = _inlined()


def mutate(tmp_path: Path, old: str, new: str, *, name: str = "wbf-2017.yaml") -> tuple[Path, str]:
    assert SRC.count(old) == 1, f"{old!r} must occur exactly once in rules/wbf-2017.yaml"
    text = SRC.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, text


def load_error(path: Path) -> BridgelawError:
    with pytest.raises(BridgelawError) as info:
        rulebook.load(path)
    err = info.value
    assert err.file == str(path), str(err)
    assert "\n" not in str(err), "an error is one line"
    return err


def pos(text: str, snippet: str, offset: int = 0) -> tuple[int, int]:
    """1-based (line, column) of `snippet` (which must be unique in `text`), plus `offset` characters."""
    assert text.count(snippet) == 1, f"{snippet!r} must occur exactly once"
    i = text.index(snippet) + offset
    line = text.count("\n", 0, i) + 1
    column = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, column


def at(err: BridgelawError, where: tuple[int, int]) -> None:
    assert (err.line, err.column) == where, str(err)
    assert str(err).startswith(f"{err.file}:{where[0]}:{where[1]}: "), str(err)


# --------------------------------------------------------------------------- the starting point


def test_unchanged_copy_loads(tmp_path):
    """The copy loads, so every error below comes from its one change."""
    path = tmp_path / "wbf-2017.yaml"
    path.write_text(SRC, encoding="utf-8")
    book = rulebook.load(path)
    assert book.id == "wbf-2017"
    # the rules the mutations below change
    assert {"single-outcome", "weighted-average", "no-damage", "none-self-inflicted",
            "split-damage"} <= {r.id for r in book.rules}
    assert [r.id for r in book.rules] == [r.id for r in rulebook.get("wbf-2017").rules]


# --------------------------------------------------------------------------- citations


def test_rule_without_cites(tmp_path):
    path, text = mutate(tmp_path, "    cites: [12C1(b)]\n\n  - id: weighted-average", "\n  - id: weighted-average")
    err = load_error(path)
    at(err, pos(text, "id: single-outcome"))
    assert err.message == "missing required key 'cites'"


def test_rule_with_empty_cites(tmp_path):
    path, text = mutate(tmp_path, "    cites: [12C1(b)]\n", "    cites: []\n")
    err = load_error(path)
    at(err, pos(text, "[]\n"))
    assert "cites" in err.message
    assert "at least 1 item" in err.message


def test_citation_of_undefined_paragraph(tmp_path):
    path, text = mutate(tmp_path, "    cites: [12C1(b)]\n", "    cites: [12C1b]\n")
    err = load_error(path)
    at(err, pos(text, "12C1b"))
    assert err.message == "rule 'single-outcome' cites 12C1b, which this rulebook does not define"
    assert err.expected == "a paragraph listed under paragraphs:"
    assert err.suggestion == "did you mean '12C1(b)'?"


# --------------------------------------------------------------------------- keys


def test_unknown_key_in_rule(tmp_path):
    path, text = mutate(tmp_path, "    cites: [12C1(b)]\n", "    cites: [12C1(b)]\n    explian: typo\n")
    err = load_error(path)
    at(err, pos(text, "explian"))
    assert err.message == "unknown key 'explian'"
    assert err.suggestion == "did you mean 'explain'?"
    assert "cites" in err.expected and "explain" in err.expected and "when" in err.expected


def test_misspelt_required_key_in_rule(tmp_path):
    path, text = mutate(tmp_path, "    explain: One outcome", "    explian: One outcome")
    err = load_error(path)
    at(err, pos(text, "explian"))
    assert err.message == "unknown key 'explian'"
    assert err.suggestion == "did you mean 'explain'?"


# --------------------------------------------------------------------------- conditions


def test_unknown_operator(tmp_path):
    path, text = mutate(tmp_path, "{le: [B, A]}", "{lesser: [B, A]}")
    err = load_error(path)
    at(err, pos(text, "{lesser"))
    assert err.message == "rule 'no-damage': unknown operator 'lesser'"
    assert "lt, le, eq, ne, ge, gt" in err.expected


def test_unknown_fact_in_comparison(tmp_path):
    path, text = mutate(tmp_path, "{le: [B, A]}", "{lt: [A, Q]}")
    err = load_error(path)
    # points at the unknown operand
    line, column = pos(text, "[A, Q]")
    at(err, (line, column + 4))
    assert err.message == "rule 'no-damage': unknown fact 'Q'"
    assert "A, B, C" in err.expected and "serious_error" in err.expected


def test_unknown_fact_close_to_a_known_one(tmp_path):
    path, text = mutate(tmp_path, "{is: [illegal_outcomes, true]}", "{is: [ilegal_outcomes, true]}")
    err = load_error(path)
    at(err, pos(text, "ilegal_outcomes"))
    assert err.message == "rule 'legal-outcomes-only': unknown fact 'ilegal_outcomes'"
    assert err.suggestion == "did you mean 'illegal_outcomes'?"


def test_yes_no_fact_compared_with_lt(tmp_path):
    path, text = mutate(tmp_path, "{le: [B, A]}", "{lt: [serious_error, A]}")
    err = load_error(path)
    at(err, pos(text, "[serious_error, A]"))
    assert err.message == "rule 'no-damage': 'lt' compares numbers; serious_error is not a number"


def test_in_with_a_value_not_allowed(tmp_path):
    path, text = mutate(tmp_path, "{le: [B, A]}", "{in: [scoring, [imps, rubber]]}")
    err = load_error(path)
    at(err, pos(text, "rubber"))
    assert err.message == "rule 'no-damage': 'rubber' is not a value of scoring"
    assert err.expected == "imps, matchpoints"


# --------------------------------------------------------------------------- formulas

AWARD = "award: {nos: A + B - C, os: \"B'\"}"


@pytest.mark.parametrize(("formula", "offset", "message"), [
    ("A ** 2", 3, "unexpected '*'"),
    ("__import__('os')", 11, "is not allowed in a formula"),
    ("A.b(1)", 0, "unknown function 'A.b'"),
    ("eval(A)", 0, "unknown function 'eval' (allowed: min, max, abs, round_to)"),
], ids=["power", "import", "attribute-call", "eval"])
def test_formula_outside_the_grammar(tmp_path, formula, offset, message):
    path, text = mutate(tmp_path, AWARD, f"award: {{nos: {formula}, os: \"B'\"}}")
    err = load_error(path)
    at(err, pos(text, f"nos: {formula},", len("nos: ") + offset))
    assert err.message.startswith(f"rule 'split-damage': formula '{formula}': ")
    assert message in err.message
    assert "arithmetic" in err.expected


def test_formula_error_column_in_quoted_formula(tmp_path):
    path, text = mutate(tmp_path, AWARD, "award: {nos: A + B - C, os: \"B' ** 2\"}")
    err = load_error(path)
    at(err, pos(text, "\"B' ** 2\"", 5))    # the second '*'


def test_formula_error_position_in_multiline_formula(tmp_path):
    path, text = mutate(tmp_path, AWARD, "award:\n      nos: >-\n        A +\n        B ** C\n      os: \"B'\"")
    err = load_error(path)
    at(err, pos(text, "B ** C", 3))          # the second '*'


def test_formula_with_unknown_quantity(tmp_path):
    path, text = mutate(tmp_path, AWARD, "award: {nos: A + E, os: \"B'\"}")
    err = load_error(path)
    line, column = pos(text, "A + E")
    at(err, (line, column + 4))              # the unknown name inside the formula
    assert err.message == "rule 'split-damage': formula 'A + E' uses unknown name 'E'"
    assert "A, A', B, B', C, C', D, DR, DS" in err.expected


def test_award_missing_a_side(tmp_path):
    path, text = mutate(tmp_path, AWARD, "award: {nos: A + B - C}")
    err = load_error(path)
    at(err, pos(text, "{nos: A + B - C}"))
    assert "award lacks os" in err.message


# --------------------------------------------------------------------------- stages, outcomes, ids


def test_unknown_stage(tmp_path):
    old = "  - id: no-damage\n    stage: damage\n"
    path, text = mutate(tmp_path, old, "  - id: no-damage\n    stage: damages\n")
    err = load_error(path)
    at(err, pos(text, "damages"))
    assert err.message == "rule 'no-damage': unknown stage 'damages'"
    assert err.expected.startswith("one of ") and "expectation" in err.expected and "damage" in err.expected
    assert err.suggestion == "did you mean 'damage'?"


def test_unknown_outcome(tmp_path):
    path, text = mutate(tmp_path, "outcome: no-damage\n", "outcome: no-damages\n")
    err = load_error(path)
    at(err, pos(text, "no-damages"))
    assert "outcome 'no-damages' is not one of stage damage's outcomes" in err.message
    assert "no-damage, all-self-inflicted, none-self-inflicted, split, assigned" == err.expected
    assert err.suggestion == "did you mean 'no-damage'?"


def test_expectation_rule_with_unknown_method(tmp_path):
    old = "    apply: {method: weighted-average, outcomes: all}\n    explain: One outcome"
    path, text = mutate(tmp_path, old, old.replace("weighted-average", "weighted-avg"))
    err = load_error(path)
    at(err, pos(text, "weighted-avg,"))
    assert err.message.startswith("rule 'single-outcome': apply.method must be one of weighted-average")
    assert err.suggestion == "did you mean 'weighted-average'?"


def test_duplicate_rule_id(tmp_path):
    path, text = mutate(tmp_path, "  - id: weighted-average\n", "  - id: single-outcome  # again\n")
    err = load_error(path)
    at(err, pos(text, "single-outcome  # again"))
    assert err.message == "duplicate rule id 'single-outcome'"


def test_overrides_naming_no_rule(tmp_path):
    path, text = mutate(tmp_path, "the score stands.\n    cites: [12B1]\n",
                        "the score stands.\n    cites: [12B1]\n    overrides: [split-damages]\n")
    err = load_error(path)
    at(err, pos(text, "split-damages"))
    assert err.message == "rule 'no-damage' overrides 'split-damages', which does not exist"
    assert err.suggestion == "did you mean 'split-damage'?"


# --------------------------------------------------------------------------- the header


def test_rulebook_id_does_not_match_file_name(tmp_path):
    path = tmp_path / "wbf-2019.yaml"
    path.write_text(SRC, encoding="utf-8")
    err = load_error(path)
    at(err, pos(SRC, "wbf-2017\ntitle:"))
    assert err.message == "rulebook id 'wbf-2017' does not match the file name 'wbf-2019.yaml'"
    assert err.expected == "rulebook: wbf-2019"


def test_version_unquoted_is_rejected(tmp_path):
    """version: 2017.1 is a float to YAML (so 2017.10 would become 2017.1): it must be a string."""
    path, text = mutate(tmp_path, 'version: "2017.1"', "version: 2017.1")
    err = load_error(path)
    at(err, pos(text, "version: 2017.1", len("version: ")))
    assert err.message.startswith("version: ")
    assert "string" in err.message


def test_effective_date_not_a_date(tmp_path):
    path, text = mutate(tmp_path, "  from: 2017-03-01\n", "  from: Sept 2017\n")
    err = load_error(path)
    at(err, pos(text, "Sept 2017"))
    assert "effective.from" in err.message


def test_effective_date_impossible(tmp_path):
    path, text = mutate(tmp_path, "  from: 2017-03-01\n", "  from: 2017-13-01\n")
    err = load_error(path)
    at(err, pos(text, "2017-13-01"))
    assert "month must be in 1..12" in err.message
    assert "YYYY-MM-DD" in err.expected


def test_malformed_yaml_in_rulebook(tmp_path):
    path, text = mutate(tmp_path, "  from: 2017-03-01\n", "  from: {2017-03-01\n")
    err = load_error(path)
    assert err.message.startswith("malformed YAML")
    assert err.line >= pos(text, "from: {2017")[0] + 1


def test_missing_rulebook_file(tmp_path):
    with pytest.raises(BridgelawError) as info:
        rulebook.load(tmp_path / "wbf-2017.yaml")
    assert str(info.value) == f"{tmp_path / 'wbf-2017.yaml'}: no such file"


def test_get_unknown_rulebook():
    with pytest.raises(BridgelawError) as info:
        rulebook.get("wbf-2071")
    err = info.value
    assert err.message == "unknown rulebook 'wbf-2071'"
    assert err.expected == "one of " + ", ".join(rulebook.available())
    assert "wbf-2007, wbf-2017" in err.expected
    assert err.suggestion == "did you mean 'wbf-2017'?"


# --------------------------------------------------------------------------- the shipped rulebooks

SHIPPED = sorted(p for p in RULES.glob("*.yaml") if p.name != "calendar.yaml")   # the calendar is not a rulebook


def test_shipped_rulebooks_include_the_two_wbf_ones():
    assert {"wbf-2007", "wbf-2017"} <= {p.stem for p in SHIPPED}
    assert list(rulebook.available()) == [p.stem for p in SHIPPED]


@pytest.mark.parametrize("name", [p.stem for p in SHIPPED])
def test_shipped_rulebook_loads_and_cites_paragraphs_with_text(name):
    book = rulebook.get(name)
    assert book.id == name
    assert isinstance(book.version, str) and re.fullmatch(r"\d{4}\.\d+", book.version)
    assert re.fullmatch(r"[0-9a-f]{64}", book.sha256)
    assert {"expectation", "damage"} <= {r.stage for r in book.rules}
    assert len({r.id for r in book.rules}) == len(book.rules)
    for rule in book.rules:
        assert rule.cites, f"{rule.id} cites nothing"
        for ref in rule.cites:
            assert ref in book.paragraphs, f"{rule.id} cites {ref}, not defined"
            assert book.paragraphs[ref].text.strip(), f"{ref} has no text"
            assert len(book.paragraphs[ref].text) > 20, f"{ref}'s text looks truncated"


def test_shipped_effective_dates_follow_each_other():
    from bridgelaw.rulebook import calendar
    old, new = rulebook.get("wbf-2007"), rulebook.get("wbf-2017")
    # the WBF's own events: the 2017 Laws came into effect for the WBF in March 2017 (rules/calendar.yaml) ...
    wbf = {e.rulebook: e for e in next(b for b in calendar.bodies() if b.id == "wbf").editions}
    assert (wbf["wbf-2007"].until, wbf["wbf-2017"].effective_from) == (dt.date(2017, 2, 28), dt.date(2017, 3, 1))
    # ... while the edition stayed in force where a body applied the 2017 Laws later (France: 1 January 2018)
    assert (old.effective_from.isoformat(), old.effective_until.isoformat()) == ("2008-01-01", "2017-12-31")
    assert (new.effective_from.isoformat(), new.effective_until) == ("2017-03-01", None)


@pytest.mark.parametrize("book, start, end", [
    ("acbl-2007", "2008-09-08", "2017-09-24"),      # ACBL: 2007 Laws from 8 Sep 2008, 2017 Laws from 25 Sep 2017
    ("ebu", "2017-08-01", None),                     # EBU: 2017 Laws in its events from 1 Aug 2017
])
def test_regulation_dates_from_their_sources(book, start, end):
    b = rulebook.get(book)
    assert (b.effective_from.isoformat(), b.effective_until.isoformat() if b.effective_until else None) == (start, end)
    assert b.effective_source
