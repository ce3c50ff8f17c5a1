"""``manage.py`` under settings that refuse to start says why in its one sentence, with no
traceback: ``make demo`` (``manage.py migrate``, ``demo_data``, ``demo_tournament``,
``demo_cup``) without ``DEBUG=1`` or a ``SECRET_KEY`` is a newcomer's first mistake
(README, Quick start)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
REFUSAL = (
    "Refusing to start with DEBUG off and the development SECRET_KEY: set the SECRET_KEY "
    "environment variable (or DEBUG=1 for local development)."
)


@pytest.mark.parametrize("command", ["migrate", "demo_data", "demo_tournament", "demo_cup"])
def test_a_refused_start_prints_the_sentence_alone(tmp_path: Path, command: str) -> None:
    base = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    done = subprocess.run(
        [sys.executable, "manage.py", command],
        cwd=PROJECT_DIR,
        env={
            **base,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", REFUSAL + "\n")
    assert not (tmp_path / "db.sqlite3").exists()
