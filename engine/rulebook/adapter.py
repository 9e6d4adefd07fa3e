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


from . import conditions as c
from ..core import limits
from ..core.exact import format_mixed, fraction_parts, lcm_of_denominators

MARKER = "bl_stage"          # every fact carries it; every rule requires it
NEVER = {"$ex": {"bl_never": 1}}   # no fact has this field: a condition that cannot hold
_LIMIT = 2**53               # integers up to this are exact as doubles
_SCALE = " scale"           # (not a fact name) the common denominator, while a fact is encoded
_ids = itertools.count(1)
_NONE: dict[str, Any] = {}
_engine: Any = None          # durable_rules' C extension, imported when a ruleset is first made


def _rule_engine() -> Any:
    global _engine
    if _engine is None:
        import durable_rules_engine
        _engine = durable_rules_engine
    return _engine


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
    """One ruleset of a stage: some of its rules, the facts and lifted constants they mention.
    The ruleset is made in durable_rules when first asserted into (a ruling whose decisions are all
    known — see :class:`Index` — makes none)."""

    def __init__(self, name: str, label: str, definition: dict[str, Any], fields: set[str], constants: set[str]) -> None:
        self.name, self.label, self.definition = name, label, definition
        self.facts = tuple(sorted(fields - constants))
        self.constants = tuple(sorted(constants))
        self._handle: Any = None

    @property
    def handle(self) -> Any:
        if self._handle is None:
            try:            # named when made: a ruleset's name is unique in the process
                self._handle = _rule_engine().create_ruleset(f"{self.name}.{next(_ids)}", json.dumps(self.definition))
            except Exception as exc:        # noqa: BLE001 — the extension raises plain errors with a code
                raise StageLimitError(f"the rule engine refuses stage {self.label}'s rules ({exc})", None) from None
        return self._handle

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_handle": None}      # a ruleset lives in this process only

    def __del__(self) -> None:
        # durable_rules keeps a ruleset until it is deleted: a rulebook made for one request (a
        # program's profile, an overlay, --set) would otherwise leave about 1 MB behind each time
        handle, self._handle = self._handle, None
        if handle is not None and _engine is not None:
            try:
                _engine.delete_ruleset(handle)
            except Exception:               # noqa: BLE001 — at interpreter exit the extension may be gone
                pass


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
        self.needed_names = tuple(sorted(self.needed))
        lifted = set(self.constants.values())
        base = f"bridgelaw{next(_ids)}"
        self.parts = [_Part(f"{base}.{i}", label, definition, fields, fields & lifted)
                      for i, (definition, fields, *_) in enumerate(groups)]
        # the constants, scaled once per common denominator (not on every fact)
        self._constants_lcm = lcm_of_denominators(self.constants)
        self._constants_max = max((abs(v) for v in self.constants), default=Fraction(0))
        self._scaled: dict[int, tuple[dict[str, int], list[str]]] = {}
        self._kinds = {name: vocab[name] for name in sorted(self.needed) if vocab.get(name) is not None}
        self._lock = threading.Lock()
        try:
            self.index: Index | None = Index(self)
        except Unindexable:
            self.index = None             # durable_rules decides every fact of this stage

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _lock=threading.Lock())

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
                engine, handle = _rule_engine(), part.handle
                try:
                    engine.assert_fact(handle, payload)
                except Exception as exc:    # noqa: BLE001 — the extension's errors carry only a code
                    raise self._refused(exc, facts, part) from None
                try:
                    result = engine.start_action(handle)
                    while result:
                        fired.update(json.loads(result[1]).keys())
                        following = engine.complete_and_start_action(handle, result[2])
                        result = (result[0], following, result[2]) if following else None
                finally:
                    engine.retract_fact(handle, payload)
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


# --- which rules hold, without a round trip --------------------------------------------------------

_OPS = {"$lt": "lt", "$lte": "le", "$eq": "eq", "$neq": "ne", "$gte": "ge", "$gt": "gt"}
_TRUE_AT = {"lt": lambda s: s < 0, "le": lambda s: s <= 0, "eq": lambda s: s == 0,
            "ne": lambda s: s != 0, "ge": lambda s: s >= 0, "gt": lambda s: s > 0}
