"""How the project's modules import each other: no module reaches into another module's
private (underscored) names, and games' modules import each other without a circle.

A circle among games' modules is what lazy imports inside functions hide: the cycle still
exists, it only runs later. So the module graph counts every import, at the top of a module and
inside its functions alike (an import only for the type checker counts too: it names the same
dependency). ``from games import deals`` is an edge to the module ``games.deals``.
``from games.services.hosted import x`` is an edge to ``games.services.hosted`` and to the
package ``games.services``, which Python loads first (its ``__init__`` runs); a submodule's
own packages are not its edges (they have begun loading before it), so a package's re-exports
of its own submodules are not a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.sources import parsed_file

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("games", "clubs", "tournaments", "config")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources(*packages: str) -> dict[str, Path]:
    return {
        _module_name(p): p
        for package in packages
        for p in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in p.parts
    }


def _imports(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, module, names) for every import in ``path``, at any depth, relative imports
    resolved; ``names`` is empty for ``import x``."""
    tree = parsed_file(path)
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            out.append((node.lineno, module, tuple(a.name for a in node.names)))
    return out


MODULES = _sources(*PACKAGES)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_another_modules_private_names(name: str) -> None:
    """A name starting with one underscore is its module's own: another module that needs it
    gets it made public or moved (``__future__`` and dunder names are not private)."""
    private = [
        f"line {line}: {imported}"
        for line, module, names in _imports(MODULES[name])
        for imported in names
        if imported.startswith("_") and not imported.startswith("__") and module != name
    ]
    assert not private, f"{name} imports private names: {', '.join(private)}"


def games_graph() -> dict[str, set[str]]:
    """Each of games' modules and the games modules it imports, anywhere in its text."""
    modules = _sources("games")
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for _, module, names in _imports(path):
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in modules]
            if len(targets) < len(names) or not names:
                targets.append(module)
            for target in targets:
                graph[name].update(_loaded_with(target, name, modules))
    return graph


def _loaded_with(target: str, importer: str, modules: dict[str, Path]) -> set[str]:
    """``target`` and the packages above it that importing it loads from ``importer``: not
    ``importer`` itself nor the packages ``importer`` is in."""
    parts = target.split(".")
    chain = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    own = {".".join(importer.split(".")[:i]) for i in range(1, importer.count(".") + 2)}
    return {m for m in chain - own if m in modules}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan's
    algorithm), each sorted: every module in one can reach every other through imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def test_games_modules_import_each_other_without_a_circle() -> None:
    found = circles(games_graph())
    assert not found, "import circles among games' modules: " + "; ".join(
        " <-> ".join(c) + f" ({len(c)} modules)" for c in found
    )


def test_the_circle_check_finds_a_circle() -> None:
    """The check itself: a graph with a circle through three modules and a tail is reported
    with exactly the circle's modules."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(graph) == [["a", "b", "c"]]
