"""JSON request bodies: parsed with a bound on nesting, half surrogate pairs refused by place."""

from __future__ import annotations

import json
from typing import Any

MAX_JSON_DEPTH = 32                           # a case nests 4 deep; JSON deeper than this is refused


class ApiProblem(Exception):
    def __init__(self, status: int, message: str, *, expected: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.expected = status, message, expected


def load_json(raw: str) -> Any:
    """JSON from a request; malformed or too deeply nested JSON is an ApiProblem (400)."""
    try:
        data = json.loads(raw)
    except RecursionError:
        data = None
    except ValueError as exc:
        raise ApiProblem(400, f"malformed JSON: {exc}", expected="a JSON object") from None
    else:
        # no deeper than its opening brackets: most requests are known shallow without a walk
        if raw.count("{") + raw.count("[") <= MAX_JSON_DEPTH or json_depth(data) <= MAX_JSON_DEPTH:
            if "\\u" in raw:                     # only an escape can write half of a surrogate pair
                _refuse_lone_surrogates(data)
            return data
    raise ApiProblem(400, f"the JSON is nested more than {MAX_JSON_DEPTH} levels deep",
                     expected="a case: a JSON object a few levels deep")


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
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)
                         if isinstance(v, (dict, list)))            # a text or number nests nothing
    return deepest
