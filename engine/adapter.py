"""The one module that talks to durable_rules.

A :class:`StageEvaluator` holds one compiled durable_rules ruleset for one stage of one
rulebook, created once per process and kept (durable_rules frees almost nothing when a ruleset
is deleted). :meth:`StageEvaluator.applicable` asserts the stage's facts as a *fact* (an event
would fire only the first matching rule), collects every rule that fired, and retracts the
fact again.

Numbers: durable_rules compares C doubles, so exact values are never handed over as floats.
Every numeric fact — and every constant a condition mentions, which the compiler lifts out of
the ruleset into a field of the fact — is multiplied by one common denominator and passed as
an integer; comparisons between them are then exact (1/3 + 2/3 equals 1).

The C extension is driven directly (create_ruleset / assert_fact / start_action /
complete_and_start_action / retract_fact); the default Host and its threads are not used.
Calls on one ruleset are serialised with a lock.
"""

from __future__ import annotations

import itertools
import json
import threading
from fractions import Fraction
from typing import Any

import durable_rules_engine as _engine

from . import conditions as c
from . import limits
from .exact import format_mixed, lcm_of_denominators

MARKER = "bl_stage"          # every fact carries it; every rule requires it
NEVER = {"$ex": {"bl_never": 1}}   # no fact has this field: a condition that cannot hold
_LIMIT = 2**53               # integers up to this are exact as doubles
_ids = itertools.count(1)


class _Compiler:
    def __init__(self) -> None:
        self.constants: dict[Fraction, str] = {}

    def field_for(self, value: Fraction) -> str:
        if value not in self.constants:
            self.constants[value] = f"bl_k{len(self.constants)}"
        return self.constants[value]

    def compile(self, cond: c.Condition, negate: bool = False) -> dict | None:
        """durable_rules JSON for `cond` (negated when asked); None means 'always true'."""
        match cond:
            case c.Always():
                return NEVER if negate else None
            case c.Not(item):
                return self.compile(item, not negate)
            case c.All(items) | c.Any_(items):
                conj = isinstance(cond, c.All) != negate  # De Morgan
                parts = [self.compile(i, negate) for i in items]
                if conj:
                    if NEVER in parts:
                        return NEVER
                    parts = [p for p in parts if p is not None]
                    return {"$and": parts} if parts else None
                if any(p is None for p in parts):
                    return None
                parts = [p for p in parts if p != NEVER]
                return {"$or": parts} if parts else NEVER
            case c.Compare(op, left, right):
                op = c.NEGATED[op] if negate else op
                if not isinstance(left, c.Name):
                    left, right, op = right, left, c.FLIPPED[op]
                assert isinstance(left, c.Name)
                if isinstance(right, c.Word):
                    return {left.name: right.word} if op == "eq" else {"$neq": {left.name: right.word}}
                target = right.name if isinstance(right, c.Name) else self.field_for(right.value)
                key = {"lt": "$lt", "le": "$lte", "eq": "$eq", "ne": "$neq", "ge": "$gte", "gt": "$gt"}[op]
                return {key: {left.name: {"$m": target}}}
            case c.Is(name, value):
                return {name: int(value != negate)}
            case c.In(name, words):
                if negate:
                    return {"$and": [{"$neq": {name: w}} for w in words]}
                return {"$or": [{name: w} for w in words]} if len(words) > 1 else {name: words[0]}
            case c.Given(name):
                return {"$nex" if negate else "$ex": {name: 1}}
        raise TypeError(cond)


