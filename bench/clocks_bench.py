"""Clocks benchmark (issue 41): 1,000 hosted hands with live clocks running at once, every
turn ended by its flag; how late each flag falls, that none falls twice, and what the clocks
cost the API's seat view and moves.

    python bench/clocks_bench.py [--hands 1000] [--action-seconds 10] [--quiet 60]
                                 [--seconds 12] [--connections 16] [--repeats 3]
                                 [--bot-level random] [--view-pace-ms 0] [--action-pace-ms 0]
                                 [--logs DIR] [--note TEXT] [--no-write]

It creates a PostgreSQL database ``bench_clocks_<pid>`` on ``BENCH_PG_URL`` (default
``postgres://postgres@127.0.0.1:5432``; dropped at the end) and uses Redis database 9 of
``BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/9``, emptied first) as broker, cache
and event bus. The Makefile's CLOCKS_CMD (the clocks queue: ``clock_flag`` and the beat's
``sweep_clocks``), WORKER_CMD (the default queue: notifications, standings, the beat's
other tasks), BOTS_CMD (the bots queue: ``bot_act``, which plays the timed-out action) and
BEAT_CMD (``sweep_clocks`` every ``CLOCK_SWEEP_SECONDS``) run as real processes
(``bench.soak_stack.Stack``) with docker-compose.yml's environment (``CONN_MAX_AGE=60``,
``LOG_LEVEL=INFO``) and the clocks' default settings (``CLOCK_LAG_CREDIT_MS`` 1000,
``CLOCK_HORIZON_SECONDS`` 60, ``CLOCK_OVERDUE_SECONDS`` 5, ``CLOCK_RESEND_SECONDS`` 15);
the API is the Makefile's WEB_CMD as ``bench/games_bench.py``
runs it (``CONN_MAX_AGE=60``), measured with wrk by games_bench's own method and seed.

- ``--hands`` hosted tables (Preferans, Wien) of three people who never act, each with the
  time control ``live``, ``--action-seconds`` an action, no reserve, the timeout policy's bot
  ``--bot-level`` and ``timeouts_before_away`` set past any hand's length (beyond the API's
  10, through the service) so that the seats never go away and every action of every hand is
  ended by its flag. Their hands are dealt by this process (``hand_start``, as ``POST
  …/hands/``) one after another spread over one action's time, so that the flags fall
  continuously: about ``hands / (action + lag credit + the bot's move)`` a second.
- Lateness: a thread reads every playing hand's ``(version, flag_at)`` every second (a
  version lasts at least an action's time; the reads cost the machine too, so no more
  often); a flag's moment is its ``timeout`` audit row's ``at`` (written by ``flag_fall`` in
  the transaction that lets it fall), its deadline the ``flag_at`` the hand had at that
  version (its clock's deadline plus ``CLOCK_LAG_CREDIT_MS``, the moment ``flag_fall`` may
  let it fall). Reported:
  p50, p99 and max over every flag, apart for flags that fell while wrk ran, and the flags
  overdue at the end (due more than 2 s ago and not fallen).
- Twice: no (hand, version, seat) has two ``timeout`` audit rows; each hand's version equals
  its actions, and each action was played by the timeout policy after exactly one flag
  (``hand.clock["timeouts"]``).
- API: the seat view (``GET …/hands/{n}/view/``) and moves (``POST …/hands/{n}/actions/``,
  whole hands of three seated people at tables without a clock) with wrk, ``--repeats`` runs
  of ``--seconds`` each, the median reported (games_bench's ``measure``): before the clock
  hands are dealt (``without``), while their flags fall (``with``), and after their clocks
  were taken off (``after``: this process sets the hands' ``clock`` and ``flag_at`` to null,
  so nothing falls or plays any more while the same processes keep sweeping).
  By default wrk saturates the server (closed loop), so whatever else runs comes out of the
  web server's share; with ``--view-pace-ms`` / ``--action-pace-ms`` each connection waits
  that long before each request (``bench/wrk_paced.lua``), a load below saturation at which
  the latencies with and without the clocks tell what the clocks cost a request.

The clocks worker's log gives each ``clock_flag`` and ``sweep_clocks`` task's time, the
default worker's log the notifications' and the beat's other tasks', the bots' log each
``bot_act``'s; the CPU each process used in each phase is read from ``/proc``.
Written to the "Clocks (issue 41)" section of ``docs/benchmarks.md`` unless ``--no-write``.
Only loopback addresses; every process it starts is stopped before it exits.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import games_bench  # noqa: E402
from bench.games_bench import (  # noqa: E402
    PYTHON,
    Result,
    _on_signal,
    base_env,
    median_of,
    run,
    server,
    stop_all,
    wrk,
)
from bench.report import write_section  # noqa: E402
from bench.soak_stack import Stack, free_port, percentile  # noqa: E402

PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 300}
LATENESS_TARGET_MS = 100.0
COST_TARGET = 0.10
POLL_SECONDS = 1.0
AWAY_NEVER = 10_000
PHASES = ("without", "with", "after")
#: The Celery workers (their logs give the tasks' times) and every process the bench starts.
WORKERS = ("clocks", "worker", "bots")
PROCESSES = (*WORKERS, "beat")
TASK_DONE = re.compile(
    r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+): INFO/[^\]]+\] Task ([\w.]+)\[[^\]]+\] "
    r"succeeded in ([0-9.]+)s: (.*)$",
    re.M,
)
ANALYSIS = ""
WAIT_SAMPLE_SECONDS = 0.02


@contextmanager
def bench_database(keep: bool = False) -> Iterator[str]:
    name = f"bench_clocks_{os.getpid()}"
    admin = f"{PG_URL}/postgres"
    run(["psql", admin, "-qc", f"CREATE DATABASE {name}"])
    try:
        yield f"{PG_URL}/{name}"
    finally:
        if keep:
            print(f"kept the database {name}", flush=True)
        else:
            run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


# ---------------------------------------------------------------------------------------------
# processes: CPU used


def tree_ticks(pid: int) -> int:
    """CPU time (clock ticks, user + system) of a process and its live descendants."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [
                    int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()
                ]
        except OSError:
            continue
    return total


