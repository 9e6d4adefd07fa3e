"""Benchmark: random mutants of every input kind through the command line — no traceback, no hang.

    python bench/mutants.py [--kinds case,rulebook,overlay] [--count 20000] [--seed 24] [--jobs 2]
                            [--keep DIR] [--slow 10]

Kinds: case (`rule`), traveller (`score`), rulebook (`rule --rulebook PATH`, one rulebook or the
shared layer mutated among copies of the others), overlay (`rule --overlay`), rulings (`event
--rulings`), pbn and usebio (`event FILE`); and (issue 29) teams (a USEBIO teams file as EBUScore
and TeamsScorer write them, tests/usebio_teams_files.py, with rulings aimed at its real rooms under
the rulebooks in force on its day — adjusted, weighted, split, artificial, not played, penalties in
IMPs and VPs, infractions 86B1/86B2/86D/87 — half of them mutated, written back as USEBIO and read
again), roundtrip (a real pairs file with rulings aimed at its real lines, written as PBN and as
USEBIO and each read again: the same totals, or a round-trip difference) and cache (the rulebook
snapshot folder attacked between two `rule` runs: bytes flipped, the file truncated, edited with
its HMAC kept, a pickle planted, another rulebook's snapshot, a link to a user's file, a dangling
link, a FIFO, a 3 GB sparse file, the secret changed, linked, opened to others or a FIFO, the
folder opened to group or others: the ruling must be the reference's, nothing run, nothing outside
the folder written, no hang). Each mutant is a copy of a real file of its kind (the
case corpus, travellers/, rules/, tests/data/events/) changed by one to three mutations: the
plain ones of tests/test_fuzz.py (byte flips, spans deleted or repeated, deep nesting, huge
numbers, alias bombs, repeated lines) and the hostile ones issue 24 found — digits that are not
ASCII ('٩', '¹', '⑨', '９'), YAML tags with every bad scalar (``!!bool maybe``, ``!!int ''``, …),
aliases inside their own anchor, impossible and far dates, control characters written as
escapes, overlong names and numbers, encoding declarations and undefined entities in XML, PBN
tags holding nonsense.

Each mutant runs in-process (``bridgelaw.commands.cli.main``) in one of --jobs worker processes
and must end with exit status 0, or 2 with exactly one line on stderr and nothing on stdout.
Anything else — an exception, another status, a second line — is a traceback; a run longer than
--slow seconds is slow; a run that does not end within 30 s is a hang (its worker is restarted).
The mutants are drawn from --seed and their number, so every finding can be replayed
(``--kinds K --count N --seed S --keep DIR`` writes the findings' files to DIR).

Prints for each kind: runs, exit 0, exit 2, tracebacks, slow runs, hangs, round-trip differences
(roundtrip, teams, cache: a re-read or a ruling that differs), the median and slowest run, and the
load average; the last line says "met" (0 tracebacks, 0 differences, 0 runs over --slow) or "NOT met".
``--minutes M`` stops starting mutants of a kind after M minutes (the runs done are counted).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing as mp
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"
EVENTS = ROOT / "tests" / "data" / "events"
KINDS = ("case", "traveller", "rulebook", "overlay", "rulings", "pbn", "usebio", "teams", "roundtrip", "cache")
HANG = 30.0

OVERLAY = """\
parameters:
  artificial: {pairs: {avg_plus: 65%}, imps: {avg_plus: 3}}
  poll: {benefit_of_doubt: 1, minimum: 3}
  fieldscore: {neuberg: {round_to: 1/10}}
rules:
  - id: split-damage
    replaces: split-damage
    stage: damage
    when: {all: [{given: A}, {lt: [A, C]}, {lt: [C, B]}]}
    outcome: split
    award: {nos: "round_to(A + B - C, 1/2)", os: "B'"}
    explain: Split, rounded to halves.
    cites: [12C1(e)]
"""

RULINGS = """\
rulebook: wbf-2017
rulings:
  - board: 1
    table: 1
    non_offending: NS
    adjusted: [{result: 4S= N, weight: 1/2}, {result: 4S-1 N, weight: 1/2}]
  - board: 2
    table: 2
    artificial: {NS: in-no-way-at-fault, EW: directly-at-fault}
  - board: 3
    table: 3
    penalty: {EW: 10%}