class StageLimitError(ValueError):
    """A stage's rules go beyond what durable_rules can hold (see bridgelaw.limits); `rule_id`
    is the rule that crosses the limit."""

    def __init__(self, message: str, rule_id: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.rule_id = rule_id


def _tests(compiled: Any) -> int:
    """The number of tests in a compiled condition (each a node of durable_rules' network)."""
    count, todo = 0, [compiled]
    while todo:
        item = todo.pop()
        if isinstance(item, dict) and len(item) == 1 and next(iter(item)) in ("$and", "$or"):
            todo.extend(next(iter(item.values())))
        else:
            count += 1
    return count


def stage_problem(label: str, rules: list[tuple[str, c.Condition]]) -> StageLimitError | None:
    """Why durable_rules could not hold these rules as one stage (None when it can): too many
    rules, tests or fact fields (facts compared plus distinct constants). Measured limits: a
    network node with 512 children hangs, a fact of 255 fields is refused (docs/limits.md)."""
    compiler = _Compiler()
    names: set[str] = set()
    tests = 0
    for n, (rule_id, cond) in enumerate(rules, start=1):
        if n > limits.MAX_STAGE_RULES:
            return StageLimitError(f"stage {label} has more than {limits.MAX_STAGE_RULES} rules, more than the "
                                   "rule engine can hold", rule_id)
        body = compiler.compile(cond)
        tests += 1 + (_tests(body) if body is not None else 0)
        if tests > limits.MAX_STAGE_TESTS:
            return StageLimitError(f"stage {label}'s conditions have more than {limits.MAX_STAGE_TESTS} tests in "
                                   "all, more than the rule engine can hold", rule_id)
        names |= c.names(cond)
        if len(names) + len(compiler.constants) + 3 > limits.MAX_FACT_FIELDS:
            return StageLimitError(f"stage {label} compares more than {limits.MAX_FACT_FIELDS - 3} facts and distinct "
                                   "numbers, more than the rule engine can hold", rule_id)
    return None


class StageEvaluator:
    """One stage's rules compiled into one durable_rules ruleset."""

    def __init__(self, label: str, rules: list[tuple[str, c.Condition]], vocab: c.Vocabulary) -> None:
        problem = stage_problem(label, rules)
        if problem is not None:
            raise problem
        self.label = label
        self.vocab = vocab
        self.rules = rules
        self.order = [rule_id for rule_id, _ in rules]
        compiler = _Compiler()
        definition: dict[str, Any] = {}
        for rule_id, cond in rules:
            body = compiler.compile(cond)
            parts = [{MARKER: 1}] + ([body] if body is not None else [])
            definition[rule_id] = {"all": [{"m": {"$and": parts}}]}
        self.constants = compiler.constants
        self.definition = definition
        self.needed = set().union(*(c.names(cond) for _, cond in rules)) if rules else set()
        self._name = f"bridgelaw{next(_ids)}"
        try:
            self._handle = _engine.create_ruleset(self._name, json.dumps(definition))
        except Exception as exc:        # noqa: BLE001 — the extension raises plain errors with a code
            raise StageLimitError(f"the rule engine refuses stage {label}'s rules ({exc})", None) from None
        self._lock = threading.Lock()

    def encode(self, facts: dict[str, Any]) -> dict[str, Any]:
        """The JSON fact — only the facts some rule mentions: words as text, yes/no as 1/0,
        numbers scaled to exact integers."""
        facts = {k: v for k, v in facts.items() if k in self.needed}
        numbers = {k: Fraction(v) for k, v in facts.items() if self.vocab.get(k) == "number" and v is not None}
        scale = lcm_of_denominators([*numbers.values(), *self.constants])
        largest = max((abs(v) for v in [*numbers.values(), *self.constants]), default=0)
        if largest >= _LIMIT:
            big = max(numbers, key=lambda k: abs(numbers[k]), default=None)
            shown = f"{big} = {limits.short(numbers[big].numerator) if numbers[big].denominator == 1 else 'a fraction'}" \
                if big is not None and abs(numbers[big]) == largest else "a constant of the rules"
            raise ValueError(f"a number is too large to compare exactly ({shown}; at most 2^53)")
        if largest * scale >= _LIMIT:
            finest = max(numbers, key=lambda k: numbers[k].denominator, default=None)
            raise ValueError(f"the numbers are too fine to compare exactly (common denominator {scale}"
                             + (f"; {finest} = {format_mixed(numbers[finest])}" if finest else "")
                             + "): use simpler fractions")
        fact: dict[str, Any] = {MARKER: 1}
        for name, value in facts.items():
            kind = self.vocab.get(name)
            if value is None or kind is None:
                continue
            if kind == "number":
                fact[name] = _int(numbers[name] * scale, name)
            elif kind == "bool":
                fact[name] = int(bool(value))
            else:
                fact[name] = str(value)
        for value, field in self.constants.items():
            fact[field] = _int(value * scale, field)
        return fact

    def applicable(self, facts: dict[str, Any]) -> list[str]:
        """The ids of every rule whose condition holds, in declaration order."""
        fact = self.encode(facts)
        with self._lock:
            fact["id"] = f"f{next(_ids)}"
            fact["sid"] = "0"
            payload = json.dumps(fact)
            try:
                _engine.assert_fact(self._handle, payload)
            except Exception as exc:    # noqa: BLE001 — the extension's errors carry only a code
                raise self._refused(exc, facts) from None
            fired: set[str] = set()
            try:
                result = _engine.start_action(self._handle)
                while result:
                    fired.update(json.loads(result[1]).keys())
                    following = _engine.complete_and_start_action(self._handle, result[2])
                    result = (result[0], following, result[2]) if following else None
            finally:
                _engine.retract_fact(self._handle, payload)
        return [rule_id for rule_id in self.order if rule_id in fired]

    def _refused(self, exc: Exception, facts: dict[str, Any]) -> StageLimitError:
        """The rule engine refused a fact: say which rules match it, wholly or in part (the
        engine keeps a partial match for every rule with a test that holds; error 303 means
        more than 64 of them). The plain evaluator finds them."""
        partly = []
        for rule_id, cond in self.rules:
            for leaf in c.leaves(cond):
                try:
                    if c.evaluate(leaf, facts):
                        partly.append(rule_id)
                        break
                except c.MissingFact:
                    pass
        if "303" in str(exc):
            shown = ", ".join(partly[:5]) + (", …" if len(partly) > 5 else "")
            culprit = partly[limits.MAX_MATCHING] if len(partly) > limits.MAX_MATCHING else None
            return StageLimitError(f"{len(partly)} rules of stage {self.label} match these facts wholly or in part "
                                   f"({shown}); the rule engine handles at most {limits.MAX_MATCHING}"
                                   + (f" (rule '{culprit}' is the {limits.MAX_MATCHING + 1}th)" if culprit else ""),
                                   culprit)
        return StageLimitError(f"the rule engine refused the facts of stage {self.label} ({exc})", None)


def _int(value: Fraction, name: str) -> int:
    assert value.denominator == 1
    number = int(value)
    if abs(number) >= _LIMIT:
        raise ValueError(f"{name} is too large to compare exactly")
    return number
