"""A USEBIO 1.2 results file (the XML results format of EBUScore, ScoreBridge, Compscore,
RealBridge) as the field model, and a scored session written back as USEBIO.

Read: ``EVENT`` (its ``EVENT_TYPE``: MP_PAIRS → matchpoints, CROSS_IMP → cross-IMPs,
BUTLER_PAIRS → butler), optional ``SESSION``/``SECTION`` levels, ``PARTICIPANTS/PAIR``
(number, direction, names, published ``TOTAL_SCORE``/``PERCENTAGE``), ``BOARD`` with
``TRAVELLER_LINE``s (pair numbers, ``CONTRACT``/``PLAYED_BY``/``TRICKS``/``SCORE``, the published
``NS_MATCH_POINTS``, ``NS_CROSS_IMP_POINTS`` or ``NS_BUTLER_POINTS``). A ``SCORE`` may be an
artificial code (``A6040``, ``A5050``: NS then EW percentages; ``A+``…). An XML comment
``<!-- bridgelaw: … -->`` inside a line is the Adjustment cell of :mod:`.adjustment_cell`,
written by :func:`write` for adjusted lines so that re-reading gives the same scores.

The parser is expat with positions kept (errors are file:line:column); entity declarations
are refused (no entity expansion) and the DTD is never fetched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from xml.parsers import expat

from ..core import bridge
from ..core.errors import BridgelawError
from ..core.exact import format_fixed
from ..core.limits import MAX_RESULTS_BYTES, read_bytes
from ..core.vocab import SIDES
from . import adjustment_cell, usebio_teams
from .cells import (MAX_BOARD, MAX_TABLE, Where, identifier, mirror, parse_code, published, raw_score, tricks,
                    whole_number)
from .model import Board, Contestant, Event, Line, Session, check_board, contestant_key, guess_pair_numbers, played_on

EVENT_TYPES = {"MP_PAIRS": "matchpoints", "CROSS_IMP": "cross-imps", "CROSS_IMPS": "cross-imps",
               "BUTLER_PAIRS": "butler", "BUTLER_IMPS": "butler", "SWISS_PAIRS": None}
POINTS = {"matchpoints": "MATCH_POINTS", "cross-imps": "CROSS_IMP_POINTS", "butler": "BUTLER_POINTS"}
SCORINGS_BACK = {"matchpoints": "MP_PAIRS", "cross-imps": "CROSS_IMP", "butler": "BUTLER_PAIRS"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    line: int
    column: int
    children: list["Node"] = field(default_factory=list)
    text: str = ""
    comments: list[str] = field(default_factory=list)

    def find(self, tag: str) -> "Node | None":
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def value(self, tag: str) -> str | None:
        c = self.find(tag)
        return None if c is None else c.text.strip()

    def all(self, tag: str) -> list["Node"]:
        return [c for c in self.children if c.tag == tag]


def parse_xml(data: bytes, file: str) -> Node:
    parser = expat.ParserCreate()
    stack: list[Node] = []
    root: list[Node] = []

    def start(tag, attrs):
        node = Node(tag, dict(attrs), parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)
        if len(stack) > 20:
            raise BridgelawError("XML nested more than 20 levels", file=file, line=node.line, column=node.column,
                                 expected="a USEBIO file")

    def end(tag):
        stack.pop()

    def chars(text):
        if stack:
            stack[-1].text += text

    def comment(text):
        if stack:
            stack[-1].comments.append(text)

    def entity(*args):
        raise BridgelawError("the XML declares an entity", file=file, line=parser.CurrentLineNumber,
                             column=parser.CurrentColumnNumber + 1, expected="a USEBIO file without entity declarations")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.CommentHandler = comment
    parser.EntityDeclHandler = entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise BridgelawError(f"not well-formed XML: {expat.ErrorString(exc.code)}", file=file, line=exc.lineno,
                             column=exc.offset + 1, expected="a USEBIO 1.2 file") from None
    if not root or root[0].tag != "USEBIO":
        raise BridgelawError(f"the root element is <{root[0].tag if root else ''}>", file=file, line=1, column=1,
                             expected="<USEBIO Version=\"1.2\">")
    return root[0]


def load_event_usebio(path: str | Path, *, data: bytes | None = None, scoring: str | None = None,
                      default: str | None = None) -> Event:
    name = str(path)
    if data is None:
        data = read_bytes(path, what="USEBIO file", limit=MAX_RESULTS_BYTES)   # docs/limits.md
    root = parse_xml(data, name)
    return read_usebio(root, name, scoring=scoring, data=data, default=default)


def _where(file: str, node: Node) -> Where:
    return Where(file, node.line, node.column)


def read_usebio(root: Node, file: str, *, scoring: str | None = None, data: bytes | None = None,
                default: str | None = None) -> Event:
    event = root.find("EVENT")
    if event is None:
        raise BridgelawError("the file has no <EVENT>", file=file, line=root.line, column=root.column)
    if usebio_teams.is_teams(event):               # matches between teams: field/usebio_teams.py
        if scoring is not None:
            raise BridgelawError(f"--scoring {scoring}: a teams file says how its boards and matches are scored",
                                 file=file, line=event.line, column=event.column,
                                 expected="no --scoring for a teams file (its BOARD_SCORING_METHOD, "
                                 "MATCH_SCORING_METHOD)")
        return usebio_teams.read_teams(root, event, file, data=data, read_line=_line,
                                       vulnerability=bridge_vulnerability)
    etype = event.attrs.get("EVENT_TYPE", "")
    title = event.value("EVENT_DESCRIPTION") or event.value("TITLE") or Path(file).stem
    chosen = scoring or EVENT_TYPES.get(etype.upper())
    if chosen is None:
        method = (event.value("SCORING_METHOD") or "").upper()
        chosen = "matchpoints" if method in ("MATCHPOINTS", "MATCH_POINTS", "MP") else default
    if chosen is None:
        raise BridgelawError(f"EVENT_TYPE '{etype}' is not a scoring method bridgelaw reads", file=file, line=event.line,
                             column=event.column, expected="MP_PAIRS, CROSS_IMP or BUTLER_PAIRS, or --scoring")
    holders = event.all("SESSION") or [event]
    sessions = []
    for k, holder in enumerate(holders, 1):
        sections = holder.all("SECTION") or [holder]
        session = Session(name=title if len(holders) == 1 else f"{title} — session {k}", scoring=chosen,
                          where=_where(file, holder), date=played_on(holder.value("DATE") or event.value("DATE")))
        for sec in sections:
            sec_name = sec.value("SECTION_ID") or sec.attrs.get("SECTION_ID", "") if sec is not holder else ""
            _participants(file, sec, sec_name or "", session)
            for b in sec.all("BOARD"):
                _board(file, b, sec_name or "", session)
        lines = [l for b in session.boards.values() for l in b.lines]
        if not lines:
            raise BridgelawError("the session has no traveller lines", file=file, line=holder.line, column=holder.column,
                                 expected="<BOARD> elements with <TRAVELLER_LINE>s")
        session.pair_numbers = guess_pair_numbers(lines)
        rekey = {}
        for c in session.contestants.values():
            c.key = contestant_key(c.section, c.direction, c.number, session.pair_numbers)
            rekey[c.key] = c
        session.contestants = rekey
        for board in session.boards.values():
            check_board(board, session, lambda line, key: line.extra.get("cells", {}).get(key, line.where),
                        f"board {board.number}: ")
        sessions.append(session)
    return Event(title=title, file=file, format="usebio", sessions=sessions, source=root,
                 extra={"crlf": data is not None and b"\r\n" in data[:4096]})


def _participants(file: str, holder: Node, section: str, session: Session) -> None:
    parts = holder.find("PARTICIPANTS")
    if parts is None:
        return
    for pair in parts.all("PAIR"):
        number_text = pair.value("PAIR_NUMBER")
        if not number_text:
            raise _where(file, pair).error("a PAIR has no PAIR_NUMBER")
        number = identifier(number_text, _where(file, pair), "PAIR_NUMBER")
        d = (pair.value("DIRECTION") or "").upper().replace("-", "")
        direction = d if d in ("NS", "EW") else None
        names = " - ".join(p.value("PLAYER_NAME") or "" for p in pair.all("PLAYER")) or None
        c = Contestant("", section, number, direction, names, extra={"node": pair})
        for tag, key in (("TOTAL_SCORE", "total"), ("PERCENTAGE", "percent")):
            v = pair.value(tag)
            if v and published(v) is not None:
                c.published[key] = published(v)
        session.contestants[f"{section}:{number}"] = c


def _board(file: str, node: Node, section: str, session: Session) -> None:
    where = _where(file, node)
    number = whole_number(node.value("BOARD_NUMBER") or "", where, "BOARD_NUMBER", MAX_BOARD)
    board = session.boards.get(number)
    if board is None:
        board = session.boards[number] = Board(number, bridge_vulnerability(number), [], where, extra={"node": node})
    for tl in node.all("TRAVELLER_LINE"):
        board.lines.append(_line(file, tl, section, board, session.scoring))


def bridge_vulnerability(number: int) -> str:
    """The standard vulnerability of a board number (USEBIO travellers do not repeat it)."""
    return ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS",
            "EW")[(number - 1) % 16]


def _line(file: str, tl: Node, section: str, board: Board, scoring: str) -> Line:
    where = _where(file, tl)

    def get(tag: str) -> tuple[str | None, Where]:
        n = tl.find(tag)
        return (None, where) if n is None or not n.text.strip() else (n.text.strip(), _where(file, n))

    ns, wns = get("NS_PAIR_NUMBER")
    ew, wew = get("EW_PAIR_NUMBER")
    table_text, wt = get("TABLE_NUMBER")
    line = Line(board.number, section, whole_number(table_text, wt, "TABLE_NUMBER", MAX_TABLE) if table_text else None,
                identifier(ns, wns, "NS_PAIR_NUMBER") if ns else None,
                identifier(ew, wew, "EW_PAIR_NUMBER") if ew else None, where, extra={"node": tl})
    line.extra["cells"] = {key: w for key, text, w in (("table", table_text, wt), ("ns", ns, wns), ("ew", ew, wew))
                           if text}
    tag = POINTS[scoring]
    for side in SIDES:
        text, w = get(f"{side}_{tag}")
        if text is not None:
            value = published(text)
            if value is None:
                raise w.error(f"{side}_{tag} '{text[:20]}' is not a number")
            line.published[side] = value
    for c in tl.comments:
        c = c.strip()
        if c.startswith("bridgelaw:"):
            adjustment_cell.read(line, c[len("bridgelaw:"):].strip(), where, board.vulnerability)
            if line.kind != "result":
                return line
    contract, wc = get("CONTRACT")
    declarer, wd = get("PLAYED_BY")
    taken_text, wtr = get("TRICKS")
    score, wsc = get("SCORE")
    code = parse_code(score) if score else None
    if code is not None and code.kind == "not-played":
        line.kind, line.code = "not-played", score
        line.extra["code_where"] = wsc
        return line
    if code is not None and code.kind == "artificial":
        values = {"NS": code.NS, "EW": code.EW} if code.two_sided else {"NS": code.NS, "EW": mirror(code.NS)}
        line.kind, line.artificial, line.code = "artificial", values, score
        line.mirrored = None if code.two_sided else "EW"
        line.extra["code_where"] = wsc
        return line
    played = None
    if contract and contract.upper() in ("PASS", "PASSED", "P", "AP"):
        played = bridge.PlayedResult(None, None, 0)
    elif contract:
        if not declarer or not taken_text:
            raise wc.error(f"contract {contract[:10]} has no {'PLAYED_BY' if not declarer else 'TRICKS'}")
        taken = tricks(taken_text, wtr, "TRICKS")
        try:
            c = bridge.parse_result(f"{contract}= {declarer.upper()}")
        except bridge.NotationError as exc:
            raise wc.error(f"'{contract[:10]}' by '{declarer[:3]}': {exc.message}") from None
        played = bridge.PlayedResult(c.contract, c.declarer, taken)
    value = None
    if score is not None and (code is None or code.kind != "pass"):
        value = raw_score(score, wsc, "SCORE")
    if played is not None:
        points = bridge.ns_score(played, board.vulnerability)
        if value is not None and value != points:
            raise wsc.error(f"SCORE {value:+d} for NS, but {played.text} scores NS {points:+d} "
                            f"(board {board.number}: vulnerability {board.vulnerability})")
        line.kind, line.result, line.points = "result", played, points
    elif value is not None or (code is not None and code.kind == "pass"):
        v = value or 0
        line.kind, line.result, line.points = "result", bridge.Score(v), v
    else:
        line.kind = "none"              # a ruling must give it a score (model.require_results)
    return line


# --- writing -------------------------------------------------------------------------------------------

def _esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"))


def _num(v: Fraction | None) -> str:
    if v is None:
        return ""
    text = format_fixed(v, 2)
    return text[:-3] if text.endswith(".00") else text


def write(scored_sessions: list, event: Event) -> str:
    """USEBIO 1.2 for the scored sessions: explicit points on every line; artificial lines
    coded A6040-style when the percentages are whole, every adjusted line with a comment
    giving its adjustment (read back by :func:`read_usebio`)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">',
           '<USEBIO Version="1.2">']
    first = scored_sessions[0].session
    if any(ss.session.individual for ss in scored_sessions):
        raise BridgelawError("an individual event is not written as USEBIO: how USEBIO 1.2 gives the four players "
                             "of a traveller line is not modelled (no public specimen found)",
                             file=event.file, expected="--output FILE.pbn for an individual event")
    etype = SCORINGS_BACK[first.scoring]
    out.append(f'<EVENT EVENT_TYPE="{etype}">')
    out.append(f"  <EVENT_DESCRIPTION>{_esc(event.title)}</EVENT_DESCRIPTION>")
    out.append("  <PROGRAM_NAME>bridgelaw</PROGRAM_NAME>")
    out.append(f"  <SESSION_COUNT>{len(scored_sessions)}</SESSION_COUNT>")
    for ss in scored_sessions:
        session = ss.session
        indent = "  "
        if len(scored_sessions) > 1:
            out.append("  <SESSION>")
            indent = "    "
        out.append(f'{indent}<PARTICIPANTS EVENT_TYPE="{etype}">')
        for st in ss.standings:
            c = st.contestant
            number = c.number if c else st.key.split(":")[-1].split(" ")[-1]
            out.append(f"{indent}  <PAIR>")
            out.append(f"{indent}    <PAIR_NUMBER>{_esc(number)}</PAIR_NUMBER>")
            out.append(f"{indent}    <DIRECTION>{st.direction or ''}</DIRECTION>")
            out.append(f"{indent}    <TOTAL_SCORE>{_num(st.total)}</TOTAL_SCORE>")
            if st.percent is not None:
                out.append(f"{indent}    <PERCENTAGE>{_num(st.percent)}</PERCENTAGE>")
            out.append(f"{indent}    <PLACE>{st.rank_text}</PLACE>")
            if c and c.names:
                for name in c.names.split(" - "):
                    out.append(f"{indent}    <PLAYER><PLAYER_NAME>{_esc(name)}</PLAYER_NAME></PLAYER>")
            out.append(f"{indent}  </PAIR>")
        out.append(f"{indent}</PARTICIPANTS>")
        tag = POINTS[session.scoring]
        for number, sb in ss.boards.items():
            out.append(f'{indent}<BOARD EVENT_TYPE="{etype}">')
            out.append(f"{indent}  <BOARD_NUMBER>{number}</BOARD_NUMBER>")
            for sl in sb.lines:
                line = sl.line
                out.append(f"{indent}  <TRAVELLER_LINE>")
                cell = adjustment_cell.write(sl)
                if cell:
                    out.append(f"{indent}    <!-- bridgelaw: {cell.replace('--', '- -')} -->")
                if line.table is not None:
                    out.append(f"{indent}    <TABLE_NUMBER>{line.table}</TABLE_NUMBER>")
                out.append(f"{indent}    <NS_PAIR_NUMBER>{_esc(line.ns or '')}</NS_PAIR_NUMBER>")
                out.append(f"{indent}    <EW_PAIR_NUMBER>{_esc(line.ew or '')}</EW_PAIR_NUMBER>")
                out.extend(indent + "    " + x for x in _result_xml(line, sl, session.scoring))
                for side in SIDES:
                    out.append(f"{indent}    <{side}_{tag}>{_num(sl.side(side).value)}</{side}_{tag}>")
                out.append(f"{indent}  </TRAVELLER_LINE>")
            out.append(f"{indent}</BOARD>")
        if len(scored_sessions) > 1:
            out.append("  </SESSION>")
    out.append("</EVENT>")
    out.append("</USEBIO>")
    return "\n".join(out) + "\n"


