"""Scoring programs' profiles: what a program does where the Laws leave the choice to the
conditions of contest (a victory-point scale, a rounding), kept as data in
``rules/programs/<program>.yaml`` — an overlay layer (the format ``--overlay`` reads), each value
with the paragraph it rests on. A results file that names its program (USEBIO ``PROGRAM_NAME``) is
scored with that program's profile over the rulebook, before any ``--overlay`` or ``--set``; the
report's parameters name the layer (``wbf-2007+teamsscorer``), so nothing is applied unseen.

The profile's file name is the program's name in lower case, letters and digits only
(``TeamsScorer`` → ``teamsscorer.yaml``). A file bridgelaw wrote names the profile it was scored
with (``<!-- bridgelaw: profile teamsscorer -->``), so that it reads back the same.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..rulebook import Rulebook, rules_dir, with_overlay
from .model import Event


def profile_name(program: str | None) -> str | None:
    name = re.sub(r"[^a-z0-9]", "", (program or "").lower())
    return name or None


def profile_path(event: Event) -> Path | None:
    """The profile of the program that wrote `event`, when bridgelaw has one."""
    name = profile_name(event.extra.get("profile") or event.extra.get("program"))
    if name is None:
        return None
    path = rules_dir() / "programs" / f"{name}.yaml"
    return path if path.is_file() else None


def with_profile(book: Rulebook, event: Event) -> Rulebook:
    """`book` with the profile of the program that wrote `event` applied (unchanged without one)."""
    path = profile_path(event)
    return book if path is None else with_overlay(book, path, path.stem)
