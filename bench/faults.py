"""Faults: kill the worker, restart Redis, restart PostgreSQL, in the middle of play.

    python bench/faults.py [--down 5] [--recover 150] [--no-write]

Everything runs on its own: a PostgreSQL 15 cluster created with ``initdb`` in a temporary
folder (as the ``postgres`` user, port 5441 or the next free one) and a ``redis-server``
without persistence (as docker-compose.yml runs it; port 6391 or the next free one), so
restarting them touches nothing else on the machine. On them run the Makefile's WEB_CMD,
EVENTS_CMD, WORKER_CMD, BOTS_CMD, CLOCKS_CMD and BEAT_CMD (:class:`bench.soak_stack.Stack`),
seeded by :func:`bench.soak_stack.seed`.

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
- ``PostgreSQL restart``: ``pg_ctl stop -m fast`` (open connections are cut) and start;
- clocks (issue 41), in the middle of countdowns: ``--clock-tables`` hosted tables with a
  live clock of 3 s an action (no reserve, lag credit 1 s: a flag every 4 s or so at each),
  one phone and two people who never act at each, so that most turns end by their flag and
  the timeout policy's bot plays; the phone moves in time on half its turns (``expected_version``,
  ``Idempotency-Key``, retried after a 503) and lets its flag fall on the others. Faults:
  ``clocks: worker kill -9`` (the clocks queue's worker, CLOCKS_CMD, holding the flags
  handed to it with an ETA; the default queue's worker holds no clock task any more, its
  kill is the ``worker kill -9`` above), ``clocks: beat kill -9`` (the sweep) and
  ``clocks: Redis restart`` (broker, cache and the ETA messages lost; the workers that exit
  on it are started again, as compose's ``restart: unless-stopped`` does).

After each fault the clients go on until the worker has caught up (every bot table moved
again and the season's standings computed again, at most ``--recover`` seconds), then stop,
and :func:`bench.soak_stack.check` compares the database with what the clients were told:
no move lost or applied twice, every event seen once and in order across the fault, every
acknowledged entry stored once, every table's ledger summing to zero with its pot, the
stored standings equal to a computation from scratch. The clock faults wait until no clock
is overdue (and every flag due while the service was down has fallen) and then check, on one
snapshot of the database: no (hand, version, seat) flag fell twice (the ``timeout`` audit
rows), each action of the timeout policy follows exactly one flag and each flag has its
action, every move the phone was told was taken is stored at its version, each hand's
version equals its actions, and no flag is overdue. The table printed (and written to the
"Faults" section of ``docs/benchmarks.md`` unless ``--no-write``) gives, per fault, what the
clients saw, how long recovery took and the checks. Any answer that is a 5xx other than a
503 ``service_unavailable`` with a sentence, or no answer within the client's timeout (15 s,
long polls 15 s past their wait), fails the run.
"""

from __future__ import annotations

import argparse
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
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games_bench import PYTHON, _on_signal, _stop, spawn, stop_all  # noqa: E402
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
    percentile,
    retried,
    run_check,
    run_seed,
)

PG_BIN = Path("/usr/lib/postgresql/15/bin")
WRITES = ("action", "deal", "score-sheet entry")
#: The clocked tables' time control: a flag every 4 s or so where nobody acts; the seats
#: never go away (beyond the API's 10, through the service), so flags keep falling.
CLOCK_CONTROL = {
    "kind": "live",
    "action_seconds": 3,
    "reserve_seconds": 0,
    "increment_seconds": 0,
    "timeouts_before_away": 10_000,
    "bot_level": "random",
}
CLOCK_RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 300}
#: A flag due longer ago than this and not fallen is overdue. A flag whose message was lost
#: is handed on again once CLOCK_OVERDUE_SECONDS (5) late, by a sweep that resends at most
#: every CLOCK_RESEND_SECONDS (15): up to about 20 s after its deadline.
OVERDUE_SECONDS = 5.0
CLOCK_KINDS = ("clock action", "clock deal", "clock view")


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


