"""``make test`` needs Python 3.11 and make, and Node.js only for the TypeScript example's
test (README, Quick start): without ``npm`` it runs the suite, says in one line that it skips
``npm ci`` and what that leaves out, and that test skips, except where Node.js is required
(CI): there a missing tool fails the run.

``make test`` runs here with ``.venv`` taken as installed and, in place of pytest, a script
that prints its arguments; ``PATH`` holds only what each case puts there."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.test_typescript_example import node_tools_or_skip

PROJECT_DIR = Path(__file__).resolve().parent.parent
MAKE = shutil.which("make")


def script(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def make_test(tmp_path: Path, path: Path) -> subprocess.CompletedProcess[str]:
    assert MAKE is not None
    script(tmp_path / "venv-bin" / "pytest", 'echo "pytest $*"')
    return subprocess.run(
        [MAKE, "-s", "-o", ".venv/.installed", "test", f"BIN={tmp_path / 'venv-bin'}"]
        + [f"NPM_STAMP={tmp_path / 'npm-stamp'}", "PYTEST_ARGS=tests/engine"],
        cwd=PROJECT_DIR,
        env={"PATH": str(path), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_make_test_runs_the_suite_without_npm_and_says_what_it_leaves_out(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = make_test(tmp_path, tmp_path / "empty")
    assert done.returncode == 0, done.stdout + done.stderr
    said, ran = done.stdout.splitlines()
    assert said == (
        "npm not found: skipping npm ci; the TypeScript example's test will skip "
        "(install Node.js and npm to run it)"
    )
    assert ran.startswith("pytest ") and ran.endswith(" tests/engine")
    assert not (tmp_path / "npm-stamp").exists()


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_make_test_installs_the_node_tools_where_npm_is_found(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    script(tools / "npm", f'echo "npm $*"; echo "$*" > "{tmp_path / "npm-args"}"')
    touch = shutil.which("touch")
    assert touch is not None
    (tools / "touch").symlink_to(touch)
    done = make_test(tmp_path, tools)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "npm-args").read_text() == "ci --no-audit --no-fund --silent\n"
    assert (tmp_path / "npm-stamp").exists()
    assert done.stdout.splitlines()[-1].endswith(" tests/engine")


@pytest.mark.parametrize(
    "required", [{"CI": "true"}, {"REQUIRE_NODE": "1"}, {"REQUIRE_SERVICES": "1"}]
)
def test_missing_node_tools_fail_where_node_is_required(
    monkeypatch: pytest.MonkeyPatch, required: dict[str, str]
) -> None:
    for name in ("CI", "REQUIRE_NODE", "REQUIRE_SERVICES"):
        monkeypatch.delenv(name, raising=False)
    for name, value in required.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(pytest.fail.Exception, match="needs node"):
        node_tools_or_skip(["node"])


def test_missing_node_tools_skip_the_typescript_test_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("CI", "REQUIRE_NODE", "REQUIRE_SERVICES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="needs node, node_modules/.bin/tsc"):
        node_tools_or_skip(["node", "node_modules/.bin/tsc"])
