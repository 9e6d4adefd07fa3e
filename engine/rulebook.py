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
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from . import conditions, formula
from . import parameters as params
from .adapter import StageEvaluator, stage_problem
from .errors import BridgelawError, RulingError, did_you_mean
from .limits import too_long_name
from .exact import format_mixed
from .stages import STAGES, Stage
from .yamlio import Document, load_yaml

RULE_ID = r"^[a-z0-9][a-z0-9-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ParagraphModel(_Strict):
    text: str
    source: str | None = None
    confirmed: bool = True


class EffectiveModel(_Strict):
    from_: dt.date | None = Field(default=None, alias="from")
    until: dt.date | None = None

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


class RulebookModel(LayerModel):
    rulebook: str = Field(pattern=RULE_ID)
    title: str
    authority: str
    version: str
    effective: EffectiveModel
    extends: str | None = None
    source: str | None = None
    scope: dict[str, list[str]] | None = None


@dataclass(frozen=True)
class Paragraph:
    ref: str
    text: str
    source: str | None = None
    confirmed: bool = True
    origin: str = ""                      # the rulebook that defines it


@dataclass(frozen=True)
class Place:
    """Where something was defined: `what` (e.g. "defined in wbf-2017") and a file position,
    worked out only when shown (finding positions re-reads the file)."""
    what: str
    doc: Document | None = field(default=None, compare=False, repr=False)
    path: tuple = ()

    def __str__(self) -> str:
        if self.doc is None:
            return self.what
        line, _ = self.doc.position(list(self.path))
        return f"{self.what} ({_short(self.doc.file)}{f':{line}' if line else ''})"


@dataclass(frozen=True)
class Dated:
    """One value of a parameter, with when it is in force and why."""
    value: Any
    start: dt.date | None
    end: dt.date | None
    cites: tuple[str, ...]
    place: Place

    @property
    def origin(self) -> str:              # "ebu (rules/ebu.yaml:12)"
        return str(self.place)

    def covers(self, day: dt.date) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day <= self.end)

    @property
    def period(self) -> str:
        if self.start is None and self.end is None:
            return "always"
        return f"{self.start.isoformat() if self.start else '…'} to {self.end.isoformat() if self.end else '…'}"


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
    start: dt.date | None = None
    end: dt.date | None = None
    places: list[Place] = field(default_factory=list)   # where defined, then replaced, along the chain
    source: Any = field(default=None, repr=False)       # the RuleModel, for diff

    @property
    def when_text(self) -> str:
        return conditions.describe(self.condition)

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(conditions.names(self.condition))

    @property
    def history(self) -> list[str]:
        """"defined in wbf-2017 (rules/wbf-2017.yaml:120)", then each replacement."""
        return [str(p) for p in self.places]

    def in_force(self, day: dt.date) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day <= self.end)


