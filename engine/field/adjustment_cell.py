"""The ``Adjustment`` cell: a ruling's adjusted score written into a results file, so that
re-reading the file scores the line the same way without the rulings file.

    art NS=3/5 EW=2/5                 artificial: shares of the top (matchpoints) or IMPs
    adj 4S= N                         one assigned result
    adj 4S= N @1/3; 4S-1 N @2/3       a weighted score (weights sum to 1)
    split NS: 4S= N @1/2; 4S-1 N @1/2 | EW: 4S= N @1/3; 4S-1 N @2/3
    np                                not played (not scheduled, or no score for either side)
    … & pen EW=1/4                    a procedural penalty as well (a share of a top, or IMPs: the event's
                                      unit); pen EW=2MP (matchpoints), pen EW=1VP (against a teams match)
    … & ppen 3a=1/4                   an individual: the procedural penalty each player bears
    art NS=… EW=… & own 21b=3/5       an individual: a player's own artificial score (its own session facts)

The same text is the USEBIO writer's comment on an adjusted line. A line read back is scored
as the cell says: an adjusted score is ruled again (its assigned outcomes are its own weighted
average), an artificial one is taken as given, and a penalty is ruled again by the penalty stage
(:mod:`.penalties`: ``ppen`` gives the offender, and the partner when both bore it).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from ..core import bridge
from ..core.errors import BridgelawError
from ..core.exact import NumberError, parse_exact
from ..core.vocab import SIDES
from ..ruling.outcomes import Component, parse_outcome
from .cells import Where
from .model import Line

_VALUE = re.compile(r"^(NS|EW)=([+-]?[0-9]{1,6}(?:/[0-9]{1,6})?)$")
_PLAYER_VALUE = re.compile(r"^([^\s=]{1,24})=([+-]?[0-9]{1,9}(?:/[0-9]{1,9})?)$")
HINT = "art NS=3/5 EW=2/5, adj 4S= N @1/3; 4S-1 N @2/3, split NS: … | EW: …, np, or … & pen EW=1/4"


def _exact(text: str, where: Where) -> Fraction:
    try:
        return parse_exact(text)
    except NumberError as exc:
        raise where.error(f"Adjustment number '{text[:30]}': {exc}", expected=HINT) from None


def _values(text: str, where: Where, pattern: re.Pattern[str] = _VALUE,
            shape: str = "NS=value or EW=value") -> dict[str, Fraction]:
    """``NS=3/5 EW=2/5`` (or, with _PLAYER_VALUE, ``21b=3/5``) as a dict of exact values."""
    out = {}
    for item in text.split():
        m = pattern.match(item)
        if m is None:
            raise where.error(f"Adjustment '{item[:30]}' is not {shape}", expected=HINT)
        out[m[1]] = _exact(m[2], where)
    return out


def _parts(text: str, where: Where, vulnerability: str | None) -> list[Component]:
    parts = []
    for item in text.split(";"):
        item = item.strip()
        result, _, weight = item.partition("@")
        try:
            outcome = parse_outcome(result.strip())
        except BridgelawError as exc:
            raise where.error(f"Adjustment result '{result.strip()[:30]}': {exc.message}", expected=HINT) from None
        if not isinstance(outcome, (bridge.PlayedResult, bridge.Score)):
            raise where.error(f"Adjustment '{result.strip()[:30]}' is not a result or a raw score", expected=HINT)
        w = _exact(weight.strip(), where) if weight.strip() else Fraction(1)
        if w <= 0:
            raise where.error(f"Adjustment weight '{weight.strip()[:20]}' is not more than 0", expected=HINT)
        parts.append(Component(outcome, w))
    if sum((p.weight for p in parts), Fraction(0)) != 1:
        raise where.error("Adjustment weights do not sum to 1", expected=HINT)
    return parts


def read(line: Line, text: str, where: Where, vulnerability: str | None) -> None:
    """Set `line` from an Adjustment cell."""
    for clause in text.split("&"):
        clause = clause.strip()
        word, _, rest = clause.partition(" ")
        word = word.lower()
        if word == "np":
            line.kind = "not-played"
        elif word == "art":
            values = _values(rest, where)
            if set(values) != set(SIDES):
                raise where.error("Adjustment art needs NS= and EW=", expected=HINT)
            line.kind, line.artificial = "artificial", values
        elif word == "adj":
            parts = _parts(rest, where, vulnerability)
            line.kind, line.written = "adjusted", {"NS": parts, "EW": parts}
        elif word == "split":
            ns, sep, ew = rest.partition("|")
            if not sep or not ns.strip().startswith("NS:") or not ew.strip().startswith("EW:"):
                raise where.error("Adjustment split needs 'NS: … | EW: …'", expected=HINT)
            line.kind = "split"
            line.written = {"NS": _parts(ns.strip()[3:], where, vulnerability),
                            "EW": _parts(ew.strip()[3:], where, vulnerability)}
        elif word in ("pen", "ppen"):        # ruled when the session is scored (its scoring gives the unit)
            line.extra.setdefault("penalty_cells", []).append((word, rest, where))
        elif word == "own":
            if line.players is None:
                raise where.error(f"Adjustment '{word}' names players, but the line is not an individual's",
                                  expected="PlayerId_North … columns")
            values = _values(rest, where, _PLAYER_VALUE, "PLAYER=value")
            unknown = [p for p in values if p not in line.players.values()]
            if unknown:
                raise where.error(f"Adjustment '{word}': player {unknown[0]} does not play on this line",
                                  expected="one of " + ", ".join(line.players.values()))
            line.extra["own_given"] = values
        else:
            raise where.error(f"Adjustment '{clause[:30]}' is not understood", expected=HINT)
    line.extra["adjustment"] = text


def _same(a: list[Component], b: list[Component]) -> bool:
    """Both sides assigned the same outcomes with the same weights (a balancing score)."""
    return [(p.outcome.text, p.weight) for p in a] == [(p.outcome.text, p.weight) for p in b]


def _parts_text(parts: list[Component]) -> str:
    if len(parts) == 1 and parts[0].weight == 1:
        return parts[0].outcome.text
    return "; ".join(f"{p.outcome.text} @{p.weight}" for p in parts)


def write(sl: Any, always: bool = False) -> str | None:
    """The Adjustment cell for a scored line (score.ScoredLine) a ruling changed (None for a line left
    as played, unless ``always``: a line of the file's own whose code the other format cannot say):
    the artificial values awarded — an individual's own as well —, the outcomes assigned, the
    penalties each bears."""
    line, values = sl.line, sl.awarded
    clauses = []
    if line.ruling is None and not line.extra.get("adjustment") and not always:
        return None
    if line.kind == "not-played":
        clauses.append("np")
    elif line.kind == "artificial":
        v = values or line.artificial
        clauses.append(f"art NS={v['NS']} EW={v['EW']}")
    elif line.kind in ("adjusted", "split"):
        parts = line.parts or line.written
        if line.kind == "adjusted" and _same(parts["NS"], parts["EW"]):
            clauses.append("adj " + _parts_text(parts["NS"]))
        else:                                       # a split weighting, or a non-balancing assignment (as the 1997 Laws allowed)
            clauses.append(f"split NS: {_parts_text(parts['NS'])} | EW: {_parts_text(parts['EW'])}")
    own = line.extra.get("own_awarded") or line.extra.get("own_given")
    if line.kind == "artificial" and own:
        clauses.append("own " + " ".join(f"{p}={v}" for p, v in own.items()))
    sides = [b.penalty for b in sl.penalties if b.penalty.to == "side"]
    if sides:
        clauses.append("pen " + " ".join(f"{p.side}={_amount(p)}" for p in sides))
    borne = player_penalties(sl)
    if borne:
        clauses.append("ppen " + " ".join(f"{p}={v}" for p, v in borne.items()))
    return " & ".join(clauses) if clauses else None


def _amount(p: Any) -> str:
    """A side's penalty as the cell writes it: a share of a top or IMPs bare (the event's unit), else with its unit."""
    a = p.amount
    return f"{a.value / 100}" if a.unit == "%" else f"{a.value}" if a.unit == "IMP" else f"{a.value}{a.unit}"


def player_penalties(sl: Any) -> dict[str, Fraction]:
    """The procedural penalty each player of an individual's line bears (a share of a top, or IMPs), as
    its ruling's penalty stage decided it."""
    out: dict[str, Fraction] = {}
    for e in (sl.trace.entries if sl.trace is not None else ()):
        if e.kind == "player-penalty":
            out[e.data["player"]] = e.data["share"]
    return out


# --- a file's own notes: what bridgelaw scored it with, where the format has no field for it -------------

RANKINGS = ("together", "by-direction", "by-section")
_PROFILE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")


def note(word: str, value: str) -> str:
    """A file note's text (``bridgelaw: profile magic-contest``): a USEBIO comment or a PBN ``%`` line."""
    return f"bridgelaw: {word} {value}"


def file_notes(texts: Any) -> dict[str, str]:
    """The notes of a file bridgelaw wrote: ``profile`` (the program profile it was scored with, or
    ``none``) and ``ranking`` (who is ranked with whom: together, by-direction, by-section). Anything
    else, or a value of another shape, is not a note."""
    out: dict[str, str] = {}
    for text in texts:
        t = text.strip().lstrip("%").strip()
        if not t.startswith("bridgelaw:"):
            continue
        word, _, value = t[len("bridgelaw:"):].strip().partition(" ")
        value = value.strip()
        if word == "profile" and _PROFILE_ID.match(value):
            out["profile"] = value
        elif word == "ranking" and value in RANKINGS:
            out["ranking"] = value
    return out

