"""Indented JSON whose long lists are written one item a line.

json's C encoder writes compact output only; with ``indent`` every value goes through the pure-Python
encoder, which took a third of `event --format json` on a 600-line session. Here the document's
outline is indented as ``json.dumps(…, indent=…)`` writes it, and each item of a list under one of
the ``rows`` keys (a traveller's tables, a session's lines and standings …) is one compact line from
the C encoder: the same values, quick for a board of 50,000 tables, and still readable.
"""

from __future__ import annotations

import json
from typing import Any

_compact = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
_scalar = json.JSONEncoder(ensure_ascii=False).encode


def rows_json(data: Any, rows: frozenset[str] | set[str], indent: int = 1) -> str:
    """`data` as JSON with a final newline: indented by `indent` spaces a level, the items of a list
    under a key in `rows` each on one line."""
    out: list[str] = []

    def write(value: Any, depth: int, row: bool) -> None:
        if isinstance(value, dict) and value:
            inner = " " * (indent * (depth + 1))
            out.append("{\n")
            for k, (key, v) in enumerate(value.items()):
                name = _scalar(key) if isinstance(key, str) else json.dumps({key: 0})[1:-4]   # as json names a number
                out.append(("" if k == 0 else ",\n") + inner + name + ": ")
                write(v, depth + 1, key in rows)
            out.append("\n" + " " * (indent * depth) + "}")
        elif isinstance(value, (list, tuple)) and value:
            inner = " " * (indent * (depth + 1))
            out.append("[\n")
            for k, v in enumerate(value):
                out.append("" if k == 0 else ",\n")
                if row:
                    out.append(inner + _compact(v))
                else:
                    out.append(inner)
                    write(v, depth + 1, False)
            out.append("\n" + " " * (indent * depth) + "]")
        else:
            out.append(_scalar(value))

    write(data, 0, False)
    out.append("\n")
    return "".join(out)
