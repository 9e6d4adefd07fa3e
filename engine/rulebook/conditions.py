"""The condition language of rule files: a closed operator tree.

    when: {all: [{given: A}, {lt: [A, C]}, {lt: [C, B]}]}

Operators: ``all`` / ``any`` (lists), ``not``, the comparisons ``lt le eq ne ge gt`` (two
operands: a fact name or a number such as ``0``, ``3/5`` or ``60%``; ``eq``/``ne`` also a fact
and one of its allowed words), ``is: [fact, true|false]`` (or ``is: fact``), ``in: [fact,
[word, …]]``, ``given: fact`` (the case supplies it) and ``always: true``.

Nothing here evaluates text from a file: a condition is parsed into the small tree below,
checked against the stage's vocabulary of facts, and then either compiled to durable_rules'
JSON (see :mod:`bridgelaw.rulebook.adapter`) or evaluated by :func:`evaluate`, the plain-Python twin
used for missing-fact checks, differential tests and the lint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterator, Union

from ..core import limits
from ..core.errors import BridgelawError, did_you_mean
from ..core.exact import NumberError, format_mixed, parse_exact

COMPARISONS = ("lt", "le", "eq", "ne", "ge", "gt")
OPERATORS = ("all", "any", "not", *COMPARISONS, "is", "in", "given", "always")
NEGATED = {"lt": "ge", "le": "gt", "eq": "ne", "ne": "eq", "ge": "lt", "gt": "le"}
FLIPPED = {"lt": "gt", "le": "ge", "eq": "eq", "ne": "ne", "ge": "le", "gt": "lt"}
SYMBOL = {"lt": "<", "le": "≤", "eq": "=", "ne": "≠", "ge": "≥", "gt": ">"}

# A vocabulary maps each fact name to its kind: "number", "bool", or a tuple of allowed words.
Vocabulary = dict[str, Union[str, tuple[str, ...]]]


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class Const:
    value: Fraction


@dataclass(frozen=True)
class Word:
    word: str


Term = Union[Name, Const, Word]


@dataclass(frozen=True)
class All:
    items: tuple["Condition", ...]


@dataclass(frozen=True)
class Any_:
    items: tuple["Condition", ...]


@dataclass(frozen=True)
class Not:
    item: "Condition"


@dataclass(frozen=True)
class Compare:
    op: str
    left: Term
    right: Term


@dataclass(frozen=True)
class Is:
    name: str
    value: bool


@dataclass(frozen=True)
class In:
    name: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Given:
    name: str


@dataclass(frozen=True)
class Always:
    pass


Condition = Union[All, Any_, Not, Compare, Is, In, Given, Always]


class MissingFact(Exception):
    """Evaluation needed a fact the case does not supply."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class ConditionError(BridgelawError):
    """A condition outside the grammar; `path` is relative to the condition's root."""

    def __init__(self, message: str, path: list[Any], **kw: Any) -> None:
        super().__init__(message, **kw)
        self.path = path


# --- parsing -------------------------------------------------------------------------------

def parse(node: Any, vocab: Vocabulary, path: list[Any] | None = None) -> Condition:
    """Parse a condition tree read from YAML, checking every name against `vocab`."""
    if not path:
        check_size(node)
    path = path or []
    if not isinstance(node, dict) or len(node) != 1:
        raise ConditionError(
            "a condition is a mapping with exactly one operator", path,
            expected="one of " + ", ".join(OPERATORS),
        )
    (op, arg), = node.items()
    here = path + [op]
    if op in ("all", "any"):
        if not isinstance(arg, list) or not arg:
            raise ConditionError(f"'{op}' takes a non-empty list of conditions", here)
        items = tuple(parse(item, vocab, here + [i]) for i, item in enumerate(arg))
        return All(items) if op == "all" else Any_(items)
    if op == "not":
        return Not(parse(arg, vocab, here))
    if op in COMPARISONS:
        if not isinstance(arg, list) or len(arg) != 2:
            raise ConditionError(f"'{op}' takes two operands, e.g. {{{op}: [A, B]}}", here)
        left, right = (_term(a, vocab, here + [i]) for i, a in enumerate(arg))
        word_at = next((i for i, t in enumerate((left, right)) if isinstance(t, Word)), None)
        _check_comparison(op, left, right, vocab, here + ([word_at] if word_at is not None else []))
        return Compare(op, left, right)
    if op == "is":
        if isinstance(arg, str):
            arg = [arg, True]
        if not (isinstance(arg, list) and len(arg) == 2 and isinstance(arg[1], bool)):
            raise ConditionError("'is' takes a yes/no fact and true or false, e.g. {is: [weighted, true]}", here)
        _expect_kind(arg[0], "bool", vocab, here + [0])
        return Is(arg[0], arg[1])
    if op == "in":
        if not (isinstance(arg, list) and len(arg) == 2 and isinstance(arg[1], list) and arg[1]):
            raise ConditionError("'in' takes a fact and a list of words, e.g. {in: [scoring, [imps]]}", here)
        name, words = arg[0], tuple(str(w) for w in arg[1])
        kind = _expect_kind(name, "words", vocab, here + [0])
        for i, word in enumerate(words):
            if word not in kind:
                raise ConditionError(f"'{word}' is not a value of {name}", here + [1, i],
                                     expected=", ".join(kind), suggestion=did_you_mean(word, kind))
        return In(name, words)
    if op == "given":
        _expect_kind(arg, None, vocab, here)
        return Given(arg)
    if op == "always":
        if arg is not True:
            raise ConditionError("'always' takes true", here)
        return Always()
    raise ConditionError(f"unknown operator '{op}'", path, expected="one of " + ", ".join(OPERATORS),
                         suggestion=did_you_mean(op, OPERATORS))


