"""The one module that talks to durable_rules.

A :class:`StageEvaluator` holds the compiled durable_rules rulesets for one stage of one
rulebook — one, or for a large stage several, each inside durable_rules' limits — created once
per process and kept (durable_rules frees almost nothing when a ruleset is deleted). :meth:`StageEvaluator.applicable` asserts the stage's facts as a *fact* (an event
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

import bisect
import itertools
import json
import math
import threading
from fractions import Fraction
from typing import Any

import durable_rules_engine as _engine

from . import conditions as c
from ..core import limits
from ..core.exact import format_mixed, lcm_of_denominators

MARKER = "bl_stage"          # every fact carries it; every rule requires it
NEVER = {"$ex": {"bl_never": 1}}   # no fact has this field: a condition that cannot hold
_LIMIT = 2**53               # integers up to this are exact as doubles
_SCALE = " scale"           # (not a fact name) the common denominator, while a fact is encoded
_ids = itertools.count(1)
_NONE: dict[str, Any] = {}


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
    """A stage's rules go beyond what durable_rules can hold (see bridgelaw.core.limits); `rule_id`
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


def _paths(compiled: Any) -> int:
    """How many matches a compiled condition can hold for one fact: durable_rules keeps one per
    rule, and a rule with an $or one per branch (it fires once per true branch)."""
    if isinstance(compiled, dict) and len(compiled) == 1:
        key, value = next(iter(compiled.items()))
        if key == "$or":
            return sum(_paths(v) for v in value)
        if key == "$and":
            return math.prod(_paths(v) for v in value)
    return 1


# A stage's rules are partitioned, in declaration order, into rulesets that stay inside what
# durable_rules can hold (bridgelaw.core.limits, measured: 512 rules under one node hang it, a fact of
# 255 fields is refused with error 302, more than 64 rules matching a fact wholly or in part with
# error 303). Every ruleset is asserted the stage's fact — only the fields its rules mention — and
# what fired is merged, so the answer is exactly the one a single ruleset would give, and a
# stage may hold up to limits.MAX_STAGE_RULES rules.
PATHS_PER_RULESET = limits.MAX_MATCHING            # matches one fact can hold in one ruleset (64)
FIELDS_PER_RULESET = limits.MAX_FACT_FIELDS // 2   # facts and lifted constants of one ruleset (120)
TESTS_PER_RULESET = limits.MAX_STAGE_TESTS * 4 // 5   # tests of one ruleset (400)


def stage_problem(label: str, rules: list[tuple[str, c.Condition]]) -> StageLimitError | None:
    """Why durable_rules could not hold these rules as one stage (None when it can): more rules
    than a stage may have, or one rule that alone would not fit a ruleset (too many fact fields or
    tests). Larger stages are partitioned (see StageEvaluator), so only these remain."""
    compiler = _Compiler()
    for n, (rule_id, cond) in enumerate(rules, start=1):
        if n > limits.MAX_STAGE_RULES:
            return StageLimitError(f"stage {label} has more than {limits.MAX_STAGE_RULES:,} rules, more than the "
                                   "rule engine can hold", rule_id)
        body = compiler.compile(cond)
        if 1 + (_tests(body) if body is not None else 0) > limits.MAX_STAGE_TESTS:
            return StageLimitError(f"rule {rule_id} of stage {label} has more than {limits.MAX_STAGE_TESTS} tests, "
                                   "more than the rule engine can hold", rule_id)
        if len(c.names(cond)) + len(c.constants(cond)) + 3 > limits.MAX_FACT_FIELDS:
            return StageLimitError(f"rule {rule_id} of stage {label} compares more than {limits.MAX_FACT_FIELDS - 3} "
                                   "facts and distinct numbers, more than the rule engine can hold", rule_id)
    return None


class _Part:
    """One ruleset of a stage: some of its rules, the facts and lifted constants they mention."""

    def __init__(self, name: str, label: str, definition: dict[str, Any], fields: set[str], constants: set[str]) -> None:
        self.name, self.definition = name, definition
        self.facts = tuple(sorted(fields - constants))
        self.constants = tuple(sorted(constants))
        try:
            self.handle = _engine.create_ruleset(name, json.dumps(definition))
        except Exception as exc:        # noqa: BLE001 — the extension raises plain errors with a code
            raise StageLimitError(f"the rule engine refuses stage {label}'s rules ({exc})", None) from None


