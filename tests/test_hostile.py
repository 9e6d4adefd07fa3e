"""Issue 24: no input kind unguarded. Each reproduction of the issue that the YAML readers, the
rulebook loader, the parameters and the command line own, as a test: exit status 2, one located
line on stderr, nothing on stdout, nothing written. (The web's reproductions are in
tests/test_web_hostile.py, the writer's in tests/test_files.py.)"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest

from bridgelaw.commands import cli

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"
TRAVELLER = ROOT / "travellers" / "wbf-2017-example-09.yaml"


def run(*argv: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def error(*argv: object) -> str:
    code, out, err = run(*argv)
    assert (code, out) == (2, ""), (code, out[:300], err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bridgelaw: error: "), err
    return lines[0][len("bridgelaw: error: "):]


def rulebook_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", folder)
    return folder / "wbf-2017.yaml"


def kinds(tmp_path: Path, value: str) -> dict[str, tuple[list, Path, str]]:
    """For each YAML input kind: the command, the file, and the text before `value` on its line
    (each file has `value` as the value of a key the loader reads)."""
    case = tmp_path / "case.yaml"
    case.write_text(CASE.read_text().replace("title: WBF commentary on Law 12, example 7 (gambling 5H, split damage)",
                                             f"title: {value}"), encoding="utf-8")
    trav = tmp_path / "trav.yaml"
    trav.write_text(TRAVELLER.read_text().replace(
        "title: WBF commentary on Law 12, example 9 (a weighted score rescored across the field)",
        f"title: {value}"), encoding="utf-8")
    book = rulebook_copy(tmp_path)
    book.write_text(book.read_text().replace(
        "title: Laws of Duplicate Bridge 2017 — Law 12 (Director's discretionary powers)", f"title: {value}"),
        encoding="utf-8")
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(f"parameters:\n  artificial: {{pairs: {{avg_plus: {value}}}}}\n", encoding="utf-8")
    return {"case": (["rule", case], case, "title: "),
            "traveller": (["score", trav], trav, "title: "),
            "rulebook": (["rule", CASE, "--rulebook", book], book, "title: "),
            "overlay": (["rule", CASE, "--overlay", overlay], overlay, "  artificial: {pairs: {avg_plus: ")}


def line_column(path: Path, prefix: str) -> str:
    lines = path.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith(prefix))
    return f"{path}:{n + 1}:{len(prefix) + 1}"


BAD_SCALARS = [
    ("!!bool maybe", "'maybe' is not a !!bool value (expected true or false)"),
    ("!!bool 2", "'2' is not a !!bool value (expected true or false)"),
    ("!!bool ''", "'' is not a !!bool value (expected true or false)"),
    ("!!int ''", "'' is not a !!int value (expected a whole number such as 7)"),
    ("!!float ''", "'' is not a !!float value (expected a number such as 0.6)"),
    ("!!int '٩'", "'٩' is not a !!int value (expected a whole number such as 7)"),
    ("!!null x", "'x' is not a !!null value (expected null, ~ or nothing)"),
    ("!!timestamp x", "'x' is not a !!timestamp value (expected a date such as 2024-05-18)"),
    ("!!timestamp 2017-02-30", "'2017-02-30' is not a day of the calendar: day is out of range for month "
                               "(expected dates as YYYY-MM-DD that exist)"),
    ("0000-01-01", "'0000-01-01' is not a day of the calendar: year 0 is out of range "
                   "(expected dates as YYYY-MM-DD that exist)"),
    ("9999-01-01", "'9999-01-01': the year 9999 is outside 1900–2100 (expected a date from 1900 to 2100)"),
    ("!!str [1]", "the tag !!str is not used in bridgelaw files on a list (expected plain mappings and lists "
                  "(a tag such as !!str is for a single value))"),
    ("!!map x", "the tag !!map is for a mapping or a list, not a single value (expected a plain value, or !!str, "
                "!!int, !!float, !!bool, !!null)"),
    ('"\\e[31mred"', "control character U+001B (written as an escape) is not allowed "
                     "(expected printable text, tabs and line breaks)"),
    ('"\\0"', "control character U+0000 (written as an escape) is not allowed "
              "(expected printable text, tabs and line breaks)"),
    ('"\\a"', "control character U+0007 (written as an escape) is not allowed "
              "(expected printable text, tabs and line breaks)"),
]


@pytest.mark.parametrize("kind", ["case", "traveller", "rulebook", "overlay"])
@pytest.mark.parametrize("value, message", BAD_SCALARS, ids=[v for v, _ in BAD_SCALARS])
def test_24_4_every_bad_scalar_in_every_yaml_kind(tmp_path, kind, value, message):
    """Issue 24 item 4 (KeyError/IndexError inside ruamel) and the control characters of YAML
    escapes: one YAML scalar guard for every YAML input, at the value's line and column."""
    argv, path, prefix = kinds(tmp_path, value)[kind]
    assert error(*argv) == f"{line_column(path, prefix)}: {message}"


