"""Every input bounded, every failure one line (docs/limits.md).

One test per numbered item of issue 14's "Why" that the command line owns (the web server's
items are tested with it; the PBN items with the PBN reader), and per traceback or hang listed
in issue 9 item 2 (the PBN ones excepted). Each uses the issue's reproduction as its input and
asserts the exact one-line error: exit status 2, one line on stderr, nothing on stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bridgelaw.commands import cli
from bridgelaw.core import limits
from bridgelaw.core.exact import exact_json

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"
KAPLAN = ROOT / "cases" / "ebl-lecture-2008" / "kaplan-a1-teams.yaml"      # wbf-2007, teams
TRAVELLER = ROOT / "travellers" / "wbf-2017-example-09.yaml"
PBN = ROOT / "travellers" / "board-09.pbn"
ADJUSTMENTS = ROOT / "travellers" / "board-09.adjustments.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def error(*argv: str) -> str:
    """The one-line error of a command that must fail with exit status 2 (without the prefix)."""
    code, out, err = run(*argv)
    assert code == 2, (code, out[:300], err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bridgelaw: error: "), err
    return lines[0][len("bridgelaw: error: "):]


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def case_text() -> str:
    return KAPLAN.read_text(encoding="utf-8")


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


# --- issue 14 item 1: the 30,000-[ segmentation fault --------------------------------------------------

DEEP = "[" * 30000 + "]" * 30000


def test_14_1_deep_nesting_segfault_is_one_line(tmp_path):
    """A subprocess: before the fix the C composer recursed until signal 11."""
    text = case_text().replace("notes: |", "notes: " + DEEP + "\nextra: |", 1)
    path = write(tmp_path, "deep.yaml", text)
    proc = subprocess.run([sys.executable, "-m", "bridgelaw.commands.cli", "rule", str(path)], capture_output=True,
                          text=True, timeout=120)
    line = line_of(text, "notes: [")
    assert proc.returncode == 2, proc.stderr[-500:]
    # the first [ is column 8; the document's own mapping is the first of the 64 levels
    assert proc.stderr == (f"bridgelaw: error: {path}:{line}:{7 + 64}: nested more than 64 levels deep "
                           "(expected ordinary nesting of keys and lists)\n")


@pytest.mark.parametrize("kind", ["traveller", "overlay"])
def test_14_1_deep_nesting_in_travellers_and_overlays(tmp_path, kind):
    if kind == "traveller":
        path = write(tmp_path, "t.yaml", TRAVELLER.read_text(encoding="utf-8") + "extra: " + DEEP + "\n")
        message = error("score", path)
    else:
        path = write(tmp_path, "o.yaml", "notes: " + DEEP + "\n")
        message = error("rule", CASE, "--overlay", path)
    assert "nested more than 64 levels deep" in message and message.startswith(str(path) + ":")


# --- issue 14 item 2 / issue 9 item 2: alias bombs ---------------------------------------------------------

BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]\n" for k in range(1, 9))


def test_14_2_alias_bomb_under_a_key_the_model_reads(tmp_path):
    text = BOMB + case_text().replace("table_result: 4SX-2 E", "table_result: *a8")
    path = write(tmp_path, "bomb.yaml", text)
    # the alias that pushes the expansion past 10,000 values: the ninth *a2 inside a3
    assert error("rule", path) == (f"{path}:4:45: aliases expand to more than 10,000 values "
                                   "(expected few aliases (*name) of small anchored values)")


def test_9_2_billion_laughs_as_a_field(tmp_path):
    path = write(tmp_path, "laughs.yaml", BOMB + case_text().replace("notes: |", "notes: *a8\nextra: |", 1))
    assert "aliases expand to more than 10,000 values" in error("rule", path)


def test_9_2_deep_flow_sequence(tmp_path):
    path = write(tmp_path, "deep.yaml", "title: [" + "[" * 100000 + "]" * 100000 + "]\n")
    assert error("rule", path) == (f"{path}:1:{7 + 64}: nested more than 64 levels deep "
                                   "(expected ordinary nesting of keys and lists)")


# --- issue 14 item 4: unknown keys that look like pydantic's union tags ------------------------------------

@pytest.mark.parametrize("key", ['"a["', '"<x"', "str", "int", "float", '"list[int]"'])
def test_14_4_unknown_key_is_named(tmp_path, key):
    path = write(tmp_path, "k.yaml", f"title: T\n{key}: 1\n")
    message = error("rule", path)
    assert message.startswith(f"{path}:2:1: unknown key '{key.strip(chr(34))}' (expected one of ")


@pytest.mark.parametrize("key", ['"a["', "str", "bogus"])
def test_14_4_unknown_key_in_a_traveller_table_is_named(tmp_path, key):
    text = TRAVELLER.read_text(encoding="utf-8")
    old = "{table: 1, ns: 1, ew: 11, result: 4H= S,"
    text = text.replace(old, "{table: 1, ns: 1, ew: 11, " + key + ": 1, result: 4H= S,")
    path = write(tmp_path, "t.yaml", text)
    message = error("score", path)
    assert message.startswith(f"{path}:{line_of(text, '{table: 1,')}:31: unknown key '{key.strip(chr(34))}' (expected one of ")


# --- issue 14 item 5: a case file cannot substitute a rulebook ---------------------------------------------

def test_14_5_case_rulebook_path_refused(tmp_path):
    fake = write(tmp_path, "wbf-2007.yaml", (ROOT / "rules" / "wbf-2007.yaml").read_text(encoding="utf-8"))
    text = case_text().replace("rulebook: wbf-2007", f"rulebook: {fake}")
    path = write(tmp_path, "c.yaml", text)
    message = error("rule", path)
    assert message.startswith(f"{path}:3:11: unknown rulebook '{str(fake)[:60]}")
    assert "' (expected one of acbl-1997, acbl-2007, " in message
    assert message.endswith("); a file names its rulebook by id; to try a rulebook file, pass --rulebook PATH on the "
                            "command line")


def test_14_5_traveller_rulebook_path_refused(tmp_path):
    text = TRAVELLER.read_text(encoding="utf-8").replace("rulebook: wbf-2017", "rulebook: ../rules/wbf-2017.yaml")
    path = write(tmp_path, "t.yaml", text)
    assert error("score", path).startswith(f"{path}:3:11: unknown rulebook '../rules/wbf-2017.yaml'")


def test_14_5_adjustments_pbn_path_refused(tmp_path):
    text = ADJUSTMENTS.read_text(encoding="utf-8").replace("pbn: board-09.pbn", f"pbn: {PBN}")
    path = write(tmp_path, "a.yaml", text)
    assert error("score", path) == (f"{path}:7:6: pbn: names a PBN file beside the adjustments file, not a path "
                                    "(expected a file name such as board-09.pbn in the same folder)")


@pytest.mark.parametrize("value, column", [("null", 6), ("~", 6), ("", 5)])
def test_adjustments_pbn_empty_is_one_line(tmp_path, value, column):
    # found by bench/mutants.py (traveller, 20,000 mutants): `pbn: null` was a TypeError
    text = ADJUSTMENTS.read_text(encoding="utf-8").replace("pbn: board-09.pbn", f"pbn: {value}")
    path = write(tmp_path, "a.yaml", text)
    assert error("score", path) == (f"{path}:7:{column}: pbn: is empty; it names the PBN file these adjustments are for "
                                    "(expected a file name such as board-09.pbn in the same folder)")


def test_14_5_explicit_rulebook_file_is_named_in_the_header(tmp_path):
    source = (ROOT / "rules" / "wbf-2007.yaml").read_text(encoding="utf-8")
    fake = write(tmp_path, "wbf-2007.yaml", source)
    code, out, err = run("rule", KAPLAN, "--rulebook", fake)
    assert (code, err) == (0, "")
    header = out.splitlines()[2]
    assert header.startswith("Rulebook: wbf-2007 ") and f"— NOT A SHIPPED RULEBOOK: from {fake} (sha256 " in header
    assert re.search(r"\(sha256 [0-9a-f]{64}\)$", header), header           # the full sha256
    code, out, _ = run("rule", KAPLAN, "--rulebook", fake, "--format", "json")
    assert json.loads(out)["rulebook"]["file"] == str(fake)
    code, out, _ = run("rule", KAPLAN)                  # the shipped one: no such note
    assert "NOT A SHIPPED" not in out and "from " not in out.splitlines()[2]


def test_14_5_long_names_are_clean_errors():
    long = "x" * 300 + ".yaml"
    assert error("rule", CASE, "--rulebook", long) == \
        "--rulebook: the file name is too long (at most 255 characters a component)"
    assert error("rule", long).endswith(": the file name is too long (at most 255 characters a component)")
    assert error("check", long).endswith("the file name is too long (at most 255 characters a component)")


# --- issue 14 item 6: silently accepted nonsense -----------------------------------------------------------

def test_14_6_traveller_session_over_100_percent(tmp_path):
    text = TRAVELLER.read_text(encoding="utf-8").replace(
        "{table: 1, ns: 1, ew: 11, result: 4H= S, published: {NS: 18 5/6}}",
        "{table: 1, ns: 1, ew: 11, artificial: {NS: average-plus, EW: average-minus}, session: {NS: 150%}}")
    path = write(tmp_path, "t.yaml", text)
    assert error("score", path) == (f"{path}:10:96: session score 150% is outside 0% to 100% "
                                    "(expected a percentage from 0% to 100%)")


@pytest.mark.parametrize("score", ["NS 20081100", "NS -" + "5" * 4000, "NS +7610"])
def test_14_6_raw_scores_beyond_law_77(tmp_path, score):
    text = TRAVELLER.read_text(encoding="utf-8").replace("result: NS -50,", f"result: {score},")
    path = write(tmp_path, "t.yaml", text)
    message = error("score", path)
    assert message.startswith(f"{path}:29:41: table 12, result: ")
    assert "a raw score is at most 7600 either way (Law 77)" in message and len(message) < 400


def test_14_6_raw_score_in_a_case(tmp_path):
    path = write(tmp_path, "c.yaml", case_text().replace("other_table: NS +620", "other_table: NS +7700"))
    assert "a raw score is at most 7600 either way (Law 77), got 7700" in error("rule", path)


def test_14_6_negative_rounding_steps(tmp_path):
    overlay = write(tmp_path, "o.yaml", "parameters:\n  fieldscore: {neuberg: {round_to: -1/10}}\n")
    assert error("rule", CASE, "--overlay", overlay) == (
        f"{overlay}:2:36: parameter fieldscore.neuberg.round_to: a rounding step is 0 (no rounding) or more, "
        "got -1/10")
    assert error("rule", CASE, "--set", "fieldscore.neuberg.round_to=-1").startswith(
        "--set fieldscore.neuberg.round_to: a rounding step is 0 (no rounding) or more, got -1")


def test_14_6_board_number_true(tmp_path):
    path = write(tmp_path, "c.yaml", case_text().replace("board: {vulnerability: All}",
                                                         "board: {vulnerability: All, number: true}"))
    assert error("rule", path) == f"{path}:5:37: board.number: input should be a valid integer"


def test_14_6_binary_title(tmp_path):
    path = write(tmp_path, "c.yaml", case_text().replace("title: EBL", "title: !!binary aGVsbG8=\nx: EBL"))
    assert error("rule", path) == (f"{path}:1:8: the tag tag:yaml.org,2002:binary is not used in bridgelaw files "
                                   "(expected plain values (no !!binary, !!set, …))")


def test_14_6_effective_until_before_from(tmp_path):
    path = write(tmp_path, "o.yaml", "rules:\n  - {id: x0, replaces: split-damage, stage: damage, "
                 "when: {all: [{given: A}, {lt: [A, C]}, {lt: [C, B]}]}, outcome: split, award: {nos: A, os: \"B'\"}, "
                 "explain: x, cites: [12B1], effective: {from: 2017-09-01, until: 2010-01-01}}\n")
    message = error("rule", CASE, "--overlay", path)
    assert message.startswith(f"{path}:2:")
    assert message.endswith("effective: until (2010-01-01) is before from (2017-09-01)")


def test_14_6_large_and_special_files(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:                        # 50 MB, sparse: refused before it is read
        f.truncate(50 * 1024 * 1024)
    assert error("rule", big) == f"{big}: the file is too large (52,428,800 bytes; at most 2,097,152)"
    assert error("rule", "/dev/zero") == ("/dev/zero: this is not a regular file (a device, pipe or socket), "
                                          "expected a YAML file")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    assert error("rule", fifo).startswith(f"{fifo}: this is not a regular file")
    assert error("score", fifo).startswith(f"{fifo}: this is not a regular file")
    assert error("rule", CASE, "--overlay", fifo).startswith(f"{fifo}: this is not a regular file")
    pbn_fifo = tmp_path / "board.pbn"
    os.mkfifo(pbn_fifo)
    assert error("score", pbn_fifo, "--rulebook", "wbf-2017") == (
        f"{pbn_fifo}: this is not a regular file (a device, pipe or socket), expected a PBN file")
    big_pbn = tmp_path / "big.pbn"
    with open(big_pbn, "wb") as f:                    # results files have their own, larger bound
        f.truncate(limits.MAX_RESULTS_BYTES + 1)
    assert error("score", big_pbn, "--rulebook", "wbf-2017") == (
        f"{big_pbn}: the file is too large (67,108,865 bytes; at most 67,108,864)")


def test_a_results_file_over_the_yaml_bound_reads(tmp_path):
    """A congress's PBN is larger than any case file: 3 MB of it (comment lines before a real
    board) reads and scores as the board alone does."""
    board = (ROOT / "travellers" / "board-09.pbn").read_text(encoding="utf-8")
    padded = tmp_path / "congress.pbn"
    padded.write_text(("% " + "x" * 97 + "\n") * 30_000 + board, encoding="utf-8")
    assert padded.stat().st_size > limits.MAX_FILE_BYTES
    from bridgelaw.field.pbn_file import load_pbn
    assert [g.tag("Board").value for g in load_pbn(padded).games] == \
        [g.tag("Board").value for g in load_pbn(ROOT / "travellers" / "board-09.pbn").games]


# --- issue 14 item 7: messages that keep the promise -------------------------------------------------------

def test_14_7_bytes_and_characters_with_line_and_column(tmp_path):
    text = case_text()
    line = line_of(text, "notes: |")
    bad = write(tmp_path, "latin.yaml", text.replace("notes: |", "notes: caf\xe9\nx: |").encode("latin-1"))
    assert error("rule", bad) == f"{bad}:{line}:11: byte 0xe9 is not UTF-8 text (expected a text file saved as UTF-8)"
    nul = write(tmp_path, "nul.yaml", text.replace("notes: |", "notes: a\x00b\nx: |"))
    assert error("rule", nul) == (f"{nul}:{line}:9: control character U+0000 is not allowed "
                                  "(expected printable text, tabs and line breaks)")
    bell = write(tmp_path, "bell.yaml", text.replace("title: EBL", "title: \x07EBL"))
    assert error("rule", bell).startswith(f"{bell}:1:8: control character U+0007 is not allowed")


def test_14_7_huge_integer_has_no_date_hint(tmp_path):
    path = write(tmp_path, "c.yaml", case_text().replace("board: {vulnerability: All}",
                                                         "board: {vulnerability: All, number: " + "9" * 5000 + "}"))
    message = error("rule", path)
    assert message == (f"{path}:5:37: a number of 5000 digits is too long (at most 30) "
                       "(expected a number such as 620, 3/5 or 0.6)")
    assert "YYYY-MM-DD" not in message


def test_14_7_too_fine_only_of_fine_fractions():
    from bridgelaw.rulebook.adapter import StageEvaluator
    from bridgelaw.rulebook.conditions import parse
    vocab = {"A": "number", "B": "number"}
    evaluator = StageEvaluator("t/s", [("r", parse({"lt": ["A", "B"]}, vocab))], vocab)
    with pytest.raises(ValueError) as large:
        evaluator.applicable({"A": Fraction(10**20), "B": Fraction(0)})
    assert str(large.value) == "a number is too large to compare exactly (A = 100000000000000000000; at most 2^53)"
    with pytest.raises(ValueError) as fine:
        evaluator.applicable({"A": Fraction(1, 2**40), "B": Fraction(1, 3**40)})
    assert str(fine.value).startswith("the numbers are too fine to compare exactly")


def test_14_7_lint_load_errors_on_stderr(tmp_path):
    book = write(tmp_path, "broken.yaml", "rulebook: broken\ntitle: [\n")
    code, out, err = run("lint", book)
    assert code == 2 and out == ""
    assert err == (f"bridgelaw: error: {book}: does not load: {book}:3:1: malformed YAML: did not find "
                   "expected node content (expected valid YAML (check indentation, colons and quotes))\n")


def test_14_7_file_name_with_a_newline_is_one_line(tmp_path):
    path = write(tmp_path, "two\nlines.yaml", "title: [\n")
    message = error("rule", path)
    assert message.startswith(str(path).replace("\n", "\\n") + ":2:1: malformed YAML")


def test_14_7_json_of_a_huge_number_does_not_overflow():
    assert exact_json(Fraction(10**400)) == {"exact": "1" + "0" * 400, "value": None}
    assert exact_json(Fraction(17, 2)) == {"exact": "17/2", "value": 8.5}


# --- issue 14 item 8: process hygiene ---------------------------------------------------------------------

def test_14_8_ctrl_c_while_the_command_starts_exits_130_with_one_line():
    """Ctrl-C while the command's modules are still being imported (the first fraction of a
    second) ends like a Ctrl-C later: the console script's entry point catches it."""
    code = ("import sys, importlib.abc\n"
            "class Interrupt(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'bridgelaw.commands.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupt())\n"
            "from bridgelaw.__main__ import main\n"
            "sys.exit(main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "bridgelaw: interrupted\n")


def test_14_8_ctrl_c_exits_130_with_one_line(monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "cmd_rule", interrupted)
    code, out, err = run("rule", CASE)
    assert (code, out, err) == (130, "", "bridgelaw: interrupted\n")


def _pbn_copy(tmp_path: Path) -> tuple[Path, Path]:
    pbn = tmp_path / "board-09.pbn"
    shutil.copy(PBN, pbn)
    adj = tmp_path / "board-09.adjustments.yaml"
    shutil.copy(ADJUSTMENTS, adj)
    return pbn, adj


def test_14_8_sigterm_removes_the_temporary_file(tmp_path, monkeypatch):
    pbn, adj = _pbn_copy(tmp_path)
    before = pbn.read_bytes()
    real_replace = os.replace

    def killed(src, dst):                 # SIGTERM arrives just before the temporary file is renamed
        os.kill(os.getpid(), signal.SIGTERM)
        real_replace(src, dst)
    monkeypatch.setattr(os, "replace", killed)
    code, out, err = run("score", pbn, "--adjustments", adj, "--in-place")
    assert (code, err) == (143, "bridgelaw: terminated\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board-09.adjustments.yaml", "board-09.pbn"]
    assert pbn.read_bytes() == before
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL or callable(signal.getsignal(signal.SIGTERM))


def test_14_8_in_place_keeps_a_symlink(tmp_path):
    pbn, adj = _pbn_copy(tmp_path)
    link = tmp_path / "link.pbn"
    link.symlink_to(pbn.name)
    before = pbn.read_text(encoding="utf-8")
    code, out, err = run("score", link, "--adjustments", adj, "--in-place")
    assert (code, err) == (0, "")
    assert link.is_symlink() and os.readlink(link) == "board-09.pbn"
    assert pbn.read_text(encoding="utf-8") != before          # the target was rescored


# --- issue 9 item 2: rulebooks and overlays that used to raise or hang ------------------------------------

def rule(i: int, when: str, award: str = "A") -> str:
    return (f"  - {{id: x{i}, stage: damage, when: {when}, outcome: split, award: {{nos: \"{award}\", os: \"A'\"}}, "
            "explain: x, cites: [12B1]}\n")


def overlay(tmp_path: Path, rules: list[str]) -> Path:
    return write(tmp_path, "o.yaml", "rules:\n" + "".join(rules))


def test_9_2_deep_condition(tmp_path):
    when = "{lt: [A, B]}"
    for _ in range(1000):
        when = "{not: " + when + "}"
    path = overlay(tmp_path, [rule(0, when)])
    # "  - {id: x0, stage: damage, when: " is 34 characters; each "{not: " 6; levels 1-3 are the
    # document, the rules list and the rule, so the 62nd not is the 65th level
    assert error("rule", KAPLAN, "--overlay", path) == f"{path}:2:{35 + 61 * 6}: nested more than 64 levels deep " \
        "(expected ordinary nesting of keys and lists)"
    when = "{lt: [A, B]}"
    for _ in range(25):
        when = "{not: " + when + "}"
    path = overlay(tmp_path, [rule(0, when)])
    assert error("rule", KAPLAN, "--overlay", path) == (
        f"{path}:2:{35 + 21 * 6}: rule 'x0': the condition is nested too deeply (at most 20 all/any/not inside "
        "each other)")


def test_9_2_deep_formula(tmp_path):
    path = overlay(tmp_path, [rule(0, "{lt: [A, -100000]}", "(" * 100 + "A" + ")" * 100)])
    assert "the formula is nested too deeply (at most 32 parentheses" in error("rule", KAPLAN, "--overlay", path)
    path = overlay(tmp_path, [rule(0, "{lt: [A, -100000]}", "-" * 500 + "A")])
    assert "the formula is nested too deeply" in error("rule", KAPLAN, "--overlay", path)


def test_9_2_numbers_of_thousands_of_digits(tmp_path):
    path = overlay(tmp_path, [rule(0, "{lt: [A, " + "9" * 5000 + "]}")])
    assert error("rule", KAPLAN, "--overlay", path) == (
        f"{path}:2:44: a number of 5000 digits is too long (at most 30) (expected a number such as 620, 3/5 or 0.6)")
    path = overlay(tmp_path, [rule(0, "{lt: [A, '" + "9" * 5000 + "']}")])
    assert "a number of 5000 digits is too long (at most 30)" in error("rule", KAPLAN, "--overlay", path)
    path = overlay(tmp_path, [rule(0, "{lt: [A, -100000]}", "A * " + "9" * 50)])
    assert "a number of 50 digits is too long (at most 30)" in error("rule", KAPLAN, "--overlay", path)
    path = overlay(tmp_path, [rule(0, "{lt: [A, -100000]}", "A * " + "9" * 5000)])
    message = error("rule", KAPLAN, "--overlay", path)
    assert "too long (5,004 characters; at most 1,000)" in message and len(message) < 400


def test_9_2_formula_division_by_zero_and_rounding_steps(tmp_path):
    when = "{all: [{given: A}, {lt: [A, B]}, {le: [B, C]}]}"
    replace = "  - {id: x0, replaces: all-self-inflicted, stage: damage, when: " + when + \
              ", outcome: all-self-inflicted, award: {nos: \"%s\", os: \"A'\"}, explain: x, cites: [12B1]}\n"
    path = write(tmp_path, "o.yaml", "rules:\n" + replace % "A / (B - B)")
    assert error("rule", KAPLAN, "--overlay", path) == (
        "formula 'A / (B - B)' cannot be evaluated: division by zero in a formula (with the values: (-3) / (0 - 0))")
    for formula in ("A / 0", "round_to(A, 0)", "round_to(A, -1/10)"):
        path = write(tmp_path, "o.yaml", "rules:\n" + replace % formula)
        message = error("rule", KAPLAN, "--overlay", path)
        assert message.startswith(f"{path}:2:") and ("division by zero" in message or "positive step" in message)


def test_9_2_any_with_100000_branches(tmp_path):
    path = overlay(tmp_path, [rule(0, "{any: [" + ", ".join(f"{{lt: [A, {i}]}}" for i in range(100000)) + "]}")])
    assert "a list or mapping of more than 5,000 entries" in error("rule", KAPLAN, "--overlay", path)
    path = overlay(tmp_path, [rule(0, "{any: [" + ", ".join(f"{{lt: [A, {i}]}}" for i in range(300)) + "]}")])
    assert error("rule", KAPLAN, "--overlay", path).startswith(
        f"{path}:2:{line_of_column(path, '{lt: [A, 200]}')}: rule 'x0': the condition has more than 200 tests")


def line_of_column(path: Path, needle: str) -> int:
    line = path.read_text(encoding="utf-8").splitlines()[1]
    return line.index(needle) + 1 + len("{lt: ")


def test_9_2_twenty_thousand_rules(tmp_path):
    path = overlay(tmp_path, [rule(i, "{lt: [A, -100000]}") for i in range(20000)])
    assert error("rule", KAPLAN, "--overlay", path) == (
        f"{path}: the file is too large (2,588,897 bytes; at most 2,097,152)")
    path = overlay(tmp_path, [rule(i, "{lt: [A, -100000]}") for i in range(6000)])
    assert error("rule", KAPLAN, "--overlay", path) == (
        f"{path}:5002:5: a list or mapping of more than 5,000 entries (expected at most 5,000)")


def _sides(*argv) -> dict:
    code, out, err = run(*argv, "--format", "json")
    assert (code, err) == (0, "")
    return json.loads(out)["sides"]


def test_9_2_stages_beyond_one_ruleset_are_partitioned(tmp_path):
    # These stages used to be refused (issue 9 item 2: durable_rules' limits); the adapter now
    # partitions a stage into rulesets inside those limits (issue 9 item 5: 1,000-rule rulebooks),
    # so each rules the case exactly as the rulebook without them.
    plain = _sides("rule", KAPLAN)
    # 300 single-condition rules, each with its own constant (one fact would need 300+ fields: 302)
    path = overlay(tmp_path, [rule(i, f"{{lt: [A, {-1000 - i}]}}") for i in range(300)])
    assert _sides("rule", KAPLAN, "--overlay", path) == plain
    # 600 rules of two tests under one node (1,200 tests: durable_rules hangs past 511 children)
    path = overlay(tmp_path, [rule(i, "{all: [{given: A}, {lt: [A, -1000]}]}") for i in range(600)])
    assert _sides("rule", KAPLAN, "--overlay", path) == plain
    # 70 rules that match in part at once (error 303 past 64 in one ruleset)
    path = overlay(tmp_path, [rule(i, f"{{all: [{{given: A}}, {{gt: [A, {-1000 - i}]}}, {{lt: [A, -999]}}]}}")
                              for i in range(70)])
    assert _sides("rule", KAPLAN, "--overlay", path) == plain


def test_9_2_a_stage_beyond_max_stage_rules_is_named():
    from bridgelaw.rulebook import conditions as cond
    from bridgelaw.rulebook.adapter import stage_problem
    rules = [(f"x{i}", cond.Compare("lt", cond.Name("A"), cond.Const(Fraction(-i)))) for i in range(limits.MAX_STAGE_RULES + 1)]
    assert stage_problem("big/damage", rules[:-1]) is None
    problem = stage_problem("big/damage", rules)
    assert problem.rule_id == f"x{limits.MAX_STAGE_RULES}"
    assert problem.message == "stage big/damage has more than 5,000 rules, more than the rule engine can hold"


ANY_70 = "{any: [" + ", ".join(f"{{gt: [A, {-1000 - i}]}}" for i in range(70)) + "]}"


def test_9_2_a_rule_matching_in_too_many_ways_is_named(tmp_path):
    """One rule whose any has 70 branches that hold: durable_rules refuses the fact (error 303)
    and no partition can help, so the rule is named."""
    path = overlay(tmp_path, [rule(0, ANY_70)])
    assert error("rule", KAPLAN, "--overlay", path) == (
        "wbf-2007+overlay, stage damage: rule 'x0' of stage wbf-2007+overlay/damage matches these facts, wholly "
        "or in part, in more than 64 ways at once (one for each branch of an any that holds); the rule engine "
        "handles at most 64")


def test_9_2_lint_reports_a_rulebook_beyond_the_engine(tmp_path):
    shutil.copy(ROOT / "rules" / "wbf-2007.yaml", tmp_path / "wbf-2007.yaml")
    book = write(tmp_path, "big.yaml", "rulebook: big\ntitle: T\nauthority: X\nversion: '1'\nextends: wbf-2007\n"
                 "effective: {from: 2010-01-01}\nrules:\n" + rule(0, ANY_70))
    code, out, err = run("lint", book)
    assert code == 2
    assert err.startswith(f"bridgelaw: error: {book}:8:5: big: the rule engine cannot hold it: rule 'x0' of stage "
                          "big/damage matches these facts, wholly or in part, in more than 64 ways at once")
    assert len(err.splitlines()) == 1


def test_limits_are_documented():
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    for name in ("MAX_FILE_BYTES", "MAX_RESULTS_BYTES", "MAX_DEPTH", "MAX_ALIAS_NODES", "MAX_ITEMS", "MAX_DIGITS", "MAX_EXPONENT",
                 "RAW_SCORE_MAX", "MAX_FORMULA_CHARS", "MAX_FORMULA_DEPTH", "MAX_CONDITION_DEPTH",
                 "MAX_CONDITION_TESTS", "MAX_STAGE_RULES", "MAX_STAGE_TESTS", "MAX_FACT_FIELDS", "MAX_MATCHING"):
        value = getattr(limits, name)
        assert f"{value:,}" in text, f"docs/limits.md does not give {name} = {value:,}"
    for status in ("| 0 |", "| 1 |", "| 2 |", "| 130 |"):
        assert status in text


def test_bound_errors_are_limit_errors():
    """A caller that would re-parse the text to place an error (the web form) can tell a bound
    from an ordinary mistake: re-parsing is the work the bound prevents."""
    from bridgelaw.core.limits import LimitError
    from bridgelaw.core.yamlio import load_yaml
    for text in ("title: " + DEEP, BOMB + "title: *a8\n", "title: " + "9" * 5000 + "\n", "title: a\x00b\n"):
        with pytest.raises(LimitError):
            load_yaml("request", text=text)


@pytest.mark.parametrize("kind", ["digits", "deep", "bomb"])
def test_the_web_api_applies_the_same_bounds(kind):
    """The web server reads posted text with the same loader: a bound is a 422 with the one-line
    error's parts, never a 500 from re-parsing the text to place the error on the form."""
    from starlette.testclient import TestClient

    from bridgelaw.web.app import create_app
    text = case_text()
    text = {"digits": text.replace("board: {vulnerability: All}",
                                   "board: {vulnerability: All, number: " + "9" * 5000 + "}"),
            "deep": text.replace("notes: |", "notes: " + DEEP + "\nextra: |", 1),
            "bomb": BOMB + text.replace("table_result: 4SX-2 E", "table_result: *a8")}[kind]
    client = TestClient(create_app(), raise_server_exceptions=False)
    r = client.post("/api/rule", content=text, headers={"content-type": "application/yaml"})
    assert r.status_code == 422, r.text[:300]
    assert r.json()["error"] == {"digits": "a number of 5000 digits is too long (at most 30)",
                                 "deep": "nested more than 64 levels deep",
                                 "bomb": "aliases expand to more than 10,000 values"}[kind]


def test_24_sigterm_while_the_command_starts_exits_143_with_one_line():
    """Issue 24: SIGTERM while the modules load used to end the process by the signal (exit -15,
    no message); now the entry point's handler is in place before they load."""
    code = ("import os, signal, sys, importlib.abc\n"
            "class Terminate(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'bridgelaw.commands.cli':\n"
            "            os.kill(os.getpid(), signal.SIGTERM)\n"
            "sys.meta_path.insert(0, Terminate())\n"
            "from bridgelaw.__main__ import main\n"
            "sys.exit(main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (143, "", "bridgelaw: terminated\n")


def test_24_sigterm_swallowed_by_a_finalizer_still_ends_the_start():
    """A SIGTERM whose exception Python swallows (it arrived inside a finalizer) still ends the
    command: the handler notes it, and the entry point looks at the note after the imports."""
    code = ("import sys, importlib.abc, bridgelaw.__main__ as entry\n"
            "class Swallowed(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'bridgelaw.commands.cli':\n"
            "            try:\n"
            "                entry._terminate(15, None)\n"
            "            except BaseException:\n"
            "                pass\n"
            "sys.meta_path.insert(0, Swallowed())\n"
            "sys.exit(entry.main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (143, "", "bridgelaw: terminated\n")


def test_a_file_is_read_at_its_size_and_on_when_it_grew(tmp_path, monkeypatch):
    """core.limits.read_bytes reads the size the file has (no buffer of the whole bound for each file);
    a file that grew after its size was taken is read on, and refused past the bound all the same."""
    f = tmp_path / "f.pbn"
    f.write_bytes(b"x" * 100)
    assert limits.read_bytes(f, limit=1000) == b"x" * 100
    real_stat = os.stat

    class Shrunk:                       # the size as it was before the file grew to 100 bytes
        def __init__(self, info):
            self.st_mode, self.st_size = info.st_mode, 10
    monkeypatch.setattr(limits.os, "stat", lambda name: Shrunk(real_stat(name)))
    assert limits.read_bytes(f, limit=1000) == b"x" * 100
    with pytest.raises(limits.LimitError):
        limits.read_bytes(f, limit=50)
