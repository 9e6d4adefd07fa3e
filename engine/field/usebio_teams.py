"""A USEBIO 1.2 teams file (``EVENT_TYPE="TEAMS"``: EBUScore Teams, JSS TeamsScorer) as the field
model, and a scored teams session written back in the same shape.

Read: ``BOARD_SCORING_METHOD`` (``IMPS`` → team-imps, ``PAB`` → point-a-board, ``AGGREGATE`` →
aggregate), ``MATCH_SCORING_METHOD`` (``VPS`` → victory points, ``IMPS``, ``PAB`` → the match's
board points), ``SESSION``/``SECTION`` levels, ``PARTICIPANTS/TEAM`` (``TEAM_ID``, ``TEAM_NAME``
attributes; published ``TOTAL_SCORE``, ``WINS_OR_DRAWS``, ``PLACE``; its ``PAIR``s, team-pair ids
such as ``1-1-2``, with ``BOARDS_PLAYED`` and ``PAIR_IMPS``), and each ``MATCH``: ``ROUND_NUMBER``,
``TEAM`` (home) and ``OPPOSING_TEAM`` (away), ``START_``/``END_BOARD_NUMBER``, the published
``TEAM_SCORE``/``OPPOSING_TEAM_SCORE``, and its ``BOARD``s — the published board score (``IMPS``
from the home team's view, or ``TEAM_POINTS``/``OPPOSING_TEAM_POINTS``) and the two
``TRAVELLER_LINE``s (the rooms): ``DIRECTION`` says where the home team sits (``NS``: its pair is
North-South there), the rest is a pairs traveller line (read by the USEBIO reader's own line
reader, so a result, a score code and the ``<!-- bridgelaw: … -->`` Adjustment cell read the same).
A line's ``NS_CROSS_IMP_POINTS``/``EW_CROSS_IMP_POINTS`` are the pairwise cross-IMPs the program
publishes for grading; they are kept as the line's pairwise figures.

This module knows the XML only through the nodes :mod:`.usebio` parses (it does not import it:
:mod:`.usebio` hands teams files here).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from ..core.errors import BridgelawError
from ..core.vocab import SIDES
from . import adjustment_cell
from .cells import MAX_BOARD, Change, Style, identifier, new_places, published, whole_number
from .cells import fixed_text as _num, node_where as _where, xml_escape as _esc
from .model import (Board, Contestant, Event, Line, Match, Program, Session, check_board, contestant_key,
                    session_played_on)

BOARD_METHODS = {"IMPS": "team-imps", "IMP": "team-imps", "PAB": "point-a-board", "POINT_A_BOARD": "point-a-board",
                 "BAM": "point-a-board", "BOARD_A_MATCH": "point-a-board", "AGGREGATE": "aggregate",
                 "TOTAL_POINTS": "aggregate"}
MATCH_METHODS = {"VPS": "vps", "VP": "vps", "IMPS": "imps", "IMP": "imps", "PAB": "points", "POINTS": "points"}
BOARD_BACK = {"team-imps": "IMPS", "point-a-board": "PAB", "aggregate": "AGGREGATE"}
MATCH_BACK = {"vps": "VPS", "imps": "IMPS", "points": "PAB"}
PAIRWISE = "CROSS_IMP_POINTS"
PROFILE_COMMENT = "bridgelaw: profile"      # <!-- bridgelaw: profile teamsscorer --> in a file bridgelaw wrote


def is_teams(event: Any) -> bool:
    """A USEBIO ``EVENT`` of teams: its type says so, or it holds ``MATCH`` elements between teams
    (a Swiss pairs file's matches name pairs: ``NS_PAIR_NUMBER``, not ``TEAM``)."""
    if event.attrs.get("EVENT_TYPE", "").upper() == "TEAMS":
        return True
    holders = [s for h in (event.all("SESSION") or [event]) for s in (h.all("SECTION") or [h])]
    return any(m.find("TEAM") is not None for h in holders for m in h.all("MATCH"))


def _method(event: Any, file: str, tag: str, table: dict[str, str], what: str) -> str:
    node = event.find(tag)
    text = (node.text.strip().upper() if node is not None else "")
    if text in table:
        return table[text]
    where = _where(file, node if node is not None else event)
    raise where.error(f"{tag} '{text[:20]}' is not a {what} bridgelaw reads" if text else f"the teams event has no {tag}",
                      expected=", ".join(sorted(set(table))))


def read_teams(root: Any, event: Any, file: str, *, data: bytes | None,
               read_line: Callable[[str, Any, str, Board, str], Line], vulnerability: Callable[[int], str],
               program: Program | None = None) -> Event:
    """The teams event under `event` (a USEBIO ``EVENT`` node), written by `program` (its
    ``PROGRAM_NAME``, as the USEBIO reader read it). `read_line(file, node, section, board,
    scoring)` reads one ``TRAVELLER_LINE`` as the USEBIO reader does."""
    title = event.value("EVENT_DESCRIPTION") or event.value("TITLE") or Path(file).stem
    scoring = _method(event, file, "BOARD_SCORING_METHOD", BOARD_METHODS, "board scoring method")
    match_scoring = _method(event, file, "MATCH_SCORING_METHOD", MATCH_METHODS, "match scoring method")
    if scoring == "point-a-board" and match_scoring == "vps":
        raise _where(file, event).error("a point-a-board event scored in VPs", expected="MATCH_SCORING_METHOD PAB")
    holders = event.all("SESSION") or [event]
    sessions = []
    for k, holder in enumerate(holders, 1):
        session = Session(name=title if len(holders) == 1 else f"{title} — session {k}", scoring=scoring,
                          where=_where(file, holder), date=session_played_on(file, holder, event),
                          pair_numbers="unique", match_scoring=match_scoring)
        for sec in holder.all("SECTION") or [holder]:
            section = (sec.value("SECTION_ID") or sec.attrs.get("SECTION_ID", "")) if sec is not holder else ""
            _teams(file, sec, section, session)
            for m in sec.all("MATCH"):
                session.matches.append(_match(file, m, section, session, read_line, vulnerability))
        if not session.matches:
            raise _where(file, holder).error("the teams session has no matches", expected="<MATCH> elements")
        for board in session.boards.values():
            check_board(board, session, lambda line, key: line.extra.get("cells", {}).get(key, line.where),
                        f"board {board.number}: ")
        sessions.append(session)
    extra = {"crlf": data is not None and b"\r\n" in data[:4096]}
    for c in event.comments:            # a file bridgelaw wrote: the profile it was scored with (field/profiles.py)
        c = c.strip()
        if c.startswith(PROFILE_COMMENT):
            extra["profile"] = c[len(PROFILE_COMMENT):].strip()
    return Event(title=title, file=file, format="usebio", sessions=sessions, source=root, program=program,
                 extra=extra)


def _teams(file: str, holder: Any, section: str, session: Session) -> None:
    parts = holder.find("PARTICIPANTS")
    if parts is None:
        return
    for team in parts.all("TEAM"):
        where = _where(file, team)
        tid = team.attrs.get("TEAM_ID") or team.value("TEAM_ID") or ""
        if not tid.strip():
            raise where.error("a TEAM has no TEAM_ID", expected='<TEAM TEAM_ID="1" …>')
        tid = identifier(tid, where, "TEAM_ID")
        key = contestant_key(section, None, tid, "unique")
        if key in session.contestants:
            raise where.error(f"team {tid} is listed twice", expected="each TEAM_ID once")
        c = Contestant(key, section, tid, None, (team.attrs.get("TEAM_NAME") or team.value("TEAM_NAME") or "").strip()
                       or None, extra={"node": team, "pairs": {}, "published": {}})
        for tag, name, dest in (("TOTAL_SCORE", "total", c.published), ("WINS_OR_DRAWS", "wins_or_draws",
                                                                          c.extra["published"]),
                                ("PLACE", "place", c.extra["published"])):
            text = team.value(tag)
            if text:
                value = published(text.rstrip("="))
                if value is None:
                    raise _where(file, team.find(tag)).error(f"{tag} '{text[:20]}' is not a number")
                dest[name] = value if name != "place" else (value, text)
        for pair in team.all("PAIR"):
            number = pair.value("PAIR_NUMBER")
            if not number:
                raise _where(file, pair).error("a PAIR has no PAIR_NUMBER")
            number = identifier(number, _where(file, pair), "PAIR_NUMBER")
            names = " - ".join(p.value("PLAYER_NAME") or "" for p in pair.all("PLAYER")) or None
            figures = {}
            for tag, name in (("PAIR_IMPS", "imps"), ("BOARDS_PLAYED", "boards")):
                text = pair.value(tag)
                if text and published(text) is not None:
                    figures[name] = published(text)
            c.extra["pairs"][number] = {"names": names, "published": figures, "node": pair}
        session.contestants[key] = c


def _figure(file: str, node: Any, tag: str) -> Any:
    text = node.value(tag)
    if not text:
        return None
    value = published(text)
    if value is None:
        raise _where(file, node.find(tag)).error(f"{tag} '{text[:20]}' is not a number")
    return value


def _match(file: str, node: Any, section: str, session: Session, read_line: Callable, vulnerability: Callable) -> Match:
    where = _where(file, node)
    home, away = node.value("TEAM"), node.value("OPPOSING_TEAM")
    if not home or not away:
        raise where.error(f"a MATCH has no {'TEAM' if not home else 'OPPOSING_TEAM'}",
                          expected="<TEAM> and <OPPOSING_TEAM>: the two teams' ids")
    home, away = identifier(home, where, "TEAM"), identifier(away, where, "OPPOSING_TEAM")
    if home == away:
        raise _where(file, node.find("OPPOSING_TEAM")).error(f"team {home} plays itself", expected="two teams")
    for tid in (home, away):
        key = contestant_key(section, None, tid, "unique")
        if key not in session.contestants:
            session.contestants[key] = Contestant(key, section, tid, None, extra={"pairs": {}, "published": {}})
    rnd = node.value("ROUND_NUMBER")
    match = Match(key=str(len(session.matches) + 1), home=home, away=away, where=where,
                  round=whole_number(rnd, _where(file, node.find("ROUND_NUMBER")), "ROUND_NUMBER", 9999) if rnd else None,
                  extra={"node": node, "section": section,
                         "range": (node.value("START_BOARD_NUMBER"), node.value("END_BOARD_NUMBER"))})
    for tag, who in (("TEAM_SCORE", "home"), ("OPPOSING_TEAM_SCORE", "away")):
        value = _figure(file, node, tag)
        if value is not None:
            match.published[who] = value
    for b in node.all("BOARD"):
        number = whole_number(b.value("BOARD_NUMBER") or "", _where(file, b), "BOARD_NUMBER", MAX_BOARD)
        if number in match.lines:
            raise _where(file, b).error(f"board {number} appears twice in the match", expected="each board once a match")
        board = session.boards.get(number)
        if board is None:
            board = session.boards[number] = Board(number, vulnerability(number), [], _where(file, b),
                                                      extra={"node": b})
        figures: dict[str, Any] = {}
        imps = _figure(file, b, "IMPS")
        if imps is not None:
            figures["home"] = imps
        for tag, who in (("TEAM_POINTS", "home"), ("OPPOSING_TEAM_POINTS", "away")):
            value = _figure(file, b, tag)
            if value is not None:
                figures[who] = value
        if figures:
            match.board_published[number] = figures
        rooms = []
        for tl in b.all("TRAVELLER_LINE"):
            line = read_line(file, tl, section, board, "cross-imps", session)   # its warnings kept with the session
            pairwise = {side: line.published.pop(side) for side in SIDES if side in line.published}
            if pairwise:
                line.extra["pairwise"] = pairwise
            direction = (tl.value("DIRECTION") or "").upper().replace("-", "")
            if direction not in ("NS", "EW"):
                d = tl.find("DIRECTION")
                raise _where(file, d if d is not None else tl).error(
                    f"DIRECTION '{direction[:10]}' of a teams traveller line" if direction else
                    "a teams traveller line has no DIRECTION", expected="NS or EW: where the match's TEAM sits")
            line.team = {"NS": home, "EW": away} if direction == "NS" else {"NS": away, "EW": home}
            line.match = match
            rooms.append(line)
            board.lines.append(line)
        if not rooms or len(rooms) > 2:
            raise _where(file, b).error(f"board {number} of the match has {len(rooms)} traveller lines",
                           expected="the match's two rooms (one line with DIRECTION NS, one with EW)")
        if len(rooms) == 2 and rooms[0].team == rooms[1].team:
            raise rooms[1].where.error(f"board {number}: both rooms have team {rooms[0].team['NS']} North-South",
                                       expected="one line with DIRECTION NS and one with EW")
        match.boards.append(number)
        match.lines[number] = rooms
    if not match.boards:
        raise where.error("a MATCH has no boards", expected="<BOARD> elements with the two rooms' lines")
    return match


# --- writing -------------------------------------------------------------------------------------------

def write(scored_sessions: list, event: Event, result_xml: Callable[[Line], list[tuple[str, str]]],
          profile: str | None = None) -> str:
    """USEBIO 1.2 teams for the scored sessions: every match's board scores and match scores as
    bridgelaw computes them (rulings applied), each team's total, wins or draws and place, each
    line's pairwise cross-IMPs; an adjusted or artificial line carries the Adjustment cell as a
    comment, so that reading the file again gives the same scores; the program profile the event
    was scored with (`profile`) is named in a comment, and applied again when the file is read.
    `result_xml(line)` is the USEBIO writer's result cells (tag, text); an artificial line's empty
    SCORE is written ``ADJ`` (its scores are the Adjustment cell's)."""
    first = scored_sessions[0].session
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">',
           '<USEBIO Version="1.2">', '<EVENT EVENT_TYPE="TEAMS">',
           f"  <BOARD_SCORING_METHOD>{BOARD_BACK[first.scoring]}</BOARD_SCORING_METHOD>",
           f"  <MATCH_SCORING_METHOD>{MATCH_BACK[first.match_scoring]}</MATCH_SCORING_METHOD>",
           "  <PROGRAM_NAME>bridgelaw</PROGRAM_NAME>",
           *([f"  <!-- {PROFILE_COMMENT} {_esc(profile)} -->"] if profile else []),
           f"  <EVENT_DESCRIPTION>{_esc(event.title)}</EVENT_DESCRIPTION>"]
    if first.date is not None:
        out.append(f"  <DATE>{first.date.strftime('%d/%m/%Y')}</DATE>")
    out.append(f"  <SESSION_COUNT>{len(scored_sessions)}</SESSION_COUNT>")
    if any(ss.teams.pairwise for ss in scored_sessions):
        out.append("  <PAIRWISE_SCORING_METHOD>CROSS_IMPS</PAIRWISE_SCORING_METHOD>")
    for k, ss in enumerate(scored_sessions, 1):
        session, teams = ss.session, ss.teams
        out.append(f'  <SESSION SESSION_ID="{k}">')
        out.append("    <PARTICIPANTS>")
        pair_totals = teams.pair_totals()
        printed = teams.pair_imps()             # PAIR_IMPS as the programs print it: the lines' printed figures added
        for st in teams.standings:
            c = st.contestant
            name = f' TEAM_NAME="{_esc(c.names)}"' if c is not None and c.names else ""
            out.append(f'      <TEAM TEAM_ID="{_esc(st.team)}"{name}>')
            out.append(f"        <TOTAL_SCORE>{_num(st.total)}</TOTAL_SCORE>")
            out.append(f"        <WINS_OR_DRAWS>{st.wins + st.draws}</WINS_OR_DRAWS>")
            out.append(f"        <PLACE>{st.rank_text}</PLACE>")
            for number, pair in (c.extra.get("pairs", {}) if c is not None else {}).items():
                out.append("        <PAIR>")
                out.append(f"          <PAIR_NUMBER>{_esc(number)}</PAIR_NUMBER>")
                boards, imps = pair_totals.get(number, (0, None))
                imps = printed.get(number, imps)
                out.append(f"          <BOARDS_PLAYED>{boards}</BOARDS_PLAYED>")
                if imps is not None:
                    out.append(f"          <PAIR_IMPS>{_num(imps)}</PAIR_IMPS>")
                for player in (pair["names"] or "").split(" - ") if pair.get("names") else []:
                    out.append(f"          <PLAYER><PLAYER_NAME>{_esc(player)}</PLAYER_NAME></PLAYER>")
                out.append("        </PAIR>")
            out.append("      </TEAM>")
        out.append("    </PARTICIPANTS>")
        for sm in teams.matches:
            m = sm.match
            out.append("    <MATCH>")
            if m.round is not None:
                out.append(f"      <ROUND_NUMBER>{m.round}</ROUND_NUMBER>")
            out.append(f"      <TEAM>{_esc(m.home)}</TEAM>")
            out.append(f"      <OPPOSING_TEAM>{_esc(m.away)}</OPPOSING_TEAM>")
            out.append(f"      <START_BOARD_NUMBER>{min(m.boards)}</START_BOARD_NUMBER>")
            out.append(f"      <END_BOARD_NUMBER>{max(m.boards)}</END_BOARD_NUMBER>")
            out.append(f"      <TEAM_SCORE>{_num(sm.score['home'])}</TEAM_SCORE>")
            out.append(f"      <OPPOSING_TEAM_SCORE>{_num(sm.score['away'])}</OPPOSING_TEAM_SCORE>")
            for mb in sm.boards:
                out.append("      <BOARD>")
                out.append(f"        <BOARD_NUMBER>{mb.number}</BOARD_NUMBER>")
                if session.scoring == "point-a-board":
                    out.append(f"        <TEAM_POINTS>{_num(mb.home)}</TEAM_POINTS>")
                    out.append(f"        <OPPOSING_TEAM_POINTS>{_num(mb.away)}</OPPOSING_TEAM_POINTS>")
                elif session.scoring == "aggregate":
                    out.append(f"        <TEAM_POINTS>{_num(mb.home)}</TEAM_POINTS>")
                    out.append(f"        <OPPOSING_TEAM_POINTS>{_num(mb.away)}</OPPOSING_TEAM_POINTS>")
                else:
                    out.append(f"        <IMPS>{_num(mb.home)}</IMPS>")
                for sl in mb.rooms:
                    line = sl.line
                    out.append("        <TRAVELLER_LINE>")
                    cell = adjustment_cell.write(sl)
                    if cell:
                        out.append(f"          <!-- bridgelaw: {teams.cell(sl, cell).replace('--', '- -')} -->")
                    out.append(f"          <DIRECTION>{'NS' if line.team['NS'] == m.home else 'EW'}</DIRECTION>")
                    out.append(f"          <NS_PAIR_NUMBER>{_esc(line.ns or '')}</NS_PAIR_NUMBER>")
                    out.append(f"          <EW_PAIR_NUMBER>{_esc(line.ew or '')}</EW_PAIR_NUMBER>")
                    out.extend(f"          <{t}>{_esc(text or 'ADJ')}</{t}>" for t, text in result_xml(line))
                    pw = teams.pairwise.get(id(line))
                    if pw is not None:
                        for side in SIDES:
                            out.append(f"          <{side}_{PAIRWISE}>{_num(pw[side])}</{side}_{PAIRWISE}>")
                    out.append("        </TRAVELLER_LINE>")
                out.append("      </BOARD>")
            out.append("    </MATCH>")
        out.append("  </SESSION>")
    out.append("</EVENT>")
    out.append("</USEBIO>")
    return "\n".join(out) + "\n"


