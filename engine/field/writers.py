"""Writing the corrected event: PBN (the input file with its ScoreTables and TotalScoreTable
rescored and an ``Adjustment`` column recording each ruling; every other line, the encoding
and the line endings kept) and USEBIO 1.2. Writes are atomic."""

from __future__ import annotations


from ..core import bridge
from ..core.errors import BridgelawError
from ..core.exact import format_fixed as fixed
from ..core.vocab import SIDES
from . import adjustment_cell, usebio, usebio_teams
from .model import Event
from .pbn_file import rewrite_tables
from .score import ScoredSession


def _places(lines, key: str, default: int) -> int:
    for line in lines:
        p = line.published.get(key)
        if p is not None:
            return p.places
    return default


def pbn_text(event: Event, scored: list[ScoredSession]) -> str:
    pbn = event.source
    ss = scored[0]
    changes = []
    adjusted_anywhere = any(adjustment_cell.write(sl) for sb in ss.boards.values() for sl in sb.lines)
    for number, sb in ss.boards.items():
        table = sb.board.extra["game"].score_table
        lines = [sl.line for sl in sb.lines]
        values: dict[str, list[str]] = {}
        if ss.unit == "MP":
            for side in SIDES:
                places = _places(lines, side, 2)
                values[f"MP_{side}"] = [fixed(sl.side(side).value, places) for sl in sb.lines]
            for side in SIDES:
                places = _places(lines, side + "%", 2)
                values[f"Percentage_{side}"] = [fixed(sl.side(side).percent, places) for sl in sb.lines]
        else:
            for side in SIDES:
                places = _places(lines, side, 2)
                values[f"IMP_{side}"] = [fixed(sl.side(side).value, places) for sl in sb.lines]
        if adjusted_anywhere or table.index("Adjustment") is not None:
            values["Adjustment"] = [adjustment_cell.write(sl) or "-" for sl in sb.lines]
        changes.append((table, values))
    orders: dict[int, list[int]] = {}
    for game in pbn.games:
        for name, table in game.tables.items():
            if name.lower() != "totalscoretable":
                continue
            values, order = _totals(table, ss)
            changes.append((table, values))
            if order is not None:
                orders[id(table)] = order
    text = rewrite_tables(pbn, changes, orders)
    if not any(name.lower() == "totalscoretable" for g in pbn.games for name in g.tables):
        text = text + _total_game(ss, pbn.lines)
    return text


def _totals(table, ss: ScoredSession) -> tuple[dict[str, list[str]], list[int] | None]:
    """A TotalScoreTable rescored: each row's total, percentage and rank (a file of one session of
    several: its Session… columns; the cumulative ones are left to the program), and the rows
    re-ordered as the new ranking goes when the table is in rank order."""
    by_row = {id(st.contestant.extra.get("row")): st for st in ss.standings if st.contestant is not None}
    published = [st.contestant.published for st in ss.standings if st.contestant is not None]
    t_places = next((p["total"].places for p in published if "total" in p), 2)
    p_places = next((p["percent"].places for p in published if "percent" in p), 2)
    session = table.index("SessionScoreMP") is not None or table.index("SessionScoreIMP") is not None
    unit = "IMP" if ss.unit == "IMP" else "MP"
    names = {"total": f"SessionScore{unit}" if session else
             ("TotalScoreMP" if table.index("TotalScoreMP") is not None or unit == "MP" else "TotalScoreIMP"),
             "percent": "SessionPercentage" if session else "TotalPercentage",
             "rank": "SessionRank" if session else "Rank"}
    rows = [by_row.get(id(row)) for row in table.rows]
    values = {names["total"]: [fixed(st.total, t_places) if st else "-" for st in rows]}
    if ss.unit == "MP":
        values[names["percent"]] = [fixed(st.percent, p_places) if st and st.percent is not None else "-"
                                    for st in rows]
    if table.index(names["rank"]) is not None:
        tied = any("=" in row.tokens[table.index(names["rank"])].value for row in table.rows
                   if len(row.tokens) > table.index(names["rank"]))
        values[names["rank"]] = [(st.rank_text if tied else str(st.rank)) if st else "-" for st in rows]
    order = None
    if not session and table.index("Rank") is not None:
        position = {id(st): k for k, st in enumerate(ss.standings)}
        order = sorted(range(len(rows)), key=lambda k: (rows[k] is None, position.get(id(rows[k]), 0), k))
        if order == list(range(len(rows))):
            order = None
    return values, order


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


def usebio_text(event: Event, scored: list[ScoredSession]) -> str:
    if any(ss.teams is not None for ss in scored):      # a teams event: its own USEBIO shape
        choice = scored[0].conventions       # the program's profile it was scored with, named in the file
        text = usebio_teams.write(scored, event, usebio._result_xml,   # the same result cells
                                  choice.profile.id if choice is not None and choice.profile is not None else None)
    else:
        text = usebio.write(scored, event)
    if event.format == "usebio" and event.extra.get("crlf"):
        text = text.replace("\n", "\r\n")
    return text


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
    out = ["% PBN 2.1", "% EXPORT", "%Creator: bridgelaw event", ""]
    first = True
    for number, sb in ss.boards.items():
        title = event.title.replace('"', "'")
        out.append(f'[Event "{title if first else "#"}"]')
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
            if line.kind == "result":
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
