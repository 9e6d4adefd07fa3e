"""Loading YAML with positions, and turning validation errors into file:line:column errors.

A :class:`Document` keeps the parsed data with its file name and text so that any later
check can point at the exact place in the file it found wrong. Both the data and, when a
position is first asked for, the node tree with the line and column of every key and value
come from ruamel's safe loader (the C parser of ruamel.yaml.clib), so they always agree.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pydantic
from ruamel.yaml import YAML
from ruamel.yaml import events as ev
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.error import MarkedYAMLError, YAMLError

try:                                    # ruamel.yaml.clib's parser, used directly (see _events)
    from _ruamel_yaml import CParser as _CParser
except ImportError:                     # pragma: no cover — ruamel.yaml without its C part
    _CParser = None

from . import dates, limits
from .errors import BridgelawError, did_you_mean

Path_ = Sequence[str | int]
M = TypeVar("M", bound=pydantic.BaseModel)


@dataclass
class Document:
    """A parsed YAML file: the data (dicts, lists, scalars), its text and where it came from."""

    file: str
    tree: Any
    text: str
    _marked: Any = None

    def node(self, path: Path_, *, key: bool = False) -> Any:
        """The composed YAML node at `path` (its key node when `key`), or the deepest one found."""
        if self._marked is None:
            try:
                self._marked = _loaders.fast.compose(self.text)
            except (YAMLError, ValueError):
                self._marked = False
            finally:
                _forget(_loaders.fast)
        node = self._marked
        if not node:
            return None
        for i, part in enumerate(path):
            if isinstance(node, MappingNode):
                found = next(((k, v) for k, v in node.value if k.value == str(part)), None)
                if found is None:
                    break
                node = found[0] if key and i == len(path) - 1 else found[1]
            elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
            else:
                break
        return node

    def text_position(self, path: Path_, offset: int) -> tuple[int | None, int | None]:
        """1-based (line, column) of the character at `offset` inside the string at `path`,
        following quotes and block scalars (``>-``, ``|``) back to the file."""
        node = self.node(path)
        if node is None:
            return None, None
        line, col = node.start_mark.line, node.start_mark.column
        style = getattr(node, "style", None)
        if style in ('"', "'"):
            return line + 1, col + 2 + offset
        if style in (">", "|"):
            rows = self.text.splitlines()[line + 1:]
            for row in rows:
                content = row.strip()
                if offset <= len(content):
                    return line + 2, len(row) - len(row.lstrip()) + offset + 1
                offset -= len(content) + 1
                line += 1
        return line + 1, col + 1 + offset

    def position(self, path: Path_, *, key: bool = False) -> tuple[int | None, int | None]:
        """1-based (line, column) of the node at `path` (of its key when `key`)."""
        node = self.node(path, key=key)
        if node is None:
            return None, None
        return node.start_mark.line + 1, node.start_mark.column + 1

    def error(self, path: Path_, message: str, *, key: bool = False, **kw: Any) -> BridgelawError:
        line, col = self.position(path, key=key)
        kw.setdefault("path", tuple(path))
        return BridgelawError(message, file=self.file, line=line, column=col, **kw)

    def validate(self, model: type[M], context: dict | None = None) -> M:
        """Validate the tree with a pydantic model; the first error becomes a BridgelawError."""
        try:
            return model.model_validate(self.tree, context=context)
        except pydantic.ValidationError as exc:
            # A misspelt key shows up twice: as an unknown key and as a missing one. Report the
            # unknown key (it carries the suggestion), then value errors, then what is missing.
            errors = sorted(exc.errors(), key=lambda e: {"extra_forbidden": 0, "missing": 2}.get(e["type"], 1))
            raise self._translate(model, errors[0]) from None

    def _translate(self, model: type[pydantic.BaseModel], err: dict) -> BridgelawError:
        loc = _data_loc(self.tree, err["loc"])
        kind = err["type"]
        if kind == "extra_forbidden" and loc:
            name = limits.short(loc[-1]) if not isinstance(loc[-1], str) else _key_text(loc[-1])
            allowed = _fields_at(model, loc[:-1])
            suggestion = did_you_mean(name, allowed)
            return self.error(
                loc, f"unknown key '{name}'", key=True,
                expected="one of " + ", ".join(sorted(allowed)) if allowed else None,
                suggestion=suggestion,
            )
        if kind == "missing" and loc:
            name = _key_text(str(loc[-1]))
            err = self.error(loc[:-1], f"missing required key '{name}'")
            err.path = tuple(loc)           # the key that is missing, where the error points at its parent
            return err
        where = readable_path(loc) or "document"
        if kind in ("value_error", "assertion_error"):
            cause = err.get("ctx", {}).get("error")
            if isinstance(cause, BridgelawError):
                return self.error(loc, f"{where}: {cause.message}",
                                  expected=cause.expected, suggestion=cause.suggestion)
            return self.error(loc, f"{where}: {cause if cause is not None else err['msg']}")
        if kind in ("literal_error", "enum"):
            expected = err.get("ctx", {}).get("expected", "")
            choices = [c.strip().strip("'") for c in expected.replace(" or ", ",").split(",") if c.strip()]
            return self.error(loc, f"{where}: {_quoted(err.get('input'))} is not allowed",
                              expected=expected, suggestion=did_you_mean(err.get("input"), choices))
        return self.error(loc, f"{where}: {err['msg'].lower()}", expected=None)


def node_paths(text: str) -> tuple[dict, dict, dict]:
    """(value, item, key) positions of every node of a YAML text: 1-based (line, column) → key path.
    The text is composed (ruamel's safe composer, never constructed: a value that does not
    construct, such as ``!!bool maybe`` or 2017-02-30, still has its place) and walked without
    recursion, each node once (an alias of a value that contains itself ends the walk there).
    Empty maps when the text is not YAML. For errors that carry no key path."""
    values: dict[tuple[int, int], tuple] = {}
    items: dict[tuple[int, int], tuple] = {}
    keys: dict[tuple[int, int], tuple] = {}
    try:
        root = _loaders.fast.compose(text)
    except (YAMLError, ValueError, RecursionError):
        return values, items, keys
    finally:
        _forget(_loaders.fast)

    def at(node: Any) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    seen: set[int] = set()
    todo: list[tuple[Any, tuple]] = [(root, ())]
    while todo:
        node, path = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        children: list[tuple[Any, tuple]] = []
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                key = _composed_key(key_node)
                keys.setdefault(at(key_node), path + (key,))
                values.setdefault(at(value_node), path + (key,))
                children.append((value_node, path + (key,)))
        elif isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                items.setdefault(at(item), path + (i,))
                children.append((item, path + (i,)))
        todo.extend(reversed(children))
    return values, items, keys


def _composed_key(node: Any) -> Any:
    """A mapping key as the loader would make it, for the keys a path can hold (text, whole numbers)."""
    if not isinstance(node, ScalarNode):
        return None
    if str(node.tag).endswith(":int") and _DIGITS.match(node.value):
        return int(node.value)
    return node.value


_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")


def _bad_date(text: str) -> tuple[int | None, int | None]:
    """Where the first impossible date-like value is (YAML reads such values as dates)."""
    for number, line in enumerate(text.splitlines(), start=1):
        for m in _DATE.finditer(line):
            try:
                dt.date(int(m[1]), int(m[2]), int(m[3]))
            except ValueError:
                return number, m.start() + 1
    return None, None


def _data_loc(tree: Any, loc: Sequence[Any]) -> list[Any]:
    """pydantic's error location with the union members' names it adds (``'str'``,
    ``'list[WeightedOutcome]'``, ``'<flat>'``) taken out: a part is kept when the data has it
    as a key (or index) there, so a user's key named ``str`` or ``a[`` stays a key."""
    node, out = tree, []
    for part in loc:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and not isinstance(part, bool) and 0 <= part < len(node):
            node = node[part]
        elif _is_union_tag(part):
            continue
        else:
            node = None
        out.append(part)
    return out


