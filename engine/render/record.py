"""The case record: who, where and when, what happened, the TD's reasons, the appeal.

One place turns a case's record fields into rows (text, markdown, the web ruling, the slip, the
casebook) and into the JSON ``record`` object, so every output shows the same record:

    record:                          # all optional
      event: County Pairs Championship
      session: Saturday evening
      time: "21:40"                  # of the ruling; the date is the case's date:
      table: 7
      pairs: {NS: "3 Smith–Jones", EW: "12"}
      players: {N: Ann Smith, E: …}
      director: Eve Stone
      facts: what happened, in the TD's words
    notes: the TD's reasons
    appeal: {lodged: "22:05", by: EW, committee: …, decision: changed, reasons: …, changed_to: …}

The infraction (``infraction:``, when the case file has one) is shown as the file gives it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from ..core.exact import exact_json, format_mixed

DECISION_WORDS = {"upheld": "the ruling stands", "changed": "the ruling was changed",
                  "withdrawn": "the appeal was withdrawn", "pending": "not yet heard"}
SEATS = ("N", "E", "S", "W")


def describe(value: Any) -> str:
    """Any record value (text, a small model, a list) as one line of text."""
    if value is None:
        return ""
    if isinstance(value, BaseModel):
        value = value.model_dump(exclude_none=True, by_alias=True)
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {describe(v)}" for k, v in value.items() if v is not None)
    if isinstance(value, (list, tuple)):
        return ", ".join(describe(v) for v in value)
    if isinstance(value, bool):                 # a Director's finding: yes or no, as on a ruling form
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return format_mixed(value)
    return " ".join(str(value).split()) if not isinstance(value, str) or "\n" not in value.strip() \
        else value.strip()


def infraction(case: Any) -> str:
    """The infraction as the case file gives it ('' when it gives none)."""
    return describe(getattr(case.model, "infraction", None))


def infraction_laws(case: Any) -> list[str]:
    """The law paragraphs the infraction names (its law:/laws: key), in the file's order."""
    value = getattr(case.model, "infraction", None)
    if value is None or isinstance(value, str):
        return []
    data = value.model_dump(exclude_none=True) if isinstance(value, BaseModel) else value
    if not isinstance(data, dict):
        return []
    laws = data.get("laws", data.get("law"))
    if laws is None:
        return []
    return [str(x) for x in (laws if isinstance(laws, (list, tuple)) else [laws])]


def players(case: Any) -> dict[str, str]:
    """Names by seat: the record's, else an individual event's players:."""
    m = case.model
    names = dict(getattr(m, "players", None) or {})
    if m.record is not None and m.record.players:
        names.update(m.record.players)
    return {d: names[d] for d in SEATS if names.get(d)}


def parties(case: Any) -> list[tuple[str, str]]:
    """Each side's pair (number, names) and players, as rows: ("North-South", "pair 3: Ann Smith, Bob Jones")."""
    m = case.model
    pairs = (m.record.pairs or {}) if m.record is not None else {}
    names = players(case)
    out = []
    for side, seats, label in (("NS", "NS", "North-South"), ("EW", "EW", "East-West")):
        who = ", ".join(f"{d} {names[d]}" for d in seats if d in names)
        pair = pairs.get(side)
        pair = f"pair {pair}" if pair and pair.isdigit() else pair
        text = "; ".join(p for p in (pair or "", who) if p)
        if text:
            out.append((label, text))
    return out


def head(case: Any) -> list[tuple[str, str]]:
    """Event, session, date, time, board, table, director: where the ruling was given."""
    m, r = case.model, case.model.record
    rows: list[tuple[str, str]] = []
    if r is not None and r.event:
        rows.append(("Event", r.event))
    if r is not None and r.session:
        rows.append(("Session", r.session))
    if m.date is not None:
        rows.append(("Date", m.date.isoformat()))
    if r is not None and r.time:
        rows.append(("Time of ruling", r.time))
    if m.board.number is not None:
        rows.append(("Board", str(m.board.number)))
    if r is not None and r.table:
        rows.append(("Table", r.table))
    rows += parties(case)
    if r is not None and r.director:
        rows.append(("Director", r.director))
    return rows


def story(case: Any) -> list[tuple[str, str]]:
    """What happened, the infraction, and the TD's reasons (notes:)."""
    m = case.model
    rows = []
    if m.record is not None and m.record.facts:
        rows.append(("What happened", m.record.facts.strip()))
    if infraction(case):
        rows.append(("Infraction", infraction(case)))
    if m.notes:
        rows.append(("Director's reasons", m.notes.strip()))
    return rows