@dataclass
class Rulebook:
    """A rulebook resolved for one date (`as_of`): the parameters and rules in force then."""

    id: str
    title: str
    authority: str
    version: str
    effective_from: dt.date
    effective_until: dt.date | None
    paragraphs: dict[str, Paragraph]
    all_rules: list[Rule]
    dated: dict[str, list[Dated]]
    path: Path
    sha256: str
    chain: list[str]                        # ids from the base edition to this one
    as_of: dt.date
    source: str | None = None
    notes: str | None = None
    scope: dict[str, list[str]] | None = None
    rules: list[Rule] = field(default_factory=list)
    parameters: dict[str, Any] = field(default_factory=dict)
    _evaluators: dict = field(default_factory=dict, repr=False)
    _views: dict = field(default_factory=dict, repr=False)
    _by_stage: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_stage = {}
        self.rules = [r for r in self.all_rules if r.in_force(self.as_of)]
        self.parameters = {}
        for name, values in self.dated.items():
            for d in values:
                if d.covers(self.as_of):
                    self.parameters[name] = d.value

    @property
    def extends(self) -> str | None:
        return self.chain[-2] if len(self.chain) > 1 else None

    # --- dates ------------------------------------------------------------------------------

    def at(self, day: dt.date | None) -> "Rulebook":
        """This rulebook as in force on `day` (its last day if `day` is later than its end)."""
        day = self.clamp(day)
        if day == self.as_of:
            return self
        if day not in self._views:
            self._views[day] = dataclasses.replace(self, as_of=day, _views=self._views, rules=[], parameters={})
        return self._views[day]

    def clamp(self, day: dt.date | None) -> dt.date:
        day = day or dt.date.today()
        if day < self.effective_from:
            raise BridgelawError(f"rulebook {self.id} is in force from {self.effective_from.isoformat()}; "
                                 f"{day.isoformat()} is earlier", expected=f"a date from {self.effective_from.isoformat()}")
        if self.effective_until and day > self.effective_until:
            return self.effective_until
        return day

    def dated_in_use(self) -> list[tuple[str, Dated]]:
        """The parameter values in force that have more than one dated value."""
        return [(name, d) for name, values in self.dated.items() if len(values) > 1
                for d in values if d.covers(self.as_of)]

    # --- rules ------------------------------------------------------------------------------

    def rules_for(self, stage: str) -> list[Rule]:
        if stage not in self._by_stage:
            self._by_stage[stage] = [r for r in self.rules if r.stage == stage]
        return self._by_stage[stage]

    def rule(self, rule_id: str) -> Rule:
        for r in self.all_rules:
            if r.id == rule_id:
                return r
        raise BridgelawError(f"rulebook {self.id} has no rule '{rule_id}'",
                             suggestion=did_you_mean(rule_id, [r.id for r in self.all_rules]))

    def vocabulary(self, stage: Stage) -> conditions.Vocabulary:
        vocab = dict(stage.facts)
        vocab.update({name: params.vocabulary_kind(name) for name in self.dated})
        return vocab

    def evaluator(self, stage_id: str) -> StageEvaluator:
        rules = self.rules_for(stage_id)
        key = (stage_id, tuple(r.id for r in rules))
        if key not in self._evaluators:
            self._evaluators[key] = StageEvaluator(f"{self.id}/{stage_id}", [(r.id, r.condition) for r in rules],
                                                   self.vocabulary(STAGES[stage_id]))
        return self._evaluators[key]

    def decide(self, stage_id: str, facts: dict[str, Any]) -> Rule | None:
        """The rule of `stage_id` that applies to `facts` (durable_rules decides).

        A fact a rule needs but the case lacks, several applicable rules, or — in a ``unique``
        stage — none, is a RulingError naming the rules and the facts. An ``optional`` stage
        with no applicable rule gives None.
        """
        facts = {**self.parameters, **facts}
        rules = self.rules_for(stage_id)
        given = {k for k, v in facts.items() if v is not None}
        for rule in rules:
            if rule.names <= given:
                continue                # every fact it mentions is there: nothing can be missing
            try:
                conditions.evaluate(rule.condition, facts)
            except conditions.MissingFact as missing:
                raise RulingError(
                    f"rule '{rule.id}' ({self.id}, stage {stage_id}) needs the fact '{missing.name}', "
                    f"which this case does not give", suggestion=f"facts given: {facts_text(facts)}",
                ) from None
        try:
            fired = self.evaluator(stage_id).applicable(facts)
        except ValueError as exc:
            raise RulingError(f"{self.id}, stage {stage_id}: {exc}") from None
        overridden = {o for rule_id in fired for o in self.rule(rule_id).overrides}
        fired = [rule_id for rule_id in fired if rule_id not in overridden]
        if not fired and STAGES[stage_id].hit == "optional":
            return None
        if len(fired) != 1:
            what = "no rule applies" if not fired else f"{len(fired)} rules apply ({', '.join(fired)})"
            raise RulingError(
                f"{self.id}, stage {stage_id}: {what}; exactly one must",
                expected=f"one of {', '.join(r.id for r in rules)}",
                suggestion=f"facts: {facts_text(facts)}",
            )
        return self.rule(fired[0])

    def summary(self) -> dict[str, Any]:
        """The rulebook as `bridgelaw rulebooks --format json` (and the web API) list it."""
        return {"id": self.id, "title": self.title, "authority": self.authority, "version": self.version,
                "extends": self.extends,
                "effective": {"from": self.effective_from.isoformat(),
                              "until": self.effective_until.isoformat() if self.effective_until else None},
                "rules": len(self.all_rules), "sha256": self.sha256}

    @property
    def identity(self) -> dict[str, Any]:
        return {"id": self.id, "version": self.version, "sha256": self.sha256,
                "extends": self.chain[:-1], "as_of": self.as_of.isoformat()}

    # --- what-if ----------------------------------------------------------------------------

    def with_settings(self, settings: list[str]) -> "Rulebook":
        """This rulebook with `--set NAME=VALUE` changes (a what-if; no file changes)."""
        raw: dict[str, Any] = {}
        for item in settings:
            name, sep, value = item.partition("=")
            name, value = name.strip(), value.strip()
            if not sep or not name:
                raise BridgelawError(f"--set {item!r}: expected NAME=VALUE", expected="e.g. --set artificial.pairs.avg_plus=65%")
            if name not in params.PARAMETERS:
                raise BridgelawError(f"--set: unknown parameter '{name}'", suggestion=did_you_mean(name, params.PARAMETERS),
                                     expected="a parameter listed by `bridgelaw explain --parameters`")
            try:
                raw[name] = params.check(name, value)
            except ValueError as exc:
                raise BridgelawError(f"--set {name}: {exc}", expected=params.PARAMETERS[name][1]) from None
        dated = dict(self.dated)
        for name, value in raw.items():
            dated[name] = [Dated(value, None, None, (), Place("--set on the command line"))]
        text = "\n".join(sorted(settings))
        return self._derived(dated=dated, suffix="+set", extra=text)

    def with_overlay(self, path: str | Path) -> "Rulebook":
        """This rulebook with a what-if overlay file applied (a layer without identity)."""
        doc = load_yaml(path)
        model = doc.validate(LayerModel)
        book = _apply_layer(self, model, doc, self.id + "+overlay", require_cites=False)
        return dataclasses.replace(book, id=self.id + "+overlay", sha256=_hash(self.sha256, doc.text),
                                   _evaluators={}, _views={}, rules=[], parameters={})

    def _derived(self, *, dated: dict[str, list[Dated]], suffix: str, extra: str) -> "Rulebook":
        return dataclasses.replace(self, id=self.id + suffix, dated=dated, sha256=_hash(self.sha256, extra),
                                   _evaluators={}, _views={}, rules=[], parameters={})