def seen(stats: Stats, phase: str, kinds: tuple[str, ...] | None = None) -> str:
    """The statuses clients saw in ``phase`` (of the requests of ``kinds``, else all)."""
    counts: Counter[str] = Counter()
    for (p, kind), c in stats.statuses.items():
        if p == phase and (kinds is None or kind in kinds):
            counts.update(c)
    return ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())) or "–"


def seen_by_kind(stats: Stats, phase: str, kinds: tuple[str, ...]) -> str:
    """:func:`seen` for each of ``kinds`` apart (``action 200: 3; view 503: 1``)."""
    parts = [(k.split()[-1], seen(stats, phase, (k,))) for k in kinds]
    return "; ".join(f"{k} {v}" for k, v in parts if v != "–") or "–"


# ---------------------------------------------------------------------------------------------
# clocks (issue 41)


def seed_clocks(out: Path, tables: int) -> None:
    """Clocked hosted tables (run in a subprocess with the stack's ``DATABASE_URL`` and no
    broker): a phone (its own account) and two people who never act at each, no hand dealt
    yet; writes each table's id, the phone's seat and token to ``out``."""
    import django

    django.setup()
    from rest_framework_simplejwt.tokens import AccessToken

    from clubs.models import User
    from games import services
    from games.services import SeatSpec

    absent = [
        User.objects.create_user(username=f"faults_absent_{k}", password="faults-pass-1")
        for k in "bc"
    ]
    found = []
    for i in range(tables):
        phone = User.objects.create_user(username=f"faults_clock_{i}", password="faults-pass-1")
        seats = [SeatSpec(key="a", kind="user", user=phone)] + [
            SeatSpec(key=k, kind="user", user=u) for k, u in zip("bc", absent, strict=True)
        ]
        table = services.table_create(
            user=phone, name=f"clock {i}", mode="hosted", rules=CLOCK_RULES, seats=seats,
            first_dealer="abc"[i % 3], time_control=CLOCK_CONTROL,
        )  # fmt: skip
        token = AccessToken.for_user(phone)
        token.set_exp(lifetime=dt.timedelta(hours=6))
        found.append({"table": table.pk, "seat": "a", "token": str(token)})
    out.write_text(json.dumps(found))


def run_seed_clocks(stack: Stack, tables: int) -> list[dict[str, Any]]:
    out = stack.workdir / "clocks.json"
    env = {**stack.env, "CELERY_BROKER_URL": ""}
    command = [PYTHON, __file__, "--seed-clocks", str(out), "--clock-tables", str(tables)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"seeding the clocks failed:\n{done.stdout[-3000:]}\n{done.stderr}")
    found: list[dict[str, Any]] = json.loads(out.read_text())
    return found


