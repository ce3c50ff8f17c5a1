"""The locked dependencies (README, "Dependencies") and the licence the project ships under.

Whether the lock still matches pyproject.toml needs PyPI: `make lock-check` (part of
`make lint`) answers that. These tests read the files only.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PROJECT_DIR = Path(__file__).resolve().parent.parent
RUNTIME_LOCK = PROJECT_DIR / "requirements" / "runtime.txt"
DEV_LOCK = PROJECT_DIR / "requirements" / "dev.txt"


def locked(path: Path) -> dict[str, Requirement]:
    """The lock's requirements by normalised name (each line `name==version ; markers \\`)."""
    requirements = [
        Requirement(line.rstrip(" \\"))
        for line in path.read_text().splitlines()
        if re.match(r"[A-Za-z0-9]", line)
    ]
    return {canonicalize_name(requirement.name): requirement for requirement in requirements}


def pinned_version(requirement: Requirement) -> str:
    (specifier,) = requirement.specifier
    assert specifier.operator == "==", requirement
    return specifier.version


def test_every_locked_requirement_is_pinned_with_hashes() -> None:
    for path in (RUNTIME_LOCK, DEV_LOCK):
        text = path.read_text()
        for requirement in locked(path).values():
            pinned_version(requirement)
        # Each pin's line ends in a continuation followed by its --hash lines.
        blocks = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
        for block in blocks:
            assert "--hash=sha256:" in block, block.splitlines()[0]


def test_the_dev_lock_pins_the_runtime_dependencies_as_the_image_does() -> None:
    runtime, dev = locked(RUNTIME_LOCK), locked(DEV_LOCK)
    assert set(runtime) <= set(dev)
    for name, requirement in runtime.items():
        assert str(dev[name]) == str(requirement), name


def test_the_lock_names_every_dependency_of_pyproject() -> None:
    project = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    runtime, dev = locked(RUNTIME_LOCK), locked(DEV_LOCK)
    for text in project["dependencies"]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in runtime, f"{name}: run make lock"
        assert requirement.specifier.contains(pinned_version(runtime[name])), name
    for text in declared:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in dev, f"{name}: run make lock"
        assert requirement.specifier.contains(pinned_version(dev[name])), name


def test_this_environment_has_the_locked_versions() -> None:
    for name, requirement in locked(DEV_LOCK).items():
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        assert metadata.version(name) == pinned_version(requirement), f"{name}: run make install"


def test_the_project_is_released_under_the_apache_license() -> None:
    project = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["project"]
    assert project["license"] == "Apache-2.0"
    text = (PROJECT_DIR / "LICENSE").read_text()
    assert "Apache License\n                           Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
