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
        loc = [p for p in err["loc"] if not _is_union_tag(p)]
        kind = err["type"]
        if kind == "extra_forbidden":
            name = loc[-1]
            allowed = _fields_at(model, loc[:-1])
            suggestion = did_you_mean(name, allowed)
            return self.error(
                loc, f"unknown key '{name}'", key=True,
                expected="one of " + ", ".join(sorted(allowed)) if allowed else None,
                suggestion=suggestion,
            )
        if kind == "missing":
            name = loc[-1]
            err = self.error(loc[:-1], f"missing required key '{name}'")
            err.path = tuple(loc)           # the key that is missing, where the error points at its parent
            return err
        where = ".".join(str(p) for p in loc) or "document"
        if kind in ("value_error", "assertion_error"):
            cause = err.get("ctx", {}).get("error")
            if isinstance(cause, BridgelawError):
                return self.error(loc, f"{where}: {cause.message}",
                                  expected=cause.expected, suggestion=cause.suggestion)
            return self.error(loc, f"{where}: {cause if cause is not None else err['msg']}")
        if kind in ("literal_error", "enum"):
            expected = err.get("ctx", {}).get("expected", "")
            choices = [c.strip().strip("'") for c in expected.replace(" or ", ",").split(",") if c.strip()]
            return self.error(loc, f"{where}: '{err.get('input')}' is not allowed",
                              expected=expected, suggestion=did_you_mean(err.get("input"), choices))
        return self.error(loc, f"{where}: {err['msg'].lower()}", expected=None)


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


def _fast_tree(text: str) -> Any:
    """The data of a YAML document, built from the C parser's events.

    ruamel's safe loader spends most of its time composing nodes and resolving every scalar;
    a traveller of 5,000 lines repeats a few dozen distinct values. Here each distinct plain
    scalar is resolved (and constructed) once by ruamel's own resolver and constructor, so the
    result is what the safe loader gives. Anchors, aliases, explicit tags, merge keys, complex
    or duplicate keys and several documents raise _Fallback (the safe loader then reads it).
    """
    yaml = _loaders.events
    resolver, constructor = yaml.resolver, yaml.constructor
    cache: dict[str, Any] = {}

    def plain(value: str) -> Any:
        if _DIGITS.match(value):
            return int(value)
        if value in cache:
            return cache[value]
        tag = str(resolver.resolve(ScalarNode, value, (True, False)))
        if tag == "tag:yaml.org,2002:str":
            result = value
        elif tag in _SCALAR_TAGS:
            result = constructor.construct_object(ScalarNode(tag, value))
        else:                                 # a merge key, or anything else unusual
            raise _Fallback
        cache[value] = result
        return result

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
        elif top.key is _NO_KEY:
            if isinstance(value, (dict, list)) or value == "<<" or value in top.data:
                raise _Fallback
            top.key = value
        else:
            top.data[top.key] = value
            top.key = _NO_KEY

    for event in yaml.parse(text):
        kind = type(event)
        if kind is ev.ScalarEvent:
            if event.anchor is not None or (event.tag is not None and not any(event.implicit)):
                raise _Fallback
            add(plain(event.value) if not event.style and event.implicit[0] else event.value)
        elif kind is ev.MappingStartEvent:
            if event.anchor is not None or (event.tag is not None and not event.implicit):
                raise _Fallback
            mapping = _Map()
            add(mapping.data)
            stack.append(mapping)
        elif kind is ev.SequenceStartEvent:
            if event.anchor is not None or (event.tag is not None and not event.implicit):
                raise _Fallback
            sequence: list[Any] = []
            add(sequence)
            stack.append(sequence)
        elif kind is ev.MappingEndEvent or kind is ev.SequenceEndEvent:
            stack.pop()
        elif kind is ev.DocumentStartEvent:
            documents += 1
            if documents > 1:
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




def load_yaml(path: str | Path, *, text: str | None = None) -> Document:
    """Read and parse a YAML file; a missing file or bad YAML is a BridgelawError."""
    name = str(path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise BridgelawError("no such file", file=name) from None
        except IsADirectoryError:
            raise BridgelawError("this is a folder, expected a YAML file", file=name) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise BridgelawError(f"cannot read {name}: {exc}") from None
    try:
        try:
            tree = _fast_tree(text)
        except Exception:               # noqa: BLE001 — anything unusual: the safe loader reads it and reports
            tree = _loaders.fast.load(text)
        finally:
            _forget(_loaders.events)
            _forget(_loaders.fast)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or exc.context or "malformed YAML").strip()
        raise BridgelawError(
            f"malformed YAML: {problem}", file=name,
            line=mark.line + 1 if mark else None, column=mark.column + 1 if mark else None,
            expected="valid YAML (check indentation, colons and quotes)",
        ) from None
    except YAMLError as exc:
        raise BridgelawError(f"malformed YAML: {exc}", file=name) from None
    except (ValueError, TypeError) as exc:        # a scalar that does not construct, e.g. 2017-02-30
        line, col = _bad_date(text)
        raise BridgelawError(f"a value cannot be read: {exc}", file=name, line=line, column=col,
                             expected="dates as YYYY-MM-DD that exist") from None
    if not isinstance(tree, dict):
        raise BridgelawError("expected a mapping of keys to values at the top of the file",
                             file=name, line=1, column=1)
    return Document(file=name, tree=tree, text=text)
