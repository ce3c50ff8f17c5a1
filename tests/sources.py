"""The project's modules parsed once per test process.

The layer and import guards (tests/test_layers.py, tests/games/test_import_graph.py) walk the
syntax tree of every module of the apps several times over, one test per module and rule:
parsing each module once instead of once per test saves some ten seconds a run. The trees
are shared: a test reads them and never changes one.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path


@cache
def parsed(source: str) -> ast.Module:
    """``source`` parsed (shared: do not change the tree)."""
    return ast.parse(source)


def parsed_file(path: Path) -> ast.Module:
    """The module at ``path`` parsed (shared: do not change the tree)."""
    return parsed(path.read_text())
