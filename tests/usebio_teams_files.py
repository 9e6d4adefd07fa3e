"""USEBIO teams files in the shape EBUScore Teams (1.1.3) and JSS TeamsScorer (5.1.17) write,
generated from those programs' published figures (tests/data/events/figures/*.yaml).

The two programs' example files (jacquicollier/ukbridge-club-website, commit 9ddfd310) have no
licence, so they are not kept; their figures are (facts: each line's contract, declarer, lead,
tricks, score and pairwise cross-IMPs, each board's and match's published scores, each team's
total, wins or draws and place), and this generator writes a file with the same elements in the
same order, the same indentation, CRLF line endings and ISO-8859-1 declaration as the program's —
with placeholder player names (``Player 1-1-2a``) and no club, contact or master-point details,
which the figures leave out. The tests read the generated files (tests/data/events/ORIGINS.md).

    python tests/usebio_teams_files.py FIGURES.yaml OUT.xml
"""

from __future__ import annotations

import sys
from pathlib import Path

from ruamel.yaml import YAML

FIGURES = Path(__file__).resolve().parent / "data" / "events" / "figures"
JSS = FIGURES / "jss-teamsscorer-teams.yaml"
EBUSCORE = FIGURES / "ebuscore-teams-point-a-board.yaml"

LINE_TAGS = ("direction", "ns_pair_number", "ew_pair_number", "contract", "played_by", "lead", "tricks", "score",
             "ns_cross_imp_points", "ew_cross_imp_points")
MATCH_TAGS = ("round_number", "team", "opposing_team", "start_board_number", "end_board_number", "team_score",
              "opposing_team_score")
BOARD_TAGS = ("board_number", "imps", "team_points", "opposing_team_points")


def _esc(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _el(indent: int, tag: str, value) -> str:
    return f"{' ' * indent}<{tag.upper()}>{_esc(value)}</{tag.upper()}>"


def figures(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def generate(path: Path, change=None) -> bytes:
    """The program-shaped USEBIO teams file for the figures at `path` (bytes, ISO-8859-1, CRLF).
    `change(figures)` may edit the figures first (a test's own variant)."""
    f = figures(path)
    if change is not None:
        change(f)
    ev = f["event"]
    out = ['<?xml version="1.0" encoding="iso-8859-1"?>',
           '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">',
           '<USEBIO Version="1.2">', "",
           f'   <EVENT EVENT_TYPE="{_esc(ev["event_type"])}">']
    for key, value in ev.items():
        if key != "event_type":
            out.append(_el(6, key, value))
    out.append("")
    for session in f["sessions"]:
        out.append(f'      <SESSION SESSION_ID="{_esc(session["session"])}">')
        for section in session["sections"]:
            out.append("         <PARTICIPANTS>")
            for c in section["contestants"]:
                t = c["team"]
                out.append("")
                out.append(f'            <TEAM TEAM_ID = "{_esc(t["team_id"])}" TEAM_NAME = "{_esc(t.get("team_name") or "")}" >')
                for key in ("total_score", "wins_or_draws", "place"):
                    if t.get(key) is not None:
                        out.append(_el(15, key, t[key]))
                for pair in t.get("pairs", []):
                    out.append("               <PAIR>")
                    for key in ("pair_number", "boards_played", "pair_imps"):
                        if pair.get(key) is not None:
                            out.append(_el(18, key, pair[key]))
                    for seat in "ab":
                        out.append('                  <PLAYER RATEABLE="Y">')
                        out.append(_el(21, "player_name", f"Player {pair['pair_number']}{seat}"))
                        out.append("                  </PLAYER>")
                    out.append("               </PAIR>")
                out.append("            </TEAM>")
            out.append("         </PARTICIPANTS>")
            out.append("")
            for m in section["matches"]:
                out.append("         <MATCH>")
                for key in MATCH_TAGS:
                    if m.get(key) is not None:
                        out.append(_el(12, key, m[key]))
                for b in m["boards"]:
                    out.append("            <BOARD>")
                    for key in BOARD_TAGS:
                        if b.get(key) is not None:
                            out.append(_el(15, key, b[key]))
                    for line in b["lines"]:
                        out.append("               <TRAVELLER_LINE>")
                        for comment in line.get("comments", []):
                            out.append(f"                  <!-- {comment} -->")
                        for key in LINE_TAGS:
                            if line.get(key) is not None:
                                out.append(_el(18, key, line[key]))
                        out.append("               </TRAVELLER_LINE>")
                    out.append("            </BOARD>")
                out.append("         </MATCH>")
        out.append("      </SESSION>")
    out.append("   </EVENT>")
    out.append("</USEBIO>")
    return ("\r\n".join(out) + "\r\n").encode("iso-8859-1")


if __name__ == "__main__":
    Path(sys.argv[2]).write_bytes(generate(Path(sys.argv[1])))
