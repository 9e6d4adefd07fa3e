"""A case model (the keys of a case file) as case-file YAML, and the length limits on its lists.

The web page never rules a form directly: it writes the case as YAML and reads it back through
:func:`bridgelaw.ruling.case.load_case`, the same path as ``bridgelaw rule``.
"""

from __future__ import annotations

import io
from typing import Any, Mapping

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString

from ..core.yamlio import node_paths

MAX_ROWS = 20               # outcomes in one weighted list, choices in a poll
MAX_FIELD = 1000            # results in a field (other tables at matchpoints)
MAX_LIST = 1000             # any other list in a case sent to the API


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.default_flow_style = False
    y.width = 4096
    y.allow_unicode = True
    return y


def dump_yaml(model: Mapping[str, Any], *, header: str | None = None) -> str:
    """A case model as case-file YAML (block style; strings quoted only where YAML needs it)."""
    buf = io.StringIO()
    _yaml().dump(_commented(model), buf)
    text = buf.getvalue()
    if header:
        text = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + text
    return text


def _commented(value: Any) -> Any:
    if isinstance(value, Mapping):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = _commented(v)
        return out
    if isinstance(value, list):
        return CommentedSeq(_commented(v) for v in value)
    if isinstance(value, str) and "\n" in value:
        return LiteralScalarString(value if value.endswith("\n") else value + "\n")
    return value


def positions(text: str) -> tuple[dict, dict, dict]:
    """(value, item, key) positions of every node of a YAML text: 1-based (line, column) → path.
    Used only for errors that carry no key path (e.g. a rulebook that is not found)."""
    return node_paths(text)


def check_list_lengths(tree: Any, path: tuple = ()) -> tuple[tuple, int, int] | None:
    """The first list in `tree` that is longer than allowed: (path, length, limit)."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            found = check_list_lengths(v, path + (k,))
            if found:
                return found
    elif isinstance(tree, list):
        limit = MAX_FIELD if path[:1] == ("field",) else MAX_ROWS if _weighted(path) else MAX_LIST
        if len(tree) > limit:
            return path, len(tree), limit
        for i, v in enumerate(tree):
            found = check_list_lengths(v, path + (i,))
            if found:
                return found
    return None


def _weighted(path: tuple) -> bool:
    keys = [p for p in path if isinstance(p, str)]
    return bool(keys) and keys[0] in ("without_infraction", "serious_error", "poll")
