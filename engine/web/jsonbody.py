"""JSON request bodies: parsed with a bound on nesting, half surrogate pairs refused by place."""

from __future__ import annotations

import json
import re
from typing import Any

from ..core import limits

MAX_JSON_DEPTH = 32                           # a case nests 4 deep; JSON deeper than this is refused
MAX_JSON_VALUES = 20_000                      # values in one request (a field of 1,000 results is about 5,000)


class ApiProblem(Exception):
    def __init__(self, status: int, message: str, *, expected: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.expected = status, message, expected


def load_json(raw: str) -> Any:
    """JSON from a request; malformed JSON, or JSON nested too deeply or too large in entries or
    values (:func:`check_shape`), is an ApiProblem (400) — before anything else looks at it."""
    if raw.count(",") > MAX_JSON_VALUES:     # many values: counted outside strings first, 6 times faster than parsing
        bare = _STRING.sub("", raw)
        if bare.count(",") + bare.count("[") + bare.count("{") > MAX_JSON_VALUES:
            raise _too_many()
    try:
        data = json.loads(raw)
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:
        raise ApiProblem(400, f"malformed JSON: {exc}", expected="a JSON object") from None
    check_shape(data)
    if "\\u" in raw:                            # only an escape can write half of a surrogate pair
        _refuse_lone_surrogates(data)
    return data


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')       # a JSON string, escapes and all


def _too_many() -> ApiProblem:
    return ApiProblem(400, f"the JSON has more than {MAX_JSON_VALUES:,} values",
                      expected="a case: a few hundred values (a field: at most 1,000 results)")


def _too_deep() -> ApiProblem:
    return ApiProblem(400, f"the JSON is nested more than {MAX_JSON_DEPTH} levels deep",
                      expected="a case: a JSON object a few levels deep")


def check_shape(data: Any) -> None:
    """Refuse (400) JSON nested more than MAX_JSON_DEPTH levels, with a list or object of more than
    limits.MAX_ITEMS entries, or with more than MAX_JSON_VALUES values in all (a 240 KB body of
    120,000 numbers used to be written out as YAML, 8 s of a worker's time, before its list was
    counted). One walk without recursion, stopping at the first container over a bound."""
    total, stack = 0, [(data, "", 1)]
    while stack:
        item, where, depth = stack.pop()
        total += 1
        if isinstance(item, dict):
            entries = item.items()
        elif isinstance(item, list):
            entries = enumerate(item)
        else:
            continue
        if depth > MAX_JSON_DEPTH:
            raise _too_deep()
        if len(item) > limits.MAX_ITEMS:
            raise ApiProblem(400, f"{where or 'the JSON'} has {len(item):,} entries; at most {limits.MAX_ITEMS:,} "
                             "are accepted", expected="a case: lists of a few entries (a field: at most 1,000 results)")
        total += len(item)
        if total > MAX_JSON_VALUES:
            raise _too_many()
        named = isinstance(item, dict)
        stack.extend((value, (f"{where}.{key}" if where else str(key)) if named else f"{where}[{key}]", depth + 1)
                     for key, value in entries if isinstance(value, (dict, list)))


def _refuse_lone_surrogates(data: Any) -> None:
    """JSON may escape half of a surrogate pair (``"\\ud800"``), which is no character: refused here,
    named by where it is, rather than later as text no file could hold."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                stack += [(key, f"a key of {where or 'the top level'}"), (value, f"{where}.{key}" if where else str(key))]
        elif isinstance(item, list):
            stack += [(value, f"{where}[{i}]") for i, value in enumerate(item)]
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                code = f"\\u{ord(item[exc.start]):04x}"
                raise ApiProblem(400, f"malformed JSON: {code} in {where or 'the document'} is half of a surrogate "
                                 "pair, not a character",
                                 expected="text whose characters beyond U+FFFF are written whole or as a pair "
                                          "such as \\ud83c\\udccf") from None


def json_depth(data: Any) -> int:
    """How deeply lists and objects nest in `data` (without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                break
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


_PLAIN_INT = 10 ** 15                       # far inside the YAML reader's bound on digits
_PLAIN_FLOAT = re.compile(r"-?[0-9]{1,15}\.[0-9]{1,15}")     # as Python writes it: no exponent, inf or nan
_PLAIN_NODES = 20_000                       # with the depth bound, the YAML stays far below limits.MAX_FILE_BYTES


class _NotPlain(Exception):
    pass


def plain_tree(data: Any) -> Any:
    """The tree the YAML way would read from a JSON tree — ``load_yaml(forms.dump_yaml(data)).tree``
    — when that is plain to see, else None: objects and lists of at most ``limits.MAX_ITEMS``
    entries (20,000 values in all), keys of printable characters other than ``<<`` (a merge key),
    text of printable characters and line breaks (a text of several lines is written as a literal
    block, which reads back with one line break at its end), whole numbers of at most 15 digits,
    decimal numbers of at most 15 digits either side of the point (as Python writes them: no
    exponent), true, false and null. Anything else — tabs, control characters, larger numbers, … —
    gives None: such a tree goes the YAML way. (The depth is bounded by :func:`load_json`;
    ``tests/test_web_api.py`` checks the claim on random trees.)"""
    try:
        return _plain(data, [_PLAIN_NODES])
    except _NotPlain:
        return None


def _plain(item: Any, budget: list[int]) -> Any:
    budget[0] -= 1
    kind = type(item)
    if budget[0] < 0:
        raise _NotPlain
    if kind is str:
        if "\n" not in item:
            if item.isprintable():
                return item
        elif all(line.isprintable() for line in item.split("\n")):
            return item if item.endswith("\n") else item + "\n"
    elif kind is dict:
        if len(item) <= limits.MAX_ITEMS and "<<" not in item:
            out = {}
            for key, value in item.items():
                if not key.isprintable():
                    raise _NotPlain
                out[key] = _plain(value, budget)
            return out
    elif kind is list:
        if len(item) <= limits.MAX_ITEMS:
            return [_plain(value, budget) for value in item]
    elif kind is int:
        if -_PLAIN_INT < item < _PLAIN_INT:
            return item
    elif kind is float:
        if _PLAIN_FLOAT.fullmatch(repr(item)):
            return item
    elif item is None or kind is bool:
        return item
    raise _NotPlain
