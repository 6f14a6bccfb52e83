"""The import graph among a tree's own modules, read from the source with `ast` (nothing is
imported), and the cycles in it.

Every import counts: at module level, inside a function, under `if TYPE_CHECKING:`, and
`importlib.import_module("a.literal.name")`; a lazy import still ties the two modules together,
it only hides the cycle from the import system. Relative imports are resolved against the
importing module's package, and `from pkg import name` is an edge to `pkg.name` when that is a
module of the tree, else to `pkg`. An edge goes to the module named, not to the packages above
it (whose `__init__` runs first, but every import of a submodule would otherwise tie it to its
package).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Where:
    """Where an import stands: the importing file (relative to the tree's root) and its line."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class ImportGraph:
    modules: dict[str, Path]  # module name -> its file
    edges: dict[str, dict[str, Where]] = field(default_factory=dict)  # importer -> imported

    def imports_of(self, module: str) -> set[str]:
        return set(self.edges.get(module, {}))


@dataclass(frozen=True)
class Cycle:
    modules: tuple[str, ...]  # each imports the next, and the last imports the first
    where: tuple[Where, ...]  # where each of those imports stands

    def __str__(self) -> str:
        steps = [
            f"  {importer} -> {self.modules[(i + 1) % len(self.modules)]}  ({where})"
            for i, (importer, where) in enumerate(zip(self.modules, self.where, strict=True))
        ]
        return "\n".join(["cycle: " + " -> ".join((*self.modules, self.modules[0])), *steps])


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the packages below `root`, by its dotted name."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def build_graph(root: Path, packages: Sequence[str]) -> ImportGraph:
    graph = ImportGraph(module_files(root, packages))
    for module, path in graph.modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, target in _imports(tree, module, is_package, graph.modules):
            if target != module:
                where = Where(str(path.relative_to(root)), line)
                graph.edges.setdefault(module, {}).setdefault(target, where)
    return graph


def _imports(
    tree: ast.Module, module: str, is_package: bool, modules: dict[str, Path]
) -> Iterable[tuple[int, str]]:
    """(line, module of the tree) for each import in the module's source."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _known(alias.name, modules)
                if target is not None:
                    yield node.lineno, target
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            for alias in node.names:
                target = _known(f"{base}.{alias.name}", modules) if base else None
                if target != f"{base}.{alias.name}":
                    target = _known(base, modules) if base else _known(alias.name, modules)
                if target is not None:
                    yield node.lineno, target
        elif isinstance(node, ast.Call) and _is_import_module(node.func):
            if node.args and isinstance(node.args[0], ast.Constant):
                name = node.args[0].value
                target = _known(name, modules) if isinstance(name, str) else None
                if target is not None:
                    yield node.lineno, target


def _absolute(name: str | None, level: int, package: str) -> str:
    """The absolute name a (possibly relative) `from ... import` names."""
    if level == 0:
        return name or ""
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*base, *([name] if name else [])])


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The deepest module of the tree that `name` is, or is inside; None if none."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _is_import_module(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr == "import_module"
    return isinstance(func, ast.Name) and func.id == "import_module"


def strongly_connected(graph: ImportGraph) -> list[list[str]]:
    """The graph's strongly connected parts of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    parts: list[list[str]] = []
    counter = 0
    for start in sorted(graph.modules):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph.imports_of(start)))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.imports_of(nxt))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                part: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    parts.append(sorted(part))
    return sorted(parts)


def find_cycles(graph: ImportGraph) -> list[Cycle]:
    """For each module caught in a cycle, the shortest cycle through it (each cycle once)."""
    cycles: dict[tuple[str, ...], Cycle] = {}
    for part in strongly_connected(graph):
        members = set(part)
        for start in part:
            path = _shortest_way_back(graph, start, members)
            turn = path.index(min(path))
            key = tuple(path[turn:] + path[:turn])
            if key not in cycles:
                where = tuple(graph.edges[key[i]][key[(i + 1) % len(key)]] for i in range(len(key)))
                cycles[key] = Cycle(key, where)
    return [cycles[key] for key in sorted(cycles)]


def _shortest_way_back(graph: ImportGraph, start: str, members: set[str]) -> list[str]:
    """The shortest list of modules from `start` whose last imports `start` (breadth first)."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph.imports_of(node) & members):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return path[::-1]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise AssertionError(f"{start} is in a strongly connected part but no way leads back")
