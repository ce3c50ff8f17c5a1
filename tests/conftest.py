"""Shared fixtures: API clients, users, and a real Celery worker for ``services`` tests.

Tests marked ``services`` need PostgreSQL (``DATABASE_URL=postgres://...``) and a broker
(``CELERY_BROKER_URL``). Without them they are skipped with a reason, unless
``REQUIRE_SERVICES=1``, which turns the skip into a failure (CI sets it).

Hypothesis runs under one of two profiles registered here: ``ci`` (``CI=true``, as .ci/run
sets it) and ``dev`` (everything else); ``HYPOTHESIS_PROFILE`` picks one by name. Neither has
a deadline nor the ``too_slow`` health check: both measure the machine (a busy CI runner, a
laptop compiling something), not the code. The other health checks stay on, since they
find strategies that filter away most of what they draw. ``ci`` runs Hypothesis' usual
100 examples derandomized, so a CI run is reproducible and fails the same way on a rerun
(``dev`` runs find new examples); ``dev`` runs fewer examples for a quick inner loop. Tests
that need more examples to reach what they test name their number through
``tests.draws.draws``: all of them under ``ci``, an eighth (at least 25) under ``dev``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from clubs.models import User
from tests.factories import UserFactory
from tests.push_fakes import PushServices, start_push_services
from tests.slow_list import is_slow
from tests.worlds import world_group

PROJECT_DIR = Path(__file__).resolve().parent.parent
WORKER_READY_TIMEOUT_SECONDS = 60.0

hypothesis_settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    print_blob=True,
)
hypothesis_settings.register_profile(
    "dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def hypothesis_profile() -> str:
    """``HYPOTHESIS_PROFILE`` when set, else ``ci`` on CI (``CI=true``) and ``dev`` elsewhere."""
    chosen = os.environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    return "ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "dev"


# Loaded before any test module is imported: a test's own @settings builds on the profile.
hypothesis_settings.load_profile(hypothesis_profile())


def services_missing_reason() -> str | None:
    """Why ``services`` tests cannot run here, or ``None`` when they can."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        return "services tests need DATABASE_URL=postgres://... (PostgreSQL)"
    if not os.environ.get("CELERY_BROKER_URL"):
        return "services tests need CELERY_BROKER_URL (Redis) for a real Celery worker"
    return None


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark the tests the inner loop leaves out ``slow`` (``tests/slow_list.py``), and the tests
    of one shared world (a permission matrix's, ``tests/worlds.py``) ``xdist_group`` by world."""
    if is_slow(item.nodeid):
        item.add_marker(pytest.mark.slow)
    group = world_group(item)
    if group is not None:
        item.add_marker(pytest.mark.xdist_group(group))


def uses_database(item: pytest.Item) -> bool:
    """Whether ``item`` uses the test database (as pytest-django decides it)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(
        fixtures & {"db", "transactional_db", "live_server"}
    )


def order_part(item: pytest.Item) -> int:
    """0 for a test that uses the database, 1 for a Hypothesis test that does not, 2 for any
    other test."""
    if uses_database(item):
        return 0
    return 1 if getattr(getattr(item, "obj", None), "is_hypothesis_test", False) else 2


@pytest.hookimpl(trylast=True)  # after pytest-django's order: database tests, then the rest
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In pytest-django's order (the tests that use the database, the transactional ones
    last, then those that do not), the Hypothesis tests among those that do not come first:
    pytest-xdist hands tests out in this order, and the longest ones (the engine's property
    and conformance tests, seconds each) handed out last made one worker finish seconds after
    the other; short tests at the end even the workers out."""
    items.sort(key=order_part)  # stable: the order within each part stays


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or with REQUIRE_SERVICES=1, fail) ``services`` tests when services are absent."""
    if item.get_closest_marker("services") is None:
        return
    reason = services_missing_reason()
    if reason is None:
        return
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


#: Domains that never name a real host (RFC 2606, RFC 6761): the webhook receivers and other
#: addresses in tests that must never be reached. Resolving them asked the machine's DNS
#: server, over the network; on a machine whose resolver drops a query now and then, a
#: lookup took its 5 s timeout (about one in 25 here), so any test that registered a webhook
#: could take 5 s longer for no reason of its own.
RESERVED_DOMAINS = ("example", "invalid", "test", "example.com", "example.net", "example.org")


def is_reserved_name(host: str | bytes | None) -> bool:
    """Whether ``host`` is a name in :data:`RESERVED_DOMAINS`."""
    name = (host.decode() if isinstance(host, bytes) else host or "").rstrip(".").lower()
    return any(name == domain or name.endswith(f".{domain}") for domain in RESERVED_DOMAINS)


@pytest.fixture(autouse=True, scope="session")
def reserved_names_do_not_resolve() -> Iterator[None]:
    """Names in the reserved domains do not resolve, at once and without asking the network
    (as a resolver answers them that follows RFC 6761); every other name, and every address,
    resolves as usual. No test then depends on the network's DNS."""
    resolve = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if is_reserved_name(host):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return resolve(host, port, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket, "getaddrinfo", getaddrinfo)
        yield


def clear_cache() -> None:
    """Empty Django's cache: with Redis only the project's keys (the broker's queue may share
    the database), else all of it."""
    from django.core.cache import cache

    client = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client is None:
        cache.clear()
        return
    redis = client(write=True)
    keys = list(redis.scan_iter(f"{settings.CACHE_KEY_PREFIX}:*", count=1000))
    if keys:
        redis.delete(*keys)


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """Every test starts with no sign-in counts or throttle history (Django's cache and the
    process's leases of it), and with no users kept by the JWT authentication (a test's users
    may reuse ids of an earlier test's, which a server thread such as ``live_server`` may have
    kept)."""
    from config.api.authentication import forget_everyone
    from config.api.throttles import forget_leases

    clear_cache()
    forget_leases()
    forget_everyone()
    yield