"""

# --- mutations ----------------------------------------------------------------------------------

BYTES = [b"\x00", b"\xff", b"[", b"]", b"{", b"}", b":", b"-", b"\n", b" ", b'"', b"*", b"&", b"!", b"9", b"%",
         b"/", b"\t", b"<", b"#", b"|", b">", b",", b"\x07", b"\x1b", "é".encode(), b"\xe2\x80\xa8", b"?", b"="]
DIGITS = ["٩", "¹", "⑨", "９", "²", "߉", "𝟗"]
BAD_SCALARS = ["!!bool maybe", "!!bool 2", "!!bool ''", "!!int ''", "!!float ''", "!!int '٩'", "!!null x",
               "!!timestamp x", "!!timestamp 2017-02-30", "!!str [1]", "!!map x", "!!seq {}", "!!binary aGk=",
               "!!set {a}", "!!python/object:os.system x", "&a [*a]", "&a {k: *a}", "*nowhere",
               '"\\e[31m"', '"\\0"', '"\\a"', '"\\U00110000"', '"\\ud800"', "2017-02-30", "0000-01-01", "9999-12-31",
               "2017-02-28 25:00:00", "1e999", "-0", ".nan", ".inf", "0x1F", "0o17", "1_000", "~", "''",
               "9" * 5000, "a" * 300, "../../../../etc/passwd", "/dev/zero", "-1", "99999999999%", "-1/2",
               "3/0", "1/3%", "true", "[]", "{}", "null"]
XML_DECLS = ['<?xml version="1.0" encoding="x-evil"?>', '<?xml version="1.0" encoding="UTF-7"?>',
             '<?xml version="1.0" encoding="Shift_JIS"?>', '<?xml version="1.0" encoding="idna"?>',
             '<?xml version="1.0" encoding="rot13"?>', '<?xml version="1.0" encoding="zlib_codec"?>',
             '<?xml version="1.0" encoding="utf-16"?>', '<?xml version="2.0"?>', '<!DOCTYPE x [<!ENTITY e "e">]>']
PBN_TAGS = ['[Board "¹"]', '[Board "⑨"]', '[Board "٩"]', '[Board "0"]', f'[Board "{"9" * 5000}"]',
            '[Date "2022.02.30"]', '[Date "0000.01.01"]', '[Date "9999.12.31"]', f'[Date "{"2" * 5000}"]',
            '[Scoring "IMP;Butler"]', '[Vulnerable "Nonsense"]', '[Event "\x1b[31m"]', '[Contract "8NT"]',
            '[Result "14"]', '[Declarer "X"]']


def mutate(data: bytes, rng: random.Random, kind: str) -> bytes:
    """`data` with one to three random mutations."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        data = (_hostile if rng.random() < 0.5 else _plain)(data, rng, kind)
    return data


def _plain(data: bytes, rng: random.Random, kind: str) -> bytes:
    n = len(data)
    i = rng.randrange(max(n, 1))
    op = rng.randrange(7)
    if op == 0:
        return data[:i] + rng.choice(BYTES) + data[i + 1:]
    if op == 1:
        return data[:i] + data[i + rng.randrange(1, 40):]
    if op == 2:
        j = min(n, i + rng.randrange(1, 80))
        return data[:j] + data[i:j] + data[j:]
    if op == 3:
        depth = rng.choice([70, 1000, 30000])
        return data[:i] + b"[" * depth + b"]" * depth + data[i:]
    if op == 4:
        digits = [k for k in range(n) if 48 <= data[k] <= 57]
        k = rng.choice(digits) if digits else i
        return data[:k] + b"9" * rng.choice([31, 400, 5000]) + data[k:]
    if op == 5:
        bomb = b"a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + b"".join(
            b"a%d: &a%d [" % (k, k) + b", ".join([b"*a%d" % (k - 1)] * 10) + b"]\n" for k in range(1, 9))
        return bomb + data if kind not in ("pbn", "usebio") else data[:i] + bomb + data[i:]
    lines = data.split(b"\n")
    k = rng.randrange(len(lines))
    return b"\n".join(lines[:k] + [lines[k]] * rng.choice([2, 50, 3000]) + lines[k:])


