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
  and the servers share them). Compare rows with their floor, not with other machines.
- Where the time went, measured in-process with cProfile before optimising: a seat view cost
  13 ms, 8 of them in `selectors.hand_for_user` (ORM query compilation: on this CPU a plain
  `SELECT` takes 0.3 ms, `Hand.objects.get` 1.4 ms, a `prefetch_related` more), the rest JWT
  authentication (a user query), the engine replay (1.5–5 ms) and DRF. Applied, each with a
  test that it is never stale: replayed states kept per (hand, version)
  (`services.hand_state`); the hand with its table and seats kept per process and checked by one
  plain query of its id and `updated_at` on every read (`selectors.hand_for_user`); a token's
  user kept 5 s (`config/api/authentication.py`); `get()` instead of `first()` (no `ORDER BY`
  to compile); a move loads no seats (they never change). In-process a seat view now costs
  1.6 ms, a move 11 ms.
- Django under ASGI costs several times WSGI per short request (the `asgi` rows: every sync
  view and the request signals run through `sync_to_async`, each request in a new helper
  thread). So the API runs on WSGI gthread workers (`web`) and only the long polls on an ASGI
  worker (`events`), as docker compose deploys them behind nginx. `asgi` is kept for
  comparison.
- Still short of the targets: moves and score-sheet entries are ORM-bound (5–8 queries, each
  compiled per call; PostgreSQL itself commits in 0.4 ms here), and with 16 connections at
  saturation their latency is mostly queueing (16 / throughput). An entry no longer loads the
  table twice (players are recognised by one small query; seats come from memory): 44 → 21 ms
  in-process. Next steps, not done: moves through a raw `SELECT … FOR UPDATE` and one
  `UPDATE`; the list of hands renders each hand through a serializer (slow for 100 hands).
- Long polls wait in an ASGI worker: each holds a coroutine, a Redis subscription and (Django's
  ASGI handler) one parked helper thread, no database connection; database work of waiters is
  limited to 8 at once per process (`games/api/events.py`, `DB_SLOTS`), so hundreds waking
  together cannot exhaust PostgreSQL's connections. Taking in 200 polls at once costs the
  events worker a few seconds of CPU (authentication and one check each); once they wait it
  is idle (measured: 0% CPU over 7 s with 200 held), so the view run starts when the events
  worker is idle again. An earlier run that started 2 s after the polls arrived measured that
  arrival burst, not the waiting.
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
    out = {}
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


def seed(out: Path, pools: list[str], hosted_tables: int) -> None:
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
        moves = []
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
        lanes: list[list[str]] = [[] for _ in range(LANES)]
        total = 0
        for i in range(hosted_tables):
            table, hand = hosted(f"{pool}-hosted-{i}")
            path = f"/api/v1/tables/{table.pk}/hands/1/actions/"
            lane = min(lanes, key=len)
            for seat, action, version in play_moves(table, hand):
                body = json.dumps({"action": action, "expected_version": version})
                lane.append(f"POST\t{path}\t{tokens[seat]}\t{body}")
                total += 1
        shortest = min(len(lane) for lane in lanes)
        actions = [lane[k] for k in range(shortest) for lane in lanes]
        record = [
            f"POST\t/api/v1/tables/{recorded(f'{pool}-recorded-{i}').pk}/hands/\t"
            f"{tokens['a']}\t{json.dumps(ENTRY)}"
            for i in range(RECORDED_TABLES)
        ]
        data["pools"][pool] = {"actions": actions, "record": record, "moves": total}
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
) -> Result:
    """Run wrk over ``lines`` (one thread, ``connections`` connections) and parse its RESULT."""
    load = os.getloadavg()[0]
    prefix = workdir / f"{config}-{name}".replace(" ", "_")
    Path(f"{prefix}-0.tsv").write_text("\n".join(lines) + "\n")
    command = [
        "wrk", "-t1", f"-c{connections}", f"-d{int(seconds)}s", "--latency", "--timeout", "10s",
        "-s", str(LUA), f"http://{HOST}:{PORT}", "--", str(prefix), "once" if once else "cycle",
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
        exhausted=values["exhausted"] != "0",
        load=load,
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
        "| endpoint | server | req/s | × floor | p50 ms | p90 ms | p95 ms | p99 ms | non-2xx "
        "| target | load |" + (" before: req/s, p95 ms |" if before else ""),
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
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
            f"{ms(r.p95)} | {ms(r.p99)} | {bad} | {targets.get(r.name, 'floor')} | {r.load:.1f} |"
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
    parser.add_argument("--hosted-tables", type=int, default=HOSTED_TABLES)
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    parser.add_argument("--save", type=Path, help="write the figures as JSON here")
    parser.add_argument("--before", type=Path, help="JSON of an earlier run, shown alongside")
    parser.add_argument("--seed", type=Path, help=argparse.SUPPRESS)  # the seed subprocess
    parser.add_argument("--pools", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        seed(args.seed, [p for p in args.pools.split(",") if p], args.hosted_tables)
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
                        name: str, lines: list[str], once: bool = False, cfg: str = config.name
                    ) -> Result:
                        r = wrk(name, cfg, lines, workdir, once=once, **common)
                        print(
                            f"{cfg:8} {name:24} {r.rps:8.0f} req/s  p50 {r.p50:6.1f}  "
                            f"p95 {r.p95:6.1f}  p99 {r.p99:6.1f} ms  {r.statuses} {r.errors}",
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
                        measure("action", pool["actions"], once=True)
                    if wanted("record"):
                        measure("record", pool["record"])
                    if wanted("list"):
                        measure("list", [f"GET\t{data['list']}\t{tokens['a']}\t"])
            if args.save:
                args.save.write_text(json.dumps([r.__dict__ for r in results], indent=1))
            before = json.loads(args.before.read_text()) if args.before else []
            body = report(results, floors, data, notes, chosen, before)
            print(body)
            if not args.no_write:
                write_section("games", "Games API (issue 4)", body)
        finally:
            stop_all()


if __name__ == "__main__":
    main()