def refuse_pbn(event: Event) -> None:
    """A teams event is not written as PBN: no real PBN teams results file was found to model it on."""
    if any(s.matches for s in event.sessions):
        where = event.sessions[0].where
        position = {"line": where.line, "column": where.column} if where is not None and where.line else {}
        raise BridgelawError("a teams event is not written as PBN: no PBN teams results file (rooms, match "
                             "scores) was found to model the format on", file=event.file,
                             expected="--output FILE.xml (USEBIO teams) for a teams event", **position)


def write_in_place(scored_sessions: list, event: Event, edits: Any, profile: str | None = None,
                   figs: list | None = None) -> str:
    """The teams file read, edited in place (`edits`: the USEBIO writer's in-place edits of the bytes
    it was parsed from; its encoding, layout and every element kept): what the rulings change and
    nothing else (:func:`operations`)."""
    ev = event.source.find("EVENT")
    if profile is not None and ev is not None:
        edits.comment(ev, f"profile {profile}", word="profile")
    for k, ss in enumerate(scored_sessions, 1):
        ops = figs[k - 1].operations if figs is not None else operations(ss, k)[0]
        for op, node, text, _ in ops:
            if op == "set":
                edits.set(node, text)
            elif op == "remove":
                edits.remove(node)
            else:
                edits.comment(node, text)
    return edits.text()


