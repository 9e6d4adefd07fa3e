"""A USEBIO results file (the XML results format of EBUScore, JSS, Compscore, ScoreBridge,
RealBridge, Pianola, BriAn …; versions 1.0, 1.1 and 1.2) as the field model, and a scored event
written back as USEBIO.

Read: ``EVENT`` — its ``EVENT_TYPE`` (:data:`EVENT_TYPES`: pairs, individual or teams, and the
method when the type names one), else ``BOARD_SCORING_METHOD`` / ``SCORING_METHOD`` / the
``PARTICIPANTS``' type / the lines' points (:func:`contest`); ``PROGRAM_NAME``/``_VERSION`` (the
program, whose profile gives its conventions); optional ``SESSION``/``SECTION`` levels;
``WINNER_TYPE`` (who is ranked with whom); ``PARTICIPANTS/PAIR`` or ``/PLAYER`` (number,
direction, names, published ``TOTAL_SCORE``, ``PERCENTAGE``, ``PLACE``, ``BOARDS_PLAYED``,
``ADJUSTMENT``); ``BOARD`` with ``TRAVELLER_LINE``s (pair numbers, or four players at an
individual; ``CONTRACT``/``PLAYED_BY``/``TRICKS``/``SCORE``; the published points). A ``SCORE``
may be a code (``A6040``: NS then EW percentages; ``A+``; ``NP``…). A teams event is handed to the
teams reader at one point (``TEAMS HOOK`` in :func:`read_usebio`). An XML comment ``<!--
bridgelaw: … -->`` inside a line is the Adjustment cell of :mod:`.adjustment_cell`, written by
:func:`write` for changed lines so that re-reading gives the same scores.

The parser is expat with positions kept (errors are file:line:column); the declared encoding is
one of :data:`ENCODINGS` or refused; entity declarations and undefined entities are refused (no
entity expansion), the DTD is never fetched, and a token longer than :data:`MAX_RUN` is refused
before expat sees the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.parsers import expat

from ..core import bridge
from ..core.errors import BridgelawError
from ..core.limits import MAX_RESULTS_BYTES, read_bytes
from ..core.vocab import SIDES
from . import adjustment_cell, usebio_teams
from .cells import (MAX_BOARD, MAX_TABLE, WORD_PERCENTS, Code, Where, identifier, mirror, parse_code, published,
                    raw_score, tricks, whole_number)
from .cells import fixed_text as _num, node_where as _where, xml_escape as _esc
from .model import (Board, Contestant, Event, Line, Program, Session, check_board, contestant_key, guess_pair_numbers,
                    session_played_on)

# How an event is contested, by its EVENT_TYPE: pairs, individual or teams, and the scoring
# method when the type names one (USEBIO 1.0/1.1 MP_PAIRS …; 1.2 writes PAIRS, TEAMS,
# INDIVIDUAL and gives the method in BOARD_SCORING_METHOD).
EVENT_TYPES: dict[str, tuple[str, str | None]] = {
    "PAIRS": ("pairs", None), "MP_PAIRS": ("pairs", "matchpoints"), "SWISS_PAIRS": ("pairs", None),
    "CROSS_IMP": ("pairs", "cross-imps"), "CROSS_IMPS": ("pairs", "cross-imps"), "IMP_PAIRS": ("pairs", "cross-imps"),
    "SWISS_PAIRS_CROSS_IMPS": ("pairs", "cross-imps"), "BUTLER_PAIRS": ("pairs", "butler"),
    "BUTLER_IMPS": ("pairs", "butler"), "SWISS_PAIRS_BUTLER_IMPS": ("pairs", "butler"),
    "INDIVIDUAL": ("individual", None), "MP_INDIVIDUAL": ("individual", "matchpoints"),
    "TEAMS": ("teams", None), "SWISS_TEAMS": ("teams", None), "TEAMS_OF_FOUR": ("teams", None),
    "KO": ("teams", None), "KNOCKOUT": ("teams", None), "LADDER": ("teams", None), "MULTIPLE_TEAMS": ("teams", None),
}
# BOARD_SCORING_METHOD (1.2), else SCORING_METHOD, else the PARTICIPANTS element's EVENT_TYPE: the
# method a pairs or individual event's boards are scored by.
BOARD_METHODS = {"MATCH_POINTS": "matchpoints", "MATCHPOINTS": "matchpoints", "MP": "matchpoints",
                 "MP_PAIRS": "matchpoints", "CROSS_IMPS": "cross-imps", "CROSS_IMP": "cross-imps",
                 "BUTLER_IMPS": "butler", "BUTLER": "butler", "BUTLER_PAIRS": "butler"}
POINTS = {"matchpoints": "MATCH_POINTS", "cross-imps": "CROSS_IMP_POINTS", "butler": "BUTLER_POINTS"}
SCORINGS_BACK = {"matchpoints": "MATCH_POINTS", "cross-imps": "CROSS_IMPS", "butler": "BUTLER_IMPS"}
# WINNER_TYPE: 1 one winner (every contestant ranked together), 2 two (each direction, across sections)
WINNER_TYPES = {"1": "together", "2": "by-direction"}

VERSIONS = ("1.0", "1.1", "1.2")    # the USEBIO versions read (the published specifications)
MAX_RUN = 65_536            # characters between two '<' of a USEBIO file: a tag with its attributes, or a text
# the encodings a USEBIO file may declare: expat's own, and the Windows code page of the programs
# that run on Windows; anything else (x-evil, UTF-7, Shift_JIS, rot13 …) is refused, never looked up
ENCODINGS = {"utf-8": None, "utf8": None, "iso-8859-1": None, "iso8859-1": None, "latin-1": None, "latin1": None,
             "us-ascii": None, "ascii": None, "utf-16": "utf-16", "windows-1252": "cp1252", "cp1252": "cp1252",
             "iso-8859-15": "iso8859_15"}
ENCODINGS_HINT = "UTF-8, ISO-8859-1, Windows-1252, ISO-8859-15, US-ASCII or UTF-16"
_DECLARATION = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]{0,200}?encoding\s*=\s*[\"']([^\"']{0,60})[\"']")


_NONE: tuple = ()           # a parsed node's children, comments and spans until it has one (most have none)
# a tag's end: its '>' past any quoted attribute value (which may hold a '>')
_TAG_END = re.compile(rb"<[^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*>")
# what the text between two tags holds besides characters: a CDATA section, a processing
# instruction, a character or predefined entity reference (any other entity is refused by the parse)
_MARKUP = re.compile(rb"<!\[CDATA\[(.*?)\]\]>|<\?.*?\?>|&#x([0-9a-fA-F]+);|&#([0-9]+);|&(amp|lt|gt|quot|apos);", re.S)
_PREDEFINED = {b"amp": "&", b"lt": "<", b"gt": ">", b"quot": '"', b"apos": "'"}


class Node:
    """An element of a parsed USEBIO file: its tag, attributes, position (line, column; byte offsets
    of its start tag and end tag), children and comments. Its text (the character data directly in
    it, as expat gives it) is decoded from the bytes when first asked for: most are never read."""

    __slots__ = ("tag", "attrs", "line", "column", "children", "_text", "comments", "start", "close", "spans",
                 "source", "_parsed")

    def __init__(self, tag: str, attrs: dict[str, str], line: int, column: int, children: list | None = None,
                 text: str | None = "", comments: list | None = None, start: int = -1, close: int = -1,
                 spans: list | None = None, source: "Parsed | None" = None, parsed: "Parsed | None" = None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.line = line
        self.column = column
        self.children = [] if children is None else children
        self._text = text
        self.comments = [] if comments is None else comments        # a parsed node's: () until it has one
        self.start = start          # byte offsets in the bytes parsed: the start tag's '<' …
        self.close = close          # … and the end tag's (for <EMPTY/>: just past it)
        self.spans = [] if spans is None else spans             # each comment's bytes, <!-- to -->
        self.source = source        # the root's: the bytes parsed and their encodings (the writer's)
        self._parsed = parsed       # the bytes its text is decoded from (None: a node built, its text given)

    def __repr__(self) -> str:
        return f"Node({self.tag!r}, line {self.line}, column {self.column})"

    @property
    def text(self) -> str:
        t = self._text
        if t is None:
            t = self._text = _text_of(self)
        return t

    @text.setter
    def text(self, value: str) -> None:
        self._text = value

    def find(self, tag: str) -> "Node | None":
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def value(self, tag: str) -> str | None:
        for c in self.children:
            if c.tag == tag:
                t = c._text
                if t is None:
                    t = c._text = _text_of(c)
                return t.strip()
        return None

    def all(self, tag: str) -> list["Node"]:
        return [c for c in self.children if c.tag == tag]


def _head(data: bytes, start: int) -> int:
    """The offset just past the start tag at `start`."""
    end = data.find(b">", start) + 1
    if data.find(b'"', start, end) < 0 and data.find(b"'", start, end) < 0:
        return end
    return _TAG_END.match(data, start).end()


def _text_of(node: Node) -> str:
    """A parsed node's character data, as expat reports it: the bytes between its tags, less its
    children and comments, decoded; line ends made LF; references and CDATA sections resolved;
    processing instructions left out."""
    parsed = node._parsed
    if parsed is None:
        return ""
    if node.children or node.spans:
        return _mixed(node, parsed)
    chars = parsed.chars
    # a start tag without attributes is <TAG> (else it ends at its first '>'); one with them may hold
    # a '>' in quotes
    if chars is not None:
        head = node.start + len(node.tag) + 2
        if node.attrs:
            head = _head(parsed.data, node.start)
        elif chars[head - 1] != ">":
            head = chars.find(">", node.start) + 1
        text = chars[head:node.close]
    else:
        data = parsed.data
        head = _head(data, node.start) if node.attrs else data.find(b">", node.start) + 1
        text = data[head:node.close].decode(parsed.codec, "replace")
    if "&" in text or "<" in text or "\r" in text:
        return _characters(parsed.data[head:node.close], parsed.codec)
    return text


def _mixed(node: Node, parsed: Parsed) -> str:
    """The text of a node with children or comments: the bytes between them."""
    data, codec = parsed.data, parsed.codec
    head = _head(data, node.start)
    parts = sorted([(c.start, _after(data, c)) for c in node.children] + list(node.spans))
    out = []
    for a, b in parts:
        out.append(_characters(data[head:a], codec))
        head = b
    out.append(_characters(data[head:node.close], codec))
    return "".join(out)


def _after(data: bytes, node: Node) -> int:
    """The offset just past a parsed node's end tag (its start tag, for <EMPTY/>)."""
    head = _head(data, node.start)
    if data[head - 2] == 47:
        return head
    return data.find(b">", node.close) + 1


