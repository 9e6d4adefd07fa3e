"""Rulebooks: Law 12 (and regulations on top of it) as versioned YAML files in ``rules/``.

Loading checks everything a rule author can get wrong and reports it with file:line:column:
unknown keys, a rule without a citation, a citation of a paragraph the rulebook does not
define, a condition or formula outside the grammar, an unknown stage, fact or outcome.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from . import conditions, formula
from . import parameters as params
from .adapter import StageEvaluator
from .errors import BridgelawError, RulingError, did_you_mean
from .exact import format_mixed
from .stages import STAGES, Stage
from .yamlio import Document, load_yaml

RULE_ID = r"^[a-z0-9][a-z0-9-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ParagraphModel(_Strict):
    text: str
    source: str | None = None


class EffectiveModel(_Strict):
    from_: dt.date = Field(alias="from")
    until: dt.date | None = None


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


class RulebookModel(_Strict):
    rulebook: str = Field(pattern=RULE_ID)
    title: str
    authority: str
    version: str
    effective: EffectiveModel
    source: str | None = None
    notes: str | None = None
    parameters: dict[str, Any] = {}
    paragraphs: dict[str, ParagraphModel] = Field(min_length=1)
    rules: list[RuleModel] = Field(min_length=1)


@dataclass(frozen=True)
class Paragraph:
    ref: str
    text: str
    source: str | None = None


@dataclass
class Rule:
    id: str
    stage: str
    condition: conditions.Condition
    explain: str
    cites: tuple[str, ...]
    outcome: str | None = None
    award: dict[str, formula.Formula] = field(default_factory=dict)
    apply: dict[str, str] = field(default_factory=dict)
    overrides: tuple[str, ...] = ()
    index: int = 0                       # position in the rulebook's rules: list

    @property
    def when_text(self) -> str:
        return conditions.describe(self.condition)


@dataclass
class Rulebook:
    id: str
    title: str
    authority: str
    version: str
    effective_from: dt.date
    effective_until: dt.date | None
    paragraphs: dict[str, Paragraph]
    rules: list[Rule]
    parameters: dict[str, Any]
    path: Path
    sha256: str
    source: str | None = None
    notes: str | None = None
    doc: Document | None = field(default=None, repr=False)
    _evaluators: dict[str, StageEvaluator] = field(default_factory=dict, repr=False)

    def where(self, rule: Rule) -> str:
        """file:line where `rule` is defined."""
        line, _ = self.doc.position(["rules", rule.index]) if self.doc else (None, None)
        return f"{self.path}:{line}" if line else str(self.path)

    def rules_for(self, stage: str) -> list[Rule]:
        return [r for r in self.rules if r.stage == stage]

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise BridgelawError(f"rulebook {self.id} has no rule '{rule_id}'",
                             suggestion=did_you_mean(rule_id, [r.id for r in self.rules]))

    def vocabulary(self, stage: Stage) -> conditions.Vocabulary:
        vocab = dict(stage.facts)
        vocab.update({name: params.vocabulary_kind(name) for name in self.parameters})
        return vocab

    def evaluator(self, stage_id: str) -> StageEvaluator:
        if stage_id not in self._evaluators:
            stage = STAGES[stage_id]
            rules = [(r.id, r.condition) for r in self.rules_for(stage_id)]
            self._evaluators[stage_id] = StageEvaluator(f"{self.id}/{stage_id}", rules, self.vocabulary(stage))
        return self._evaluators[stage_id]

    def decide(self, stage_id: str, facts: dict[str, Any]) -> Rule | None:
        """The rule of `stage_id` that applies to `facts` (durable_rules decides).

        A fact a rule needs but the case lacks, several applicable rules, or — in a ``unique``
        stage — none, is a RulingError naming the rules and the facts. An ``optional`` stage
        with no applicable rule gives None.
        """
        facts = {**self.parameters, **facts}
        rules = self.rules_for(stage_id)
        for rule in rules:
            try:
                conditions.evaluate(rule.condition, facts)
            except conditions.MissingFact as missing:
                raise RulingError(
                    f"rule '{rule.id}' ({self.id}, stage {stage_id}) needs the fact '{missing.name}', "
                    f"which this case does not give", suggestion=f"facts given: {_facts_text(facts)}",
                ) from None
        fired = self.evaluator(stage_id).applicable(facts)
        overridden = {o for rule_id in fired for o in self.rule(rule_id).overrides}
        fired = [rule_id for rule_id in fired if rule_id not in overridden]
        if not fired and STAGES[stage_id].hit == "optional":
            return None
        if len(fired) != 1:
            what = "no rule applies" if not fired else f"{len(fired)} rules apply ({', '.join(fired)})"
            raise RulingError(
                f"{self.id}, stage {stage_id}: {what}; exactly one must",
                expected=f"one of {', '.join(r.id for r in rules)}",
                suggestion=f"facts: {_facts_text(facts)}",
            )
        return self.rule(fired[0])

    @cached_property
    def identity(self) -> dict[str, str]:
        return {"id": self.id, "version": self.version, "sha256": self.sha256}


def _facts_text(facts: dict[str, Any]) -> str:
    def show(v: Any) -> str:
        return format_mixed(v) if isinstance(v, Fraction) else str(v).lower() if isinstance(v, bool) else str(v)
    return ", ".join(f"{k}={show(v)}" for k, v in facts.items() if v is not None)


# --- loading -------------------------------------------------------------------------------

def load(path: str | Path) -> Rulebook:
    """Load and check one rulebook file."""
    path = Path(path)
    doc = load_yaml(path)
    model = doc.validate(RulebookModel)
    if path.stem != model.rulebook:
        raise doc.error(["rulebook"], f"rulebook id '{model.rulebook}' does not match the file name '{path.name}'",
                        expected=f"rulebook: {path.stem}")
    parameters = _parameters(doc, model.parameters)
    paragraphs = {ref: Paragraph(ref, p.text.strip(), p.source) for ref, p in model.paragraphs.items()}
    book = Rulebook(
        id=model.rulebook, title=model.title, authority=model.authority, version=model.version,
        effective_from=model.effective.from_, effective_until=model.effective.until,
        paragraphs=paragraphs, rules=[], parameters=parameters, path=path,
        sha256=hashlib.sha256(doc.text.encode("utf-8")).hexdigest(),
        source=model.source, notes=model.notes, doc=doc,
    )
    seen: set[str] = set()
    for i, rm in enumerate(model.rules):
        if rm.id in seen:
            raise doc.error(["rules", i, "id"], f"duplicate rule id '{rm.id}'")
        seen.add(rm.id)
        book.rules.append(_rule(doc, book, i, rm))
    for i, rule in enumerate(book.rules):
        for j, target in enumerate(rule.overrides):
            if target not in seen:
                raise doc.error(["rules", i, "overrides", j], f"rule '{rule.id}' overrides '{target}', which does not exist",
                                suggestion=did_you_mean(target, seen))
    return book


def _parameters(doc: Document, raw: dict[str, Any]) -> dict[str, Any]:
    """Flatten the nested parameters block to dotted names, checking each against the registry."""
    flat: dict[str, Any] = {}

    def walk(node: Any, prefix: list[str]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, prefix + [str(key)])
            return
        name = ".".join(prefix)
        if name not in params.PARAMETERS:
            raise doc.error(["parameters", *prefix], f"unknown parameter '{name}'", key=True,
                            expected="one of " + ", ".join(params.PARAMETERS),
                            suggestion=did_you_mean(name, params.PARAMETERS))
        try:
            flat[name] = params.check(name, node)
        except ValueError as exc:
            raise doc.error(["parameters", *prefix], f"parameter {name}: {exc}") from None

    walk(raw, [])
    return flat


def _rule(doc: Document, book: Rulebook, i: int, rm: RuleModel) -> Rule:
    here = ["rules", i]
    stage = STAGES.get(rm.stage)
    if stage is None:
        raise doc.error(here + ["stage"], f"rule '{rm.id}': unknown stage '{rm.stage}'",
                        expected="one of " + ", ".join(STAGES), suggestion=did_you_mean(rm.stage, STAGES))
    try:
        cond = conditions.parse(rm.when, book.vocabulary(stage))
    except conditions.ConditionError as exc:
        raise doc.error(here + ["when", *exc.path], f"rule '{rm.id}': {exc.message}",
                        expected=exc.expected, suggestion=exc.suggestion) from None
    for j, ref in enumerate(rm.cites):
        if ref not in book.paragraphs:
            raise doc.error(here + ["cites", j], f"rule '{rm.id}' cites {ref}, which this rulebook does not define",
                            expected="a paragraph listed under paragraphs:",
                            suggestion=did_you_mean(ref, book.paragraphs))
    rule = Rule(id=rm.id, stage=rm.stage, condition=cond, explain=rm.explain.strip(), cites=tuple(rm.cites),
                overrides=tuple(rm.overrides), outcome=rm.outcome, index=i)
    if stage.produces == "award":
        _check_award(doc, book, stage, rm, here, rule)
    else:
        _check_apply(doc, stage, rm, here, rule)
    return rule


def _check_award(doc: Document, book: Rulebook, stage: Stage, rm: RuleModel, here: list, rule: Rule) -> None:
    if rm.apply is not None:
        raise doc.error(here + ["apply"], f"rule '{rm.id}': stage {stage.id} rules give an award, not apply", key=True)
    if stage.outcomes and rm.outcome not in stage.outcomes:
        raise doc.error(here + (["outcome"] if rm.outcome else []),
                        f"rule '{rm.id}': outcome '{rm.outcome}' is not one of stage {stage.id}'s outcomes",
                        expected=", ".join(stage.outcomes), suggestion=did_you_mean(rm.outcome or "", stage.outcomes))
    if not stage.outcomes and rm.outcome is not None:
        raise doc.error(here + ["outcome"], f"rule '{rm.id}': stage {stage.id} rules have no outcome", key=True)
    award = rm.award or {}
    if rm.outcome in stage.no_award:
        if award:
            raise doc.error(here + ["award"], f"rule '{rm.id}': outcome {rm.outcome} awards no score", key=True)
        return
    missing = [k for k in stage.award_keys if k not in award]
    if missing:
        raise doc.error(here + (["award"] if rm.award else []), f"rule '{rm.id}': award lacks {', '.join(missing)}",
                        expected="award: {" + ", ".join(f"{k}: <formula>" for k in stage.award_keys) + "}")
    allowed = set(stage.formula_names) | set(book.parameters)
    for key, text in award.items():
        if key not in stage.award_keys:
            raise doc.error(here + ["award", key], f"rule '{rm.id}': unknown award key '{key}'", key=True,
                            expected=", ".join(stage.award_keys), suggestion=did_you_mean(key, stage.award_keys))
        try:
            parsed = formula.parse(text)
        except formula.FormulaError as exc:
            line, col = doc.position(here + ["award", key])
            raise BridgelawError(f"rule '{rm.id}': formula '{text}': {exc.message}", file=doc.file, line=line,
                                 column=(col or 1) + exc.column - 1,
                                 expected="arithmetic (+ - * / parentheses) over names such as A, B, C, B'") from None
        for name in sorted(parsed.names - allowed):
            raise doc.error(here + ["award", key], f"rule '{rm.id}': formula '{text}' uses unknown name '{name}'",
                            expected="one of " + ", ".join(sorted(allowed)), suggestion=did_you_mean(name, allowed))
        rule.award[key] = parsed


def _check_apply(doc: Document, stage: Stage, rm: RuleModel, here: list, rule: Rule) -> None:
    if rm.award is not None or rm.outcome is not None:
        bad = "award" if rm.award is not None else "outcome"
        raise doc.error(here + [bad], f"rule '{rm.id}': stage {stage.id} rules say what to apply, not an {bad}", key=True)
    apply = rm.apply or {}
    for key, choices in stage.apply_options.items():
        value = apply.get(key)
        if value not in choices:
            raise doc.error(here + (["apply", key] if key in apply else ["apply"] if rm.apply else []),
                            f"rule '{rm.id}': apply.{key} must be one of {', '.join(choices)}",
                            suggestion=did_you_mean(str(value), choices) if value else None)
    for key in apply:
        if key not in stage.apply_options:
            raise doc.error(here + ["apply", key], f"rule '{rm.id}': unknown apply key '{key}'", key=True,
                            expected=", ".join(stage.apply_options), suggestion=did_you_mean(key, stage.apply_options))
    rule.apply = dict(apply)


# --- the rulebooks shipped --------------------------------------------------------------------

def rules_dir() -> Path:
    """rules/ inside an installed wheel (engine/rules), else the checkout's top-level rules/."""
    here = Path(__file__).resolve().parent
    packaged = here / "rules"
    return packaged if packaged.is_dir() else here.parent / "rules"


def available(directory: Path | None = None) -> dict[str, Path]:
    directory = directory or rules_dir()
    return {p.stem: p for p in sorted(directory.glob("*.yaml"))}


_cache: dict[tuple[str, float], Rulebook] = {}


def get(name: str, directory: Path | None = None) -> Rulebook:
    """A shipped rulebook by id (or a path to a rulebook file), loaded once per process."""
    known = available(directory)
    path = known.get(name)
    if path is None and (name.endswith((".yaml", ".yml")) or "/" in name):
        path = Path(name)
        if not path.is_file():
            raise BridgelawError(f"no such rulebook file: {name}")
    if path is None:
        raise BridgelawError(f"unknown rulebook '{name}'", expected="one of " + ", ".join(known),
                             suggestion=did_you_mean(name, known))
    key = (str(path.resolve()), path.stat().st_mtime)
    if key not in _cache:
        _cache[key] = load(path)
    return _cache[key]
