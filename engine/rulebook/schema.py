"""The rule file schema: what a rulebook file and a layer may contain (pydantic, strict)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from . import infractions as infr
from . import sources

RULE_ID = r"^[a-z0-9][a-z0-9-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class ParagraphModel(_Strict):
    text: str
    source: str | sources.SourceModel | None = None    # a document and section (sources.py), or free text
    modelling: str | None = None                        # why this is a modelling choice, when no document says it
    confirmed: bool = True       # the text is the source's own words, read in an English text of it
    tried: str | None = None     # for a text not confirmed: where the words were looked for, and what was found

    @model_validator(mode="after")
    def _tried_is_for_unconfirmed(self) -> "ParagraphModel":
        if self.confirmed and self.tried:
            raise ValueError("tried: says where an unconfirmed text was looked for; this one is confirmed: "
                             "remove tried, or say confirmed: false")
        return self


class EffectiveModel(_Strict):
    from_: dt.date | None = Field(default=None, alias="from")
    until: dt.date | None = None
    source: str | None = None             # where the dates come from (a rulebook's dates must say)

    @model_validator(mode="after")
    def _in_order(self) -> "EffectiveModel":
        if self.from_ is not None and self.until is not None and self.until < self.from_:
            raise ValueError(f"until ({self.until.isoformat()}) is before from ({self.from_.isoformat()})")
        return self


class RuleModel(_Strict):
    id: str = Field(pattern=RULE_ID)
    stage: str
    when: Any
    explain: str = Field(min_length=1)
    cites: list[str] = Field(min_length=1)
    outcome: str | None = None
    award: dict[str, str] | None = None
    apply: dict[str, str] | None = None
    overrides: list[str] = []
    replaces: str | None = None
    effective: EffectiveModel | None = None


class RemoveModel(_Strict):
    rule: str
    cites: list[str] = Field(min_length=1)
    why: str | None = None


class LayerModel(_Strict):
    """What a layer may change: parameters, paragraphs, rules, removals."""
    parameters: dict[str, Any] = {}
    paragraphs: dict[str, ParagraphModel] = {}
    rules: list[RuleModel] = []
    remove: list[RemoveModel] = []
    notes: str | None = None
    documents: dict[str, sources.DocumentModel] = {}
    parameter_sources: dict[str, sources.ParameterSourceModel] = {}
    infractions: dict[str, infr.InfractionModel] = {}
    words: dict[str, dict[str, str]] = {}   # a stage fact of kind DECLARED, or a parameter whose value is a
                                             # word → {word: what it means} (the name a ruling shows for it)


class RulebookModel(LayerModel):
    rulebook: str = Field(pattern=RULE_ID)
    title: str
    authority: str
    version: str
    effective: EffectiveModel
    extends: str | None = None
    include: list[str] = []               # shared rule layers (rules/shared/<name>.yaml), applied first
    source: str | None = None
    scope: dict[str, list[str]] | None = None




class SharedModel(_Strict):
    """A shared layer (rules/shared/*.yaml): rules that several rulebooks include word for word.
    Each including rulebook defines the paragraphs they cite."""
    layer: str = Field(pattern=RULE_ID)
    title: str
    notes: str | None = None
    rules: list[RuleModel] = Field(min_length=1)