class FakeClock:
    """Stands in for the ``time`` module inside the modules a test hands to
    :func:`fake_clock`: ``time()`` and ``monotonic()`` read the clock, which moves only when
    the test calls :meth:`advance`; every other name is the real ``time`` module's."""

    def __init__(self, now: float = 1_750_000_000.0) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Callable[..., FakeClock]:
    """``fake_clock(module, ...)``: one :class:`FakeClock` as the ``time`` those modules
    imported (``import time``), for this test; time-dependent behaviour then never depends on
    how fast the machine runs the test."""

    def install(*modules: ModuleType) -> FakeClock:
        clock = FakeClock()
        for module in modules:
            assert getattr(module, "time", None) is time, f"{module.__name__} has no `time`"
            monkeypatch.setattr(module, "time", clock)
        return clock

    return install


@pytest.fixture
def api_client() -> APIClient:
    """An unauthenticated DRF test client."""
    return APIClient()


@pytest.fixture
def user(db: None) -> User:
    """A saved player (password ``tests.factories.DEFAULT_PASSWORD``)."""
    return UserFactory.create()


@pytest.fixture
def auth_client(user: User) -> APIClient:
    """A client sending a JWT access token for ``user``."""
    client = APIClient()
    token = RefreshToken.for_user(user).access_token
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@contextmanager
def tasks_in_process() -> Iterator[None]:
    """Run Celery tasks in this process, even when a broker is configured, inside the block."""
    from config.celery import app

    previous = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = previous


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Run Celery tasks in this process even when a broker is configured."""
    with tasks_in_process():
        yield


@dataclass(frozen=True)
class WorkerProcess:
    """A running ``celery worker`` subprocess and where its log goes."""

    pid: int
    log_path: Path

    def log(self) -> str:
        """The worker's output so far."""
        return self.log_path.read_text(errors="replace")


def _test_database_url() -> str:
    """DATABASE_URL for the test database pytest-django created (``test_<name>``)."""
    db = settings.DATABASES["default"]
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    credentials = f"{user}{password}@" if user else ""
    host = db.get("HOST") or ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{credentials}{host}{port}/{db['NAME']}"


@pytest.fixture(scope="session")
def push_services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PushServices]:
    """The fake APNs, FCM and Web Push services (tests/push_fakes.py), started once per test
    process, with the ``PUSH_*`` settings pointing at them in the environment, which the
    processes a test starts (the real Celery worker) inherit; a test that sends from this
    process too takes :func:`push`, which points this process's settings at them."""
    services = start_push_services(tmp_path_factory.mktemp("push"))
    with pytest.MonkeyPatch.context() as patch:
        for name, value in services.settings().items():
            patch.setenv(name, value)
        try:
            yield services
        finally:
            services.stop()


@pytest.fixture
def push(push_services: PushServices, settings: Any) -> PushServices:
    """The fake push services, with nothing received, refused or scripted yet, and this
    process's ``PUSH_*`` settings pointing at them for the test (the others' stay as they
    were: push off)."""
    push_services.reset()
    for name, value in push_services.settings().items():
        if name == "PUSH_WEBPUSH_HOSTS":  # a list in settings, as config/settings.py reads it
            setattr(settings, name, [host for host in value.split(",") if host])
        else:
            setattr(settings, name, value)
    return push_services


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory, push_services: PushServices
) -> Iterator[WorkerProcess]:
    """Start a real ``celery -A config worker`` on the test database; stop it at teardown.

    Under pytest-xdist each worker process starts its own, on its own test database and
    reading only its own queues (tests/settings.py: named by the run and the worker), so
    neither another worker nor another test run takes its tasks.

    Use with ``pytest.mark.services`` and ``pytest.mark.django_db(transaction=True)`` so the
    rows a test writes are committed and visible to the worker. It starts after the fake push
    services (``push_services``) and sends its push notifications to them.
    """
    from config.celery import app

    reason = services_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    # DJANGO_SETTINGS_MODULE (tests/settings.py) and the variables naming this run and worker
    # come along: the worker uses this process's queue, cache and channel-layer names.
    # CONN_MAX_AGE as docker compose gives the workers: the tasks share a connection.
    env = {**os.environ, "DATABASE_URL": _test_database_url(), "CONN_MAX_AGE": "60"}
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool=solo", "--loglevel=INFO", "--without-gossip", "--without-mingle",
        "--hostname", f"pytest-{os.getpid()}@%h",
        "--queues",
        f"{app.conf.task_default_queue},{settings.CELERY_BOTS_QUEUE},{settings.CELERY_CLOCKS_QUEUE}",
    ]  # fmt: skip
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            command, cwd=PROJECT_DIR, env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
    worker = WorkerProcess(pid=process.pid, log_path=log_path)
    try:
        deadline = time.monotonic() + WORKER_READY_TIMEOUT_SECONDS
        while " ready." not in worker.log():
            if process.poll() is not None:
                pytest.fail(f"celery worker exited early:\n{worker.log()}")
            if time.monotonic() > deadline:
                pytest.fail(f"celery worker not ready in time:\n{worker.log()}")
            time.sleep(0.2)
        yield worker
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
