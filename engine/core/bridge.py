"""Bridge arithmetic: results as tournament directors write them, Law 77 scores, IMPs (Law 78B)
and matchpoints (Law 78A) with fractional frequencies for weighted adjusted scores.

All arithmetic is exact (ints and `Fraction`s).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, get_args

from .limits import RAW_SCORE_MAX, short
from .vocab import DIRECTIONS, SIDE_OF, Direction, Side

__all__ = [
    "Direction",
    "Side",
    "Vulnerability",
    "NotationError",
    "Contract",
    "PlayedResult",
    "Score",
    "parse_result",
    "side_of",
    "is_vulnerable",
    "contract_score",
    "ns_score",
    "IMP_SCALE",
    "imps",
    "matchpoints_against",
    "frequency_table",
    "matchpoint_table",
    "top",
    "percent",
]

Vulnerability = Literal["None", "NS", "EW", "All"]

VULNERABILITIES: tuple[Vulnerability, ...] = get_args(Vulnerability)
STRAINS = ("C", "D", "H", "S", "NT")

RESULT_HINT = "a result such as 4SX-2 W, 3NT= S, 4♠= N or PASS, or a score such as NS +620"


class NotationError(ValueError):
    """A result or score could not be read: `message` says what is wrong, `hint` what would do."""

    def __init__(self, message: str, hint: str = RESULT_HINT) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Contract:
    """A final contract: level 1–7, strain C/D/H/S/NT, doubled 0 (none), 1 (X) or 2 (XX)."""

    level: int
    strain: str
    doubled: int = 0

    def __post_init__(self) -> None:
        if type(self.level) is not int or not 1 <= self.level <= 7:
            raise NotationError(f"a contract's level is 1 to 7, got {self.level!r}")
        if self.strain not in STRAINS:
            raise NotationError(f"a strain is C, D, H, S or NT, got {self.strain!r}")
        if type(self.doubled) is not int or self.doubled not in (0, 1, 2):
            raise NotationError(f"doubled is 0, 1 (X) or 2 (XX), got {self.doubled!r}")

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{'X' * self.doubled}"


@dataclass(frozen=True)
class PlayedResult:
    """A board as played: contract (None when passed out), declarer, tricks taken by declarer."""

    contract: Contract | None
    declarer: Direction | None
    tricks: int

    def __post_init__(self) -> None:
        if self.contract is None:
            if self.declarer is not None:
                raise NotationError(
                    f"a passed-out board has no declarer, got declarer {self.declarer}",
                    hint="PASS for a passed-out board",
                )
            if self.tricks != 0:
                raise NotationError("a passed-out board has no tricks", hint="PASS")
            return
        if self.declarer not in DIRECTIONS:
            raise NotationError(
                f"a contract needs its declarer (N, E, S or W), e.g. {self.contract}= W",
            )
        if isinstance(self.tricks, bool) or not isinstance(self.tricks, int):
            raise NotationError(f"tricks must be a whole number, got {self.tricks!r}")
        needed = 6 + self.contract.level
        if self.tricks > 13:
            raise NotationError(
                f"{self.contract}+{self.tricks - needed} needs {self.tricks} tricks,"
                " but a deal has only 13",
                hint=f"the most {self.contract} can make is {self.contract}"
                + (f"+{13 - needed}" if needed < 13 else "="),
            )
        if self.tricks < 0:
            raise NotationError(
                f"{self.contract}-{needed - self.tricks} is impossible:"
                f" {self.contract} can go down at most {needed}",
                hint=f"{self.contract} can go down 1 to {needed}, e.g. {self.contract}-1 W",
            )

    @property
    def text(self) -> str:
        """Canonical notation: ``4SX-2 W``, ``3NT= S``, ``4H+1 E``, ``PASS``."""
        if self.contract is None:
            return "PASS"
        over = self.tricks - 6 - self.contract.level
        outcome = "=" if over == 0 else f"{over:+d}"
        return f"{self.contract}{outcome} {self.declarer}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Score:
    """A raw score given directly, from NS's point of view (``NS +620``; ``EW +100`` is -100)."""

    ns: int

    def __post_init__(self) -> None:
        if isinstance(self.ns, bool) or not isinstance(self.ns, int):
            raise NotationError(f"a score is a whole number of points, got {self.ns!r}")
        if abs(self.ns) > RAW_SCORE_MAX:
            raise NotationError(
                f"a raw score is at most {RAW_SCORE_MAX} either way (Law 77), got {short(self.ns)}",
                hint="write a score as NS +620, EW 100, +500 or -50",
            )
        if self.ns % 10 != 0:
            raise NotationError(
                f"bridge scores are multiples of 10, got {self.ns}",
                hint="a score such as NS +620, EW 100, +500 or -50",
            )

    @property
    def text(self) -> str:
        """Canonical text, always from NS's view: ``NS +620``, ``NS -100``, ``NS 0``."""
        return f"NS {self.ns:+d}" if self.ns else "NS 0"

    def __str__(self) -> str:
        return self.text


