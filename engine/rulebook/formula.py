"""Award formulas: small exact arithmetic over named quantities.

    A + B - C        B'        max(A, B) - 3/5 * top        (A + A') / 2

Grammar (whitelisted; nothing is handed to Python's eval)::

    expr   := term (('+' | '-') term)*
    term   := factor (('*' | '/') factor)*
    factor := ('+' | '-') factor | atom
    atom   := number | name | function '(' expr (',' expr)* ')' | '(' expr ')'

A number is ``3``, ``0.6``, ``3/5`` (as division) or ``60%``; a name is letters, digits,
``_`` and ``.`` with an optional trailing prime (``B'``); the functions are listed in
:data:`FUNCTIONS`. Evaluation is exact over :class:`~fractions.Fraction`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Callable, Union

from ..core import limits
from ..core import rounding
from .conditions import MissingFact
from ..core.errors import RulingError
from ..core.exact import format_mixed, fraction_parts, minus, plus


def _round_to(x: Fraction, step: Fraction) -> Fraction:
    """Nearest multiple of `step`, halves away from zero (rounding mode half-up)."""
    if step <= 0:
        raise ValueError(f"round_to needs a positive step, got {format_mixed(step)}")
    return rounding.nearest(x, step, "half-up")


FUNCTIONS: dict[str, tuple[int, Callable[..., Fraction]]] = {
    "min": (2, min),
    "max": (2, max),
    "abs": (1, abs),
    "round_to": (2, _round_to),
}


@dataclass(frozen=True)
class Num:
    value: Fraction


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Neg:
    item: "Expr"


@dataclass(frozen=True)
class BinOp:
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple["Expr", ...]


Expr = Union[Num, Var, Neg, BinOp, Call]


class FormulaError(ValueError):
    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column  # 1-based position inside the formula text


_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?%?)|(?P<name>[A-Za-z_][A-Za-z0-9_.]*'?)|(?P<op>[-+*/(),]))")


@dataclass(frozen=True)
class Formula:
    text: str
    tree: Expr

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(_names(self.tree))     # once a formula (a frozen tree)

    def evaluate(self, env: dict[str, Fraction]) -> Fraction:
        try:
            return _eval(self.tree, env)
        except (ZeroDivisionError, ValueError) as exc:
            raise RulingError(f"formula '{self.text}' cannot be evaluated: {exc} "
                              f"(with the values: {substitute(self, env)})") from None

    def __str__(self) -> str:
        return self.text

    def affine(self) -> tuple[Fraction, dict[str, Fraction]] | None:
        """The formula as a constant plus a multiple of each name (``A + B - C`` is 0 + 1·A + 1·B − 1·C),
        or None when it is not affine in its names (a function of them, a product of two of them).
        Worked out once a formula (a ruling asks it of every award); the names are the caller's copy."""
        found = _AFFINE.get(id(self))
        if found is None or found[0] is not self:
            if len(_AFFINE) >= 4096:
                _AFFINE.clear()
            found = _AFFINE[id(self)] = (self, _affine(self.tree))     # the table holds the formula: its id stays
        shape = found[1]
        return None if shape is None else (shape[0], dict(shape[1]))


_AFFINE: dict[int, tuple[Formula, tuple[Fraction, dict[str, Fraction]] | None]] = {}