def facts_text(facts: dict[str, Any]) -> str:
    def show(v: Any) -> str:
        return format_mixed(v) if isinstance(v, Fraction) else str(v).lower() if isinstance(v, bool) else str(v)
    return ", ".join(f"{k}={show(v)}" for k, v in facts.items() if v is not None)


def _short(file: str) -> str:
    """A file name relative to the working folder when it lies inside it."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd()))
    except ValueError:
        return file


def _hash(*parts: str) -> str:
    """sha256 of a file's text; of a chain, sha256 over the base's hash and each layer's text."""
    if len(parts) == 1:
        return hashlib.sha256(parts[0].encode("utf-8")).hexdigest()
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


# --- loading -------------------------------------------------------------------------------

def load(path: str | Path, *, _stack: tuple[str, ...] = ()) -> Rulebook:
    """Load and check one rulebook file (and, for a regulation, the chain it extends)."""
    path = Path(path)
    doc = load_yaml(path)
    model = doc.validate(RulebookModel)
    if path.stem != model.rulebook:
        raise doc.error(["rulebook"], f"rulebook id '{model.rulebook}' does not match the file name '{path.name}'",
                        expected=f"rulebook: {path.stem}")
    if model.effective.from_ is None:
        raise doc.error(["effective"], "effective needs from: the date the rulebook comes into force",
                        expected="effective: {from: YYYY-MM-DD}")
    base = None
    if model.extends is not None:
        if model.extends in _stack + (model.rulebook,):
            cycle = " → ".join(_stack + (model.rulebook, model.extends))
            raise doc.error(["extends"], f"rulebook extends itself: {cycle}", expected="an extends chain without a cycle")
        known = available(path.parent)
        if model.extends not in known:
            raise doc.error(["extends"], f"rulebook {model.rulebook} extends '{model.extends}', which is not in "
                            f"{path.parent}", expected="one of " + ", ".join(k for k in known if k != model.rulebook),
                            suggestion=did_you_mean(model.extends, known))
        base = load(known[model.extends], _stack=_stack + (model.rulebook,))
    elif not model.paragraphs or not model.rules:
        missing = "paragraphs" if not model.paragraphs else "rules"
        raise doc.error([], f"a rulebook that extends nothing needs {missing}",
                        expected=f"{missing}: … (or extends: <rulebook id>)")
    start = Rulebook(
        id=model.rulebook, title=model.title, authority=model.authority, version=model.version,
        effective_from=model.effective.from_, effective_until=model.effective.until,
        paragraphs=dict(base.paragraphs) if base else {}, all_rules=list(base.all_rules) if base else [],
        dated=dict(base.dated) if base else {}, path=path,
        sha256=_hash(base.sha256, doc.text) if base else _hash(doc.text),
        chain=(base.chain if base else []) + [model.rulebook], as_of=model.effective.from_,
        source=model.source, notes=model.notes, scope=model.scope,
    )
    book = _apply_layer(start, model, doc, model.rulebook, require_cites=base is not None)
    return book.at(book.clamp(None))


