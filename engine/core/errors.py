"""The errors bridgelaw reports to people.

Every error a user can cause is a :class:`BridgelawError`: one line that says where
(file:line:column when the input came from a file), what is wrong, what was expected and,
where one is close, a suggestion. The CLI prints it and exits with status 2.
"""

from __future__ import annotations

from collections.abc import Iterable


class BridgelawError(Exception):
    """A problem with the user's input (case, rulebook, traveller, command line)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        expected: str | None = None,
        suggestion: str | None = None,
        path: tuple | list | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.expected = expected
        self.suggestion = suggestion
        self.path = tuple(path) if path is not None else None   # the key path in the input, when known

    @property
    def where(self) -> str:
        if self.file is None:
            return ""
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}:{self.column or 1}"

    def __str__(self) -> str:
        text = self.message
        if self.expected:
            text += f" (expected {self.expected})"
        if self.suggestion:
            text += f"; {self.suggestion}"
        text = f"{self.where}: {text}" if self.where else text
        return one_line(text)

    def to_json(self) -> dict:
        return {
            "error": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "expected": self.expected,
            "suggestion": self.suggestion,
            "path": ".".join(str(p) for p in self.path) if self.path is not None else None,
        }


def one_line(text: str) -> str:
    """`text` on one line: line breaks and other control characters escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def quoted(text: str, limit: int = 20) -> str:
    """`text` for a message: in quotes, cut to `limit` characters, and every character that is not
    printable (control characters, line breaks) or not plain to read (a digit such as '٩' or '¹'
    that is not ASCII) escaped — so the message shows what the file holds."""
    shown = text[:limit]
    body = "".join(ch if ch.isprintable() and (ch.isascii() or not ch.isnumeric())
                   else ch.encode("unicode_escape").decode("ascii") for ch in shown)
    return f"'{body}{'…' if len(text) > limit else ''}'"


class RulingError(BridgelawError):
    """The rulebook cannot decide the case: a fact is missing, or not exactly one rule applies."""


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """'did you mean X?' for the closest choice, or None when nothing is close."""
    import difflib                      # only when a suggestion is wanted (start-up time)
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class InvalidValue(BridgelawError, ValueError):
    """A single value that does not parse (raised inside model validators; positioned later)."""