def _result_xml(line: Line, sl, scoring: str) -> list[str]:
    if line.kind == "result" and isinstance(line.result, bridge.PlayedResult):
        r = line.result
        if r.contract is None:
            return ["<CONTRACT>PASS</CONTRACT>", "<SCORE>0</SCORE>"]
        c = r.contract
        text = f"{c.level}{c.strain}{'X' * c.doubled}" if hasattr(c, "level") else r.text.split()[0]
        return [f"<CONTRACT>{_esc(text)}</CONTRACT>", f"<PLAYED_BY>{r.declarer}</PLAYED_BY>",
                f"<TRICKS>{r.tricks}</TRICKS>", f"<SCORE>{line.points}</SCORE>"]
    if line.kind == "result":
        return [f"<SCORE>{line.points}</SCORE>"]
    if line.kind == "artificial" and sl.awarded:
        a = sl.awarded
        if all(isinstance(a[s], Fraction) and (a[s] * 100).denominator == 1 and 0 <= a[s] * 100 < 100 for s in SIDES) \
                and scoring == "matchpoints":
            return [f"<SCORE>A{int(a['NS'] * 100):02d}{int(a['EW'] * 100):02d}</SCORE>"]
        return ["<SCORE>ADJ</SCORE>"]
    if line.kind == "not-played":
        return ["<SCORE>NP</SCORE>"]
    return ["<SCORE>ADJ</SCORE>"]
