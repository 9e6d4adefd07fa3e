"""A teams session's own part of the event report: each match with its boards' scores (IMPs or
board points, from the home team's view), its totals and its score (VPs by the scale, with the
scale's rounding said), a ruled room's VP conversion by its case, and each team's record (wins,
draws, losses, IMPs for and against). The ranking, the adjusted rooms with their rulings and the
published figures are the event report's (:mod:`.event`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core import vp as vp_scale
from ..core.exact import exact_json, format_decimal, format_mixed
from . import field as fieldtrace
from . import ruling as render

BOARD_UNITS = {"team-imps": "IMPs", "point-a-board": "board points", "aggregate": "points"}
MATCH_UNITS = {"vps": "VPs", "imps": "IMPs", "points": "board points"}


def _m(v: Fraction | None, signed: bool = False) -> str:
    return "-" if v is None else format_mixed(v, signed=signed)


def scoring_line(ss: Any) -> str:
    t = ss.teams
    s = ss.session
    out = f"Teams: boards scored by {BOARD_UNITS[t.method]} between the two rooms of each match; matches in " \
          f"{MATCH_UNITS[t.match_scoring]}"
    if t.scale is not None:
        out += f" on {render._word(ss.book, 'vp.scale', t.scale)} (rounding: {vp_scale.ROUNDING[t.scale]})"
    return out + f"; {len(t.matches)} matches, {len(s.contestants)} teams."


def match_line(sm: Any, method: str) -> str:
    m = sm.match
    signed = method == "team-imps"
    boards = ", ".join(f"{mb.number}: {_m(mb.home, signed)}" + ("*" if mb.how in ("ruled", "artificial") or
                                                                  mb.penalties else "")
                       for mb in sm.boards)
    carry = (f" (carry-over {_m(m.carry.get(m.home, Fraction(0)))}–{_m(m.carry.get(m.away, Fraction(0)))})"
             if m.carry else "")
    if sm.unit == "VP":
        totals = f"net {_m(sm.totals['home'], True)} IMPs"
    elif sm.unit == "IMP":
        totals = f"IMPs {_m(sm.score['home'])}–{_m(sm.score['away'])}"
    else:
        totals = f"points {_m(sm.totals['home'])}–{_m(sm.totals['away'])}"
    score = f"{_m(sm.score['home'])}–{_m(sm.score['away'])} {sm.unit}s" if sm.unit == "VP" else ""
    winner = f"; won by team {sm.winner}" if sm.winner is not None else "; drawn"
    return (f"match {m.key} ({m.label}): boards {boards}; {totals}{carry}"
            f"{' → ' + score if score else ''}{winner}")


def text(ss: Any) -> list[str]:
    t = ss.teams
    out = ["", scoring_line(ss), "", "Matches (board scores from the first-named team's view; * a ruled board):"]
    for sm in t.matches:
        out.append("  " + match_line(sm, t.method))
        if sm.ruling is not None:
            out.append(f"    VPs from the ruling on {sm.ruled_line.line.label} (its case with the match):")
            out.extend("      " + x for x in render.entry_lines(
                [e for e in sm.ruling.trace.entries if e.kind in ("match", "vp", "vp-weighted")], ss.book))
        for mb in sm.boards:
            for team, amount in mb.penalties:
                out.append(f"    board {mb.number}: team {team} procedural penalty {_m(amount)}")
        for mp in sm.penalties:
            out.append("    " + vp_penalty_line(mp))
    out.append("")
    out.append("Teams (matches won, drawn, lost; IMPs or points for and against):")
    for st in t.standings:
        names = f"  {st.contestant.names}" if st.contestant is not None and st.contestant.names else ""
        out.append(f"  {st.rank_text:>4} team {st.team:>4}: {_m(st.total)} {MATCH_UNITS[t.match_scoring]}, "
                   f"{st.wins}-{st.draws}-{st.losses}, {_m(st.imps_for)} for, {_m(st.imps_against)} against{names}")
    return out


def vp_penalty_line(mp: Any) -> str:
    """A procedural penalty in VPs taken from a team's match score, with its rule and paragraph."""
    rule = mp.borne.rule
    law = f"rule {rule.id}: {', '.join(rule.cites)}" if rule is not None else "no rule"
    return (f"board {mp.board}: team {mp.team} procedural penalty {_m(mp.borne.penalty.amount.value)} VP off the "
            f"match: {format_decimal(mp.before)} − {_m(mp.borne.penalty.amount.value)} = {format_decimal(mp.after)} VP "
            f"({law})")


