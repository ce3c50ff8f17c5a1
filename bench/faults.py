"""Faults: kill the worker, restart Redis, restart PostgreSQL, in the middle of play.

    python bench/faults.py [--down 5] [--recover 150] [--no-write]

Everything runs on its own: a PostgreSQL 15 cluster created with ``initdb`` in a temporary
folder (as the ``postgres`` user, port 5441 or the next free one) and a ``redis-server``
without persistence (as docker-compose.yml runs it; port 6391 or the next free one), so
restarting them touches nothing else on the machine. On them run the Makefile's WEB_CMD,
EVENTS_CMD, WORKER_CMD and BEAT_CMD (:class:`bench.soak_stack.Stack`), seeded by
:func:`bench.soak_stack.seed`.

Clients play all the time: phones at hosted tables against two bots (long polls, seat
views, moves with ``Idempotency-Key`` and ``expected_version``, retried with the same key
after a 503 or a lost connection), tables of three bots that the worker plays from the deal
to the last card, score keepers recording entries at an evening of the club's active season
(each entry makes the worker recompute the season's standings, coalesced), standings polls.
Each fault hits that running play, ``--down`` seconds long:

- ``worker kill -9``: the Celery worker's process group is killed while bots are moving
  (the tasks it held at that moment are counted from its log), then started again;
- ``Redis restart``: the broker and event bus stops (its queue is lost, as with compose's
  Redis without persistence) and starts again;
- ``PostgreSQL restart``: ``pg_ctl stop -m fast`` (open connections are cut) and start.

After each fault the clients go on until the worker has caught up (every bot table moved
again and the season's standings computed again, at most ``--recover`` seconds), then stop,
and :func:`bench.soak_stack.check` compares the database with what the clients were told:
no move lost or applied twice, every event seen once and in order across the fault, every
acknowledged entry stored once, every table's ledger summing to zero with its pot, the
stored standings equal to a computation from scratch. The table printed (and written to the
"Faults" section of ``docs/benchmarks.md`` unless ``--no-write``) gives, per fault, what the
clients saw, how long recovery took and the checks. Any answer that is a 5xx other than a
503 ``service_unavailable`` with a sentence, or no answer within the client's timeout (15 s,
long polls 15 s past their wait), fails the run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games_bench import _on_signal, _stop, spawn, stop_all  # noqa: E402
from bench.report import write_section  # noqa: E402
from bench.soak_stack import (  # noqa: E402
    BotDealer,
    HostedPlayer,
    Http,
    Role,
    Scorer,
    Spectator,
    Stack,
    Stats,
    client_log,
    free_port,
    run_check,
    run_seed,
)

PG_BIN = Path("/usr/lib/postgresql/15/bin")
WRITES = ("action", "deal", "score-sheet entry")


def as_postgres(command: str) -> None:
    """Run a shell command as the ``postgres`` user (initdb and pg_ctl refuse root)."""
    done = subprocess.run(["su", "postgres", "-c", command], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{command} failed:\n{done.stdout}\n{done.stderr}")


class OwnPostgres:
    """A throwaway PostgreSQL cluster in ``folder`` on ``port``, owned by this run."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = port
        self.log = folder / "postgres.log"

    def init(self) -> None:
        os.chmod(self.folder, 0o755)
        shutil.chown(self.folder, "postgres", "postgres")
        as_postgres(
            f"{PG_BIN}/initdb -D {self.data} -A trust -U postgres --no-sync -E UTF8 >/dev/null"
        )
        self.start()
        as_postgres(f"{PG_BIN}/createdb -h 127.0.0.1 -p {self.port} preference_faults")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        as_postgres(
            f"{PG_BIN}/pg_ctl -D {self.data} -l {self.log} -w -o '{options}' start >/dev/null"
        )

    def stop(self) -> None:
        as_postgres(f"{PG_BIN}/pg_ctl -D {self.data} -m fast -w stop >/dev/null")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/preference_faults"


