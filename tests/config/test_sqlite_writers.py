"""The embedded default (`make run`: SQLite, tasks in-process) under several writers at once.

Real uvicorn servers, started as `make run` starts one, serve a SQLite file (a copy of the test
database's schema, so no migration runs) and threads write through the HTTP API together: every
write must succeed, the writers waiting their turn for the database (WAL, ``BEGIN IMMEDIATE``,
a busy timeout: config/settings.py). A write that still cannot get the database within the
busy timeout (here another connection holds the write lock, and a second server's timeout is
tiny) must answer 503 ``service_unavailable`` with a sentence and ``Retry-After``, never 500.

No assertion depends on the machine's speed: each writer sends a fixed number of requests, and
the default busy timeout (20 s) is far longer than any of these writes.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
WRITERS = 4
ROUNDS = 3
PASSWORD = "many-writers-7"

# django_db: so that pytest-django creates the test database the servers' file is copied from.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db,
    pytest.mark.xdist_group("sqlite_writers"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Answer:
    status: int
    headers: Message
    body: Any


@dataclass
class Server:
    base: str
    log: Path

    def ask(self, path: str, method: str = "GET", body: Any = None, token: str = "") -> Answer:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as r:
                status, head, raw = r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            status, head, raw = e.code, e.headers, e.read()
            e.close()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")[:300]
        return Answer(status, head, parsed)


def _serve(database: Path, log: Path, **extra_env: str) -> tuple[subprocess.Popen[bytes], Server]:
    """Start uvicorn on ``database`` as `make run` does (DEBUG on, tasks in-process)."""
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "DEBUG": "1",
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "CELERY_BROKER_URL": "",
        "REDIS_URL": "",
        "LOG_LEVEL": "WARNING",
        # Several writers from one address and account: no rate limit gets in the way.
        "USER_WRITE_RATE": "off",
        "ANON_RATE_PER_IP": "off",
        **extra_env,
    }
    uvicorn = str(Path(sys.executable).with_name("uvicorn"))
    args = ["config.asgi:application", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [uvicorn, *args, "--lifespan", "off", "--no-server-header"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    return process, Server(f"http://127.0.0.1:{port}/api/v1", log)


def _wait_until_up(process: subprocess.Popen[bytes], server: Server) -> None:
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            pytest.fail(f"uvicorn exited: {server.log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(server.base.replace("/api/v1", "/healthz"), timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail("uvicorn did not start in 60 s")
            time.sleep(0.2)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@dataclass
class World:
    patient: Server
    impatient: Server
    database: Path
    token: str
    club: int
    evening: int
    season: int


@pytest.fixture(scope="module")
def world(
    tmp_path_factory: pytest.TempPathFactory,
    django_db_setup: None,
    django_db_blocker: Any,
) -> Iterator[World]:
    """Two servers on one SQLite file: one with the default busy timeout, one that waits for
    the database only 0.1 s; a club with an evening and a season, and its owner's token."""
    if connection.vendor != "sqlite":
        pytest.skip("the embedded default is SQLite")
    folder = tmp_path_factory.mktemp("sqlite-writers")
    database = folder / "db.sqlite3"
    with django_db_blocker.unblock():
        connection.ensure_connection()
        target = sqlite3.connect(database)
        try:
            connection.connection.backup(target)
        finally:
            target.close()
    started = [
        _serve(database, folder / "patient.log"),
        _serve(database, folder / "impatient.log", SQLITE_BUSY_TIMEOUT_SECONDS="0.1"),
    ]
    try:
        for process, server in started:
            _wait_until_up(process, server)
        patient = started[0][1]
        name = "writer-owner"
        answer = patient.ask("/auth/register/", "POST", {"username": name, "password": PASSWORD})
        assert answer.status == 201, answer.body
        answer = patient.ask("/auth/token/", "POST", {"username": name, "password": PASSWORD})
        token = answer.body["access"]
        club = patient.ask("/clubs/", "POST", {"name": "Many Writers", "city": "Wien"}, token)
        assert club.status == 201, club.body
        cid = club.body["id"]
        evening = patient.ask(
            f"/clubs/{cid}/evenings/",
            "POST",
            {"title": "Clubabend", "starts_at": "2027-01-05T19:00", "ends_at": "2027-01-05T23:00"},
            token,
        )
        season = patient.ask(
            f"/clubs/{cid}/seasons/",
            "POST",
            {"name": "2027", "starts_on": "2027-01-01", "ends_on": "2027-12-31"},
            token,
        )
        assert (evening.status, season.status) == (201, 201), (evening.body, season.body)
        yield World(
            patient=patient,
            impatient=started[1][1],
            database=database,
            token=token,
            club=cid,
            evening=evening.body["id"],
            season=season.body["id"],
        )
    finally:
        for process, _ in started:
            _stop(process)


