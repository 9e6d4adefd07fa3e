"""A whole results file: read it, apply the TD's rulings, score every session, build the outputs
(what ``bridgelaw event`` and the web event page do, without their options or pages). A YAML
traveller (or adjustments file) is an event of one board: read with its own rulebook and rulings."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ..core.errors import BridgelawError
from ..rulebook import proposed
from . import corrected, learn, profiles
from .defaults import default_rulebook
from .model import Event, require_results
from .pbn_results import load_event_pbn
from .rulings import apply, book_for, in_force, load_rulings
from .score import ScoredSession, score_session
from .traveller import bulk, load_traveller
from .usebio import load_event_usebio
from .writers import encode_check, pbn_fresh, pbn_text, usebio_encoding, usebio_text


def load_event(path: str, scoring: str | None = None, text: bytes | None = None, *, rulebook: str | None = None,
               as_of: dt.date | None = None, what_if=None) -> Event:
    """A results file (.pbn, .xml) or a YAML traveller (.yaml: read with its rulebook, or `rulebook`,
    with the what-if change and as of `as_of`: its adjusted tables are ruled as it is read)."""
    with bulk():
        return _load_event(path, scoring, text, rulebook, as_of, what_if)


def _load_event(path: str, scoring: str | None, text: bytes | None, rulebook: str | None, as_of: dt.date | None,
                what_if) -> Event:
    suffix = Path(path).suffix.lower()
    if suffix == ".xml":
        return load_event_usebio(path, data=text, scoring=scoring)
    if suffix == ".pbn":
        return load_event_pbn(path, scoring=scoring, data=text)
    if suffix in (".yaml", ".yml"):
        trav = load_traveller(path, rulebook=rulebook, scoring=scoring, as_of=as_of, what_if=what_if,
                              text=text.decode("utf-8") if isinstance(text, bytes) else text)
        return trav.event
    raise BridgelawError(f"{path}: not a .pbn or .xml file (nor a .yaml traveller)",
                         expected="a PBN (.pbn) or USEBIO (.xml) results file, or a YAML traveller of one board")


def run(event: Event, rulings_path: str | None, rulebook: str | None, settings: list[str] | None,
        rulings_text: str | None = None, progress=None, *, overlay: str | None = None,
        as_of: dt.date | None = None, profile: str | None = None,
        overlay_text: str | None = None, report: bool = True) -> list[ScoredSession]:
    """Apply the rulings and score every session: under `rulebook` (else the rulings file's), with
    the conventions of the program that wrote the file (its profile, or `profile`: ``--profile``),
    then the what-if `overlay` and `settings` (``--overlay``, ``--set``), each session as in force
    on `as_of` (``--as-of``), else on the day it was played. Without `report` the scored sessions
    carry no learning report (``learning`` None: what was learnt and which published figures agree —
    the conventions are learnt all the same; a season's impact reads only the scores)."""
    with bulk():
        return _run(event, rulings_path, rulebook, settings, rulings_text, progress, overlay, as_of, profile,
                    overlay_text, report)


def rulebook_for(event: Event, rulings, rulebook: str | None, settings: list[str] | None, overlay: str | None,
                 profile: str | None, overlay_text: str | None = None, as_of: dt.date | None = None):
    """The rulebook the event is scored under, the profile chosen (profiles.Choice) and the default
    taken (defaults.Default, or None when a rulebook is named): the named rulebook — else the one
    in force in the file's country on its day —, the program's conventions over it, the overlay
    and settings over those."""
    default = None
    if rulebook is None and (rulings is None or rulings.model.rulebook is None):
        default = default_rulebook(event, as_of, profile)
        rulebook = default.id
    choice = profiles.choose(event, profile)
    book = profiles.apply(choice, book_for(rulings, rulebook, event), event)
    return proposed(book, overlay, settings, overlay_text), choice, default


def _run(event: Event, rulings_path: str | None, rulebook: str | None, settings: list[str] | None,
         rulings_text: str | None, progress, overlay: str | None, as_of: dt.date | None,
         profile: str | None, overlay_text: str | None = None, report: bool = True) -> list[ScoredSession]:
    rulings = load_rulings(rulings_path, text=rulings_text) if rulings_path else None
    own = event.extra.get("book")          # a traveller's: read (and its tables ruled) with it
    choice = default = None
    if own is not None and rulebook is None and (rulings is None or rulings.model.rulebook is None):
        book = own
    else:
        book, choice, default = rulebook_for(event, rulings, rulebook, settings, overlay, profile, overlay_text, as_of)
    if rulings is not None:
        if rulings.model.scoring:
            if any(s.matches for s in event.sessions):
                raise rulings.doc.error(["scoring"], "scoring: a teams file says how its boards and matches are "
                                        "scored", key=True, expected="no scoring: in the rulings of a teams event")
            for s in event.sessions:
                s.scoring = rulings.model.scoring
        apply(event, rulings, book, as_of)
    for s in event.sessions:
        require_results(s, "give it a ruling in the rulings file")
    scored = []
    for k, s in enumerate(event.sessions, 1):
        what = f"session {k} of {len(event.sessions)}"
        step = (lambda done, total, what=what: progress(what, done, total)) if progress else None
        dated = in_force(book, s, as_of)
        try:
            if choice is None:                  # a YAML traveller ruled with its own rulebook: nothing to learn
                ss = score_session(s, dated, progress=step)
            else:
                ss = learn.score_learning(s, dated, profile_forced=choice.how == "option",
                                          profile=choice.profile,
                                          known=_rulebook_id, progress=step, report=report,
                                          rebook=lambda b, s=s: in_force(b, s, as_of))
        except BridgelawError as exc:
            if exc.file is not None or s.where is None:
                raise
            # an error of the rulebook as the session is scored (a parameter the method needs): at the session
            raise s.where.error(f"session {k} ({s.scoring}): {exc.message}", expected=exc.expected,
                                suggestion=exc.suggestion) from None
        ss.conventions, ss.default = choice, default
        scored.append(ss)
    return scored


def _rulebook_id(where: str) -> bool:
    """A parameter's origin that is a rulebook's own file (not --set, an overlay or a profile)."""
    from ..rulebook import available
    return where in available()


def refuse_unreproduced(event: Event, scored: list[ScoredSession], rescore_all: bool) -> None:
    """A corrected file is not written when bridgelaw does not reproduce a published figure of a board or
    contestant that no ruling touches — its ruled boards would be worked out under conventions that are
    not the program's —
    unless `rescore_all` (``--rescore-all``) says to, which the report then names."""
    for k, ss in enumerate(scored, 1):
        lr = ss.learning
        if lr is None or lr.reproduced:
            continue
        if rescore_all:
            lr.rescore_all = True
            continue
        where = f"session {k}: " if len(scored) > 1 else ""
        raise BridgelawError(f"{event.file}: --output refused, nothing written: {where}{lr.refusal()}",
                             expected="every published figure of an unruled board reproduced",
                             suggestion="the program's conventions with --set or --profile, or --rescore-all "
                                        "to write the file rescored throughout")


def outputs(event: Event, scored: list[ScoredSession], targets: list[str], source: str) -> list[tuple[Path, str, str]]:
    """(path, text, encoding) for each output, all built before anything is written; the figures the
    corrected file changes (field/corrected.py) worked out once for them all."""
    out = []
    figs = None
    for target in targets:
        path = Path(target)
        suffix = path.suffix.lower()
        if suffix in (".xml", ".pbn") and figs is None and event.format in ("pbn", "usebio"):
            figs = corrected.figures(scored)
        if suffix == ".xml":
            text, encoding = usebio_text(event, scored, figs), usebio_encoding(event, scored)
        elif suffix == ".pbn":
            if event.format == "pbn":
                text, encoding = pbn_text(event, scored, figs), event.source.encoding
            else:
                try:
                    text, encoding = pbn_fresh(event, scored), "utf-8"
                except BridgelawError as exc:      # what this file cannot be written as: said at --output
                    raise BridgelawError(f"--output {target}: {exc.message}", expected=exc.expected,
                                         suggestion=exc.suggestion) from None
        else:
            raise BridgelawError(f"--output {target}: not a .pbn or .xml file name",
                                 expected="FILE.pbn or FILE.xml (USEBIO)")
        encode_check(text, encoding, target)
        out.append((path, text, encoding))
    return out