@pytest.mark.parametrize("text", ["parameters: &a {artificial: *a}\n", "parameters: &a [*a]\n",
                                  "notes: &a {x: [1, {y: *a}]}\n"])
def test_24_5_a_recursive_alias_in_an_overlay(tmp_path, text):
    overlay = tmp_path / "o.yaml"
    overlay.write_text(text)
    column = text.index("*a") + 1
    assert error("rule", CASE, "--overlay", overlay) == (
        f"{overlay}:1:{column}: the alias *a is used inside the value it names (a value that contains itself) "
        "(expected an alias (*name) after its anchored value ends)")


@pytest.mark.parametrize("name", ["a" * 300, "../../../../etc/passwd", "/etc/hosts", "shared/../wbf-law12",
                                  "Wbf-Law12", "wbf-law12.yaml", ""])
def test_24_6_an_include_is_a_name_in_the_shared_folder(tmp_path, name):
    book = rulebook_copy(tmp_path)
    text = book.read_text()
    shipped = re.search(r"^include: \[[^\]]*\]", text, re.M)[0]
    book.write_text(text.replace(shipped, f'include: ["{name}"]'))
    line = text[:text.index(shipped)].count("\n") + 1
    shown = name if len(name) <= 40 else name[:40] + "…"
    assert error("rule", CASE, "--rulebook", book) == (
        f"{book}:{line}:11: include: '{shown}' is not the name of a shared layer (expected the name of a file "
        "in the rulebooks' shared/ folder without .yaml, such as wbf-law12 (lower-case letters, digits, - and _; "
        "at most 64; never a path))")


def test_24_6_an_include_outside_the_folder_is_not_read(tmp_path):
    """A .yaml beside the rules folder, named by ../, is never opened: the error is the name's."""
    book = rulebook_copy(tmp_path)
    (tmp_path / "evil.yaml").write_text("layer: evil\nrules: []\n")
    text = book.read_text()
    book.write_text(text.replace(re.search(r"^include: \[[^\]]*\]", text, re.M)[0], "include: [../../evil]"))
    assert "is not the name of a shared layer" in error("rule", CASE, "--rulebook", book)


ABSURD = [
    ("artificial.imps.avg_plus=-1", "-1 is outside 0 to 24 (average plus at IMPs is 0 or more, within the IMP scale)"),
    ("artificial.imps.avg_minus=5", "5 is outside -24 to 0 (average minus at IMPs is 0 or less, within the IMP scale)"),
    ("artificial.imps.average=1000", "1000 is outside -24 to 24 (IMPs of one board lie within the IMP scale)"),
    ("artificial.pairs.avg_plus=10%", "10% is outside 50% to 100% (average plus is at least average (50%))"),
    ("artificial.pairs.avg_minus=90%", "90% is outside 0% to 50% (average minus is at most average (50%))"),
    ("session.imps.nos_above=99", "99 is outside -24 to 24 (IMPs per board lie within the IMP scale)"),
    ("poll.benefit_of_doubt=-1", "-1 is outside 1 to 10 (a factor that raises a weight (1: none))"),
    ("poll.benefit_of_doubt_ceiling=1/2", "1/2 is outside 1 to 10 (a factor that raises a weight (1: none))"),
    ("poll.minimum=0", "0 is outside 1 to 1000 (players polled)"),
    ("likely.threshold=2", "2 is outside 0 to 1 (a probability)"),
    ("probable.threshold=-1/6", "-1/6 is outside 0 to 1 (a probability)"),
    ("weighted.imps.round_to=100", "100 is outside 0 to 24 (a step within the IMP scale (0: no rounding))"),
    ("vp.round_to=21", "21 is outside 0 to 20 (a step within the 20-VP scale (0: no rounding))"),
    ("appeal.time_limit_minutes=999999", "999999 is outside 0 to 10080 (minutes, at most a week)"),
    ("fieldscore.butler.drop=5000", "5000 is outside 0 to 100 (results dropped at each end)"),
    ("multiple_boards.limit=101", "101 is outside 0 to 100 (boards in one session)"),
]