_MINUS_SIGNS = "\u2212\u2013"
_SUITS = str.maketrans({"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"})
_PASS = re.compile(r"PASS(ED)?(\s+OUT)?|ALL\s+PASS", re.ASCII)
_CONTRACT = re.compile(
    r"""
    (?P<level>\d+)\s*(?P<strain>NT|N|C|D|H|S)\s*(?P<doubled>XX|X)?
    \s*(?P<outcome>=|[+-]\s*\d+)?
    \s*(?P<declarer>[NESW])?
    """,
    re.VERBOSE | re.ASCII,
)
_PASS_WITH_DECLARER = re.compile(r"PASS(ED)?(\s+OUT)?\s*[NESW]", re.ASCII)
_SCORE = re.compile(r"(?P<side>NS|EW)?\s*(?P<sign>[+-]?)\s*(?P<points>\d+)", re.ASCII)
_UNIT = re.compile(r"%|\b(IMPS?|MPS?|VPS?|MATCHPOINTS?)\b|\d\s*(IMPS?|MPS?|VPS?)\b", re.ASCII)


def parse_result(text: str | int) -> PlayedResult | Score:
    """Read a result (``4SX-2 W``, ``3NT= S``, ``3N= S``, ``PASS``) or a raw score
    (``NS +620``, ``EW 100``, ``+500``, ``-50``, or an int), bare scores being NS's view.
    """
    if isinstance(text, bool):
        raise NotationError(f"not a result: {text!r}")
    if isinstance(text, int):
        return Score(text)
    if not isinstance(text, str):
        raise NotationError(f"not a result: {text!r}")

    original = text
    if len(text) > 100 and not _SCORE.fullmatch(text.strip().upper()):
        raise NotationError(f"not a result: {short(original)} is too long")
    text = text.translate(_SUITS).strip().upper()
    for minus in _MINUS_SIGNS:
        text = text.replace(minus, "-")
    if not text:
        raise NotationError("not a result: the text is empty")

    if _PASS.fullmatch(text):
        return PlayedResult(None, None, 0)
    if _PASS_WITH_DECLARER.fullmatch(text):
        raise NotationError(
            f"a passed-out board has no declarer, got {original!r}",
            hint="PASS for a passed-out board",
        )

    match = _CONTRACT.fullmatch(text)
    if match is not None:
        return _played(match, original)

    match = _SCORE.fullmatch(text)
    if match is not None:
        if len(match["points"].lstrip("0")) > len(str(RAW_SCORE_MAX)):
            raise NotationError(f"a raw score is at most {RAW_SCORE_MAX} either way (Law 77), got {short(original)}")
        points = int(match["points"])
        if match["sign"] == "-":
            points = -points
        return Score(-points if match["side"] == "EW" else points)

    if _UNIT.search(text):
        raise NotationError(
            f"not a result: {original!r} is a score in IMPs, matchpoints or percent;"
            " only table results and raw scores are read here"
        )
    raise NotationError(f"not a result: {short(original)}")


def _played(match: re.Match[str], original: str) -> PlayedResult:
    level = int(match["level"])
    if not 1 <= level <= 7:
        raise NotationError(f"{original.strip()!r} has level {level}; a contract's level is 1 to 7")
    strain = "NT" if match["strain"] in ("N", "NT") else match["strain"]
    contract = Contract(level, strain, len(match["doubled"] or ""))
    if match["outcome"] is None:
        raise NotationError(
            f"{original.strip()!r} does not say how many tricks were taken;"
            f" write e.g. {contract}= W, {contract}+1 W or {contract}-2 W"
        )
    outcome = match["outcome"].replace(" ", "")
    over = 0 if outcome == "=" else int(outcome)
    if match["declarer"] is None:
        raise NotationError(
            f"a contract needs its declarer (N, E, S or W), e.g. {contract}{outcome} W"
        )
    return PlayedResult(contract, match["declarer"], 6 + level + over)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- scores


def side_of(direction: Direction) -> Side:
    """The partnership a seat belongs to."""
    if direction not in DIRECTIONS:
        raise ValueError(f"a direction is N, E, S or W, got {direction!r}")
    return SIDE_OF[direction]


def is_vulnerable(declarer: Direction, vulnerability: Vulnerability) -> bool:
    """Whether the declaring side is vulnerable."""
    if vulnerability not in VULNERABILITIES:
        raise ValueError(f"vulnerability is None, NS, EW or All, got {vulnerability!r}")
    return vulnerability == "All" or vulnerability == side_of(declarer)


