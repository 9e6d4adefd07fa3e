"""The bridgelaw command line: rule, check, rulebooks, --help, and bad input.

Most tests call bridgelaw.commands.cli.main([...]) and read stdout/stderr with capsys; two run the
installed console script in a subprocess to prove the real exit status and that no
traceback reaches the user.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bridgelaw import rulebook as rulebooks
from bridgelaw.commands.cli import main

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "cases"
EXAMPLE_07 = CASES / "wbf-commentary-2017" / "example-07.yaml"
# the JSON contract for scoring programs; later features add keys (event, players, vp), none may go
JSON_KEYS = {"title", "source", "outcome", "unit", "top", "sides", "nos", "os", "quantities", "steps",
             "rules", "citations", "rulebook", "warnings"}

# a case whose line 3 is wrong: scoring: impz (did you mean 'imps'?)
BAD_CASE = """\
title: Bad scoring
rulebook: wbf-2017
scoring: impz
board: {vulnerability: NS}
non_offending: NS
table_result: 5HX-2 N
other_table: 3S+1 W
without_infraction: 4H-1 N
"""


def identity(book_id: str) -> str:
    """A Laws edition's sha256: of its file, and with shared layers (include:) of that hash and each
    layer's text, one a line."""
    file = REPO / "rules" / f"{book_id}.yaml"
    own = hashlib.sha256(file.read_bytes()).hexdigest()
    shared = re.findall(r"^include: \[([^\]]*)\]", file.read_text(encoding="utf-8"), re.M)
    if not shared:
        return own
    texts = [(REPO / "rules" / "shared" / f"{n.strip()}.yaml").read_text(encoding="utf-8") for n in shared[0].split(",")]
    return hashlib.sha256("\n".join([own, *texts]).encode("utf-8")).hexdigest()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def script() -> list[str]:
    """The installed console script, or the module when the script is not there."""
    exe = Path(sys.executable).parent / "bridgelaw"
    if exe.is_file():
        return [str(exe)]
    return [sys.executable, "-m", "bridgelaw.commands.cli"]