class ClockPlayer(HostedPlayer):
    """A phone at a clocked table whose two other people never act: it deals, follows the
    hand by long polls and, on its turn, moves in time on half its turns (a short think, far
    within the action's 3 s) and lets its flag fall on the others. Moves the server refused
    as late (409 ``time_out``: the answer came after the flag, e.g. retried past an outage)
    are counted, not logged as acknowledged."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.number = 0
        self.let_fall = 0
        self.late = 0

    def step(self) -> None:
        if self.number == 0:
            self._deal()
            return
        base = f"/api/v1/tables/{self.table}/hands/{self.number}"
        answer = self.events.request(
            "long poll", "GET", f"{base}/events/?after={self.after}&wait={self.wait}",
            token=self.token, timeout=self.wait + 15,
        )  # fmt: skip
        if not answer.ok:
            self.stop.wait(0.5)
            return
        body = answer.body
        events = body["events"]
        if [e["version"] for e in events] != list(range(self.after + 1, body["version"] + 1)):
            self.gaps.append(f"hand {self.number} after {self.after}: {len(events)} events")
        self.seen[self.number] += [[e["version"], e["seat"]] for e in events]
        self.after = body["version"]
        if body["status"] == "done":
            self._deal()
            return
        if body["to_act"] != self.seat:
            return
        if self.rng.random() < 0.5:
            self.let_fall += 1  # the next long poll waits for the flag and the bot's move
            return
        view = self.web.request("clock view", "GET", f"{base}/view/", token=self.token)
        if not view.ok or view.body.get("to_act") != self.seat or not view.body.get("legal"):
            return
        self.stop.wait(self.rng.uniform(0.0, 0.8))
        action = self.rng.choice(view.body["legal"])
        version = view.body["version"]
        done = retried(
            self.web, self.stop, "clock action", "POST", f"{base}/actions/", token=self.token,
            body={"action": action, "expected_version": version},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )  # fmt: skip
        if done.status == 200:
            self.acked[self.number].append([version + 1, action])
        elif done.status in (0, 502, 503, 504):
            self.pending[self.number] = [version + 1, action]
        elif done.status == 409 and isinstance(done.body, dict):
            self.late += done.body.get("code") == "time_out"

    def _deal(self) -> None:
        started = retried(
            self.web, self.stop, "clock deal", "POST", f"/api/v1/tables/{self.table}/hands/",
            token=self.token, headers={"Idempotency-Key": str(uuid.uuid4())},
        )  # fmt: skip
        if started.status == 201:
            self.number, self.after = started.body["number"], 0
        else:
            self.stop.wait(0.5)


def _connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, connect_timeout=3, autocommit=True)


class ClockWatch(threading.Thread):
    """Reads every playing clocked hand's ``(version, flag_at)`` every 0.2 s straight from
    PostgreSQL (reconnecting across its restart) and keeps each version's deadline (its
    ``flag_at``: the clock's deadline plus the lag credit, the moment the flag may fall)."""

    def __init__(self, url: str, tables: list[int]) -> None:
        super().__init__(daemon=True)
        self.url, self.tables = url, tables
        self.stop = threading.Event()
        self.seen: dict[tuple[int, int], list[dt.datetime]] = defaultdict(list)
        self.overdue: list[tuple[float, int]] = []

    def run(self) -> None:
        conn = None
        while not self.stop.is_set():
            try:
                if conn is None:
                    conn = _connect(self.url)
                rows = conn.execute(
                    "SELECT id, version, flag_at, now() FROM games_hand WHERE status = 'playing' "
                    "AND flag_at IS NOT NULL AND table_id = ANY(%s)",
                    [self.tables],
                ).fetchall()
            except Exception:  # noqa: BLE001 - PostgreSQL restarting: read again later
                conn = None
                self.stop.wait(0.5)
                continue
            late = 0
            for hand, version, at, now in rows:
                known = self.seen[(hand, version)]
                if not known or known[-1] != at:
                    known.append(at)
                late += (now - at).total_seconds() > OVERDUE_SECONDS
            self.overdue.append((time.monotonic(), late))
            self.stop.wait(0.2)
        if conn is not None:
            conn.close()

    def clear_since(self, moment: float) -> bool:
        """Whether no flag has been overdue in the reads of the last 2 s after ``moment``."""
        recent = [n for t, n in self.overdue if t > max(moment, time.monotonic() - 2)]
        return len(recent) >= 5 and not any(recent)