class OwnRedis:
    """A ``redis-server`` on ``port`` without persistence (as docker-compose.yml runs it)."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        self.process = spawn(command, dict(os.environ), self.folder / "redis.log")
        deadline = time.monotonic() + 10
        while (
            subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
            ).stdout.strip()
            != "PONG"
        ):
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)
            self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


class Watcher(threading.Thread):
    """Polls the season's standings (every 0.5 s) and notes when each computation landed."""

    def __init__(self, stack: Stack, path: str, token: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.http = Http(stack.web, Stats())
        self.path, self.token, self.stop = path, token, stop
        self.versions: list[tuple[float, int, int]] = []  # (time, computed, requested)

    def run(self) -> None:
        while not self.stop.is_set():
            answer = self.http.request("watch", "GET", self.path, token=self.token, timeout=10)
            if answer.status == 200:
                body = answer.body
                self.versions.append((time.monotonic(), body["version"], body["requested_version"]))
            self.stop.wait(0.5)

    def computed_after(self, moment: float) -> float | None:
        before = max((v for t, v, _ in self.versions if t <= moment), default=0)
        return next((t for t, v, _ in self.versions if t > moment and v > before), None)


def in_flight_tasks(log: str, name: str) -> int:
    """Tasks called ``name`` the worker had received but not finished (from its log)."""
    received = set(re.findall(rf"Task {re.escape(name)}\[([0-9a-f-]+)\] received", log))
    finished = set(re.findall(r"Task [\w.]+\[([0-9a-f-]+)\] (?:succeeded|raised|retry)", log))
    return len(received - finished)


def seen(stats: Stats, phase: str) -> str:
    counts: Counter[str] = Counter()
    for (p, _kind), c in stats.statuses.items():
        if p == phase:
            counts.update(c)
    return ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())) or "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--down", type=float, default=5.0, help="seconds each service is down")
    parser.add_argument("--recover", type=float, default=150.0, help="longest wait to recover")
    parser.add_argument("--only", default="", help="comma-separated: worker,redis,postgres")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)

    folder = Path(tempfile.mkdtemp(prefix="faults-"))
    pg = OwnPostgres(folder, free_port(5441))
    redis = OwnRedis(folder, free_port(6391))
    stack: Stack | None = None
    rows: list[dict[str, Any]] = []
    try:
        pg.init()
        redis.start()
        stack = Stack(pg.url, redis.url, folder, free_port(8785))
        print(f"PostgreSQL {pg.url}, Redis {redis.url}; seeding", flush=True)
        data = run_seed(stack, {"hosted": 4, "bot_tables": 3, "recorded": 3})
        stack.start_all()
        stats = Stats(phase="before")
        season_path = f"/api/v1/clubs/{data['club']}/seasons/{data['season']}/standings/"
        first = threading.Event()
        common = (stack, stats, first)
        players = [HostedPlayer(*common, 0.3, table=t, wait=10) for t in data["hosted"]]
        dealers = [
            BotDealer(*common, 0.3, table=t, token=data["owner_token"]) for t in data["bot_tables"]
        ]
        books = [Scorer(*common, 0.4, table=t, season_path=season_path) for t in data["recorded"]]
        roles: list[Role] = [*players, *dealers, *books]
        roles += [
            Spectator(*common, 0.3, tournament=data["tournament"], season_path=season_path,
                      token=data["member_token"])
            for _ in range(2)
        ]  # fmt: skip

        def kill_worker() -> dict[str, Any]:
            log = stack.log("worker").read_text(errors="replace")
            held = in_flight_tasks(log, "games.tasks.bot_act")
            standings = in_flight_tasks(log, "clubs.tasks_seasons.recompute_season")
            stack.kill("worker")
            time.sleep(args.down)
            stack.start("worker")
            return {"held": f"{held} bot_act and {standings} recompute_season tasks held"}

        def restart_redis() -> dict[str, Any]:
            redis.stop()
            time.sleep(args.down)
            redis.start()
            return {}

        def restart_postgres() -> dict[str, Any]:
            pg.stop()
            time.sleep(args.down)
            pg.start()
            return {}

        faults: list[tuple[str, str, Callable[[], dict[str, Any]]]] = [
            ("worker", "worker kill -9", kill_worker),
            ("redis", "Redis restart", restart_redis),
            ("postgres", "PostgreSQL restart", restart_postgres),
        ]
        only = set(filter(None, args.only.split(",")))
        for key, name, inject in faults:
            if only and key not in only:
                continue
            stop = threading.Event()
            watcher = Watcher(stack, season_path, data["owner_token"], stop)
            watcher.start()
            stats.phase = f"{key} before"
            for role in roles:
                role.start(stop)
            time.sleep(10)
            playing = sum(1 for p in players if p.after > 0)
            last = watcher.versions[-1] if watcher.versions else (0, 0, 0)
            print(f"{name}: injecting", flush=True)
            stats.phase = f"{key} fault"
            began = time.monotonic()
            notes = inject()
            restored = time.monotonic()
            stats.phase = f"{key} after"
            print(f"{name}: restored after {restored - began:.1f} s", flush=True)
            deadline = restored + args.recover
            bots_back: float | None = None
            standings_back: float | None = None
            while time.monotonic() < deadline:
                moved = [next((t for t in d.moved_at if t > restored), None) for d in dealers]
                if all(m is not None for m in moved):
                    bots_back = max(m for m in moved if m is not None)
                standings_back = watcher.computed_after(restored)
                if bots_back and standings_back:
                    break
                time.sleep(0.5)
            time.sleep(3)
            stop.set()
            for role in roles:
                role.join(40)
            watcher.join(15)
            writes_back = min(
                (stats.first_ok[(f"{key} after", k)] for k in WRITES
                 if (f"{key} after", k) in stats.first_ok),
                default=None,
            )  # fmt: skip
            print(f"{name}: checking", flush=True)
            integrity = run_check(stack, client_log(players, books, data, settle=args.recover))

            def since(moment: float | None, restored: float = restored) -> str:
                return "never" if moment is None else f"{moment - restored:.1f} s"

            rows.append(
                {
                    "fault": name,
                    "context": (
                        f"{playing} of {len(players)} phones in a hand, {len(dealers)} bot "
                        f"tables playing, standings computed v{last[1]} of requested "
                        f"v{last[2]}" + (f"; {notes['held']}" if "held" in notes else "")
                    ),
                    "down": f"{restored - began:.1f} s",
                    "during": seen(stats, f"{key} fault"),
                    "after": seen(stats, f"{key} after"),
                    "writes": since(writes_back),
                    "bots": since(bots_back),
                    "standings": since(standings_back),
                    "checks": integrity["checks"],
                    "settled": integrity["settled_seconds"],
                }
            )
            print(rows[-1], flush=True)
        failures = [r.failure for r in roles if r.failure]
        bad = [s for s in stats.samples if " bad " in s or "timeout" in s]
        body = report(rows, args, stack, failures, bad, stats)
        print(body)
        if not args.no_write:
            write_section("faults", "Faults (issue 10)", body)
        failed = bad or failures or any(v for r in rows for v in r["checks"].values())
        if failed:
            raise SystemExit(1)
    finally:
        if stack is not None:
            stack.stop_all()
        stop_all()
        redis.stop()
        if (pg.data / "postmaster.pid").exists():
            pg.stop()
        shutil.rmtree(folder, ignore_errors=True)


