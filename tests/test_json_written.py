"""The JSON writers write the trace's values themselves (render.ruling._written: Fractions,
decisions, scores turned into JSON as they are met, no copy of the trace made first): the document
is byte for byte the one as_dict gives, written by json (the CLI) and by orjson and json (the API)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bridgelaw.render import ruling as render
from bridgelaw.rulebook import available, get
from bridgelaw.ruling.build import rule_case
from bridgelaw.ruling.case import load_case

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from reference import generate  # noqa: E402


def rulings():
    books = [get(name) for name in available()]
    cases = [load_case(p) for p in sorted((ROOT / "cases").rglob("*.yaml"))]
    cases += [load_case(f"generated-{i}.yaml", text=json.dumps(c)) for i, c in enumerate(generate(60, seed=9))]
    for case in cases:
        for book in books:
            try:
                yield case, rule_case(case, book)
            except Exception:                     # out of the rulebook's scope or dates
                continue


def test_written_json_is_as_dict_byte_for_byte(monkeypatch):
    checked = 0
    for case, ruling in rulings():
        data = render.as_dict(ruling, case)
        assert render.as_json(ruling, case) == json.dumps(data, indent=2, ensure_ascii=False) + "\n", case.file
        assert render.as_json_bytes(ruling, case) == render.compact_json(data), case.file
        with monkeypatch.context() as m:
            m.setattr(render, "orjson", None)
            assert render.as_json_bytes(ruling, case) == render.compact_json(data), case.file
        checked += 1
    assert checked >= 458 + 60


def test_a_value_json_does_not_know_is_written_as_before():
    class Odd(str):
        pass

    class Count(int):
        pass
    assert render._json_default(Odd("x")) == "x" and type(render._json_default(Odd("x"))) is str
    assert render._json_default(Count(3)) == 3 and type(render._json_default(Count(3))) is int
    with pytest.raises(TypeError):
        render.compact_json({"d": object()}, default=None)


REPR = __import__("re").compile(r"\b[A-Z]\w*\((\w+=|Fraction\()")     # a dataclass's or Fraction's repr


def _strings(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)
    elif isinstance(v, str):
        yield v


@pytest.mark.parametrize("name", ["law12-provisions/individual-penalty.yaml", "published/nswba-2005-appeal-4.yaml"])
def test_a_procedural_penalty_in_the_trace_is_json_like_the_rulings_penalties(name):
    case = load_case(ROOT / "cases" / name)
    data = json.loads(render.as_json(rule_case(case, case_book(case)), case))
    in_trace = [e["penalty"] for e in data["trace"] if e["kind"] == "procedural-penalty"]
    assert in_trace == data["penalties"] and len(in_trace) == 1
    assert isinstance(in_trace[0]["value"], dict) and in_trace[0]["value"]["exact"] in {"6/5", "1"}
    assert not [s for s in _strings(data) if REPR.search(s)]


def case_book(case):
    return get(case.model.rulebook)


def test_no_ruling_of_the_corpus_writes_a_python_repr_into_its_json():
    found = [(case.file, s) for case, ruling in rulings() for s in _strings(render.as_dict(ruling, case))
             if REPR.search(s)]
    assert found == []


def test_rows_json_is_jsons_indented_outline_with_one_row_a_line():
    """render.jsonrows: the outline exactly as json.dumps(indent=…) writes it (non-string keys, empty
    containers, non-ASCII, floats), and each item of a list under a `rows` key on one line."""
    from bridgelaw.render.jsonrows import rows_json
    data = {1: [1, {"a": []}], "b": {}, "c": [], "d": None, "é": "ü", "f": 1.5, "g": [[1, 2], []], "h": True}
    for indent in (1, 2, 4):
        assert rows_json(data, set(), indent) == json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    assert rows_json([], set()) == "[]\n" and rows_json(3, set()) == "3\n"
    doc = {"board": 1, "tables": [{"t": 1, "ns": [420, None]}, {"t": 2, "ns": []}], "rest": {"tables": []}}
    assert rows_json(doc, {"tables"}, 2) == ('{\n  "board": 1,\n  "tables": [\n    {"t": 1, "ns": [420, null]},\n'
                                             '    {"t": 2, "ns": []}\n  ],\n  "rest": {\n    "tables": []\n  }\n}\n')
    assert json.loads(rows_json(doc, {"tables"}, 2)) == doc
