"""The progress bar of `bridgelaw event`: drawn per board on a terminal once the run has taken
more than a second, silent before that and silent when stderr is not a terminal."""

from __future__ import annotations

import io
from pathlib import Path

from bridgelaw.commands.event import Progress, load_event, run

FILE = Path(__file__).parent / "data" / "events" / "ffb-magic-contest-2022-open-dn1-s1.pbn"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self, times):
        self.times = iter(times)
        self.last = 0.0

    def __call__(self) -> float:
        self.last = next(self.times, self.last)
        return self.last


def test_a_slow_run_draws_a_bar_per_board_on_a_terminal():
    term = Terminal()
    # started at 0; the first 10 boards within the second, then the clock passes it
    progress = Progress(stream=term, clock=Clock([0.0] + [0.5] * 10 + [1.5] * 100))
    run(load_event(str(FILE)), None, "wbf-2017", [], progress=progress)
    progress.done()
    frames = [f for f in term.getvalue().split("\r") if f.strip()]
    assert len(frames) == 20                                   # boards 11 … 30 of 30
    assert frames[0].rstrip() == "session 1 of 1 [########................] 11/30 boards"
    assert frames[-1].rstrip() == "session 1 of 1 [########################] 30/30 boards"
    assert term.getvalue().endswith("\r" + " " * len(frames[-1]) + "\r")    # the line is cleared


def test_a_quick_run_draws_nothing():
    term = Terminal()
    progress = Progress(stream=term, clock=Clock([0.0] + [0.2] * 100))
    run(load_event(str(FILE)), None, "wbf-2017", [], progress=progress)
    progress.done()
    assert term.getvalue() == ""


def test_not_a_terminal_draws_nothing():
    out = io.StringIO()
    progress = Progress(stream=out, clock=Clock([0.0] + [5.0] * 100))
    run(load_event(str(FILE)), None, "wbf-2017", [], progress=progress)
    progress.done()
    assert out.getvalue() == ""


def test_the_cli_writes_no_progress_when_stderr_is_captured(capsys):
    from bridgelaw.commands.cli import main
    assert main(["event", str(FILE), "--rulebook", "wbf-2017", "--format", "json"]) == 0
    assert capsys.readouterr().err == ""
