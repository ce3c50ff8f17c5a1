"""The project's settings (config/settings.py) for a test run: Redis names of its own, a fast
password hasher and static files looked up when asked for.

``make test`` runs the suite in several pytest-xdist worker processes at once. pytest-django
gives each its own test database (``test_<name>_gw0``, ``test_<name>_gw1``, ...); what they
would still share is Redis, where one worker's tests would clear the other's cache keys
(sign-in counts, throttles), read its channel-layer groups and take its Celery tasks. So
each worker (``PYTEST_XDIST_WORKER``, ``main`` without xdist) gets its own cache key prefix,
channel-layer prefix and Celery queue. The processes a test starts (the real ``celery
worker``, a second server process) inherit ``DJANGO_SETTINGS_MODULE`` and
``PYTEST_XDIST_WORKER`` and so use the same names as the test that started them.
"""

from __future__ import annotations

import os
from typing import Any

from config.settings import *  # noqa: F403
from config.settings import BOT_TASKS, CACHES, CHANNEL_LAYERS

#: This test process's name among the run's workers.
TEST_RUN_NAME = os.environ.get("PYTEST_XDIST_WORKER") or "main"

CACHE_KEY_PREFIX = f"preference-{TEST_RUN_NAME}"
CACHES["default"]["KEY_PREFIX"] = CACHE_KEY_PREFIX
layer_config: dict[str, Any] = CHANNEL_LAYERS["default"]["CONFIG"]  # type: ignore[assignment]
if "prefix" in layer_config:
    layer_config["prefix"] = f"live-{TEST_RUN_NAME}"
# Tasks sent by this worker's tests, and by its Celery worker, go to a queue only that
# Celery worker reads.
CELERY_TASK_DEFAULT_QUEUE = f"celery-{TEST_RUN_NAME}"
CELERY_BOTS_QUEUE = f"bots-{TEST_RUN_NAME}"
CELERY_TASK_ROUTES = {name: {"queue": CELERY_BOTS_QUEUE} for name in BOT_TASKS}

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
