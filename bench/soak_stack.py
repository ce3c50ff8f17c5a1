"""What the soak and the fault runs share: the compose-equivalent stack as real processes, the
seeded data, HTTP clients playing realistic roles, and the integrity checks.

- :class:`Stack`: the Makefile's WEB_CMD (gunicorn gthread), EVENTS_CMD (gunicorn + uvicorn,
  the long polls), WORKER_CMD and BEAT_CMD (Celery) against one PostgreSQL database and one
  Redis, with the environment docker-compose.yml gives them (``CONN_MAX_AGE=60``, 0 for
  ``events``; ``DEBUG=0``)
  and every rate limit off. Every process is started in its own session and stopped here.
- :func:`seed` (run in a subprocess with the stack's ``DATABASE_URL``): a club with members,
  an active season with an evening of recorded tables, hosted tables where one member plays
  against two bots, hosted tables of three bots, and a listed tournament with stored public
  standings; tokens for every client.
- Clients (threads on ``http.client``): :class:`HostedPlayer` (long polls the hand's events,
  asks for its seat's view on its turn, plays a random legal action with ``Idempotency-Key``
  and ``expected_version``, deals the next hand), :class:`BotDealer` (follows an all-bot table
  and deals its next hand), :class:`Scorer` (records score-sheet entries with an
  ``Idempotency-Key``), :class:`Spectator` (public tournament standings and the club's season
  standings with ``If-None-Match``) and :class:`Viewer` (seat views). Writes are retried with
  the same key after a 503 or a lost connection until they get a definite answer, and every
  acknowledged write is logged for :func:`check`.
- :func:`check` (a subprocess again): no action lost or applied twice, ledgers that sum to
  zero with the pot, entries counted once, standings equal to a computation from scratch,
  event streams without gaps.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import select
import shlex
import signal
import subprocess
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.games_bench import ENTRY, PYTHON, ROOT, _stop, base_env, make_cmd, spawn

HOST = "127.0.0.1"
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 300}
#: Rate limits the other issue-10 work adds: off, so the soak measures the service itself.
LIMITS_OFF = {
    "LOGIN_RATE_PER_IP": "off",
    "REGISTER_RATE_PER_IP": "off",
    "USER_WRITE_RATE": "off",
    "ANON_RATE_PER_IP": "off",
}


# ---------------------------------------------------------------------------------------------
# processes


def free_port(preferred: int) -> int:
    """``preferred`` when nothing listens there, else the next free port above it."""
    import socket

    port = preferred
    while True:
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
                return port
            except OSError:
                port += 1


def tree_rss_kib(pid: int) -> int:
    """Resident memory (KiB) of a process and all its descendants."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [
                    int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()
                ]
        except OSError:
            continue
    return total


