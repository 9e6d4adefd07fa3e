"""Write a USEBIO file in a scoring program's shape from a results file's published figures.

The files of tests/data/events/figures/*.yaml are the facts of real results files that may not be
committed (no licence; see ../ORIGINS.md): the event's fields, each section's contestants (number,
direction, total, percentage, place, boards played …) and each board's traveller lines (pairs,
contract, declarer, lead, tricks, score and the published points). This script writes them back
as the program wrote its file — its XML declaration and encoding, line ends, indentation, DOCTYPE,
USEBIO version, SESSION/SECTION nesting, the EVENT_TYPE attributes on PARTICIPANTS and BOARD — with
placeholder players (``Player 7a``) where the file had names. The tests read the generated file as
bridgelaw reads the program's own.

    python tests/data/events/figures/generate.py FIGURES.yaml OUT.xml

Written for bridgelaw's tests; no code of the programs or of the original files is used.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

# Each program's file shape, as its file shows (ORIGINS.md gives each file's origin).
SHAPES: dict[str, dict[str, Any]] = {
    "EBUScore Pairs": {"declaration": "iso-8859-1", "newline": "\n", "indent": "    ", "version": "1.2",
                       "doctype": "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd", "nesting": True},
    "PairsScorer": {"declaration": "iso-8859-1", "newline": "\r\n", "indent": "   ", "version": "1.2",
                    "doctype": "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd", "nesting": True},
    "Pianola": {"declaration": "iso-8859-1", "newline": "\r\n", "indent": "  ", "version": "1.2",
                "doctype": "usebio_v1_2.dtd", "nesting": False, "typed": "CROSS_IMP"},
    "RealBridge": {"declaration": "UTF-8", "newline": "\n", "indent": "    ", "version": "1.2", "doctype": None,
                   "nesting": False},
    "BriAn": {"declaration": "ISO-8859-1", "newline": "\n", "indent": "  ", "version": "1.0",
              "doctype": "http://www.ebu.co.uk/usebio/usebio_v1_0.dtd", "nesting": False, "participants": "MP_PAIRS"},
    None: {"declaration": None, "newline": "\n", "indent": "    ", "version": "1.1",          # the USEBIO 1.1 example
           "doctype": "http://www.ebu.co.uk/usebio/usebio_v1_1.dtd", "nesting": False, "typed": "INDIVIDUAL"},
}


def _esc(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def generate(figures: dict[str, Any]) -> bytes:
    event = dict(figures["event"])
    shape = SHAPES[event.get("program_name")]
    etype = event.pop("event_type")
    ind = shape["indent"]
    out: list[str] = []
    if shape["declaration"]:
        out.append(f'<?xml version="1.0" encoding="{shape["declaration"]}"?>')
    else:
        out.append('<?xml version="1.0"?>')
    if shape["doctype"]:
        out.append(f'<!DOCTYPE USEBIO SYSTEM "{shape["doctype"]}">')
    out.append(f'<USEBIO Version="{shape["version"]}">')
    out += [f"{ind}<CLUB>", f"{ind * 2}<CLUB_NAME>Club</CLUB_NAME>", f"{ind}</CLUB>"]
    out.append(f'{ind}<EVENT EVENT_TYPE="{etype}">')
    for key, value in event.items():
        out.append(f"{ind * 2}<{key.upper()}>{_esc(value)}</{key.upper()}>")
    typed = shape.get("typed")
    for session in figures["sessions"]:
        depth = 2
        if shape["nesting"]:
            out.append(f'{ind * depth}<SESSION SESSION_ID="{session["session"]}">')
            depth += 1
        for section in session["sections"]:
            d = depth
            if shape["nesting"]:
                out.append(f'{ind * d}<SECTION SECTION_ID="{section["section"]}">')
                d += 1
            attr = typed or shape.get("participants")
            out.append(f"{ind * d}<PARTICIPANTS{f' EVENT_TYPE={chr(34)}{attr}{chr(34)}' if attr else ''}>")
            for contestant in section["contestants"]:
                (kind, fields), = contestant.items()
                out.append(f"{ind * (d + 1)}<{kind.upper()}>")
                for key, value in fields.items():
                    out.append(f"{ind * (d + 2)}<{key.upper()}>{_esc(value)}</{key.upper()}>")
                if kind == "pair":
                    for suffix in "ab":
                        out += [f'{ind * (d + 2)}<PLAYER RATEABLE="Y">',
                                f"{ind * (d + 3)}<PLAYER_NAME>Player {fields['pair_number']}{suffix}</PLAYER_NAME>",
                                f"{ind * (d + 2)}</PLAYER>"]
                else:
                    out.append(f"{ind * (d + 2)}<PLAYER_NAME>Player {fields['player_number']}</PLAYER_NAME>")
                out.append(f"{ind * (d + 1)}</{kind.upper()}>")
            out.append(f"{ind * d}</PARTICIPANTS>")
            for board in section["boards"]:
                out.append(f"{ind * d}<BOARD{f' EVENT_TYPE={chr(34)}{typed}{chr(34)}' if typed else ''}>")
                out.append(f"{ind * (d + 1)}<BOARD_NUMBER>{board['board_number']}</BOARD_NUMBER>")
                for line in board["lines"]:
                    out.append(f"{ind * (d + 1)}<TRAVELLER_LINE>")
                    for key, value in line.items():
                        out.append(f"{ind * (d + 2)}<{key.upper()}>{_esc(value)}</{key.upper()}>")
                    out.append(f"{ind * (d + 1)}</TRAVELLER_LINE>")
                out.append(f"{ind * d}</BOARD>")
            if shape["nesting"]:
                out.append(f"{ind * depth}</SECTION>")
        if shape["nesting"]:
            out.append(f"{ind * 2}</SESSION>")
    out += [f"{ind}</EVENT>", "</USEBIO>", ""]
    encoding = (shape["declaration"] or "utf-8").lower()
    return shape["newline"].join(out).encode(encoding)


def load(path: Path) -> dict[str, Any]:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    figures = load(Path(argv[0]))
    Path(argv[1]).write_bytes(generate(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
