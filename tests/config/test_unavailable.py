"""A database or broker that cannot be reached is a 503 with a sentence, never a 500.

A real gunicorn server (the Makefile's WEB_CMD with one worker) is started with
``DATABASE_URL`` and ``CELERY_BROKER_URL`` pointing at closed ports on this machine, so every
request that needs PostgreSQL or Redis meets the drivers' real connection errors. Requests
answered inside DRF's views (a signed-in read, signing in, a long poll) and before them (the
anonymous standings poll answered in ``dispatch``) must all answer 503
``service_unavailable`` with ``Retry-After``, quickly.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework_simplejwt.tokens import AccessToken

from clubs.models import User
from config.celery import app
from config.tasks import send
from games.tasks import bot_act

ROOT = Path(__file__).resolve().parents[2]
#: Far below gunicorn's 60 s timeout and the 5 s database connect timeout (a refused port
#: fails at once; the margin is for a loaded machine).
ANSWER_WITHIN_SECONDS = 8.0

# One worker runs them all: each worker that ran one would start its own server.
pytestmark = pytest.mark.xdist_group("unavailable")


def _closed_port() -> int:
    """A loopback port nothing listens on (bound once, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A gunicorn server whose database and broker are unreachable; yields its base URL."""
    port = _closed_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{_closed_port()}/absent",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{_closed_port()}/0",
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
        "GUNICORN_CMD_ARGS": f"--bind=127.0.0.1:{port} --workers 1",
    }
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    process = subprocess.Popen(
        [gunicorn, "config.wsgi:application", "-k", "gthread", "--threads", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                log = process.stderr.read().decode()  # type: ignore[union-attr]
                pytest.fail(f"gunicorn exited: {log[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("gunicorn did not start in 30 s")
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()  # type: ignore[union-attr]


def _ask(
    url: str, *, method: str = "GET", body: object = None, token: str | None = None
) -> tuple[int, dict[str, str], bytes, float]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=ANSWER_WITHIN_SECONDS + 5) as r:
            status, head, raw = r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        status, head, raw = e.code, dict(e.headers), e.read()
    return status, head, raw, time.monotonic() - started


def _assert_unavailable(answer: tuple[int, dict[str, str], bytes, float], service: str) -> None:
    status, head, raw, took = answer
    assert status == 503, raw[:500]
    assert head["Content-Type"].startswith("application/json")
    assert head["Retry-After"] == "5"
    body = json.loads(raw)
    assert body["code"] == "service_unavailable"
    assert service in body["message"] and body["message"].endswith(".")
    assert "Traceback" not in raw.decode()
    assert took < ANSWER_WITHIN_SECONDS


def test_a_signed_in_read_is_503_when_the_database_is_down(server: str) -> None:
    token = str(AccessToken.for_user(User(pk=1, username="nobody")))
    _assert_unavailable(_ask(f"{server}/api/v1/me/", token=token), "database")


def test_signing_in_is_503_when_the_database_is_down(server: str) -> None:
    answer = _ask(
        f"{server}/api/v1/auth/token/",
        method="POST",
        body={"username": "anna", "password": "demo-pass-1"},
    )
    _assert_unavailable(answer, "database")


def test_the_anonymous_standings_poll_answered_before_drf_is_503(server: str) -> None:
    _assert_unavailable(_ask(f"{server}/api/v1/tournaments/1/standings/"), "database")


def test_a_long_poll_is_503_when_the_database_is_down(server: str) -> None:
    url = f"{server}/api/v1/tables/1/hands/1/events/?after=0&wait=5"
    _assert_unavailable(_ask(url), "database")


def test_the_liveness_probe_still_answers(server: str) -> None:
    status, _, raw, _ = _ask(f"{server}/healthz")
    assert (status, json.loads(raw)) == (200, {"status": "ok"})


def test_a_task_the_broker_cannot_take_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """After a commit, an unreachable broker must not fail the request (beat sends it
    again): ``send`` answers False and logs the loss."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with app.connection_for_write(f"redis://127.0.0.1:{_closed_port()}/0") as connection:
            started = time.monotonic()
            assert send(bot_act, 1, 0, connection=connection) is False
            assert time.monotonic() - started < ANSWER_WITHIN_SECONDS
    finally:
        app.conf.task_always_eager = previous
    assert "games.tasks.bot_act(1, 0) not sent" in caplog.text