def assert_one_line_error(err: str, prefix: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{err}"
    assert lines[0].startswith(prefix), lines[0]
    assert "Traceback" not in err
    return lines[0]


# --------------------------------------------------------------------------- rule


def test_rule_text(capsys):
    code, out, err = run(capsys, "rule", str(EXAMPLE_07))
    assert (code, err) == (0, "")
    lines = [line.strip() for line in out.splitlines()]
    assert lines[0] == "RULING: WBF commentary on Law 12, example 7 (gambling 5H, split damage)"
    a_lines = [line for line in lines if line.startswith("A (table result)")]
    assert len(a_lines) == 1
    assert a_lines[0].endswith("5HX-2 N: NS -500 → NS IMP(-500 + 170) = -8")
    assert "IMP(-100 + 170) = +2" in out          # B
    assert "IMP(-420 + 170) = -6" in out          # C
    assert ("Ruling: Score adjusted: the offending side gets the assigned score; the non-offending side keeps the part "
            "of the damage it caused itself (split)") in lines           # the outcome in words (issue 32)
    assert re.search(r"^\s*NS \(non-offending\):\s+0 IMPs\s+\[A \+ B - C\]$", out, re.M)
    assert re.search(r"^\s*EW \(offending\):\s+-2 IMPs\s+\[B'\]$", out, re.M)
    law = lines[lines.index("Law"):]
    cited = [line.split()[0] for line in law[1:] if line and line.split()[0].startswith("12")]
    assert {"12C1(e)", "12C1(e)(i)", "12C1(e)(ii)"} <= set(cited)
    assert "12C1(e)(ii)  The non-offending side does not receive relief" in " ".join(law)


def test_rule_json(capsys):
    code, out, err = run(capsys, "rule", str(EXAMPLE_07), "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert JSON_KEYS <= set(data), JSON_KEYS - set(data)
    assert list(data)[:5] == ["title", "source", "outcome", "unit", "top"]
    assert data["outcome"] == "split"
    assert data["unit"] == "IMP"
    assert data["top"] is None
    # each side: its exact score and its float value (since 984b4ba also the label of its award)
    assert {k: data["sides"]["NS"][k] for k in ("exact", "value")} == {"exact": "0", "value": 0.0}
    assert {k: data["sides"]["EW"][k] for k in ("exact", "value")} == {"exact": "-2", "value": -2.0}
    assert set(data["sides"]["NS"]) - {"exact", "value"} <= {"label"}
    assert data["nos"]["side"] == "NS" and data["nos"]["exact"] == "0" and data["nos"]["formula"] == "A + B - C"
    assert data["os"]["side"] == "EW" and data["os"]["exact"] == "-2" and data["os"]["formula"] == "B'"
    assert {k: data["quantities"][k]["exact"] for k in ("A", "B", "C")} == {"A": "-8", "B": "2", "C": "-6"}
    assert data["rules"][-1] == "split-damage"
    assert [c["paragraph"] for c in data["citations"]][-3:] == ["12C1(e)", "12C1(e)(i)", "12C1(e)(ii)"]
    assert all(c["text"] for c in data["citations"])
    book = data["rulebook"]
    assert book["id"] == "wbf-2017"
    assert re.fullmatch(r"[0-9a-f]{64}", book["sha256"])
    assert book["sha256"] == identity("wbf-2017")
    assert data["warnings"] == []


def test_rule_markdown(capsys):
    code, out, err = run(capsys, "rule", str(EXAMPLE_07), "--format", "markdown")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "# Ruling: WBF commentary on Law 12, example 7 (gambling 5H, split damage)"
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## Facts", "## Arithmetic", "## Ruling: Score adjusted: the offending side gets the assigned "
                        "score; the non-offending side keeps the part of the damage it caused itself (`split`)",
                        "## Law", "## Narrative and reasons"]
    assert "| NS | non-offending | 0 IMPs | `A + B - C` |" in lines
    assert any(line.startswith("- **12C1(e)(ii)** ") for line in lines)


def test_rule_under_the_2007_rulebook(capsys):
    code, out, err = run(capsys, "rule", str(EXAMPLE_07), "--rulebook", "wbf-2007", "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["rulebook"]["id"] == "wbf-2007"
    cited = [c["paragraph"] for c in data["citations"]]
    assert "12C1(b)" in cited and "12C1(f)" in cited
    assert "12C1(e)(i)" not in cited and "12C1(e)(ii)" not in cited
    assert data["outcome"] == "split"
    assert data["sides"]["NS"]["exact"] == "0" and data["sides"]["EW"]["exact"] == "-2"


def test_rule_under_the_2007_rulebook_text(capsys):
    code, out, _ = run(capsys, "rule", str(EXAMPLE_07), "--rulebook", "wbf-2007")
    assert code == 0
    assert re.search(r"^Rulebook: wbf-2007 2007\.1, World Bridge Federation", out, re.M)
    law = out[out.index("\nLaw\n"):]
    assert re.search(r"^  12C1\(f\)\s+\(text not confirmed\) The scores awarded to the two sides need not balance\.", law, re.M)
    assert "12C1(e)" not in law


def test_rule_relative_path_from_the_checkout(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code, out, _ = run(capsys, "rule", "cases/wbf-commentary-2017/example-07.yaml", "--format", "json")
    assert code == 0 and json.loads(out)["outcome"] == "split"


# --------------------------------------------------------------------------- check


def test_check_the_shipped_cases(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    files = sorted(Path("cases").rglob("*.yaml"))
    with_expect = [f for f in files if re.search(r"^expect:", f.read_text(encoding="utf-8"), re.M)]
    assert len(with_expect) >= 20
    code, out, err = run(capsys, "check", "cases/")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    skipped = len(files) - len(with_expect)
    assert lines[-1] == f"{len(with_expect)} passed, 0 failed" + (f", {skipped} skipped" if skipped else "")
    assert sum(line.startswith("PASS  ") for line in lines) == len(with_expect)
    assert "PASS  cases/wbf-commentary-2017/example-07.yaml  split  NS 0  EW -2 IMP" in lines


def test_check_reports_a_wrong_expectation(capsys, tmp_path):
    text = EXAMPLE_07.read_text(encoding="utf-8")
    old = "expect: {outcome: split, nos: 0, os: -2}"
    assert text.count(old) == 1
    case = tmp_path / "wrong.yaml"
    case.write_text(text.replace(old, "expect: {outcome: no-damage, nos: 1, os: -2}"), encoding="utf-8")
    code, out, err = run(capsys, "check", str(tmp_path))
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0] == f"FAIL  {case}"
    assert "outcome: expected no-damage, got split" in [line.strip() for line in lines]
    assert "nos: expected 1, got 0" in [line.strip() for line in lines]
    assert not any("os: expected" in line and "nos" not in line for line in lines)
    assert lines[-1] == "0 passed, 1 failed"


def test_check_with_an_unreadable_case_exits_2(capsys, tmp_path):
    (tmp_path / "good.yaml").write_text(EXAMPLE_07.read_text(encoding="utf-8"), encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_CASE, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 2
    lines = out.splitlines()
    assert f"ERROR {bad}" in lines
    detail = lines[lines.index(f"ERROR {bad}") + 1].strip()
    assert detail.startswith(f"{bad}:3:10: scoring: 'impz' is not allowed")
    assert detail.endswith("did you mean 'imps'?")
    assert f"PASS  {tmp_path / 'good.yaml'}  split  NS 0  EW -2 IMP" in lines
    assert lines[-1] == "1 passed, 1 failed"


def test_check_json(capsys, tmp_path):
    (tmp_path / "good.yaml").write_text(EXAMPLE_07.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(BAD_CASE, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(tmp_path), "--format", "json")
    assert code == 2
    data = json.loads(out)
    assert {k: data["summary"][k] for k in ("pass", "fail", "error", "skip")} == {
        "pass": 1, "fail": 0, "error": 1, "skip": 0}
    status = {Path(r["path"]).name: r["status"] for r in data["results"]}
    assert status == {"bad.yaml": "error", "good.yaml": "pass"}


def test_check_a_missing_folder(capsys, tmp_path):
    code, out, err = run(capsys, "check", str(tmp_path / "nowhere"))
    assert (code, out) == (2, "")
    assert_one_line_error(err, f"bridgelaw: error: no such file or folder: {tmp_path / 'nowhere'}")


# --------------------------------------------------------------------------- rulebooks


def test_rulebooks_text(capsys):
    code, out, err = run(capsys, "rulebooks")
    assert (code, err) == (0, "")
    out, calendar = out.split("\n\n", 1)           # the rulebooks, then each body's calendar (tests/test_calendar.py)
    assert calendar.startswith("Calendar (rules/calendar.yaml)")
    rows = {line.split()[0]: line.split() for line in out.splitlines() if not line.startswith(" ")}
    assert list(rows) == list(rulebooks.available())
    assert {"wbf-2007", "wbf-2017"} <= set(rows)
    assert rows["wbf-2007"][1:5] == ["2007.1", "2008-01-01", "→", "2017-12-31"]
    assert rows["wbf-2017"][1:5] == ["2017.1", "2017-03-01", "→", "—"]
    # each rulebook's sourced share on the line below it (rules/ and tests/test_law_sources.py)
    shares = [line.split() for line in out.splitlines() if line.startswith(" ")]
    assert len(shares) == len(rows) and all(s[:2] == ["sourced", "100%:"] for s in shares)
    assert re.search(r"^wbf-2007 .*Laws of Duplicate Bridge 2007 — Law 12", out, re.M)
    assert re.search(r"^wbf-2017 .*Laws of Duplicate Bridge 2017 — Law 12", out, re.M)


def test_rulebooks_json(capsys):
    code, out, err = run(capsys, "rulebooks", "--format", "json")
    assert (code, err) == (0, "")
    data = {b["id"]: b for b in json.loads(out)}
    assert list(data) == list(rulebooks.available())
    assert data["wbf-2017"]["sourced"]["paragraphs"] == [58, 58]
    assert data["wbf-laws-committee-2017"]["sourced"]["by_kind"]["recommendation"] == 4
    data = {k: v for k, v in data.items() if k in ("wbf-2007", "wbf-2017")}
    assert data["wbf-2007"]["version"] == "2007.1"
    assert data["wbf-2007"]["effective"] == {"from": "2008-01-01", "until": "2017-12-31"}
    assert data["wbf-2017"]["version"] == "2017.1"
    assert data["wbf-2017"]["effective"] == {"from": "2017-03-01", "until": None}
    for book in data.values():
        assert book["authority"] == "World Bridge Federation"
        assert book["rules"] >= 8
        assert book["sha256"] == identity(book["id"])


# --------------------------------------------------------------------------- help and usage


@pytest.mark.parametrize(("argv", "usage"), [
    (["--help"], "usage: bridgelaw "),
    (["rule", "--help"], "usage: bridgelaw rule "),
    (["check", "--help"], "usage: bridgelaw check "),
    (["rulebooks", "--help"], "usage: bridgelaw rulebooks "),
])
def test_help(capsys, argv, usage):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 0
    out, err = capsys.readouterr()
    assert out.startswith(usage)
    assert err == ""


def test_help_lists_the_subcommands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("rule", "check", "rulebooks"):
        assert re.search(rf"^\s+{command}\s", out, re.M), command


@pytest.mark.parametrize("argv", [[], ["rule"], ["rule", "x.yaml", "--format", "xml"], ["nonsense"]],
                         ids=["no-command", "no-case", "bad-format", "unknown-command"])
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "error:" in err and "Traceback" not in err


# --------------------------------------------------------------------------- bad input


def test_invalid_case_is_one_line_on_stderr(capsys, tmp_path):
    case = tmp_path / "bad.yaml"
    case.write_text(BAD_CASE, encoding="utf-8")
    code, out, err = run(capsys, "rule", str(case))
    assert (code, out) == (2, "")
    line = assert_one_line_error(err, f"bridgelaw: error: {case}:3:10: ")
    assert line == (f"bridgelaw: error: {case}:3:10: scoring: 'impz' is not allowed "
                    "(expected 'imps' or 'matchpoints'); did you mean 'imps'?")


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_invalid_case_writes_nothing_in_any_format(capsys, tmp_path, fmt):
    case = tmp_path / "bad.yaml"
    case.write_text(BAD_CASE, encoding="utf-8")
    code, out, err = run(capsys, "rule", str(case), "--format", fmt)
    assert (code, out) == (2, "")
    assert_one_line_error(err, f"bridgelaw: error: {case}:3:10: ")


def test_unknown_rulebook_in_case(capsys, tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(EXAMPLE_07.read_text(encoding="utf-8").replace("rulebook: wbf-2017", "rulebook: wbf-2071"),
                    encoding="utf-8")
    code, out, err = run(capsys, "rule", str(case))
    assert (code, out) == (2, "")
    line = assert_one_line_error(err, f"bridgelaw: error: {case}:3:11: unknown rulebook 'wbf-2071'")
    assert "wbf-2007, wbf-2017" in line and line.endswith("did you mean 'wbf-2017'?")


def test_unknown_rulebook_option(capsys):
    code, out, err = run(capsys, "rule", str(EXAMPLE_07), "--rulebook", "wbf-2018")
    assert (code, out) == (2, "")
    known = ", ".join(rulebooks.available())
    assert "wbf-2007, wbf-2017" in known
    assert_one_line_error(err, f"bridgelaw: error: unknown rulebook 'wbf-2018' (expected one of {known}); "
                               "did you mean 'wbf-2017'?")


def test_missing_case_file(capsys, tmp_path):
    code, out, err = run(capsys, "rule", str(tmp_path / "missing.yaml"))
    assert (code, out) == (2, "")
    assert_one_line_error(err, f"bridgelaw: error: {tmp_path / 'missing.yaml'}: no such file")


def test_broken_rulebook_file_option(capsys, tmp_path):
    book = tmp_path / "wbf-2017.yaml"
    book.write_text((REPO / "rules" / "wbf-2017.yaml").read_text(encoding="utf-8").replace("cites: [12C1(b)]", "cites: [12C1b]", 1),
                    encoding="utf-8")
    code, out, err = run(capsys, "rule", str(EXAMPLE_07), "--rulebook", str(book))
    assert (code, out) == (2, "")
    line = assert_one_line_error(err, f"bridgelaw: error: {book}:")
    assert "cites 12C1b, which this rulebook does not define" in line
    assert line.endswith("did you mean '12C1(b)'?")


def test_error_with_line_break_in_value_stays_one_line(capsys, tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(BAD_CASE.replace("scoring: impz\n", "scoring: imps\n").replace("5HX-2 N", '"4Z\\n= N"'),
                    encoding="utf-8")
    code, out, err = run(capsys, "rule", str(case))
    assert (code, out) == (2, "")
    assert_one_line_error(err, f"bridgelaw: error: {case}:6:15: ")


# --------------------------------------------------------------------------- the real program


def test_subprocess_success():
    proc = subprocess.run([*script(), "rule", str(EXAMPLE_07), "--format", "json"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    data = json.loads(proc.stdout)
    assert (data["sides"]["NS"]["exact"], data["sides"]["NS"]["value"]) == ("0", 0.0)
    assert data["os"]["exact"] == "-2"


def test_subprocess_bad_input_exit_2_without_traceback(tmp_path):
    case = tmp_path / "bad.yaml"
    case.write_text(BAD_CASE, encoding="utf-8")
    proc = subprocess.run([*script(), "rule", str(case)], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert_one_line_error(proc.stderr, f"bridgelaw: error: {case}:3:10: scoring: 'impz' is not allowed")


def test_trailing_tab_keeps_the_position(capsys, tmp_path):
    case = tmp_path / "bad.yaml"
    case.write_text(BAD_CASE.replace("scoring: impz\n", "scoring: impz\t\n"), encoding="utf-8")
    code, out, err = run(capsys, "rule", str(case))
    assert (code, out) == (2, "")
    assert_one_line_error(err, f"bridgelaw: error: {case}:3:10: ")


def test_impossible_date_no_traceback(capsys, tmp_path):
    case = tmp_path / "bad.yaml"
    case.write_text(BAD_CASE.replace("scoring: impz\n", "scoring: imps\ndate: 2017-02-30\n"), encoding="utf-8")
    code, out, err = run(capsys, "rule", str(case))
    assert (code, out) == (2, "")
    line = assert_one_line_error(err, f"bridgelaw: error: {case}:4:7: ")
    assert "day is out of range for month" in line


# --- start-up: `rule` imports only what it needs -------------------------------------------------

def test_rule_imports_neither_web_events_traveller_casebook_nor_compare():
    code = ("import sys, io, contextlib\n"
            "from bridgelaw.commands.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['rule', 'cases/wbf-commentary-2017/example-07.yaml']) == 0\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('bridgelaw'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    loaded = set(out.split())
    assert "bridgelaw.ruling.build" in loaded and "bridgelaw.render.ruling" in loaded
    for module in ("bridgelaw.web", "bridgelaw.commands.serve", "bridgelaw.field.run", "bridgelaw.field.traveller",
                   "bridgelaw.commands.score", "bridgelaw.render.casebook", "bridgelaw.render.compare", "bridgelaw.rulebook.lint",
                   "bridgelaw.render.explain"):
        assert module not in loaded, module


def test_lazy_subcommands_list_the_same_help_as_their_full_parsers():
    from bridgelaw.commands.cli import LAZY, build_parser

    def helps(parser):
        action = next(a for a in parser._actions if a.dest == "command")
        return {c.dest: c.help for c in action._choices_actions}

    full = helps(build_parser())
    assert set(LAZY) <= set(full)
    assert helps(build_parser("rule")) == full
    for name in LAZY:
        assert full[name] == LAZY[name][2], name


def test_a_lazy_subcommand_parses_its_own_options(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["score", "--help"])
    assert exit_.value.code == 0
    assert "--scoring" in capsys.readouterr().out


# --- check and compare stream their output --------------------------------------------------------

STREAMED = sorted((REPO / "cases" / "wbf-commentary-2017").glob("example-0*.yaml"))[:4]


def _reading_snapshots(monkeypatch, module):
    """Replace sys.stdout by a buffer and `module.load_case` by a wrapper that notes, for each case
    read, what had been printed by then."""
    import io
    buffer, printed = io.StringIO(), {}
    real = module.load_case

    def load(path):
        printed[str(path)] = buffer.getvalue()
        return real(path)
    monkeypatch.setattr(sys, "stdout", buffer)
    monkeypatch.setattr(module, "load_case", load)
    return buffer, printed


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_prints_each_case_before_reading_the_next(monkeypatch, fmt):
    import bridgelaw.commands.cli as cli
    buffer, printed = _reading_snapshots(monkeypatch, cli)
    assert main(["check", *map(str, STREAMED), "--format", fmt]) == 0
    last = printed[str(STREAMED[-1])]
    assert str(STREAMED[0]) in last and str(STREAMED[-2]) in last and str(STREAMED[-1]) not in last
    assert "passed" not in last and "summary" not in last
    if fmt == "json":
        data = json.loads(buffer.getvalue())
        assert [r["path"] for r in data["results"]] == list(map(str, STREAMED))
        assert data["summary"]["pass"] == len(STREAMED)


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_compare_prints_each_case_before_reading_the_next(monkeypatch, fmt):
    import bridgelaw.render.compare as comparing
    buffer, printed = _reading_snapshots(monkeypatch, comparing)
    assert main(["compare", "--rulebooks", "wbf-2007,wbf-2017", *map(str, STREAMED), "--format", fmt]) == 0
    last = printed[str(STREAMED[-1])]
    name = STREAMED[0].name if fmt == "markdown" else str(STREAMED[0])
    assert name in last and STREAMED[-1].name not in last
    # the streamed output is the one the whole-matrix renderer gives
    columns = [comparing.Column(rulebooks.get("wbf-2007"), None), comparing.Column(rulebooks.get("wbf-2017"), 0)]
    assert buffer.getvalue() == comparing.RENDERERS[fmt](comparing.build(columns, STREAMED))


def test_streamed_compare_keeps_no_ruling():
    import bridgelaw.render.compare as comparing
    from bridgelaw.ruling.result import Ruling
    columns = [comparing.Column(rulebooks.get("wbf-2007"), None), comparing.Column(rulebooks.get("wbf-2017"), 0)]
    parts = []
    matrix = comparing.stream(columns, STREAMED, "text", parts.append)
    assert not any(isinstance(c.ruling, Ruling) for _, cells in matrix.rows for c in cells)
    assert "".join(parts) == comparing.text(comparing.build(columns, STREAMED))