def parse(text: str) -> Formula:
    if len(str(text)) > limits.MAX_FORMULA_CHARS:
        raise FormulaError(f"the formula is too long ({len(str(text)):,} characters; at most "
                           f"{limits.MAX_FORMULA_CHARS:,})", 1)
    tokens = _tokenize(str(text))
    parser = _Parser(tokens, str(text))
    tree = parser.expr()
    if parser.peek() is not None:
        kind, value, col = parser.peek()
        raise FormulaError(f"unexpected '{value}'", col)
    return Formula(" ".join(str(text).split()), tree)


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens, pos = [], 0
    text = text.replace("−", "-").replace("×", "*").replace("′", "'")
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            bad = text[pos:].lstrip()[:1]
            raise FormulaError(f"'{bad}' is not allowed in a formula", len(text[:pos]) + len(text[pos:]) - len(text[pos:].lstrip()) + 1)
        kind = m.lastgroup
        tokens.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str, int]], text: str) -> None:
        self.tokens, self.i, self.text = tokens, 0, text
        self.depth = 0

    def deeper(self, col: int) -> None:
        self.depth += 1
        if self.depth > limits.MAX_FORMULA_DEPTH:
            raise FormulaError(f"the formula is nested too deeply (at most {limits.MAX_FORMULA_DEPTH} "
                               "parentheses, functions and signs inside each other)", col)

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        tok = self.peek()
        if tok is None:
            raise FormulaError(f"the formula ends too early{f', expected {value!r}' if value else ''}",
                               len(self.text) + 1)
        if value is not None and tok[1] != value:
            raise FormulaError(f"expected '{value}', found '{tok[1]}'", tok[2])
        self.i += 1
        return tok

    def expr(self) -> Expr:
        node = self.term()
        while (tok := self.peek()) and tok[1] in "+-" and tok[0] == "op":
            self.take()
            node = BinOp(tok[1], node, self.term())
        return node

    def term(self) -> Expr:
        node = self.factor()
        while (tok := self.peek()) and tok[1] in "*/" and tok[0] == "op":
            self.take()
            right = self.factor()
            if tok[1] == "/" and isinstance(right, Num) and right.value == 0:
                raise FormulaError("division by zero", tok[2])
            node = BinOp(tok[1], node, right)
        return node

    def factor(self) -> Expr:
        tok = self.peek()
        if tok and tok[0] == "op" and tok[1] in "+-":
            self.take()
            self.deeper(tok[2])
            inner = self.factor()
            self.depth -= 1
            return Neg(inner) if tok[1] == "-" else inner
        return self.atom()

    def atom(self) -> Expr:
        kind, value, col = self.take()
        if kind == "num":
            digits = sum(ch.isdigit() for ch in value)
            if digits > limits.MAX_DIGITS:
                raise FormulaError(f"a number of {digits} digits is too long (at most {limits.MAX_DIGITS})", col)
            number = Fraction(value[:-1]) / 100 if value.endswith("%") else Fraction(value)
            return Num(number)
        if kind == "name":
            nxt = self.peek()
            if nxt and nxt[1] == "(":
                if value not in FUNCTIONS:
                    raise FormulaError(f"unknown function '{value}' (allowed: {', '.join(FUNCTIONS)})", col)
                self.take("(")
                self.deeper(col)
                args = [self.expr()]
                while (t := self.peek()) and t[1] == ",":
                    self.take(",")
                    args.append(self.expr())
                self.take(")")
                self.depth -= 1
                arity = FUNCTIONS[value][0]
                if len(args) != arity:
                    raise FormulaError(f"{value} takes {arity} argument(s), got {len(args)}", col)
                if value == "round_to" and not _positive(args[1]):
                    raise FormulaError("round_to needs a positive step (its second argument)", col)
                return Call(value, tuple(args))
            return Var(value)
        if value == "(":
            self.deeper(col)
            node = self.expr()
            self.take(")")
            self.depth -= 1
            return node
        raise FormulaError(f"unexpected '{value}'", col)


def _positive(node: Expr) -> bool:
    """Whether a step is above zero; a step that uses names is checked when it is evaluated."""
    if _names(node):
        return True
    try:
        return _eval(node, {}) > 0
    except ZeroDivisionError:
        return False


def _names(node: Expr) -> set[str]:
    match node:
        case Var(name):
            return {name}
        case Neg(item):
            return _names(item)
        case BinOp(_, left, right):
            return _names(left) | _names(right)
        case Call(_, args):
            return set().union(*(_names(a) for a in args))
    return set()