def _hostile(data: bytes, rng: random.Random, kind: str) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    op = rng.randrange(4)
    if op == 0:                                           # a digit that is not ASCII
        spots = [k for k, ch in enumerate(text) if ch.isdigit()]
        if spots:
            k = rng.choice(spots)
            text = text[:k] + rng.choice(DIGITS) + text[k + 1:]
    elif op == 1 and kind in ("pbn",):                     # a PBN tag holding nonsense
        tag = rng.choice(PBN_TAGS)
        name = tag[1:tag.index(" ")]
        start = text.find(f"[{name} ")
        if start >= 0 and rng.random() < 0.8:
            end = text.find("]", start)
            text = text[:start] + tag + text[end + 1:]
        else:
            text = tag + "\n" + text
    elif op == 1 and kind == "usebio":                     # an encoding declaration or an entity
        choice = rng.randrange(3)
        if choice == 0:
            decl = rng.choice(XML_DECLS)
            text = decl + text[text.index("?>") + 2:] if text.startswith("<?xml") else decl + text
        elif choice == 1:
            k = text.find('="', rng.randrange(max(len(text), 1)))
            if k >= 0:
                text = text[:k + 2] + rng.choice(["&nope;", "&#0;", "&#x110000;", "", "9" * 5000, "٩"]) + text[k + 2:]
        else:
            k = text.find("<", rng.randrange(max(len(text), 1)))
            if k > 0:
                text = text[:k] + rng.choice(["<!--", "]]>", "&", "<X " + 'a="1" ' * 3000 + "/>", "\x00"]) + text[k:]
    else:                                                 # a YAML value replaced by a bad scalar
        value = rng.choice(BAD_SCALARS)
        lines = text.split("\n")
        spots = [k for k, line in enumerate(lines) if ": " in line and not line.lstrip().startswith("#")]
        if spots and kind not in ("pbn", "usebio"):
            k = rng.choice(spots)
            key, _, _ = lines[k].partition(": ")
            lines[k] = f"{key}: {value}"
            text = "\n".join(lines)
        elif kind not in ("pbn", "usebio"):
            text += f"\nx: {value}\n"
        else:
            k = rng.randrange(max(len(text), 1))
            text = text[:k] + value + text[k:]
    return text.encode("utf-8", "surrogateescape")


# --- the kinds ------------------------------------------------------------------------------------

def sources(kind: str) -> list[Path]:
    if kind == "case":
        return sorted((ROOT / "cases").rglob("*.yaml"))
    if kind == "traveller":
        return sorted((ROOT / "travellers").glob("*.yaml"))
    if kind == "rulebook":
        return sorted((ROOT / "rules").glob("*.yaml")) + sorted((ROOT / "rules" / "shared").glob("*.yaml"))
    if kind in ("overlay", "rulings"):
        return []
    return sorted(EVENTS.glob("*.pbn" if kind == "pbn" else "*.xml"))


class Kind:
    """How one kind's mutant is written and run, in a folder of its own (`work`)."""

    def __init__(self, kind: str, work: Path) -> None:
        self.kind, self.work = kind, work
        self.sources = sources(kind)
        if kind == "rulebook":
            self.rules = work / "rules"
            shutil.copytree(ROOT / "rules", self.rules)
        if kind == "traveller":
            for pbn in (ROOT / "travellers").glob("*.pbn"):
                shutil.copy(pbn, work / pbn.name)

    def original(self, rng: random.Random) -> tuple[str, bytes]:
        if self.kind == "overlay":
            return "overlay.yaml", OVERLAY.encode()
        if self.kind == "rulings":
            return "rulings.yaml", RULINGS.encode()
        source = rng.choice(self.sources)
        return source.name, source.read_bytes()

    def argv(self, name: str, data: bytes, index: int) -> tuple[list[str], Path]:
        if self.kind == "rulebook":
            folder = self.work / f"m{index % 4}"
            if folder.exists():
                shutil.rmtree(folder)
            (folder / "shared").mkdir(parents=True)
            for book in self.rules.glob("*.yaml"):
                (folder / book.name).symlink_to(book)
            for layer in (self.rules / "shared").glob("*.yaml"):
                (folder / "shared" / layer.name).symlink_to(layer)
            shared = (self.rules / "shared" / name).exists() and not (self.rules / name).exists()
            path = folder / ("shared" if shared else "") / name
            path.unlink()
            path.write_bytes(data)
            named = folder / "wbf-2017.yaml" if shared else path
            return ["rule", str(CASE), "--rulebook", str(named)], path
        path = self.work / f"mutant-{index % 4}-{name}"
        path.write_bytes(data)
        if self.kind == "case":
            return ["rule", str(path)], path
        if self.kind == "traveller":
            return ["score", str(path)], path
        if self.kind == "overlay":
            return ["rule", str(CASE), "--overlay", str(path)], path
        if self.kind == "rulings":
            return ["event", str(EVENTS / "ffb-magic-contest-2022-open-dn1-s1.pbn"), "--rulings", str(path)], path
        return ["event", str(path), "--rulebook", "wbf-2017"], path