@pytest.mark.parametrize("setting, message", ABSURD, ids=[s for s, _ in ABSURD])
def test_24_absurd_parameter_values_are_refused_by_set(setting, message):
    name = setting.split("=")[0]
    assert error("rule", CASE, "--set", setting).startswith(f"--set {name}: {message} (expected ")


def test_24_absurd_parameter_values_are_refused_in_an_overlay_without_a_poll(tmp_path):
    """poll.benefit_of_doubt=-1 used to be checked only when a case had a poll: now at load."""
    overlay = tmp_path / "o.yaml"
    overlay.write_text("parameters:\n  poll: {benefit_of_doubt: -1}\n")
    assert error("rule", CASE, "--overlay", overlay) == (
        f"{overlay}:2:28: parameter poll.benefit_of_doubt: -1 is outside 1 to 10 (a factor that raises a weight "
        "(1: none))")


def test_24_every_shipped_parameter_value_is_in_range():
    from bridgelaw import rulebook
    for book in (rulebook.get(name) for name in rulebook.available()):
        for name, values in book.dated.items():
            for dated in values:
                rulebook.parameters.check(name, dated.value)


EVENT = ROOT / "tests" / "data" / "events" / "ffb-magic-contest-2022-open-dn1-s1.pbn"


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_24_control_characters_are_escaped_in_every_output(tmp_path, fmt):
    """A results file whose event name holds a C1 CSI, DEL and a bidi override: the report shows
    them as \\uXXXX (and JSON still reads back to the same text). ESC and BEL are refused as the file
    is read (XML cannot carry them: tests/test_outputs_safety.py)."""
    data = EVENT.read_bytes()
    start = data.index(b'[Event "')
    end = data.index(b"\n", start)
    name = "\x9b31mRED\x7f \x9b2J \u202eevil"
    event = tmp_path / "e.pbn"
    event.write_bytes(data[:start] + f'[Event "{name}"]'.encode("latin-1", "replace").replace(b"?evil", b"evil")
                      + data[end:])
    code, out, err = run("event", event, "--rulebook", "wbf-2017", "--format", fmt)
    assert code == 0 and err == ""
    assert not any(ch in out for ch in "\x7f\x9b\u202e\r")
    if fmt == "json":
        import json
        assert json.loads(out)["sessions"][0]["name"].startswith("\x9b31mRED\x7f \x9b2J")
    elif fmt != "csv":
        assert "\\u009b31mRED\\u007f \\u009b2J" in out


def test_a_shared_layers_rule_overriding_nothing_is_located(tmp_path):
    """Found by bench/mutants.py (rulebook mutant 3426, seed 24): a rule of a shared layer whose
    overrides: names no rule ended in StopIteration (the check looked for it among the including
    rulebook's removals); it is an error at the rule's own overrides entry."""
    book = rulebook_copy(tmp_path)
    layer = book.parent / "shared" / "wbf-law12.yaml"
    text = layer.read_text()
    assert "    overrides: [avg-plus-imps]" in text
    layer.write_text(text.replace("    overrides: [avg-plus-imps]", "    overrides: [avg-plu-imps]", 1))
    line = text[:text.index("    overrides: [avg-plus-imps]")].count("\n") + 1
    assert error("rule", CASE, "--rulebook", book) == (
        f"{layer}:{line}:17: rule 'session-above-60-imps' overrides 'avg-plu-imps', which does not exist; "
        "did you mean 'avg-plus-imps'?")
