"""A season's impact: every results file replayed under a current and a proposed rulebook, through
the one load-rule-score path (field/run.py), compared line by line and contestant by contestant.

One file's replay (:func:`replay`) returns plain data — JSON types only, numbers as exact strings
``"p/q"`` — so that it can be kept in the impact cache (a JSON file, never pickle), sent from a
worker process or a Dask worker, and summed up by ``bridgelaw impact`` (commands/impact.py).

The rulings of ``club.pbn`` are ``club.rulings.yaml`` beside it (:data:`RULINGS_SUFFIX`); a results
file without one is replayed as written.

**Incremental.** A line's trace records every parameter it read and every stage it asked; a
session's trace the parameters its scoring method read. The proposal is compared with the current
rulebook as in force for each session (:func:`changes`: the parameters whose values differ, the
stages whose rules differ or read a changed parameter). A file none of whose traces reads anything
the proposal changes keeps its scores: it is not ruled again. (The unit is the file: one ruling
changed re-scores its file, whose other lines only change through their board's field.)
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core.errors import BridgelawError, one_line
from ..rulebook import Rulebook
from ..rulebook.files import pinned
from ..rulebook.stages import STAGES
from ..ruling.trace import parameters_of
from . import reuse
from .rulings import in_force, load_rulings
from .run import load_event, rulebook_for, run
from .traveller import bulk
from .score import ScoredSession

RULINGS_SUFFIX = ".rulings.yaml"
RESULTS_SUFFIXES = (".pbn", ".xml")


@dataclass(frozen=True)
class Spec:
    """What both replays of a file are made under (plain values: sent to worker processes)."""

    current: str                          # rulebook id or path
    proposed: str
    settings: tuple[str, ...] = ()        # --set, on the proposed rulebook
    overlay: str | None = None            # --overlay file, on the proposed rulebook
    overlay_text: str | None = None
    as_of: str | None = None              # ISO date
    profile: str | None = None
    scoring: str | None = None
    incremental: bool = True
    rules: tuple[str, ...] = ()           # the user's rulebook folders (rulebook/files.py), for a fresh worker

    @property
    def day(self) -> dt.date | None:
        return dt.date.fromisoformat(self.as_of) if self.as_of else None


def results_files(paths: list[str]) -> list[tuple[Path, Path | None]]:
    """Each results file named or found in a named folder (``*.pbn``, ``*.xml``, recursively, in
    order), with its rulings file beside it when there is one (``NAME.rulings.yaml``)."""
    out: list[tuple[Path, Path | None]] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(q for q in path.rglob("*") if q.suffix.lower() in RESULTS_SUFFIXES and q.is_file())
        elif path.is_file():
            found = [path]
        else:
            raise BridgelawError(f"no such file or folder: {p}", expected="results files (.pbn, .xml) or folders of them")
        for q in found:
            rulings = rulings_for(q)
            out.append((q, rulings if rulings.is_file() else None))
    return out


def rulings_for(path: Path) -> Path:
    return path.with_name(path.stem + RULINGS_SUFFIX)


def digest(path: Path | None) -> str:
    """sha256 of a file's bytes ('' for no file)."""
    if path is None:
        return ""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --- what a proposal changes, and what a trace reads ---------------------------------------------------

@dataclass
class Changes:
    parameters: dict[str, tuple[Any, Any]] = field(default_factory=dict)   # name → (current, proposed)
    stages: set[str] = field(default_factory=set)      # stages whose rules differ or read a changed parameter
    everything: bool = False                            # the laws that empower an adjustment, or the words, differ

    def __bool__(self) -> bool:
        return bool(self.parameters or self.stages or self.everything)


_CHANGES: dict[tuple[int, int], tuple[Rulebook, Rulebook, Changes]] = {}


