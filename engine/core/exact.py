"""Exact numbers: parsing and formatting of `fractions.Fraction` values.

Every quantity in bridgelaw is a `Fraction`. This module turns the ways people write numbers
(``3``, ``-4 2/3``, ``17/2``, ``0.6``, ``60%``) into fractions and back into text, and gives
machine consumers a JSON form. Floats appear only in `exact_json`'s ``value`` field.
"""

from __future__ import annotations

import functools
import math
import operator
import re
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from .limits import MAX_DIGITS, short

__all__ = [
    "NumberError",
    "parse_exact",
    "format_mixed",
    "format_decimal",
    "exact_json",
    "lcm_of_denominators",
    "whole",
    "plus",
    "minus",
    "fraction_parts",
    "total",
    "ratio",
]


class NumberError(ValueError):
    """A value could not be read as an exact number; the message says what was expected."""


_MINUS_SIGNS = "\u2212\u2013"  # unicode minus sign, en dash (word processors produce both)

# An optional sign, then a whole number, a decimal, a fraction or a mixed number.
_NUMBER = re.compile(
    r"""
    (?P<sign>[+-]?)\s*
    (?:
        (?P<whole>\d+)\s+(?P<mnum>\d+)\s*/\s*(?P<mden>\d+)    # mixed: 8 1/2
      | (?P<num>\d+)\s*/\s*(?P<den>\d+)                       # fraction: 17/2
      | (?P<decimal>\d*\.\d+|\d+)                             # integer or decimal: 3, 0.6, .5
    )
    """,
    re.VERBOSE | re.ASCII,
)


def _expected(text: str, percent: bool) -> NumberError:
    examples = "3, -4 2/3, 17/2, 0.6 or 60%" if percent else "3, -4 2/3, 17/2 or 0.6"
    return NumberError(f"expected a number such as {examples}, got {_show(text)}")


def _show(value: object) -> str:
    """repr(value) for a message, cut short (a value may be a huge list or string)."""
    return short(value)


def check_size(x: Fraction, original: object = None) -> Fraction:
    """`x` if its numerator and denominator have at most MAX_DIGITS digits, else NumberError."""
    bound = 10**MAX_DIGITS
    if abs(x.numerator) >= bound or x.denominator >= bound:
        what = "too large" if abs(x) >= 1 else "too fine"
        raise NumberError(f"the number is {what} (at most {MAX_DIGITS} digits above and below the line)"
                          + (f", got {_show(original)}" if original is not None else ""))
    return x


def _parse_number_text(text: str, original: str, percent: bool) -> Fraction:
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise _expected(original, percent)
    if match["whole"] is not None:
        numerator, denominator = int(match["mnum"]), int(match["mden"])
        if denominator == 0:
            raise NumberError(f"a fraction cannot have denominator 0, got {_show(original)}")
        if not 0 < numerator < denominator:
            raise NumberError(
                f"the fraction in a mixed number must be proper (such as 8 1/2), got {_show(original)}"
            )
        magnitude = int(match["whole"]) + Fraction(numerator, denominator)
    elif match["num"] is not None:
        if int(match["den"]) == 0:
            raise NumberError(f"a fraction cannot have denominator 0, got {_show(original)}")
        magnitude = Fraction(int(match["num"]), int(match["den"]))
    else:
        magnitude = Fraction(match["decimal"])
    return check_size(-magnitude if match["sign"] == "-" else magnitude)