def _apply_layer(book: Rulebook, model: LayerModel, doc: Document, origin: str, *, require_cites: bool) -> Rulebook:
    """`book` with one layer's parameters, paragraphs, removals and rules applied."""
    paragraphs = dict(book.paragraphs)
    for ref, p in model.paragraphs.items():
        if ref in paragraphs:
            raise doc.error(["paragraphs", ref], f"paragraph {ref} is already defined by {paragraphs[ref].origin}",
                            key=True, expected="a new paragraph reference (regulations cite the Laws' paragraphs as they are)")
        paragraphs[ref] = Paragraph(ref, p.text.strip(), p.source, p.confirmed, origin)
    dated = dict(book.dated)
    for name, values in _parameters(doc, model.parameters, origin, require_cites, set(book.dated)).items():
        dated[name] = values
    for name, values in dated.items():
        for value in values:
            for ref in value.cites:
                if ref not in paragraphs:
                    raise doc.error(["parameters", *name.split(".")], f"parameter {name} cites {ref}, which this "
                                    "rulebook does not define", suggestion=did_you_mean(ref, paragraphs))
    rules = list(book.all_rules)
    for i, rm in enumerate(model.remove):
        here = ["remove", i]
        if rm.rule not in {r.id for r in rules}:
            raise doc.error(here + ["rule"], f"remove: '{rm.rule}' is not a rule of {book.chain[-2] if len(book.chain) > 1 else book.id}",
                            suggestion=did_you_mean(rm.rule, [r.id for r in rules]))
        _check_cites(doc, here, f"removal of {rm.rule}", rm.cites, paragraphs)
        rules = [r for r in rules if r.id != rm.rule]
    view = dataclasses.replace(book, paragraphs=paragraphs, dated=dated, all_rules=[], _evaluators={}, _views={},
                               rules=[], parameters={})
    ids = {r.id for r in rules}
    for i, rm in enumerate(model.rules):
        here = ["rules", i]
        rule = _rule(doc, view, i, rm, origin)
        if rm.replaces is not None:
            if rm.replaces not in ids:
                raise doc.error(here + ["replaces"], f"rule '{rm.id}' replaces '{rm.replaces}', which "
                                f"{'the rulebook it extends does' if len(book.chain) > 1 else 'nothing'} not define",
                                suggestion=did_you_mean(rm.replaces, ids))
            old = next(r for r in rules if r.id == rm.replaces)
            rule.places = old.places + rule.places
            rules = [rule if r.id == rm.replaces else r for r in rules]
            ids = (ids - {rm.replaces}) | {rule.id}
            continue
        if rule.id in ids:
            defined = next(r for r in rules if r.id == rule.id).history[-1]
            message = (f"rule id '{rule.id}' is already {defined}; to change it write replaces: {rule.id}"
                       if len(book.chain) > 1 or origin.endswith("+overlay") else f"duplicate rule id '{rule.id}'")
            raise doc.error(here + ["id"], message)
        rules.append(rule)
        ids.add(rule.id)
    mine = {rm.id: i for i, rm in enumerate(model.rules)}
    for rule in rules:
        for j, target in enumerate(rule.overrides):
            if target in ids:
                continue
            if rule.id in mine and rule.source is model.rules[mine[rule.id]]:
                raise doc.error(["rules", mine[rule.id], "overrides", j], f"rule '{rule.id}' overrides '{target}', "
                                "which does not exist", suggestion=did_you_mean(target, ids))
            k = next(k for k, rm in enumerate(model.remove) if rm.rule == target)
            raise doc.error(["remove", k, "rule"], f"removing '{target}' leaves rule '{rule.id}' overriding "
                            "nothing", suggestion=f"remove or replace '{rule.id}' too")
    _check_override_cycles(doc, rules)
    _check_stage_limits(doc, rules)
    return dataclasses.replace(view, all_rules=rules)