def changes(a: Rulebook, b: Rulebook) -> Changes:
    """What reading `b` instead of `a` (each as in force on one day) can change in a ruling or a score
    (worked out once a pair of rulebook objects: a season's files share them)."""
    known = _CHANGES.get((id(a), id(b)))
    if known is not None and known[0] is a and known[1] is b:
        return known[2]
    if len(_CHANGES) >= 256:
        _CHANGES.clear()
    out = _changes(a, b)
    _CHANGES[(id(a), id(b))] = (a, b, out)
    return out


def _changes(a: Rulebook, b: Rulebook) -> Changes:
    pa, pb = a.parameters, b.parameters
    out = Changes({n: (pa.get(n), pb.get(n)) for n in dict.fromkeys([*pa, *pb]) if pa.get(n) != pb.get(n)})
    out.everything = a.infractions != b.infractions or a.words != b.words
    for stage in STAGES:
        ra, rb = a.rules_for(stage), b.rules_for(stage)
        if len(ra) != len(rb) or any(x is not y and x != y for x, y in zip(ra, rb)):
            out.stages.add(stage)
            continue
        reads = {n for r in ra for n in parameters_of(r, a)} | {n for r in rb for n in parameters_of(r, b)}
        if reads & out.parameters.keys():
            out.stages.add(stage)
    return out


def _trace_reads(trace: Any, change: Changes) -> bool:
    if trace is None:
        return False
    for e in trace.entries:
        if e.kind == "parameter" and e.data["name"] in change.parameters:
            return True
        if e.kind == "decision" and (change.everything or e.data["decision"].stage in change.stages):
            return True
        if e.kind == "law" and change.everything:
            return True
    return False


def session_reads(ss: ScoredSession, change: Changes) -> bool:
    """Whether anything the session's scoring or any of its lines' rulings read is changed."""
    if not change:
        return False
    if _trace_reads(ss.trace, change):
        return True
    for sb in ss.boards.values():
        for sl in sb.lines:
            if _trace_reads(sl.trace, change) or any(_trace_reads(r.trace, change) for r in sl.rulings):
                return True
    if ss.teams is not None and change.parameters:
        # a teams session's match scores (VPs) read their parameters through the session's trace;
        # a match ruled by its case is a ruling of a line above
        return any(name.startswith("vp.") for name in change.parameters)
    return False


# --- one file ----------------------------------------------------------------------------------------------

def _x(v: Fraction | None) -> str | None:
    return None if v is None else str(v)


def replay(path: str, rulings: str | None, spec: Spec, *, data: bytes | None = None,
           rulings_text: str | None = None) -> dict[str, Any]:
    """One results file under both rulebooks, compared (plain data); an error is its one line.
    With `data` (and `rulings_text`) the file is given in memory (the web page's uploads): `path`
    and `rulings` only name them and choose the format."""
    try:
        # no cyclic collection inside a file's replay (one, of what it leaves, afterwards); each rulebook
        # looked up once; what both runs make, made once
        with bulk(), pinned(), reuse.reusing(reuse.Reuse()) as made:
            return _replay(path, rulings, spec, data, rulings_text, made)
    except BridgelawError as exc:
        return {"file": path, "rulings": rulings, "error": one_line(str(exc)), "sessions": [], "rerun": False}
    except (OSError, UnicodeError, ValueError, RecursionError, MemoryError) as exc:
        return {"file": path, "rulings": rulings, "error": one_line(f"{path}: {type(exc).__name__}: {exc}"),
                "sessions": [], "rerun": False}


# the containers a run changes in place (a ruling or a scoring sets any other attribute anew): a line's
# cells (``extra``: a read-back file's penalty cells are taken off, its own artificial scores put on;
# its penalties are a new list each time), a session's warnings
_IN_PLACE = {"Line": ("extra",), "Session": ("warnings", "contestants", "boards"),
             "Board": ("lines", "extra"), "Contestant": ("extra", "published"), "Match": (), "Event": ("extra",)}


