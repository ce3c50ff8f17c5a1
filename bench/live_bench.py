"""Websockets benchmark: how many sockets one ``events`` process holds and how fast a change
reaches them.

    python bench/live_bench.py [--sockets 1000] [--updates 40] [--spectators 100]
                               [--moves 30] [--no-write]

It creates a PostgreSQL database ``preference_live_<pid>`` on ``BENCH_PG_URL`` (default
``postgres://postgres@127.0.0.1:5432``; dropped at the end), migrates and seeds it in this
process (a public hosted table of three players with a hand dealt), and starts the Makefile's
EVENTS_CMD (gunicorn with one uvicorn worker, as compose's ``events``) on Redis database 6 of
``BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/6``). This process plays the web
process and the worker: it publishes through the same Redis channel layer.

- ``reload fan-out``: ``--sockets`` anonymous sockets subscribe to the table topic; then
  ``--updates`` table updates are published, one every 0.25 s, each stamped with the moment
  it was sent. Reported: the time to connect and subscribe them all, the events process's
  resident memory before and after (per socket), and the latency from publish to arrival over
  every socket and update, with the share delivered.
- ``hand fan-out``: ``--spectators`` anonymous sockets subscribe to the hand; then ``--moves``
  moves are made through ``games.services.hand_apply_action`` (as the web process does), one
  every 0.25 s. Each move makes the sockets read their view from the database (nothing
  seat-specific goes through Redis; spectators of one process share one read). Reported:
  latency from the commit to each socket's ``events`` message with that version.

The clients run on asyncio in this process, so on a small machine they share the cores with
the server; the figures are an upper bound of the server's own latency. Written to the "Live
updates" section of ``docs/benchmarks.md`` unless ``--no-write``. Only loopback addresses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games_bench import _on_signal, base_env, run, stop_all  # noqa: E402
from bench.report import write_section  # noqa: E402
from bench.soak_stack import HOST, Stack, free_port, percentile  # noqa: E402

PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 300}
GAP_SECONDS = 0.25
CONNECT_BATCH = 50


@contextmanager
def bench_database() -> Iterator[str]:
    name = f"preference_live_{os.getpid()}"
    admin = f"{PG_URL}/postgres"
    run(["psql", admin, "-qc", f"CREATE DATABASE {name}"])
    try:
        yield f"{PG_URL}/{name}"
    finally:
        run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


def setup_django(database_url: str) -> None:
    """This process as the web process would be: the bench database and Redis."""
    for key, value in base_env(database_url).items():
        os.environ[key] = value
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seed() -> tuple[int, dict[str, Any]]:
    """A public hosted table of anna, bert and carl with hand 1 dealt; its id and users."""
    from clubs.models import User
    from games import services
    from games.models import Table

    users = {
        n: User.objects.create_user(username=n, password="x") for n in ("anna", "bert", "carl")
    }
    table = services.table_create(
        user=users["anna"],
        name="Live bench",
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=[services.SeatSpec(key=n, kind="user", user=u) for n, u in users.items()],
        first_dealer="carl",
        is_public=True,
    )
    services.hand_start(table_id=table.pk, user=users["anna"])
    return table.pk, users


# ---------------------------------------------------------------------------------------------
# clients


class Clients:
    """``n`` sockets on an asyncio loop in a thread, subscribed to one topic; every message
    kept with its arrival time."""

    def __init__(self, url: str, subscribe: dict[str, Any], n: int) -> None:
        self.url, self.subscribe, self.n = url, subscribe, n
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.arrivals: list[list[tuple[float, dict[str, Any]]]] = [[] for _ in range(n)]
        self.ready = 0
        self.closed: list[int | None] = []
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> float:
        """Connect and subscribe every socket; the seconds it took."""
        self.thread.start()
        started = time.monotonic()
        asyncio.run_coroutine_threadsafe(self._open_all(), self.loop).result(600)
        return time.monotonic() - started

    async def _open_all(self) -> None:
        for first in range(0, self.n, CONNECT_BATCH):
            opened = [asyncio.Event() for _ in range(first, min(first + CONNECT_BATCH, self.n))]
            for i, event in enumerate(opened, start=first):
                self.tasks.append(asyncio.create_task(self._one(i, event)))
            await asyncio.gather(*(e.wait() for e in opened))

    async def _one(self, i: int, opened: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        try:
            async with connect(self.url, open_timeout=60, max_queue=None) as ws:
                await ws.send(json.dumps({"type": "subscribe", **self.subscribe}))
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "subscribed":
                        self.ready += 1
                        opened.set()
                    self.arrivals[i].append((time.time(), message))
        except ConnectionClosed as e:
            self.closed.append(e.rcvd.code if e.rcvd else None)
        finally:
            opened.set()

    def stop(self) -> None:
        for task in self.tasks:
            self.loop.call_soon_threadsafe(task.cancel)
        time.sleep(0.5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def summary(latencies_ms: list[float]) -> str:
    if not latencies_ms:
        return "none arrived"
    p = {q: percentile(latencies_ms, q) for q in (50, 95, 99)}
    return (
        f"p50 {p[50]:.1f} ms, p95 {p[95]:.1f} ms, p99 {p[99]:.1f} ms, "
        f"max {max(latencies_ms):.1f} ms"
    )


# ---------------------------------------------------------------------------------------------
# the two measures


def reload_fanout(
    stack: Stack, url: str, table_id: int, sockets: int, updates: int
) -> dict[str, Any]:
    from games import live

    rss_before = stack.rss()["events"]
    clients = Clients(url, {"topic": "table", "table_id": table_id}, sockets)
    took = clients.start()
    time.sleep(2)
    rss_after = stack.rss()["events"]
    sent: dict[int, float] = {}
    for version in range(1, updates + 1):
        sent[version] = time.time()
        live.send(
            live.group("table", table_id),
            {
                "type": "live.update",
                "topic": "table",
                "key": "table_id",
                "id": table_id,
                "what": "hands_changed",
                "version": 10_000 + version,
                "extra": {},
            },
        )
        time.sleep(GAP_SECONDS)
    time.sleep(3)
    clients.stop()
    latencies = [
        (at - sent[m["version"] - 10_000]) * 1000
        for arrivals in clients.arrivals
        for at, m in arrivals
        if m["type"] == "update"
    ]
    return {
        "sockets": sockets,
        "subscribed": clients.ready,
        "connect_seconds": took,
        "rss_before_kib": rss_before,
        "rss_after_kib": rss_after,
        "updates": updates,
        "delivered": len(latencies),
        "latency": summary(latencies),
        "closed": clients.closed,
    }


def legal_action(table_id: int, users: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The user to act and an action that leads to a played game (``tests/live/play.py``)."""
    from games import services
    from games.models import Hand, Table
    from tests.live.play import choose

    table = Table.objects.prefetch_related("seats").get(pk=table_id)
    hand = Hand.objects.get(table=table, number=1)
    seat = services.hand_state(table, hand).to_act_seat
    return users[seat], choose(services.hand_view(table, hand, seat), seat)