class Stack:
    """web, events, worker and beat as the Makefile and docker compose run them."""

    def __init__(self, database_url: str, redis_url: str, workdir: Path, port: int) -> None:
        self.workdir = workdir
        self.web_port = port
        self.events_port = free_port(port + 1)
        self.env = {
            **base_env(database_url),
            "CELERY_BROKER_URL": redis_url,
            "CONN_MAX_AGE": "60",
            "LOG_LEVEL": "WARNING",
            **LIMITS_OFF,
        }
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        schedule = workdir / "celerybeat-schedule"
        self.commands = {
            "web": make_cmd("WEB_CMD"),
            "events": make_cmd("EVENTS_CMD"),
            "worker": make_cmd("WORKER_CMD"),
            "bots": make_cmd("BOTS_CMD"),
            "clocks": make_cmd("CLOCKS_CMD"),
            # the Makefile's BEAT_CMD with its schedule file in this run's folder
            "beat": make_cmd("BEAT_CMD").replace("/tmp/celerybeat-schedule", str(schedule)),
        }

    def log(self, name: str) -> Path:
        return self.workdir / f"{name}.log"

    def start(self, name: str) -> None:
        """Start one process and wait until it serves (web, events) or is ready (worker)."""
        env = dict(self.env)
        if name in ("web", "events"):
            port = self.web_port if name == "web" else self.events_port
            env["GUNICORN_CMD_ARGS"] = f"--bind={HOST}:{port}"
        if name == "events":
            env["CONN_MAX_AGE"] = "0"  # as docker-compose.yml: ASGI opens one per request
        log = self.log(name)
        offset = log.stat().st_size if log.exists() else 0
        process = spawn(shlex.split(self.commands[name]), env, log)
        self.procs[name] = process
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited:\n{log.read_text(errors='replace')[-3000:]}")
            if name in ("web", "events") and self._healthy(port):
                return
            if (
                name in ("worker", "bots", "clocks")
                and " ready." in log.read_text(errors="replace")[offset:]
            ):
                return
            if name == "beat":
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} not ready:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.2)

    @staticmethod
    def _healthy(port: int) -> bool:
        try:
            c = http.client.HTTPConnection(HOST, port, timeout=2)
            c.request("GET", "/healthz")
            ok = c.getresponse().status == 200
            c.close()
            return ok
        except OSError:
            return False

    def start_all(self) -> None:
        for name in ("web", "events", "worker", "bots", "clocks", "beat"):
            self.start(name)

    def kill(self, name: str) -> None:
        """kill -9 a process and its children (as a crashed container), then reap it."""
        process = self.procs.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop_all(self) -> None:
        for name in list(self.procs):
            _stop(self.procs.pop(name))

    def rss(self) -> dict[str, int]:
        """Resident memory (KiB) of each process with its children."""
        return {name: tree_rss_kib(p.pid) for name, p in self.procs.items()}

    @property
    def web(self) -> tuple[str, int]:
        return HOST, self.web_port

    @property
    def events(self) -> tuple[str, int]:
        return HOST, self.events_port


# ---------------------------------------------------------------------------------------------
# seeding (in a subprocess with the stack's DATABASE_URL and no broker: bots move in-process)