def _check_stage_limits(doc: Document, rules: list[Rule]) -> None:
    """Each stage's rules must fit durable_rules (adapter.stage_problem); the error points at the
    rule that crosses the limit, so `lint` and every command report it before it is used."""
    for stage_id in STAGES:
        mine = [r for r in rules if r.stage == stage_id]
        problem = stage_problem(stage_id, [(r.id, r.condition) for r in mine])
        if problem is not None:
            place = next((r.places[-1] for r in mine if r.id == problem.rule_id), None)
            if place is not None and place.doc is not None:
                raise place.doc.error(list(place.path), f"rule '{problem.rule_id}': {problem.message}",
                                      expected="fewer or simpler rules in this stage (docs/limits.md)")
            raise BridgelawError(problem.message, file=doc.file)


def _check_override_cycles(doc: Document, rules: list[Rule]) -> None:
    """Rules that override each other (directly or round a loop) would cancel out: refuse them."""
    graph = {r.id: set(r.overrides) for r in rules}
    for start in graph:
        path, todo = [start], [(start, [start])]
        while todo:
            node, path = todo.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    raise BridgelawError(f"rules override each other in a loop: {' → '.join(path + [start])}",
                                         file=doc.file, expected="overrides that say which rule wins, one way")
                if nxt not in path:
                    todo.append((nxt, path + [nxt]))


def _parameters(doc: Document, raw: dict[str, Any], origin: str, require_cites: bool,
                inherited: set[str]) -> dict[str, list[Dated]]:
    """Flatten the nested parameters block to dotted names: plain values, {value, cites,
    effective} or a list of those (dated values); each checked against the registry."""
    flat: dict[str, list[Dated]] = {}

    def entry(node: Any, name: str, where: list) -> Dated:
        if isinstance(node, dict) and "value" in node:
            extra = set(node) - {"value", "cites", "effective"}
            if extra:
                key = sorted(extra)[0]
                raise doc.error(where + [key], f"parameter {name}: unknown key '{key}'", key=True,
                                expected="value, cites, effective", suggestion=did_you_mean(key, ["value", "cites", "effective"]))
            cites = node.get("cites") or []
            if not isinstance(cites, list):
                raise doc.error(where + ["cites"], f"parameter {name}: cites is a list of paragraphs")
            eff = node.get("effective") or {}
            if not isinstance(eff, dict) or set(eff) - {"from", "until"}:
                raise doc.error(where + ["effective"], f"parameter {name}: effective is {{from: date, until: date}}")
            value, start, end = node["value"], eff.get("from"), eff.get("until")
            for key, day in (("from", start), ("until", end)):
                if day is not None and not isinstance(day, dt.date):
                    raise doc.error(where + ["effective", key], f"parameter {name}: effective {key} is not a date",
                                    expected="YYYY-MM-DD")
            if start is not None and end is not None and end < start:
                raise doc.error(where + ["effective"], f"parameter {name}: effective until is before from")
        else:
            value, cites, start, end = node, [], None, None
        if require_cites and not cites:
            what = "overrides an inherited value" if name in inherited else "is set by a regulation"
            raise doc.error(where, f"parameter {name} {what}: give the regulation paragraph it rests on",
                            expected=f"{name.split('.')[-1]}: {{value: …, cites: [<paragraph>]}}")
        try:
            checked = params.check(name, value)
        except ValueError as exc:
            raise doc.error(where, f"parameter {name}: {exc}") from None
        return Dated(checked, start, end, tuple(str(c) for c in cites), Place(origin, doc, tuple(where)))

    def walk(node: Any, prefix: list[str]) -> None:
        name = ".".join(prefix)
        if isinstance(node, dict) and "value" not in node:
            for key, value in node.items():
                walk(value, prefix + [str(key)])
            return
        where = ["parameters", *prefix]
        if name not in params.PARAMETERS:
            raise doc.error(where, f"unknown parameter '{name}'", key=True,
                            expected="one of " + ", ".join(params.PARAMETERS),
                            suggestion=did_you_mean(name, params.PARAMETERS))
        values = [entry(item, name, where + [i]) for i, item in enumerate(node)] if isinstance(node, list) \
            else [entry(node, name, where)]
        for i, a in enumerate(values):
            for b in values[i + 1:]:
                if (a.start is None or b.end is None or a.start <= b.end) and \
                        (b.start is None or a.end is None or b.start <= a.end):
                    raise doc.error(where, f"parameter {name} has two values in force at once ({a.period} and {b.period})",
                                    expected="dated values whose periods do not overlap")
        flat[name] = values

    walk(raw, [])
    return flat