def _plain(raw: bytes, codec: str) -> str:
    text = raw.decode(codec, "replace")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _characters(raw: bytes, codec: str) -> str:
    if b"&" not in raw and b"<" not in raw:
        return _plain(raw, codec)
    out, at = [], 0
    for m in _MARKUP.finditer(raw):
        out.append(_plain(raw[at:m.start()], codec))
        at = m.end()
        if m[1] is not None:
            out.append(_plain(m[1], codec))
        elif m[2] is not None:
            out.append(chr(int(m[2], 16)))
        elif m[3] is not None:
            out.append(chr(int(m[3])))
        elif m[4] is not None:
            out.append(_PREDEFINED[m[4]])
    out.append(_plain(raw[at:], codec))
    return "".join(out)


def _bounded(data: bytes, file: str) -> None:
    """A tag, attribute or text longer than MAX_RUN is refused before expat sees it (linear: one
    split), at its line."""
    # a run longer than MAX_RUN holds a whole aligned block of MAX_RUN // 2 bytes without '<': the
    # runs are split (and the longest found) only when some block has none
    block = MAX_RUN // 2
    if all(data.find(b"<", at, at + block) >= 0 for at in range(0, len(data) - block + 1, block)):
        return
    longest = max(data.split(b"<"), key=len)
    if len(longest) > MAX_RUN:
        start = data.find(longest)
        line = data.count(b"\n", 0, start) + 1
        raise BridgelawError(f"a tag or text of {len(longest):,} bytes", file=file, line=line, column=1,
                             expected=f"at most {MAX_RUN:,} bytes between two '<' of a USEBIO file (docs/limits.md)")


def _encoding(data: bytes, file: str) -> tuple[bytes, str | None]:
    """The bytes expat is given and the encoding it is told (None: the file's own, which expat
    reads itself: UTF-8, ISO-8859-1, US-ASCII). An encoding outside ENCODINGS is refused at the
    declaration; UTF-16 and the Windows code pages are given to expat as UTF-8, so that every byte
    offset of the parse is in an ASCII-compatible text (the writer edits it in place)."""
    m = _DECLARATION.match(data[:400])
    if m is None:
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):       # UTF-16 with a byte-order mark and no declaration
            return data.decode("utf-16", "replace").encode("utf-8"), "UTF-8"
        return data, None
    name = m[1].decode("ascii", "replace").strip()
    key = name.lower()
    if key not in ENCODINGS:
        line = data.count(b"\n", 0, m.start(1)) + 1
        raise BridgelawError(f"the file declares the encoding '{name[:40]}', which bridgelaw does not read", file=file,
                             line=line, column=m.start(1) - data.rfind(b"\n", 0, m.start(1)),
                             expected=ENCODINGS_HINT)
    codec = ENCODINGS[key]
    if codec is None:
        return data, None
    return data.decode(codec, "replace").encode("utf-8"), "UTF-8"


