"""Outputs never replace an input nor half-apply (issue 29, item 2): an --output naming the rulings
file, the overlay, a rulebook file given by path or a file it reads is refused before any work; two
outputs are all written or none; text XML cannot carry is refused where the PBN file is read."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bridgelaw import rulebook
from bridgelaw.commands.cli import main
from bridgelaw.core import files
from bridgelaw.core.errors import BridgelawError
from bridgelaw.field.pbn_file import parse_pbn

DATA = Path(__file__).parent / "data" / "events"
MAGIC = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
USEBIO = DATA / "compscore-mp-pairs-mitchell.xml"
ROUND = "fieldscore.neuberg.round_to=1/10"
RULINGS = """\
rulebook: wbf-2017
rulings:
  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}}
"""


@pytest.fixture
def ruled(tmp_path):
    src = tmp_path / "final.pbn"
    shutil.copy(MAGIC, src)
    rulings = tmp_path / "rulings.pbn"              # a rulings file (YAML) under a name an output could take
    rulings.write_text(RULINGS)
    return src, rulings


def event(*args) -> list[str]:
    return ["event", *map(str, args)]


def test_the_rulings_file_is_never_an_output(ruled, tmp_path, capsys):
    src, rulings = ruled
    before = rulings.read_bytes()
    assert main(event(src, "--rulings", rulings, "--set", ROUND)) == 0          # the rulings are read
    capsys.readouterr()
    for name in (rulings, tmp_path / "x" / ".." / "rulings.pbn"):
        (tmp_path / "x").mkdir(exist_ok=True)
        assert main(event(src, "--rulings", rulings, "--set", ROUND, "--output", name)) == 2
        out, err = capsys.readouterr()
        assert (out, err) == ("", f"bridgelaw: error: --output {name} is the rulings file; an output never replaces "
                                  "an input (expected a new file name)\n")
        assert rulings.read_bytes() == before
    # a hard link to it (another name, the same inode) and a second output naming it
    os.link(rulings, tmp_path / "hard.xml")
    assert main(event(src, "--rulings", rulings, "--output", tmp_path / "new.pbn", "--output",
                      tmp_path / "hard.xml")) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: --output {tmp_path / 'hard.xml'} is the rulings file; an "
                                       "output never replaces an input (expected a new file name)\n")
    assert rulings.read_bytes() == before and not (tmp_path / "new.pbn").exists()


def test_the_overlay_is_never_an_output(ruled, tmp_path, capsys):
    src, rulings = ruled
    overlay = tmp_path / "proposal.yaml"
    overlay.write_text("overlay: test\nparameters:\n  fieldscore:\n    neuberg:\n      round_to: {value: 1/10}\n")
    link = tmp_path / "overlay-link.pbn"
    link.symlink_to(overlay)
    before = overlay.read_bytes()
    assert main(event(src, "--rulings", rulings, "--overlay", overlay, "--output", link)) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: --output {link} is the overlay file; an output never "
                                       "replaces an input (expected a new file name)\n")
    assert overlay.read_bytes() == before


def test_a_rulebook_given_by_path_and_the_files_it_reads_are_never_outputs(ruled, tmp_path, capsys):
    src, _ = ruled
    rules = tmp_path / "rules"
    shutil.copytree(rulebook.rules_dir(), rules)
    layer = rules / "shared" / "wbf-law12.yaml"
    before = layer.read_bytes()
    os.link(layer, tmp_path / "layer.pbn")
    os.link(rules / "wbf-2017.yaml", tmp_path / "book.xml")
    book = str(rules / "wbf-2017.yaml")
    assert main(event(src, "--rulebook", book, "--output", tmp_path / "layer.pbn")) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: --output {tmp_path / 'layer.pbn'} is a file the rulebook "
                                       "reads; an output never replaces an input (expected a new file name)\n")
    assert main(event(src, "--rulebook", book, "--output", tmp_path / "book.xml")) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: --output {tmp_path / 'book.xml'} is the rulebook file; an "
                                       "output never replaces an input (expected a new file name)\n")
    assert layer.read_bytes() == before


def test_score_output_is_never_the_overlay(tmp_path, capsys):
    overlay = tmp_path / "o.yaml"
    overlay.write_text("overlay: test\nparameters: {}\n")
    os.link(overlay, tmp_path / "o.pbn")
    assert main(["score", str(MAGIC), "--board", "1", "--overlay", str(overlay), "--output", str(tmp_path / "o.pbn")]) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: --output {tmp_path / 'o.pbn'} is the overlay file; an "
                                       "output never replaces an input (expected a new file name)\n")


def test_two_outputs_are_written_all_or_none(ruled, tmp_path, capsys, monkeypatch):
    src, rulings = ruled
    pbn, xml = tmp_path / "out.pbn", tmp_path / "out.xml"
    pbn.write_text("old pbn\n")
    xml.write_text("old xml\n")
    synced = []

    def fsync(fd):                                  # the second file's write fails (a full disk)
        synced.append(fd)
        if len(synced) == 2:
            raise OSError(28, "No space left on device")
    monkeypatch.setattr(files.os, "fsync", fsync)
    assert main(event(src, "--rulings", rulings, "--set", ROUND, "--output", pbn, "--output", xml)) == 2
    err = capsys.readouterr().err
    assert err == f"bridgelaw: error: cannot write {xml}: No space left on device\n"
    assert (pbn.read_text(), xml.read_text()) == ("old pbn\n", "old xml\n")          # neither replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["final.pbn", "out.pbn", "out.xml", "rulings.pbn"]
    monkeypatch.undo()
    assert main(event(src, "--rulings", rulings, "--set", ROUND, "--output", pbn, "--output", xml)) == 0
    assert pbn.read_bytes().startswith(b"%") and xml.read_bytes().startswith(b"<?xml")


def test_write_all_refuses_one_file_twice_and_leaves_nothing_on_failure(tmp_path):
    a = tmp_path / "a.txt"
    with pytest.raises(BridgelawError) as caught:
        files.write_all([(a, "1", "utf-8"), (tmp_path / "." / "a.txt", "2", "utf-8")])
    assert str(caught.value) == f"{tmp_path / '.' / 'a.txt'} and {a} are the same file (expected one output per file)"
    with pytest.raises(UnicodeEncodeError):
        files.write_all([(a, "fine", "utf-8"), (tmp_path / "b.txt", "€", "latin-1")])
    assert list(tmp_path.iterdir()) == []
    files.write_all([(a, "1", "utf-8"), (tmp_path / "b.txt", b"2", "utf-8")])
    assert (a.read_text(), (tmp_path / "b.txt").read_text()) == ("1", "2")


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\x0e", "\x1f"])
def test_a_pbn_tag_xml_cannot_carry_is_refused_where_it_is_read(tmp_path, capsys, char):
    data = MAGIC.read_bytes()
    start = data.index(b'[Event "')
    event_file = tmp_path / "e.pbn"
    event_file.write_bytes(data[:start] + b'[Event "Open' + char.encode() + data[start + 12:])
    line = data[:start].count(b"\n") + 1
    assert main(event(event_file, "--rulebook", "wbf-2017", "--output", tmp_path / "o.xml")) == 2
    assert capsys.readouterr().err == (
        f"bridgelaw: error: {event_file}:{line}:13: the Event tag holds the control character "
        f"U+{ord(char):04X}, which XML cannot carry (expected text without control characters but tab)\n")
    assert not (tmp_path / "o.xml").exists()


def test_a_pbn_table_row_xml_cannot_carry_is_refused():
    text = ('[Event "x"]\n[Board "1"]\n[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L"]\n'
            ' 1  2 "3N\x07"\n')
    with pytest.raises(BridgelawError) as caught:
        parse_pbn(text, "t.pbn")
    assert str(caught.value) == ("t.pbn:4:10: a table row holds the control character U+0007, which XML cannot "
                                 "carry (expected text without control characters but tab)")
    assert parse_pbn(text.replace("\x07", "\t"), "t.pbn").games[0].score_table.rows   # a tab is fine


def test_casebook_never_writes_through_a_link_to_a_case(tmp_path, capsys):
    cases = tmp_path / "cases"
    cases.mkdir()
    case = cases / "example-07.yaml"
    shutil.copy(Path(__file__).resolve().parent.parent / "cases" / "wbf-commentary-2017" / "example-07.yaml", case)
    before = case.read_bytes()
    out = tmp_path / "book"
    out.mkdir()
    (out / "index.md").symlink_to(case)                 # an output's name is a link to the input
    assert main(["casebook", str(cases), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (f"bridgelaw: error: --out {out / 'index.md'} is a case file; an output never "
                                       "replaces an input (expected a new file name)\n")
    assert case.read_bytes() == before and sorted(p.name for p in out.iterdir()) == ["index.md"]