def _check_cites(doc: Document, here: list, what: str, cites: list[str], paragraphs: dict[str, Paragraph]) -> None:
    for j, ref in enumerate(cites):
        if ref not in paragraphs:
            raise doc.error(here + ["cites", j], f"{what} cites {ref}, which this rulebook does not define",
                            expected="a paragraph listed under paragraphs:", suggestion=did_you_mean(ref, paragraphs))


def _rule(doc: Document, book: Rulebook, i: int, rm: RuleModel, origin: str) -> Rule:
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
    _check_cites(doc, here, f"rule '{rm.id}'", rm.cites, book.paragraphs)
    verb = f"replaces {rm.replaces} in" if rm.replaces else "defined in"
    rule = Rule(id=rm.id, stage=rm.stage, condition=cond, explain=" ".join(rm.explain.split()), cites=tuple(rm.cites),
                overrides=tuple(rm.overrides), outcome=rm.outcome,
                start=rm.effective.from_ if rm.effective else None, end=rm.effective.until if rm.effective else None,
                places=[Place(f"{verb} {origin}", doc, tuple(here))], source=rm)
    if stage.produces == "award":
        _check_award(doc, book, stage, rm, here, rule)
    else:
        _check_apply(doc, stage, rm, here, rule)
    return rule


def _check_award(doc: Document, book: Rulebook, stage: Stage, rm: RuleModel, here: list, rule: Rule) -> None:
    if rm.apply is not None:
        raise doc.error(here + ["apply"], f"rule '{rm.id}': stage {stage.id} rules give an award, not apply", key=True)
    if stage.outcomes and rm.outcome is None:
        raise doc.error(here, f"rule '{rm.id}' needs an outcome", expected="outcome: one of " + ", ".join(stage.outcomes))
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
    allowed = set(stage.formula_names) | set(book.dated)
    for key, text in award.items():
        if key not in stage.award_keys:
            raise doc.error(here + ["award", key], f"rule '{rm.id}': unknown award key '{key}'", key=True,
                            expected=", ".join(stage.award_keys), suggestion=did_you_mean(key, stage.award_keys))
        try:
            parsed = formula.parse(text)
        except formula.FormulaError as exc:
            line, col = doc.text_position(here + ["award", key], exc.column - 1)
            shown = str(text) if len(str(text)) <= 80 else str(text)[:80] + "…"
            raise BridgelawError(f"rule '{rm.id}': formula '{shown}': {exc.message}", file=doc.file, line=line,
                                 column=col,
                                 expected="arithmetic (+ - * / parentheses) over names such as A, B, C, B'") from None
        for name in sorted(parsed.names - allowed):
            line, col = doc.text_position(here + ["award", key], max(str(text).find(name), 0))
            raise BridgelawError(f"rule '{rm.id}': formula '{text}' uses unknown name '{name}'", file=doc.file,
                                 line=line, column=col, expected=conditions.facts_hint(allowed),
                                 suggestion=did_you_mean(name, allowed))
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
    """rules/ inside an installed wheel (bridgelaw/rules), else the checkout's top-level rules/."""
    here = Path(__file__).resolve().parent
    packaged = here / "rules"
    return packaged if packaged.is_dir() else here.parent / "rules"


def available(directory: Path | None = None) -> dict[str, Path]:
    directory = directory or rules_dir()
    return {p.stem: p for p in sorted(directory.glob("*.yaml"))}


_cache: dict[tuple, Rulebook] = {}


def get(name: str, directory: Path | None = None, *, path_ok: bool = False) -> Rulebook:
    """A shipped rulebook by id, loaded once per process. A path to a rulebook file only with
    `path_ok` (``--rulebook PATH`` on the command line): a case or traveller names an id."""
    known = available(directory)
    path = known.get(name)
    looks_like_path = name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name
    if path is None and path_ok and looks_like_path:
        problem = too_long_name(name)
        if problem:
            raise BridgelawError(f"--rulebook: {problem}")
        path = Path(name)
        if not path.exists():
            raise BridgelawError(f"no such rulebook file: {name}")
    if path is None:
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise BridgelawError(f"unknown rulebook '{shown}'", expected="one of " + ", ".join(known),
                             suggestion=("a file names its rulebook by id; to try a rulebook file, pass "
                                         "--rulebook PATH on the command line") if looks_like_path
                             else did_you_mean(name[:100], known))
    key = (str(path.resolve()), path.stat().st_mtime, tuple(p.stat().st_mtime for p in known.values()))
    if key not in _cache:
        _cache[key] = load(path)
    return _cache[key]
