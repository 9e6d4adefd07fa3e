"""Text for a terminal: control characters escaped, whatever the output format.

A results file or a case may carry control characters (a PBN tag holding ``ESC [31m``, a title
with a BEL); printed raw they recolour, retitle or clear the reader's terminal. Every command's
standard output goes through :class:`SafeOutput` (``bridgelaw.commands.cli.main``), which writes each
control character but tab and line feed (and CR LF) as ``\\uXXXX`` — a valid escape inside a JSON string, and
plain to read in text, Markdown and CSV — so the same guard serves every format.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

# C0 but tab and line feed, DEL, C1, and the bidirectional overrides and isolates (they reorder
# what a terminal shows: "Trojan Source")
# and a carriage return not followed by a line feed (CSV ends its lines with CR LF)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")


def escape_controls(text: str) -> str:
    """`text` with every control character but tab and line feed written ``\\uXXXX``."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


class OutputFailed(Exception):
    """The standard output cannot be written (a full device, a file-size limit, a closed file):
    `error` is the OSError; the command ends with one line and exit status 2."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error


class SafeOutput:
    """A text stream that escapes control characters (:func:`escape_controls`) on their way to
    `stream`; everything else is the stream's own. A write that fails (but for a closed pipe) is
    an :class:`OutputFailed`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            self._stream.write(escape_controls(text))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc) from None
        return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