def _kept(event: Any) -> list[tuple[Any, dict[str, Any]]]:
    """The event as read, kept so that it can be scored again without reading it again: each session,
    board, line, contestant and match with its attributes (and a copy of each container a run
    changes in place, :data:`_IN_PLACE`)."""
    out: list[tuple[Any, dict[str, Any]]] = []

    def keep(obj: Any) -> None:
        attrs = vars(obj).copy()
        for name in _IN_PLACE.get(type(obj).__name__, ()):
            v = attrs.get(name)
            if v is not None:
                attrs[name] = v.copy()
        out.append((obj, attrs))
    keep(event)
    for s in event.sessions:
        keep(s)
        for c in s.contestants.values():
            keep(c)
        for b in s.boards.values():
            keep(b)
            for line in b.lines:            # keep(line), inline (a season has millions)
                attrs = vars(line).copy()
                extra = attrs.get("extra")      # (a line makes its containers when first used)
                if extra:
                    attrs["extra"] = extra.copy()
                elif extra is not None:
                    del attrs["extra"]
                out.append((line, attrs))
        for m in s.matches:
            keep(m)
    return out


def _as_read(kept: list[tuple[Any, dict[str, Any]]]) -> None:
    """Every object of :func:`_kept` as it was read (once: the copies are handed back)."""
    for obj, attrs in kept:
        d = vars(obj)
        d.clear()
        d.update(attrs)


def _replay(path: str, rulings: str | None, spec: Spec, data: bytes | None, rulings_text: str | None,
            made: reuse.Reuse) -> dict[str, Any]:
    """`made`: what the first run makes that the second may take (its rulings where the proposal changes
    nothing they read, its boards' fields, the rulings file read)."""
    settings = list(spec.settings) or None
    event = load_event(path, spec.scoring, data)
    kept = _kept(event)                 # the file is read once and scored under both rulebooks
    before = run(event, rulings, spec.current, None, rulings_text, as_of=spec.day, profile=spec.profile, report=False)
    change: list[Changes] = []
    if spec.incremental:
        # the proposal as each session would read it, without reading or scoring anything again (the
        # event read for the first run chooses the program's profile as it did then)
        model = load_rulings(rulings, text=rulings_text) if rulings else None
        book, _, _ = rulebook_for(event, model, spec.proposed, settings, spec.overlay, spec.profile, spec.overlay_text,
                                  spec.day)
        books = [in_force(book, s, spec.day) for s in event.sessions]
        change = [changes(ss.book, b) for ss, b in zip(before, books)]
        rerun = any(session_reads(ss, c) for ss, c in zip(before, change))
        if not rerun:
            out = compare_sessions(before, before, [b.id for b in books])
            _release(before)
            return {"file": path, "rulings": rulings, "error": None, "rerun": False, "sessions": out}
    for ss in before:
        ss.standings                    # worked out now, from the session as this run left it
    _as_read(kept)
    if change:                          # only the rulings whose traces read what the proposal changes are made again
        made.offer(lambda ruling: not any(_trace_reads(ruling.trace, c) for c in change))
    else:                               # --full: every ruling made again
        made.offer(lambda ruling: False)
    after = run(event, rulings, spec.proposed, settings, rulings_text, overlay=spec.overlay,
                overlay_text=spec.overlay_text, as_of=spec.day, profile=spec.profile, report=False)
    out = compare_sessions(before, after)
    _release(before + after)
    return {"file": path, "rulings": rulings, "error": None, "rerun": True, "sessions": out,
            "reruled": {"made": made.ruled, "kept": made.reused}}


def _release(scored: list[ScoredSession]) -> None:
    """The links that make circles cut — each board's back to its session, each teams line's to its
    match —, so that the file's objects are freed as soon as the replay returns (by their count of
    references, not by a cyclic collection walking them all)."""
    for ss in scored:
        for sb in ss.boards.values():
            sb.session = None
            for line in sb.board.lines:
                line.match = None