def operations(ss: Any, index: int) -> tuple[list[tuple[str, Any, str | None, Any]], list[Any]]:
    """What a teams session's corrected file changes, as (op, node, text, change) — ``set`` an element's
    text, ``remove`` an element, ``comment`` a ruled room — and the figures changed (cells.Change):
    each ruled room's comment (its Adjustment cell), the ruled boards' scores in their matches and those
    matches' scores, the ruled boards' pairwise cross-IMPs on every line (an artificial room's removed:
    it is compared with none), and what follows — each team's total (printed + the change of its ruled
    matches' scores), wins or draws and place, each pair's PAIR_IMPS (printed + the change of its ruled
    boards' pairwise figures). Every other figure is kept as the program printed it; a changed one is
    written at the file's precision, or at the decimals its exact value needs (up to two)."""
    teams = ss.teams
    ops: list[tuple[str, Any, str | None, Any]] = []
    rooms = [(sm, mb, sl) for sm in teams.matches for mb in sm.boards for sl in mb.rooms]
    rulings = {sl.line.board: _why(sl.line) for _, _, sl in rooms if sl.line.ruling is not None}
    if not rulings:
        return ops, []
    ruled_matches = [sm for sm in teams.matches if any(sl.line.ruling is not None for mb in sm.boards for sl in mb.rooms)]
    pw_style = Style.of([p for _, _, sl in rooms for p in sl.line.extra.get("pairwise", {}).values()], 0)
    board_style = Style.of([p for sm in teams.matches for f in sm.match.board_published.values() for p in f.values()], 0)
    match_style = Style.of([p for sm in teams.matches for p in sm.match.published.values()], 0)

    def put(node: Any, tag: str, value: Fraction | None, pub: Any, style: Any, where: str, why: str,
            board: int | None = None) -> None:
        element = node.find(tag) if node is not None else None
        if element is None or value is None or (pub is not None and pub.value == value):
            return
        text = style.text(value, extend=True)
        if pub is None or Fraction(text) != pub.value:
            ops.append(("set", element, text, Change(index, board, where, tag, pub.text if pub else None, text, why)))

    pair_change: dict[str, Fraction] = {}
    for sm, mb, sl in rooms:
        if mb.number not in rulings:
            continue
        line, node = sl.line, sl.line.extra.get("node")
        why = _why(line) if line.ruling is not None else f"board {mb.number}: follows from {rulings[mb.number]}"
        pw = teams.pairwise.get(id(line)) or {}
        for side, pub in line.extra.get("pairwise", {}).items():
            who = line.who(side)
            tag = f"{side}_{PAIRWISE}"
            if pw.get(side) is None and node is not None and node.find(tag) is not None:
                ops.append(("remove", node.find(tag), None,            # a room no longer compared (artificial)
                            Change(index, mb.number, line.label, tag, pub.text, "(none)", why)))
                if who is not None:
                    pair_change[who] = pair_change.get(who, Fraction(0)) - pub.value
                continue
            put(node, tag, pw.get(side), pub, pw_style, line.label, why, mb.number)
            if who is not None and pw.get(side) is not None:
                pair_change[who] = pair_change.get(who, Fraction(0)) + pw[side] - pub.value
        if line.ruling is not None and node is not None:
            cell = adjustment_cell.write(sl)
            ops.append(("comment", node, teams.cell(sl, cell) if cell else None, None))
    team_change: dict[str, Fraction] = {}
    wins_change: dict[str, int] = {}
    team_why: dict[str, list[str]] = {}
    for sm in ruled_matches:
        m, node = sm.match, sm.match.extra.get("node")
        ruled_here = {sl.line.board for mb in sm.boards for sl in mb.rooms if sl.line.ruling is not None}
        label = f"match {m.key} ({m.label})"
        for b in (node.all("BOARD") if node is not None else []):
            mb = next((x for x in sm.boards if str(x.number) == (b.value("BOARD_NUMBER") or "").strip()), None)
            if mb is None or mb.number not in ruled_here:
                continue
            figures = m.board_published.get(mb.number, {})
            where = f"{label} board {mb.number}"
            put(b, "IMPS", mb.home, figures.get("home"), board_style, where, rulings[mb.number], mb.number)
            put(b, "TEAM_POINTS", mb.home, figures.get("home"), board_style, where, rulings[mb.number], mb.number)
            put(b, "OPPOSING_TEAM_POINTS", mb.away, figures.get("away"), board_style, where, rulings[mb.number],
                mb.number)
        why = "follows from " + ", ".join(f"board {n}" for n in sorted(ruled_here))
        put(node, "TEAM_SCORE", sm.score["home"], m.published.get("home"), match_style, label, why)
        put(node, "OPPOSING_TEAM_SCORE", sm.score["away"], m.published.get("away"), match_style, label, why)
        old = {who: m.published[who].value if who in m.published else sm.score[who] for who in ("home", "away")}
        for who, other, team in (("home", "away", m.home), ("away", "home", m.away)):
            team_change[team] = team_change.get(team, Fraction(0)) + sm.score[who] - old[who]
            wins_change[team] = wins_change.get(team, 0) + int(sm.score[who] >= sm.score[other]) - \
                int(old[who] >= old[other])
            team_why.setdefault(team, []).append(label)
    _team_figures(teams, index, ops, team_change, wins_change, team_why, pair_change, pw_style)
    return ops, [c for *_, c in ops if c is not None]