_OTHER = object()            # a word no rule of the stage mentions
MAX_BRANCHES = 256           # a rule whose condition expands to more and-branches leaves its stage unindexed


class Unindexable(Exception):
    """A compiled condition the index does not read (durable_rules decides that stage alone)."""


class Index:
    """Which rules of a stage hold for a fact, read off the compiled conditions (the JSON
    durable_rules is given) without asserting anything.

    Each rule's compiled condition is expanded into and-branches of tests. A test looks at one
    fact (a number against a constant, a word or yes/no value, given or not) or at two numbers
    (their order). For each fact the index keeps, for every value that can make a difference —
    for a number, where it lies among the constants it is compared with (below the first, on
    one, between two, …: a binary search on exact integers), for a word or yes/no fact the value,
    and "absent" — the set of branches that value rules out, as one integer bitmask; for each
    pair of numbers compared, the same for their order (−1, 0, 1) and "absent". A fact's branches
    are those not ruled out by any of its values; a rule holds when one of its branches is left.
    A test on an absent fact is false (``$nex`` true). durable_rules agrees wherever the plain
    evaluator needs no absent fact — the facts Rulebook.decision asks about, having refused the
    others first (a rule that needs a fact the case lacks). Where a comparison's right-hand fact
    is absent, durable_rules' own answer varies with the other rules of its ruleset.

    :meth:`held` refuses the facts :meth:`StageEvaluator.applicable` refuses (numbers too large or
    too fine for durable_rules' doubles), alike. Rulebook.decision asks durable_rules the first
    time a set of held rules is seen, and stops using an index that ever disagrees with it.
    """

    def __init__(self, ev: "StageEvaluator") -> None:
        constant_of = {name: value for value, name in ev.constants.items()}
        self.rule_ids = list(ev.order)
        branches: list[tuple[int, list[tuple]]] = []          # (rule index, tests)
        for r, rule_id in enumerate(self.rule_ids):
            body = ev.definition[rule_id]["all"][0]["m"]
            if _paths(body) > MAX_BRANCHES:
                raise Unindexable(f"rule {rule_id}: more than {MAX_BRANCHES} branches")
            branches.extend((r, tests) for tests in _branches(body, constant_of))
        self.branch_rule = [r for r, _ in branches]
        self.everything = (1 << len(branches)) - 1
        kinds = ev._kinds
        by_fact: dict[str, list[tuple[int, tuple]]] = {}
        by_pair: dict[tuple[str, str], list[tuple[int, tuple]]] = {}
        for b, (_, tests) in enumerate(branches):
            for test in tests:
                if test[0] == "pair":
                    by_pair.setdefault((test[1], test[3]), []).append((b, test))
                else:
                    by_fact.setdefault(test[1], []).append((b, test))
        unknown = [name for name in (*by_fact, *(n for pair in by_pair for n in pair)) if name not in kinds]
        if unknown:
            raise Unindexable(f"fact {unknown[0]} has no kind")
        self.numbers: list[tuple[str, int, list[int], list[int], int]] = []   # name, scale, cuts, kills, absent
        self.others: list[tuple[str, bool, dict[Any, int], int, int]] = []    # name, yes/no, kills, other, absent
        for name, tests in by_fact.items():
            if kinds[name] == "number":
                self.numbers.append(_number_dimension(name, tests))
            else:
                self.others.append(_word_dimension(name, tests, kinds[name] == "bool"))
        self.pairs = [(x, y, _pair_kills(tests)) for (x, y), tests in by_pair.items()]
        self.number_names = tuple(n for n, k in kinds.items() if k == "number")
        if set(self.number_names) | {o[0] for o in self.others} != ev.needed:
            raise Unindexable("a fact the rules mention is neither a number nor tested")   # absence unseen
        top = ev._constants_max           # the least common denominator at which a constant passes 2^53
        self._too_fine = -(-_LIMIT * top.denominator // top.numerator) if top else math.inf
        self._lcm = ev._constants_lcm
        self._ev = ev

    def held(self, facts: dict[str, Any], defaults: dict[str, Any] = _NONE) -> tuple[str, ...]:
        """The ids of the rules whose conditions hold, in declaration order (what
        :meth:`StageEvaluator.applicable` returns), or ValueError for numbers durable_rules refuses."""
        return self.read(facts, defaults)[0]

    def read(self, facts: dict[str, Any], defaults: dict[str, Any] = _NONE) -> tuple[tuple[str, ...], bool]:
        """(:meth:`held`, whether a fact some rule mentions is absent)."""
        return self._read(facts, defaults)

    def _read(self, facts: dict[str, Any], defaults: dict[str, Any]) -> tuple[tuple[str, ...], bool]:
        kill, absent_any = 0, False
        if self.number_names:
            numbers: dict[str, tuple[int, int]] = {}
            scale = self._lcm
            biggest = 0
            for name in self.number_names:
                value = facts[name] if name in facts else defaults.get(name)
                if value is None:
                    absent_any = True
                    continue
                if type(value) is int:
                    n, d = value, 1
                else:
                    if type(value) is not Fraction:
                        value = Fraction(value)
                    n, d = fraction_parts(value)
                    if d != 1 and scale % d:
                        scale = scale * d // math.gcd(scale, d)
                numbers[name] = (n, d)
                if n > biggest or -n > biggest:
                    biggest = abs(n)
            if scale >= self._too_fine or biggest * scale >= _LIMIT:
                self._check_range(numbers, scale)
            for name, multiple, cuts, kills, absent in self.numbers:
                found = numbers.get(name)
                if found is None:
                    kill |= absent
                    continue
                n, d = found
                if d == 1:
                    q = n * multiple
                    i = bisect.bisect_left(cuts, q)
                    kill |= kills[2 * i + 1 if i < len(cuts) and cuts[i] == q else 2 * i]
                else:
                    q, r = divmod(n * multiple, d)
                    if r:
                        kill |= kills[2 * bisect.bisect_right(cuts, q)]
                    else:
                        i = bisect.bisect_left(cuts, q)
                        kill |= kills[2 * i + 1 if i < len(cuts) and cuts[i] == q else 2 * i]
            for x, y, kills in self.pairs:
                a, b = numbers.get(x), numbers.get(y)
                if a is None or b is None:
                    kill |= kills[3]
                else:
                    left, right = a[0] * b[1], b[0] * a[1]
                    kill |= kills[(left > right) - (left < right) + 1]
        for name, yes_no, kills, other, absent in self.others:
            value = facts[name] if name in facts else defaults.get(name)
            if value is None:
                kill |= absent
                absent_any = True
            else:
                kill |= kills.get((1 if value else 0) if yes_no else str(value), other)
        alive = self.everything & ~kill
        if not alive:
            return (), absent_any
        if not alive & (alive - 1):                      # one branch: the usual case
            return (self.rule_ids[self.branch_rule[alive.bit_length() - 1]],), absent_any
        rules = set()
        branch_rule = self.branch_rule
        while alive:
            low = alive & -alive
            rules.add(branch_rule[low.bit_length() - 1])
            alive ^= low
        ids = self.rule_ids
        return tuple(ids[r] for r in sorted(rules)), absent_any

    def _check_range(self, numbers: dict[str, tuple[int, int]], scale: int) -> None:
        """ValueError when durable_rules could not compare these numbers exactly (as applicable())."""
        if scale >= self._too_fine or any(not -_LIMIT < n * (scale // d) < _LIMIT for n, d in numbers.values()):
            self._ev._refuse([(k, n, d) for k, (n, d) in numbers.items()], scale)


def _branches(node: Any, constant_of: dict[str, Fraction]) -> list[list[tuple]]:
    """The and-branches of a compiled condition: each a list of tests (see Index)."""
    if isinstance(node, dict) and len(node) == 1:
        key, value = next(iter(node.items()))
        if key == "$and":
            out: list[list[tuple]] = [[]]
            for item in value:
                out = [left + right for left in out for right in _branches(item, constant_of)]
            return out
        if key == "$or":
            return [branch for item in value for branch in _branches(item, constant_of)]
        test = _test(key, value, constant_of)
        return [] if test is False else [[]] if test is True else [[test]]
    raise Unindexable(f"unexpected test {node!r}")


def _test(key: str, value: Any, constant_of: dict[str, Fraction]) -> tuple | bool:
    if key in ("$ex", "$nex"):
        (name, _), = value.items()
        if name == "bl_never":                # NEVER: no fact has it
            return key == "$nex"
        return ("given", name, key == "$ex")
    if key in _OPS:
        (name, target), = value.items()
        if isinstance(target, dict):
            (m, other), = target.items()
            if m != "$m":
                raise Unindexable(f"unexpected operand {target!r}")
            if other in constant_of:
                return ("constant", name, _OPS[key], constant_of[other])
            return ("pair", name, _OPS[key], other)
        if key == "$neq" and isinstance(target, str):
            return ("word", name, "ne", target)
        raise Unindexable(f"unexpected comparison {key}: {value!r}")
    if key.startswith("$"):
        raise Unindexable(f"unexpected operator {key}")
    if key == MARKER:
        return True
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return ("word", key, "eq", value)
    raise Unindexable(f"unexpected test {key}: {value!r}")


def _number_dimension(name: str, tests: list[tuple[int, tuple]]) -> tuple[str, int, list[int], list[int], int]:
    """A number fact's places among its constants — 0 below the first, 1 on it, 2 between the
    first and the second, …, 2m above the last — and the branches each place rules out."""
    values = sorted({t[3] for _, t in tests if t[0] == "constant"})
    multiple = lcm_of_denominators(values)
    cuts = [int(v * multiple) for v in values]
    places = 2 * len(values) + 1
    where = {v: i for i, v in enumerate(values)}
    allowed: dict[int, list] = {}          # branch → [low, high, excluded places, present required]
    absent = 0
    for b, test in tests:
        bit = 1 << b
        span = allowed.setdefault(b, [0, places - 1, set()])
        if test[0] == "given":
            if not test[2]:               # "not given": every place of a present number rules it out
                span[0], span[1] = places, -1
            continue
        absent |= bit                     # a comparison with an absent number is false
        _, _, op, value = test
        on = 2 * where[value] + 1         # the place of the constant itself
        low, high = {"lt": (0, on - 1), "le": (0, on), "eq": (on, on), "ne": (0, places - 1),
                     "ge": (on, places - 1), "gt": (on + 1, places - 1)}[op]
        span[0], span[1] = max(span[0], low), min(span[1], high)
        if op == "ne":
            span[2].add(on)
    for b, test in tests:
        if test[0] == "given" and test[2] is True:
            absent |= 1 << b
    toggles: dict[int, int] = {}
    for b, (low, high, excluded) in allowed.items():
        bit = 1 << b
        ranges = [(0, low - 1), (high + 1, places - 1)] if low <= high else [(0, places - 1)]
        ranges += [(p, p) for p in sorted(excluded) if low <= p <= high]
        for start, end in ranges:
            if start <= end:
                toggles[start] = toggles.get(start, 0) ^ bit
                toggles[end + 1] = toggles.get(end + 1, 0) ^ bit
    kills, current = [], 0
    for p in range(places):
        current ^= toggles.get(p, 0)
        kills.append(current)
    return name, multiple, cuts, kills, absent


def _word_dimension(name: str, tests: list[tuple[int, tuple]], yes_no: bool) -> tuple[str, bool, dict[Any, int], int, int]:
    """A word or yes/no fact: the branches each value (and any other word, and absence) rules out."""
    values = {t[3] for _, t in tests if t[0] == "word"}
    kills: dict[Any, int] = {}
    for value in [*values, _OTHER]:
        kill = 0
        for b, test in tests:
            if test[0] == "given":
                holds = test[2]
            else:
                holds = (value == test[3]) == (test[2] == "eq")
            if not holds:
                kill |= 1 << b
        kills[value] = kill
    other = kills.pop(_OTHER)
    absent = 0
    for b, test in tests:
        if not (test[0] == "given" and test[2] is False):
            absent |= 1 << b
    return name, yes_no, kills, other, absent


def _pair_kills(tests: list[tuple[int, tuple]]) -> list[int]:
    """Two numbers compared: the branches their order (−1, 0, 1) and an absent one rule out."""
    kills = [0, 0, 0, 0]
    for b, (_, _, op, _) in tests:
        bit = 1 << b
        for sign in (-1, 0, 1):
            if not _TRUE_AT[op](sign):
                kills[sign + 1] |= bit
        kills[3] |= bit
    return kills
