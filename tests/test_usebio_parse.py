"""The USEBIO parser (field/usebio.py parse_xml) builds each node without a character-data handler
and decodes a node's text from the bytes when it is asked for: pinned here to what expat itself
reports, node by node — tag, attributes, line, column, byte offsets, comments with their spans,
and the text (CDATA sections, character and predefined entity references, processing
instructions, CR, LF and CRLF line ends, attributes holding '>' and quotes, empty elements,
comments between children) — on every real USEBIO file kept and on generated documents in each
encoding the reader accepts."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from xml.parsers import expat

import pytest

from bridgelaw.field.usebio import _encoding, parse_xml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import usebio_teams_files  # noqa: E402


def reference(data: bytes) -> list[tuple]:
    """Every element in document order as expat reports it, with handlers for everything."""
    data, encoding = _encoding(data, "x.xml")
    parser = expat.ParserCreate(encoding)
    out, stack = [], []

    def start(tag, attrs):
        row = {"tag": tag, "attrs": dict(attrs), "line": parser.CurrentLineNumber,
               "column": parser.CurrentColumnNumber + 1, "start": parser.CurrentByteIndex, "text": [],
               "comments": [], "spans": []}
        out.append(row)
        stack.append(row)

    def end(tag):
        row = stack.pop()
        row["close"] = parser.CurrentByteIndex
        row["text"] = "".join(row["text"])

    def chars(text):
        if stack:
            stack[-1]["text"].append(text)

    def comment(text):
        if stack:
            stack[-1]["comments"].append(text)
            at = parser.CurrentByteIndex
            stack[-1]["spans"].append((at, data.find(b"-->", at) + 3))

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler, parser.CommentHandler = chars, comment
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.Parse(data, True)
    return [(r["tag"], r["attrs"], r["line"], r["column"], r["start"], r["close"], r["text"], r["comments"],
             r["spans"]) for r in out]


def parsed(data: bytes) -> list[tuple]:
    rows = []

    def walk(node):
        rows.append((node.tag, node.attrs, node.line, node.column, node.start, node.close, node.text,
                     list(node.comments), list(node.spans)))
        for c in node.children:
            walk(c)

    walk(parse_xml(data, "x.xml"))
    return rows


def real_files() -> list[tuple[str, bytes]]:
    files = [(p.name, p.read_bytes()) for p in sorted((HERE / "data" / "events").glob("*.xml"))]
    files += [(f.name, usebio_teams_files.generate(f)) for f in (usebio_teams_files.JSS, usebio_teams_files.EBUSCORE)]
    return files


@pytest.mark.parametrize("name,data", real_files(), ids=lambda x: x if isinstance(x, str) else "")
def test_real_files_parse_as_expat_reports_them(name, data):
    assert len(data) > 10_000
    assert parsed(data) == reference(data)


TEXTS = ["", " ", "12", "  4S  ", "é", "Zoë &amp; Björn", "a\r\nb", "a\rb", "a\nb", "\r\n", "\r", "x\r",
         "&amp;", "&lt;&gt;", "&quot;&apos;", "&#233;", "&#xE9;", "&#13;", "&#10;", "a&#13;\nb",
         "<![CDATA[raw & <stuff>\r\n]]>", "<![CDATA[]]>", "<?pi some > data?>", "x<?pi?>y", "a > b", "]]",
         "<!-- note -->", "<!-- bridgelaw: adj 4S= N -->", "a<!--c-->b", "€", "\u2013"]
ATTRS = ['', ' ', '\r\n  ', ' A="1"', " A='>'", ' A="x>y" B=\'"\'', ' TEAM_ID = "1" TEAM_NAME = "" ', ' A="&amp;&#62;"']
ENDS = ["\n", "\r\n", "\r", ""]


def document(rng: random.Random, depth: int = 0) -> str:
    tag = rng.choice(["A", "BOARD", "TRAVELLER_LINE", "SCORE", "PLAYER_NAME", "Ü"])
    attrs = rng.choice(ATTRS)
    if depth >= 4 or rng.random() < 0.3:
        if rng.random() < 0.15:
            return f"<{tag}{attrs}/>"
        return f"<{tag}{attrs}>{rng.choice(TEXTS)}</{tag}>"
    parts = []
    for _ in range(rng.randint(0, 4)):
        parts.append(rng.choice(TEXTS) + rng.choice(ENDS) + "  ")
        parts.append(document(rng, depth + 1))
    parts.append(rng.choice(TEXTS) + rng.choice(ENDS))
    return f"<{tag}{attrs}>{''.join(parts)}</{tag}>"


@pytest.mark.parametrize("declared,codec", [(None, "utf-8"), ("UTF-8", "utf-8"), ("ISO-8859-1", "latin-1"),
                                            ("windows-1252", "cp1252"), ("iso-8859-15", "iso8859_15"),
                                            ("UTF-16", "utf-16"), ("latin1", "latin-1")])
def test_generated_documents_parse_as_expat_reports_them(declared, codec):
    rng = random.Random(f"usebio-parse {declared}")
    checked = 0
    for _ in range(150):
        body = document(rng)
        if codec in ("latin-1", "cp1252", "iso8859_15"):
            body = body.replace("€", "e").replace("\u2013", "-") if codec == "latin-1" else body
        head = f'<?xml version="1.0" encoding="{declared}"?>\r\n' if declared else ""
        text = head + rng.choice(["", "<!DOCTYPE USEBIO SYSTEM \"usebio_v1_2.dtd\">\n"]) + \
            f'<USEBIO Version="1.2">{rng.choice(ENDS)}{body}{rng.choice(ENDS)}</USEBIO>{rng.choice(ENDS)}'
        try:
            data = text.encode(codec)
        except UnicodeEncodeError:
            continue
        assert parsed(data) == reference(data), text
        checked += 1
    assert checked > 100


def test_a_run_longer_than_the_bound_is_found_wherever_it_stands():
    """_bounded looks for '<' in aligned blocks of half the bound and splits the file only when a block
    has none: a run of MAX_RUN + 1 bytes is refused, with its length and line, at every offset (across
    block edges), and one of MAX_RUN is not."""
    from bridgelaw.core.errors import BridgelawError
    from bridgelaw.field.usebio import MAX_RUN, _bounded

    block = MAX_RUN // 2
    for before in (0, 1, 5, block - 1, block, block + 1, 2 * block - 3, 3 * block + 7):
        for run in (MAX_RUN - 1, MAX_RUN, MAX_RUN + 1, MAX_RUN + 2, 2 * MAX_RUN):
            head = b"<A>\n" + b"<B/>" * (before // 4) + b"x" * (before % 4)
            data = head + b"y" * run + b"<C/>" * 40_000
            pieces = max(data.split(b"<"), key=len)
            if len(pieces) > MAX_RUN:
                with pytest.raises(BridgelawError) as e:
                    _bounded(data, "x.xml")
                line = data.count(b"\n", 0, data.find(pieces)) + 1
                assert str(e.value).startswith(f"x.xml:{line}:1: a tag or text of {len(pieces):,} bytes")
            else:
                assert _bounded(data, "x.xml") is None
    assert _bounded(b"<A>" + b"z" * (MAX_RUN - 2) + b"</A>", "x.xml") is None     # "A>" and the run
    with pytest.raises(BridgelawError):
        _bounded(b"z" * (MAX_RUN + 1), "x.xml")