def readable_path(loc: Any) -> str:
    """A key path as a message says it: an entry of a list by its number from 1, under the list's
    name in the singular — ``("rulings", 0, "adjusted")`` → "ruling 1, adjusted",
    ``("board", "number")`` → "board.number" —, never pydantic's "rulings.0.adjusted"."""
    segments: list[list[str]] = [[]]
    for p in loc:
        if isinstance(p, int) and not isinstance(p, bool) and segments[-1]:
            name = segments[-1].pop()
            single = name[:-1] if name.endswith("s") and not name.endswith("ss") and len(name) > 2 else name
            segments[-1].append(f"{single} {p + 1}")
            segments.append([])
        else:
            segments[-1].append(_key_text(str(p)))
    return ", ".join(".".join(seg) for seg in segments if seg)


def _key_text(name: str) -> str:
    """A key for a one-line message: at most 60 characters, control characters escaped."""
    text = name if len(name) <= 60 else name[:60] + "…"
    return text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text


def _quoted(value: Any) -> str:
    return f"'{_key_text(value)}'" if isinstance(value, str) else limits.short(value)


def _is_union_tag(part: Any) -> bool:
    # pydantic adds the union member's name to loc (e.g. 'list[WeightedOutcome]'); it is no key
    return isinstance(part, str) and (part.startswith(("<", "function-")) or "[" in part
                                      or part in ("str", "int", "float"))