# --- issue 29: teams with rulings at real rooms, round trips, the cache folder ---------------------

RESULTS = ["4S= N", "3NT-1 S", "2H+1 E", "6C= W", "1NT-2 N", "4H-1 E", "3D= S", "5CX-2 W", "7NT= N", "2SXX+1 E"]
WORDS = ["avg-plus", "average", "avg-minus", "in-no-way-at-fault", "partly-at-fault", "directly-at-fault"]
# the laws a teams room's adjusted score may name, with the finding each asks for (now and then another)
LAWS = {"86B1": "clearly_favourable", "86B2": "clearly_favourable", "86D": "assigns_in_imps", "87": None,
        "82C": "cannot_be_scored_normally", "84D": None, "12C1": None}


def _event_lines(path: Path) -> tuple[list, object]:
    """The result lines of a results file and the day of its first session (read once per file)."""
    from bridgelaw.field.run import load_event
    event = load_event(str(path))
    lines = [l for s in event.sessions[:1] for b in s.boards.values() for l in b.lines if l.kind == "result"]
    return lines, event.sessions[0].date


def _books_for(day, teams: bool, rng: random.Random) -> tuple[str, str | None]:
    """A rulebook in force on `day` (or, now and then, one that is not, with --as-of a day it covers)."""
    from bridgelaw import rulebook
    names = [n for n in rulebook.available() if n != "wbf-laws-committee-2007"]
    covering = [n for n in names if day is None or rulebook.get(n).covers(day)]
    if covering and rng.random() < 0.8:
        return rng.choice(covering), None
    name = rng.choice(names)
    book = rulebook.get(name)
    as_of = book.effective_until or book.effective_from.replace(year=book.effective_from.year + 1)
    return name, as_of.isoformat()


def _ruling(line, teams: bool, rng: random.Random) -> str:
    where = [f"board: {line.board}"]
    if teams or line.table is None:
        where += [f"ns: {line.ns}"] + ([f"ew: {line.ew}"] if not teams and line.ew else [])
    else:
        where += [f"table: {line.table}"] + ([f"section: {line.section}"] if line.section else [])
    what = rng.randrange(6)
    if what == 0:
        body = f"adjusted: {rng.choice(RESULTS)}"
    elif what == 1:
        a, b = rng.sample(RESULTS, 2)
        w = rng.choice(["1/2", "1/3", "2/3", "1/4"])
        body = f"adjusted: [{{result: {a}, weight: {w}}}, {{result: {b}, weight: {1 - __import__('fractions').Fraction(w)}}}]"
    elif what == 2:
        body = (f"adjusted: {{NS: [{{result: {rng.choice(RESULTS)}, weight: 1}}], "
                f"EW: [{{result: {rng.choice(RESULTS)}, weight: 1}}]}}")
    elif what == 3:
        body = f"artificial: {{NS: {rng.choice(WORDS)}, EW: {rng.choice(WORDS)}}}"
    elif what == 4:
        body = "not_played: true"
    else:
        body = "penalty: {%s: %s}" % (rng.choice(["NS", "EW"]), rng.choice(
            ["3", "1 VP", "25 VP", "0.5 VP"] if teams else ["10%", "25%", "1/4", "2 MP"]))
    extra = []
    if what <= 2 and rng.random() < 0.7:
        extra.append(f"non_offending: {rng.choice(['NS', 'EW'])}")
    if teams and what <= 2 and rng.random() < 0.5:
        law = rng.choice(list(LAWS))
        found = LAWS[law] if rng.random() < 0.8 else rng.choice([f for f in LAWS.values() if f])
        extra.append(f"infraction: {{law: {law}" + (f", findings: {{{found}: {rng.choice(['true', 'false'])}}}}}"
                                                    if found else "}"))
    return "  - {" + ", ".join(where + [body] + extra) + "}\n"