def machine_ticks() -> tuple[int, int]:
    """Busy and total CPU time of the whole machine so far (clock ticks, /proc/stat)."""
    values = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return sum(values) - idle, sum(values)


def postgres_ticks() -> int:
    """CPU time of the PostgreSQL server: its postmaster and the backends it reaped (its
    ``cutime``/``cstime``) and those still running (every database, not only this one's)."""
    stats: dict[str, list[str]] = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat[stat.index("(") + 1 : stat.rindex(")")] == "postgres":
            stats[pid] = stat.rsplit(")", 1)[1].split()
    total = 0
    for fields in stats.values():
        total += int(fields[11]) + int(fields[12])
        if fields[1] not in stats:  # the postmaster: the backends it reaped
            total += int(fields[13]) + int(fields[14])
    return total


class Cpu:
    """CPU each named process tree, PostgreSQL and the whole machine used between
    :meth:`start` and :meth:`stop`."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.hz = os.sysconf("SC_CLK_TCK")
        self.began: dict[str, int] = {}
        self.machine = (0, 0)
        self.at = 0.0

    def start(self) -> None:
        self.began = {n: tree_ticks(p) for n, p in self.pids.items()}
        self.began["postgres"] = postgres_ticks()
        self.machine = machine_ticks()
        self.at = time.monotonic()

    def stop(self) -> dict[str, float]:
        """Share of one core each used (CPU seconds per second), the machine's busy share of
        all its cores, and the wall seconds."""
        wall = time.monotonic() - self.at
        used = {n: (tree_ticks(p) - self.began[n]) / self.hz for n, p in self.pids.items()}
        used["postgres"] = (postgres_ticks() - self.began["postgres"]) / self.hz
        busy, total = machine_ticks()
        share = (busy - self.machine[0]) / max(1, total - self.machine[1])
        return {
            **{n: u / wall for n, u in used.items()},
            "machine busy": share,
            "seconds": wall,
        }


# ---------------------------------------------------------------------------------------------
# seeding (in this process, through the services)


def seed_clock_tables(hands: int, action_seconds: int, bot_level: str) -> dict[str, Any]:
    """``hands`` hosted tables with a live clock, three people each who never act."""
    from clubs.models import User
    from games import services
    from games.services import SeatSpec

    users = [
        User.objects.create_user(username=f"clock_{k}", password="bench-pass-1") for k in "abc"
    ]
    seats = [SeatSpec(key=k, kind="user", user=u) for k, u in zip("abc", users, strict=True)]
    control = {
        "kind": "live",
        "action_seconds": action_seconds,
        "reserve_seconds": 0,
        "increment_seconds": 0,
        "timeouts_before_away": AWAY_NEVER,
        "bot_level": bot_level,
    }
    tables = []
    for i in range(hands):
        table = services.table_create(
            user=users[0], name=f"clock {i}", mode="hosted", rules=RULES, seats=seats,
            first_dealer="abc"[i % 3], time_control=control,
        )  # fmt: skip
        tables.append(table.pk)
    return {"tables": tables, "dealer": users[0].pk, "control": control}


def deal(tables: list[int], user_id: int, spread: float) -> dict[str, float]:
    """Deal the first hand of every table, one after another, the i-th not before
    ``i * spread / len(tables)`` seconds (as fast as this process can when it is slower)."""
    from clubs.models import User
    from games import services

    user = User.objects.get(pk=user_id)
    began = time.monotonic()
    took = []
    for i, table in enumerate(tables):
        wait = began + i * spread / len(tables) - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        t = time.monotonic()
        services.hand_start(table_id=table, user=user)
        took.append(time.monotonic() - t)
    return {
        "seconds": time.monotonic() - began,
        "p50_ms": percentile(took, 50) * 1000,
        "max_ms": max(took) * 1000,
    }


# ---------------------------------------------------------------------------------------------
# the flags


class Poller(threading.Thread):
    """Reads each playing clock hand's ``(version, flag_at)`` every ``POLL_SECONDS`` and keeps
    every distinct ``flag_at`` seen at each version; notes the most flags overdue at once."""

    def __init__(self, tables: list[int]) -> None:
        super().__init__(daemon=True)
        self.tables = tables
        self.stop = threading.Event()
        self.seen: dict[tuple[int, int], list[dt.datetime]] = defaultdict(list)
        self.reads = 0
        self.read_ms: list[float] = []
        self.overdue: list[tuple[float, int]] = []  # (time, flags due > 2 s ago, not fallen)

    def run(self) -> None:
        from django.db import connection
        from django.utils import timezone

        sql = (
            "SELECT id, version, flag_at FROM games_hand WHERE status = 'playing' "
            "AND flag_at IS NOT NULL"
        )
        try:
            while not self.stop.is_set():
                t = time.monotonic()
                with connection.cursor() as cursor:
                    cursor.execute(sql)
                    rows = cursor.fetchall()
                now = timezone.now()
                late = now - dt.timedelta(seconds=2)
                overdue = 0
                for hand, version, at in rows:
                    known = self.seen[(hand, version)]
                    if not known or known[-1] != at:
                        known.append(at)
                    overdue += at < late
                self.overdue.append((time.time(), overdue))
                self.reads += 1
                self.read_ms.append((time.monotonic() - t) * 1000)
                self.stop.wait(POLL_SECONDS)
        finally:
            connection.close()


class Waits(threading.Thread):
    """``--profile``: samples the bench database's backends in ``pg_stat_activity`` every
    ``WAIT_SAMPLE_SECONDS`` while a run of moves lasts and counts, by what a backend was doing
    (a move's hand lock, a flag's, a commit, another statement) and what it waited on
    (``wait_event_type:wait_event``, or ``cpu`` for none), the samples of active backends."""

    def __init__(self, db_url: str) -> None:
        super().__init__(daemon=True)
        self.db_url = db_url
        self.stop = threading.Event()
        self.counts: Counter[tuple[str, str]] = Counter()
        self.samples = 0
        self.rates: dict[str, float] = {}

    @staticmethod
    def kind(query: str) -> str:
        q = " ".join(query.split())
        if "FOR UPDATE" in q and "h.table_id = " in q:
            return "move: lock hand"
        if "FOR UPDATE" in q and "h.id = " in q:
            return "flag: lock hand"
        if q.upper().startswith(("COMMIT", "END")):
            return "commit"
        words = q.split()
        return " ".join(words[:4])[:60] if words else "?"

    def run(self) -> None:
        import psycopg

        sql = (
            "SELECT wait_event_type, wait_event, query FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND state = 'active'"
        )
        with psycopg.connect(self.db_url, autocommit=True) as conn:
            began, first = time.monotonic(), self.totals(conn)
            while not self.stop.is_set():
                for wtype, event, query in conn.execute(sql).fetchall():
                    wait = f"{wtype}:{event}" if wtype else "cpu"
                    self.counts[(self.kind(query or ""), wait)] += 1
                self.samples += 1
                self.stop.wait(WAIT_SAMPLE_SECONDS)
            seconds, last = time.monotonic() - began, self.totals(conn)
            self.rates = {k: (last[k] - first[k]) / seconds for k in first}

    @staticmethod
    def totals(conn: Any) -> dict[str, float]:
        """The database's commits and the cluster's WAL flushes so far."""
        commits = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()[0]
        syncs = conn.execute("SELECT wal_sync FROM pg_stat_wal").fetchone()[0]
        return {"commits": float(commits), "wal syncs": float(syncs)}


class Profile:
    """``--profile DIR``: during each run of moves, :class:`Waits` samples the database's
    backends (``DIR/<phase>-waits.txt``) and, with ``--py-spy`` (py-spy on PATH), py-spy
    every web process (wall time, idle threads too: ``DIR/<phase>-<run>.spy``, py-spy's raw
    format of folded stacks; it costs the web processes a good share of their CPU)."""

    def __init__(self, out: Path, db_url: str, web_pid: int, spy: bool) -> None:
        self.out, self.db_url, self.web_pid = out, db_url, web_pid
        self.spy = shutil.which("py-spy") if spy else None
        out.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def run(self, phase: str, k: int, seconds: int) -> Iterator[None]:
        waits = Waits(self.db_url)
        waits.start()
        spy = None
        if self.spy:
            spy = subprocess.Popen(
                [self.spy, "record", "--idle", "--subprocesses", "--nonblocking", "--rate",
                 "200", "--format", "raw", "--duration", str(seconds), "-p", str(self.web_pid),
                 "-o", str(self.out / f"{phase}-{k}.spy")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        try:
            yield
        finally:
            waits.stop.set()
            waits.join(10)
            if spy is not None:
                spy.wait(30)
            with (self.out / f"{phase}-waits.txt").open("a") as f:
                rates = ", ".join(f"{name} {n:.0f}/s" for name, n in waits.rates.items())
                f.write(f"# run {k}: {waits.samples} samples; {rates}\n")
                for (what, wait), n in waits.counts.most_common():
                    f.write(f"{n}\t{wait}\t{what}\n")


def falls(tables: list[int]) -> list[dict[str, Any]]:
    """Every ``timeout`` audit row of the clock tables: hand id, version, seats, moment."""
    from games.models import AuditEntry, Hand

    ids = dict(
        ((t, n), pk)
        for pk, t, n in Hand.objects.filter(table_id__in=tables).values_list(
            "pk", "table_id", "number"
        )
    )
    out = []
    for table, number, after, at in (
        AuditEntry.objects.filter(table_id__in=tables, action="timeout")
        .values_list("table_id", "hand_number", "after", "at")
        .iterator()
    ):
        out.append(
            {
                "hand": ids[(table, number)],
                "version": after["version"],
                "seats": after["seats"],
                "at": at,
            }
        )
    return out


def lateness(
    fell: list[dict[str, Any]],
    seen: dict[tuple[int, int], list[dt.datetime]],
    windows: list[tuple[float, float]],
) -> dict[str, Any]:
    """Each flag's moment less its deadline (ms): every flag, those whose deadline fell in a
    wrk run (``windows``), the others; flags whose deadline was never seen are counted."""
    every: list[float] = []
    loaded: list[float] = []
    quiet: list[float] = []
    moments: list[tuple[float, float]] = []  # (deadline, lateness ms)
    unseen = 0
    for f in fell:
        known = [a for a in seen.get((f["hand"], f["version"]), []) if a <= f["at"]]
        if not known:
            unseen += 1
            continue
        deadline = max(known)
        ms = (f["at"] - deadline).total_seconds() * 1000
        every.append(ms)
        ts = deadline.timestamp()
        moments.append((ts, ms))
        (loaded if any(a <= ts <= b for a, b in windows) else quiet).append(ms)
    return {
        "all": spread(every),
        "api": spread(loaded),
        "quiet": spread(quiet),
        "unseen": unseen,
        "over_target": sum(1 for x in every if x > LATENESS_TARGET_MS),
        "over_1s": sum(1 for x in every if x > 1000),
        "timeline": timeline(moments),
    }


def timeline(moments: list[tuple[float, float]], step: float = 20.0) -> list[dict[str, Any]]:
    """The flags by ``step`` seconds of their deadlines from the first: how many, p99, max
    (where in the run the late ones fell: the first wave of deals, or all along)."""
    if not moments:
        return []
    first = min(t for t, _ in moments)
    buckets: dict[int, list[float]] = defaultdict(list)
    for t, ms in moments:
        buckets[int((t - first) // step)].append(ms)
    return [
        {"from_s": k * step, **spread(v), "late": sum(1 for x in v if x > LATENESS_TARGET_MS)}
        for k, v in sorted(buckets.items())
    ]


def spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "p50": 0.0, "p99": 0.0, "max": 0.0, "min": 0.0}
    return {
        "n": len(values),
        "min": min(values),
        "p50": percentile(values, 50),
        "p99": percentile(values, 99),
        "max": max(values),
    }


def integrity(tables: list[int], fell: list[dict[str, Any]]) -> dict[str, Any]:
    """No flag fell twice, no move lost or doubled, every policy action after one flag."""
    from games.models import Hand

    per_seat = Counter((f["hand"], f["version"], s) for f in fell for s in f["seats"])
    twice = [k for k, n in per_seat.items() if n > 1]
    problems: list[str] = []
    actions = 0
    policy = 0
    for hand in Hand.objects.filter(table_id__in=tables).only("pk", "version", "actions", "clock"):
        actions += len(hand.actions)
        if hand.version != len(hand.actions):
            problems.append(f"hand {hand.pk}: version {hand.version}, {len(hand.actions)} actions")
        timeouts = (hand.clock or {}).get("timeouts", [])
        policy += len(timeouts)
        for t in timeouts:
            n = per_seat.get((hand.pk, t["action"], t["seat"]), 0)
            if n != 1:
                problems.append(
                    f"hand {hand.pk}: action {t['action']} by the policy for {t['seat']} "
                    f"after {n} flags"
                )
    played = {
        (h.pk, t["action"], t["seat"])
        for h in Hand.objects.filter(table_id__in=tables).only("pk", "clock")
        for t in (h.clock or {}).get("timeouts", [])
    }
    versions = dict(Hand.objects.filter(table_id__in=tables).values_list("pk", "version"))
    unplayed = [k for k in per_seat if k not in played and versions[k[0]] != k[1]]
    return {
        "unplayed": len(unplayed),
        "pending": sum(1 for k in per_seat if k not in played and versions[k[0]] == k[1]),
        "flags": sum(per_seat.values()),
        "twice": len(twice),
        "twice_sample": twice[:5],
        "actions": actions,
        "policy_actions": policy,
        "problems": problems[:10],
        "problem_count": len(problems),
    }


def snapshot(tables: list[int]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The flags and :func:`integrity` read on one snapshot of the database (flags keep
    falling meanwhile: audit rows read before the hands would miss the latest falls)."""
    from django.db import connection, transaction

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        fell = falls(tables)
        return fell, integrity(tables, fell)