def parse_exact(value: object, *, percent: bool = False) -> Fraction:
    """Read `value` as an exact `Fraction`.

    Accepts int, Fraction, Decimal, float (via its shortest repr, so 0.6 is 3/5) and strings
    such as ``"3"``, ``"-17/2"``, ``"8 1/2"``, ``"-4 2/3"`` (= -(4 + 2/3)), ``"0.6"``; with
    ``percent=True`` also ``"60%"``, ``"33 1/3%"`` (the percentage divided by 100).
    """
    if isinstance(value, bool):
        raise NumberError(f"expected a number, got the truth value {value!r}")
    if isinstance(value, (int, Fraction)):
        return check_size(Fraction(value), value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NumberError(f"expected a finite number, got {value!r}")
        if value != 0 and not 1e-30 <= abs(value) < 1e30:
            return check_size(Fraction(10**40), value)          # an error: too large or too fine
        return check_size(Fraction(repr(value)), value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise NumberError(f"expected a finite number, got {value!r}")
        if value != 0 and not -30 <= value.adjusted() < 30:
            raise NumberError(f"the number is out of range, got {_show(str(value))}")
        return check_size(Fraction(value), value)
    if not isinstance(value, str):
        raise NumberError(
            f"expected a number such as 3, -4 2/3, 17/2 or 0.6, got {type(value).__name__} {_show(value)}"
        )
    if len(value) <= _REMEMBERED:
        return _parse_short_text(value, percent)
    return _parse_text(value, percent)


# Short number texts read before ('1/3', '60%', '8 1/2'): a case's weights and scores repeat across
# the requests a server rules. A Fraction is immutable; errors are not remembered.
_REMEMBERED = 24


@functools.lru_cache(maxsize=2048)
def _parse_short_text(value: str, percent: bool) -> Fraction:
    return _parse_text(value, percent)


def _parse_text(value: str, percent: bool) -> Fraction:
    text = value.strip()
    digits = sum(ch.isdigit() for ch in text)
    if digits > MAX_DIGITS or len(text) > 4 * MAX_DIGITS:
        raise NumberError(f"a number of {digits} digits is too long (at most {MAX_DIGITS}), got {_show(value)}")
    for minus in _MINUS_SIGNS:
        text = text.replace(minus, "-")
    if text.endswith("%"):
        if not percent:
            raise NumberError(
                f"percentages are not allowed here, got {_show(value)}; write a plain number such as 0.6"
            )
        return _parse_number_text(text[:-1].strip(), value, percent) / 100
    return _parse_number_text(text, value, percent)


def format_mixed(x: Fraction | int, *, signed: bool = False) -> str:
    """Write `x` as a whole or mixed number: ``8 1/2``, ``-4 2/3``, ``17``, ``-1/3``.

    With ``signed=True`` positive values get a ``+`` (``+4 2/3``); zero stays ``0``.
    """
    parts = fraction_parts(x) if type(x) is Fraction else (x.numerator, x.denominator)   # ints too, no new Fraction
    found = _MIXED[True if signed else False].get(parts)
    if found is not None:
        return found
    num, den = parts
    sign = "-" if num < 0 else ("+" if signed and num > 0 else "")
    whole, rest = divmod(abs(num), den)
    if rest == 0:
        body = str(whole)
    elif whole == 0:
        body = f"{rest}/{den}"
    else:
        body = f"{whole} {rest}/{den}"
    text = sign + body
    if len(text) <= 24:                  # a ruling writes the same few numbers many times
        table = _MIXED[True if signed else False]
        if len(table) >= 4096:
            table.clear()
        table[parts] = text
    return text


_MIXED: dict[bool, dict[tuple[int, int], str]] = {False: {}, True: {}}   # (numerator, denominator) → text


def format_decimal(x: Fraction | int, places: int = 2, *, signed: bool = False) -> str:
    """Write `x` with at most `places` decimals, rounded half away from zero on the exact value.

    Trailing zeros are dropped: ``8.5``, ``4.67``, ``12``, ``0.33``. With ``signed=True``
    positive values get a ``+``; a value that rounds to zero is written ``0``.
    """
    if places < 0:
        raise ValueError(f"places must be 0 or more, got {places}")
    x = Fraction(x)
    scale = 10**places
    scaled = abs(x) * scale
    units, remainder = divmod(scaled.numerator, scaled.denominator)
    if 2 * remainder >= scaled.denominator:
        units += 1
    whole, decimals = divmod(units, scale)
    body = str(whole)
    if places:
        digits = str(decimals).rjust(places, "0").rstrip("0")
        if digits:
            body += "." + digits
    if units == 0:
        return body
    return ("-" if x < 0 else "+" if signed else "") + body


def exact_json(x: Fraction | int) -> dict[str, str | float | None]:
    """The JSON form of an exact number: ``{"exact": "17/2", "value": 8.5}``. ``value`` is
    null when the number does not fit a float (the exact text always stands)."""
    if type(x) is int:                       # a whole number needs no Fraction (thousands in a request's answer)
        try:
            return {"exact": str(x), "value": float(x)}
        except OverflowError:
            return {"exact": str(x), "value": None}
    if type(x) is not Fraction:              # a Fraction is used as it is (making it again cost a request 0.05 ms)
        x = Fraction(x)
    num, den = fraction_parts(x)
    if den == 1:                             # whole: its text is the numerator's (most of a ruling's numbers)
        return exact_json(num)
    try:                                     # float(x) does this same correctly rounded division, through the ABC
        value: float | None = num / den
    except OverflowError:
        value = None
    return {"exact": f"{num}/{den}", "value": value}


# --- whole numbers without Fraction arithmetic -----------------------------------------------------
# A ruling's scores are mostly whole (IMPs, matchpoints of unweighted results): Fraction's operators
# (about 10,000 instructions an addition in CPython 3.11, through the numbers ABCs) are needed only
# when one side is not. The results are the same Fractions.

_WHOLE = {n: Fraction(n) for n in range(-256, 513)}      # made once: Fractions are immutable
_SLOTS = hasattr(Fraction(1), "_numerator") and hasattr(Fraction(1), "_denominator")   # CPython 3.11, 3.12
_den = operator.attrgetter("_denominator" if _SLOTS else "denominator")
_num = operator.attrgetter("_numerator" if _SLOTS else "numerator")
fraction_parts = operator.attrgetter(*(("_numerator", "_denominator") if _SLOTS else ("numerator", "denominator")))
"""(numerator, denominator) of a Fraction, read in one call (Fraction's properties are Python functions)."""


_new = object.__new__


def ratio(n: int, d: int = 1) -> Fraction:
    """The Fraction n/d of two ints, in lowest terms — equal to ``Fraction(n, d)``, made without its
    checks of the arguments' types through the numbers ABCs (about 2½ times faster: the field makes
    a few Fractions a line)."""
    if not _SLOTS or type(n) is not int or type(d) is not int:
        return Fraction(n, d)
    if d <= 0:
        if d == 0:
            raise ZeroDivisionError(f"Fraction({n}, 0)")
        n, d = -n, -d
    g = math.gcd(n, d)
    if g != 1:
        n //= g
        d //= g
    if d == 1:
        found = _WHOLE.get(n)
        if found is not None:
            return found
    f = _new(Fraction)
    f._numerator, f._denominator = n, d
    return f


def whole(n: int) -> Fraction:
    """The whole number `n` as a Fraction (the common ones made once)."""
    found = _WHOLE.get(n)
    return found if found is not None else Fraction(n)


def plus(a: Fraction, b: Fraction) -> Fraction:
    """a + b for two Fractions, whole numbers added as integers."""
    if type(a) is Fraction and type(b) is Fraction and _den(a) == 1 and _den(b) == 1:
        return whole(_num(a) + _num(b))
    return a + b


def minus(a: Fraction, b: Fraction) -> Fraction:
    """a − b for two Fractions, whole numbers subtracted as integers."""
    if type(a) is Fraction and type(b) is Fraction and _den(a) == 1 and _den(b) == 1:
        return whole(_num(a) - _num(b))
    return a - b


def total(values: Iterable[Fraction | int]) -> Fraction:
    """Σ values exactly, as a Fraction: integers over the common denominator (one Fraction made at
    the end, not one an addition)."""
    parts = [fraction_parts(v) if type(v) is Fraction else (v.numerator, v.denominator) for v in values]
    if not parts:
        return whole(0)
    common = math.lcm(*[d for _, d in parts])
    n = sum([n * (common // d) for n, d in parts])
    return whole(n) if common == 1 else ratio(n, common)


def lcm_of_denominators(values: Iterable[Fraction | int]) -> int:
    """The least common multiple of the denominators of `values` (1 for no values)."""
    denominators = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
            raise TypeError(f"expected an int or Fraction, got {value!r}")
        denominators.append(Fraction(value).denominator)
    return math.lcm(*denominators) if denominators else 1


def format_fixed(v: Fraction | None, places: int) -> str:
    """`v` with exactly `places` decimals, rounded half away from zero (integer arithmetic)."""
    if v is None:
        return "-"
    num, den = v.numerator, v.denominator
    scale = 10 ** places
    units, rem = divmod(abs(num) * scale, den)
    if 2 * rem >= den:
        units += 1
    sign = "-" if num < 0 and units else ""
    if not places:
        return f"{sign}{units}"
    whole, frac = divmod(units, scale)
    return f"{sign}{whole}.{frac:0{places}d}"