def _totals(text: str) -> dict:
    """Each session's contestants' totals (exact) and each match's score, from `event --format json`."""
    import json
    out = {}
    for k, s in enumerate(json.loads(text)["sessions"]):
        out[(k, "standings")] = sorted((st["total"] or {}).get("exact", "") for st in s["standings"])
        for m in (s.get("teams") or {}).get("matches", []) or []:
            out[(k, "match", str(m.get("label") or m.get("key")))] = json.dumps(m.get("score"), sort_keys=True)
    return out


class RulingsAtLines:
    """teams and roundtrip: a results file, rulings aimed at its real lines (half of them mutated),
    written back (both formats for pairs, USEBIO for teams) and every output read again."""

    def __init__(self, kind: str, work: Path) -> None:
        self.kind, self.work = kind, work
        self.files: list[Path] = []
        if kind == "teams":
            sys.path.insert(0, str(ROOT / "tests"))
            from usebio_teams_files import EBUSCORE, JSS, generate
            for name, figures in (("jss", JSS), ("ebuscore", EBUSCORE)):
                path = work / f"{name}-teams.xml"
                path.write_bytes(generate(figures))
                self.files.append(path)
        else:
            self.files = [p for p in sorted(EVENTS.glob("*.pbn")) + sorted(EVENTS.glob("*.xml"))
                          if "bridgecomposer" not in p.name]   # (its file's own scores disagree: refused as read)
        self._lines: dict[Path, tuple] = {}
        self.outputs: list[Path] = []
        self.again: list[str] = []

    def original(self, rng: random.Random) -> tuple[str, bytes]:
        source = rng.choice(self.files)
        if source not in self._lines:
            self._lines[source] = _event_lines(source)
        lines, day = self._lines[source]
        book, as_of = _books_for(day, self.kind == "teams", rng)
        chosen = rng.sample(lines, min(len(lines), rng.choice((1, 1, 2, 3))))
        text = f"rulebook: {book}\nrulings:\n" + "".join(_ruling(l, self.kind == "teams", rng) for l in chosen)
        data = text.encode()
        if rng.random() < 0.5:
            data = mutate(data, rng, "rulings")
        head = f"{source.name}|{as_of or ''}"
        return head, data

    def argv(self, name: str, data: bytes, index: int) -> tuple[list[str], Path]:
        source, as_of = name.split("|")
        path = self.work / f"rulings-{index % 4}.yaml"
        path.write_bytes(data)
        folder = next(p for p in self.files if p.name == source)
        self.outputs = [self.work / f"out-{index % 4}.xml"] + ([] if self.kind == "teams" else
                                                               [self.work / f"out-{index % 4}.pbn"])
        for out in self.outputs:
            out.unlink(missing_ok=True)
        self.again = (["--as-of", as_of] if as_of else [])
        argv = ["event", str(folder), "--rulings", str(path), "--format", "json", *self.again]
        for out in self.outputs:
            argv += ["--output", str(out)]
        return argv, path

    def check(self, code: int, out: str) -> str | None:
        """Each written file read again gives the same totals and match scores (None), or what differs."""
        if code != 0:
            return None
        import json
        first = _totals(out)
        session = json.loads(out)["sessions"][0]
        book = session["rulebook"]["id"].split("+")[0]     # the rulings' rulebook (the profile is the file's)
        for written in self.outputs:
            code2, out2, err2 = _in_process(["event", str(written), "--format", "json", "--rulebook", book,
                                             *self.again])
            if code2 != 0:
                return f"{written.suffix} re-read: exit {code2}: {err2.strip()[-300:]}"
            again = _totals(out2)
            if again != first:
                diff = next((k, first.get(k), again.get(k)) for k in sorted(set(first) | set(again), key=str)
                            if first.get(k) != again.get(k))
                return f"{written.suffix} re-read differs: {diff!r}"[:400]
        return None


ATTACKS = ("flip", "truncate", "edit-kept-hmac", "pickle", "other-rulebook", "link-to-user-file", "dangling-link",
           "fifo", "sparse-3gb", "secret-changed", "secret-linked", "secret-open", "secret-fifo", "folder-group",
           "folder-others", "empty")


class _Plant:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