def markdown(ss: Any) -> list[str]:
    t = ss.teams
    out = ["", scoring_line(ss), "", "| match | round | teams | boards | totals | score | winner |",
           "|---:|---:|---|---|---:|---:|---|"]
    signed = t.method == "team-imps"
    for sm in t.matches:
        m = sm.match
        boards = ", ".join(f"{mb.number}: {_m(mb.home, signed)}" for mb in sm.boards)
        out.append(f"| {m.key} | {m.round if m.round is not None else ''} | {m.home} v {m.away} | {boards} | "
                   f"{_m(sm.totals['home'], signed)} | {_m(sm.score['home'])}–{_m(sm.score['away'])} | "
                   f"{sm.winner or 'drawn'} |")
    penalised = [(sm, mp) for sm in t.matches for mp in sm.penalties]
    if penalised:
        out.append("")
        out.extend(f"- match {sm.match.key}: {vp_penalty_line(mp)}" for sm, mp in penalised)
    return out


def as_dict(ss: Any) -> dict[str, Any]:
    t = ss.teams

    def ej(v):
        return None if v is None else exact_json(v)

    return {
        "board_scoring": t.method, "match_scoring": t.match_scoring, "scale": t.scale,
        "rounding": vp_scale.ROUNDING.get(t.scale) if t.scale else None,
        "matches": [{"key": sm.match.key, "round": sm.match.round, "home": sm.match.home, "away": sm.match.away,
                     "boards": [{"board": mb.number, "home": ej(mb.home), "away": ej(mb.away), "how": mb.how,
                                 "penalties": [{"team": team, "amount": ej(a)} for team, a in mb.penalties]}
                                for mb in sm.boards],
                     "totals": {k: ej(v) for k, v in sm.totals.items()},
                     "score": {k: ej(v) for k, v in sm.score.items()}, "unit": sm.unit, "winner": sm.winner,
                     "carry": {k: ej(v) for k, v in sm.match.carry.items()},
                     "vp_penalties": [{"team": mp.team, "board": mp.board, "before": ej(mp.before), "after": ej(mp.after),
                                       **fieldtrace.penalty_json(mp.borne)} for mp in sm.penalties],
                     "vp_ruling": None if sm.ruling is None else {
                         "line": sm.ruled_line.line.label, "vp": {k: ej(v) for k, v in sm.ruling.vp.items()},
                         "trace": render.trace_json([e for e in sm.ruling.trace.entries
                                                     if e.kind in ("match", "vp", "vp-weighted")])}}
                    for sm in t.matches],
        "teams": [{"team": st.team, "rank": st.rank, "rank_text": st.rank_text, "total": ej(st.total),
                   "matches": st.matches, "wins": st.wins, "draws": st.draws, "losses": st.losses,
                   "for": ej(st.imps_for), "against": ej(st.imps_against), "boards": st.boards,
                   "adjusted": st.adjusted,
                   "names": st.contestant.names if st.contestant is not None else None} for st in t.standings],
        "pairwise": {sl.line.label: {k: ej(v) for k, v in t.pairwise[id(sl.line)].items()}
                     for sm in t.matches for mb in sm.boards for sl in mb.rooms if id(sl.line) in t.pairwise},
        # each pair's cross-IMP total as the programs print PAIR_IMPS: its lines' printed figures added
        "pair_imps": {number: ej(v) for number, v in sorted(t.pair_imps().items())} if t.pairwise else {},
    }
