"""Rulebooks: Law 12 — and regulations on top of it — as versioned YAML files in ``rules/``.

A rulebook file is a *layer*. A Laws edition is a base layer (``extends`` absent); a regulation
``extends`` another rulebook and overrides named parameters, replaces rules (``replaces:``),
adds rules, or removes them (``remove:``), each change with its own citation. A what-if overlay
(``--overlay FILE``, ``--set PARAM=VALUE``) is a layer applied the same way without changing any
file. Parameters and rules may carry ``effective: {from, until}``; a rulebook is resolved for a
date (:meth:`Rulebook.at`) to the values and rules in force then.

Loading checks everything a rule author can get wrong and reports it with file:line:column:
unknown keys, a rule without a citation, a citation of a paragraph the rulebook does not define,
a condition or formula outside the grammar, an unknown stage, fact, outcome or parameter, a
cycle in ``extends``, an override of nothing, a dangling reference.

The package, one job a module: ``schema`` (what a file may contain), ``model`` (a rulebook
resolved for a date), ``layers`` (loading and applying layers), ``decide`` (the hit policy,
used by rulings and by the lint), ``registry`` (the rulebooks shipped).
"""

from __future__ import annotations

from typing import Any

from .decide import Decision, resolve
from .model import Dated, Paragraph, Place, Rule, Rulebook, facts_text
from .files import available, rules_dir
from .registry import get, siblings

# Loading rule files (YAML, the schema, every check) is imported when first used: a command served
# by a snapshot (rulebook/snapshot.py) needs none of it.
_LAZY = {"load": "layers", "proposed": "layers", "with_layer": "layers", "with_overlay": "layers",
         "LayerModel": "schema", "RuleModel": "schema", "RulebookModel": "schema"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = ["Decision", "Dated", "LayerModel", "Paragraph", "Place", "Rule", "RuleModel", "Rulebook",
           "RulebookModel", "available", "facts_text", "get", "load", "proposed", "resolve", "rules_dir", "siblings",
           "with_layer", "with_overlay"]