@dataclass
class Parsed:
    """The bytes expat parsed (every Node's offsets are in them), the codec that decodes them, and
    the file's own encoding (the corrected file is written in it)."""

    data: bytes
    codec: str
    encoding: str
    # the bytes decoded whole, when a character's offset is its byte's (a single-byte codec, or
    # ASCII bytes): the nodes' texts are sliced from it (None: each is decoded from its bytes)
    chars: str | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.chars is None and (self.codec != "utf-8" or self.data.isascii()):
            self.chars = self.data.decode("latin-1" if self.codec != "ascii" else "ascii", "replace")


_NATIVE = {"iso-8859-1": "latin-1", "iso8859-1": "latin-1", "latin-1": "latin-1", "latin1": "latin-1",
           "us-ascii": "ascii", "ascii": "ascii"}


def parse_xml(data: bytes, file: str) -> Node:
    _bounded(data, file)
    original = data
    data, encoding = _encoding(data, file)
    m = _DECLARATION.match(original[:400])
    declared = m[1].decode("ascii", "replace").strip().lower() if m else ""
    if encoding is None:
        codec = _NATIVE.get(declared, "utf-8")
        parsed = Parsed(data, codec, codec)
    else:
        parsed = Parsed(data, "utf-8", ENCODINGS.get(declared) or "utf-16")
    parser = expat.ParserCreate(encoding)
    top = Node("", {}, 0, 0)            # the document: its one child is the root element
    stack: list[Node] = [top]
    push, pop = stack.append, stack.pop

    # The handlers are the parse's whole cost: a node is made with its position and offsets, and
    # nothing else (no character data handler: a node's text is read from the bytes when asked for).
    # A node is made without calling Node(…): its slots set here cost half the class call (4,000-9,000 a file).
    new = object.__new__

    def start(tag, attrs):
        node = new(Node)
        node.tag = tag
        node.attrs = attrs
        node.line = parser.CurrentLineNumber
        node.column = parser.CurrentColumnNumber + 1
        node.start = parser.CurrentByteIndex
        node.children = node.comments = node.spans = _NONE
        node._text = node.source = None
        node.close = -1
        node._parsed = parsed
        parent = stack[-1]
        if parent.children:
            parent.children.append(node)
        else:                       # its first child (a leaf's children stay the shared empty tuple)
            parent.children = [node]
        push(node)
        if len(stack) > 21:
            raise BridgelawError("XML nested more than 20 levels", file=file, line=node.line, column=node.column,
                                 expected="a USEBIO file")

    def end(tag):
        pop().close = parser.CurrentByteIndex

    def comment(text):
        if len(stack) > 1:
            node = stack[-1]
            if not node.comments:
                node.comments, node.spans = [], []
            node.comments.append(text)
            at = parser.CurrentByteIndex
            node.spans.append((at, data.find(b"-->", at) + 3))

    def entity(*args):
        raise BridgelawError("the XML declares an entity", file=file, line=parser.CurrentLineNumber,
                             column=parser.CurrentColumnNumber + 1, expected="a USEBIO file without entity declarations")

    def skipped(name, is_parameter):
        raise BridgelawError(f"the entity &{name[:40]}; is not defined", file=file, line=parser.CurrentLineNumber,
                             column=parser.CurrentColumnNumber + 1,
                             expected="&amp; &lt; &gt; &quot; &apos; or a character reference such as &#233;")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CommentHandler = comment
    parser.EntityDeclHandler = entity
    parser.SkippedEntityHandler = skipped
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise BridgelawError(f"not well-formed XML: {expat.ErrorString(exc.code)}", file=file, line=exc.lineno,
                             column=exc.offset + 1, expected="a USEBIO file") from None
    except (LookupError, ValueError) as exc:          # never reached for ENCODINGS; kept as the last guard
        raise BridgelawError(f"the file could not be read: {str(exc)[:80]}", file=file, line=1, column=1,
                             expected=ENCODINGS_HINT) from None
    finally:        # the handlers let go of the parser (they and it held each other, and the whole tree with them)
        for name in ("StartElementHandler", "EndElementHandler", "CommentHandler", "EntityDeclHandler",
                     "SkippedEntityHandler"):
            setattr(parser, name, None)
    root = top.children
    if not root or root[0].tag != "USEBIO":
        raise BridgelawError(f"the root element is <{root[0].tag[:40] if root else ''}>", file=file, line=1, column=1,
                             expected="<USEBIO Version=\"1.2\">")
    version = root[0].attrs.get("Version")
    if version is not None and version.strip() not in VERSIONS:
        shown = version.strip()[:20] + ("…" if len(version.strip()) > 20 else "")
        raise BridgelawError(f"USEBIO Version \"{shown}\" is not a version this reader knows", file=file,
                             line=root[0].line, column=root[0].column,
                             expected=f"Version {', '.join(VERSIONS[:-1])} or {VERSIONS[-1]}")
    root[0].source = parsed
    return root[0]


def load_event_usebio(path: str | Path, *, data: bytes | None = None, scoring: str | None = None,
                      default: str | None = None) -> Event:
    name = str(path)
    if data is None:
        data = read_bytes(path, what="USEBIO file", limit=MAX_RESULTS_BYTES)   # docs/limits.md
    root = parse_xml(data, name)
    return read_usebio(root, name, scoring=scoring, data=data, default=default)


def contest(event: Node, file: str, scoring: str | None, default: str | None) -> tuple[str, str]:
    """How the event is contested (pairs, individual, teams) and the method its boards are scored by:
    `scoring` (``--scoring``), else the EVENT_TYPE when it names one, else BOARD_SCORING_METHOD,
    SCORING_METHOD or the PARTICIPANTS' EVENT_TYPE, else `default`."""
    etype = event.attrs.get("EVENT_TYPE", "").strip().upper()
    known = EVENT_TYPES.get(etype)
    if known is None and etype:
        raise BridgelawError(f"EVENT_TYPE '{etype[:30]}' is not an event bridgelaw reads", file=file, line=event.line,
                             column=event.column, expected="PAIRS, INDIVIDUAL or TEAMS (USEBIO 1.2), or MP_PAIRS, "
                             "CROSS_IMP, BUTLER_PAIRS (1.0, 1.1)")
    form, method = known or ("pairs", None)
    if form == "teams":
        return form, scoring or ""
    parts = event.find("PARTICIPANTS")
    for text in (event.value("BOARD_SCORING_METHOD"), event.value("SCORING_METHOD"),
                 parts.attrs.get("EVENT_TYPE") if parts is not None else None):
        if method is None and text:
            method = BOARD_METHODS.get(text.strip().upper())
    if method is None:
        method = _method_of_lines(event)
    chosen = scoring or method or default
    if chosen is None:
        raise BridgelawError(f"EVENT_TYPE '{etype}' does not say how the boards are scored", file=file, line=event.line,
                             column=event.column, expected="<BOARD_SCORING_METHOD> MATCH_POINTS, CROSS_IMPS or "
                             "BUTLER_IMPS in the file, or --scoring")
    return form, chosen


