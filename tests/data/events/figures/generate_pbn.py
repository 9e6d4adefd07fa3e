"""Write a PBN results file in its program's shape from a results file's published figures, and
extract those figures from a file (Ruter, Magic Contest: PBN 2.0 with ScoreTables).

The files of tests/data/events/figures/*-pbn.yaml are the facts of real PBN results files that may
not be committed (no licence; see ../ORIGINS.md): the META lines that describe the contest (the
program and its version, date, contest type, scoring, counts), each game's tags (event, date,
board, dealer, vulnerability, scoring, competition, the program's Application) and its ScoreTable and
TotalScoreTable rows — every column but the players' names, clubs, membership numbers and sex,
which are left out. The deal, empty player tags, the annotator and the tournament directors'
names are left out too. `generate` writes them back as the program wrote its file: its META
block, tag order, table headers with their column widths, cells as the file printed them, its
encoding and line ends. bridgelaw reads the generated file as it reads the program's own (the same
counts, checked on the originals).

    python tests/data/events/figures/generate_pbn.py extract ORIGINAL.pbn FIGURES.yaml  (source, licence added by hand)
    python tests/data/events/figures/generate_pbn.py FIGURES.yaml OUT.pbn

Written for bridgelaw's tests; no code of the programs is used.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

# the META lines kept: what the contest was, never who played or directed it
META = ("Generator", "Version", "Author", "Created", "ContestDate", "ContestType", "ScoringType", "TableCount",
        "PairCount", "PlayerCount", "TeamCount", "PhantomCount", "BoardCount", "BoardCountSession",
        "BoardCountSessionMax", "RoundCount", "SessionCount", "Average", "Factor")
TAGS = ("Event", "Date", "Board", "Dealer", "Vulnerable", "Scoring", "Competition", "EventDate", "Application",
        "Generator")
# columns about persons, left out of both tables
PERSONAL = {"Names", "Name", "Club", "MemberID", "MemberID1", "MemberID2", "Sex", "Sex1", "Sex2", "Roster",
            "RosterDetails", "TeamName", "Team", "CountryISO", "CountryIOC", "Names_NS", "Names_EW", "Players",
            "LineupDetails_Home", "LineupDetails_Away"}
_TOKEN = re.compile(r'"[^"]*"|\S+')
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_META = re.compile(r'^%\s*<META\s+name=(\w+)\s+content="(.*)">\s*$')


def extract(data: bytes) -> dict[str, Any]:
    """The figures of a PBN results file: its encoding and line ends, the kept META lines and, per
    game, the kept tags and each table's kept columns (header and rows, cells as printed)."""
    encoding = "utf-8" if data.startswith(b"\xef\xbb\xbf") else "iso-8859-1"
    try:
        text = data.decode("utf-8-sig") if encoding == "utf-8" else data.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")
    newline = "\r\n" if b"\r\n" in data else "\n"
    lines = text.splitlines()
    meta, games, game, table = [], [], None, None
    for line in lines:
        m = _META.match(line)
        if m:
            if m.group(1) in META:
                meta.append([m.group(1), m.group(2)])
            continue
        if line.startswith("%"):
            continue
        m = _TAG.match(line)
        if m:
            name, value = m.groups()
            table = None
            if name == "Event" and (game is None or "Board" in dict(game["tags"])):
                game = {"tags": [], "tables": []}
                games.append(game)
            if name.endswith("ScoreTable"):
                columns = [c.split("\\")[0] for c in value.split(";")]
                keep = [k for k, c in enumerate(columns) if c not in PERSONAL]
                table = {"name": name, "header": ";".join(value.split(";")[k] for k in keep), "rows": [],
                         "keep": keep}
                game["tables"].append(table)
            elif name in TAGS and game is not None:
                game["tags"].append([name, value])
            continue
        if table is not None and line.strip():
            cells = _TOKEN.findall(line)
            table["rows"].append(" ".join(cells[k] for k in table["keep"] if k < len(cells)))
    for g in games:
        for t in g["tables"]:
            del t["keep"]
    return {"encoding": encoding, "newline": "crlf" if newline == "\r\n" else "lf", "meta": meta, "games": games}


def generate(figures: dict[str, Any]) -> bytes:
    """The PBN file the figures describe, as its program wrote it (less the columns left out)."""
    nl = "\r\n" if figures["newline"] == "crlf" else "\n"
    out = ["% PBN 2.0", "% EXPORT", "%"]
    width = max((len(name) for name, _ in figures["meta"]), default=0) + 2
    out += [f'% <META  name={name:<{width}}content="{value}">' for name, value in figures["meta"]]
    out.append("%")
    for game in figures["games"]:
        out += [f'[{name} "{value}"]' for name, value in game["tags"]]
        for t in game["tables"]:
            out.append(f'[{t["name"]} "{t["header"]}"]')
            out += list(t["rows"])
        out.append("")
    return (nl.join(out) + nl).encode(figures["encoding"])


def load(path: Path) -> dict[str, Any]:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def main(argv: list[str]) -> None:
    if argv[:1] == ["extract"]:
        figures = extract(Path(argv[1]).read_bytes())
        yaml = YAML()
        yaml.width = 4096
        with open(argv[2], "w", encoding="utf-8") as f:
            yaml.dump(figures, f)
        return
    Path(argv[1]).write_bytes(generate(load(Path(argv[0]))))


if __name__ == "__main__":
    main(sys.argv[1:])
