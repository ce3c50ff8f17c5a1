"""The Python examples (docs/examples/generated_client.py, live_client.py) pointed at an
address where no server listens (``make run PORT=8080`` and the default ``--base``, say)
say so in one line naming the address and ``--base``, and exit with an error status: no
traceback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.clients.conftest import PROJECT_DIR

EXAMPLES = PROJECT_DIR / "docs" / "examples"
# The same worker as test_python_client.py, which generates and installs the client once.
pytestmark = pytest.mark.xdist_group("generated_client")


@pytest.fixture
def closed_base() -> Iterator[str]:
    """An address whose port is taken but not listening: a connection is refused."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{taken.getsockname()[1]}"


def run_example(name: str, base: str, pythonpath: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), "--base", base, "--user", "anna"]
        + ["--password", "demo-pass-1"],
        env={**os.environ, "PYTHONPATH": pythonpath},
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_says_it_cannot_reach(done: subprocess.CompletedProcess[str], base: str) -> None:
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == f"cannot reach {base}: is the server running? pass --base\n"


def test_the_generated_client_example_says_it_cannot_reach_the_server(
    generated_client: ModuleType, closed_base: str
) -> None:
    site = str(Path(generated_client.__file__ or "").resolve().parents[1])
    done = run_example("generated_client.py", closed_base, site)
    assert_says_it_cannot_reach(done, closed_base)


def test_the_live_client_example_says_it_cannot_reach_the_server(closed_base: str) -> None:
    done = run_example("live_client.py", closed_base)
    assert_says_it_cannot_reach(done, closed_base)