def overdue_now(tables: list[int]) -> int:
    from django.utils import timezone

    from games.models import Hand

    return Hand.objects.filter(
        table_id__in=tables,
        status=Hand.Status.PLAYING,
        flag_at__lt=timezone.now() - dt.timedelta(seconds=2),
    ).count()


def clocks_off(tables: list[int]) -> int:
    """Take the clocks off the clock tables' hands (nothing falls or plays any more)."""
    from games.models import Hand

    return Hand.objects.filter(table_id__in=tables, status=Hand.Status.PLAYING).update(
        clock=None, flag_at=None
    )


def tasks_in(log: Path, offset: int, until: float | None = None) -> dict[str, dict[str, Any]]:
    """The tasks a Celery log lists as done after ``offset``: how many, their time."""
    text = log.read_text(errors="replace")[offset:] if log.exists() else ""
    out: dict[str, dict[str, Any]] = {}
    by: dict[str, list[float]] = defaultdict(list)
    results: dict[str, list[str]] = defaultdict(list)
    for _stamp, name, seconds, result in TASK_DONE.findall(text):
        by[name].append(float(seconds) * 1000)
        results[name].append(result.strip())
    for name, values in by.items():
        entry: dict[str, Any] = {**spread(values), "sum_s": sum(values) / 1000}
        if name == "games.tasks.sweep_clocks":
            handed = [int(r) for r in results[name] if r.isdigit()]
            entry["handed"] = sum(handed)
            entry["handed_max"] = max(handed, default=0)
        out[name] = entry
    return out


