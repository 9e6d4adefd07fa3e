"""The parameters a rulebook may set, with their kinds.

A rulebook's ``parameters:`` block is nested YAML; its leaves are addressed by dotted names
(``artificial.pairs.avg_plus``). Every leaf must be one of these, of the right kind: an unknown
parameter or a value of the wrong kind fails to load with file:line:column. Rules use them in
conditions and formulas by the same dotted names.

Kinds: ``percent`` (a fraction of the top: ``60%``, read as 3/5), ``number`` (exact), ``count``
(a whole number), ``vp-table`` (a discrete victory-point scale as text, checked by
:func:`bridgelaw.core.vp.parse_table`), or a tuple of the words allowed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Union

from ..core.exact import NumberError, parse_exact
from ..core.rounding import DIRECTED, MODES, SIDED
from ..core.vp import parse_table

Kind = Union[str, tuple[str, ...]]

PARAMETERS: dict[str, tuple[Kind, str]] = {
    # artificial adjusted scores (a Laws edition bounds them: at_least/at_most with the paragraph)
    "artificial.pairs.avg_plus": ("percent", "average plus at pairs, a share of the top"),
    "artificial.pairs.average": ("percent", "average at pairs, a share of the top"),
    "artificial.pairs.avg_minus": ("percent", "average minus at pairs, a share of the top"),
    "artificial.imps.avg_plus": ("number", "average plus at IMPs"),
    "artificial.imps.average": ("number", "average at IMPs"),
    "artificial.imps.avg_minus": ("number", "average minus at IMPs"),
    # 12C2(c): session-score modification
    "session.pairs.nos_above": ("percent", "a non-offending contestant whose session score exceeds this gets it"),
    "session.pairs.os_below": ("percent", "an offending contestant whose session score is below this gets it"),
    "session.imps.nos_above": ("number", "the IMP equivalent of nos_above, IMPs per board"),
    "session.imps.os_below": ("number", "the IMP equivalent of os_below, IMPs per board"),
    # 12C2(d): several boards without a result in one session
    "multiple_boards.limit": ("count", "boards per session on which a contestant may receive average plus"),
    "multiple_boards.replacement": (("average", "not-scored"), "what a further board without a result scores"),
    # 12C1(c) and the commentary's benefit of doubt: weights from a poll
    "poll.minimum": ("count", "fewest players a poll should have"),
    # 1997 Law 64A2: a further trick transferred when the offender later won a trick with a card he could legally have
    # played to the revoke trick (0: no such transfer)
    "revoke.legal_card_trick": ("count", "tricks transferred in addition to the one when the offending player, who "
                                "did not win the revoke trick, later won a trick with a card he could legally have "
                                "played to it"),
    "poll.benefit_of_doubt": ("number", "factor by which the result most favourable to the NOS is raised, unless "
                              "the case's poll gives the TD's own factor"),
    "poll.benefit_of_doubt_ceiling": ("number", "the largest factor a TD may use"),
    # 2007 12C1(e), where a Regulating Authority elects it instead of weighting
    "likely.threshold": ("number", "a result is 'likely' once the outcomes at least as favourable to the "
                         "non-offending side reach this probability"),
    "probable.threshold": ("number", "a result is 'at all probable' once the outcomes at least as unfavourable "
                           "to the offending side reach this probability"),
    # weighted scores at IMPs
    "weighted.imps.round_to": ("number", "round a weighted IMP score to this step (0: keep exact)"),
    "weighted.imps.round_mode": (MODES + DIRECTED + SIDED, "where a weighted IMP score exactly halfway between two "
                                 "steps goes (up, down: every score off a step; favour-nos: up for the "
                                 "non-offending side, down for the offending side)"),
    # teams scored in victory points
    "vp.scale": (("wbf-2013", "table"), "the victory-point scale (its name: the rulebook's words: vp.scale:); "
                 "table: the discrete scale vp.table gives"),
    "vp.table": ("vp-table", "a discrete VP scale as data, for each match length: boards: margin=VPs … (the least "
                 "winning margin that earns each number of VPs), e.g. '3: 0=10 1=11 2=12 3=13 5=14'"),
    "vp.method": (("weight-imps", "weight-vps"), "with a weighted score: weight the IMPs, then convert the match "
                  "to VPs (weight-imps), or convert each outcome's match to VPs and weight those (weight-vps)"),
    "vp.round_to": ("number", "round weighted VPs to this step (0: keep the scale's hundredths)"),
    "vp.round_mode": (MODES, "where weighted VPs exactly halfway between two steps go"),
    # Law 90: procedural penalties
    "penalty.matchpoints.order": (("before-factoring", "after-factoring"), "a penalty of a fraction of a top at "
                                  "matchpoints: taken from the board's matchpoints before they are factored up to "
                                  "the board's or session's top (Neuberg), so it is factored with them, or from the "
                                  "factored matchpoints, as a share of the factored top"),
    # Law 92B: the players' right to appeal a ruling
    "appeal.time_limit_minutes": ("count", "minutes after the official score is published within which a ruling "
                                  "may be appealed"),
    # Law 78: scoring a whole traveller (the Laws leave the method to the Regulating Authority)
    "fieldscore.neuberg.form": (("neuberg", "ties", "none"), "factoring up a board with missing or artificial "
                                "results: neuberg = (M + 1) × E / A − 1 (Neuberg's formula); ties = M + (E − A), each "
                                "missing result a tie with every table; none = no factoring"),
    "fieldscore.neuberg.expected": (("board", "session"), "E, the results a board of an event is factored up to: "
                                    "its own lines (board), or the most results any board of the session has (session)"),
    "fieldscore.neuberg.round_to": ("number", "round factored matchpoints to this step (0: keep exact)"),
    "fieldscore.neuberg.round_mode": (MODES, "where factored matchpoints exactly halfway between two steps go: "
                                      "toward-average (toward half the top), half-up (away from zero) or half-even"),
    "fieldscore.cross_imps.divisor": (("none", "comparisons", "results"), "what a cross-IMP total is divided by"),
    "fieldscore.cross_imps.artificial": (("flat", "per-comparison"), "an artificial score in IMPs at cross-IMPs: "
                                         "the line's score as it is (flat), or counted once per comparison and "
                                         "divided like the other lines (per-comparison)"),
    "fieldscore.totals.factor_to_top": (("none", "session-top"), "a contestant's session total at matchpoints: "
                                        "each board's matchpoints as scored (none), or a board with a smaller top "
                                        "factored up to the session's largest top by Neuberg (session-top)"),
    "fieldscore.totals.factor_boards": (("none", "session-boards"), "a contestant who played fewer boards than the "
                                        "session's most: its total as it is (none), or multiplied by the session's "
                                        "boards ÷ its boards (session-boards); percentages are the same either way"),
    "fieldscore.butler.drop": ("count", "results dropped at each end before the butler datum is averaged"),
    "fieldscore.butler.round_datum_to": ("number", "round the butler datum to this step (0: keep exact)"),
    "fieldscore.butler.round_half": (("even", "away"), "a butler datum exactly halfway between two steps goes to "
                                     "the even step or away from zero"),
}


# Words a parameter once took, still read (rule files, overlays, --set) as the word that replaced them.
FORMER_WORDS: dict[str, dict[str, str]] = {
    "fieldscore.neuberg.form": {"ebu": "neuberg"},      # the formula's name, not a body that uses it
}


# What a value of each numeric parameter can mean at all, whatever a Law or a regulation says (the
# Law's own bounds are declared in the editions, at_least/at_most): an IMP quantity of one board
# lies within the IMP scale's ±24, an average plus is above average, a probability is at most 1, a
# factor of benefit of doubt raises (1 or more). Checked when a rulebook, an overlay or --set gives
# the value, so that a value no ruling could use is refused before any case is ruled.
F = Fraction
RANGES: dict[str, tuple[Fraction, Fraction, str]] = {
    "artificial.pairs.avg_plus": (F(1, 2), F(1), "average plus is at least average (50%)"),
    "artificial.pairs.avg_minus": (F(0), F(1, 2), "average minus is at most average (50%)"),
    "artificial.imps.avg_plus": (F(0), F(24), "average plus at IMPs is 0 or more, within the IMP scale"),
    "artificial.imps.average": (F(-24), F(24), "IMPs of one board lie within the IMP scale"),
    "artificial.imps.avg_minus": (F(-24), F(0), "average minus at IMPs is 0 or less, within the IMP scale"),
    "session.imps.nos_above": (F(-24), F(24), "IMPs per board lie within the IMP scale"),
    "session.imps.os_below": (F(-24), F(24), "IMPs per board lie within the IMP scale"),
    "multiple_boards.limit": (F(0), F(100), "boards in one session"),
    "poll.minimum": (F(1), F(1000), "players polled"),
    "poll.benefit_of_doubt": (F(1), F(10), "a factor that raises a weight (1: none)"),
    "poll.benefit_of_doubt_ceiling": (F(1), F(10), "a factor that raises a weight (1: none)"),
    "likely.threshold": (F(0), F(1), "a probability"),
    "probable.threshold": (F(0), F(1), "a probability"),
    "weighted.imps.round_to": (F(0), F(24), "a step within the IMP scale (0: no rounding)"),
    "vp.round_to": (F(0), F(20), "a step within the 20-VP scale (0: no rounding)"),
    "appeal.time_limit_minutes": (F(0), F(7 * 24 * 60), "minutes, at most a week"),
    "fieldscore.neuberg.round_to": (F(0), F(100), "a step of matchpoints (0: no rounding)"),
    "fieldscore.butler.drop": (F(0), F(100), "results dropped at each end"),
    "fieldscore.butler.round_datum_to": (F(0), F(1000), "a step of points (0: no rounding)"),
}


def check(name: str, value: Any) -> Any:
    """The value of parameter `name` in its kind; ValueError (a sentence) when it is not. A word the
    parameter once took (:data:`FORMER_WORDS`) is read as the word that replaced it."""
    kind = PARAMETERS[name][0]
    if kind == "vp-table":
        text = " ".join(str(value).split()) if isinstance(value, (str, int)) and not isinstance(value, bool) else value
        parse_table(text)
        return text
    if isinstance(kind, tuple):
        value = FORMER_WORDS.get(name, {}).get(value, value) if isinstance(value, str) else value
        if value not in kind:
            raise ValueError(f"expected one of {', '.join(kind)}, got {value!r}")
        return value
    if isinstance(value, bool):
        raise ValueError(f"expected a {kind}, got {value!r}")
    try:
        number = parse_exact(value, percent=kind == "percent")
    except NumberError as exc:
        raise ValueError(str(exc)) from None
    if kind == "count" and (number.denominator != 1 or number < 0):
        raise ValueError(f"expected a whole number, got {value!r}")
    if name.endswith(("round_to", "round_datum_to")) and number < 0:
        raise ValueError(f"a rounding step is 0 (no rounding) or more, got {value}")
    if kind == "percent" and not 0 <= number <= 1:
        raise ValueError(f"expected a percentage from 0% to 100%, got {value!r}")
    if name in RANGES:
        low, high, why = RANGES[name]
        if not low <= number <= high:
            raise ValueError(f"{show(number, name)} is outside {show(low, name)} to {show(high, name)} ({why})")
    return number


def vocabulary_kind(name: str) -> Kind:
    """How conditions see a parameter: words keep their choices; every number is a number."""
    kind = PARAMETERS[name][0]
    return kind if isinstance(kind, tuple) else "number"


def show(value: Any, name: str) -> str:
    kind = PARAMETERS[name][0]
    if isinstance(value, Fraction):
        from ..core.exact import format_mixed
        return f"{format_mixed(value * 100)}%" if kind == "percent" else format_mixed(value)
    return str(value)
