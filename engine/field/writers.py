"""Writing the corrected event. A PBN or USEBIO file read (teams included) is edited in place: the
figures :mod:`.corrected` changes — a ruled board's, and the totals, percentages and places that
follow — an ``Adjustment`` cell (PBN) or comment (USEBIO) on each ruled line, and the profile it was
scored with where that is not its program's; every other byte kept. The other format, only when asked,
is written whole (USEBIO 1.2 from PBN, PBN from USEBIO), naming the profile, date and ranking it was
scored with so that it reads back the same. The texts are built before anything is written (the
writes are atomic: core.files)."""

from __future__ import annotations


from ..core import bridge
from ..core.errors import BridgelawError
from ..core.exact import format_fixed as fixed
from . import adjustment_cell, corrected, usebio, usebio_teams
from .model import Event
from .pbn_file import TableEdit, edit_tables
from .score import ScoredSession


def profile_note(event: Event, scored: list[ScoredSession], always: bool) -> str | None:
    """The profile to name in the written file, so that it reads back the same: the one the event was
    scored with (``none`` for none) — `always` (a file written in the other format, whose program is
    bridgelaw), else only when it is not the one the file's own program chooses (``--profile``)."""
    choice = scored[0].conventions
    if choice is None:
        return None
    value = choice.profile.id if choice.profile is not None else "none"
    if always or choice.how in ("option", "none"):
        return None if event.extra.get("profile") == value and not always else value
    return None


PBN_COLUMNS = {"MP": {"NS": "MP_NS", "EW": "MP_EW", "NS%": "Percentage_NS", "EW%": "Percentage_EW"},
               "IMP": {"NS": "IMP_NS", "EW": "IMP_EW"}}


def pbn_text(event: Event, scored: list[ScoredSession], figs: list[corrected.Figures] | None = None) -> str:
    """The PBN file read, edited in place: the figures :mod:`.corrected` changes (a ruled board's
    lines, the totals, percentages and places that follow), an Adjustment cell on each ruled line
    (the column added to a ruled board's table that has none), the TotalScoreTable's rows re-ordered
    when the places change and the table is in place order. Every other character is kept."""
    pbn = event.source
    ss = scored[0]
    fig = (figs or corrected.figures(scored))[0]
    columns = PBN_COLUMNS["IMP" if ss.unit == "IMP" else "MP"]
    edits = []
    for number, sb in ss.boards.items():
        table = sb.board.extra["game"].score_table
        edit = TableEdit(table)
        added: dict[str, list[str]] = {}
        position = {id(row): k for k, row in enumerate(table.rows)}
        for sl in sb.lines:
            row = sl.line.extra.get("row")
            if row is None:
                continue
            k = position[id(row)]
            cells = {}
            for key, name in columns.items():
                text = fig.line(sl, key)
                if text is not None:
                    cells[name] = text
            if number in fig.ruled:
                cell = adjustment_cell.write(sl) or "-"
                token = row.value(table, "Adjustment")
                if token is None or token.value != cell:
                    cells["Adjustment"] = cell
            for name, text in cells.items():
                col = table.index(name)
                if col is None:
                    added.setdefault(name, ["-"] * len(table.rows))[k] = text
                else:
                    edit.cells.setdefault(k, {})[col] = text
        edit.added = list(added.items())
        if edit.cells or edit.added:
            edits.append(edit)
    for game in pbn.games:
        for name, table in game.tables.items():
            if name.lower() == "totalscoretable":
                edit = _totals(table, ss, fig)
                if edit.cells or edit.order:
                    edits.append(edit)
    text = edit_tables(pbn, edits)
    named = profile_note(event, scored, always=False)
    if named is not None:
        text = _pbn_note(text, adjustment_cell.note("profile", named))
    if fig.ruled and not any(name.lower() == "totalscoretable" for g in pbn.games for name in g.tables):
        text = text + _total_game(ss, pbn.lines)      # a ruled file without totals: bridgelaw's
    return text


def _pbn_note(text: str, note: str) -> str:
    """`text` with the ``% bridgelaw: …`` note in its header: one of the same word replaced, else a line
    added after the file's leading ``%`` lines."""
    lines = text.splitlines(keepends=True)
    nl = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    word = note.split()[1]
    k = 0
    while k < len(lines) and lines[k].startswith("%"):
        if lines[k].lstrip("%").strip().startswith(f"bridgelaw: {word} "):
            lines[k] = f"% {note}{nl}"
            return "".join(lines)
        k += 1
    lines.insert(k, f"% {note}{nl}")
    return "".join(lines)