def log_size(path: Path) -> int:
    return len(path.read_text(errors="replace")) if path.exists() else 0


# ---------------------------------------------------------------------------------------------
# the report


def _ms(x: float) -> str:
    return f"{x:.0f} ms" if x >= 10 else f"{x:.1f} ms"


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


def api_rows(api: dict[str, dict[str, Result]]) -> tuple[list[str], dict[str, float]]:
    lines = [
        "| endpoint | clocks | req/s | p50 ms | p95 ms | p99 ms | non-2xx | every run: req/s / "
        "p95 ms | load |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    costs: dict[str, float] = {}
    for name in ("view", "action"):
        for phase in PHASES:
            r = api.get(phase, {}).get(name)
            if r is None:
                continue
            bad = str(r.non_2xx) + (f" ({r.errors})" if r.errors else "")
            if r.exhausted:
                bad += " (ran out of moves)"
            lines.append(
                f"| {name} | {phase} | {r.rps:.0f} | {r.p50:.1f} | {r.p95:.1f} | {r.p99:.1f} | "
                f"{bad} | " + ", ".join(f"{a:.0f} / {b:.1f}" for a, b in r.runs) + f" | "
                f"{r.load:.1f} |"
            )
        base = api.get("without", {}).get(name)
        loaded = api.get("with", {}).get(name)
        if base and loaded:
            costs[f"{name} p50"] = loaded.p50 / base.p50 - 1
            costs[f"{name} p95"] = loaded.p95 / base.p95 - 1
            costs[f"{name} req/s"] = 1 - loaded.rps / base.rps
    return lines, costs


def pacing(args: argparse.Namespace) -> str:
    """How wrk loaded the API: saturating (closed loop) or at a pace below saturation."""
    if not (args.view_pace_ms or args.action_pace_ms):
        return " (closed loop: as many requests as the server answers)"
    paces = [
        f"{name} after {ms} ms"
        for name, ms in (("each view", args.view_pace_ms), ("each move", args.action_pace_ms))
        if ms
    ]
    return (
        f" at a pace below saturation (`wrk_paced.lua`: each of the {args.connections} "
        f"connections waits before each request, {' and '.join(paces)})"
    )


def report(args: argparse.Namespace, r: dict[str, Any]) -> str:
    late = r["lateness"]
    whole = late["all"]
    check = r["integrity"]
    flags_ok = (
        whole["p99"] <= LATENESS_TARGET_MS
        and r["overdue_end"] == 0
        and late["unseen"] == 0
        and whole["n"] > 0
    )
    once_ok = check["twice"] == 0 and check["problem_count"] == 0 and check["unplayed"] == 0
    lines, costs = api_rows(r["api"])
    running = whole["n"] == 0  # the action time outlasted the run: clocks ran, none fell
    cost_ok = bool(costs) and all(v < COST_TARGET for k, v in costs.items() if "req/s" not in k)
    cpu = r["cpu"]
    names = [n for n in next(iter(cpu.values()), {}) if n != "seconds"]
    lines = [
        f"{args.hands:,} hosted tables (Preferans, Wien) of three people who never act, each "
        f"with a live clock of {args.action_seconds} s an action, no reserve, the timeout "
        f"policy's bot `{args.bot_level}`, so that every action ends by its flag; hands dealt "
        f"by `hand_start` over {r['deal']['seconds']:.0f} s ({r['deal']['p50_ms']:.0f} ms a "
        f"deal). The Makefile's CLOCKS_CMD (the clocks queue: flags and sweeps), WORKER_CMD, "
        "BOTS_CMD and BEAT_CMD on PostgreSQL and Redis with docker-compose.yml's "
        "`CONN_MAX_AGE=60` and `LOG_LEVEL=INFO`, the clocks' default settings (sweep every 1 s, "
        "lag credit 1,000 ms, horizon 60 s, overdue 5 s, handed on again at most every 15 s); "
        "WEB_CMD as `bench/games_bench.py` runs it, and its wrk method"
        + pacing(args)
        + ". Flags fell at "
        f"{r['flag_rate']:.0f} a second over {r['clock_seconds']:.0f} s of clocks "
        f"({whole['n']:,} flags). Load average {r['uptime_before']} before, "
        f"{r['uptime_after']} after."
        + (
            " No flag fell: every deadline came after the run, so the rows show what 1,000 "
            "running clocks (their sweeps every second, each hand's clock kept) cost the API, "
            "without the flags' moves and pushes."
            if running
            else ""
        ),
        "",
        "| measure | figure | target | met |",
        "| --- | --- | --- | --- |",
        f"| each flag from its deadline (`flag_at`: deadline + lag credit) to its fall (the "
        f"`timeout` audit row's `at`) | p50 {_ms(whole['p50'])}, **p99 {_ms(whole['p99'])}**, "
        f"max {_ms(whole['max'])} over {whole['n']:,} flags ({late['over_target']:,} later than "
        f"100 ms, {late['over_1s']:,} later than 1 s); while wrk ran: p50 "
        f"{_ms(late['api']['p50'])}, p99 {_ms(late['api']['p99'])} ({late['api']['n']:,}); "
        f"otherwise p50 {_ms(late['quiet']['p50'])}, p99 {_ms(late['quiet']['p99'])} "
        f"({late['quiet']['n']:,}); {r['overdue_end']} overdue at the end, most overdue at "
        f"once {r['overdue_max']}, {late['unseen']} deadlines not seen | p99 ≤ 100 ms | "
        f"{'—' if running else _met(flags_ok)} |",
        f"| no flag falls twice | {check['flags']:,} (hand, version, seat) flags, "
        f"{check['twice']} twice; {check['actions']:,} actions, {check['policy_actions']:,} "
        f"by the timeout policy, {check['problem_count']} not after exactly one flag; "
        f"{check['unplayed']} flags whose action the policy never played "
        f"({check['pending']} pending when the clocks stopped) | none twice | "
        f"{'—' if running else _met(once_ok)} |",
        "| API latency with the clocks running against without | "
        + "; ".join(f"{k} {v * 100:+.0f} %" for k, v in costs.items())
        + f" | < 10 % (p50, p95) | {_met(cost_ok)} |",
        "",
        *api_rows(r["api"])[0],
        "",
        "CPU used (share of one core, from `/proc`) while the clocks ran, and while they did "
        "not (the `without` wrk runs):",
        "",
        "| phase | " + " | ".join(names) + " | seconds |",
        "| --- | " + " | ".join("---:" for n in names) + " | ---: |",
    ]
    if args.clocks_nice:
        lines[0] += f" CLOCKS_CMD ran under `nice -n {args.clocks_nice}`."
    if args.workers_nice:
        lines[0] += f" Every Celery process ran under `nice -n {args.workers_nice}`."
    for phase, used in cpu.items():
        lines.append(
            f"| {phase} | "
            + " | ".join(f"{v:.2f}" for n, v in used.items() if n != "seconds")
            + f" | {used['seconds']:.0f} |"
        )
    lines += [
        "",
        "Flags by 20 s of their deadlines from the first (flags, later than 100 ms, p99, max): "
        + "; ".join(
            f"{b['from_s']:.0f} s: {b['n']}, {b['late']}, {_ms(b['p99'])}, {_ms(b['max'])}"
            for b in late["timeline"]
        ),
    ]
    lines += ["", "Tasks while the clocks ran (from each worker's log):", ""]
    for worker, tasks in r["tasks"].items():
        for name, t in sorted(tasks.items()):
            extra = ""
            if "handed" in t:
                extra = (
                    f"; handed on {t['handed']:,} flags in all, at most {t['handed_max']} a sweep"
                )
            lines.append(
                f"- {worker}: `{name}`: {t['n']:,} tasks, p50 {_ms(t['p50'])}, p99 "
                f"{_ms(t['p99'])}, max {_ms(t['max'])}, {t['sum_s']:.0f} s in all{extra}"
            )
    lines.append(
        f"- the poller read every playing hand {r['poll']['reads']:,} times, "
        f"p50 {_ms(r['poll']['p50'])} a read"
    )
    if check["problems"]:
        lines += ["", "Problems:", ""] + [f"- {p}" for p in check["problems"]]
    if args.note:
        lines += ["", args.note]
    if ANALYSIS:
        lines.append(ANALYSIS)
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------


def uptime() -> str:
    return (
        subprocess.run(["uptime"], capture_output=True, text=True)
        .stdout.split("average:")[-1]
        .strip()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--action-seconds", type=int, default=10)
    parser.add_argument("--bot-level", default="random")
    parser.add_argument("--quiet", type=float, default=60.0, help="seconds of clocks alone")
    parser.add_argument("--settle", type=float, default=0.0, help="seconds after the deals")
    parser.add_argument(
        "--deal-seconds",
        type=float,
        default=None,
        help="deal the hands over this long (default: one action's time and a second); "
        "with an action time longer than the run no flag falls: what running clocks cost",
    )
    parser.add_argument("--seconds", type=int, default=12)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--hosted-tables", type=int, default=600, help="action pool per run")
    parser.add_argument(
        "--view-pace-ms",
        type=int,
        default=0,
        help="each wrk connection waits this long before each view request (0: saturate)",
    )
    parser.add_argument(
        "--action-pace-ms",
        type=int,
        default=0,
        help="each wrk connection waits this long before each move (0: saturate)",
    )
    parser.add_argument("--skip-api", action="store_true")
    parser.add_argument(
        "--clocks-nice",
        type=int,
        default=0,
        help="run CLOCKS_CMD under `nice -n N` (an experiment: a negative N needs root)",
    )
    parser.add_argument(
        "--workers-nice",
        type=int,
        default=0,
        help="run every Celery process (clocks, worker, bots, beat) under `nice -n N`, so that "
        "the web server gets the CPU first (as a lower cpu_shares does in compose)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="during each run of moves, sample what the database's backends wait on, and the "
        "commits and WAL flushes a second, into this folder (DIR/<phase>-waits.txt)",
    )
    parser.add_argument(
        "--py-spy",
        action="store_true",
        help="with --profile, also sample the web processes with py-spy (costs them CPU)",
    )
    parser.add_argument(
        "--async-commit",
        action="store_true",
        help="an experiment: the bench database's sessions commit without waiting for the WAL "
        "flush (synchronous_commit off), to tell what waiting for it costs",
    )
    parser.add_argument("--note", default="", help="a remark on the machine's load")
    parser.add_argument("--logs", type=Path, help="copy the processes' logs here")
    parser.add_argument("--body", type=Path, help="also write the section's text here")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    before = uptime()
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushdb"], check=True, capture_output=True)
    result: dict[str, Any] = {"uptime_before": before, "api": {}, "cpu": {}}
    with (
        tempfile.TemporaryDirectory(prefix="clocks-") as tmp,
        bench_database(args.keep_db) as db_url,
    ):
        workdir = Path(tmp)
        env = {**base_env(db_url), "CELERY_BROKER_URL": REDIS_URL}
        os.environ.update(env)
        stack: Stack | None = None
        try:
            if args.async_commit:
                name = db_url.rsplit("/", 1)[1]
                run(["psql", db_url, "-qc", f"ALTER DATABASE {name} SET synchronous_commit = off"])
            print("migrating", db_url, flush=True)
            run([PYTHON, "manage.py", "migrate", "--noinput"], env)
            data: dict[str, Any] = {}
            if not args.skip_api:
                print("seeding the API's tables (games_bench)", flush=True)
                seed_file = workdir / "seed.json"
                run(
                    [PYTHON, str(ROOT / "bench" / "games_bench.py"), "--seed", str(seed_file),
                     "--pools", ",".join(PHASES), "--hosted-tables", str(args.hosted_tables),
                     "--repeats", str(args.repeats)],
                    {**env, "CELERY_BROKER_URL": ""},
                )  # fmt: skip
                data = json.loads(seed_file.read_text())
            import django

            django.setup()
            print("seeding the clock tables", flush=True)
            clocks = seed_clock_tables(args.hands, args.action_seconds, args.bot_level)
            tables = clocks["tables"]
            stack = Stack(db_url, REDIS_URL, workdir, free_port(8811))
            stack.env["LOG_LEVEL"] = "INFO"
            if args.clocks_nice:
                stack.commands["clocks"] = f"nice -n {args.clocks_nice} {stack.commands['clocks']}"
            if args.workers_nice:
                for name in PROCESSES:
                    stack.commands[name] = f"nice -n {args.workers_nice} {stack.commands[name]}"
            for name in PROCESSES:
                stack.start(name)
            port = free_port(8812)
            games_bench.PORT = port  # wrk's target
            with server("web", games_bench.make_cmd("WEB_CMD"), {"CONN_MAX_AGE": "60"}, db_url,
                        workdir, port) as web:  # fmt: skip
                pids = {**{n: p.pid for n, p in stack.procs.items()}, "web": web}
                cpu = Cpu(pids)
                profile = Profile(args.profile, db_url, web, args.py_spy) if args.profile else None
                windows: list[tuple[float, float]] = []

                def measure(phase: str) -> None:
                    if args.skip_api:
                        return
                    view = [f"GET\t{data['view']}\t{data['tokens']['b']}\t"]
                    common = {"seconds": args.seconds, "connections": args.connections}
                    out: dict[str, Result] = {}
                    cpu.start()
                    moves = data["pools"][phase]["actions"]
                    for name, lines in (("view", view), ("action", moves)):
                        runs = []
                        for k in range(args.repeats):
                            mine: Any = lines[k] if name == "action" else lines
                            began = time.time()
                            pace = args.view_pace_ms if name == "view" else args.action_pace_ms
                            once = name == "action"
                            watch = (
                                profile.run(phase, k, args.seconds)
                                if profile is not None and once
                                else contextlib.nullcontext()
                            )
                            with watch:
                                got = wrk(
                                    name, phase, mine, workdir, once=once, pace_ms=pace, **common
                                )
                            runs.append(got)
                            windows.append((began, time.time()))
                        out[name] = median_of(runs)
                        r = out[name]
                        print(
                            f"{phase:8} {name:8} {r.rps:6.0f} req/s p50 {r.p50:5.1f} p95 "
                            f"{r.p95:5.1f} p99 {r.p99:5.1f} {r.statuses} load {r.load:.1f}",
                            flush=True,
                        )
                    result["cpu"][phase] = cpu.stop()
                    result["api"][phase] = out

                # the seeding's tables analysed and its dead rows gone before the first
                # measurement, not by autovacuum during it (that made `without` the slowest)
                run(["psql", db_url, "-qc", "VACUUM ANALYZE"], env)
                time.sleep(3)
                measure("without")
                poller = Poller(tables)
                poller.start()
                offsets = {n: log_size(stack.log(n)) for n in WORKERS}
                clocks_began = time.time()
                period = args.deal_seconds or args.action_seconds + 1.0
                print(f"dealing {len(tables)} hands over {period:.0f} s", flush=True)
                result["deal"] = deal(tables, clocks["dealer"], period)
                print(f"dealt: {result['deal']}", flush=True)
                time.sleep(period + 2 + args.settle)
                measure("with")
                cpu.start()
                time.sleep(args.quiet)
                result["cpu"]["clocks alone"] = cpu.stop()
                poller.stop.set()
                poller.join(10)
                clocks_ended = time.time()
                result["overdue_end"] = overdue_now(tables)
                result["overdue_max"] = max((n for _, n in poller.overdue), default=0)
                result["tasks"] = {n: tasks_in(stack.log(n), offsets[n]) for n in WORKERS}
                fell, result["integrity"] = snapshot(tables)
                off = clocks_off(tables)
                print(f"clocks taken off {off} hands", flush=True)
                time.sleep(5)
                measure("after")
            result["uptime_after"] = uptime()
            result["lateness"] = lateness(fell, poller.seen, windows)
            result["clock_seconds"] = clocks_ended - clocks_began
            first_fall = min((f["at"].timestamp() for f in fell), default=clocks_began)
            result["flag_rate"] = len(fell) / max(1.0, clocks_ended - first_fall)
            result["poll"] = {"reads": poller.reads, "p50": percentile(poller.read_ms, 50)}
        finally:
            if stack is not None:
                stack.stop_all()
                if args.logs:
                    args.logs.mkdir(parents=True, exist_ok=True)
                    for name in PROCESSES:
                        if stack.log(name).exists():
                            shutil.copy(stack.log(name), args.logs / f"{name}.log")
            stop_all()
            with contextlib.suppress(Exception):
                from django.db import connections

                connections.close_all()
    print(json.dumps({k: v for k, v in result.items() if k != "api"}, default=str), flush=True)
    body = report(args, result)
    print(body)
    if args.body:
        args.body.write_text(body)
    if not args.no_write:
        write_section("clocks", "Clocks (issue 41)", body)


if __name__ == "__main__":
    main()