def compare_sessions(base: list[ScoredSession], other: list[ScoredSession],
                     other_ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Per session: its size; each line whose score changes (with what caused it, from the traces);
    each contestant whose total, percentage or place changes; the parameters that differ."""
    out = []
    for k, (a, b) in enumerate(zip(base, other)):
        if a is b:                      # a session the proposal cannot change: its size only
            out.append(_unchanged(a, other_ids[k] if other_ids else b.book.id))
            continue
        pa, pb = a.parameters, b.parameters
        session_params = [n for n in dict.fromkeys([*pa, *pb]) if pa.get(n) != pb.get(n)]
        lines, boards = [], set()
        n_lines = 0
        for n, sb in a.boards.items():
            for sl, ol in zip(sb.lines, b.boards[n].lines):
                n_lines += 1
                if (sl.NS.value, sl.EW.value) == (ol.NS.value, ol.EW.value):
                    continue
                boards.add(n)
                lines.append({"board": n, "label": sl.line.label, "NS": [_x(sl.NS.value), _x(ol.NS.value)],
                              "EW": [_x(sl.EW.value), _x(ol.EW.value)],
                              "causes": _causes(sl, ol) + [f"parameter {p}" for p in session_params]
                              or ["the board's field (another line of the board changed)"]})
        after = {st.key: st for st in b.standings}
        contestants = []
        for st in a.standings:
            o = after.get(st.key)
            if o is None or (o.total == st.total and o.rank == st.rank and o.percent == st.percent):
                continue
            contestants.append({"key": st.key, "total": [_x(st.total), _x(o.total)],
                                "percent": [_x(st.percent), _x(o.percent)], "place": [st.rank_text, o.rank_text],
                                "rank": [st.rank, o.rank], "change": _x(o.total - st.total)})
        params = []
        for name in dict.fromkeys([*pa, *pb, *_line_parameters(a), *_line_parameters(b)]):
            va, vb = _read(a, name), _read(b, name)
            if va != vb:
                params.append({"name": name, "before": _plain(va), "after": _plain(vb)})
        out.append(_row(a, other_ids[k] if other_ids else b.book.id, n_lines, len(a.standings),
                        sorted(boards, key=lambda x: (x is None, x or 0)), params, contestants, lines))
    return out


def _unchanged(a: ScoredSession, after: str) -> dict[str, Any]:
    return _row(a, after, sum(len(sb.lines) for sb in a.boards.values()), a.contestant_count, [], [], [], [])


def _row(a: ScoredSession, after: str, lines: int, contestants: int, changed_boards: list, parameters: list,
         changed_contestants: list, changed_lines: list) -> dict[str, Any]:
    """A session's part of a file's replay (plain data)."""
    return {"session": a.session.name, "before": a.book.id, "after": after, "unit": a.unit, "boards": len(a.boards),
            "lines": lines, "contestants": contestants, "changed_boards": changed_boards, "parameters": parameters,
            "changed_contestants": changed_contestants, "changed_lines": changed_lines}


def _line_parameters(ss: ScoredSession) -> list[str]:
    return [n for sb in ss.boards.values() for sl in sb.lines if sl.trace is not None for n in sl.trace.parameters()]


def _read(ss: ScoredSession, name: str) -> Any:
    if name in ss.parameters:
        return ss.parameters[name]
    return ss.book.parameters.get(name)


def _plain(v: Any) -> Any:
    return str(v) if isinstance(v, Fraction) else v


def _causes(sl: Any, ol: Any) -> list[str]:
    """The rules and parameters a line's two traces differ in: what moved its score."""
    out: list[str] = []
    pa = sl.trace.parameters() if sl.trace is not None else {}
    pb = ol.trace.parameters() if ol.trace is not None else {}
    for name in dict.fromkeys([*pa, *pb]):
        va = pa[name].data["value"] if name in pa else None
        vb = pb[name].data["value"] if name in pb else None
        if va != vb:
            out.append(f"parameter {name}")
    ra = [r.id for r in sl.rules]
    rb = [r.id for r in ol.rules]
    if ra != rb:
        gone = [r for r in ra if r not in rb]
        new = [r for r in rb if r not in ra]
        out.append("rule " + ", ".join(gone or ["-"]) + " → " + ", ".join(new or ["-"]))
    return out
