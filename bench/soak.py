"""Soak: 32 clients for 10 minutes against the compose-equivalent stack, with zero errors.

    python bench/soak.py [--seconds 600] [--clients 32] [--think 0.25] [--no-write]

It creates a PostgreSQL database ``preference_soak_<pid>`` on ``SOAK_PG_URL`` (default
``postgres://postgres@127.0.0.1:5432``; dropped at the end) and uses Redis database 7 of
``SOAK_REDIS_URL`` (default ``redis://127.0.0.1:6379/7``, emptied first), seeds it
(:func:`bench.soak_stack.seed`), starts the Makefile's WEB_CMD, EVENTS_CMD, WORKER_CMD and
BEAT_CMD (:class:`bench.soak_stack.Stack`), and runs the clients for ``--seconds``:

- 3/8 of them play hosted hands against two bots each (long polls of the hand's events, the
  seat's view on their turn, a random legal action with ``Idempotency-Key`` and
  ``expected_version``, the next deal when a hand ends; bots move in the Celery worker),
- 1/4 keep evening score sheets (an entry, then the season's standings now and then; every
  entry makes the worker recompute the season, coalesced),
- 1/4 poll standings (the tournament's public standings anonymously and the club's season
  standings, both with ``If-None-Match``),
- the rest open seat views.

Each pauses a random 0 to 2 × ``--think`` seconds between requests. Any 5xx or connection
error counts as an error (the target is 0). Reported: requests, p50/p95/p99 per endpoint
kind, the resident memory of every process (worker and web included) after a warm-up and at
the end, sampled every 30 s in between, and the integrity checks of
:func:`bench.soak_stack.check` once the clients stop. Written to the "Soak" section of
``docs/benchmarks.md`` unless ``--no-write``. Only loopback addresses.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games_bench import _on_signal, run, stop_all  # noqa: E402
from bench.report import write_section  # noqa: E402
from bench.soak_stack import (  # noqa: E402
    HostedPlayer,
    Role,
    Scorer,
    Spectator,
    Stack,
    Stats,
    Viewer,
    client_log,
    free_port,
    percentile,
    run_check,
    run_seed,
)

PG_URL = os.environ.get("SOAK_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("SOAK_REDIS_URL", "redis://127.0.0.1:6379/7")
WARM_UP_SECONDS = 20
ORDER = ["seat view", "action", "long poll", "deal", "score-sheet entry", "club standings",
         "public standings"]  # fmt: skip


@contextmanager
def soak_database() -> Iterator[str]:
    """A fresh database ``preference_soak_<pid>``, dropped afterwards."""
    name = f"preference_soak_{os.getpid()}"
    admin = f"{PG_URL}/postgres"
    run(["psql", admin, "-qc", f"CREATE DATABASE {name}"])
    try:
        yield f"{PG_URL}/{name}"
    finally:
        run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


def flush_redis() -> None:
    """Empty the soak's Redis database (leftover messages of an interrupted run)."""
    host_port, _, db = REDIS_URL.removeprefix("redis://").partition("/")
    host, _, port = host_port.partition(":")
    subprocess.run(
        ["redis-cli", "-h", host, "-p", port or "6379", "-n", db or "0", "flushdb"],
        check=True,
        capture_output=True,
    )


def mib(kib: int) -> str:
    return f"{kib / 1024:.0f}"