def clock_check(
    url: str, players: list[ClockPlayer], watch: ClockWatch, window: tuple[float, float]
) -> dict[str, Any]:
    """The clocks' integrity on one snapshot of the database (``REPEATABLE READ``), and how
    late the flags due between ``window`` (wall clock: the fault and its restore) fell."""
    tables = [p.table for p in players]
    conn = _connect(url)
    try:
        with conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            hands = conn.execute(
                "SELECT id, table_id, number, version, actions, clock, status, flag_at, now() "
                "FROM games_hand WHERE table_id = ANY(%s)",
                [tables],
            ).fetchall()
            falls = conn.execute(
                "SELECT table_id, hand_number, after, at FROM games_auditentry "
                "WHERE action = 'timeout' AND table_id = ANY(%s)",
                [tables],
            ).fetchall()
    finally:
        conn.close()
    problems: dict[str, list[str]] = defaultdict(list)
    flags: Counter[tuple[int, int, int, str]] = Counter()
    for table, number, after, _at in falls:
        for seat in after["seats"]:
            flags[(table, number, after["version"], seat)] += 1
    for key, n in flags.items():
        if n > 1:
            problems["no flag falls twice"].append(f"table/hand/version/seat {key}: {n} times")
    by_table = {p.table: p for p in players}
    ids = {}
    overdue = 0
    for hand_id, table, number, version, actions, clock, status, flag_at, now in hands:
        ids[(table, number)] = hand_id
        if version != len(actions):
            problems["no move lost or applied twice"].append(
                f"table {table} hand {number}: version {version}, {len(actions)} actions"
            )
        if status == "playing" and flag_at is not None:
            overdue += (now - flag_at).total_seconds() > OVERDUE_SECONDS
        policy = {(t["action"], t["seat"]) for t in (clock or {}).get("timeouts", [])}
        for index, seat in policy:
            if flags[(table, number, index, seat)] != 1:
                problems["each policy action after one flag"].append(
                    f"table {table} hand {number}: action {index} for {seat} after "
                    f"{flags[(table, number, index, seat)]} flags"
                )
        for (t, n, v, seat), _count in flags.items():
            if (t, n) == (table, number) and v < version and (v, seat) not in policy:
                problems["each policy action after one flag"].append(
                    f"table {table} hand {number}: the flag of {seat} at version {v} has no "
                    "action of the policy"
                )
        player = by_table[table]
        acked = player.acked.get(number, [])
        pending = player.pending.get(number)
        for at_version, action in acked:
            stored = actions[at_version - 1] if at_version <= len(actions) else None
            mine = {k: v for k, v in (stored or {}).items() if k != "seat"}
            if stored is None or mine != {k: v for k, v in action.items() if k != "seat"}:
                problems["no move lost or applied twice"].append(
                    f"table {table} hand {number}: acknowledged {action} at version "
                    f"{at_version}, stored {stored}"
                )
        told = {v for v, _ in acked} | ({pending[0]} if pending else set())
        by_policy = {i for i, _ in policy}
        for index in range(len(actions)):
            if index in by_policy and index + 1 in told:
                problems["no move lost or applied twice"].append(
                    f"table {table} hand {number}: action {index + 1} both acknowledged and "
                    "played by the policy"
                )
            elif index not in by_policy and index + 1 not in told:
                problems["no move lost or applied twice"].append(
                    f"table {table} hand {number}: action {index + 1} ({actions[index]}) "
                    "neither acknowledged nor the policy's"
                )
    if overdue:
        problems["every due flag fell"].append(f"{overdue} flags overdue by > {OVERDUE_SECONDS} s")
    began, restored = window
    late: list[float] = []
    for table, number, after, at in falls:
        known = watch.seen.get((ids.get((table, number), -1), after["version"]), [])
        deadline = max((a for a in known if a <= at), default=None)
        if deadline is not None and began <= deadline.timestamp() <= restored:
            late.append((at - deadline).total_seconds())
    return {
        "checks": {
            name: problems.get(name, [])[:5]
            for name in (
                "no flag falls twice",
                "each policy action after one flag",
                "no move lost or applied twice",
                "every due flag fell",
            )
        },
        "flags": sum(flags.values()),
        "due_during": len(late),
        "late_p50": percentile(late, 50),
        "late_max": max(late, default=0.0),
        "acked": sum(len(p.acked.get(n, [])) for p in players for n in p.acked),
        "let_fall": sum(p.let_fall for p in players),
        "refused_late": sum(p.late for p in players),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--down", type=float, default=5.0, help="seconds each service is down")
    parser.add_argument("--recover", type=float, default=150.0, help="longest wait to recover")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated: worker,redis,postgres,clock-worker,clock-beat,clock-redis",
    )
    parser.add_argument("--clock-tables", type=int, default=12, help="clocked tables")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    parser.add_argument("--seed-clocks", type=Path, help=argparse.SUPPRESS)  # the subprocess
    args = parser.parse_args()
    if args.seed_clocks:
        seed_clocks(args.seed_clocks, args.clock_tables)
        return
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
        clocked = run_seed_clocks(stack, args.clock_tables)
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
        phones = [ClockPlayer(*common, 0.3, table=t, wait=10) for t in clocked]
        watch = ClockWatch(pg.url, [t["table"] for t in clocked])

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

        def kill_clock_worker() -> dict[str, Any]:
            # the clocks queue's worker (CLOCKS_CMD): flags and sweeps run nowhere else
            log = stack.log("clocks").read_text(errors="replace")
            held = in_flight_tasks(log, "games.tasks.clock_flag")
            stack.kill("clocks")
            time.sleep(args.down)
            stack.start("clocks")
            return {"held": f"the clocks worker held {held} clock_flag tasks"}

        def restart_redis_clocks() -> dict[str, Any]:
            redis.stop()
            time.sleep(args.down)
            redis.start()
            # docker-compose.yml restarts a process that exits (`restart: unless-stopped`)
            time.sleep(2)
            died = [n for n, p in stack.procs.items() if p.poll() is not None]
            for name in died:
                stack.procs.pop(name)
                stack.start(name)
            return {"held": f"exited, restarted as compose does: {', '.join(died) or 'none'}"}

        def kill_beat() -> dict[str, Any]:
            stack.kill("beat")
            time.sleep(args.down)
            stack.start("beat")
            return {}

        faults: list[tuple[str, str, Callable[[], dict[str, Any]]]] = [
            ("worker", "worker kill -9", kill_worker),
            ("redis", "Redis restart", restart_redis),
            ("postgres", "PostgreSQL restart", restart_postgres),
            ("clock-worker", "clocks: worker kill -9", kill_clock_worker),
            ("clock-beat", "clocks: beat kill -9", kill_beat),
            ("clock-redis", "clocks: Redis restart", restart_redis_clocks),
        ]
        only = set(filter(None, args.only.split(",")))
        for key, name, inject in faults:
            if only and key not in only:
                continue
            clocks = key.startswith("clock")
            acting = [*roles, *phones] if clocks else roles
            if clocks and not watch.is_alive():
                watch.start()
            stop = threading.Event()
            watcher = Watcher(stack, season_path, data["owner_token"], stop)
            watcher.start()
            stats.phase = f"{key} before"
            for role in acting:
                role.start(stop)
            time.sleep(10)
            playing = sum(1 for p in players if p.after > 0)
            counting = sum(1 for p in phones if p.number > 0)
            last = watcher.versions[-1] if watcher.versions else (0, 0, 0)
            print(f"{name}: injecting", flush=True)
            stats.phase = f"{key} fault"
            began = time.monotonic()
            began_wall = time.time()
            notes = inject()
            restored = time.monotonic()
            restored_wall = time.time()
            stats.phase = f"{key} after"
            print(f"{name}: restored after {restored - began:.1f} s", flush=True)
            deadline = restored + args.recover
            bots_back: float | None = None
            standings_back: float | None = None
            clocks_back: float | None = None
            while time.monotonic() < deadline:
                moved = [next((t for t in d.moved_at if t > restored), None) for d in dealers]
                if all(m is not None for m in moved):
                    bots_back = max(m for m in moved if m is not None)
                standings_back = watcher.computed_after(restored)
                if clocks and clocks_back is None and watch.clear_since(restored):
                    # the reads of the last 2 s (or since the restore) were clear
                    clocks_back = max(restored, time.monotonic() - 2)
                if bots_back and standings_back and (clocks_back or not clocks):
                    break
                time.sleep(0.5)
            time.sleep(3)
            stop.set()
            for role in acting:
                role.join(40)
            watcher.join(15)
            writes_back = min(
                (stats.first_ok[(f"{key} after", k)] for k in WRITES
                 if (f"{key} after", k) in stats.first_ok),
                default=None,
            )  # fmt: skip
            print(f"{name}: checking", flush=True)
            integrity = run_check(stack, client_log(players, books, data, settle=args.recover))
            clock: dict[str, Any] = {}
            if clocks:
                clock = clock_check(pg.url, phones, watch, (began_wall, restored_wall))
                integrity["checks"].update(clock["checks"])

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
                    "clock": clock,
                    "counting": f"{counting} of {len(phones)} clocked hands dealt",
                    "clocks_back": since(clocks_back),
                    "clock_during": seen_by_kind(stats, f"{key} fault", CLOCK_KINDS),
                    "clock_after": seen_by_kind(stats, f"{key} after", CLOCK_KINDS),
                }
            )
            print(rows[-1], flush=True)
        watch.stop.set()
        failures = [r.failure for r in [*roles, *phones] if r.failure]
        bad = [s for s in stats.samples if " bad " in s or "timeout" in s]
        plain = [r for r in rows if not r["clock"]]
        timed = [r for r in rows if r["clock"]]
        if plain:
            body = report(plain, args, stack, failures, bad, stats)
            print(body)
            if not args.no_write:
                write_section("faults", "Faults (issue 10)", body)
        if timed:
            body = clock_report(timed, args, failures, bad)
            print(body)
            if not args.no_write:
                write_section("clock-faults", "Faults with clocks (issue 41)", body)
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
        "and `beat`, `CONN_MAX_AGE=60` (0 for `events`). Clients keep playing through each "
        "fault: 4 phones at hosted tables against two bots, 3 tables of three bots, 3 score "
        "keepers at an evening "
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