def _method_of_lines(event: Node) -> str | None:
    """The method the traveller lines' published points name (NS_MATCH_POINTS …), as a file that
    says no more (the USEBIO 1.1 specification's individual example) shows it."""
    holders = [event]
    for _ in range(3):
        for holder in holders:
            for b in holder.all("BOARD"):
                for tl in b.all("TRAVELLER_LINE"):
                    for method, tag in POINTS.items():
                        if tl.find(f"NS_{tag}") is not None or tl.find(f"EW_{tag}") is not None:
                            return method
        holders = [c for h in holders for c in h.children if c.tag in ("SESSION", "SECTION")]
    return None


def read_usebio(root: Node, file: str, *, scoring: str | None = None, data: bytes | None = None,
                default: str | None = None) -> Event:
    event = root.find("EVENT")
    if event is None:
        raise BridgelawError("the file has no <EVENT>", file=file, line=root.line, column=root.column)
    teams = usebio_teams.is_teams(event)
    form, chosen = ("teams", "") if teams else contest(event, file, scoring, default)
    title = event.value("EVENT_DESCRIPTION") or event.value("TITLE") or Path(file).stem
    program = _program(file, root, event)
    if form == "teams":
        # TEAMS HOOK: a teams event (EVENT_TYPE TEAMS, SWISS_TEAMS …, or MATCH elements between
        # teams) is read by the teams reader (field/usebio_teams.py) onto the same model; nothing
        # below reads a MATCH.
        if scoring is not None:
            raise BridgelawError(f"--scoring {scoring}: a teams file says how its boards and matches are scored",
                                 file=file, line=event.line, column=event.column,
                                 expected="no --scoring for a teams file (its BOARD_SCORING_METHOD, "
                                 "MATCH_SCORING_METHOD)")
        read = usebio_teams.read_teams(root, event, file, data=data, read_line=_line,
                                       vulnerability=bridge_vulnerability, program=program)
        read.country = _country(event, root)
        return read
    holders = event.all("SESSION") or [event]
    sessions = []
    for k, holder in enumerate(holders, 1):
        sections = holder.all("SECTION") or [holder]
        session = Session(name=title if len(holders) == 1 else f"{title} — session {k}", scoring=chosen,
                          where=_where(file, holder), individual=form == "individual",
                          date=session_played_on(file, holder, event))
        winner = (holder.value("WINNER_TYPE") or event.value("WINNER_TYPE") or "").strip()
        session.ranking, session.ranking_from_file = WINNER_TYPES.get(winner), winner in WINNER_TYPES
        for sec in sections:
            sec_name = (sec.attrs.get("SECTION_ID") or sec.value("SECTION_ID") or "") if sec is not holder else ""
            _participants(file, sec, sec_name, session)
            for b in sec.all("BOARD"):
                _board(file, b, sec_name, session)
        lines = [l for b in session.boards.values() for l in b.lines]
        if not lines:
            raise BridgelawError("the session has no traveller lines", file=file, line=holder.line, column=holder.column,
                                 expected="<BOARD> elements with <TRAVELLER_LINE>s")
        _listed(session, lines)
        session.pair_numbers = "unique" if session.individual else guess_pair_numbers(lines)
        rekey = {}
        for c in session.contestants.values():
            c.key = contestant_key(c.section, c.direction, c.number, session.pair_numbers)
            rekey[c.key] = c
        session.contestants = rekey
        for board in session.boards.values():
            check_board(board, session, lambda line, key: line.extra.get("cells", {}).get(key, line.where),
                        f"board {board.number}: ")
        sessions.append(session)
    notes = adjustment_cell.file_notes(event.comments)       # the profile a file bridgelaw wrote names
    for session in sessions:
        if "ranking" in notes and not session.ranking_from_file:
            session.ranking, session.ranking_from_file = notes["ranking"], True
    return Event(title=title, file=file, format="usebio", sessions=sessions, source=root, program=program,
                 extra={"crlf": data is not None and b"\r\n" in data[:4096],
                        **({"profile": notes["profile"]} if "profile" in notes else {})},
                 country=_country(event, root))


def _country(event: Node, root: Node) -> str | None:
    """The country the file names (EVENT's COUNTRY, else the CLUB's): a word for the rulebook calendar."""
    club = root.find("CLUB")
    for holder in (event, club):
        text = " ".join((holder.value("COUNTRY") or "").split())[:60] if holder is not None else ""
        if text:
            return text
    return None


def _program(file: str, root: Node, event: Node) -> Program | None:
    for holder in (event, root):
        node = holder.find("PROGRAM_NAME")
        if node is not None and node.text.strip():
            return Program(node.text.strip()[:80], (holder.value("PROGRAM_VERSION") or "")[:40], _where(file, node))
    return None


def _participants(file: str, holder: Node, section: str, session: Session) -> None:
    parts = holder.find("PARTICIPANTS")
    if parts is None:
        return
    if session.individual:
        for player in parts.all("PLAYER"):
            where = _where(file, player)
            number_text = player.value("PLAYER_NUMBER")
            if not number_text:
                raise where.error("a PLAYER of an individual event has no PLAYER_NUMBER")
            number = identifier(number_text, where, "PLAYER_NUMBER")
            c = Contestant("", section, number, None, player.value("PLAYER_NAME") or None, extra={"node": player})
            _published(player, c)
            session.contestants[f"{section}:{number}"] = c
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
        _published(pair, c)
        session.contestants[f"{section}:{number}"] = c


def _listed(session: Session, lines: list[Line]) -> None:
    """Every pair a line names is one its section's PARTICIPANTS lists, when the section lists any (a
    line naming another was ranked as a pair of its own with one board)."""
    listed = {c.section for c in session.contestants.values()}
    if session.individual:
        return
    for line in lines:
        if line.section not in listed:
            continue
        for key, number in (("ns", line.ns), ("ew", line.ew)):
            if number is not None and f"{line.section}:{number}" not in session.contestants:
                where = line.extra.get("cells", {}).get(key, line.where)
                section = f" of section {line.section}" if line.section else ""
                raise where.error(f"board {line.board}: pair {number} is not one of the PARTICIPANTS{section}",
                                  expected="a PAIR_NUMBER the PARTICIPANTS list")


def _published(node: Node, c: Contestant) -> None:
    """A contestant's published figures: total, percentage, place, boards played; a pair-level
    ADJUSTMENT (added to the total, as RealBridge writes it) is kept to be applied."""
    for tag, key in (("TOTAL_SCORE", "total"), ("MATCH_POINTS", "total"), ("PERCENTAGE", "percent"),
                     ("BOARDS_PLAYED", "boards")):
        v = node.value(tag)
        if v and key not in c.published and published(v) is not None:
            c.published[key] = published(v)
    place = node.value("PLACE")
    if place and published(place.rstrip("=").strip()) is not None:
        c.published["place"] = published(place.rstrip("=").strip())
        c.extra.setdefault("printed", {})["place"] = place      # as printed (3=): the corrected file keeps its form
    adjustment = node.value("ADJUSTMENT")
    if adjustment and published(adjustment) is not None and published(adjustment).value != 0:
        c.extra["adjustment"] = published(adjustment).value


