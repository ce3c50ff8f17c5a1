"""The Python client generated from the committed schema (docs/openapi.yaml), installed the
way an app maker installs it: ``openapi-python-client generate`` (the pinned dev
dependency, as ``make clients`` runs it), then ``pip install`` of the generated package;
kept for the next run while the schema and the generator stay the same (tests/generated.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

import pytest

from tests.generated import generated_once

PROJECT_DIR = Path(__file__).resolve().parents[2]
PACKAGE = "preference_api_client"


def generate_client(where: Path) -> None:
    """``make clients``'s generation into ``where/python``, installed into ``where/site``."""
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [
            str(bin_dir / "openapi-python-client"), "generate",
            "--path", str(PROJECT_DIR / "docs" / "openapi.yaml"),
            "--meta", "setup", "--output-path", str(where / "python"),
        ],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--target", str(where / "site"), str(where / "python"),
        ],
        check=True, capture_output=True,
    )  # fmt: skip


@pytest.fixture(scope="session")
def generated_client() -> Iterator[ModuleType]:
    """The generated package, installed into a directory of its own and imported (generated
    again only when the schema or the generator changed: tests/generated.py)."""
    inputs = [
        (PROJECT_DIR / "docs" / "openapi.yaml").read_bytes(),
        f"openapi-python-client {version('openapi-python-client')} --meta setup",
        sys.version,
    ]
    site = generated_once("python-client", inputs, generate_client) / "site"
    sys.path.insert(0, str(site))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(site))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