def _totals(table, ss: ScoredSession, fig: corrected.Figures) -> TableEdit:
    """A TotalScoreTable's changed figures: each row's total, percentage, boards and place (a file of
    one session of several: its Session… columns; the cumulative ones are left to the program), and
    the rows re-ordered by the new places when the table is in place order."""
    by_row = {id(st.contestant.extra.get("row")): st for st in ss.standings if st.contestant is not None}
    session = table.index("SessionScoreMP") is not None or table.index("SessionScoreIMP") is not None
    unit = "IMP" if ss.unit == "IMP" else "MP"
    names = {"total": [f"SessionScore{unit}"] if session else ["TotalScoreMP", "TotalScoreIMP", "TotalScore"],
             "percent": ["SessionPercentage"] if session else ["TotalPercentage"],
             "place": ["SessionRank"] if session else ["Rank"],
             "boards": ["NrBoardsSession"] if session else ["NrBoards"]}
    edit = TableEdit(table)
    rows = [by_row.get(id(row)) for row in table.rows]
    for k, st in enumerate(rows):
        if st is None:
            continue
        for cell, candidates in names.items():
            text = fig.standing(st, cell)
            col = next((table.index(c) for c in candidates if table.index(c) is not None), None)
            if text is not None and col is not None:
                edit.cells.setdefault(k, {})[col] = text
    rank = table.index(names["place"][0])
    if rank is not None and any(st is not None and st.key in fig.places for st in rows):
        printed = [int(p.value) if (st is not None and st.contestant is not None and
                                    (p := st.contestant.published.get("place")) is not None) else None for st in rows]
        known = [p for p in printed if p is not None]
        if known == sorted(known):                      # the table is in place order: it stays so
            order = sorted(range(len(rows)), key=lambda k: (rows[k] is None, fig.place(rows[k]) if rows[k] else 0, k))
            edit.order = order if order != list(range(len(rows))) else None
    return edit


def _total_game(ss: ScoredSession, lines: list[str]) -> str:
    """A closing game with the session's TotalScoreTable, for a file that had none."""
    nl = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    unit = ss.unit
    out = ["", '[Event "#"]', f'[TotalScoreTable "Rank\\3R;Section;PairId\\4R;Direction;TotalScore{unit}\\8R;'
           'TotalPercentage\\6R"]']
    for st in ss.standings:
        number = st.contestant.number if st.contestant else st.key.split(":")[-1].split(" ")[-1]
        direction = {"NS": "N-S", "EW": "E-W"}.get(st.direction or "", "-")
        out.append(f'{st.rank_text:>3} {st.section or "-"} {number:>4} {direction} {fixed(st.total, 2):>8} '
                   f'{fixed(st.percent, 2) if st.percent is not None else "-":>6}')
    text = nl.join(out) + nl
    return text if not lines or lines[-1].endswith(("\n", "\r")) else nl + text


def usebio_text(event: Event, scored: list[ScoredSession], figs: list[corrected.Figures] | None = None) -> str:
    """The corrected USEBIO: a USEBIO file read is edited in place (:func:`usebio.write_in_place`); a
    teams event written in its own shape; an event read from elsewhere as USEBIO 1.2."""
    if any(ss.teams is not None for ss in scored) and event.format == "usebio" and \
            getattr(event.source, "source", None) is not None:     # a teams file read: edited in place
        return usebio_teams.write_in_place(scored, event, usebio._InPlace(event.source.source),
                                           profile_note(event, scored, always=False), figs)
    if any(ss.teams is not None for ss in scored):      # a teams event: its own USEBIO shape
        choice = scored[0].conventions       # the program's profile it was scored with, named in the file
        text = usebio_teams.write(scored, event, usebio._result_xml,   # the same result cells
                                  choice.profile.id if choice is not None and choice.profile is not None else None)
    elif event.format == "usebio" and getattr(event.source, "source", None) is not None:
        return usebio.write_in_place(scored, event, figs or corrected.figures(scored),
                                     profile_note(event, scored, always=False))
    else:
        text = usebio.write(scored, event, profile_note(event, scored, always=True))
    if event.format == "usebio" and event.extra.get("crlf"):
        text = text.replace("\n", "\r\n")
    return text


def usebio_encoding(event: Event, scored: list[ScoredSession]) -> str:
    """The corrected USEBIO's encoding: the input's, for a USEBIO file edited in place; else UTF-8."""
    if event.format == "usebio" and getattr(event.source, "source", None) is not None:
        return event.source.source.encoding
    return "utf-8"


