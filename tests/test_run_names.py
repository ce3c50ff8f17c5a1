"""The Redis names of a test run (``tests/settings.py``): its own per run and per worker, and
the same in every process one of its tests starts.

Two test runs on one machine (two terminals, a run beside CI's) share Redis; with names built
from the xdist worker id alone, both runs' ``gw0`` read one Celery queue, one channel-layer
prefix and one cache prefix, and took each other's tasks and cleared each other's keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

PROJECT_DIR = Path(__file__).resolve().parent.parent
#: Prints the names the test settings give the process that runs it.
NAMES = """
import json, os
os.environ["REDIS_URL"] = "redis://127.0.0.1:6379/15"
import tests.settings as s
print(json.dumps([s.CELERY_TASK_DEFAULT_QUEUE, s.CELERY_BOTS_QUEUE, s.CACHE_KEY_PREFIX,
                  s.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix")]))
"""
#: What tells one run (and worker) from another in the environment.
RUN_VARIABLES = ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_TESTRUNUID", "PREFERENCE_TEST_RUN")


def names_under(**environ: str) -> list[str]:
    """The names of a process started with this process's environment, less the variables
    that name a run and a worker, plus ``environ``."""
    env = {k: v for k, v in os.environ.items() if k not in RUN_VARIABLES}
    env.update(environ)
    done = subprocess.run(
        [sys.executable, "-c", NAMES], cwd=PROJECT_DIR, env=env,
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    names: list[str] = json.loads(done.stdout)
    return names


def test_the_same_worker_of_two_runs_at_once_uses_names_of_its_own() -> None:
    one = names_under(PYTEST_XDIST_WORKER="gw0", PYTEST_XDIST_TESTRUNUID="a1b2c3d4e5f6")
    other = names_under(PYTEST_XDIST_WORKER="gw0", PYTEST_XDIST_TESTRUNUID="0f9e8d7c6b5a")
    assert all(one), one  # a queue, a bots queue, a cache prefix, a channel-layer prefix
    assert not set(one) & set(other), (one, other)


def test_two_runs_without_workers_use_names_of_their_own() -> None:
    one, other = names_under(), names_under()
    assert not set(one) & set(other), (one, other)


def test_a_process_a_test_starts_uses_this_runs_names() -> None:
    """The celery worker and the servers a test starts inherit the environment and so read
    this test process's queues and keys."""
    env = {k: v for k, v in os.environ.items() if k in RUN_VARIABLES}
    child = names_under(**env)
    assert child[:3] == [
        settings.CELERY_TASK_DEFAULT_QUEUE,
        settings.CELERY_BOTS_QUEUE,
        settings.CACHE_KEY_PREFIX,
    ]
