"""A whole results file: read it, apply the TD's rulings, score every session, build the outputs
(what ``bridgelaw event`` and the web event page do, without their options or pages). A YAML
traveller (or adjustments file) is an event of one board: read with its own rulebook and rulings."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ..core.errors import BridgelawError
from ..rulebook import proposed
from . import profiles
from .defaults import default_rulebook
from .model import Event, require_results
from .pbn_results import load_event_pbn
from .rulings import apply, book_for, in_force, load_rulings
from .score import ScoredSession, score_session
from .traveller import bulk, load_traveller
from .usebio import load_event_usebio
from .writers import encode_check, pbn_fresh, pbn_text, usebio_text


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
        overlay_text: str | None = None) -> list[ScoredSession]:
    """Apply the rulings and score every session: under `rulebook` (else the rulings file's), with
    the conventions of the program that wrote the file (its profile, or `profile`: ``--profile``),
    then the what-if `overlay` and `settings` (``--overlay``, ``--set``), each session as in force
    on `as_of` (``--as-of``), else on the day it was played."""
    with bulk():
        return _run(event, rulings_path, rulebook, settings, rulings_text, progress, overlay, as_of, profile,
                    overlay_text)


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
         profile: str | None, overlay_text: str | None = None) -> list[ScoredSession]:
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
        day = as_of or s.date
        if day is not None and book.effective_until is not None and day > book.effective_until:
            s.warnings.append(f"rulebook {book.id} is in force {book.period}, not on {day.isoformat()}: the session "
                              "is scored as on its last day; name a rulebook in force then")
        what = f"session {k} of {len(event.sessions)}"
        step = (lambda done, total, what=what: progress(what, done, total)) if progress else None
        ss = score_session(s, in_force(book, s, as_of), progress=step)
        ss.conventions, ss.default = choice, default
        scored.append(ss)
    return scored


def outputs(event: Event, scored: list[ScoredSession], targets: list[str], source: str) -> list[tuple[Path, str, str]]:
    """(path, text, encoding) for each output, all built before anything is written."""
    out = []
    for target in targets:
        path = Path(target)
        suffix = path.suffix.lower()
        if suffix == ".xml":
            text, encoding = usebio_text(event, scored), "utf-8"
        elif suffix == ".pbn":
            if event.format == "pbn":
                text, encoding = pbn_text(event, scored), event.source.encoding
            else:
                text, encoding = pbn_fresh(event, scored), "utf-8"
        else:
            raise BridgelawError(f"--output {target}: not a .pbn or .xml file name",
                                 expected="FILE.pbn or FILE.xml (USEBIO)")
        encode_check(text, encoding, target)
        out.append((path, text, encoding))
    return out