def _board(file: str, node: Node, section: str, session: Session) -> None:
    where = _where(file, node)
    number = whole_number(node.value("BOARD_NUMBER") or "", where, "BOARD_NUMBER", MAX_BOARD)
    board = session.boards.get(number)
    if board is None:
        board = session.boards[number] = Board(number, bridge_vulnerability(number), [], where, extra={"node": node})
    for tl in node.all("TRAVELLER_LINE"):
        board.lines.append(_line(file, tl, section, board, session.scoring, session))


def bridge_vulnerability(number: int) -> str:
    """The standard vulnerability of a board number (USEBIO travellers do not repeat it)."""
    return ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS",
            "EW")[(number - 1) % 16]


SEAT_TAGS = (("N", "N_PLAYER_NUMBER"), ("S", "S_PLAYER_NUMBER"), ("E", "E_PLAYER_NUMBER"), ("W", "W_PLAYER_NUMBER"))


# What a line's table result reads as, by its cells' texts (CONTRACT, PLAYED_BY, TRICKS) and the
# board's vulnerability: the result and NS's score. A season repeats a few hundred; the result is
# immutable, and only a result read without an error is kept (any other is read again, and refused).
_RESULTS: dict[tuple[str, str, str, str], tuple[bridge.PlayedResult, int]] = {}
_SCORES: dict[str, int] = {}            # a SCORE cell's text → its score (raw_score), likewise
_CODES: dict[str, Code | None] = {}           # a SCORE cell's text → its code (parse_code), likewise
_KEPT = 4096                                  # texts kept at most (a file of nonsense is not remembered)


def _keep(store: dict, key: Any, value: Any) -> Any:
    """`value` kept in `store` under `key` (the store emptied first when full), and returned."""
    if len(store) >= _KEPT:
        store.clear()
    store[key] = value
    return value


def _code_of(text: str) -> "Code | None":
    code = _CODES.get(text, _CODES)
    return _keep(_CODES, text, parse_code(text)) if code is _CODES else code


def _line(file: str, tl: Node, section: str, board: Board, scoring: str, session: Session | None = None) -> Line:
    """One TRAVELLER_LINE scored by `scoring`; `session` (when the caller has one) says whether its
    players are an individual's and keeps the line's warnings. The teams reader calls it with its
    own scoring and session (``read_line(file, node, section, board, scoring, session)``)."""
    where = Where(file, tl.line, tl.column)
    individual = session.individual if session is not None else False
    warnings = session.warnings if session is not None else board.extra.setdefault("warnings", [])
    # each tag's first element and its text, stripped ('' for an empty one: a cell missing or empty
    # is None, and stands at the line's place)
    nodes: dict[str, Node] = {}
    texts: dict[str, str] = {}
    for n in tl.children:
        tag = n.tag
        if tag not in nodes:
            t = n._text
            if t is None:
                t = n._text = _text_of(n)
            nodes[tag] = n
            texts[tag] = t.strip()

    def at(tag: str | None) -> Where:
        """Where a cell with a text stands (the line's place for None)."""
        if tag is None:
            return where
        n = nodes[tag]
        return Where(file, n.line, n.column)

    table_text = texts.get("TABLE_NUMBER") or None
    wt = at("TABLE_NUMBER") if table_text else where
    cells = {"table": wt} if table_text else {}
    players = None
    if individual:
        players = {}
        for seat, tag in SEAT_TAGS:
            text = texts.get(tag) or None
            w = at(tag) if text else where
            if text is None:
                raise w.error(f"{tag} is missing or empty on a line of an individual event",
                              expected="the four players' numbers: N_, S_, E_ and W_PLAYER_NUMBER")
            players[seat] = identifier(text, w, tag)
            cells[seat] = w
        ns, ew = f"{players['N']}-{players['S']}", f"{players['E']}-{players['W']}"
    else:
        ns_text = texts.get("NS_PAIR_NUMBER") or None
        ew_text = texts.get("EW_PAIR_NUMBER") or None
        if ns_text is None and ew_text is None and "N_PLAYER_NUMBER" in nodes:
            raise where.error("a line names four players (N_PLAYER_NUMBER …) in an event that is not an individual",
                              expected="EVENT_TYPE=\"INDIVIDUAL\" for an individual event")
        ns = ew = None
        if ns_text:
            cells["ns"] = w = at("NS_PAIR_NUMBER")
            ns = identifier(ns_text, w, "NS_PAIR_NUMBER")
        if ew_text:
            cells["ew"] = w = at("EW_PAIR_NUMBER")
            ew = identifier(ew_text, w, "EW_PAIR_NUMBER")
    line = Line(board.number, section, whole_number(table_text, wt, "TABLE_NUMBER", MAX_TABLE) if table_text else None,
                ns, ew, where, extra={"node": tl, "cells": cells}, players=players)
    for side, tag in _POINTS_TAGS[scoring]:
        text = texts.get(tag)
        if text:
            value = published(text)
            if value is None:
                raise at(tag).error(f"{tag} '{text[:20]}' is not a number")
            line.published[side] = value
    for c in tl.comments:
        c = c.strip()
        if c.startswith("bridgelaw:"):
            adjustment_cell.read(line, c[len("bridgelaw:"):].strip(), where, board.vulnerability)
            if line.kind != "result":
                return line
    contract = texts.get("CONTRACT") or None
    declarer = texts.get("PLAYED_BY") or None
    taken_text = texts.get("TRICKS") or None
    score = texts.get("SCORE") or None
    score_tag = "SCORE" if score else None          # the cell the score (or code) was read from
    code = _code_of(score) if score else None
    if code is None and contract:
        code = _code_of(contract)
        if code is not None and code.kind == "pass":
            code = None
        if code is not None:
            score, score_tag = contract, "CONTRACT"
    if players is None and (ns is None or ew is None):
        # a sit-out or a bye: one pair only, no result (or a not-played code). A line with a result
        # and a pair missing is an error at the empty cell.
        if contract or (score and (code is None or code.kind != "not-played")):
            missing = "NS_PAIR_NUMBER" if ns is None else "EW_PAIR_NUMBER"
            n = nodes.get(missing)
            raise (_where(file, n) if n is not None else where).error(
                f"{missing} is empty on a line with a result", expected="both pairs' numbers, or no result (a bye)")
        line.kind, line.code = "not-played", score or "Bye"
        line.extra["code_where"] = at(score_tag)
        return line
    if code is not None and code.kind == "not-played":
        line.kind, line.code = "not-played", score
        line.extra["code_where"] = at(score_tag)
        return line
    if code is not None and code.kind == "artificial":
        values = {"NS": code.NS, "EW": code.EW} if code.two_sided else {"NS": code.NS, "EW": mirror(code.NS)}
        line.kind, line.artificial, line.code = "artificial", values, score
        line.mirrored = None if code.two_sided else "EW"
        line.extra["code_where"] = at(score_tag)
        return line
    value = None
    if score is not None and (code is None or code.kind != "pass"):
        value = _SCORES.get(score)
        if value is None:
            value = _keep(_SCORES, score, raw_score(score, at(score_tag), "SCORE"))
    played, points, problem = None, None, None
    if contract and contract.upper() in ("PASS", "PASSED", "P", "AP", "ALL PASS"):
        played = bridge.PlayedResult(None, None, 0)
    elif contract:
        if not declarer or not taken_text:
            problem = (at("CONTRACT"), f"contract {contract[:10]} has no {'PLAYED_BY' if not declarer else 'TRICKS'}")
        else:
            key = (contract, declarer, taken_text, board.vulnerability)
            known = _RESULTS.get(key)
            if known is not None:
                played, points = known
            else:
                taken = tricks(taken_text, at("TRICKS"), "TRICKS")
                try:
                    c = bridge.parse_result(f"{contract}= {declarer.upper()}")
                    played = bridge.PlayedResult(c.contract, c.declarer, taken)
                except bridge.NotationError as exc:
                    problem = (at("CONTRACT"), f"'{contract[:10]}' by '{declarer[:3]}': {exc.message}")
                else:
                    points = bridge.ns_score(played, board.vulnerability)
                    _keep(_RESULTS, key, (played, points))
    if problem is not None:
        w, message = problem
        if value is None:
            raise w.error(message, expected="a contract such as 4SX with PLAYED_BY and TRICKS, or a SCORE")
        # the program scored the line from its SCORE: so does bridgelaw, and says where
        warnings.append(f"{w.file}:{w.line}:{w.column}: {message}; scored from its SCORE {value:+d}")
        line.extra["contract_text"] = (contract, declarer, taken_text)
    if played is not None:
        if points is None:
            points = bridge.ns_score(played, board.vulnerability)
        if value is not None and value != points:
            raise at(score_tag).error(f"SCORE {value:+d} for NS, but {played.text} scores NS {points:+d} "
                                    f"(board {board.number}: vulnerability {board.vulnerability})")
        line.kind, line.result, line.points = "result", played, points
    elif value is not None or (code is not None and code.kind == "pass"):
        v = value or 0
        line.kind, line.result, line.points = "result", bridge.Score(v), v
    else:
        line.kind = "none"              # a ruling must give it a score (model.require_results)
    return line