def _fields_at(model: type[pydantic.BaseModel], loc: Sequence[Any]) -> list[str]:
    """The keys allowed at `loc` inside `model` (following nested models)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fields = getattr(current, "model_fields", {})
        field = fields.get(part) or next((f for f in fields.values() if f.alias == part), None)
        if field is None:
            return []
        current = _inner_model(field.annotation)
    fields = getattr(current, "model_fields", {})
    return [f.alias or n for n, f in fields.items()]


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


class _Loaders(threading.local):
    """ruamel's loaders, one set per thread (a YAML object is not safe to share between threads)."""

    def __init__(self) -> None:
        self.fast = YAML(typ="safe")
        self.events = YAML(typ="safe")


_loaders = _Loaders()


def _forget(yaml: YAML) -> None:
    """Drop what a YAML object keeps after a document: ruamel appends a DocInfo to `doc_infos` on
    every parse, and its constructor remembers every node it constructed outside a whole document.
    Without this a long-running server grows by each document it reads."""
    yaml.doc_infos.clear()
    constructor = getattr(yaml, "_constructor", None)
    if constructor is not None:
        constructor.constructed_objects.clear()
        constructor.recursive_objects.clear()


class _Fallback(Exception):
    """Something the fast reader does not handle: read the file the ordinary way."""


_DIGITS = re.compile(r"[0-9]+\Z")
_SCALAR_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("int", "float", "bool", "null", "timestamp")}


def _events(text: str) -> Any:
    """The parser events of `text`. ruamel's ``YAML.parse`` builds a new loader class and records
    a DocInfo on every call (about a quarter of reading a case); the C parser alone gives the same
    events."""
    if _CParser is None:                # pragma: no cover
        yield from _loaders.events.parse(text)
        return
    parser = _CParser(text)
    try:
        event = parser.get_event()
        while event is not None:
            yield event
            event = parser.get_event()
    finally:
        parser.dispose()


# Plain scalars as ruamel's safe loader resolves and constructs them ('yes' → 'yes', '3/5' → '3/5',
# '0.6' → 0.6, 2017-03-01 → a date), kept between documents: case files repeat a few hundred short
# values. Every value kept is immutable; short ones only, and the whole is emptied when full, so
# the memory it holds stays bounded however many documents a server reads.
_PLAIN: dict[str, Any] = {}
_PLAIN_MAX, _PLAIN_LONGEST = 4096, 64
_MISSING = object()