def _why(line: Line) -> str:
    r = line.ruling
    return f"rulings entry {r['entry']} ({r['file']}:{r['line']})" + (f": {r['note']}" if r.get("note") else "")


def _team_figures(teams: Any, index: int, ops: list, team_change: dict, wins_change: dict, team_why: dict,
                  pair_change: dict, pw_style: Any) -> None:
    """Each team's TOTAL_SCORE, WINS_OR_DRAWS and PLACE, each pair's PAIR_IMPS, after its matches' and
    boards' changes."""
    contestants = [st.contestant for st in teams.standings if st.contestant is not None]
    total_style = Style.of([c.published["total"] for c in contestants if "total" in c.published], 0)
    new_total: dict[str, Fraction] = {}
    for st in teams.standings:
        c = st.contestant
        node = c.extra.get("node") if c is not None else None
        pub = c.published.get("total") if c is not None else None
        new_total[st.key] = (pub.value if pub is not None else st.total) + team_change.get(st.team, Fraction(0))
        if node is None:
            continue
        why = "follows from " + ", ".join(team_why.get(st.team, [])) if st.team in team_why else "follows from the rulings"
        if pub is not None and new_total[st.key] != pub.value and node.find("TOTAL_SCORE") is not None:
            text = total_style.text(new_total[st.key], extend=True)
            ops.append(("set", node.find("TOTAL_SCORE"), text,
                        Change(index, None, f"team {st.team}", "total", pub.text, text, why)))
        wd = c.extra.get("published", {}).get("wins_or_draws")
        if wd is not None and wins_change.get(st.team) and node.find("WINS_OR_DRAWS") is not None:
            text = str(int(wd.value) + wins_change[st.team])
            ops.append(("set", node.find("WINS_OR_DRAWS"), text,
                        Change(index, None, f"team {st.team}", "wins or draws", wd.text, text, why)))
        for number, pair in c.extra.get("pairs", {}).items():
            p = pair["published"].get("imps")
            change = pair_change.get(number)
            if p is not None and change and pair["node"].find("PAIR_IMPS") is not None:
                text = pw_style.text(p.value + change, extend=True)
                ops.append(("set", pair["node"].find("PAIR_IMPS"), text,
                            Change(index, None, f"pair {number}", "PAIR_IMPS", p.text, text,
                                   "follows from its pairwise cross-IMPs")))
    if not any(team_change.values()):
        return
    groups: dict[str, list] = {}
    for st in teams.standings:
        groups.setdefault(st.section, []).append(st)
    for group in groups.values():
        printed = {}
        for st in group:
            place = st.contestant.extra.get("published", {}).get("place") if st.contestant is not None else None
            printed[st.key] = (int(place[0].value), place[1].strip()) if place is not None else (None, None)
        shares = any(t is not None and t.endswith("=") for _, t in printed.values())
        by_key = {st.key: st for st in group}
        for key, _, text in new_places(list(by_key), new_total, printed, shares, shares):
            st = by_key[key]
            node = st.contestant.extra.get("node") if st.contestant is not None else None
            if node is not None and node.find("PLACE") is not None and printed[key][1] != text:
                ops.append(("set", node.find("PLACE"), text, Change(index, None, f"team {st.team}", "place",
                                                                   printed[key][1], text,
                                                                   "follows from the new totals")))