def _eval(node: Expr, env: dict[str, Fraction]) -> Fraction:
    # by exact type (a ruling evaluates several formulas; matching class patterns cost 35,000
    # instructions a formula)
    kind = type(node)
    if kind is BinOp:
        a, b = _eval(node.left, env), _eval(node.right, env)
        op = node.op
        if op == "+":
            return plus(a, b)
        if op == "-":
            return minus(a, b)
        if op == "*":
            return a * b
        if b == 0:
            raise ZeroDivisionError("division by zero in a formula")
        return a / b
    if kind is Var:
        value = env.get(node.name)
        if value is None:
            raise MissingFact(node.name)
        return value if type(value) is Fraction else Fraction(value)
    if kind is Num:
        return node.value
    if kind is Neg:
        return -_eval(node.item, env)
    if kind is Call:
        return Fraction(FUNCTIONS[node.func][1](*(_eval(a, env) for a in node.args)))
    raise TypeError(node)


def _affine(node: Expr) -> tuple[Fraction, dict[str, Fraction]] | None:
    match node:
        case Num(value):
            return Fraction(value), {}
        case Var(name):
            return Fraction(0), {name: Fraction(1)}
        case Neg(item):
            inner = _affine(item)
            return None if inner is None else (-inner[0], {k: -v for k, v in inner[1].items()})
        case BinOp(op, left, right):
            a, b = _affine(left), _affine(right)
            if a is None or b is None:
                return None
            if op in "+-":
                sign = 1 if op == "+" else -1
                names = dict(a[1])
                for k, v in b[1].items():
                    names[k] = names.get(k, Fraction(0)) + sign * v
                return a[0] + sign * b[0], {k: v for k, v in names.items() if v}
            if op == "*" and (not a[1] or not b[1]):
                (k, (c, names)) = (a[0], b) if not a[1] else (b[0], a)
                return k * c, {n: k * v for n, v in names.items() if k * v}
            if op == "/" and not b[1] and b[0] != 0:
                return a[0] / b[0], {n: v / b[0] for n, v in a[1].items()}
            return None
        case Call(_, args):
            if any(_names(arg) for arg in args):
                return None
            return _eval(node, {}), {}
    return None


def substitute(formula: Formula, env: dict[str, Fraction]) -> str:
    """The formula with each name replaced by its value, e.g. '-8 + 2 - (-6)'; it reads back
    (with the same grammar) to the formula's value."""
    return _show(formula.tree, env, "first")


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def _show(node: Expr, env: dict[str, Fraction], where: str) -> str:
    """`where`: "first" (leading a sum), "sum" (a later term of a sum), "product" (an operand of * or /)."""
    kind = type(node)                   # by exact type, as _eval
    if kind is Var:
        value = env.get(node.name)
        return node.name if value is None else _number(value if type(value) is Fraction else Fraction(value), where)
    if kind is BinOp:
        op = node.op
        if op in "*/":
            left_where = right_where = "product"
        else:
            left_where, right_where = ("first" if where != "product" else "sum"), "sum"
        return f"{_child(node.left, op, env, left_where, False)} {op} {_child(node.right, op, env, right_where, True)}"
    if kind is Num:
        return _number(node.value, where)
    if kind is Neg:
        item = node.item
        if isinstance(item, BinOp):
            return f"-({_show(item, env, 'first')})"
        return f"-{_show(item, env, 'product')}"
    if kind is Call:
        return f"{node.func}({', '.join(_show(a, env, 'first') for a in node.args)})"
    raise TypeError(node)


def _number(value: Fraction, where: str) -> str:
    text = format_mixed(value)
    numerator, denominator = fraction_parts(value) if type(value) is Fraction else (value.numerator, value.denominator)
    if (numerator < 0 and where != "first") or (denominator != 1 and where == "product"):
        return f"({text})"
    return text


def _child(node: Expr, parent: str, env: dict[str, Fraction], where: str, right: bool) -> str:
    if isinstance(node, BinOp):
        inner, outer = _PRECEDENCE[node.op], _PRECEDENCE[parent]
        if inner < outer or (right and inner == outer and parent in "-/"):
            return f"({_show(node, env, 'first')})"
    return _show(node, env, where)
