"""Games API benchmark: a real server process, PostgreSQL and Redis, driven by ``wrk``.

    python bench/games_bench.py [--seconds 12] [--connections 16] [--configs web,asgi]
                                [--no-write]

It creates a fresh PostgreSQL database (dropped at the end), migrates it, seeds it through the
service functions (``table_create``, ``hand_start``, ``table_record_hand``, in a subprocess run
with the bench database's ``DATABASE_URL``), then for each server configuration starts the
server, measures, and stops it:

- ``healthz``: the bare Django JSON view, the floor every other figure is compared with;
- ``view``: ``GET …/hands/{n}/view/``, a seat's view of a hand in the play (target ≥ 800 req/s,
  p95 ≤ 40 ms);
- ``view + 200 long polls``: the same while 200 clients wait on ``…/events/`` (ASGI only);
- ``action``: ``POST …/hands/{n}/actions/``: whole hands played move by move (calls, discards,
  declarations, defence, cards, the settling last card), each move with ``expected_version``
  and the token of the seat to act, hundreds of hands interleaved (target p95 ≤ 80 ms);
- ``record``: ``POST /tables/{id}/hands/``, a score-sheet entry appended to one of 200
  recorded tables in turn (target p95 ≤ 80 ms);
- ``list``: ``GET /tables/{id}/hands/?page_size=100`` on a table of 100 hands; its SQL queries
  are counted in-process with ``CaptureQueriesContext`` (target ≤ 3).

Every process it starts (servers, wrk, the seed step) is stopped before it exits. PostgreSQL
is ``BENCH_PG_URL`` (default ``postgres://postgres@127.0.0.1:5432``), Redis ``BENCH_REDIS_URL``
(default ``redis://127.0.0.1:6379/8``); only loopback addresses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report import write_section  # noqa: E402

PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
HOST, PORT = "127.0.0.1", 8765
LUA = Path(__file__).with_name("wrk_requests.lua")
PACED = Path(__file__).with_name("wrk_paced.lua")
VENV_BIN = ROOT / ".venv" / "bin"
PYTHON = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
SECRET_KEY = "bench-secret-key-not-for-production-0123456789abcdef"

RULES = {
    "variant": "wien",
    "dealer_contribution": 100,
    "pot_cap": 300,
    "holding_after_forehand": "rearhand",
    "invitation_tricks": "inviter",
    "pot_at_close": "carry",
}
# A typical score-sheet line: a plays diamonds with the talon, both defend, a makes 6 tricks.
ENTRY = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "a",
    "defence": {"b": "play", "c": "play"},
    "tricks": {"a": 6, "b": 2, "c": 2},
}
HOSTED_TABLES = 700  # per configuration; ~17 moves a hand
RECORDED_TABLES = 200
LANES = 256  # moves of one hand are LANES requests apart (never two in flight at once)
LONG_POLLERS = 200
ANALYSIS = """
Reading these figures (written by hand into the script's `ANALYSIS`; re-check after a rerun):

- `load` is the 1-minute load average when each run started (2 cores; wrk, PostgreSQL, Redis
  and the servers share them). Compare rows with their floor, not with other machines: the
  earlier runs of this section were made on an Intel Xeon with the same 2 cores, where the
  floor was 1,796 req/s against about 6,000 here.
- The `before` column is the same benchmark on this machine at commit `1401d55`, before the
  write paths below were changed (one run each, with the lost first move described below).
- Seat view (done earlier, measured in-process with cProfile: 13 ms per view before, 8 of them
  in ORM query compilation): replayed states kept per (hand, version) (`services.hand_state`);
  the hand with its table and seats kept per process and checked by one plain query of its id
  and `updated_at` on every read (`selectors.hand_for_user`); a token's user kept 5 s
  (`config/api/authentication.py`). Each has a test that it is never stale.
- Moves and score-sheet entries: under cProfile a move cost 6.6 ms and an entry 9.8 ms, of
  which about 1.5 ms was waiting for PostgreSQL and most of the rest the ORM compiling five
  to nine short statements. `games/rows.py` now writes those statements once, from the
  models' own columns, converters and adapters: the hand and its table in one
  `SELECT … FOR UPDATE OF h`, the table lock, the last hand, one `UPDATE` of the changed
  columns, the `INSERT`s of hand, ledger rows and audit entry, and the seat check as one plain
  join; `HandSerializer` renders without building DRF's field objects per answer.
  `tests/games/test_fast_paths.py` checks that the instances, rows and answers are exactly
  the ORM's and DRF's. Under cProfile a move now costs 3.0 ms and an entry 5.0 ms, mostly
  waiting for PostgreSQL (each commit waits for its WAL flush).
- wrk calls a script's `request()` once before the run to check it and never sends that
  request. It used to consume the first move of one hand, and every later move of that hand
  answered 409 `stale_version` (the 7 to 24 non-2xx answers of earlier `action` rows). The
  script now hands it a `GET /healthz` first, and the report shows a sample of any non-2xx
  answer.
- Spread between runs: wrk's 16 connections are kept alive, and each stays with the gunicorn
  worker (one process, one core at most) that accepted it. When most of them land on one of
  the 3 workers, that worker is the limit: the same build measured the seat view at 930 to
  1,940 req/s and entries at p95 45 to 75 ms. Hence 3 runs per row and their medians. Behind
  nginx (docker compose) every request reaches gunicorn on a new connection and is taken by
  whichever worker is free, which evens this out.
- Django under ASGI costs several times WSGI per short request (the `asgi` rows: every sync
  view and the request signals run through `sync_to_async`, each request in a new helper
  thread). So the API runs on WSGI gthread workers (`web`) and only the long polls on an ASGI
  worker (`events`), as docker compose deploys them behind nginx. `asgi` is kept for
  comparison.
- The list of 100 hands needs 3 queries (the target); it still takes several milliseconds to
  render 100 results with their transfers as JSON, which is why its rate is low. No target
  asks more of it.
- Long polls wait in an ASGI worker: each holds a coroutine, a Redis subscription and (Django's
  ASGI handler) one parked helper thread, no database connection; database work of waiters is
  limited to 8 at once per process (`games/live/db.py`, `DB_SLOTS`), so hundreds waking
  together cannot exhaust PostgreSQL's connections. Taking in 200 polls at once costs the
  events worker a few seconds of CPU (authentication and one check each); once they wait it
  is idle, so the view run starts when the events worker is idle again.
"""


def make_cmd(name: str) -> str:
    """A process command of the Makefile (``WEB_CMD``, ``EVENTS_CMD``): what docker compose
    runs."""
    text = (ROOT / "Makefile").read_text()
    match = re.search(rf"^{name} := (.+)$", text, re.M)
    assert match, f"{name} not found in the Makefile"
    return match.group(1).strip()


@dataclass(frozen=True)
class ServerConfig:
    name: str
    command: str
    env: dict[str, str]
    events_command: str | None  # a second server for the long polls; None: this one
    note: str


def configs() -> dict[str, ServerConfig]:
    return {
        "web": ServerConfig(
            "web",
            make_cmd("WEB_CMD"),
            {"CONN_MAX_AGE": "60"},
            make_cmd("EVENTS_CMD"),
            "the Makefile's WEB_CMD (gunicorn gthread, WSGI) for the API and its EVENTS_CMD "
            "(gunicorn + uvicorn, ASGI) for the long polls, as docker compose runs them",
        ),
        "asgi": ServerConfig(
            "asgi",
            make_cmd("EVENTS_CMD").replace("--workers 1", "--workers 2"),
            {"CONN_MAX_AGE": "0"},
            None,
            "everything on 2 uvicorn (ASGI) workers, for comparison",
        ),
    }


# ---------------------------------------------------------------------------------------------
# processes (every one started here is stopped here)

_children: list[subprocess.Popen[bytes]] = []


def _stop(process: subprocess.Popen[bytes], timeout: float = 15.0) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def stop_all() -> None:
    while _children:
        _stop(_children.pop())


def _on_signal(signum: int, frame: Any) -> None:
    stop_all()
    raise SystemExit(128 + signum)


def spawn(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` in its own process group (so stopping it stops its children)."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    _children.append(process)
    return process


def run(command: list[str], env: dict[str, str] | None = None, **kw: Any) -> str:
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, check=False, **kw
    )
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def base_env(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "PATH": f"{VENV_BIN}:{os.environ.get('PATH', '')}",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": REDIS_URL,
        "SECRET_KEY": SECRET_KEY,
        "DEBUG": "0",
        "ALLOWED_HOSTS": f"{HOST},localhost,testserver",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # One load generator on one address: the limits still count every request (their cost
        # is part of the figures) but are set where the benchmark never reaches them.
        "USER_WRITE_RATE": "1000000000/min",
        "ANON_RATE_PER_IP": "1000000000/min",
        "LOGIN_RATE_PER_IP": "1000000000/min",
        "REGISTER_RATE_PER_IP": "1000000000/min",
    }


@contextmanager
def bench_database() -> Iterator[str]:
    """A fresh database on BENCH_PG_URL, dropped afterwards."""
    name = f"preference_bench_{os.getpid()}"
    admin = f"{PG_URL}/postgres"
    run(["psql", admin, "-qc", f"CREATE DATABASE {name}"])
    try:
        yield f"{PG_URL}/{name}"
    finally:
        run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


@contextmanager
def server(
    name: str,
    command: str,
    extra_env: dict[str, str],
    database_url: str,
    workdir: Path,
    port: int = PORT,
) -> Iterator[int]:
    """Start a server on ``port``; yields the gunicorn master's pid."""
    env = {**base_env(database_url), **extra_env, "GUNICORN_CMD_ARGS": f"--bind={HOST}:{port}"}
    log = workdir / f"server-{name}-{port}.log"
    process = spawn(shlex.split(command), env, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server not ready:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)
        time.sleep(1.0)  # let every worker boot
        yield process.pid
    finally:
        _stop(process)
        if process in _children:
            _children.remove(process)
        keep = os.environ.get("BENCH_KEEP_LOGS")
        if keep:  # a folder to keep the server logs in (they go with the temporary folder)
            Path(keep).mkdir(parents=True, exist_ok=True)
            (Path(keep) / log.name).write_text(log.read_text(errors="replace"))


def cpu_ticks(master: int) -> int:
    """CPU time (clock ticks) used so far by the workers of a gunicorn master."""
    total = 0
    with suppress(OSError):
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total


def wait_until_idle(master: int, limit: float = 30.0) -> float:
    """Wait until the server's workers have taken in what they were sent (under 2% of a
    core over a second); returns the seconds waited."""
    started = time.monotonic()
    before = cpu_ticks(master)
    while time.monotonic() - started < limit:
        time.sleep(1.0)
        now = cpu_ticks(master)
        if now - before <= 2:
            break
        before = now
    return time.monotonic() - started


def worker_threads(master: int) -> dict[int, int]:
    """Threads of each gunicorn worker (children of the master)."""
    out: dict[int, int] = {}
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return out
    for pid in children:
        with suppress(OSError):
            out[int(pid)] = len(os.listdir(f"/proc/{pid}/task"))
    return out


# ---------------------------------------------------------------------------------------------
# seeding (runs in a subprocess with the bench database's DATABASE_URL)


def seed(out: Path, pools: list[str], hosted_tables: int, repeats: int) -> None:
    """Seed the bench database through the services and write what the runs need to ``out``."""
    import django

    django.setup()
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient
    from rest_framework_simplejwt.tokens import AccessToken

    import engine
    from clubs.models import User
    from engine.bots import random_bot
    from games import services
    from games.models import Table
    from games.services import SeatSpec

    rng = random.Random(7)
    users = {}
    tokens = {}
    for key in ("a", "b", "c"):
        user = User.objects.create_user(username=f"bench_{key}", password="bench-pass-1")
        users[key] = user
        token = AccessToken.for_user(user)
        token.set_exp(lifetime=timedelta(hours=3))
        tokens[key] = str(token)
    seats = [SeatSpec(key=k, kind="user", user=u) for k, u in users.items()]
    for key in "abc":  # the entry settles whoever deals
        common = {"rules": RULES, "seats": ["a", "b", "c"], "dealer": key, "pot": 0}
        engine.settle({**common, **ENTRY})

    def hosted(name: str) -> tuple[Table, Any]:
        table = services.table_create(
            user=users["a"], name=name, mode="hosted", rules=RULES, seats=seats, first_dealer="c"
        )
        hand = services.hand_start(table_id=table.pk, user=users["a"])
        return table, hand

    def recorded(name: str) -> Table:
        return services.table_create(
            user=users["a"], name=name, mode="recorded", rules=RULES, seats=seats
        )

    def play_moves(table: Table, hand: Any) -> list[tuple[str, dict[str, Any], int]]:
        """A whole hand of random legal moves: (seat, action, version before)."""
        state = services.hand_state(table, hand)
        moves: list[tuple[str, dict[str, Any], int]] = []
        while not state.is_over:
            move = random_bot.choose(state, rng)
            moves.append(
                (move.seat, engine.action_to_json(move, engine.PIQUET, seat=False), len(moves))
            )
            state = engine.apply(state, move)
        return moves

    # (b) a hand in the card play: the view of a seat
    view_table, view_hand = hosted("view")
    for seat, action, version in play_moves(view_table, view_hand)[:12]:
        services.hand_apply_action(
            table_id=view_table.pk, number=1, user=users[seat], action=action,
            expected_version=version,
        )  # fmt: skip
    # (f) a hand the long-polling clients wait on (nobody moves)
    events_table, events_hand = hosted("events")
    # (e) a table of 100 recorded hands
    list_table = recorded("list")
    for _ in range(100):
        services.table_record_hand(table_id=list_table.pk, user=users["a"], entry=ENTRY)

    data: dict[str, Any] = {
        "tokens": tokens,
        "view": f"/api/v1/tables/{view_table.pk}/hands/1/view/",
        "events": f"/api/v1/tables/{events_table.pk}/hands/1/events/?after=0&wait=55",
        "list": f"/api/v1/tables/{list_table.pk}/hands/?page_size=100",
        "pools": {},
        "queries": {},
    }
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['a']}")
    for name in ("list", "view"):
        client.get(data[name])  # warm caches (content types, ...)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(data[name])
        data["queries"][name] = {
            "status": response.status_code,
            "count": len(ctx.captured_queries),
            "sql": [q["sql"][:160] for q in ctx.captured_queries],
            "items": len(response.json().get("results", [])) if name == "list" else None,
        }

    for pool in pools:
        runs = []  # each run plays hands of its own: a run stopped midway leaves no gaps
        total = 0
        for run_number in range(repeats):
            lanes: list[list[str]] = [[] for _ in range(LANES)]
            for i in range(hosted_tables):
                table, hand = hosted(f"{pool}-hosted-{run_number}-{i}")
                path = f"/api/v1/tables/{table.pk}/hands/1/actions/"
                lane = min(lanes, key=len)
                for seat, action, version in play_moves(table, hand):
                    body = json.dumps({"action": action, "expected_version": version})
                    lane.append(f"POST\t{path}\t{tokens[seat]}\t{body}")
                    total += 1
            shortest = min(len(lane) for lane in lanes)
            runs.append([lane[k] for k in range(shortest) for lane in lanes])
        record = [
            f"POST\t/api/v1/tables/{recorded(f'{pool}-recorded-{i}').pk}/hands/\t"
            f"{tokens['a']}\t{json.dumps(ENTRY)}"
            for i in range(RECORDED_TABLES)
        ]
        data["pools"][pool] = {"actions": runs, "record": record, "moves": total}
    out.write_text(json.dumps(data))