def report(
    args: argparse.Namespace,
    stats: Stats,
    elapsed: float,
    rss: list[tuple[float, dict[str, int]]],
    integrity: dict[str, Any],
    roles: dict[str, int],
    loads: tuple[float, float],
    failures: list[str],
    stack: Stack,
) -> str:
    kinds = sorted(stats.kinds(), key=lambda k: ORDER.index(k) if k in ORDER else 99)
    lines = [
        f"{args.clients} clients for {elapsed:.0f} s "
        f"({', '.join(f'{n} {r}' for r, n in roles.items())}), "
        f"each pausing 0 to {2 * args.think:.2f} s between requests, against `web` "
        f"(`{stack.commands['web']}`), `events` (`{stack.commands['events']}`), `worker` "
        f"(`{stack.commands['worker']}`) and `beat` (`{stack.commands['beat']}`), with "
        "docker-compose.yml's environment (`CONN_MAX_AGE=60`, 0 for `events`; `DEBUG=0`), every "
        "rate limit off, PostgreSQL and Redis local. Load average (1 min) at the start "
        f"{loads[0]:.1f}, at the end {loads[1]:.1f} (2 cores shared with the clients"
        + (f"; {args.note}" if args.note else "")
        + ").",
        "",
        "| endpoint | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | errors (5xx, "
        "connection) | other answers |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    total = errors = 0
    for kind in kinds:
        lat = stats.latencies[("run", kind)]
        counts: Counter[str] = stats.statuses[("run", kind)]
        bad = sum(n for label, n in counts.items() if label[:1] not in "1234")
        other = ", ".join(
            f"{label}: {n}"
            for label, n in sorted(counts.items())
            if label[:1] == "4" or label == "304"
        )
        total += len(lat)
        errors += bad
        lines.append(
            f"| {kind} | {len(lat)} | {len(lat) / elapsed:.1f} | {percentile(lat, 50):.1f} | "
            f"{percentile(lat, 95):.1f} | {percentile(lat, 99):.1f} | {max(lat):.0f} | {bad} | "
            f"{other or '–'} |"
        )
    lines += [
        f"| **all** | **{total}** | **{total / elapsed:.1f}** | | | | | **{errors}** | |",
        "",
        "A long poll waits until the hand's next action (a bot's move, usually within "
        "milliseconds) or 20 s, so its times measure the game, not the server. `deal` starts "
        "the next hosted hand. 409s are a client's `expected_version` overtaken by a bot; 304s "
        "are standings polls whose ETag was still current.",
        "",
    ]
    if stats.samples:
        lines += ["First errors:", ""] + [f"- `{s}`" for s in stats.samples[:10]] + [""]
    if failures:
        lines += ["Client threads that failed:", ""] + [f"- {f}" for f in failures] + [""]
    names = list(rss[0][1])
    lines += [
        f"Resident memory (MiB, each process with its children: gunicorn's master and "
        f"workers, Celery's main process and its pool) {WARM_UP_SECONDS} s into the run and "
        "then every 30 s:",
        "",
        "| at s | " + " | ".join(names) + " |",
        "| ---: | " + " | ".join("---:" for _ in names) + " |",
    ]
    for at, sample in rss:
        lines.append(f"| {at:.0f} | " + " | ".join(mib(sample.get(n, 0)) for n in names) + " |")
    first, last = rss[0][1], rss[-1][1]
    lines += [
        "",
        "Start → end: "
        + ", ".join(
            f"{n} {mib(first[n])} → {mib(last.get(n, 0))} MiB "
            f"({(last.get(n, 0) - first[n]) / 1024:+.0f})"
            for n in names
        )
        + ".",
        "",
        f"Integrity once the clients stopped (worker idle after "
        f"{integrity['settled_seconds']} s; {integrity['counts']}):",
        "",
        "| check | result |",
        "| --- | --- |",
    ]
    for name, problems in integrity["checks"].items():
        lines.append(f"| {name} | {'pass' if not problems else 'FAIL: ' + '; '.join(problems)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--think", type=float, default=0.25, help="mean pause, seconds")
    parser.add_argument("--note", default="", help="a remark on the machine's load")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)

    hosted = args.clients * 3 // 8
    scorers = args.clients // 4
    spectators = args.clients // 4
    viewers = args.clients - hosted - scorers - spectators
    flush_redis()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp, soak_database() as db_url:
        workdir = Path(tmp)
        stack = Stack(db_url, REDIS_URL, workdir, free_port(8775))
        try:
            print("seeding", db_url, flush=True)
            data = run_seed(stack, {"hosted": hosted, "bot_tables": 0, "recorded": scorers})
            stack.start_all()
            stats, stop = Stats(), threading.Event()
            season_path = f"/api/v1/clubs/{data['club']}/seasons/{data['season']}/standings/"
            common = (stack, stats, stop)
            players = [HostedPlayer(*common, args.think, table=t) for t in data["hosted"]]
            books = [
                Scorer(*common, args.think * 4, table=t, season_path=season_path)
                for t in data["recorded"]
            ]
            roles: list[Role] = [*players, *books]
            roles += [
                Spectator(*common, args.think, tournament=data["tournament"],
                          season_path=season_path, token=data["member_token"])
                for _ in range(spectators)
            ]  # fmt: skip
            roles += [Viewer(*common, args.think, tables=players) for _ in range(viewers)]
            loads = [os.getloadavg()[0]]
            print(f"running {len(roles)} clients for {args.seconds:.0f} s", flush=True)
            started = time.monotonic()
            for role in roles:
                role.start()
            rss: list[tuple[float, dict[str, int]]] = []
            next_sample = WARM_UP_SECONDS
            while (now := time.monotonic() - started) < args.seconds:
                if now >= next_sample:
                    rss.append((now, stack.rss()))
                    next_sample += 30
                    done = sum(len(v) for v in stats.latencies.values())
                    bad = sum(
                        n
                        for c in stats.statuses.values()
                        for k, n in c.items()
                        if k[:1] not in "1234"
                    )
                    print(
                        f"{now:5.0f} s: {done} requests, {bad} errors, rss {rss[-1][1]}", flush=True
                    )
                time.sleep(0.5)
            rss.append((time.monotonic() - started, stack.rss()))
            loads.append(os.getloadavg()[0])
            stop.set()
            for role in roles:
                role.join(40)
            elapsed = time.monotonic() - started
            failures = [r.failure for r in roles if r.failure]
            print("checking", flush=True)
            integrity = run_check(stack, client_log(players, books, data, settle=120))
            body = report(
                args, stats, elapsed, rss, integrity,
                {"hosted players": hosted, "scorers": scorers, "standings pollers": spectators,
                 "seat viewers": viewers},
                (loads[0], loads[1]), failures, stack,
            )  # fmt: skip
            print(body)
            if not args.no_write:
                write_section("soak", "Soak (issue 10)", body)
        finally:
            stack.stop_all()
            stop_all()


if __name__ == "__main__":
    main()