_POINTS_TAGS = {scoring: tuple((side, f"{side}_{tag}") for side in SIDES) for scoring, tag in POINTS.items()}


# --- writing -------------------------------------------------------------------------------------------
#
# A USEBIO file read is edited in place (write_in_place): the bytes it was parsed from, every one kept —
# its declaration and encoding, DOCTYPE, indentation, line ends, number formats — but the figures
# field/corrected.py changes (a ruled board's line points, each contestant's TOTAL_SCORE, PERCENTAGE,
# BOARDS_PLAYED and PLACE that follow) and each ruled line's comment. A line a ruling changed keeps
# its CONTRACT, PLAYED_BY, TRICKS and SCORE as played (USEBIO has no element for a weighted or
# assigned score: the receiving program reads the line's points, written at the decimals they need) and gains a comment ``<!-- bridgelaw: adj 4S= N @2/3; 4S-1 N @1/3 -->``
# that bridgelaw reads back; an artificial line's SCORE is the code the programs write (A6040: NS
# then EW whole percentages, at every method), a line not played ``NP``. A file read from PBN or
# a traveller is written whole in USEBIO 1.2's shape (write: EVENT_TYPE PAIRS or INDIVIDUAL with its
# BOARD_SCORING_METHOD, its DATE, WINNER_TYPE, and a comment naming the profile it was scored with).

@dataclass
class _Edits:
    """What the writer changes in a tree it did not build: texts of elements, elements added at the
    end of one, comments of one (by the node's id)."""

    text: dict[int, str] = field(default_factory=dict)
    added: dict[int, list[Node]] = field(default_factory=dict)
    comments: dict[int, list[str]] = field(default_factory=dict)

    def set(self, parent: Node, tag: str, value: str, before: int | None = None) -> None:
        node = parent.find(tag)
        if node is not None:
            self.text[id(node)] = value
        else:
            self.added.setdefault(id(parent), []).append(Node(tag, {}, 0, 0, text=value))


def _serialise(node: Node, edits: _Edits, indent: str, out: list[str]) -> None:
    attrs = "".join(f' {k}="{_esc(v)}"' for k, v in node.attrs.items())
    comments = edits.comments.get(id(node), node.comments)
    children = [*node.children, *edits.added.get(id(node), [])]
    if not children and not comments:
        out.append(f"{indent}<{node.tag}{attrs}>{_esc(edits.text.get(id(node), node.text).strip())}</{node.tag}>")
        return
    out.append(f"{indent}<{node.tag}{attrs}>")
    for c in comments:
        out.append(f"{indent}  <!--{c.replace('--', '- -')}-->")
    for child in children:
        _serialise(child, edits, indent + "  ", out)
    out.append(f"{indent}</{node.tag}>")


def _places(scored_sessions: list, key: str, default: int) -> int:
    for ss in scored_sessions:
        for sb in ss.boards.values():
            for sl in sb.lines:
                p = sl.line.published.get(key)
                if p is not None:
                    return p.places
    return default