def check_size(node: Any) -> None:
    """Refuse a condition nested more than MAX_CONDITION_DEPTH operators deep or with more than
    MAX_CONDITION_TESTS tests (comparisons, words of ``in``…), before it is parsed or compiled.
    Iterative: a deep tree cannot exhaust the stack here."""
    tests = 0
    todo: list[tuple[Any, list[Any], int]] = [(node, [], 1)]
    while todo:
        item, path, depth = todo.pop()
        if not isinstance(item, dict) or len(item) != 1:
            continue                     # parse() reports it
        (op, arg), = item.items()
        if op in ("all", "any", "not"):
            if depth > limits.MAX_CONDITION_DEPTH:
                raise ConditionError(f"the condition is nested too deeply (at most {limits.MAX_CONDITION_DEPTH} "
                                     "all/any/not inside each other)", path + [op])
            if op == "not":
                todo.append((arg, path + [op], depth + 1))
            elif isinstance(arg, list):
                todo.extend((sub, path + [op, i], depth + 1) for i, sub in reversed(list(enumerate(arg))))
            continue
        tests += len(arg[1]) if op == "in" and isinstance(arg, list) and len(arg) == 2 \
            and isinstance(arg[1], list) else 1
        if tests > limits.MAX_CONDITION_TESTS:
            raise ConditionError(f"the condition has more than {limits.MAX_CONDITION_TESTS} tests",
                                 path + [op], expected="a shorter condition, or several rules")


def facts_hint(names: Any) -> str:
    """'one of A, B, C or a rulebook parameter' — the stage's own facts, parameters summarised."""
    own = sorted(n for n in names if "." not in n)
    return "one of " + ", ".join(own) + (", or a rulebook parameter (explain --rulebook ID lists them)"
                                         if any("." in n for n in names) else "")


def _term(value: Any, vocab: Vocabulary, path: list[Any]) -> Term:
    if isinstance(value, bool):
        raise ConditionError("true/false is not a comparison operand; use {is: [fact, true]}", path)
    if isinstance(value, str) and value in vocab:
        return Name(value)
    try:
        return Const(parse_exact(value, percent=True))
    except NumberError as exc:
        if not isinstance(value, str) or _NUMERIC.fullmatch(value):
            raise ConditionError(str(exc), path) from None
    if isinstance(value, str):
        return Word(value)
    raise ConditionError(f"'{value}' is neither a fact nor a number", path)


_NUMERIC = re.compile(r"[-+\s\d./%]+")


def _check_comparison(op: str, left: Term, right: Term, vocab: Vocabulary, path: list[Any]) -> None:
    names = [t for t in (left, right) if isinstance(t, Name)]
    words = [t for t in (left, right) if isinstance(t, Word)]
    if not names:
        bad = words[0].word if words else None
        if bad is not None:
            raise ConditionError(f"unknown fact '{bad}'", path, expected=facts_hint(vocab),
                                 suggestion=did_you_mean(bad, vocab))
        raise ConditionError("a comparison needs at least one fact", path)
    kinds = [vocab[n.name] for n in names]
    if words:
        word = words[0].word
        kind = kinds[0]
        if not isinstance(kind, tuple):
            raise ConditionError(f"unknown fact '{word}'", path, expected=facts_hint(vocab),
                                 suggestion=did_you_mean(word, vocab))
        if op not in ("eq", "ne"):
            raise ConditionError(f"'{op}' compares numbers; {names[0].name} is a word", path, expected="eq or ne")
        if word not in kind:
            raise ConditionError(f"'{word}' is not a value of {names[0].name}", path,
                                 expected=", ".join(kind), suggestion=did_you_mean(word, kind))
        return
    for n, kind in zip(names, kinds):
        if kind != "number":
            hint = f"{{is: [{n.name}, true]}}" if kind == "bool" else f"{{eq: [{n.name}, <word>]}}"
            raise ConditionError(f"'{op}' compares numbers; {n.name} is not a number", path, suggestion=f"use {hint}")


