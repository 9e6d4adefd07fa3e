"""Reading and writing PBN 2.1 (Portable Bridge Notation) files, as far as travellers need.

A PBN file is a sequence of games, each a block of tag pairs ``[Name "value"]`` separated from
the next by an empty line. A traveller is the ``ScoreTable`` section of a game: its tag value is
the header, columns ``Name\\width`` + alignment (``Table\\2R;PairId_NS\\2R;Contract\\4L;…``), and
each following line up to the next tag or empty line is one row, its values separated by spaces
(strings with spaces in quotes, ``-`` for no value).

The reader keeps every line of the file and the line and column of every tag value and row
value (a row's found when asked: :class:`Row`), so that a problem can be reported as
file:line:column and a rescored game written back with only its ScoreTable section changed
(:func:`rewrite`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import BridgelawError
from ..core.limits import MAX_RESULTS_BYTES, read_bytes

__all__ = ["Token", "Column", "Row", "ScoreTable", "Game", "PbnFile", "load_pbn", "parse_pbn", "decode_pbn", "rewrite",
           "rewrite_tables", "check_row"]

# a tag's value: characters but " and \, and escapes (\" \\), unrolled as runs between escapes (the
# same matches as (?:[^"\\]|\\.)*, a third of the time: sre walks a run at once)
_TAG = re.compile(r'^\s*\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>[^"\\]*(?:\\.[^"\\]*)*)"\s*\]')
_TOKEN = re.compile(r'"(?P<quoted>(?:[^"\\]|\\.)*)"|(?P<bare>[^\s"]+)')
# a row of _TOKENs and spaces only (possessive: linear in the line, never backtracking)
_ROW = re.compile(r'(?:\s*+(?:"(?:[^"\\]|\\.)*+"|[^\s"]++))*+\s*+')
_COLUMN = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_]*)(?:\\(?P<width>[0-9]+)(?P<align>[LRlr])?)?$")
MAX_WIDTH = 255             # a column wider than this is a mistake (10**8 would write a 200 MB file)


def _unescape(text: str) -> str:
    if '\\"' not in text and "\\\\" not in text:      # nothing to unescape (a header's Score\6R has a \)
        return text
    return re.sub(r'\\(["\\])', r"\1", text)


class Token:
    """One value of a tag or a table row, where it was written (a plain slotted class rather than a
    frozen dataclass: a session's file has thousands, and this one is made four times faster; it is
    not changed once made)."""

    __slots__ = ("raw", "value", "line", "column")

    def __init__(self, raw: str, value: str, line: int, column: int) -> None:
        self.raw = raw            # as written, quotes included
        self.value = value        # unquoted
        self.line = line          # 1-based
        self.column = column      # 1-based

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Token:
            return NotImplemented
        return (self.raw, self.value, self.line, self.column) == (other.raw, other.value, other.line, other.column)

    def __hash__(self) -> int:
        return hash((self.raw, self.value, self.line, self.column))

    def __repr__(self) -> str:
        return f"Token(raw={self.raw!r}, value={self.value!r}, line={self.line!r}, column={self.column!r})"

    @property
    def empty(self) -> bool:
        return self.value in ("-", "")


@dataclass(frozen=True)
class Column:        # frozen: a header's columns are shared by the tables that repeat it
    name: str
    width: int | None
    align: str | None   # "L", "R" or None

    @property
    def spec(self) -> str:
        if self.width is None:
            return self.name
        return f"{self.name}\\{self.width}{self.align or ''}"


class Row:
    """One row of a table: its line index (0-based, in PbnFile.lines), its values (unquoted) and
    their tokens (where each was written). A row without quotes keeps its line's text and makes its
    tokens only when asked (an error's place, a corrected file's edit): a session's file has
    thousands of rows, read by value."""

    __slots__ = ("index", "values", "_tokens", "_text")

    def __init__(self, index: int, tokens: list[Token] | None = None, values: list[str] | None = None,
                 text: str | None = None) -> None:
        self.index = index
        self._tokens = tokens
        self._text = text               # the line without its end (tokens made from it when asked)
        self.values = [t.value for t in tokens] if values is None else values

    @property
    def tokens(self) -> list[Token]:
        tokens = self._tokens
        if tokens is None:
            n, text = self.index + 1, self._text
            if '"' in text:             # a row read whole when it was parsed: no stray text
                tokens = [Token(m.group(0), _unescape(m["quoted"]) if m["quoted"] is not None else m["bare"], n,
                                m.start() + 1) for m in _TOKEN.finditer(text)]
            else:
                tokens = [Token(v, v, n, m.start() + 1) for m in _BARE.finditer(text) for v in (m.group(0),)]
            self._tokens = tokens
        return tokens

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Row:
            return NotImplemented
        return (self.index, self.tokens) == (other.index, other.tokens)

    __hash__ = None      # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Row(index={self.index!r}, tokens={self.tokens!r})"

    def value(self, table: "ScoreTable", name: str) -> Token | None:
        k = table.index(name)
        return None if k is None else self.tokens[k]


@dataclass
class ScoreTable:
    tag_index: int                  # line index of the [ScoreTable "…"] tag
    header: Token
    columns: list[Column]
    rows: list[Row] = field(default_factory=list)

    def index(self, name: str) -> int | None:
        lookup = self.__dict__.get("_lookup")
        if lookup is None or len(lookup) != len(self.columns):
            lookup = self.__dict__["_lookup"] = {}
            for k, column in enumerate(self.columns):
                lookup.setdefault(column.name.lower(), k)
        return lookup.get(name.lower())

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]


@dataclass
class Game:
    tags: dict[str, Token] = field(default_factory=dict)
    score_table: ScoreTable | None = None
    first_line: int = 1
    tables: dict[str, ScoreTable] = field(default_factory=dict)   # ScoreTable, TotalScoreTable

    def tag(self, name: str) -> Token | None:
        lookup = self.__dict__.get("_lookup")           # the first tag of each name (any case), made once
        if lookup is None or lookup[0] != len(self.tags):
            by_name: dict[str, Token] = {}
            for key, token in self.tags.items():
                by_name.setdefault(key.lower(), token)
            lookup = self.__dict__["_lookup"] = (len(self.tags), by_name)
        return lookup[1].get(name.lower())


@dataclass
class PbnFile:
    file: str
    lines: list[str]                # with their line endings
    encoding: str
    games: list[Game]

    def error(self, token: Token | None, message: str, **kw) -> BridgelawError:
        if token is None:
            return BridgelawError(message, file=self.file, **kw)
        return BridgelawError(message, file=self.file, line=token.line, column=token.column, **kw)


def load_pbn(path: str | Path) -> PbnFile:
    """Read a PBN file (UTF-8, or ISO-8859-1 as PBN 2.1 specifies when it is not UTF-8)."""
    name = str(path)
    data = read_bytes(path, what="PBN file", limit=MAX_RESULTS_BYTES)   # docs/limits.md
    text, encoding = decode_pbn(data)
    return parse_pbn(text, name, encoding)


def decode_pbn(data: bytes) -> tuple[str, str]:
    """The text and its encoding: UTF-8 (with or without a BOM), else ISO-8859-1 as PBN 2.1 says."""
    try:
        text, encoding = data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        text, encoding = data.decode("latin-1"), "latin-1"
    if text.startswith("\ufeff"):
        text = text[1:]
        encoding = "utf-8-sig"
    return text, encoding


# the characters XML 1.0 cannot carry (C0 controls but tab, line feed and carriage return; U+FFFE,
# U+FFFF): a tag or a table cell holding one is refused as it is read, since a writer would put it into
# a USEBIO file that no XML reader accepts (USEBIO input cannot hold them: expat refuses them)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _not_xml(pbn: PbnFile, where: str, char: str, line: int, column: int) -> BridgelawError:
    return BridgelawError(f"{where} holds the control character U+{ord(char):04X}, which XML cannot carry",
                          file=pbn.file, line=line, column=column,
                          expected="text without control characters but tab")


MAX_LINE = 65_536          # characters in one line of a PBN file (its longest tags are a few hundred)
MAX_ROWS = 10_000          # rows of one ScoreTable (a board's tables)


def parse_pbn(text: str, file: str = "<pbn>", encoding: str = "utf-8") -> PbnFile:
    lines = text.splitlines(keepends=True)
    pbn = PbnFile(file=file, lines=lines, encoding=encoding, games=[])
    most = max(map(len, lines), default=0)
    if most > MAX_LINE:                                              # refused before any tag is matched
        longest = next(k for k, full in enumerate(lines) if len(full) == most)
        raise BridgelawError(f"line {longest + 1} is {most:,} characters long", file=file,
                             line=longest + 1, column=1, expected=f"lines of at most {MAX_LINE:,} characters "
                             "(docs/limits.md)")
    game: Game | None = None
    table: ScoreTable | None = None
    in_comment = False
    for i, full in enumerate(lines):
        if in_comment:
            if "}" in full:
                in_comment = False
            continue
        stripped = full.strip()
        if not stripped:
            game, table = None, None          # an empty line ends the game
            continue
        first = stripped[0]
        if first in ";%{":                # a comment (a % one only at the line's start), or a row's first value
            if first == ";" or first == "%" and full[0] == "%":
                continue
            if first == "{":
                if "}" not in stripped:
                    in_comment = True
                table = None
                continue
        line = full.rstrip("\r\n")
        if first == "[":                  # a tag starts with [ (a row never)
            n = i + 1
            m = _TAG.match(line)
            if m is None:
                raise pbn.error(Token(line, line, n, line.index("[") + 1), f"malformed tag: {stripped[:40]!r}",
                                expected='[Name "value"]')
            if game is None:
                game = Game(first_line=n)
                pbn.games.append(game)
            name, value = m.group("name", "value")
            if not value.isprintable():   # every character _NOT_XML finds is unprintable
                bad = _NOT_XML.search(value)
                if bad is not None:
                    raise _not_xml(pbn, f"the {name} tag", bad[0], n, m.start("value") + bad.start() + 1)
            token = Token(m.group(0), _unescape(value), n, m.start("value") + 1)
            game.tags[name] = token
            table = None
            lower = name.lower()
            if lower == "scoretable":
                if game.score_table is not None:
                    raise pbn.error(token, "a second ScoreTable in the same game",
                                    expected="one ScoreTable per board")
                table = game.score_table = ScoreTable(i, token, _columns(pbn, token))
                game.tables[name] = table
            elif lower == "totalscoretable":
                table = game.tables[name] = ScoreTable(i, token, _columns(pbn, token))
            continue
        if table is not None:
            rows = table.rows
            if len(rows) >= MAX_ROWS:
                raise pbn.error(Token(line, line, i + 1, 1), f"the table at line {table.header.line} has more than "
                                f"{MAX_ROWS:,} rows", expected=f"at most {MAX_ROWS:,} rows (tables of one board)")
            if not line.isprintable():    # every character _NOT_XML finds is unprintable
                bad = _NOT_XML.search(line)
                if bad is not None:
                    raise _not_xml(pbn, "a table row", bad[0], i + 1, bad.start() + 1)
            if '"' not in line:
                values = line.split()     # the common row: no quoted values (split as _BARE finds them)
            elif _ROW.fullmatch(line):    # values and quoted strings, nothing stray (as _split reads it)
                values = [bare or _unescape(quoted) for quoted, bare in _TOKEN.findall(line)]
            else:
                rows.append(Row(i, _tokens(pbn, line, i + 1)))      # an error at its place
                continue
            row = Row(i, None, values, line)
            if not (line.isascii() and "_" not in line and max(map(len, values)) <= MAX_DIGITS):
                _check_numbers(pbn, row.tokens)
            rows.append(row)
        # other section data (Auction, Play, other tables): not needed
    return pbn


_COLUMNS: dict[str, tuple[Column, ...]] = {}      # a header's columns, read once (a file repeats one header)


def _columns(pbn: PbnFile, header: Token) -> list[Column]:
    hit = _COLUMNS.get(header.value)
    if hit is not None:
        return list(hit)
    columns: list[Column] = []
    offset = 0
    seen: set[str] = set()
    for spec in header.value.split(";"):
        where = Token(spec, spec, header.line, header.column + offset + (len(spec) - len(spec.lstrip())))
        offset += len(spec) + 1
        m = _COLUMN.match(spec.strip())
        if m is None:
            raise pbn.error(where, f"ScoreTable column '{spec.strip()}' is not a column name with optional width",
                            expected="Name or Name\\width followed by L or R, e.g. Score_NS\\6R")
        if m["name"].lower() in seen:
            raise pbn.error(where, f"ScoreTable names column '{m['name']}' twice")
        seen.add(m["name"].lower())
        if m["width"] and (len(m["width"]) > 3 or int(m["width"]) > MAX_WIDTH):
            raise pbn.error(where, f"ScoreTable column '{m['name']}' is {m['width'][:12]} characters wide",
                            expected=f"a width of at most {MAX_WIDTH}")
        columns.append(Column(m["name"], int(m["width"]) if m["width"] else None,
                              m["align"].upper() if m["align"] else None))
    if len(_COLUMNS) < 1_000:
        _COLUMNS[header.value] = tuple(columns)
    return columns


_BARE = re.compile(r"\S+")


MAX_DIGITS = 12            # a number in a table row: scores, tables, pairs, member ids


def _tokens(pbn: PbnFile, line: str, n: int) -> list[Token]:
    tokens = _split(pbn, line, n)
    _check_numbers(pbn, tokens)
    return tokens


def _check_numbers(pbn: PbnFile, tokens: list[Token]) -> None:
    """Each value that looks like a number is one: ASCII digits, no '_', at most MAX_DIGITS digits."""
    for t in tokens:
        v = t.value
        if len(v) <= MAX_DIGITS and v.isascii() and "_" not in v:
            continue                    # the common value
        core = v.lstrip("+-").replace(".", "", 1)
        if core and all(ch.isdigit() or ch == "_" for ch in core):
            if not core.isascii():
                raise pbn.error(t, f"'{v[:20]}' is not a number: only ASCII digits 0-9 are numbers in a PBN table",
                                expected="digits 0-9")
            if "_" in core:
                raise pbn.error(t, f"'{v[:20]}' is not a number: no '_' inside a number", expected="digits 0-9")
            if len(core) > MAX_DIGITS:
                raise pbn.error(t, f"'{v[:12]}…' has {len(core):,} digits", expected=f"at most {MAX_DIGITS} digits")


def _split(pbn: PbnFile, line: str, n: int) -> list[Token]:
    if '"' not in line:                 # the common row: no quoted values
        return [Token(v, v, n, m.start() + 1) for m in _BARE.finditer(line) for v in (m.group(0),)]
    tokens = []
    position = 0
    for m in _TOKEN.finditer(line):
        gap = line[position:m.start()]
        if gap.strip():
            _stray(pbn, gap, position, n)
        position = m.end()
        value = _unescape(m["quoted"]) if m["quoted"] is not None else m["bare"]
        tokens.append(Token(m.group(0), value, n, m.start() + 1))
    rest = line[position:]
    if rest.strip():
        _stray(pbn, rest, position, n)
    return tokens


def _stray(pbn: PbnFile, gap: str, position: int, n: int) -> None:
    column = position + len(gap) - len(gap.lstrip()) + 1
    text = gap.strip()
    if text.startswith('"'):
        raise pbn.error(Token(gap, gap, n, column), f"unterminated string in a ScoreTable row: {text!r}",
                        expected='a closing " on the same line')
    raise pbn.error(Token(gap, gap, n, column), f"unreadable text {text!r} in a ScoreTable row")


def _table_name(table: ScoreTable) -> str:
    m = re.match(r"\s*\[\s*([A-Za-z0-9_]+)", table.header.raw)
    return m.group(1) if m else "ScoreTable"


def check_row(pbn: PbnFile, table: ScoreTable, row: Row) -> None:
    """A row with as many values as its table has columns, or a one-line error at the first
    value too many (or the end of the line, naming the missing column)."""
    n, want = len(row.values), len(table.columns)
    if n == want:
        return
    header = ", ".join(table.names)
    if n > want:
        token = row.tokens[want]
        raise pbn.error(token, f"{_table_name(table)} row has {n} values for {want} columns; "
                        f"'{token.value[:30]}' is one too many",
                        expected=f"{want} values: {header}", suggestion="quote a value that contains spaces")
    line_text = pbn.lines[row.index].rstrip("\r\n")
    raise BridgelawError(f"{_table_name(table)} row has {n} values for {want} columns; "
                         f"{table.columns[n].name} is missing", file=pbn.file, line=row.index + 1,
                         column=len(line_text) + 1, expected=f"{want} values: {header}",
                         suggestion="write - for a column without a value")


# --- writing ------------------------------------------------------------------------------------

def _cell(text: str, column: Column) -> str:
    if column.width is None or len(text) >= column.width:
        return text
    return text.rjust(column.width) if column.align == "R" else text.ljust(column.width)


def _quote(value: str) -> str:
    if value and not any(c.isspace() or c == '"' for c in value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rewrite(pbn: PbnFile, game: Game, values: dict[str, list[str]]) -> str:
    """The file's text with `game`'s ScoreTable carrying `values` (column name → one value per
    row, ``-`` for none): existing columns of those names are overwritten, new ones appended;
    every other line of the file is kept as it was."""
    if game.score_table is None:
        raise ValueError("the game has no ScoreTable")
    return rewrite_tables(pbn, [(game.score_table, values)])


def rewrite_tables(pbn: PbnFile, changes: list[tuple[ScoreTable, dict[str, list[str]]]],
                   orders: dict[int, list[int]] | None = None) -> str:
    """The file's text with each table's columns set as in :func:`rewrite` (any number of
    ScoreTables and TotalScoreTables in one pass); other lines kept byte for byte. `orders` (by the
    table's id): the rows in a new order, row k written where row ``order[k]``… was (a ranking
    re-sorted), each line keeping its own line end."""
    out = list(pbn.lines)
    for table, values in changes:
        _rewrite_table(out, pbn, table, values, (orders or {}).get(id(table)))
    return "".join(out)


def _rewrite_table(out: list[str], pbn: PbnFile, table: ScoreTable, values: dict[str, list[str]],
                   order: list[int] | None = None) -> None:
    columns = [Column(c.name, c.width, c.align) for c in table.columns]
    cells = [[t.raw for t in row.tokens] for row in table.rows]
    for name, column_values in values.items():
        if len(column_values) != len(table.rows):
            raise ValueError(f"{name}: {len(column_values)} values for {len(table.rows)} rows")
        quoted = [_quote(v) for v in column_values]
        k = table.index(name)
        width = min(max((len(v) for v in quoted), default=1), MAX_WIDTH)
        if k is None:
            columns.append(Column(name, width, "R"))
            for row_cells, v in zip(cells, quoted):
                row_cells.append(v)
        else:
            old = columns[k]
            columns[k] = Column(old.name, max(old.width or 0, width), old.align or "R")
            for row_cells, v in zip(cells, quoted):
                row_cells[k] = v
    tag_line = pbn.lines[table.tag_index]
    m = _TAG.match(tag_line)
    tag_name = m["name"] if m else "ScoreTable"
    header = f"[{tag_name} " + _quote_tag(";".join(c.spec for c in columns)) + "]"
    indent = tag_line[:len(tag_line) - len(tag_line.lstrip())]
    out[table.tag_index] = indent + header + _line_ending(tag_line)
    if order is not None:
        cells = [cells[k] for k in order]
    for row, row_cells in zip(table.rows, cells):
        out[row.index] = " ".join(_cell(c, col) for c, col in zip(row_cells, columns)).rstrip() + _line_ending(pbn.lines[row.index])


def _quote_tag(value: str) -> str:
    return '"' + value.replace('"', '\\"') + '"'


def _line_ending(line: str) -> str:
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith("\n"):
        return "\n"
    if line.endswith("\r"):
        return "\r"
    return ""


# --- in-place edits (the corrected file: only the figures a ruling changes) -----------------------------

@dataclass
class TableEdit:
    """What changes in one table: `cells` (row position → column index → the new value, unquoted),
    `added` columns (name, one value a row), and `order` (row k written where row order[k] was)."""

    table: ScoreTable
    cells: dict[int, dict[int, str]] = field(default_factory=dict)
    added: list[tuple[str, list[str]]] = field(default_factory=list)
    order: list[int] | None = None


def edit_tables(pbn: PbnFile, edits: list[TableEdit]) -> str:
    """The file's text with each edit made in place: a changed value replaces the old one in its own
    place, aligned as its column is (right-aligned values keep their right edge, left-aligned their
    left; the line grows only when the new value is wider than the room it has); an added column is
    appended to its header and rows; every other character of the file is kept."""
    out = list(pbn.lines)
    for edit in edits:
        table = edit.table
        if edit.added:
            tag_line = pbn.lines[table.tag_index]
            m = _TAG.match(tag_line)
            added = [Column(name, min(max((len(_quote(v)) for v in values), default=1), MAX_WIDTH), "L")
                     for name, values in edit.added]
            extra = ";".join(c.spec for c in added)
            value_end = m.end("value") if m else None
            if value_end is not None:
                out[table.tag_index] = tag_line[:value_end] + (";" if m["value"] else "") + extra + tag_line[value_end:]
        texts = {}
        for k, row in enumerate(table.rows):
            text = pbn.lines[row.index]
            changed = edit.cells.get(k, {})
            for col in sorted(changed, reverse=True):
                if col < len(row.tokens):
                    align = table.columns[col].align if col < len(table.columns) else None
                    text = _splice(text, row.tokens, col, _quote(changed[col]), align)
            if edit.added:
                body = text.rstrip("\r\n")
                cells = [_cell(_quote(values[k]), c) for c, (_, values) in zip(added, edit.added)]
                text = (body + "".join(" " + c for c in cells)).rstrip() + text[len(body):]
            texts[k] = text
        order = edit.order or list(range(len(table.rows)))
        for k, row in enumerate(table.rows):
            moved = texts[order[k]]
            body = moved.rstrip("\r\n")
            out[row.index] = body + _line_ending(pbn.lines[row.index])
    return "".join(out)


def _splice(text: str, tokens: list[Token], k: int, new: str, align: str | None) -> str:
    """`text` with token k replaced by `new`, its column's alignment kept where the spaces allow."""
    tok = tokens[k]
    start = tok.column - 1
    end = start + len(tok.raw)
    if new == tok.raw:
        return text
    if align == "L":
        body_end = len(text.rstrip("\r\n"))
        nxt = tokens[k + 1].column - 1 if k + 1 < len(tokens) else body_end
        if k + 1 >= len(tokens):
            return text[:start] + new + text[end:]
        pad = max(1, nxt - start - len(new))
        return text[:start] + new + " " * pad + text[nxt:]
    prev_end = tokens[k - 1].column - 1 + len(tokens[k - 1].raw) if k > 0 else 0
    if align is None and k > 0 and start - prev_end == 1:
        return text[:start] + new + text[end:]
    pad = max(1 if k > 0 else 0, end - prev_end - len(new))
    return text[:prev_end] + " " * pad + new + text[end:]
