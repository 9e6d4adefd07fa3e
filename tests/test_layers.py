"""The package's import structure: no import circles, and no import from a lower layer to a
higher one, for the layers docs/architecture.md declares (its ``layers`` block, lowest first).

Every ``import`` and ``from … import`` of the package counts, at the top of a module or inside a
function (a lazy import is still a dependency). The package's entry points (``__main__``) may
import anything.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
DOC = ROOT / "docs" / "architecture.md"


def declared_layers() -> list[str]:
    block = re.search(r"```layers\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block, "docs/architecture.md declares its layers in a ```layers block"
    return [line.split("#")[0].strip() for line in block[1].splitlines() if line.split("#")[0].strip()]


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = list(path.relative_to(ENGINE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that module `name` imports (a package's own __init__ counts as the
    package; `from . import x` counts x when x is a module)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    if name == "":
        package = []
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
            elif node.module and (node.module == "bridgelaw" or node.module.startswith("bridgelaw.")):
                base, node = [], ast.ImportFrom(module=node.module.partition(".")[2] or None, names=node.names, level=1)
            else:
                continue
            target = ".".join(base + (node.module.split(".") if node.module else []))
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                out.add(sub if sub in known else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("bridgelaw."):
                    out.add(alias.name.partition(".")[2])
    out.discard(name)
    return {m for m in out if m in known}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer_of(name: str, layers: list[str]) -> int | None:
    first = name.split(".")[0]
    return layers.index(first) if first in layers else None


def entry_point(name: str) -> bool:
    return name.split(".")[-1] == "__main__"


def test_every_module_is_in_a_declared_layer():
    layers = declared_layers()
    loose = [m for m in modules() if m not in ("", "__main__") and layer_of(m, layers) is None]
    assert loose == [], f"modules outside every layer of docs/architecture.md: {loose}"


# Upward imports still to remove, each with the work that removes it. Keep this empty.
PENDING: set[tuple[str, str]] = set()


def test_no_import_runs_up_a_layer():
    layers = declared_layers()
    upward = []
    for name, deps in graph().items():
        if entry_point(name) or name == "":
            continue
        mine = layer_of(name, layers)
        for dep in sorted(deps):
            theirs = layer_of(dep, layers)
            if mine is not None and theirs is not None and theirs > mine and (name, dep) not in PENDING:
                upward.append(f"{name} ({layers[mine]}) imports {dep} ({layers[theirs]})")
    assert upward == [], "imports that run back up:\n" + "\n".join(upward)


def strongly_connected(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the circles of the graph (components of more than one module, or a
    module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    g = {name: {d for d in deps if not (d == "" or name.startswith(d + "."))} for name, deps in graph().items()}
    circles = strongly_connected(g)
    assert circles == [], "import circles: " + "; ".join(" ↔ ".join(c) for c in circles)


def test_the_checker_finds_a_circle_and_an_upward_import():
    """The checks can fail: a made-up graph with a circle and a layer inversion is caught."""
    assert strongly_connected({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    layers = ["core", "ruling"]
    assert layer_of("core.bridge", layers) < layer_of("ruling.case", layers)
