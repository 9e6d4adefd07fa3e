"""A rulebook resolved for a date: paragraphs, parameters with their dated values, rules."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

from . import conditions, formula
from . import infractions as infr
from . import parameters as params
from . import sources
from .adapter import StageEvaluator, StageLimitError
from ..core.errors import BridgelawError, RulingError, did_you_mean
from ..core.dates import today
from ..core.exact import format_mixed, fraction_parts
from .stages import DECLARED, STAGES, Stage
from ..core.yamlio import Document
from .decide import Decision, closure, resolve

_DECIDED_LIMIT = 4096      # decisions kept per resolved rulebook (the same facts decide the same way)
# Each stage's compiled rules, shared by every rulebook with the same rules, words and label: a rulebook
# made for one request (a program's profile, an overlay, --set) finds the rulesets durable_rules already
# holds instead of making new ones (adapter._Part deletes its ruleset when it is dropped from here).
_SHARED_EVALUATORS: dict[tuple, StageEvaluator] = {}
_SHARED_LIMIT = 256
TEMPLATE = re.compile(r"\{([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)+)\}")   # {artificial.pairs.avg_plus}


@dataclass(frozen=True)
class Paragraph:
    ref: str
    text: str
    source: str | None = None             # the source as one line of text
    confirmed: bool = True
    origin: str = ""                      # the rulebook that defines it
    citation: sources.Citation | None = None
    modelling: str | None = None
    tried: str | None = None              # an unconfirmed text: where its words were looked for

    @property
    def kind(self) -> str:
        """law, regulation, recommendation, guidance, practice, proposal — or modelling / unsourced."""
        return self.citation.document.kind if self.citation else "modelling" if self.modelling else "unsourced"


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
class Bound:
    """What the Law allows a parameter to be (declared by a Laws edition, with the paragraph)."""
    low: Any
    high: Any
    cites: tuple[str, ...]

    def violation(self, name: str, value: Any) -> str | None:
        """Why `value` is outside the bound (a phrase naming the paragraph), or None."""
        law = ", ".join(self.cites)
        if self.low is not None and value < self.low:
            return f"{params.show(value, name)} is below {params.show(self.low, name)}, the least {law} allows"
        if self.high is not None and value > self.high:
            return f"{params.show(value, name)} is above {params.show(self.high, name)}, the most {law} allows"
        return None

    def text(self, name: str) -> str:
        if self.low is not None and self.low == self.high:
            what = f"exactly {params.show(self.low, name)}"
        else:
            what = " and ".join(part for part in (
                f"at least {params.show(self.low, name)}" if self.low is not None else "",
                f"at most {params.show(self.high, name)}" if self.high is not None else "") if part)
        return f"{what} ({', '.join(self.cites)})"


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
    mentions: tuple[str, ...] = ()                      # parameters its explanation shows: {name}

    def option(self, key: str) -> Any:
        """apply.`key` as the rule gives it, else the stage's default for it."""
        return self._options.get(key)

    @cached_property
    def _options(self) -> dict[str, Any]:
        return {**STAGES[self.stage].apply_defaults, **self.apply}

    def explain_for(self, book: "Rulebook") -> str:
        """The explanation with each {parameter} filled with the value in force in `book`."""
        if not self.mentions:
            return self.explain
        return TEMPLATE.sub(lambda m: params.show(book.parameters[m[1]], m[1]) if m[1] in book.parameters
                            else m[0], self.explain)

    @cached_property
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
    bounds: dict[str, Bound] = field(default_factory=dict)     # the Law's bounds on parameters
    effective_source: str | None = None
    documents: dict[str, sources.Document] = field(default_factory=dict)
    parameter_sources: dict[str, sources.ParameterSource] = field(default_factory=dict)
    infractions: dict[str, infr.Empowerment] = field(default_factory=dict)
    words: dict[str, dict[str, str]] = field(default_factory=dict)   # a DECLARED fact → {word: meaning}
    rules: list[Rule] = field(default_factory=list)
    parameters: dict[str, Any] = field(default_factory=dict)
    _evaluators: dict = field(default_factory=dict, repr=False)
    _views: dict = field(default_factory=dict, repr=False)
    _by_stage: dict = field(default_factory=dict, repr=False)
    _beats: dict = field(default_factory=dict, repr=False)
    _by_id: dict = field(default_factory=dict, repr=False)
    _decided: dict = field(default_factory=dict, repr=False)     # (stage, rules that hold) → (overridden, rule)
    _mention: dict = field(default_factory=dict, repr=False)     # (stage, absent facts) → the rules mentioning them
    _by_facts: dict = field(default_factory=dict, repr=False)    # (stage, facts) → decision (_facts_key)
    _in_use: list | None = field(default=None, repr=False)
    _reads: dict = field(default_factory=dict, repr=False)
    _evaluator_of: dict = field(default_factory=dict, repr=False)   # stage → its evaluator (rules in force)
    _with: dict = field(default_factory=dict, repr=False)   # settings → this rulebook with them (with_settings)

    def __post_init__(self) -> None:
        self._by_stage, self._beats, self._by_id, self._decided, self._reads = {}, {}, {}, {}, {}
        self._mention, self._by_facts, self._in_use = {}, {}, None
        self._evaluator_of, self._with = {}, {}
        self.rules = [r for r in self.all_rules if r.in_force(self.as_of)]
        self.parameters = {}
        self._dated_now = {}                # name → the dated value in force (in_force, read at every parameter read)
        for name, values in self.dated.items():
            for d in values:
                if d.covers(self.as_of):
                    self.parameters[name] = d.value
                    self._dated_now.setdefault(name, d)

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
        day = day or today()
        if day < self.effective_from:
            raise BridgelawError(f"rulebook {self.id} is in force from {self.effective_from.isoformat()}; "
                                 f"{day.isoformat()} is earlier", expected=f"a date from {self.effective_from.isoformat()}")
        if self.effective_until and day > self.effective_until:
            return self.effective_until
        return day

    @property
    def period(self) -> str:
        """``from 2008-09-08 to 2017-09-24`` (or ``from 2017-03-01`` while in force)."""
        end = f" to {self.effective_until.isoformat()}" if self.effective_until else ""
        return f"from {self.effective_from.isoformat()}{end}"

    def covers(self, day: dt.date) -> bool:
        """Whether `day` is within the rulebook's period."""
        return self.effective_from <= day and (self.effective_until is None or day <= self.effective_until)

    def in_force(self, name: str) -> Dated | None:
        """The dated value of parameter `name` in force on this rulebook's date."""
        return self._dated_now.get(name)

    def dated_in_use(self) -> list[tuple[str, Dated]]:
        """The parameter values in force that have more than one dated value (worked out once:
        a resolved rulebook does not change)."""
        if self._in_use is None:
            self._in_use = [(name, d) for name, values in self.dated.items() if len(values) > 1
                            for d in values if d.covers(self.as_of)]
        return self._in_use

    # --- rules ------------------------------------------------------------------------------

    def rules_for(self, stage: str) -> list[Rule]:
        if stage not in self._by_stage:
            self._by_stage[stage] = [r for r in self.rules if r.stage == stage]
        return self._by_stage[stage]

    def rule(self, rule_id: str) -> Rule:
        if not self._by_id:
            self._by_id = {r.id: r for r in self.all_rules}
        if rule_id in self._by_id:
            return self._by_id[rule_id]
        raise BridgelawError(f"rulebook {self.id} has no rule '{rule_id}'",
                             suggestion=did_you_mean(rule_id, [r.id for r in self.all_rules]))

    def vocabulary(self, stage: Stage) -> conditions.Vocabulary:
        vocab = {name: tuple(self.words.get(name, ())) if kind == DECLARED else kind
                 for name, kind in stage.facts.items()}
        vocab.update({name: params.vocabulary_kind(name) for name in self.dated})
        return vocab

    def evaluator(self, stage_id: str) -> StageEvaluator:
        found = self._evaluator_of.get(stage_id)
        if found is not None:
            return found
        rules = self.rules_for(stage_id)
        key = (stage_id, tuple(r.id for r in rules))
        if key not in self._evaluators:
            label, conditions = f"{self.id}/{stage_id}", tuple((r.id, r.condition) for r in rules)
            vocab = self.vocabulary(STAGES[stage_id])
            shared = (label, conditions, tuple(sorted(vocab.items())))
            found = _SHARED_EVALUATORS.get(shared)
            if found is None:
                if len(_SHARED_EVALUATORS) >= _SHARED_LIMIT:
                    _SHARED_EVALUATORS.pop(next(iter(_SHARED_EVALUATORS)))
                found = _SHARED_EVALUATORS[shared] = StageEvaluator(label, list(conditions), vocab)
            self._evaluators[key] = found
        self._evaluator_of[stage_id] = self._evaluators[key]
        return self._evaluators[key]

    def beats(self, rule_id: str) -> frozenset[str]:
        """The rules `rule_id` overrides, directly or transitively."""
        if rule_id not in self._beats:
            self._beats[rule_id] = closure(rule_id, lambda r: self._overrides.get(r, ()))
        return self._beats[rule_id]

    @cached_property
    def _overrides(self) -> dict[str, tuple[str, ...]]:
        return {r.id: r.overrides for r in self.all_rules}

    def decide(self, stage_id: str, facts: dict[str, Any]) -> Rule | None:
        """The rule of `stage_id` that applies to `facts` (see :meth:`decision`)."""
        return self.decision(stage_id, facts).rule

    def decision(self, stage_id: str, facts: dict[str, Any]) -> Decision:
        """What stage `stage_id` decides on `facts`: durable_rules says which conditions hold,
        :func:`decide.resolve` applies the exceptions and the hit policy.

        A fact a rule needs but the case lacks, several applicable rules, or — in a ``unique``
        stage — none, is a RulingError naming the rules and the facts. An ``optional`` stage
        with no applicable rule decides None.

        durable_rules is not asked again what it has answered: the stage's index
        (:class:`~.adapter.Index`) reads which rules hold off the compiled conditions, and the
        first time a set of held rules is seen durable_rules is asked and must agree; the
        decision for that set (the exceptions, the rule that applies) is then kept. An index that
        ever disagrees is dropped and durable_rules decides that stage from then on.
        """
        key = _facts_key(stage_id, facts)
        if key is not None:
            found = self._by_facts.get(key)
            if found is not None:           # the same facts: the same decision (it is not changed)
                return found
        ev = self._evaluator_of.get(stage_id) or self.evaluator(stage_id)
        index = ev.index
        if index is None:
            return self._decision(stage_id, facts)
        try:
            held, absent = index.read(facts, self.parameters)
        except ValueError as exc:
            self._check_given(stage_id, ev, facts)          # a missing fact is said first, as durable_rules' path does
            raise RulingError(f"{self.id}, stage {stage_id}: {exc}") from None
        if absent:
            self._check_given(stage_id, ev, facts)
        known = self._decided.get((stage_id, held))
        if known is None:
            decision = self._decision(stage_id, facts)
            if decision.held != held:       # the index is wrong about this stage: durable_rules decides,
                ev.index = None             # and nothing the index answered is kept
                self._decided.clear()
                self._by_facts.clear()
                return decision
            if len(self._decided) >= _DECIDED_LIMIT:
                self._decided.clear()
            known = self._decided[(stage_id, held)] = (decision.overridden, decision.rule)
        else:
            decision = Decision(stage_id, dict(facts), held, *known)
        if key is not None:
            if len(self._by_facts) >= _DECIDED_LIMIT:
                self._by_facts.clear()
            self._by_facts[key] = decision
        return decision

    def forget_facts(self) -> None:
        """Forget the decisions kept by the facts they were asked with (a case never seen finds none);
        those kept by the set of rules that hold stay (a rulebook's snapshot carries them)."""
        self._by_facts.clear()

    def forget_decisions(self) -> None:
        """Forget the decisions durable_rules gave (benchmarks measure rulings with nothing known)."""
        self._decided.clear()
        self._by_facts.clear()

    def prepare(self) -> None:
        """Decide, in every stage, the inputs the lint searches (rulebook/lint.py: every word and
        yes/no value, each number on, between and beside the constants): the decision for each
        set of rules that can hold is then known before the first ruling asks (a snapshot keeps
        them: rulebook/snapshot.py)."""
        from .lint import inputs
        for stage_id, stage in STAGES.items():
            if not self.rules_for(stage_id):
                continue
            for facts in inputs(stage, self):
                try:
                    self.decision(stage_id, facts)
                except (RulingError, StageLimitError):
                    continue

    def _check_given(self, stage_id: str, ev: StageEvaluator, facts: dict[str, Any]) -> None:
        """A rule that needs a fact neither the case nor the parameters give is an error naming
        both (the plain evaluator finds which rules need it; only the rules that mention an
        absent fact are evaluated)."""
        parameters = self.parameters
        absent = tuple(name for name in ev.needed_names
                       if (facts[name] if name in facts else parameters.get(name)) is None)
        if not absent:
            return
        key = (stage_id, absent)
        rules = self._mention.get(key)
        if rules is None:
            missing = set(absent)
            rules = self._mention[key] = [r for r in self.rules_for(stage_id) if r.names & missing]
        merged = {**parameters, **facts}
        for rule in rules:
            try:
                conditions.evaluate(rule.condition, merged)
            except conditions.MissingFact as missing:
                raise RulingError(
                    f"rule '{rule.id}' ({self.id}, stage {stage_id}) needs the fact '{missing.name}', "
                    f"which this case does not give", suggestion=f"facts given: {facts_text(merged)}",
                ) from None

    def _decision(self, stage_id: str, facts: dict[str, Any]) -> Decision:
        """The decision as durable_rules gives it, nothing known beforehand."""
        given_facts = dict(facts)
        rules = self.rules_for(stage_id)
        self._check_given(stage_id, self.evaluator(stage_id), facts)
        facts = {**self.parameters, **facts}
        try:
            held = self.evaluator(stage_id).applicable(facts)
        except ValueError as exc:
            raise RulingError(f"{self.id}, stage {stage_id}: {exc}") from None
        res = resolve(STAGES[stage_id], held, self.beats)
        if res.problem is not None:
            what = "no rule applies" if not res.winners else f"{len(res.winners)} rules apply ({', '.join(res.winners)})"
            raise RulingError(
                f"{self.id}, stage {stage_id}: {what}; exactly one must",
                expected=f"one of {', '.join(r.id for r in rules)}",
                suggestion=f"facts: {facts_text(facts)}",
            )
        rule = self.rule(res.winners[0]) if res.winners else None
        return Decision(stage_id, given_facts, tuple(held), res.overridden, rule)

    def summary(self) -> dict[str, Any]:
        """The rulebook as `bridgelaw rulebooks --format json` (and the web API) list it."""
        return {"id": self.id, "title": self.title, "authority": self.authority, "version": self.version,
                "extends": self.extends,
                "effective": {"from": self.effective_from.isoformat(),
                              "until": self.effective_until.isoformat() if self.effective_until else None},
                "rules": len(self.all_rules), "sha256": self.sha256, "sourced": sources.report(self).as_dict(),
                "calendar": self.calendar()}

    def calendar(self) -> list[dict[str, Any]]:
        """Where and when the bodies of rules/calendar.yaml ruled under this rulebook: each entry naming it."""
        from . import calendar
        return [{"body": body, **entry.as_json()} for body, entry in calendar.periods_of(self.id)]

    @property
    def identity(self) -> dict[str, Any]:
        return {"id": self.id, "version": self.version, "sha256": self.sha256,
                "extends": self.chain[:-1], "as_of": self.as_of.isoformat()}

    # --- what-if ----------------------------------------------------------------------------

    def with_settings(self, settings: list[str]) -> "Rulebook":
        """This rulebook with `--set NAME=VALUE` changes (a what-if; no file changes). The same
        settings give the same rulebook object (a season's files each ask: its decisions are kept)."""
        key = tuple(settings)
        known = self._with.get(key)
        if known is not None:
            return known
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
            bound = self.bounds.get(name)
            why = bound.violation(name, raw[name]) if bound else None
            if why:
                raise BridgelawError(f"--set {name}={value}: {why}", expected=f"{name} {bound.text(name)}")
        dated = dict(self.dated)
        for name, value in raw.items():
            dated[name] = [Dated(value, None, None, (), Place("--set on the command line"))]
        text = "\n".join(sorted(settings))
        if len(self._with) >= 64:
            self._with.clear()
        made = self._with[key] = self._derived(dated=dated, suffix="+set", extra=text)
        return made

    def _derived(self, *, dated: dict[str, list[Dated]], suffix: str, extra: str) -> "Rulebook":
        return dataclasses.replace(self, id=self.id + suffix, dated=dated, sha256=_hash(self.sha256, extra),
                                   _evaluators={}, _views={}, rules=[], parameters={})