class _InPlace:
    """Edits of the bytes a USEBIO file was parsed from: an element's text replaced where it stands
    (its surrounding spaces kept), a comment replaced or added before a line's first child with that
    child's indentation, an element added after the last child with its indentation."""

    def __init__(self, parsed: Parsed) -> None:
        self.parsed = parsed
        self.data = parsed.data
        self.edits: list[tuple[int, int, str]] = []

    def _tag_end(self, node: Node) -> int:
        """The offset just past the start tag's '>' (attributes' quotes skipped)."""
        data, i, quote = self.data, node.start, 0
        while i < len(data):
            c = data[i]
            if quote:
                if c == quote:
                    quote = 0
            elif c in (34, 39):
                quote = c
            elif c == 62:
                return i + 1
            i += 1
        return i

    def _end(self, node: Node) -> int:
        """The offset just past the element's end tag."""
        head = self._tag_end(node)
        if self.data[head - 2] == 47:           # <EMPTY/>
            return head
        return self.data.find(b">", node.close) + 1

    def _indent(self, at: int) -> str:
        """The whitespace just before offset `at`, back to the previous tag."""
        k = at
        while k > 0 and self.data[k - 1] in b" \t\r\n":
            k -= 1
        return self.data[k:at].decode("ascii")

    def set(self, node: Node, text: str) -> None:
        head = self._tag_end(node)
        if self.data[head - 2] == 47:           # <EMPTY/> becomes <EMPTY>text</EMPTY>
            inner = self.data[node.start + 1:head - 2].decode(self.parsed.codec).rstrip()
            self.edits.append((node.start, head, f"<{inner}>{_esc(text)}</{node.tag}>"))
            return
        old = self.data[head:node.close].decode(self.parsed.codec)
        lead, trail = len(old) - len(old.lstrip()), len(old) - len(old.rstrip())
        if old.strip() != text:
            self.edits.append((head + lead, node.close - trail if trail else node.close, _esc(text)))

    def remove(self, node: Node) -> None:
        """The element gone, with the whitespace before it (a figure that no longer exists: an
        artificial room's pairwise cross-IMPs)."""
        self.edits.append((node.start - len(self._indent(node.start)), self._end(node), ""))

    def add(self, parent: Node, tag: str, text: str) -> None:
        if not parent.children:
            return
        last = parent.children[-1]
        at = self._end(last)
        self.edits.append((at, at, f"{self._indent(last.start)}<{tag}>{_esc(text)}</{tag}>"))

    def comment(self, node: Node, text: str | None, word: str = "") -> None:
        """The node's bridgelaw comment (of `word`: ``bridgelaw: profile …``) set to `text` (None: removed)."""
        body = None if text is None else f"<!-- bridgelaw: {text.replace('--', '- -')} -->"
        for c, (a, b) in zip(node.comments, node.spans):
            if c.strip().startswith("bridgelaw:" + (f" {word} " if word else "")):
                if body is None:
                    self.edits.append((a - len(self._indent(a)), b, ""))
                elif self.data[a:b].decode(self.parsed.codec) != body:
                    self.edits.append((a, b, body))
                return
        if body is None:
            return
        if node.children:
            first = node.children[0].start
            self.edits.append((first, first, body + self._indent(first)))
        else:
            at = self._tag_end(node)
            self.edits.append((at, at, body))

    def text(self) -> str:
        out, last = [], len(self.data)
        for start, end, new in sorted(self.edits, key=lambda e: (e[0], e[1]), reverse=True):
            out.append(self.data[end:last].decode(self.parsed.codec))
            out.append(new)
            last = start
        out.append(self.data[:last].decode(self.parsed.codec))
        return "".join(reversed(out))


_TOTAL_TAGS = {"total": ("TOTAL_SCORE", "MATCH_POINTS"), "percent": ("PERCENTAGE",), "boards": ("BOARDS_PLAYED",),
               "place": ("PLACE",)}


def write_in_place(scored_sessions: list, event: Event, figs: list, profile: str | None = None) -> str:
    """The USEBIO file read, edited in place (its encoding, declaration, layout, indentation, number
    formats and every element kept): the figures :mod:`.corrected` changes — each ruled board's
    lines' points, each contestant's TOTAL_SCORE, PERCENTAGE, BOARDS_PLAYED and PLACE that follow —
    and on each ruled line its bridgelaw comment (and its SCORE code, for an artificial score or a
    board not played). No element is added, except a ruled line's points where it had none."""
    edits = _InPlace(event.source.source)
    ev = event.source.find("EVENT")
    if profile is not None and ev is not None:      # scored with another profile than the program's (--profile)
        edits.comment(ev, adjustment_cell.note("profile", profile)[len("bridgelaw: "):], word="profile")
    for ss, fig in zip(scored_sessions, figs):
        tag = POINTS[ss.session.scoring]
        for number, sb in ss.boards.items():
            if number not in fig.ruled:
                continue
            for sl in sb.lines:
                node = sl.line.extra.get("node")
                if node is None:
                    continue
                for side in SIDES:
                    text = fig.line(sl, side)
                    if text is None:
                        continue
                    element = node.find(f"{side}_{tag}")
                    if element is not None:
                        edits.set(element, text)
                    elif sl.line.ruling is not None:
                        edits.add(node, f"{side}_{tag}", text)
                if sl.line.ruling is None:
                    continue
                cell, code = _ruled_cell(sl, fresh=False)
                edits.comment(node, cell)
                if code is not None:
                    score = node.find("SCORE")
                    if score is not None:
                        edits.set(score, code)
                    else:
                        edits.add(node, "SCORE", code)
        for st in ss.standings:
            node = st.contestant.extra.get("node") if st.contestant is not None else None
            if node is None:
                continue
            for cell, tags in _TOTAL_TAGS.items():
                text = fig.standing(st, cell)
                element = next((node.find(t) for t in tags if node.find(t) is not None), None)
                if text is not None and element is not None:
                    edits.set(element, text)
    return edits.text()


def _ruled_cell(sl, fresh: bool) -> tuple[str | None, str | None]:
    """A ruled line's Adjustment cell (the comment) and the SCORE code the programs write for it."""
    line = sl.line
    cell = adjustment_cell.write(sl)
    code = None
    if line.kind == "not-played" and line.ruling is not None:
        code = "NP"
    elif line.kind == "artificial" and (fresh or line.ruling is not None or line.extra.get("adjustment")):
        code, exact = _code(sl)
        if cell is None and not exact:          # a code of the file's that the SCORE cannot say exactly
            cell = adjustment_cell.write(sl, always=True)
    return cell, code


def write(scored_sessions: list, event: Event, profile: str | None = None) -> str:
    """USEBIO for the scored sessions: the file read, rescored (or, for an event read from
    elsewhere, one in USEBIO 1.2's shape); see the notes above."""
    edits = _Edits()
    if event.format == "usebio":
        root, key = event.source, "node"
    else:
        root, key = _fresh(scored_sessions, event), "usebio"
        ev = root.find("EVENT")
        if profile is not None:             # the conventions it was scored with travel with it
            ev.comments.append(" " + adjustment_cell.note("profile", profile) + " ")
        first = scored_sessions[0].session
        if first.ranking_from_file and first.ranking == "by-section":     # no WINNER_TYPE says it
            ev.comments.append(" " + adjustment_cell.note("ranking", first.ranking) + " ")
    places = {side: _places(scored_sessions, side, 2) for side in SIDES}
    for ss in scored_sessions:
        session = ss.session
        tag = POINTS[session.scoring]
        for sb in ss.boards.values():
            for sl in sb.lines:
                node = sl.line.extra.get(key)
                if node is None:
                    continue
                _line_edits(sl, node, tag, places, edits, key == "usebio")
        t_places = next((c.published["total"].places for c in session.contestants.values()
                         if "total" in c.published), 2)
        for st in ss.standings:
            node = st.contestant.extra.get(key) if st.contestant is not None else None
            if node is None:
                continue
            edits.set(node, "TOTAL_SCORE", _num(st.total, t_places))
            if st.percent is not None and (node.find("PERCENTAGE") is not None or session.scoring == "matchpoints"):
                edits.set(node, "PERCENTAGE", _num(st.percent, 2))
            edits.set(node, "PLACE", st.rank_text)
    version = root.attrs.get("Version", "1.2").strip()
    dtd = {"1.0": "usebio_v1_0.dtd", "1.1": "usebio_v1_1.dtd"}.get(version, "usebio_v1_2.dtd")
    out = ['<?xml version="1.0" encoding="UTF-8"?>', f'<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/{dtd}">']
    _serialise(root, edits, "", out)
    return "\n".join(out) + "\n"