def _plain_value(value: str, event: Any, name: str) -> Any:
    """The value of a plain scalar (raises _Fallback for a merge key or anything unusual)."""
    found = _PLAIN.get(value, _MISSING)
    if found is not _MISSING:
        return found
    if _DIGITS.match(value):
        if len(value) > limits.MAX_DIGITS:
            _check_number(value, event, name)
        result: Any = int(value)
    else:
        tag = str(_loaders.events.resolver.resolve(ScalarNode, value, (True, False)))
        if tag == "tag:yaml.org,2002:str":
            result = value
        elif tag in _SCALAR_TAGS:
            if tag in _INT_FLOAT:
                _check_number(value, event, name)
            if tag == _TIMESTAMP:
                result = _timestamp(value, event, name)
            else:
                result = _loaders.events.constructor.construct_object(ScalarNode(tag, value))
        else:                           # a merge key, or anything else unusual
            raise _Fallback
    if len(value) <= _PLAIN_LONGEST:
        if len(_PLAIN) >= _PLAIN_MAX:
            _PLAIN.clear()
        _PLAIN[value] = result
    return result


def _fast_tree(text: str, name: str = "<text>") -> Any:
    """The data of a YAML document, built from the C parser's events.

    ruamel's safe loader spends most of its time composing nodes and resolving every scalar;
    a traveller of 5,000 lines repeats a few dozen distinct values. Here each distinct plain
    scalar is resolved (and constructed) once by ruamel's own resolver and constructor
    (:func:`_plain_value`), so the result is what the safe loader gives. Anchors, aliases,
    explicit tags, merge keys, complex or duplicate keys, a %YAML directive and several documents
    raise _Fallback (the safe loader then reads it). The bounds on depth, entries and numbers are
    checked on the way (as :func:`_scan` does).
    """
    root: Any = None
    documents = 0
    stack: list[Any] = []            # open containers: a list (sequence) or a _Map

    def add(value: Any) -> None:
        nonlocal root
        if not stack:
            root = value
            return
        top = stack[-1]
        if type(top) is list:
            top.append(value)
            if len(top) > limits.MAX_ITEMS:
                raise _items_error(event, name)
        elif top.key is _NO_KEY:
            if isinstance(value, (dict, list)) or value == "<<" or value in top.data:
                raise _Fallback
            top.key = value
        else:
            top.data[top.key] = value
            top.key = _NO_KEY
            if len(top.data) > limits.MAX_ITEMS:
                raise _items_error(event, name)

    for event in _events(text):
        kind = type(event)
        if kind is ev.ScalarEvent:
            if event.anchor is not None or (event.tag is not None and not any(event.implicit)):
                raise _Fallback
            if not event.style and event.implicit[0]:
                add(_plain_value(event.value, event, name))
            else:
                if event.style == '"':
                    _check_escapes(event, name)
                add(event.value)
        elif kind is ev.MappingStartEvent:
            if event.anchor is not None or (event.tag is not None and not event.implicit):
                raise _Fallback
            mapping = _Map()
            add(mapping.data)
            stack.append(mapping)
            if len(stack) > limits.MAX_DEPTH:
                raise _depth_error(event, name)
        elif kind is ev.SequenceStartEvent:
            if event.anchor is not None or (event.tag is not None and not event.implicit):
                raise _Fallback
            sequence: list[Any] = []
            add(sequence)
            stack.append(sequence)
            if len(stack) > limits.MAX_DEPTH:
                raise _depth_error(event, name)
        elif kind is ev.MappingEndEvent or kind is ev.SequenceEndEvent:
            stack.pop()
        elif kind is ev.DocumentStartEvent:
            documents += 1
            if documents > 1 or event.version is not None:
                raise _Fallback
        elif kind is ev.AliasEvent:
            raise _Fallback
    return root


_NO_KEY = object()


class _Map:
    """A mapping under construction and the key waiting for its value."""

    __slots__ = ("data", "key")

    def __init__(self) -> None:
        self.data: dict[Any, Any] = {}
        self.key: Any = _NO_KEY




# the characters YAML 1.2 does not allow in a stream: every code point but TAB, LF, CR,
# x20-x7E, x85, xA0-xD7FF, xE000-xFFFD and x10000-x10FFFF (the same set written as the small
# ranges it excludes, which compiles in a fraction of the time of the negated class)
_BAD_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