def clock_report(
    rows: list[dict[str, Any]], args: argparse.Namespace, failures: list[str], bad: list[str]
) -> str:
    control = CLOCK_CONTROL
    lines = [
        f"`bench/faults.py --only clock-worker,clock-beat,clock-redis`: the processes and "
        f"services of the faults above (own PostgreSQL 15 cluster and Redis, WEB_CMD, "
        f"EVENTS_CMD, WORKER_CMD, BOTS_CMD, CLOCKS_CMD, BEAT_CMD), with {args.clock_tables} "
        f"hosted tables with a live clock of {control['action_seconds']} s an action (no "
        "reserve, lag credit 1 s, the sweep every second, a flag overdue by 5 s handed on "
        "again, at most every 15 s), each with a phone and two people who never act: most "
        "turns end by their flag and the timeout policy's bot plays; the phone moves in time on "
        "half its turns and lets its flag fall on the others. The other clients of the faults "
        "above play meanwhile. Each service is "
        f"down about {args.down:.0f} s. `clocks back`: from the restore until no flag was "
        f"overdue (due more than {OVERDUE_SECONDS:.0f} s ago) in 2 s of reads every 0.2 s. "
        "Lateness: each flag whose deadline (`flag_at`) fell while the service was down, to "
        "its `timeout` audit row.",
        "",
        "| fault | in progress | down | phones' clock requests while down | afterwards | "
        "flags due while down: fell late by | clocks back | flags, phones' moves | integrity |",
        "| --- | --- | ---: | --- | --- | --- | ---: | --- | --- |",
    ]
    for r in rows:
        c = r["clock"]
        checks = "; ".join(
            f"{name}: {'pass' if not problems else 'FAIL ' + ' / '.join(problems)}"
            for name, problems in r["checks"].items()
        )
        held = r["context"].split("; ", 1)[1] if "; " in r["context"] else ""
        lines.append(
            f"| {r['fault']} | {r['counting']}{'; ' + held if held else ''} | {r['down']} | "
            f"{r['clock_during']} | {r['clock_after']} | {c['due_during']} flags: p50 "
            f"{c['late_p50']:.1f} s, max {c['late_max']:.1f} s | {r['clocks_back']} | "
            f"{c['flags']} flags fell in all; the phones' moves: {c['acked']} taken, "
            f"{c['let_fall']} turns let fall, {c['refused_late']} refused as late | {checks} |"
        )
    lines += [
        "",
        "A flag handed to the clocks worker with an ETA is held by it unacknowledged: a killed "
        "worker or an emptied Redis loses it, and the sweep hands it on again once it is "
        "overdue by `CLOCK_OVERDUE_SECONDS` (5 s), at most every `CLOCK_RESEND_SECONDS` "
        "(15 s); the compare-and-set on the hand's version lets it fall "
        "once whatever runs twice (a message Redis redelivers after its visibility timeout "
        "finds the version moved on).",
        "",
    ]
    if bad:
        lines += ["Answers that were not allowed:", ""] + [f"- `{b}`" for b in bad[:10]] + [""]
    if failures:
        lines += ["Client threads that failed:", ""] + [f"- {f}" for f in failures] + [""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