def _facts_key(stage_id: str, facts: dict[str, Any]) -> tuple | None:
    """A key equal only for the same facts of the same types: names, and values that are text,
    yes/no, None or Fractions (by numerator and denominator; hashing a Fraction costs more than
    reading which rules hold). None for any other value (an int equals True, and is not kept)."""
    key: list[Any] = [stage_id]
    for name, value in facts.items():
        kind = type(value)
        if kind is Fraction:
            key += (name, fraction_parts(value))
        elif kind is str or kind is bool or value is None:
            key += (name, value)
        else:
            return None
    return tuple(key)


def facts_text(facts: dict[str, Any]) -> str:
    def show(v: Any) -> str:
        return format_mixed(v) if isinstance(v, Fraction) else str(v).lower() if isinstance(v, bool) else str(v)
    return ", ".join(f"{k}={show(v)}" for k, v in facts.items() if v is not None)


def _short(file: str) -> str:
    """A file name as ``rules/…`` when it is a shipped rulebook (never the folder bridgelaw is installed
    in: a web page shows it), else relative to the working folder when it lies inside it."""
    from .files import rules_dir
    path = Path(file).resolve()
    shipped = rules_dir().resolve()
    if path.is_relative_to(shipped):
        return str(Path("rules") / path.relative_to(shipped))
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return file


def _hash(*parts: str) -> str:
    """sha256 of a file's text; of a chain, sha256 over the base's hash and each layer's text."""
    if len(parts) == 1:
        return hashlib.sha256(parts[0].encode("utf-8")).hexdigest()
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