# ---------------------------------------------------------------------------------------------
# load


@dataclass
class Result:
    name: str
    config: str
    rps: float
    p50: float
    p90: float
    p95: float
    p99: float
    requests: int
    statuses: dict[str, int] = field(default_factory=dict)
    errors: str = ""
    sample: str = ""  # the first non-2xx answer wrk saw: status and body
    runs: list[tuple[float, float]] = field(default_factory=list)  # (req/s, p95) of each run
    exhausted: bool = False
    load: float = 0.0  # 1-minute load average when the run started

    @property
    def non_2xx(self) -> int:
        return sum(n for code, n in self.statuses.items() if not code.startswith("2"))


def wrk(
    name: str,
    config: str,
    lines: list[str],
    workdir: Path,
    *,
    seconds: float,
    connections: int,
    once: bool = False,
    script: Path = LUA,
    pace_ms: int = 0,
) -> Result:
    """Run wrk over ``lines`` (one thread, ``connections`` connections) and parse its RESULT;
    ``script`` is the Lua script (default: ``wrk_requests.lua``). With ``pace_ms`` each
    connection waits that long before each request (``wrk_paced.lua``): a load below
    saturation."""
    load = os.getloadavg()[0]
    prefix = workdir / f"{config}-{name}".replace(" ", "_")
    Path(f"{prefix}-0.tsv").write_text("\n".join(lines) + "\n")
    command = [
        "wrk", "-t1", f"-c{connections}", f"-d{int(seconds)}s", "--latency", "--timeout", "10s",
        "-s", str(PACED if pace_ms else script), f"http://{HOST}:{PORT}", "--", str(prefix),
        "once" if once else "cycle", *([str(pace_ms)] if pace_ms else []),
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        output, _ = process.communicate(timeout=seconds + 60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    (workdir / f"wrk-{config}-{name}.txt".replace(" ", "_")).write_text(output)
    match = re.search(r"^RESULT (.*)$", output, re.M)
    if match is None:
        raise RuntimeError(f"wrk gave no RESULT:\n{output}")
    values = dict(item.split("=") for item in match.group(1).split())
    statuses = {m[0]: int(m[1]) for m in re.findall(r"^STATUS (\d+) (\d+)$", output, re.M)}
    errors = {k: int(values[k]) for k in ("connect", "read", "write", "timeout")}
    sample = re.search(r"^SAMPLE (.*)$", output, re.M)
    return Result(
        name=name,
        config=config,
        rps=float(values["rps"]),
        p50=int(values["p50"]) / 1000,
        p90=int(values["p90"]) / 1000,
        p95=int(values["p95"]) / 1000,
        p99=int(values["p99"]) / 1000,
        requests=int(values["requests"]),
        statuses=statuses,
        errors=", ".join(f"{k} {v}" for k, v in errors.items() if v),
        sample=sample.group(1)[:300] if sample else "",
        exhausted=values["exhausted"] != "0",
        load=load,
    )


def median_of(runs: list[Result]) -> Result:
    """One row for several runs: the median of each figure, every run's req/s and p95 kept
    beside it, statuses summed."""

    def median(values: list[float]) -> float:
        ordered = sorted(values)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    first = runs[0]
    return Result(
        name=first.name,
        config=first.config,
        rps=median([x.rps for x in runs]),
        p50=median([x.p50 for x in runs]),
        p90=median([x.p90 for x in runs]),
        p95=median([x.p95 for x in runs]),
        p99=median([x.p99 for x in runs]),
        requests=sum(x.requests for x in runs),
        statuses={
            code: sum(x.statuses.get(code, 0) for x in runs)
            for code in sorted({c for x in runs for c in x.statuses})
        },
        errors="; ".join(x.errors for x in runs if x.errors),
        sample=next((x.sample for x in runs if x.sample), ""),
        runs=[(x.rps, x.p95) for x in runs],
        exhausted=any(x.exhausted for x in runs),
        load=first.load,
    )


class LongPollers:
    """``n`` clients, each holding one open ``GET …/events/`` request (raw HTTP/1.1)."""

    def __init__(self, path: str, token: str, n: int, port: int = PORT) -> None:
        self.port = port
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()
        self.n = n
        self.sent = 0
        self.answered = 0
        self.statuses: dict[str, int] = {}
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _client(self) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            while True:
                writer.write(self.request)
                await writer.drain()
                self.sent += 1
                if self.sent >= self.n:
                    self._ready.set()
                head = await reader.readuntil(b"\r\n\r\n")
                status = head.split(b" ", 2)[1].decode()
                self.statuses[status] = self.statuses.get(status, 0) + 1
                length = re.search(rb"content-length: *(\d+)", head, re.I)
                if length:
                    await reader.readexactly(int(length.group(1)))
                self.answered += 1
        finally:
            writer.close()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        tasks = [asyncio.create_task(self._client()) for _ in range(self.n)]
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __enter__(self) -> LongPollers:
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError(f"only {self.sent} of {self.n} long polls were sent")
        time.sleep(2.0)  # let the server take them all in
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)


# ---------------------------------------------------------------------------------------------
# report


def ms(x: float) -> str:
    return f"{x:.1f}"


def report(
    results: list[Result],
    floors: dict[str, Result],
    seed_data: dict[str, Any],
    notes: list[str],
    cfgs: dict[str, ServerConfig],
    before: list[dict[str, Any]],
    method: str = "",
) -> str:
    earlier = {(b["name"], b["config"]): b for b in before}
    targets = {
        "view": "≥ 800 req/s, p95 ≤ 40 ms",
        "view + 200 long polls": "as view",
        "action": "p95 ≤ 80 ms",
        "record": "p95 ≤ 80 ms",
        "list": "≤ 3 queries",
    }
    lines = [
        "Server configurations (each on 127.0.0.1, PostgreSQL and Redis local, wrk on the same "
        "2 cores):",
        "",
    ]
    lines += [f"- `{c.name}`: {c.note}: `{c.command}`" for c in cfgs.values()]
    lines += [
        "",
        method,
        "",
        "| endpoint | server | req/s | × floor | p50 ms | p90 ms | p95 ms | p99 ms | non-2xx "
        "| target | every run: req/s / p95 ms | load |"
        + (" before: req/s, p95 ms |" if before else ""),
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |"
        + (" ---: |" if before else ""),
    ]
    for r in results:
        floor = floors.get(r.config)
        ratio = f"{r.rps / floor.rps:.2f}" if floor else "–"
        bad = str(r.non_2xx) + (f" ({r.errors})" if r.errors else "")
        if r.exhausted:
            bad += " (ran out of moves)"
        lines.append(
            f"| {r.name} | {r.config} | {r.rps:.0f} | {ratio} | {ms(r.p50)} | {ms(r.p90)} | "
            f"{ms(r.p95)} | {ms(r.p99)} | {bad} | {targets.get(r.name, 'floor')} | "
            + ", ".join(f"{rps:.0f} / {ms(p95)}" for rps, p95 in r.runs)
            + f" | {r.load:.1f} |"
            + (
                f" {old['rps']:.0f}, {ms(old['p95'])} |"
                if (old := earlier.get((r.name, r.config)))
                else (" – |" if before else "")
            )
        )
    q = seed_data["queries"]
    lines += [
        "",
        f"SQL queries per request, counted in-process with `CaptureQueriesContext` (JWT "
        f"authentication included): list of {q['list']['items']} hands: **{q['list']['count']}**; "
        f"seat view: **{q['view']['count']}**.",
        "",
    ]
    for name in ("list", "view"):
        lines.append(f"<details><summary>{name} queries</summary>\n")
        lines += [f"    {sql}" for sql in q[name]["sql"]]
        lines.append("\n</details>\n")
    samples = [r for r in results if r.sample]
    if samples:
        lines.append("First non-2xx answer of each run that had one (wrk's sample):\n")
        lines += [f"- `{r.config}` {r.name}: `{r.sample}`" for r in samples]
        lines.append("")
    lines += notes
    lines.append(ANALYSIS)
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=12)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--configs", default="web,asgi")
    parser.add_argument("--only", default="", help="comma-separated subset of the runs")
    parser.add_argument("--hosted-tables", type=int, default=HOSTED_TABLES, help="per run")
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="runs of each row; the one with the median p95 "
        "is reported, every run's figures beside it",
    )
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    parser.add_argument("--save", type=Path, help="write the figures as JSON here")
    parser.add_argument("--before", type=Path, help="JSON of an earlier run, shown alongside")
    parser.add_argument("--seed", type=Path, help=argparse.SUPPRESS)  # the seed subprocess
    parser.add_argument("--pools", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        seed(args.seed, [p for p in args.pools.split(",") if p], args.hosted_tables, args.repeats)
        return

    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    all_configs = configs()
    chosen = {name: all_configs[name] for name in args.configs.split(",")}
    only = set(filter(None, args.only.split(",")))

    def wanted(name: str) -> bool:
        return not only or name in only

    results: list[Result] = []
    floors: dict[str, Result] = {}
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="games-bench-") as tmp, bench_database() as db_url:
        workdir = Path(tmp)
        try:
            env = base_env(db_url)
            print("migrating", db_url, flush=True)
            run([PYTHON, "manage.py", "migrate", "--noinput"], env)
            print("seeding", flush=True)
            started = time.monotonic()
            seed_file = workdir / "seed.json"
            run(
                [
                    PYTHON,
                    __file__,
                    "--seed",
                    str(seed_file),
                    "--pools",
                    ",".join(chosen),
                    "--hosted-tables",
                    str(args.hosted_tables),
                    "--repeats",
                    str(args.repeats),
                ],  # fmt: skip
                {**env, "CELERY_BROKER_URL": ""},
            )
            data = json.loads(seed_file.read_text())
            print(f"seeded in {time.monotonic() - started:.0f} s", flush=True)
            tokens = data["tokens"]
            view = [f"GET\t{data['view']}\t{tokens['b']}\t"]
            common = {"seconds": args.seconds, "connections": args.connections}
            for config in chosen.values():
                pool = data["pools"][config.name]
                with server(config.name, config.command, config.env, db_url, workdir) as master:

                    def measure(
                        name: str, lines: list[str] | list[list[str]], cfg: str = config.name
                    ) -> Result:
                        """Run ``lines`` ``repeats`` times (a list of lists: each run its own
                        lines, sent once); each figure reported is the median of the runs'."""
                        once = bool(lines) and isinstance(lines[0], list)
                        runs = []
                        for k in range(args.repeats):
                            mine: Any = lines[k] if once else lines
                            runs.append(wrk(name, cfg, mine, workdir, once=once, **common))
                        r = median_of(runs)
                        print(
                            f"{cfg:8} {name:24} {r.rps:8.0f} req/s  p50 {r.p50:6.1f}  "
                            f"p95 {r.p95:6.1f}  p99 {r.p99:6.1f} ms  {r.statuses} {r.errors} "
                            f"{r.sample}",
                            flush=True,
                        )
                        results.append(r)
                        return r

                    floors[config.name] = measure("healthz", ["GET\t/healthz\t\t"])
                    if wanted("view"):
                        measure("view", view)
                    if wanted("longpoll"):
                        port = PORT + 1 if config.events_command else PORT
                        events = (
                            server(
                                "events",
                                config.events_command,
                                {"CONN_MAX_AGE": "0"},  # per-request threads: no kept connections
                                db_url,
                                workdir,
                                port,
                            )
                            if config.events_command
                            else nullcontext(master)
                        )
                        with events as events_master:
                            idle = worker_threads(events_master)
                            polls = LongPollers(data["events"], tokens["a"], LONG_POLLERS, port)
                            with polls:
                                settled = wait_until_idle(events_master)
                                holding = worker_threads(events_master)
                                measure("view + 200 long polls", view)
                                answered = polls.answered
                                early = dict(polls.statuses)
                        notes.append(
                            f"- `{config.name}`, {LONG_POLLERS} long polls "
                            f"(`{data['events'].split('?')[1]}`) held during the view run: "
                            f"{answered} answered early (expected 0; statuses {early}); "
                            f"measured once the events server was idle again ({settled:.0f} s "
                            "after the polls arrived); "
                            f"worker threads idle {sorted(idle.values())}, "
                            f"while holding {sorted(holding.values())}."
                        )
                    if wanted("action"):
                        measure("action", pool["actions"])
                    if wanted("record"):
                        measure("record", pool["record"])
                    if wanted("list"):
                        measure("list", [f"GET\t{data['list']}\t{tokens['a']}\t"])
            if args.save:
                args.save.write_text(json.dumps([r.__dict__ for r in results], indent=1))
            before = json.loads(args.before.read_text()) if args.before else []
            method = (
                f"Each row is {args.repeats} runs of {args.seconds} s with {args.connections} "
                "connections: every figure is the median of the runs', and each run's req/s "
                "and p95 are beside it (wrk's connections stay with the gunicorn worker that "
                "took them, so how evenly they fall on the workers changes from run to run). "
                "`load` is taken when the first run starts."
            )
            body = report(results, floors, data, notes, chosen, before, method)
            print(body)
            if not args.no_write:
                write_section("games", "Games API (issue 4)", body)
        finally:
            stop_all()


if __name__ == "__main__":
    main()