def hand_fanout(
    url: str, table_id: int, users: dict[str, Any], spectators: int, moves: int
) -> dict[str, Any]:
    from games import services
    from games.models import Hand

    clients = Clients(url, {"topic": "hand", "table_id": table_id, "number": 1}, spectators)
    took = clients.start()
    time.sleep(1)
    committed: dict[int, float] = {}
    for _ in range(moves):
        hand = Hand.objects.get(table_id=table_id, number=1)
        if hand.status == Hand.Status.DONE:
            raise SystemExit(f"the hand ended after {hand.version} moves: use fewer --moves")
        user, action = legal_action(table_id, users)
        done = services.hand_apply_action(
            table_id=table_id, number=1, user=user, action=action, expected_version=hand.version
        )
        committed[done.version] = time.time()
        time.sleep(GAP_SECONDS)
    time.sleep(3)
    clients.stop()
    # several moves that come while a socket reads arrive in one message: count each move
    latencies = [
        (at - committed[e["version"]]) * 1000
        for arrivals in clients.arrivals
        for at, m in arrivals
        if m["type"] == "events"
        for e in m["events"]
        if e["version"] in committed
    ]
    return {
        "spectators": spectators,
        "subscribed": clients.ready,
        "connect_seconds": took,
        "moves": moves,
        "delivered": len(latencies),
        "latency": summary(latencies),
        "closed": clients.closed,
    }


def report(args: argparse.Namespace, fan: dict[str, Any], hand: dict[str, Any]) -> str:
    per_socket = (fan["rss_after_kib"] - fan["rss_before_kib"]) / max(1, fan["sockets"])
    lines = [
        "One `events` process (the Makefile's EVENTS_CMD: gunicorn, one uvicorn worker) on "
        "PostgreSQL and Redis; publishes from the benchmark process through the Redis channel "
        "layer, as the web process and the worker publish; clients on asyncio in the "
        "benchmark process, sharing the machine.",
        "",
        "| Measure | Figure |",
        "| --- | --- |",
        f"| sockets subscribed to a table | {fan['subscribed']} of {fan['sockets']} in "
        f"{fan['connect_seconds']:.1f} s |",
        f"| events process memory | {fan['rss_before_kib'] / 1024:.0f} → "
        f"{fan['rss_after_kib'] / 1024:.0f} MiB ({per_socket:.0f} KiB per socket) |",
        f"| reload fan-out ({fan['updates']} updates × {fan['sockets']} sockets, one every "
        f"{GAP_SECONDS} s) | {fan['delivered']} of {fan['updates'] * fan['sockets']} delivered; "
        f"{fan['latency']} |",
        f"| hand fan-out ({hand['moves']} moves × {hand['spectators']} spectators, one "
        f"shared read a move) | {hand['delivered']} of {hand['moves'] * hand['spectators']} "
        f"delivered; {hand['latency']} |",
        f"| sockets closed by the server | {len(fan['closed']) + len(hand['closed'])} |",
    ]
    if args.note:
        lines += ["", args.note]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--updates", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--note", default="", help="a remark on the machine's load")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushdb"], check=True, capture_output=True)
    with tempfile.TemporaryDirectory(prefix="live-") as tmp, bench_database() as db_url:
        setup_django(db_url)
        table_id, users = seed()
        stack = Stack(db_url, REDIS_URL, Path(tmp), free_port(8795))
        try:
            stack.start("events")
            url = f"ws://{HOST}:{stack.events_port}/ws/v1/"
            fan = reload_fanout(stack, url, table_id, args.sockets, args.updates)
            print(fan, flush=True)
            hand = hand_fanout(url, table_id, users, args.spectators, args.moves)
            print(hand, flush=True)
        finally:
            stack.stop_all()
            stop_all()
            from django.db import connections

            connections.close_all()
    body = report(args, fan, hand)
    print(body)
    if not args.no_write:
        write_section("live", "Live updates (issue 10)", body)


if __name__ == "__main__":
    main()
