"""The project's settings (config/settings.py) for a test run: Redis names of its own, a fast
password hasher and static files looked up when asked for.

``make test`` runs the suite in several pytest-xdist worker processes at once. pytest-django
gives each its own test database (``test_<name>_gw0``, ``test_<name>_gw1``, ...); what they
would still share is Redis, where one worker's tests would clear the other's cache keys
(sign-in counts, throttles), read its channel-layer groups and take its Celery tasks. And so
would two test runs at once on one machine (two terminals, a run beside CI's). So each
worker of each run gets its own cache key prefix, channel-layer prefix and Celery queues,
named by :data:`TEST_RUN_NAME`: the worker (``PYTEST_XDIST_WORKER``, ``main`` without xdist)
and the run (pytest-xdist's ``PYTEST_XDIST_TESTRUNUID``, shared by a run's workers; without
xdist the test process's id). The processes a test starts (the real ``celery worker``, a
second server process) inherit ``DJANGO_SETTINGS_MODULE`` and those variables (the process
id through ``PREFERENCE_TEST_RUN``, set here) and so use the same names as the test that
started them (``tests/test_run_names.py``).
"""

from __future__ import annotations

import os
from typing import Any

import tests.trickgame.registered  # noqa: F401  (registers the test-only rule set trickgame)
from config.settings import *  # noqa: F403
from config.settings import BOT_TASKS, CACHES, CHANNEL_LAYERS, CLOCK_TASKS

#: This test run: pytest-xdist's id of it in its workers, else this process's id, passed on to
#: the processes its tests start through the environment.
TEST_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")[:12] or os.environ.setdefault(
    "PREFERENCE_TEST_RUN", str(os.getpid())
)
#: This test process's name: its worker's among the run's workers, and the run's.
TEST_RUN_NAME = f"{os.environ.get('PYTEST_XDIST_WORKER') or 'main'}-{TEST_RUN_ID}"

CACHE_KEY_PREFIX = f"preference-{TEST_RUN_NAME}"
CACHES["default"]["KEY_PREFIX"] = CACHE_KEY_PREFIX
layer_config: dict[str, Any] = CHANNEL_LAYERS["default"]["CONFIG"]  # type: ignore[assignment]
if "prefix" in layer_config:
    layer_config["prefix"] = f"live-{TEST_RUN_NAME}"
# Tasks sent by this worker's tests, and by its Celery worker, go to a queue only that
# Celery worker reads.
CELERY_TASK_DEFAULT_QUEUE = f"celery-{TEST_RUN_NAME}"
CELERY_BOTS_QUEUE = f"bots-{TEST_RUN_NAME}"
CELERY_CLOCKS_QUEUE = f"clocks-{TEST_RUN_NAME}"
CELERY_TASK_ROUTES = {
    **{name: {"queue": CELERY_BOTS_QUEUE} for name in BOT_TASKS},
    **{name: {"queue": CELERY_CLOCKS_QUEUE} for name in CLOCK_TASKS},
}

# Accounts get passwords; hash them quickly, here rather than per test so that worlds built
# once for many tests (tests/worlds.py) and the servers and workers a test starts hash
# quickly too. No test checks the hasher's strength; signing in with the right and a wrong
# password is still tested.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Each test's client builds Django's middleware afresh, and WhiteNoise, unless it refreshes
# automatically, lists every static file of every app when it is built (some 180 files, about
# 30 ms a client: a quarter of a permission-matrix test). Tests find a static file when one
# is asked for, as `make run` does (DEBUG); the files served and their headers are the same.
WHITENOISE_AUTOREFRESH = True

# The pseudo-locale en-xa (config/catalogs.py): every sentence of every catalog wrapped and
# accented, written for this process before a translation is read, so that a test asking in
# it finds any English sentence that still reaches a reader (tests/config/test_pseudo_locale.py).
from config.catalogs import PSEUDO, write_pseudo  # noqa: E402

PSEUDO_LOCALE_DIR = (
    BASE_DIR / ".venv" / "pseudo-locale" / (os.environ.get("PYTEST_XDIST_WORKER") or "main")  # noqa: F405
)
write_pseudo(PSEUDO_LOCALE_DIR)
LANGUAGES = [*LANGUAGES, (PSEUDO, "Pseudo")]  # noqa: F405
LOCALE_PATHS = [*LOCALE_PATHS, PSEUDO_LOCALE_DIR]  # noqa: F405