class StageEvaluator:
    """One stage's rules compiled into durable_rules rulesets (one, unless the stage is large)."""

    def __init__(self, label: str, rules: list[tuple[str, c.Condition]], vocab: c.Vocabulary) -> None:
        problem = stage_problem(label, rules)
        if problem is not None:
            raise problem
        self.label = label
        self.vocab = vocab
        self.rules = rules
        self.order = [rule_id for rule_id, _ in rules]
        compiler = _Compiler()
        groups: list[tuple[dict[str, Any], set[str], int, int]] = []     # (definition, fields, tests, paths)
        for rule_id, cond in rules:
            body = compiler.compile(cond)
            parts = [{MARKER: 1}] + ([body] if body is not None else [])
            fields = set(c.names(cond)) | {compiler.constants[k] for k in c.constants(cond) if k in compiler.constants}
            tests, paths = 1 + (_tests(body) if body is not None else 0), _paths(body)
            if groups:
                definition, used, count, held = groups[-1]
                if (held + paths <= PATHS_PER_RULESET and len(used | fields) <= FIELDS_PER_RULESET
                        and count + tests <= TESTS_PER_RULESET):
                    definition[rule_id] = {"all": [{"m": {"$and": parts}}]}
                    groups[-1] = (definition, used | fields, count + tests, held + paths)
                    continue
            groups.append(({rule_id: {"all": [{"m": {"$and": parts}}]}}, fields, tests, paths))
        self.constants = compiler.constants
        self.definition = {k: v for definition, *_ in groups for k, v in definition.items()}
        self.needed = set().union(*(c.names(cond) for _, cond in rules)) if rules else set()
        lifted = set(self.constants.values())
        base = f"bridgelaw{next(_ids)}"
        self.parts = [_Part(f"{base}.{i}", label, definition, fields, fields & lifted)
                      for i, (definition, fields, *_) in enumerate(groups)]
        # the constants, scaled once per common denominator (not on every fact)
        self._constants_lcm = lcm_of_denominators(self.constants)
        self._constants_max = max((abs(v) for v in self.constants), default=Fraction(0))
        self._scaled: dict[int, tuple[dict[str, int], list[str]]] = {}
        self._kinds = {name: vocab[name] for name in sorted(self.needed) if vocab.get(name) is not None}
        self._numbers = tuple(name for name, kind in self._kinds.items() if kind == "number")
        self._others = tuple(name for name, kind in self._kinds.items() if kind != "number")
        self._cuts: dict[int, list[int]] = {}
        self._lock = threading.Lock()

    def _scaled_constants(self, scale: int) -> tuple[dict[str, int], list[str]]:
        """The constants scaled by `scale` (worked out once per scale): as a dict, and as each
        ruleset's share of the JSON fact (text, spliced into every fact asserted there)."""
        scaled = self._scaled.get(scale)
        if scaled is None:
            if len(self._scaled) >= 64:
                self._scaled.clear()
            values = {field: _int(value * scale, field) for value, field in self.constants.items()}
            texts = [json.dumps({k: values[k] for k in part.constants})[1:-1] for part in self.parts]
            scaled = self._scaled[scale] = (values, texts)
        return scaled

    def encode(self, facts: dict[str, Any]) -> dict[str, Any]:
        """The JSON fact — only the facts some rule mentions: words as text, yes/no as 1/0,
        numbers scaled to exact integers."""
        fact = self._facts(facts)
        fact.update(self._scaled_constants(fact.pop(_SCALE))[0])
        return fact

    def _facts(self, facts: dict[str, Any], defaults: dict[str, Any] = _NONE) -> dict[str, Any]:
        """The fact without the constants; the common denominator under the key _SCALE.
        Numbers stay integers (numerator, denominator) — no Fraction arithmetic per fact.
        A name `facts` does not have is looked up in `defaults` (the rulebook's parameters)."""
        fact: dict[str, Any] = {MARKER: 1}
        numbers: list[tuple[str, int, int]] = []
        scale = self._constants_lcm
        for name, kind in self._kinds.items():
            value = facts[name] if name in facts else defaults.get(name)
            if value is None:
                continue
            if kind == "number":
                if type(value) is int:
                    numbers.append((name, value, 1))
                    continue
                if type(value) is not Fraction:
                    value = Fraction(value)
                d = value.denominator
                numbers.append((name, value.numerator, d))
                if scale % d:
                    scale = scale * d // math.gcd(scale, d)
            elif kind == "bool":
                fact[name] = 1 if value else 0
            else:
                fact[name] = str(value)
        if self._constants_max * scale >= _LIMIT:
            self._refuse(numbers, scale)
        for name, n, d in numbers:
            scaled = n * (scale // d)
            if not -_LIMIT < scaled < _LIMIT:
                self._refuse(numbers, scale)
            fact[name] = scaled
        fact[_SCALE] = scale
        return fact

    def _refuse(self, numbers: list[tuple[str, int, int]], scale: int) -> None:
        """Why numbers cannot be compared exactly as doubles: one too large, or the common
        denominator too fine (raised as ValueError)."""
        values = {name: Fraction(n, d) for name, n, d in numbers}
        if self._constants_max >= _LIMIT or any(abs(v) >= _LIMIT for v in values.values()):
            big = max(values, key=lambda k: abs(values[k]), default=None)
            shown = "a constant of the rules"
            if big is not None and abs(values[big]) >= self._constants_max:
                v = values[big]
                shown = f"{big} = {limits.short(v.numerator) if v.denominator == 1 else 'a fraction'}"
            raise ValueError(f"a number is too large to compare exactly ({shown}; at most 2^53)")
        finest = max(values, key=lambda k: values[k].denominator, default=None)
        raise ValueError(f"the numbers are too fine to compare exactly (common denominator {scale}"
                         + (f"; {finest} = {format_mixed(values[finest])}" if finest else "")
                         + "): use simpler fractions")

    def pattern(self, facts: dict[str, Any], defaults: dict[str, Any] = _NONE) -> tuple:
        """A key that is the same for any two fact sets this stage decides alike.

        The condition language compares numbers only with each other and with constants (lt, le,
        eq, ne, ge, gt; no arithmetic), so which rules hold — and which facts a rule finds
        missing — depends on the numbers only through their order: where each lies among the
        stage's constants, and how the numbers of the fact set rank among themselves. The key is
        that order, with the words and yes/no values as given and None for each fact not given.
        Facts :meth:`applicable` would refuse (too large, too fine) are refused here alike.
        A name `facts` does not have is looked up in `defaults` (the rulebook's parameters)."""
        if not self._numbers:                   # words and yes/no only: the values as encoded
            key = []
            for name, kind in self._kinds.items():
                value = facts[name] if name in facts else defaults.get(name)
                key.append(None if value is None else int(bool(value)) if kind == "bool" else str(value))
            return tuple(key)
        fact = self._facts(facts, defaults)
        scale = fact.pop(_SCALE)
        cuts = self._cuts.get(scale)
        if cuts is None:
            if len(self._cuts) >= 64:
                self._cuts.clear()
            cuts = self._cuts[scale] = sorted(set(self._scaled_constants(scale)[0].values()))
        values = [fact.get(name) for name in self._numbers]
        present = sorted({v for v in values if v is not None})
        places = []
        for v in values:
            if v is None:
                places.append(None)
                continue
            i = bisect.bisect_left(cuts, v)
            places.append((2 * i + 1 if i < len(cuts) and cuts[i] == v else 2 * i, bisect.bisect_left(present, v)))
        return tuple(fact.get(name) for name in self._others), tuple(places)

    def applicable(self, facts: dict[str, Any]) -> list[str]:
        """The ids of every rule whose condition holds, in declaration order."""
        fact = self._facts(facts)
        _, constants = self._scaled_constants(fact.pop(_SCALE))
        fired: set[str] = set()
        with self._lock:
            for part, constant_text in zip(self.parts, constants):
                one = {k: fact[k] for k in part.facts if k in fact}
                one[MARKER] = 1
                one["id"] = f"f{next(_ids)}"
                one["sid"] = "0"
                payload = json.dumps(one)
                if constant_text:
                    payload = f"{payload[:-1]}, {constant_text}}}"
                try:
                    _engine.assert_fact(part.handle, payload)
                except Exception as exc:    # noqa: BLE001 — the extension's errors carry only a code
                    raise self._refused(exc, facts, part) from None
                try:
                    result = _engine.start_action(part.handle)
                    while result:
                        fired.update(json.loads(result[1]).keys())
                        following = _engine.complete_and_start_action(part.handle, result[2])
                        result = (result[0], following, result[2]) if following else None
                finally:
                    _engine.retract_fact(part.handle, payload)
        return [rule_id for rule_id in self.order if rule_id in fired]

    def _refused(self, exc: Exception, facts: dict[str, Any], part: _Part) -> StageLimitError:
        """The rule engine refused a fact: say which rules of the ruleset match it, wholly or in
        part (the engine keeps a partial match for every rule with a test that holds — one for
        each branch of an any; error 303 means more than 64). The plain evaluator finds them."""
        partly = []
        for rule_id, cond in self.rules:
            if rule_id not in part.definition:
                continue
            for leaf in c.leaves(cond):
                try:
                    if c.evaluate(leaf, facts):
                        partly.append(rule_id)
                        break
                except c.MissingFact:
                    pass
        if "303" in str(exc) and len(part.definition) == 1:
            rule_id = next(iter(part.definition))
            return StageLimitError(f"rule '{rule_id}' of stage {self.label} matches these facts, wholly or in part, "
                                   f"in more than {limits.MAX_MATCHING} ways at once (one for each branch of an any "
                                   f"that holds); the rule engine handles at most {limits.MAX_MATCHING}", rule_id)
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
