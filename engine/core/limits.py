"""The input bounds: one set, enforced before any recursive or quadratic work.

Every file bridgelaw reads — a case, a traveller, a rulebook, an overlay, whether from the
command line or posted to the web server (both use the same loaders) — is checked against these
numbers first; going over one is a one-line error (file:line:column where the input has a
position) and exit status 2. docs/limits.md lists them with the reasons.

The durable_rules figures were measured against durable_rules 2.0.28 (see docs/limits.md): a
node of its Rete network with 512 or more children hangs the process (every rule of a ruleset
starts with the same marker test); a fact with 255 or more fields, or with more than 64 rules
matching it at once, wholly or in part, is refused (error 302 and 303). bridgelaw.rulebook.adapter
partitions a stage's rules into rulesets inside these figures, so a stage may hold
MAX_STAGE_RULES rules; only a single rule too large for a ruleset is refused.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import BridgelawError

# --- files ----------------------------------------------------------------------------------
MAX_FILE_BYTES = 2 * 1024 * 1024      # a 5,000-table traveller is about 250 KB
MAX_RESULTS_BYTES = 64 * 1024 * 1024  # a results file (PBN, USEBIO) from a scoring program: a few MB for a congress
MAX_NAME_CHARS = 255                  # one path component (most file systems' limit)
MAX_PATH_CHARS = 4096

# --- YAML -----------------------------------------------------------------------------------
MAX_DEPTH = 64                        # nested mappings and lists
MAX_ALIAS_NODES = 10_000              # nodes that aliases (*name) add when expanded
MAX_ITEMS = 5_000                     # entries in one list or one mapping
MAX_DIGITS = 30                       # digits in one number (integer, decimal or fraction part)
MAX_EXPONENT = 30                     # |exponent| of a number written 1.5e30

# --- bridge ---------------------------------------------------------------------------------
RAW_SCORE_MAX = 7600                  # Law 77: 13 down, redoubled, vulnerable; nothing scores more
RAW_SCORE_HINT = f"a raw score from -{RAW_SCORE_MAX} to {RAW_SCORE_MAX} (Law 77)"
SCORE_HINT = "a bridge score (Law 77): 420, -50, 1100 …"

# --- rules ----------------------------------------------------------------------------------
MAX_FORMULA_CHARS = 1000
MAX_FORMULA_DEPTH = 32                # nested parentheses, functions and signs
MAX_CONDITION_DEPTH = 20              # nested all/any/not
MAX_CONDITION_TESTS = 200             # comparisons, words of in:, … in one rule's condition
MAX_STAGE_RULES = 5_000               # rules in one stage (partitioned into rulesets; 0.4 s to compile)
MAX_STAGE_TESTS = 500                 # tests in one ruleset (durable_rules hangs at 512 under one node)
MAX_FACT_FIELDS = 240                 # facts and distinct constants one ruleset compares (302 at 255)
MAX_MATCHING = 64                     # matches, whole or partial, one fact may hold in a ruleset (303 beyond)


class LimitError(BridgelawError):
    """The input goes beyond a bound (or is not text YAML can read). Nothing should re-parse
    it — e.g. to position the error for a form — since that is the work the bound prevents."""


def too_long_name(name: str) -> str | None:
    """Why `name` cannot be a file name here (too long), or None."""
    if len(name) > MAX_PATH_CHARS or any(len(part) > MAX_NAME_CHARS for part in name.split(os.sep)):
        return f"the file name is too long (at most {MAX_NAME_CHARS} characters a component)"
    return None


def read_bytes(path: str | Path, *, what: str = "file", limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (MAX_FILE_BYTES unless said). Special
    files (devices, FIFOs, sockets) are refused without being opened; reading stops at the bound."""
    name = str(path)
    problem = too_long_name(name)
    if problem:
        raise LimitError(problem, file=_shorten(name))
    try:
        info = os.stat(name)
    except FileNotFoundError:
        raise BridgelawError("no such file", file=name) from None
    except (OSError, ValueError) as exc:        # ValueError: a NUL in the name
        raise BridgelawError(f"cannot read it: {getattr(exc, 'strerror', None) or exc}", file=name) from None
    if stat.S_ISDIR(info.st_mode):
        raise BridgelawError(f"this is a folder, expected a {what}", file=name)
    if not stat.S_ISREG(info.st_mode):
        raise LimitError(f"this is not a regular file (a device, pipe or socket), expected a {what}", file=name)
    if info.st_size > limit:
        raise LimitError(too_big(info.st_size, limit), file=name)
    try:
        with open(name, "rb") as f:
            # the size it has, and one byte more (a buffer of the bound for every file cost more than the
            # read); a file that has grown since is read on, up to one byte past the bound
            data = f.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += f.read(limit + 1 - len(data))
    except OSError as exc:
        raise BridgelawError(f"cannot read it: {exc.strerror or exc}", file=name) from None
    if len(data) > limit:
        raise LimitError(too_big(len(data), limit), file=name)
    return data


def too_big(size: int, limit: int = MAX_FILE_BYTES) -> str:
    return f"the file is too large ({size:,} bytes; at most {limit:,})"


def _shorten(name: str) -> str:
    return name if len(name) <= 80 else name[:60] + "…" + name[-15:]


def short(value: object, limit: int = 60) -> str:
    """repr(value) cut to `limit` characters — for messages; never walks a huge value whole."""
    if isinstance(value, (dict, list, tuple, set)):
        kind = type(value).__name__
        return f"a {kind} of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + "…"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        return "a number of more than 30 digits"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