def _writes(w: World) -> dict[str, Callable[[int, int], Answer]]:
    """The writes two clients of the fuzzing run got 500 from, each as ``(writer, round)``."""
    club = f"/clubs/{w.club}/"
    server, token = w.patient, w.token
    return {
        "PATCH club": lambda i, k: server.ask(club, "PATCH", {"city": f"Wien {i}.{k}"}, token),
        "PATCH evening": lambda i, k: server.ask(
            f"{club}evenings/{w.evening}/", "PATCH", {"notes": f"note {i}.{k}"}, token
        ),
        "PATCH season": lambda i, k: server.ask(
            f"{club}seasons/{w.season}/", "PATCH", {"name": f"2027 ({i}.{k})"}, token
        ),
        "POST guest": lambda i, k: server.ask(
            f"{club}guests/", "POST", {"name": f"Gast {i}.{k}"}, token
        ),
        "POST invitation": lambda i, k: server.ask(f"{club}invitations/", "POST", {}, token),
        "POST season": lambda i, k: server.ask(
            f"{club}seasons/",
            "POST",
            {"name": f"Season {i}.{k}", "starts_on": "2028-01-01", "ends_on": "2028-12-31"},
            token,
        ),
    }


def test_several_writers_at_once_all_succeed(world: World) -> None:
    writes = _writes(world)
    statuses: Counter[tuple[str, int]] = Counter()
    failures: list[tuple[str, int, Any]] = []
    lock = threading.Lock()
    start = threading.Barrier(WRITERS)

    def writer(i: int) -> None:
        start.wait()
        for k in range(ROUNDS):
            for name, write in writes.items():
                answer = write(i, k)
                with lock:
                    statuses[name, answer.status] += 1
                    if answer.status >= 300:
                        failures.append((name, answer.status, answer.body))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == [], (sorted(statuses.items()), failures[:5])
    assert sum(statuses.values()) == WRITERS * ROUNDS * len(writes)
    # Every write is there: none was lost between the writers.
    guests = world.patient.ask(f"/clubs/{world.club}/guests/", token=world.token)
    names = {g["name"] for g in guests.body["results"]}
    assert {f"Gast {i}.{k}" for i in range(WRITERS) for k in range(ROUNDS)} <= names
    seasons = world.patient.ask(f"/clubs/{world.club}/seasons/", token=world.token)
    assert seasons.body["count"] == 1 + WRITERS * ROUNDS


def test_the_database_file_is_in_wal_mode(world: World) -> None:
    db = sqlite3.connect(world.database)
    try:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        db.close()


def test_a_write_that_cannot_get_the_lock_in_time_is_503_with_retry_after(world: World) -> None:
    """Another connection holds the write lock past the impatient server's 0.1 s: its write
    answers 503 with a sentence and Retry-After; reads go on; once the lock is released the
    same write succeeds."""
    club = f"/clubs/{world.club}/"
    holder = sqlite3.connect(world.database, timeout=30, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        refused = world.impatient.ask(club, "PATCH", {"city": "Graz"}, world.token)
        read = world.impatient.ask(club, token=world.token)
    finally:
        holder.execute("ROLLBACK")
        holder.close()

    assert refused.status == 503, refused.body
    assert refused.headers["Retry-After"] == "5"
    assert refused.headers["Content-Type"].startswith("application/json")
    assert refused.body["code"] == "service_unavailable"
    assert "busy" in refused.body["message"] and refused.body["message"].endswith(".")
    assert read.status == 200 and read.body["city"] != "Graz"

    done = world.impatient.ask(club, "PATCH", {"city": "Graz"}, world.token)
    assert (done.status, done.body["city"]) == (200, "Graz")
