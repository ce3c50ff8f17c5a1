"""The Python client generated from the committed schema (docs/openapi.yaml), installed the
way an app maker installs it: ``openapi-python-client generate`` (the pinned dev
dependency, as ``make clients`` runs it), then ``pip install`` of the generated package."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
PACKAGE = "preference_api_client"


@pytest.fixture(scope="session")
def generated_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated package, installed into a directory of its own and imported."""
    where = tmp_path_factory.mktemp("client")
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
    sys.path.insert(0, str(where / "site"))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where / "site"))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