def encode_check(text: str, encoding: str, file: str) -> None:
    try:
        text.encode(encoding.replace("utf-8-sig", "utf-8"))
    except UnicodeEncodeError as exc:
        raise BridgelawError(f"the output cannot be written in {encoding}: {exc.reason}", file=file) from None


def pbn_fresh(event: Event, scored: list[ScoredSession]) -> str:
    """A PBN file for an event read from elsewhere (USEBIO): one game per board with its
    ScoreTable (results, scores, Adjustment cells) and, in the first game, a TotalScoreTable."""
    usebio_teams.refuse_pbn(event)
    if len(scored) > 1:
        raise BridgelawError(f"{event.file} has {len(scored)} sessions; a PBN file holds one",
                             expected="--output FILE.xml (USEBIO keeps every session)")
    ss = scored[0]
    unit = ss.unit
    out = ["% PBN 2.1", "% EXPORT", "%Creator: bridgelaw event"]
    named = profile_note(event, scored, always=True)
    if named is not None:                   # the conventions and ranking it was scored with travel with it
        out.append("% " + adjustment_cell.note("profile", named))
    if ss.session.ranking_from_file and ss.session.ranking:
        out.append("% " + adjustment_cell.note("ranking", ss.session.ranking))
    out.append("")
    first = True
    for number, sb in ss.boards.items():
        title = event.title.replace('"', "'")
        out.append(f'[Event "{title if first else "#"}"]')
        if first and ss.session.date is not None:
            out.append(f'[Date "{ss.session.date.strftime("%Y.%m.%d")}"]')
        out.append(f'[Board "{number}"]')
        out.append(f'[Vulnerable "{sb.board.vulnerability or "None"}"]')
        out.append(f'[Scoring "{ {"matchpoints": "MatchPoints", "cross-imps": "Cross-IMPs", "butler": "Butler"}[ss.session.scoring]}"]')
        if first:
            out.append('[TotalScoreTable "Rank\\3R;Section;PairId\\4R;Direction;TotalScore'
                       f'{unit}\\8R;TotalPercentage\\6R"]')
            for st in ss.standings:
                number_text = st.contestant.number if st.contestant else st.key.split(":")[-1].split(" ")[-1]
                direction = {"NS": "N-S", "EW": "E-W"}.get(st.direction or "", "-")
                pct = fixed(st.percent, 2) if st.percent is not None else "-"
                out.append(f'{st.rank_text:>3} {st.section or "-"} {number_text:>4} {direction} '
                           f'{fixed(st.total, 2):>8} {pct:>6}')
        first = False
        cols = "Section;Table\\3R;PairId_NS\\4R;PairId_EW\\4R;Contract\\5L;Declarer;Result\\2R;Score_NS\\5R;Score_EW\\5R"
        cols += ";MP_NS\\6R;MP_EW\\6R;Percentage_NS\\6R;Percentage_EW\\6R" if unit == "MP" else ";IMP_NS\\6R;IMP_EW\\6R"
        cols += ";Adjustment"
        out.append(f'[ScoreTable "{cols}"]')
        for sl in sb.lines:
            line = sl.line
            contract = declarer = tricks = "-"
            sns = sew = "-"
            if line.kind in ("result", "adjusted", "split"):      # an adjusted line keeps its table result
                r = line.result
                if isinstance(r, bridge.PlayedResult):
                    if r.contract is None:
                        contract, sns = "Pass", "PASS"
                    else:
                        c = r.contract
                        contract = f"{c.level}{'NT' if c.strain in ('N', 'NT') else c.strain}{'X' * c.doubled}"
                        declarer, tricks = r.declarer, str(r.tricks)
                if line.points is not None and contract != "Pass":
                    if line.points >= 0:
                        sns = str(line.points)
                    else:
                        sew = str(-line.points)
            elif line.kind == "artificial" and line.code:
                sns = line.code.split("/")[0]
            elif line.kind == "not-played":
                sns = "NP"
            adj = adjustment_cell.write(sl) or "-"
            cells = [line.section or "-", str(line.table) if line.table is not None else "-", line.ns or "-",
                     line.ew or "-", contract, declarer, tricks, sns, sew]
            if unit == "MP":
                cells += [fixed(sl.NS.value, 2), fixed(sl.EW.value, 2), fixed(sl.NS.percent, 2), fixed(sl.EW.percent, 2)]
            else:
                cells += [fixed(sl.NS.value, 2), fixed(sl.EW.value, 2)]
            cells.append(adj if adj == "-" else '"' + adj + '"')
            out.append(" ".join(cells))
        out.append("")
    return "\n".join(out)