def _expect_kind(name: Any, kind: str | None, vocab: Vocabulary, path: list[Any]) -> Any:
    if not isinstance(name, str) or name not in vocab:
        raise ConditionError(f"unknown fact '{name}'", path, expected=facts_hint(vocab),
                             suggestion=did_you_mean(str(name), vocab))
    actual = vocab[name]
    if kind == "bool" and actual != "bool":
        raise ConditionError(f"'{name}' is not a yes/no fact", path)
    if kind == "words" and not isinstance(actual, tuple):
        raise ConditionError(f"'{name}' does not take words", path)
    return actual


def leaves(cond: Condition) -> Iterator[Condition]:
    """Every comparison, is, in, given and always inside `cond`."""
    match cond:
        case All(items) | Any_(items):
            for item in items:
                yield from leaves(item)
        case Not(item):
            yield from leaves(item)
        case _:
            yield cond


def names(cond: Condition) -> set[str]:
    """Every fact name a condition mentions."""
    out: set[str] = set()
    for leaf in leaves(cond):
        match leaf:
            case Compare(_, left, right):
                out |= {t.name for t in (left, right) if isinstance(t, Name)}
            case Is(name, _) | In(name, _) | Given(name):
                out.add(name)
    return out


def constants(cond: Condition) -> set[Fraction]:
    return {t.value for leaf in leaves(cond) if isinstance(leaf, Compare)
            for t in (leaf.left, leaf.right) if isinstance(t, Const)}


# --- plain evaluation ------------------------------------------------------------------------

def evaluate(cond: Condition, facts: dict[str, Any]) -> bool:
    """Evaluate in plain Python over exact values; MissingFact if a needed fact is absent.

    ``all`` stops at its first false item and ``any`` at its first true one, so
    ``{all: [{given: A}, {lt: [A, B]}]}`` does not need A when A is not given.
    """
    match cond:
        case All(items):
            return all(evaluate(c, facts) for c in items)
        case Any_(items):
            return any(evaluate(c, facts) for c in items)     # stops at the first true branch
        case Not(item):
            return not evaluate(item, facts)
        case Compare(op, left, right):
            a, b = _value(left, facts), _value(right, facts)
            return {"lt": a < b, "le": a <= b, "eq": a == b, "ne": a != b, "ge": a >= b, "gt": a > b}[op]
        case Is(name, value):
            return bool(_fact(name, facts)) is value
        case In(name, words):
            return _fact(name, facts) in words
        case Given(name):
            return facts.get(name) is not None
        case Always():
            return True
    raise TypeError(cond)


def _fact(name: str, facts: dict[str, Any]) -> Any:
    value = facts.get(name)
    if value is None:
        raise MissingFact(name)
    return value


def _value(term: Term, facts: dict[str, Any]) -> Any:
    if isinstance(term, Name):
        return _fact(term.name, facts)
    if isinstance(term, Const):
        return term.value
    return term.word


# --- text --------------------------------------------------------------------------------------

def describe(cond: Condition) -> str:
    """A readable rendering, e.g. 'A < C and C < B'."""
    match cond:
        case All(items):
            return " and ".join(_wrap(c) for c in items)
        case Any_(items):
            return " or ".join(_wrap(c) for c in items)
        case Not(Given(name)):
            return f"{name} not given"
        case Not(item):
            return f"not ({describe(item)})"
        case Compare(op, left, right):
            return f"{_term_text(left)} {SYMBOL[op]} {_term_text(right)}"
        case Is(name, value):
            return name if value else f"not {name}"
        case In(name, words):
            return f"{name} in ({', '.join(words)})"
        case Given(name):
            return f"{name} given"
        case Always():
            return "always"
    raise TypeError(cond)


def _wrap(cond: Condition) -> str:
    text = describe(cond)
    return f"({text})" if isinstance(cond, (All, Any_)) else text


def _term_text(term: Term) -> str:
    if isinstance(term, Name):
        return term.name
    if isinstance(term, Const):
        return format_mixed(term.value)
    return term.word