def seed(out: Path, spec: dict[str, int]) -> None:
    """Create the data the clients use (``spec``: hosted, bot_tables, recorded) and write
    ids and tokens to ``out``."""
    import django

    django.setup()
    import datetime as dt

    from django.utils import timezone
    from rest_framework_simplejwt.tokens import AccessToken

    import engine
    from clubs.models import Club, Evening, EveningTable, Membership, Season, User
    from games import services
    from games.models import Hand, LedgerEntry, Table
    from games.services import SeatSpec
    from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament
    from tournaments.services import standings as tournament_standings

    rng = random.Random(10)
    now = timezone.now()

    def token(user: Any) -> str:
        t = AccessToken.for_user(user)
        t.set_exp(lifetime=dt.timedelta(hours=6))
        return str(t)

    n_members = spec["hosted"] + 3 * spec["recorded"] + 3
    owner = User.objects.create_user(username="soak_owner", password="soak-pass-1")
    members = [
        User.objects.create_user(username=f"soak_m{i:02d}", password="soak-pass-1")
        for i in range(n_members)
    ]
    club = Club.objects.create(name="Soak Club", slug="soak", is_public=True, default_rules=RULES)
    Membership.objects.create(club=club, user=owner, role="owner")
    Membership.objects.bulk_create(Membership(club=club, user=u, role="member") for u in members)
    season = Season.objects.create(
        club=club,
        name="Soak season",
        starts_on=(now - dt.timedelta(days=1)).date(),
        ends_on=(now + dt.timedelta(days=30)).date(),
        is_active=True,
    )
    evening = Evening.objects.create(
        club=club,
        title="Soak evening",
        starts_at=now - dt.timedelta(hours=1),
        ends_at=now + dt.timedelta(hours=5),
    )
    free = list(members)
    hosted = []
    for i in range(spec["hosted"]):
        user = free.pop()
        seats = [
            SeatSpec(key="a", kind="user", user=user),
            SeatSpec(key="b", kind="bot", bot_level="random"),
            SeatSpec(key="c", kind="bot", bot_level="random"),
        ]
        table = services.table_create(
            user=owner, name=f"hosted {i}", mode="hosted", rules=RULES, seats=seats,
            first_dealer=rng.choice("abc"), club_id=club.pk,
        )  # fmt: skip
        services.hand_start(table_id=table.pk, user=user)  # bots move in-process (no broker)
        hosted.append({"table": table.pk, "seat": "a", "token": token(user)})
    bot_tables = []
    for i in range(spec["bot_tables"]):
        seats = [SeatSpec(key=k, kind="bot", bot_level="random") for k in "abc"]
        table = services.table_create(
            user=owner, name=f"bots {i}", mode="hosted", rules=RULES, seats=seats,
            first_dealer="a", club_id=club.pk,
        )  # fmt: skip
        bot_tables.append({"table": table.pk})
    recorded = []
    for i in range(spec["recorded"]):
        group = [free.pop() for _ in range(3)]
        table = services.table_create(
            user=owner, name=f"evening table {i + 1}", mode="recorded", rules=RULES,
            seats=[SeatSpec(key=k, kind="user", user=u) for k, u in zip("abc", group, strict=True)],
            first_dealer="a", club_id=club.pk,
        )  # fmt: skip
        EveningTable.objects.create(evening=evening, number=i + 1, table=table)
        for _ in range(3):  # a few hands already on the sheet
            services.table_record_hand(table_id=table.pk, user=group[0], entry=ENTRY)
        recorded.append({"table": table.pk, "token": token(group[0]), "seeded": 3})

    # a listed tournament: 12 players, 2 closed rounds of 4 tables, 4 hands a table
    players = [
        User.objects.create_user(username=f"soak_p{i:02d}", password="soak-pass-1")
        for i in range(12)
    ]
    t = Tournament.objects.create(
        name="Soak Open", slug="soak-open", status=Tournament.Status.RUNNING, is_public=True,
        rules=engine.parse_rules(RULES).to_json(), rounds_planned=3, deals_per_round=4,
        created_by=owner,
    )  # fmt: skip
    t.directors.add(owner)
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, user=u, name=u.username, status=Entry.Status.CHECKED_IN,
              checked_in_at=now)
        for u in players
    )  # fmt: skip
    for number in (1, 2):
        rnd = Round.objects.create(
            tournament=t, number=number, status=Round.Status.CLOSED, seed=number,
            plan={"method": "random", "seed": number}, seated_at=now, started_at=now,
            closed_at=now,
        )  # fmt: skip
        order = list(entries)
        rng.shuffle(order)
        for k in range(4):
            seated = order[3 * k : 3 * k + 3]
            table = services.table_create(
                user=owner, name=f"Soak Open r{number} t{k + 1}", mode="recorded", rules=RULES,
                seats=[SeatSpec(key=key, kind="user", user=e.user)
                       for key, e in zip("abc", seated, strict=True)],
                first_dealer="a",
            )  # fmt: skip
            link = RoundTable.objects.create(round=rnd, number=k + 1, table=table)
            RoundSeat.objects.bulk_create(
                RoundSeat(round=rnd, round_table=link, entry=e, position=i, seat=key)
                for i, (key, e) in enumerate(zip("abc", seated, strict=True))
            )
            for _ in range(4):
                services.table_record_hand(table_id=table.pk, user=owner, entry=ENTRY)
            Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED, closed_at=now)
    tournament_standings.tournament_recompute(tournament_id=t.pk)
    assert Hand.objects.filter(table__round_link__round__tournament=t).count() == 32
    assert LedgerEntry.objects.exists()
    out.write_text(
        json.dumps(
            {
                "club": club.pk,
                "season": season.pk,
                "tournament": t.pk,
                "owner_token": token(owner),
                "member_token": token(members[0]),
                "hosted": hosted,
                "bot_tables": bot_tables,
                "recorded": recorded,
            }
        )
    )