def contract_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """Law 77 score for the declaring side (negative when the contract goes down)."""
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks are 0 to 13, got {tricks}")
    needed = 6 + contract.level
    multiplier = 2**contract.doubled  # 1, 2, 4
    if tricks < needed:
        down = needed - tricks
        if contract.doubled == 0:
            return -down * (100 if vulnerable else 50)
        if vulnerable:
            doubled_penalty = 200 + 300 * (down - 1)
        else:
            doubled_penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -doubled_penalty * contract.doubled

    per_trick = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[contract.strain]
    first_trick = 40 if contract.strain == "NT" else per_trick
    trick_score = (first_trick + per_trick * (contract.level - 1)) * multiplier
    score = trick_score
    score += (500 if vulnerable else 300) if trick_score >= 100 else 50
    if contract.level == 6:
        score += 750 if vulnerable else 500
    elif contract.level == 7:
        score += 1500 if vulnerable else 1000
    score += 50 * contract.doubled  # the insult
    overtricks = tricks - needed
    if contract.doubled == 0:
        score += overtricks * per_trick
    else:
        score += overtricks * (200 if vulnerable else 100) * contract.doubled
    return score


_DECLARING_NS = {"N": True, "S": True, "E": False, "W": False}
_VULNERABLE = {("None", True): False, ("None", False): False, ("NS", True): True, ("NS", False): False,
               ("EW", True): False, ("EW", False): True, ("All", True): True, ("All", False): True}


def ns_score(result: PlayedResult | Score, vulnerability: Vulnerability) -> int:
    """NS's signed score for a result on a board with the given vulnerability (PASS is 0)."""
    if isinstance(result, Score):
        return result.ns
    if result.contract is None or result.declarer is None:
        return 0
    ns = _DECLARING_NS.get(result.declarer)
    vulnerable = _VULNERABLE.get((vulnerability, ns)) if type(vulnerability) is str else None
    if vulnerable is None:                                  # a bad seat or vulnerability: say which
        vulnerable = is_vulnerable(result.declarer, vulnerability)
    score = contract_score(result.contract, vulnerable, result.tricks)
    return score if ns else -score


# --------------------------------------------------------------------------- IMPs


# Law 78B: the smallest difference in points worth 1, 2, … 24 IMPs (a fixed table of the Laws: arithmetic).
IMP_SCALE: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def imps(difference: int | Fraction) -> int:
    """Signed IMPs for a difference in points (Law 78B): the number of steps of the scale at or
    below ``|difference|``, signed as the difference. The difference may be fractional (a butler
    datum need not be whole); it is never a float."""
    if isinstance(difference, bool) or not isinstance(difference, (int, Fraction)):
        raise TypeError(f"expected an int or a Fraction, got {difference!r}")
    steps = bisect_right(IMP_SCALE, abs(difference))
    return steps if difference >= 0 else -steps


# --------------------------------------------------------------------------- matchpoints


def _exact(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError(f"{what} must be an int or Fraction, got {value!r}")
    return Fraction(value)


def matchpoints_against(score: int, field: Mapping[int, Fraction | int]) -> Fraction:
    """Matchpoints of `score` against a field ``{score: frequency}`` that excludes it:
    2 for each score beaten, 1 for each tie (Law 78A), frequencies possibly fractional.
    """
    total: int | Fraction = 0                 # an int while the frequencies are whole numbers
    for other, frequency in field.items():
        weight = frequency if type(frequency) in (int, Fraction) else _exact(frequency, "a frequency")
        if other < score:
            total += 2 * weight
        elif other == score:
            total += weight
    return Fraction(total)


def frequency_table(
    scores: Iterable[int | tuple[int, Fraction | int]],
) -> dict[int, Fraction]:
    """Count scores (ints, or ``(score, weight)`` pairs for weighted adjusted scores) into
    ``{score: frequency}``, highest score first.
    """
    table: dict[int, Fraction] = {}
    for item in scores:
        if isinstance(item, tuple):
            score, weight = item
            weight = _exact(weight, "a weight")
        else:
            score, weight = item, Fraction(1)
        if isinstance(score, bool) or not isinstance(score, int):
            raise TypeError(f"a score must be an int, got {score!r}")
        if weight < 0:
            raise ValueError(f"a weight cannot be negative, got {weight}")
        table[score] = table.get(score, Fraction(0)) + weight
    return dict(sorted(table.items(), reverse=True))


def matchpoint_table(freq: Mapping[int, Fraction | int]) -> dict[int, Fraction]:
    """Matchpoints of one result of each score, for a table of every result on the board:
    ``2 × (frequency below) + (frequency equal − 1)``; top is ``2 × (n − 1)``.
    """
    table = {score: _exact(frequency, "a frequency") for score, frequency in freq.items()}
    result: dict[int, Fraction] = {}
    below = Fraction(0)
    for score in sorted(table):
        result[score] = 2 * below + table[score] - 1
        below += table[score]
    return dict(sorted(result.items(), reverse=True))


def top(results: int | Fraction) -> Fraction:
    """The matchpoint top on a board with `results` results: ``2 × (results − 1)``."""
    return 2 * (_exact(results, "a number of results") - 1)


def percent(mp: Fraction | int, top: Fraction | int) -> Fraction:
    """Matchpoints as a percentage of the top: ``100 × mp / top``."""
    mp, top = _exact(mp, "matchpoints"), _exact(top, "a top")
    if top <= 0:
        raise ValueError(f"a top must be positive, got {top}")
    return 100 * mp / top