def _line_edits(sl, node: Node, tag: str, places: dict[str, int], edits: _Edits, fresh: bool) -> None:
    line = sl.line
    for side in SIDES:
        p = line.published.get(side)
        edits.set(node, f"{side}_{tag}", _num(sl.side(side).value, p.places if p else places[side]))
    cell, code = _ruled_cell(sl, fresh)
    kept = [c for c in node.comments if not c.strip().startswith("bridgelaw:")]
    if cell:
        kept.append(f" bridgelaw: {cell} ")
    if kept != list(node.comments):
        edits.comments[id(node)] = kept
    if code is not None:
        edits.set(node, "SCORE", code)


def _code(sl) -> tuple[str, bool]:
    """An artificial line's SCORE as the programs write it — A6040: NS then EW whole percentages
    (the nearest, for a share that is not one; average for IMPs) — and whether it says the awarded
    scores exactly (a whole percentage each, at matchpoints)."""
    a = sl.awarded or sl.line.artificial or {}
    pct, exact = {}, sl.line.players is None
    for side in SIDES:
        v = a.get(side)
        if isinstance(v, str):              # a responsibility at IMPs: the code the programs write for it
            v = WORD_PERCENTS[v]
        if v is None or sl.line.published is None or not isinstance(v, Fraction) or not 0 <= v < 1 or \
                sl.NS.percent is None:
            exact = False
            v = Fraction(1, 2) if not isinstance(v, Fraction) or not 0 <= v < 1 else v
        pct[side] = round(v * 100)
        exact = exact and pct[side] == v * 100
    return f"A{pct['NS']:02d}{pct['EW']:02d}", exact


def _fresh(scored_sessions: list, event: Event) -> Node:
    """A USEBIO 1.2 tree for an event read from PBN or a traveller; each line's and contestant's
    node is kept in their ``extra["usebio"]`` for the scores to be written into."""
    first = scored_sessions[0].session
    individual = any(ss.session.individual for ss in scored_sessions)
    root = Node("USEBIO", {"Version": "1.2"}, 0, 0)
    ev = Node("EVENT", {"EVENT_TYPE": "INDIVIDUAL" if individual else "PAIRS"}, 0, 0)
    root.children.append(ev)

    def leaf(parent: Node, tag: str, text: str) -> Node:
        n = Node(tag, {}, 0, 0, text=text)
        parent.children.append(n)
        return n

    leaf(ev, "PROGRAM_NAME", "bridgelaw")
    leaf(ev, "EVENT_DESCRIPTION", event.title)
    if first.date is not None:
        leaf(ev, "DATE", first.date.strftime("%d/%m/%Y"))
    leaf(ev, "BOARD_SCORING_METHOD", SCORINGS_BACK[first.scoring])
    if first.ranking in ("together", "by-direction"):
        leaf(ev, "WINNER_TYPE", "1" if first.ranking == "together" else "2")
    leaf(ev, "SESSION_COUNT", str(len(scored_sessions)))
    tag = POINTS[first.scoring]
    for k, ss in enumerate(scored_sessions, 1):
        session = ss.session
        holder = ev
        if len(scored_sessions) > 1:
            holder = Node("SESSION", {"SESSION_ID": str(k)}, 0, 0)
            ev.children.append(holder)
            if session.date is not None:
                leaf(holder, "DATE", session.date.strftime("%d/%m/%Y"))
        sections: dict[str, Node] = {}
        sectioned = any(st.section for st in ss.standings) or any(
            sl.line.section for sb in ss.boards.values() for sl in sb.lines)     # asked once a session

        def section(name: str) -> Node:
            if not sectioned:
                return holder
            if name not in sections:
                sections[name] = Node("SECTION", {"SECTION_ID": name}, 0, 0)
                holder.children.append(sections[name])
            return sections[name]

        participants: dict[str, Node] = {}
        for st in ss.standings:
            sec = section(st.section)
            parts = participants.get(st.section)
            if parts is None:
                parts = participants[st.section] = Node("PARTICIPANTS", {}, 0, 0)
                sec.children.append(parts)
            c = st.contestant
            number = c.number if c else st.key.split(":")[-1].split(" ")[-1]
            if session.individual:
                p = Node("PLAYER", {}, 0, 0)
                leaf(p, "PLAYER_NUMBER", number)
                if c and c.names:
                    leaf(p, "PLAYER_NAME", c.names)
            else:
                p = Node("PAIR", {}, 0, 0)
                leaf(p, "PAIR_NUMBER", number)
                if st.direction:
                    leaf(p, "DIRECTION", st.direction)
                if c and c.names:
                    for name in c.names.split(" - "):
                        player = Node("PLAYER", {}, 0, 0)
                        leaf(player, "PLAYER_NAME", name)
                        p.children.append(player)
            parts.children.append(p)
            if c is not None:
                c.extra["usebio"] = p
            else:
                st.contestant = Contestant(st.key, st.section, number, st.direction, extra={"usebio": p})
        boards: dict[tuple[str, int | None], Node] = {}
        for number, sb in ss.boards.items():
            for sl in sb.lines:
                line = sl.line
                key = (line.section, number)
                b = boards.get(key)
                if b is None:
                    b = boards[key] = Node("BOARD", {}, 0, 0)
                    leaf(b, "BOARD_NUMBER", str(number))
                    section(line.section).children.append(b)
                tl = Node("TRAVELLER_LINE", {}, 0, 0)
                b.children.append(tl)
                if line.table is not None:
                    leaf(tl, "TABLE_NUMBER", str(line.table))
                if line.players:
                    for seat, t in SEAT_TAGS:
                        leaf(tl, t, line.players[seat])
                else:
                    leaf(tl, "NS_PAIR_NUMBER", line.ns or "")
                    leaf(tl, "EW_PAIR_NUMBER", line.ew or "")
                for t, text in _result_xml(line):
                    leaf(tl, t, text)
                for side in SIDES:
                    leaf(tl, f"{side}_{tag}", "")
                line.extra["usebio"] = tl
    return root


def _result_xml(line: Line) -> list[tuple[str, str]]:
    """The table result as USEBIO writes it (kept on an adjusted line: its points say the score)."""
    r = line.result
    if isinstance(r, bridge.PlayedResult):
        if r.contract is None:
            return [("CONTRACT", "PASS"), ("SCORE", "0")]
        c = r.contract
        text = f"{c.level}{'NT' if c.strain in ('N', 'NT') else c.strain}{'X' * c.doubled}"
        return [("CONTRACT", text), ("PLAYED_BY", r.declarer), ("TRICKS", str(r.tricks)),
                ("SCORE", str(line.points))]
    if line.points is not None:
        return [("SCORE", str(line.points))]
    if line.kind == "not-played":
        return [("SCORE", "NP")]
    return [("SCORE", "")]           # artificial: the code is written with its scores (_line_edits)