def report(
    rows: list[dict[str, Any]],
    args: argparse.Namespace,
    stack: Stack,
    failures: list[str],
    bad: list[str],
    stats: Stats,
) -> str:
    lines = [
        "Real processes on their own PostgreSQL 15 cluster and Redis (no persistence): "
        f"`web` (`{stack.commands['web']}`), `events`, `worker` (`{stack.commands['worker']}`) "
        "and `beat`, `CONN_MAX_AGE=0`. Clients keep playing through each fault: 4 phones at "
        "hosted tables against two bots, 3 tables of three bots, 3 score keepers at an evening "
        f"of the active season, 2 standings pollers. Each service is down about {args.down:.0f} s. "
        "Recovery is counted from the moment the service is back: the first acknowledged write "
        "(move, deal or entry), every bot table moving again, the season's standings computed "
        "again. Statuses are the clients' answers while the service was down and afterwards "
        "(304: standings not modified; 409: a move or deal overtaken, answered with the current "
        "version; 503: `service_unavailable` with a sentence and `Retry-After`).",
        "",
        "| fault | in progress when it hit | down | clients saw while down | clients saw "
        "afterwards | writes back | bots moving | standings computed | integrity |",
        "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        checks = "; ".join(
            f"{name}: {'pass' if not problems else 'FAIL ' + ' / '.join(problems)}"
            for name, problems in r["checks"].items()
        )
        lines.append(
            f"| {r['fault']} | {r['context']} | {r['down']} | {r['during']} | {r['after']} | "
            f"{r['writes']} | {r['bots']} | {r['standings']} | {checks} |"
        )
    lines += [
        "",
        "Bots and standings wait for beat when the message that would have moved them was lost "
        "(the worker died holding it, or Redis restarted empty): `kick_stalled_bots` sends a "
        "bot's move again once its hand has been idle 30 s, `kick_stale_standings` (every 30 s) "
        "the computation of a season whose requested version is ahead of its computed one.",
        "",
    ]
    if bad:
        lines += ["Answers that were not allowed:", ""] + [f"- `{b}`" for b in bad[:10]] + [""]
    if failures:
        lines += ["Client threads that failed:", ""] + [f"- {f}" for f in failures] + [""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