def appeal(case: Any) -> list[tuple[str, str]]:
    a = case.model.appeal
    if a is None:
        return []
    rows = [("Appeal", f"{a.decision}: {DECISION_WORDS[a.decision]}")]
    if a.lodged or a.by:
        rows.append(("Lodged", " ".join(p for p in ((f"by {a.by}" if a.by else ""), (f"at {a.lodged}" if a.lodged else "")) if p)))
    if a.committee:
        rows.append(("Committee", a.committee))
    if a.changed_to:
        rows.append(("Changed to", a.changed_to))
    if a.reasons:
        rows.append(("Committee's reasons", a.reasons.strip()))
    if a.deposit:
        rows.append(("Deposit", a.deposit))
    return rows


def published(case: Any, ruling: Any) -> list[tuple[str, str]]:
    """Each published figure beside the ruling's: 'nos −4 2/3: the ruling gives +4 2/3 (differs)'."""
    p = case.model.published
    if p is None:
        return []
    rows = []
    for key, label in (("nos", "non-offending"), ("os", "offending"), ("NS", "NS"), ("EW", "EW")):
        want = getattr(p, key)
        if want is None:
            continue
        have = _value(ruling, key)
        if have is None:
            verdict = "the ruling does not score it"
        elif have == want:
            verdict = "agrees with the ruling"
        else:
            verdict = f"the ruling gives {format_mixed(have)} (differs by {format_mixed(have - want)})"
        rows.append((f"Published ({label})", f"{format_mixed(want)} {_unit(ruling)}: {verdict}"))
    if rows:
        rows.append(("Why it differs" if any("differs" in v for _, v in rows) else "Published note", " ".join(p.why.split())))
    return rows


def _unit(ruling: Any) -> str:
    return {"IMP": "IMPs", "MP": "matchpoints", "%": "percent"}.get(ruling.unit, ruling.unit)


def _value(ruling: Any, key: str) -> Fraction | None:
    if key in ("NS", "EW"):
        return ruling.sides[key].value
    s = getattr(ruling, key)
    return s.value if s is not None else None


def rows(case: Any, ruling: Any | None = None) -> list[tuple[str, str]]:
    """The whole record as (label, text) rows: head, story, appeal, published."""
    return head(case) + story(case) + appeal(case) + (published(case, ruling) if ruling is not None else [])


def as_json(case: Any, ruling: Any | None = None) -> dict[str, Any]:
    """The record for `--format json` (the ``record`` key): every field, null when not given."""
    m = case.model
    r = m.record
    data: dict[str, Any] = {key: getattr(r, key) if r is not None else None
                            for key in ("event", "session", "time", "table", "director", "facts")}
    data["date"] = m.date.isoformat() if m.date else None
    data["board"] = m.board.number
    data["pairs"] = dict(r.pairs) if r is not None and r.pairs else None
    data["players"] = players(case) or None
    value = getattr(m, "infraction", None)
    data["infraction"] = (value.model_dump(mode="json", exclude_none=True) if isinstance(value, BaseModel)
                          else value)
    data["notes"] = m.notes
    data["appeal"] = m.appeal.model_dump(mode="json", exclude_none=True) if m.appeal else None
    if m.published is not None:
        pub = {k: exact_json(getattr(m.published, k)) for k in ("nos", "os", "NS", "EW")
               if getattr(m.published, k) is not None}
        if ruling is not None:
            for k in pub:
                have = _value(ruling, k)
                pub[k]["agrees"] = have == getattr(m.published, k) if have is not None else None
        data["published"] = {**pub, "why": m.published.why}
    else:
        data["published"] = None
    return data


def text_lines(rows_: list[tuple[str, str]], indent: int = 2, width: int = 96) -> list[str]:
    """Rows as aligned text lines, long values wrapped under their value column."""
    import textwrap
    if not rows_:
        return []
    label = max(len(k) for k, _ in rows_)
    out = []
    for k, v in rows_:
        lines = [w for para in v.splitlines() for w in (textwrap.wrap(para, width - label - indent - 2) or [""])]
        out.append(f"{'':<{indent}}{k:<{label}}  {lines[0] if lines else ''}".rstrip())
        out += [f"{'':<{indent + label + 2}}{line}".rstrip() for line in lines[1:]]
    return out


def markdown_rows(rows_: list[tuple[str, str]]) -> list[str]:
    return ["| | |", "|---|---|"] + [f"| {k} | {' '.join(v.split()).replace('|', chr(92) + '|')} |" for k, v in rows_]
