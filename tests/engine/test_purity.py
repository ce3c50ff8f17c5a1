"""The engine is pure Python: it imports the standard library and itself, nothing else.

STYLE.md, "The engine": a test keeps ``engine`` free of Django, DRF and Celery imports, so
the rules run in the CLI, in bots and in a benchmark without a web framework.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FRAMEWORKS = ("django", "rest_framework", "celery")
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every import in ``path``; relative imports count as engine."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # from . import x: inside the engine package
                found.append((node.lineno, "engine"))
            elif node.module is not None:
                found.append((node.lineno, node.module.split(".")[0]))
    return found


def test_the_engine_has_python_files() -> None:
    assert ENGINE / "__init__.py" in ENGINE_FILES
    assert len(ENGINE_FILES) > 5


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_imports_only_stdlib_and_engine(path: Path) -> None:
    allowed = set(sys.stdlib_module_names) | {"engine", "__future__"}
    foreign = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for line, module in _imported_modules(path)
        if module not in allowed
    ]
    assert not foreign, "the engine must use the standard library only:\n" + "\n".join(foreign)


def test_the_import_scan_sees_framework_imports(tmp_path: Path) -> None:
    """The scanner itself finds every import form (so the test above can fail)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json\n"
        "import django.db\n"
        "from rest_framework import serializers\n"
        "from . import cards\n"
        "def f():\n"
        "    import celery\n",
        encoding="utf-8",
    )
    modules = [m for _, m in _imported_modules(probe)]
    assert modules == ["json", "django", "rest_framework", "engine", "celery"]


def test_importing_the_engine_loads_no_framework() -> None:
    """A fresh interpreter that imports the engine (and its CLI, bots and rule sets) has no
    Django, DRF or Celery module loaded."""
    code = (
        "import json, sys\n"
        "import engine, engine.__main__, engine.bots.random_bot, engine.rules.wien\n"
        f"frameworks = {FRAMEWORKS!r}\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in frameworks)\n"
        "print(json.dumps(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
