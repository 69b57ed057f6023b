"""The package's imports point down: no loop between modules, none between parts.

A *part* is a top-level module or a subpackage (``sqlequiv.search``, ``sqlequiv.guard``).
Function-level imports count (they are loops too, only deferred); an import under
``if TYPE_CHECKING:`` does not, since it never runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import sqlequiv

ROOT = Path(sqlequiv.__file__).parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(module: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
    }
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                name = f"{target}.{alias.name}"
                yield name if name in modules else target


def _graph(by_part: bool) -> dict[str, set[str]]:
    modules = _modules()

    def key(module: str) -> str:
        return ".".join(module.split(".")[:2]) if by_part else module

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        edges = graph.setdefault(key(module), set())
        for target in _imports(module, path, modules):
            if target in modules and key(target) != key(module):
                edges.add(key(target))
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import loop of ``graph``, as the list of its members, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_loop_between_modules() -> None:
    assert _cycle(_graph(by_part=False)) is None


def test_no_import_loop_between_parts() -> None:
    assert _cycle(_graph(by_part=True)) is None


def test_the_loop_finder_finds_a_loop() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_symbolic_layer_is_three_rooms() -> None:
    """``symbolic/`` is terms (SQL expressions as z3 terms), the prover and bounded
    verification: the last two read terms and never each other, terms reads neither,
    and only the seam at ``symbolic/``'s top (the layer, the effort accounting) joins them."""
    graph = _graph(by_part=False)
    rooms = ("terms", "prove", "bounded")

    def room(module: str) -> str | None:
        parts = module.split(".")
        if parts[:2] != ["sqlequiv", "symbolic"]:
            return None
        return parts[2] if len(parts) > 2 and parts[2] in rooms else "seam"

    crossings = {
        (room(a), room(b))
        for a, targets in graph.items()
        for b in targets
        if room(a) and room(b) and room(a) != room(b)
    }
    assert ("prove", "bounded") not in crossings and ("bounded", "prove") not in crossings
    assert not {("terms", r) for r in ("prove", "bounded", "seam")} & crossings
    assert ("prove", "terms") in crossings and ("bounded", "terms") in crossings  # it sees them
