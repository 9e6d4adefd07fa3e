"""The words of the domain, defined once: sides, directions, responsibility for an irregularity,
event kinds, scoring, vulnerability (with the spellings accepted on input).

Pydantic models, rule stages, the web form and the docs take their choices from here.
"""

from __future__ import annotations

from typing import Literal

Side = Literal["NS", "EW"]
SIDES: tuple[Side, Side] = ("NS", "EW")

Direction = Literal["N", "E", "S", "W"]
DIRECTIONS: tuple[Direction, ...] = ("N", "E", "S", "W")
PARTNER: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
SIDE_OF: dict[str, Side] = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
SEATS: dict[Side, tuple[Direction, Direction]] = {"NS": ("N", "S"), "EW": ("E", "W")}


# the spellings of a side a TD writes: NS, N-S, N/S, North-South, north south, …
SIDE_WORDS: dict[str, Side] = {
    spelling: side
    for side, (short, long) in (("NS", ("n", "north")), ("EW", ("e", "east")))
    for first, second in ((short, "s" if side == "NS" else "w"), (long, "south" if side == "NS" else "west"))
    for spelling in (first + second, f"{first}-{second}", f"{first}/{second}", f"{first} {second}", f"{first}–{second}")
}


def side_word(value: object) -> object:
    """The side a spelling stands for (``N-S``, ``North-South``, ``e/w`` …); anything else unchanged,
    for the model to refuse with its own message."""
    if isinstance(value, str):
        return SIDE_WORDS.get(" ".join(value.strip().lower().split()), value)
    return value


def other(side: Side) -> Side:
    return "EW" if side == "NS" else "NS"


# 12C2(a): a contestant's responsibility for an irregularity after which no result was obtained
RESPONSIBILITY = ("in-no-way-at-fault", "partly-at-fault", "directly-at-fault")
Responsibility = Literal["in-no-way-at-fault", "partly-at-fault", "directly-at-fault"]

# the kinds of event a ruling is made in
EVENTS = ("pairs", "teams", "individual", "knockout")
Event = Literal["pairs", "teams", "individual", "knockout"]

# how a board is scored in a ruling (a traveller adds its field-scoring methods)
SCORING = ("imps", "matchpoints")
Scoring = Literal["imps", "matchpoints"]

# how a board's whole field is scored (a traveller, an event), and the unit of each method's scores
METHODS = ("matchpoints", "cross-imps", "butler")
Method = Literal["matchpoints", "cross-imps", "butler"]


# how a board of a teams match is scored, comparing its two rooms: IMPs, a point a board (2 to the
# team with the better aggregate, 1 each on a tie: matchpoints against the one other room), or the
# aggregate of the two rooms' points
TEAM_METHODS = ("team-imps", "point-a-board", "aggregate")
# how a teams match is scored: victory points by the rulebook's scale, its IMPs, or its board points
MATCH_SCORING = ("vps", "imps", "points")


def unit_scoring(method: str) -> Scoring:
    """The scoring a ruling of one table of a field uses: matchpoints (and a point a board, which is
    matchpoints against the other room), or IMPs (cross-IMPs, butler, IMPs and aggregate at teams)."""
    return "matchpoints" if method in ("matchpoints", "point-a-board") else "imps"

# vulnerability, and the spellings accepted for it (PBN and case files)
VULNERABILITY_WORDS = {
    "none": "None", "neither": "None", "nil": "None", "love": "None", "love all": "None", "-": "None",
    "ns": "NS", "n-s": "NS", "n/s": "NS", "ew": "EW", "e-w": "EW", "e/w": "EW",
    "all": "All", "both": "All", "game all": "All",
}


def vulnerability(value: str) -> str | None:
    """The vulnerability a spelling stands for (None when it is not one)."""
    return VULNERABILITY_WORDS.get(" ".join(value.strip().lower().split()))