class CacheFolder:
    """cache: the snapshot folder attacked before each `rule` run; the ruling must be the reference's."""

    def __init__(self, kind: str, work: Path) -> None:
        self.kind, self.work = kind, work
        os.environ["BRIDGELAW_CACHE_DIR"] = str(work / "cache")
        from bridgelaw import rulebook
        from bridgelaw.rulebook import registry, snapshot
        self.folder = work / "cache" / "rulebooks"
        self.argv_ = ["rule", str(CASE), "--format", "json"]
        code, self.reference, err = _in_process(self.argv_)
        assert code == 0, err
        registry._cache.clear()
        rulebook.get("ebu")
        registry._cache.clear()
        self.name = snapshot.key(registry.listing()["wbf-2017"]) + snapshot.SUFFIX
        self.other = snapshot.key(registry.listing()["ebu"]) + snapshot.SUFFIX
        self.good = {p.name: p.read_bytes() for p in self.folder.iterdir() if p.is_file()}
        self.victim = work / "users-file.txt"
        self.outside = work / "outside"
        self.marker = work / "ran"

    def original(self, rng: random.Random) -> tuple[str, bytes]:
        return rng.choice(ATTACKS), str(rng.random()).encode()

    def _restore(self) -> None:
        for p in self.folder.iterdir():
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink()
        os.chmod(self.folder, 0o700)
        for name, data in self.good.items():
            fd = os.open(self.folder / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        self.victim.write_text("the user's own file\n")
        shutil.rmtree(self.outside, ignore_errors=True)
        self.outside.mkdir()
        self.marker.unlink(missing_ok=True)

    def argv(self, attack: str, data: bytes, index: int) -> tuple[list[str], Path]:
        import pickle
        rng = random.Random(data)
        self._restore()
        target = self.folder / self.name
        secret = self.folder / "secret"
        if attack == "flip":
            target.write_bytes(mutate(target.read_bytes(), rng, "usebio"))
        elif attack == "truncate":
            target.write_bytes(target.read_bytes()[:rng.randrange(1, target.stat().st_size)])
        elif attack == "edit-kept-hmac":
            raw = bytearray(target.read_bytes())
            spots = [k for k in range(200, len(raw)) if 48 <= raw[k] <= 57]
            k = rng.choice(spots)
            raw[k] = 48 + (raw[k] - 48 + rng.randrange(1, 10)) % 10
            target.write_bytes(bytes(raw))
        elif attack == "pickle":
            payload = pickle.dumps(_Plant(str(self.marker)))
            target.write_bytes(payload if rng.random() < 0.5 else
                               target.read_bytes().split(b"\n", 2)[0] + b"\n" + b"0" * 64 + b"\n" + payload)
            (self.folder / (self.name[:-len(".snapshot")] + ".pickle")).write_bytes(payload)
        elif attack == "other-rulebook":
            target.write_bytes((self.folder / self.other).read_bytes())
        elif attack == "link-to-user-file":
            target.unlink()
            target.symlink_to(self.victim)
        elif attack == "dangling-link":
            target.unlink()
            target.symlink_to(self.outside / "made")
        elif attack == "fifo":
            target.unlink()
            os.mkfifo(target)
        elif attack == "sparse-3gb":
            os.truncate(target, 3 * 2**30)
        elif attack == "secret-changed":
            secret.write_bytes(os.urandom(32))
        elif attack == "secret-linked":
            secret.unlink()
            secret.symlink_to(self.outside / "secret")
        elif attack == "secret-open":
            os.chmod(secret, 0o644)
        elif attack == "secret-fifo":
            secret.unlink()
            os.mkfifo(secret)
        elif attack == "folder-group":
            os.chmod(self.folder, 0o770)
        elif attack == "folder-others":
            os.chmod(self.folder, 0o777)
        elif attack == "empty":
            target.write_bytes(b"")
        return self.argv_, target

    def check(self, code: int, out: str) -> str | None:
        problems = []
        if code != 0 or out != self.reference:
            problems.append("the ruling differs from the reference")
        if self.marker.exists():
            problems.append("a planted pickle ran")
        if self.victim.read_text() != "the user's own file\n":
            problems.append("a user's file was written through a link")
        if any(self.outside.iterdir()):
            problems.append("a file was made outside the cache folder")
        return "; ".join(problems) or None


def _in_process(argv: list[str]) -> tuple[int, str, str]:
    from bridgelaw.commands import cli
    from bridgelaw.rulebook import registry
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    finally:
        registry._cache.clear()
    return code, out.getvalue(), err.getvalue()


def make_kind(kind: str, work: Path):
    if kind in ("teams", "roundtrip"):
        return RulingsAtLines(kind, work)
    if kind == "cache":
        return CacheFolder(kind, work)
    return Kind(kind, work)


def mutant(kind: Kind, seed: int, index: int) -> tuple[str, bytes]:
    rng = random.Random(f"{seed}:{kind.kind}:{index}")
    name, data = kind.original(rng)
    if kind.kind in ("teams", "roundtrip", "cache"):      # they mutate (or attack) as they make the original
        return name, data
    return name, mutate(data, rng, kind.kind)


# --- running ---------------------------------------------------------------------------------------

class _Slow(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Slow


def run_one(argv: list[str], slow: float, check=None) -> tuple[str, float, str]:
    """(outcome, seconds, detail): outcome ok | error | traceback | slow | differs (`check(code, stdout)`
    said what differs: a re-read, a ruling from an attacked cache)."""
    from bridgelaw.commands import cli
    from bridgelaw.rulebook import registry
    out, err = io.StringIO(), io.StringIO()
    signal.setitimer(signal.ITIMER_REAL, slow)
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except _Slow:
        return "slow", time.perf_counter() - start, ""
    except BaseException:                 # noqa: BLE001 — what the bench looks for
        return "traceback", time.perf_counter() - start, traceback.format_exc(limit=-3)[-1500:]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        registry._cache.clear()           # every mutant rulebook would be kept otherwise
    seconds = time.perf_counter() - start
    if code in (130, 143):                # the worker itself was interrupted or terminated: stop it
        raise SystemExit(code)
    lines = err.getvalue().splitlines()
    if check is not None and code in (0, 2):
        try:
            problem = check(code, out.getvalue())
        except BaseException:             # noqa: BLE001 — a traceback while re-reading is one too
            return "traceback", seconds, traceback.format_exc(limit=-3)[-1500:]
        if problem:
            return "differs", seconds, problem
    if code == 0:
        return "ok", seconds, ""
    if code == 2 and len(lines) == 1 and lines[0].startswith("bridgelaw: error: ") and out.getvalue() == "":
        return "error", seconds, ""
    return "traceback", seconds, f"exit {code}; stderr {err.getvalue()[-1000:]!r}; stdout {out.getvalue()[:200]!r}"


def worker(kind_name: str, seed: int, indexes: list[int], slow: float, work: str, report: mp.Queue,
           deadline: float) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    folder = Path(work) / f"{kind_name}-{os.getpid()}"
    folder.mkdir(parents=True)
    kind = make_kind(kind_name, folder)
    for index in indexes:
        if time.time() > deadline:        # --minutes: no new mutant of this kind
            break
        name, data = mutant(kind, seed, index)
        argv, _ = kind.argv(name, data, index)
        report.put(("start", index, 0.0, ""))
        outcome, seconds, detail = run_one(argv, slow, getattr(kind, "check", None))
        report.put((outcome, index, seconds, detail))
    report.put(("done", -1, 0.0, ""))


def run_kind(kind: str, count: int, seed: int, jobs: int, slow: float, keep: Path | None,
             minutes: float = 0) -> dict:
    work = Path(tempfile.mkdtemp(prefix=f"bridgelaw-mutants-{kind}-"))
    report: mp.Queue = mp.Queue()
    todo = list(range(count))
    shares = [todo[j::jobs] for j in range(jobs)]
    procs: dict[int, tuple[mp.Process, list[int]]] = {}
    results: dict[str, list] = {"ok": [], "error": [], "traceback": [], "slow": [], "hang": [], "differs": []}
    deadline = time.time() + minutes * 60 if minutes else float("inf")
    started: dict[int, tuple[int, float]] = {}            # worker slot → (index, when)
    owner: dict[int, int] = {}                            # index → worker slot

    def spawn(slot: int, indexes: list[int]) -> None:
        proc = mp.Process(target=worker, args=(kind, seed, indexes, slow, str(work), report, deadline), daemon=True)
        proc.start()
        procs[slot] = (proc, indexes)
        for index in indexes:
            owner[index] = slot

    try:
        for slot, share in enumerate(shares):
            if share:
                spawn(slot, share)
        finished, seen = 0, 0
        while finished < len(procs):
            try:
                what, index, seconds, detail = report.get(timeout=1)
            except Exception:                             # noqa: BLE001 — queue.Empty: look for a hang
                what = None
            if what == "start":
                started[owner[index]] = (index, time.monotonic())
            elif what == "done":
                finished += 1
            elif what is not None:
                if started.get(owner[index], (None,))[0] == index:
                    del started[owner[index]]         # answered: no longer a candidate for a hang
                results[what].append((index, seconds, detail))
                seen += 1
                if seen % 1000 == 0:
                    print(f"  {kind}: {seen:,} of {count:,}", file=sys.stderr, flush=True)
            for slot, (index, when) in list(started.items()):
                if time.monotonic() - when > HANG:            # stuck where the alarm cannot reach: restart
                    proc, indexes = procs[slot]
                    proc.kill()
                    proc.join()
                    results["hang"].append((index, time.monotonic() - when, "no answer"))
                    del started[slot]
                    rest = indexes[indexes.index(index) + 1:]
                    if rest:
                        spawn(slot, rest)
                    else:
                        finished += 1
    finally:
        for proc, _ in procs.values():
            proc.kill()
        shutil.rmtree(work, ignore_errors=True)
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        holder = Path(tempfile.mkdtemp())
        k = make_kind(kind, holder)
        for what in ("traceback", "slow", "hang", "differs"):
            for index, _, detail in results[what]:
                name, data = mutant(k, seed, index)
                (keep / f"{kind}-{what}-{index}-{name}").write_bytes(data)
                (keep / f"{kind}-{what}-{index}.txt").write_text(detail)
        shutil.rmtree(holder, ignore_errors=True)
    return results


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kinds", default="case,rulebook,overlay", help=f"kinds, of {','.join(KINDS)} (default "
                   "case,rulebook,overlay)")
    p.add_argument("--count", type=int, default=20_000, help="mutants of each kind (default 20000)")
    p.add_argument("--seed", type=int, default=24, help="the seed the mutants are drawn from (default 24)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--slow", type=float, default=10.0, help="seconds a run may take (default 10)")
    p.add_argument("--keep", type=Path, help="write each finding's mutant (and its error) to this folder")
    p.add_argument("--minutes", type=float, default=0, help="stop starting mutants of a kind after this many "
                   "minutes (default: no limit; the runs done are counted)")
    a = p.parse_args(argv)
    kinds = [k for k in a.kinds.split(",") if k]
    if not kinds or not set(kinds) <= set(KINDS) or not 1 <= a.count <= 1_000_000 or not 1 <= a.jobs <= 16 \
            or not 0 < a.slow <= 60:
        p.error(f"out of range: --kinds of {', '.join(KINDS)}, --count 1..1000000, --jobs 1..16, --slow ≤ 60")
    print(f"bench/mutants.py: {a.count:,} mutants of {', '.join(kinds)}, seed {a.seed}, {a.jobs} jobs, "
          f"{os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f}", flush=True)
    met = True
    for kind in kinds:
        start = time.monotonic()
        r = run_kind(kind, a.count, a.seed, a.jobs, a.slow, a.keep, a.minutes)
        times = sorted(s for what in ("ok", "error") for _, s, _ in r[what])
        over = [i for i, s, _ in r["ok"] + r["error"] if s > a.slow]
        print(f"{kind:9} {sum(len(v) for v in r.values()):>7,} runs: {len(r['ok']):>6,} exit 0, "
              f"{len(r['error']):>6,} exit 2, {len(r['traceback'])} tracebacks, {len(r['differs'])} differences, "
              f"{len(r['slow']) + len(over)} over "
              f"{a.slow:g} s, {len(r['hang'])} hangs; median {statistics.median(times) * 1000 if times else 0:.1f} ms, "
              f"slowest {times[-1] if times else 0:.2f} s; {time.monotonic() - start:.0f} s; "
              f"load {os.getloadavg()[0]:.2f}", flush=True)
        for what in ("traceback", "differs", "slow", "hang"):
            for index, seconds, detail in r[what][:5]:
                print(f"  {what} mutant {index} ({seconds:.2f} s): {detail.strip().splitlines()[-1] if detail else ''}")
        met = met and not r["traceback"] and not r["slow"] and not r["hang"] and not r["differs"] and not over
    print("met: 0 tracebacks, 0 differences, 0 runs over the bound" if met else "NOT met: see the findings above "
          "(replay with --keep DIR)")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