def decode(data: bytes, name: str) -> str:
    """`data` as UTF-8 text; a byte that is not UTF-8 is an error at its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = exc.start
        line_start = data.rfind(b"\n", 0, start) + 1
        column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
        raise limits.LimitError(f"byte 0x{data[start]:02x} is not UTF-8 text", file=name,
                             line=data.count(b"\n", 0, start) + 1, column=column,
                             expected="a text file saved as UTF-8") from None


def check_characters(text: str, name: str) -> None:
    """Refuse NUL and other control characters (YAML does not allow them) at their position."""
    bad = _BAD_CHAR.search(text)
    if bad is not None:
        pos = bad.start()
        line_start = text.rfind("\n", 0, pos) + 1
        raise limits.LimitError(f"control character U+{ord(bad[0]):04X} is not allowed", file=name,
                             line=text.count("\n", 0, pos) + 1, column=pos - line_start + 1,
                             expected="printable text, tabs and line breaks")


def read_text(path: str | Path, *, what: str = "YAML file") -> str:
    """A bounded read of a regular file as UTF-8 (see limits.read_bytes)."""
    return decode(limits.read_bytes(path, what=what), str(path))


_TAGS_ALLOWED = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}
_INT_FLOAT = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
_EXPONENT = re.compile(r"[eE]\s*([-+]?)\s*0*([0-9]+)")


def _at(event: Any, name: str, message: str, expected: str | None = None, *,
        kind: type[BridgelawError] = limits.LimitError) -> BridgelawError:
    """An error at `event`: a LimitError (a bound: nothing re-parses the text to find the key it is
    under), or with `kind` BridgelawError for a value that is wrong but cheap to read again."""
    mark = event.start_mark
    return kind(message, file=name, line=mark.line + 1 if mark else None,
                column=mark.column + 1 if mark else None, expected=expected)


def _check_number(value: str, event: Any, name: str) -> None:
    digits = sum(ch.isdigit() for ch in value)
    if digits > limits.MAX_DIGITS:
        raise _at(event, name, f"a number of {digits} digits is too long (at most {limits.MAX_DIGITS})",
                  expected="a number such as 620, 3/5 or 0.6")
    exponent = _EXPONENT.search(value)
    if exponent is not None and len(exponent[2]) > 3 or exponent is not None and int(exponent[2]) > limits.MAX_EXPONENT:
        raise _at(event, name, f"the exponent of {value[:40]} is too large (at most {limits.MAX_EXPONENT})",
                  expected="a number such as 620, 3/5 or 0.6")


_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_COLLECTION_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}
_READS_AS = {"tag:yaml.org,2002:bool": "true or false", "tag:yaml.org,2002:int": "a whole number such as 7",
             "tag:yaml.org,2002:float": "a number such as 0.6", "tag:yaml.org,2002:null": "null, ~ or nothing",
             _TIMESTAMP: "a date such as 2024-05-18"}


def _full_tag(tag: Any) -> str:
    tag = str(tag)
    return "tag:yaml.org,2002:" + tag[2:] if tag.startswith("!!") else tag


def _tag_text(tag: Any) -> str:
    text = str(tag).replace("tag:yaml.org,2002:", "!!")
    return _key_text(text[:40])


def _check_tagged(tag: str, event: Any, name: str) -> None:
    """An explicitly tagged value (``!!bool maybe``, ``!!int ''``) must read as its tag — what the
    same text would be without the tag (``!!float 1`` may be a whole number, ``!!bool yes`` one of
    YAML 1.1's words) — else ruamel's constructor fails with a KeyError or an IndexError."""
    if tag == "tag:yaml.org,2002:str" or tag not in _READS_AS:
        return
    value = event.value
    found = str(_loaders.events.resolver.resolve(ScalarNode, value, (True, False)))
    if found == tag or tag == "tag:yaml.org,2002:float" and found == "tag:yaml.org,2002:int" \
            or tag == "tag:yaml.org,2002:bool" and value.lower() in _loaders.events.constructor.bool_values:
        return
    raise _at(event, name, f"{_quoted(value)} is not a {_tag_text(tag)} value", expected=_READS_AS[tag], kind=BridgelawError)


def _timestamp(value: str, event: Any, name: str) -> Any:
    """A date (or date and time) that exists, in the years dates.read_date accepts."""
    try:
        day = _loaders.events.constructor.construct_object(ScalarNode(_TIMESTAMP, value))
    except (ValueError, TypeError, OverflowError, KeyError, IndexError) as exc:
        reason = str(exc).splitlines()[0][:100] if str(exc) else type(exc).__name__
        raise _at(event, name, f"{_quoted(value)} is not a day of the calendar: {reason}",
                  expected="dates as YYYY-MM-DD that exist", kind=BridgelawError) from None
    try:
        dates.check_year(day if isinstance(day, dt.date) else day.date(), what=_quoted(value))
    except BridgelawError as exc:
        raise _at(event, name, exc.message, expected=f"a date from {dates.MIN_YEAR} to {dates.MAX_YEAR}",
                  kind=BridgelawError) from None
    return day


def _check_escapes(event: Any, name: str) -> None:
    """A double-quoted value may write any character by an escape (``"\\e[31m"``, ``"\\0"``);
    the control characters the file itself may not hold are refused here too."""
    bad = _BAD_CHAR.search(event.value)
    if bad is not None:
        raise _at(event, name, f"control character U+{ord(bad[0]):04X} (written as an escape) is not allowed",
                  expected="printable text, tabs and line breaks", kind=BridgelawError)


def _depth_error(event: Any, name: str) -> BridgelawError:
    return _at(event, name, f"nested more than {limits.MAX_DEPTH} levels deep",
               expected="ordinary nesting of keys and lists")


def _items_error(event: Any, name: str) -> BridgelawError:
    return _at(event, name, f"a list or mapping of more than {limits.MAX_ITEMS:,} entries",
               expected=f"at most {limits.MAX_ITEMS:,}")


def _scan(text: str, name: str) -> None:
    """Check a document against the bounds from the parser's events alone, before anything is
    composed or constructed (both recurse, and aliases multiply): nesting depth, entries per
    list or mapping, nodes added by aliases, digits and exponents of numbers, explicit tags."""
    resolver = _loaders.events.resolver
    frames: list[list[Any]] = []      # [size, anchor, entries] of each open container
    anchors: dict[str, int] = {}
    added = 0

    def count(size: int) -> None:
        if frames:
            frame = frames[-1]
            frame[0] += size
            frame[2] += 1
            if frame[2] > 2 * limits.MAX_ITEMS:        # a mapping counts keys and values
                raise _items_error(event, name)

    for event in _events(text):
        kind = type(event)
        if kind is ev.ScalarEvent:
            tag = event.tag
            if tag is not None and not any(event.implicit):
                tag = _full_tag(tag)
                if tag not in _TAGS_ALLOWED:
                    raise _at(event, name, f"the tag {str(event.tag)[:40]} is not used in bridgelaw files",
                              expected="plain values (no !!binary, !!set, …)")
                if tag in _COLLECTION_TAGS:
                    raise _at(event, name, f"the tag {_tag_text(event.tag)} is for a mapping or a list, not a "
                              "single value", expected="a plain value, or !!str, !!int, !!float, !!bool, !!null",
                              kind=BridgelawError)
                _check_tagged(tag, event, name)
            elif not event.style and event.implicit[0] and (len(event.value) > limits.MAX_DIGITS
                                                            or "e" in event.value or "E" in event.value
                                                            or "-" in event.value[4:5]):
                tag = str(resolver.resolve(ScalarNode, event.value, (True, False)))
            if tag in _INT_FLOAT:
                _check_number(event.value, event, name)
            elif tag == _TIMESTAMP:
                _timestamp(event.value, event, name)
            if event.style == '"':
                _check_escapes(event, name)
            if event.anchor is not None:
                anchors[event.anchor] = 1
            count(1)
        elif kind is ev.MappingStartEvent or kind is ev.SequenceStartEvent:
            if event.tag is not None and not event.implicit:
                tag = _full_tag(event.tag)
                wanted = "tag:yaml.org,2002:" + ("map" if kind is ev.MappingStartEvent else "seq")
                if tag not in _TAGS_ALLOWED:
                    raise _at(event, name, f"the tag {str(event.tag)[:40]} is not used in bridgelaw files",
                              expected="plain mappings and lists")
                if tag != wanted:
                    raise _at(event, name, f"the tag {_tag_text(event.tag)} is not used in bridgelaw files on a "
                              f"{'mapping' if kind is ev.MappingStartEvent else 'list'}",
                              expected="plain mappings and lists (a tag such as !!str is for a single value)",
                              kind=BridgelawError)
            if len(frames) >= limits.MAX_DEPTH:
                raise _depth_error(event, name)
            frames.append([1, event.anchor, 0])
        elif kind is ev.MappingEndEvent or kind is ev.SequenceEndEvent:
            size, anchor, _ = frames.pop()
            if anchor is not None:
                anchors[anchor] = size
            count(size)
        elif kind is ev.AliasEvent:
            if any(frame[1] == event.anchor for frame in frames):
                raise _at(event, name, f"the alias *{_tag_text(event.anchor)} is used inside the value it names "
                          "(a value that contains itself)", expected="an alias (*name) after its anchored value ends")
            size = anchors.get(event.anchor, 1)
            added += size
            if added > limits.MAX_ALIAS_NODES:
                raise _at(event, name, f"aliases expand to more than {limits.MAX_ALIAS_NODES:,} values",
                          expected="few aliases (*name) of small anchored values")
            count(size)


def load_yaml(path: str | Path, *, text: str | None = None) -> Document:
    """Read and parse a YAML file; a missing file or bad YAML is a BridgelawError. The input is
    checked against the bounds of :mod:`bridgelaw.core.limits` before it is composed."""
    name = str(path)
    if text is None:
        text = read_text(path)
    elif len(text) > limits.MAX_FILE_BYTES:
        raise limits.LimitError(limits.too_big(len(text.encode("utf-8", errors="replace"))), file=name)
    check_characters(text, name)
    try:
        try:
            tree = _fast_tree(text, name)
        except (BridgelawError, YAMLError):
            raise
        except Exception:               # noqa: BLE001 — anything unusual: check it, the safe loader reads it
            _scan(text, name)
            tree = _loaders.fast.load(text)
        finally:
            _forget(_loaders.events)
            _forget(_loaders.fast)
    except BridgelawError:
        raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or exc.context or "malformed YAML").strip().splitlines()[0]
        raise BridgelawError(
            f"malformed YAML: {problem}", file=name,
            line=mark.line + 1 if mark else None, column=mark.column + 1 if mark else None,
            expected="valid YAML (check indentation, colons and quotes)",
        ) from None
    except YAMLError as exc:
        line, column = _position_of(exc, text)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "malformed YAML"
        raise BridgelawError(f"malformed YAML: {first}", file=name, line=line, column=column) from None
    except RecursionError:
        raise limits.LimitError(f"nested too deeply (at most {limits.MAX_DEPTH} levels)", file=name) from None
    except (ValueError, TypeError, OverflowError) as exc:   # a scalar that does not construct, e.g. 2017-02-30
        line, col = _bad_date(text)
        if line is not None:
            raise BridgelawError(f"a value cannot be read: {str(exc).splitlines()[0][:200]}", file=name, line=line,
                                 column=col, expected="dates as YYYY-MM-DD that exist") from None
        raise BridgelawError(f"a value cannot be read: {str(exc).splitlines()[0][:200]}", file=name) from None
    if not isinstance(tree, dict):
        raise BridgelawError("expected a mapping of keys to values at the top of the file",
                             file=name, line=1, column=1)
    return Document(file=name, tree=tree, text=text)


def _position_of(exc: YAMLError, text: str) -> tuple[int | None, int | None]:
    """Line and column of a reader error, which gives only a character position."""
    pos = getattr(exc, "position", None)
    if not isinstance(pos, int) or not 0 <= pos <= len(text):
        return None, None
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1