def run_seed(stack: Stack, spec: dict[str, int]) -> dict[str, Any]:
    """Migrate the stack's database and seed it; answers the seed's ids and tokens."""
    env = {**stack.env, "CELERY_BROKER_URL": ""}
    for command in (
        [PYTHON, "manage.py", "migrate", "--noinput"],
        [PYTHON, "-m", "bench.soak_stack", "--seed", str(stack.workdir / "seed.json"),
         json.dumps(SPEC_KEYS_DEFAULT | spec)],
    ):  # fmt: skip
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    data: dict[str, Any] = json.loads((stack.workdir / "seed.json").read_text())
    return data


SPEC_KEYS_DEFAULT = {"hosted": 4, "bot_tables": 0, "recorded": 4}


# ---------------------------------------------------------------------------------------------
# HTTP clients


@dataclass
class Answer:
    status: int  # 0: no answer (connection error or timeout)
    body: Any
    headers: dict[str, str]
    error: str = ""  # "connection" or "timeout" when status is 0; "bad 5xx" etc.

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300 or self.status == 304


@dataclass
class Stats:
    """Every answer, by phase and endpoint kind: latencies (ms), statuses, bad samples."""

    phase: str = "run"
    latencies: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[tuple[str, str], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    first_ok: dict[tuple[str, str], float] = field(default_factory=dict)

    def add(self, kind: str, answer: Answer, ms: float) -> None:
        label = answer.error or str(answer.status)
        with self.lock:
            key = (self.phase, kind)
            self.latencies[key].append(ms)
            self.statuses[key][label] += 1
            if answer.ok and key not in self.first_ok:
                self.first_ok[key] = time.monotonic()
            if (answer.error or answer.status >= 500) and len(self.samples) < 20:
                self.samples.append(f"{self.phase} {kind}: {label} {str(answer.body)[:200]}")

    def kinds(self, phase: str | None = None) -> list[str]:
        return sorted({k for p, k in self.statuses if phase is None or p == phase})


class Http:
    """One keep-alive connection to a server, reopened after any failure."""

    def __init__(self, address: tuple[str, int], stats: Stats, timeout: float = 15.0) -> None:
        self.address = address
        self.stats = stats
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
        timeout: float | None = None,
    ) -> Answer:
        head = dict(headers or {})
        if token:
            head["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            head["Content-Type"] = "application/json"
        started = time.monotonic()
        answer = self._send(method, path, data, head, timeout or self.timeout)
        self.stats.add(kind, answer, (time.monotonic() - started) * 1000)
        return answer

    def _exchange(
        self, method: str, path: str, data: bytes | None, head: dict[str, str], timeout: float
    ) -> tuple[http.client.HTTPResponse, bytes]:
        # A kept-alive connection the server closed while idle (gunicorn after 2 s, uvicorn
        # after 5 s) reads as ready: open a new one, as urllib3 does.
        sock = None if self.conn is None else self.conn.sock
        if sock is not None and select.select([sock], [], [], 0)[0]:
            self.close()
        if self.conn is None:
            self.conn = http.client.HTTPConnection(*self.address, timeout=timeout)
        self.conn.timeout = timeout
        if self.conn.sock is not None:
            self.conn.sock.settimeout(timeout)
        self.conn.request(method, path, body=data, headers=head)
        r = self.conn.getresponse()
        return r, r.read()

    def _send(
        self, method: str, path: str, data: bytes | None, head: dict[str, str], timeout: float
    ) -> Answer:
        reused = self.conn is not None and self.conn.sock is not None
        try:
            try:
                r, raw = self._exchange(method, path, data, head, timeout)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                if not reused:
                    raise
                # closed by the server just as the request went out on a reused
                # connection: once more on a new one (every write here has an
                # Idempotency-Key, so this is safe for POSTs too)
                self.close()
                r, raw = self._exchange(method, path, data, head, timeout)
            headers = {k.lower(): v for k, v in r.getheaders()}
        except TimeoutError:
            self.close()
            return Answer(0, None, {}, "timeout")
        except (OSError, http.client.HTTPException) as e:
            self.close()
            return Answer(0, repr(e), {}, "connection")
        body: Any = raw
        error = ""
        if raw and headers.get("content-type", "").startswith("application/json"):
            body = json.loads(raw)
        if r.status >= 500:
            sentence = (
                r.status == 503
                and isinstance(body, dict)
                and body.get("code") == "service_unavailable"
                and str(body.get("message", "")).endswith(".")
            )
            error = "" if sentence else f"bad {r.status}"
            if isinstance(body, bytes):
                body = body[:300].decode(errors="replace")
        return Answer(r.status, body, headers, error)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def retried(
    client: Http, stop: threading.Event, kind: str, method: str, path: str, **kw: Any
) -> Answer:
    """A write sent again with the same body (and ``Idempotency-Key``) after a 503, a lost
    connection or a timeout, until it gets a definite answer or the run stops."""
    delay = 0.2
    while True:
        answer = client.request(kind, method, path, **kw)
        if answer.status not in (0, 502, 503, 504) or stop.is_set():
            return answer
        time.sleep(delay)
        delay = min(delay * 2, 2.0)


class Role:
    """A client run by a thread; setting ``stop`` ends it (and :meth:`start` may start it
    again with a new event, its state kept); ``think`` is the mean pause between requests."""

    def __init__(self, stack: Stack, stats: Stats, stop: threading.Event, think: float) -> None:
        self.thread: threading.Thread | None = None
        self.web = Http(stack.web, stats)
        self.events = Http(stack.events, stats)
        self.stop = stop
        self.think = think
        self.rng = random.Random()
        self.failure = ""

    def start(self, stop: threading.Event | None = None) -> None:
        if stop is not None:
            self.stop = stop
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def join(self, timeout: float) -> None:
        if self.thread is not None:
            self.thread.join(timeout)

    def pause(self, scale: float = 1.0) -> None:
        self.stop.wait(self.rng.uniform(0, 2 * self.think * scale))

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.step()
        except Exception as e:  # noqa: BLE001 - reported with the run, never silent
            self.failure = f"{type(self).__name__}: {e!r}"
        finally:
            self.web.close()
            self.events.close()

    def step(self) -> None:
        raise NotImplementedError


class HostedPlayer(Role):
    """A phone at a hosted table against two bots: follows the hand by long polls, plays
    on its turn, deals the next hand. Logs every acknowledged move and every event seen."""

    def __init__(self, *args: Any, table: dict[str, Any], wait: float = 20.0, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.table = table["table"]
        self.seat = table["seat"]
        self.token = table["token"]
        self.wait = wait
        self.number = 1
        self.after = 0
        self.acked: dict[int, list[list[Any]]] = defaultdict(list)  # number -> [version, action]
        self.seen: dict[int, list[list[Any]]] = defaultdict(list)  # number -> [version, seat]
        self.gaps: list[str] = []
        self.pending: dict[int, list[Any]] = {}  # a move sent when the run stopped, unanswered

    def step(self) -> None:
        base = f"/api/v1/tables/{self.table}/hands/{self.number}"
        answer = self.events.request(
            "long poll",
            "GET",
            f"{base}/events/?after={self.after}&wait={self.wait}",
            token=self.token,
            timeout=self.wait + 15,
        )
        if not answer.ok:
            self.stop.wait(0.5)
            return
        body = answer.body
        events = body["events"]
        expected = list(range(self.after + 1, body["version"] + 1))
        if [e["version"] for e in events] != expected:
            self.gaps.append(f"hand {self.number} after {self.after}: {len(events)} events")
        self.seen[self.number] += [[e["version"], e["seat"]] for e in events]
        self.after = body["version"]
        if body["status"] == "done":
            self.pause()
            key = str(uuid.uuid4())
            started = retried(
                self.web, self.stop, "deal", "POST", f"/api/v1/tables/{self.table}/hands/",
                token=self.token, headers={"Idempotency-Key": key},
            )  # fmt: skip
            if started.status == 201:
                self.number, self.after = started.body["number"], 0
            return
        if body["to_act"] != self.seat:
            return
        view = self.web.request("seat view", "GET", f"{base}/view/", token=self.token)
        if not view.ok or view.body.get("to_act") != self.seat or not view.body.get("legal"):
            return
        self.pause(0.5)
        action = self.rng.choice(view.body["legal"])
        version = view.body["version"]
        key = str(uuid.uuid4())
        done = retried(
            self.web, self.stop, "action", "POST", f"{base}/actions/", token=self.token,
            body={"action": action, "expected_version": version},
            headers={"Idempotency-Key": key},
        )  # fmt: skip
        if done.status == 200:
            self.acked[self.number].append([version + 1, action])
        elif done.status in (0, 502, 503, 504):
            self.pending[self.number] = [version + 1, action]


class BotDealer(Role):
    """Follows an all-bot table as its club's owner and deals the next hand when one ends
    (the worker plays every move); notes when each hand moved."""

    def __init__(self, *args: Any, table: dict[str, Any], token: str, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.table = table["table"]
        self.token = token
        self.number = 0
        self.after = 0
        self.moved_at: list[float] = []

    def step(self) -> None:
        if self.number == 0:
            self._deal()
            return
        answer = self.events.request(
            "long poll",
            "GET",
            f"/api/v1/tables/{self.table}/hands/{self.number}/events/?after={self.after}&wait=10",
            token=self.token,
            timeout=25,
        )
        if not answer.ok:
            self.stop.wait(0.5)
            return
        if answer.body["version"] > self.after:
            self.moved_at.append(time.monotonic())
        self.after = answer.body["version"]
        if answer.body["status"] == "done":
            self._deal()

    def _deal(self) -> None:
        started = retried(
            self.web, self.stop, "deal", "POST", f"/api/v1/tables/{self.table}/hands/",
            token=self.token, headers={"Idempotency-Key": str(uuid.uuid4())},
        )  # fmt: skip
        if started.status == 201:
            self.number, self.after = started.body["number"], 0
            self.moved_at.append(time.monotonic())
        elif started.status == 409 and self.number:  # hand still in progress: follow it
            return
        else:
            self.stop.wait(0.5)


class Scorer(Role):
    """Keeps the score sheet of an evening table: one entry at a time, each with its own
    ``Idempotency-Key``; now and then looks at the season's standings."""

    def __init__(self, *args: Any, table: dict[str, Any], season_path: str, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.table = table["table"]
        self.token = table["token"]
        self.season_path = season_path
        self.acked = 0
        self.pending = 0  # an entry sent when the run stopped, unanswered

    def step(self) -> None:
        self.pause()
        answer = retried(
            self.web, self.stop, "score-sheet entry", "POST",
            f"/api/v1/tables/{self.table}/hands/", token=self.token, body=ENTRY,
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )  # fmt: skip
        if answer.status == 201:
            self.acked += 1
        elif answer.status in (0, 502, 503, 504):
            self.pending += 1
        if self.rng.random() < 0.3:
            self.web.request("club standings", "GET", self.season_path, token=self.token)


class Spectator(Role):
    """Polls the tournament's public standings anonymously and the club's season standings,
    each with the ETag of its last answer."""

    def __init__(self, *args: Any, tournament: int, season_path: str, token: str, **kw: Any):
        super().__init__(*args, **kw)
        self.paths = {
            "public standings": (f"/api/v1/tournaments/{tournament}/standings/", None),
            "club standings": (season_path, token),
        }
        self.etags: dict[str, str] = {}

    def step(self) -> None:
        self.pause()
        kind = self.rng.choice(list(self.paths))
        path, token = self.paths[kind]
        headers = {"If-None-Match": self.etags[kind]} if kind in self.etags else {}
        answer = self.web.request(kind, "GET", path, token=token, headers=headers)
        if answer.status == 200 and "etag" in answer.headers:
            self.etags[kind] = answer.headers["etag"]


class Viewer(Role):
    """Opens the seat view of a hosted hand (a player glancing at the phone)."""

    def __init__(self, *args: Any, tables: list[HostedPlayer], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.players = tables

    def step(self) -> None:
        self.pause()
        p = self.rng.choice(self.players)
        self.web.request(
            "seat view", "GET", f"/api/v1/tables/{p.table}/hands/{p.number}/view/", token=p.token
        )


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


# ---------------------------------------------------------------------------------------------
# integrity (in a subprocess with the stack's DATABASE_URL)


def check(inp: Path, out: Path) -> None:
    """Wait until the worker is idle (no bot to act, no standings pending; at most
    ``settle_seconds``), then check the database against what the clients were told."""
    import django

    django.setup()
    from clubs.models import Season
    from clubs.services import seasons
    from games.models import Hand, Table
    from games.services import hands_waiting_for_bots
    from games.services.tables import table_balances

    data = json.loads(inp.read_text())
    started = time.monotonic()
    while True:
        waiting = hands_waiting_for_bots(idle_seconds=0)
        pending = seasons.seasons_pending()
        if (not waiting and not pending) or time.monotonic() - started > data["settle_seconds"]:
            break
        time.sleep(1.0)
    settled = time.monotonic() - started
    results: dict[str, Any] = {"settled_seconds": round(settled, 1), "checks": {}}
    problems: dict[str, list[str]] = defaultdict(list)
    if waiting:
        problems["bots finished their moves"].append(f"still waiting for bots: {waiting}")

    # moves: each seat's actions are exactly the acknowledged ones, at their versions
    for player in data["players"]:
        hands = {h.number: h for h in Hand.objects.filter(table_id=player["table"])}
        for number, hand in hands.items():
            acked = player["acked"].get(str(number), [])
            pending = player["pending"].get(str(number))
            mine = [
                [i + 1, {k: v for k, v in a.items() if k != "seat"}]
                for i, a in enumerate(hand.actions)
                if a["seat"] == player["seat"]
            ]
            if mine != acked and not (pending and mine == [*acked, pending]):
                problems["no move lost or applied twice"].append(
                    f"table {player['table']} hand {number}: stored {mine} acknowledged {acked}"
                )
        for number, seen in player["seen"].items():
            hand = hands[int(number)]
            stored = [[i + 1, a["seat"]] for i, a in enumerate(hand.actions)]
            if seen != stored[: len(seen)]:
                problems["events resume without gaps"].append(
                    f"table {player['table']} hand {number}: seen {seen} stored {stored}"
                )
        problems["events resume without gaps"] += player["gaps"]
    for hand in Hand.objects.filter(deal__isnull=False):
        if hand.version != len(hand.actions):
            problems["no move lost or applied twice"].append(
                f"hand {hand.pk}: version {hand.version}, {len(hand.actions)} actions"
            )

    # entries: every acknowledged score-sheet entry stored once
    for scorer in data["scorers"]:
        stored = Hand.objects.filter(table_id=scorer["table"]).count()
        told = scorer["seeded"] + scorer["acked"]
        if not told <= stored <= told + scorer["pending"]:
            problems["entries stored once"].append(
                f"table {scorer['table']}: {stored} hands, {scorer['seeded']} seeded + "
                f"{scorer['acked']} acknowledged, {scorer['pending']} unanswered at the end"
            )

    # ledgers: every table sums to zero with its pot; each hand's rows are its result
    for table in Table.objects.prefetch_related("seats"):
        balances = table_balances(table)
        if sum(balances.values()) != 0:
            problems["ledger sums to zero with the pot"].append(f"table {table.pk}: {balances}")
        done = list(table.hands.filter(status=Hand.Status.DONE).order_by("number"))
        last_pot = done[-1].result["pot"] if done else table.opening_pot
        if balances["pot"] != last_pot - table.opening_pot:
            problems["ledger sums to zero with the pot"].append(
                f"table {table.pk}: pot {balances['pot']} in the ledger, {last_pot} after the "
                f"last hand (opening {table.opening_pot})"
            )
        by_hand: dict[int, Counter[str]] = defaultdict(Counter)
        for hand_id, payer, payee, amount in table.ledger.values_list(
            "hand_id", "payer", "payee", "amount"
        ):
            by_hand[hand_id][payer] -= amount
            by_hand[hand_id][payee] += amount
        for hand in done:
            nets = {k: by_hand[hand.pk][k] for k in hand.result["delta"]}
            if nets != hand.result["delta"]:
                problems["ledger sums to zero with the pot"].append(
                    f"table {table.pk} hand {hand.number}: ledger {nets}, result "
                    f"{hand.result['delta']}"
                )

    # standings: stored rows equal a computation from scratch, and nothing is pending
    season = Season.objects.select_related("club").get(pk=data["season"])
    if season.computed_version != season.requested_version:
        problems["standings equal a recomputation"].append(
            f"season computed {season.computed_version}, requested {season.requested_version}"
        )
    table, _people = seasons.compute_standings(season)
    fresh = [(str(r.player), r.rank, r.balance, r.hands_played) for r in table.rows]
    stored_rows = [
        (s.player, s.rank, s.balance, s.hands_played) for s in season.standings.order_by("position")
    ]
    if fresh != stored_rows:
        problems["standings equal a recomputation"].append(f"stored {stored_rows} fresh {fresh}")

    for name in (
        "no move lost or applied twice",
        "events resume without gaps",
        "entries stored once",
        "ledger sums to zero with the pot",
        "standings equal a recomputation",
        "bots finished their moves",
    ):
        results["checks"][name] = problems.get(name, [])[:5]
    results["counts"] = {
        "hosted hands": Hand.objects.filter(deal__isnull=False).count(),
        "recorded hands": Hand.objects.filter(deal__isnull=True).count(),
        "season computations": season.computations,
    }
    out.write_text(json.dumps(results))


def run_check(stack: Stack, data: dict[str, Any]) -> dict[str, Any]:
    """Run :func:`check` in a subprocess on the stack's database."""
    inp, out = stack.workdir / "check-in.json", stack.workdir / "check-out.json"
    inp.write_text(json.dumps(data))
    command = [PYTHON, "-m", "bench.soak_stack", "--check", str(inp), str(out)]
    done = subprocess.run(command, cwd=ROOT, env=stack.env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"check failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def client_log(
    players: list[HostedPlayer], scorers: list[Scorer], seed_data: dict[str, Any], settle: float
) -> dict[str, Any]:
    """What the clients were told, for :func:`check`."""
    return {
        "season": seed_data["season"],
        "settle_seconds": settle,
        "players": [
            {
                "table": p.table,
                "seat": p.seat,
                "acked": {str(n): a for n, a in p.acked.items()},
                "seen": {str(n): s for n, s in p.seen.items()},
                "pending": {str(n): m for n, m in p.pending.items()},
                "gaps": p.gaps,
            }
            for p in players
        ],
        "scorers": [
            {"table": s.table, "acked": s.acked, "pending": s.pending, "seeded": r["seeded"]}
            for s, r in zip(scorers, seed_data["recorded"], strict=True)
        ],
    }


def main() -> None:
    """Subprocess entry points: ``--seed OUT SPEC`` and ``--check IN OUT``."""
    import sys

    os.chdir(ROOT)
    if sys.argv[1] == "--seed":
        seed(Path(sys.argv[2]), json.loads(sys.argv[3]))
    elif sys.argv[1] == "--check":
        check(Path(sys.argv[2]), Path(sys.argv[3]))


if __name__ == "__main__":
    main()
