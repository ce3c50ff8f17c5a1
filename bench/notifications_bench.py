"""Notifications benchmark (issue 40): a 300-player round's "you are seated" pushes and 1,000
"round starts in 5 minutes" reminders, from the commit or the due time to the push services.

    python bench/notifications_bench.py [--players 300] [--reminders 1000]
                                        [--restarts none,term,kill] [--kill-at 500]
                                        [--lead 70] [--note TEXT] [--logs DIR] [--no-write]

It creates a PostgreSQL database ``preference_notify_<pid>`` on ``BENCH_PG_URL`` (default
``postgres://postgres@127.0.0.1:5432``; dropped at the end) and uses Redis database 13 of
``BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/13``, emptied first) as the broker.
The fake APNs, FCM and Web Push services of ``tests/push_fakes.py`` run in this process (each
checks a request as its real service does: provider token, OAuth bearer, VAPID signature,
decryption); their ``PUSH_*`` settings reach the worker through its environment. The
Makefile's WORKER_CMD (``celery -A config worker``, prefork, 2 processes) and BEAT_CMD
(the sweep ``send_due_notifications`` every ``NOTIFICATION_SWEEP_SECONDS``, 5 s) run as
real processes with docker-compose.yml's environment (``CONN_MAX_AGE=60``,
``LOG_LEVEL=INFO``) and the outbox's default timing (``NOTIFICATION_CLAIM_SECONDS`` 120).
This process plays the web process: it calls the services the API calls. ``--logs`` keeps
the worker's and beat's logs.

- ``seated``: a tournament of ``--players`` checked-in entrants with accounts, each with one
  device (a third each APNs, FCM, Web Push), is seated with ``round_seat`` (the service of
  ``POST .../rounds/``), which hands the seating to the worker (``round_seat_run``: plan,
  tables and one "seated" row per person in one transaction). The commit is observed by
  reading the round's status every 2 ms; each push's latency runs from the last read that
  did not see the round seated (an upper bound) to the moment the fake took the message
  (after verifying it). Target: every push within 5 s of the commit.
- ``reminders``: ``--reminders`` members of a club, each with one device and a
  ``round_starts`` offset of 5 minutes (``clubs.notifications.settings_update``), answer yes
  (``attendance_answer``) to an evening three days ahead (one evening a run). The evening is
  then moved (``evening_update``) to start in 5 minutes and ``--lead`` seconds, so that the
  reminders come due ``--lead`` seconds later and are found by the beat's sweep, as
  reminders scheduled in advance are. Each run restarts the worker once ``--kill-at``
  reminders have arrived: ``none`` (no restart, the reference), ``term`` (SIGTERM to the
  worker's main process, as ``docker stop``: a warm shutdown that finishes the running
  tasks; started again when it has exited) or ``kill`` (SIGKILL to its process group, as a
  crashed container or the OOM killer; started again at once). A reminder's latency runs
  from its ``due_at`` to its first arrival. Target: every reminder within 10 s of its due
  time, none twice. After a ``kill`` the run waits ``NOTIFICATION_CLAIM_SECONDS`` and three
  sweeps more, to see what the killed worker's claims become.

Every message is identified by the ``notification_id`` of its payload; a run checks that each
row arrived, how often, and that its repeats carried the first one's collapse id. Written to
the "Notifications (issue 40)" section of ``docs/benchmarks.md`` unless ``--no-write``. Only
loopback addresses; every process it starts is stopped before it exits.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games_bench import _on_signal, base_env, run, stop_all  # noqa: E402
from bench.report import write_section  # noqa: E402
from bench.soak_stack import Stack, free_port, percentile  # noqa: E402
from tests.push_fakes import PushServices, Received, start_push_services  # noqa: E402

PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 300}
KINDS = ("apns", "fcm", "webpush")
SEATED_TARGET = 5.0
REMINDER_TARGET = 10.0
OFFSET_MINUTES = 5
POLL_SECONDS = 0.002
ANALYSIS = """
Where the time goes (written by hand from the worker's log, cProfile of `clubs.outbox.deliver`
in-process on the same seeded data, and two changes tried in a patched copy of the tree that
was never committed; re-check after a change to the outbox or to `tournaments.names`):

- Seated. `tournaments.live.round_seated` calls `outbox.notify` once a seat (each person's
  table and opponents differ), and each call hands its one row to the worker after the commit:
  300 `deliver_notifications` tasks of one row, 33.5 ms of task time each on the quiet machine
  (65 ms median in a run at load 3.4, the last push then 12 s after the commit). Two processes
  take 300 × 33.5 ms / 2 = 5.0 s of task time, and Celery's time between tasks: the last push
  came 5.9 s after the commit. Of a task's time, naming the two opponents is the largest part:
  `tournaments.names.notification_names` builds `names_for(tournament, reader)` for every
  push, and `Names.display` computes the shown name and pseudonym of all 300 entrants (299
  `pseudonym_code` calls and about 300 model instances a push, 90,000 for the round) to name
  two: 12.3 ms a push (median, in-process, 3 queries). The rest: a new PostgreSQL connection a
  task (`CONN_MAX_AGE=0`, 4 to 5 ms), 11 queries, the push (3 to 4 ms), Celery's own work.
  Handing one transaction's rows on as tasks of up to `BATCH` (200) rows (tried in the patched
  copy, with the per-row claim below) did not help: the last push came 5.96 s after the
  commit, one task of 200 rows (5.9 s) on one process and 100 on the other. Naming from one
  listing of the tournament per delivery (only the named entries' pseudonyms made) would save
  about 300 × 12 ms / 2 = 1.8 s of the 5.9 s; tasks of a round's rows split evenly over the
  worker processes would keep the saving.
- Reminders without a restart meet 10 s: the sweep finds a reminder up to
  `NOTIFICATION_SWEEP_SECONDS` (5 s) after its due time (the first arrived 1.7 to 4.4 s after
  due across the runs), then 1,000 pushes take about 2 s on the 2 worker processes (3.9 ms of
  task time a push on the quiet machine, 8 to 11 ms when other jobs ran, the last then 8.3 s
  after due). A sweep that handed on the rows due before the next sweep with a countdown to
  their due time (as `_hand_on` does for rows due within a minute) would take the wait away.
  The first version of the sweep handed on only its first 200 rows while the worker had not
  yet claimed them (5 sweeps for 1,000 reminders, the last 24 s late); 5037915 hands on
  every batch.
- SIGTERM (as `docker stop`): the warm shutdown finishes the running batches (2.9 s), the
  new worker is ready 2.8 s later, and the batch still queued waits for it: nothing lost or
  sent twice, but 137 reminders came 10.0 to 10.3 s after due (200 came 13 to 15 s after due
  in a run at load 2.6). With one worker a restart in the middle costs its downtime (5.7 to
  7.0 s here); 10 s through a restart needs a second worker taking the queue meanwhile, or
  the new worker started before the old one stops.
- SIGKILL: `_claim` marks every row of a task (up to 200) claimed before its first push, so
  a killed task's unsent rows wait `NOTIFICATION_CLAIM_SECONDS` (120 s) for a sweep: 285
  reminders 127 to 128 s late. A row being pushed at the kill is sent again then: none in
  this run; in an earlier run (load 2.4) one came twice, 123 s apart, with the same
  collapse id (APNs `apns-collapse-id`, FCM `collapse_key`, Web Push `Topic`: the device
  shows one, `docs/notifications.md`). Claiming each row just before its push (one
  conditional UPDATE a row, tried in the patched copy at load 1.7) left only the row in
  flight at the kill waiting 120 s (1 reminder, not sent twice) and sent the rest of the
  killed batches with the next sweep: 333 came 10 to 11 s after due, late by the restart as
  with SIGTERM.
- Seeding: `attendance_answer` schedules the reminders of every yes of the evening again at
  each answer (`schedule_notifications`), so an answer costs more as an evening fills (the
  first and last 100 answers above).
"""
DELIVERED = re.compile(
    r"Task clubs\.tasks\.deliver_notifications\[[^\]]+\] succeeded in ([0-9.]+)s: (\d+)"
)
SWEPT = re.compile(
    r"Task clubs\.tasks\.send_due_notifications\[[^\]]+\] succeeded in [0-9.]+s: (\d+)"
)


@contextmanager
def bench_database() -> Iterator[str]:
    name = f"preference_notify_{os.getpid()}"
    admin = f"{PG_URL}/postgres"
    run(["psql", admin, "-qc", f"CREATE DATABASE {name}"])
    try:
        yield f"{PG_URL}/{name}"
    finally:
        run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


# ---------------------------------------------------------------------------------------------
# what the fakes took, and when


class Stamped(list[Received]):
    """A fake's ``received`` list that also notes when each message was taken."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    def append(self, item: Received) -> None:
        self.at.append(time.time())
        super().append(item)

    def clear(self) -> None:
        self.at.clear()
        super().clear()


@dataclass(frozen=True)
class Arrival:
    at: float
    kind: str
    notification_id: int
    collapse_id: str


def stamp(fakes: PushServices) -> None:
    for fake in (fakes.apns, fakes.fcm, fakes.webpush):
        with fake.lock:
            fake.received = Stamped()


class Tally:
    """The messages the fakes took, each read once, by the notification each carries."""

    def __init__(self, fakes: PushServices) -> None:
        self.fakes = fakes
        self.read = dict.fromkeys(KINDS, 0)
        self.all: list[Arrival] = []
        self.first: dict[int, Arrival] = {}

    def update(self) -> None:
        for kind in KINDS:
            fake = getattr(self.fakes, kind)
            with fake.lock:
                start = self.read[kind]
                new = list(zip(fake.received.at[start:], fake.received[start:], strict=True))
            self.read[kind] += len(new)
            for at, r in new:
                a = Arrival(at, kind, *_carried(kind, r))
                self.all.append(a)
                known = self.first.get(a.notification_id)
                if known is None or a.at < known.at:
                    self.first[a.notification_id] = a

    def count(self, ids: set[int]) -> int:
        """How many of ``ids`` arrived at least once."""
        self.update()
        return sum(1 for i in ids if i in self.first)

    def of(self, ids: set[int]) -> tuple[list[Arrival], dict[int, Arrival]]:
        """Every arrival of ``ids`` in order, and the first of each."""
        self.update()
        found = sorted((a for a in self.all if a.notification_id in ids), key=lambda a: a.at)
        return found, {i: a for i, a in self.first.items() if i in ids}


def _carried(kind: str, r: Received) -> tuple[int, str]:
    """The notification id and the collapse id of a message as its service delivers it."""
    if kind == "apns":
        payload, collapse = r.payload["payload"], r.headers.get("apns-collapse-id", "")
    elif kind == "fcm":
        message = r.payload["message"]
        payload = json.loads(message["data"]["payload"])
        collapse = message.get("android", {}).get("collapse_key", "")
    else:
        payload, collapse = r.payload["payload"], r.headers.get("topic", "")
    return int(payload["notification_id"]), collapse


def refused(fakes: PushServices) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for fake in (fakes.apns, fakes.fcm, fakes.webpush):
        with fake.lock:
            out += fake.refused
    return out


def spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0, "min": 0.0}
    return {
        "min": min(values),
        "p50": percentile(values, 50),
        "p99": percentile(values, 99),
        "max": max(values),
    }


def deliveries(log: Path, offset: int) -> dict[str, Any]:
    """The worker's ``deliver_notifications`` tasks logged after ``offset``: how many, how
    long they took, how many rows they sent."""
    text = log.read_text(errors="replace")[offset:] if log.exists() else ""
    runs = [(float(s), int(n)) for s, n in DELIVERED.findall(text)]
    busy = [s for s, n in runs if n]
    swept = [int(n) for n in SWEPT.findall(text)]
    return {
        "sweeps": len(swept),
        "swept": [n for n in swept if n],
        "tasks": len(runs),
        "sending": len(busy),
        "sent": sum(n for _, n in runs),
        "seconds": sum(s for s, _ in runs),
        "longest": max(busy, default=0.0),
        "per_push_ms": 1000 * sum(busy) / max(1, sum(n for _, n in runs)),
    }


def log_size(stack: Stack, name: str) -> int:
    path = stack.log(name)
    return len(path.read_text(errors="replace")) if path.exists() else 0


# ---------------------------------------------------------------------------------------------
# seeding (through the services where the API has one)


def register_devices(users: list[Any], fakes: PushServices) -> Counter[str]:
    """One device each, APNs, FCM and Web Push in turn, through ``device_register``."""
    from clubs.services.devices import device_register

    kinds: Counter[str] = Counter()
    for i, user in enumerate(users):
        kind = KINDS[i % len(KINDS)]
        keys = None
        if kind == "apns":
            token = secrets.token_hex(32)
        elif kind == "fcm":
            token = f"bench:{secrets.token_urlsafe(48)}"
        else:
            token, p256dh, auth = fakes.webpush.subscribe(fakes.vapid_public_key)
            keys = {"p256dh": p256dh, "auth": auth}
        device_register(user=user, kind=kind, token=token, keys=keys, name=f"bench {kind}")
        kinds[kind] += 1
    return kinds


def seed_tournament(players: int, fakes: PushServices) -> dict[str, Any]:
    from django.utils import timezone

    import engine
    from clubs.models import User
    from tournaments.models import Entry, Tournament

    now = timezone.now()
    director = User.objects.create(username="td", display_name="Tournament director")
    users = User.objects.bulk_create(
        User(username=f"t{i:04d}", display_name=f"Player {i:04d}") for i in range(1, players + 1)
    )
    t = Tournament.objects.create(
        name="Bench Open",
        slug="bench-open",
        status=Tournament.Status.CHECK_IN,
        is_public=True,
        rules=engine.parse_rules(RULES).to_json(),
        rounds_planned=3,
        deals_per_round=24,
        seating=Tournament.Seating.RANDOM,
        created_by=director,
    )
    t.directors.add(director)
    Entry.objects.bulk_create(
        Entry(
            tournament=t,
            user=u,
            name=u.display_name,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=now,
        )  # fmt: skip
        for u in users
    )
    kinds = register_devices(users, fakes)
    return {"tournament": t.pk, "director": director.pk, "kinds": dict(kinds)}


def seed_club(members: int, fakes: PushServices) -> dict[str, Any]:
    from clubs.models import Club, Membership, User
    from clubs.notifications import settings_update

    owner = User.objects.create(username="owner", display_name="Club owner")
    users = User.objects.bulk_create(
        User(username=f"m{i:04d}", display_name=f"Member {i:04d}") for i in range(1, members + 1)
    )
    club = Club.objects.create(name="Bench Club", slug="bench-club", default_rules=RULES)
    Membership.objects.create(club=club, user=owner, role="owner")
    Membership.objects.bulk_create(Membership(club=club, user=u, role="member") for u in users)
    kinds = register_devices(users, fakes)
    for user in users:
        settings_update(user, [{"type": "round_starts", "offset_minutes": OFFSET_MINUTES}])
    return {
        "club": club.pk,
        "owner": owner.pk,
        "members": [u.pk for u in users],
        "kinds": dict(kinds),
    }


def seed_evening(club: dict[str, Any], days: float) -> tuple[int, float, float, float]:
    """An evening ``days`` ahead that every member answers yes to (the owner no): its id, the
    seconds the answers took, and the mean seconds of the first and of the last 100."""
    from django.utils import timezone

    from clubs.models import User
    from clubs.services.evenings import attendance_answer, evening_create

    owner = User.objects.get(pk=club["owner"])
    start = (timezone.now() + dt.timedelta(days=days)).replace(microsecond=0)
    evening = evening_create(
        user=owner,
        club_id=club["club"],
        title=f"Bench evening {days:g}",
        starts_at=start,
        ends_at=start + dt.timedelta(hours=4),
        capacity=len(club["members"]) + 10,
    )
    started = time.monotonic()
    attendance_answer(user=owner, evening_id=evening.pk, answer="no")
    took: list[float] = []
    for user in User.objects.filter(pk__in=club["members"]).order_by("pk"):
        one = time.monotonic()
        attendance_answer(user=user, evening_id=evening.pk, answer="yes")
        took.append(time.monotonic() - one)
    first, last = took[:100], took[-100:]
    return evening.pk, time.monotonic() - started, sum(first) / len(first), sum(last) / len(last)


# ---------------------------------------------------------------------------------------------
# the two measures


def seated(
    stack: Stack, fakes: PushServices, tally: Tally, data: dict[str, Any], players: int
) -> dict[str, Any]:
    from clubs.models import Notification, User
    from tournaments.models import Round, RoundTable, Tournament
    from tournaments.services.rounds import round_seat

    t = Tournament.objects.get(pk=data["tournament"])
    director = User.objects.get(pk=data["director"])
    offset = log_size(stack, "worker")
    load = os.getloadavg()[0]
    asked = time.time()
    rnd = round_seat(user=director, tournament=t)
    answered = time.time()
    before, reads = answered, 0
    while True:
        read_at = time.time()
        status = Round.objects.filter(pk=rnd.pk).values_list("status", flat=True).get()
        seen = time.time()
        reads += 1
        if status == Round.Status.SEATED:
            break
        if status != Round.Status.SEATING or seen - asked > 120:
            raise RuntimeError(f"round {rnd.pk}: {status}")
        before = read_at
        time.sleep(POLL_SECONDS)
    committed = before
    rnd.refresh_from_db()
    assert rnd.seated_at is not None
    rows = dict(
        Notification.objects.filter(type="seated", key=f"tournament-round:{rnd.pk}").values_list(
            "pk", "user_id"
        )
    )
    ids = set(rows)
    deadline = time.time() + 120
    while tally.count(ids) < len(ids) and time.time() < deadline:
        time.sleep(0.02)
    time.sleep(3)  # anything sent twice comes now
    found, first = tally.of(ids)
    latencies = [a.at - committed for a in first.values()]
    unsent = Notification.objects.filter(pk__in=ids, sent_at__isnull=True).count()
    outcomes = Counter(Notification.objects.filter(pk__in=ids).values_list("outcome", flat=True))
    return {
        "players": players,
        "kinds": data["kinds"],
        "rows": len(ids),
        "people": len(set(rows.values())),
        "tables": RoundTable.objects.filter(round=rnd).count(),
        "load": load,
        "seat_call_s": answered - asked,
        "to_commit_s": committed - asked,
        "commit_window_ms": (seen - before) * 1000,
        "tail_s": committed - rnd.seated_at.timestamp(),
        "reads": reads,
        "received": len(found),
        "distinct": len(first),
        "twice": len(found) - len(first),
        "refused": refused(fakes),
        "unsent": unsent,
        "outcomes": dict(outcomes),
        "latency": spread(latencies),
        "by_kind": {
            k: spread([a.at - committed for a in first.values() if a.kind == k]) for k in KINDS
        },
        "within": sum(1 for x in latencies if x <= SEATED_TARGET),
        "worker": deliveries(stack.log("worker"), offset),
    }


def restart_worker(stack: Stack, how: str) -> dict[str, float]:
    """Stop the worker as ``how`` says (``term``: SIGTERM to its main process and wait for
    its warm shutdown; ``kill``: SIGKILL to its process group) and start a new one."""
    process = stack.procs.pop("worker")
    signalled = time.time()
    if how == "term":
        os.kill(process.pid, signal.SIGTERM)
    else:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=300)
    exited = time.time()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # a pool process left behind (none expected)
    stack.start("worker")
    return {"signalled": signalled, "exited": exited, "ready": time.time()}


def reminders(
    stack: Stack,
    fakes: PushServices,
    tally: Tally,
    club: dict[str, Any],
    evening_id: int,
    how: str,
    kill_at: int,
    lead: float,
    claim_seconds: float,
) -> dict[str, Any]:
    from django.utils import timezone

    from clubs.models import Notification, User
    from clubs.services.evenings import evening_update

    owner = User.objects.get(pk=club["owner"])
    start = timezone.now() + dt.timedelta(minutes=OFFSET_MINUTES, seconds=lead)
    evening_update(
        user=owner,
        evening_id=evening_id,
        changes={"starts_at": start, "ends_at": start + dt.timedelta(hours=4)},
    )
    rows = {
        pk: due.timestamp()
        for pk, due in Notification.objects.filter(
            type="round_starts", key=f"evening:{evening_id}", sent_at__isnull=True
        ).values_list("pk", "due_at")
    }
    ids = set(rows)
    assert len(ids) == len(club["members"]), (len(ids), len(club["members"]))
    due = min(rows.values())
    while time.time() < due - 3:
        time.sleep(0.2)
    offset = log_size(stack, "worker")
    load = os.getloadavg()[0]
    restart: dict[str, float] = {}
    before_restart = 0
    deadline = due + 600
    while time.time() < deadline:
        got = tally.count(ids)
        if how != "none" and not restart and got >= kill_at:
            before_restart = got
            restart = restart_worker(stack, how)
            continue
        if got >= len(ids):
            break
        time.sleep(0.02)
    done = time.time()
    # what a killed worker claimed is taken again after NOTIFICATION_CLAIM_SECONDS: wait for it
    settle = restart["signalled"] + claim_seconds + 15 if how == "kill" and restart else done
    while time.time() < max(settle, done + 5):
        time.sleep(0.2)
    found, first = tally.of(ids)
    late = [a.at - rows[a.notification_id] for a in first.values()]
    repeats = [a for a in found if a is not first[a.notification_id]]
    return {
        "how": how,
        "rows": len(ids),
        "kinds": club["kinds"],
        "load": load,
        "due_in_s": lead,
        "first_after_due_s": min(late, default=0.0),
        "restart": {k: v - due for k, v in restart.items()},
        "down_s": (restart["ready"] - restart["signalled"]) if restart else 0.0,
        "before_restart": before_restart,
        "received": len(found),
        "distinct": len(first),
        "missing": len(ids) - len(first),
        "twice": len(repeats),
        "repeat_after_s": spread([a.at - first[a.notification_id].at for a in repeats]),
        "repeat_same_collapse": all(
            a.collapse_id == first[a.notification_id].collapse_id for a in repeats
        ),
        "refused": refused(fakes),
        "unsent": Notification.objects.filter(pk__in=ids, sent_at__isnull=True).count(),
        "latency": spread(late),
        "within": sum(1 for x in late if x <= REMINDER_TARGET),
        "over_target": sorted(round(x, 1) for x in late if x > REMINDER_TARGET)[:5],
        "over_count": sum(1 for x in late if x > REMINDER_TARGET),
        "after_claim": sum(1 for x in late if x > claim_seconds),
        "worker": deliveries(stack.log("worker"), offset),
    }


# ---------------------------------------------------------------------------------------------
# the report


def _s(x: float) -> str:
    return f"{x:.2f} s"


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


def seated_row(seat: dict[str, Any]) -> str:
    lat = seat["latency"]
    ok = (
        seat["distinct"] == seat["rows"] == seat["players"]
        and seat["twice"] == 0
        and not seat["refused"]
        and lat["max"] <= SEATED_TARGET
    )
    kinds = ", ".join(f"{n} {kind}" for kind, n in seat["kinds"].items())
    by_kind = "; ".join(
        f"{k} p50 {_s(v['p50'])}, max {_s(v['max'])}" for k, v in seat["by_kind"].items()
    )
    return (
        f"| round of {seat['players']} seated (`round_seat` → worker `round_seat_run`, "
        f'{seat["tables"]} tables; devices {kinds}): each "seated" push from the commit to '
        f"the fake | {seat['distinct']} of {seat['rows']} rows arrived, {seat['twice']} twice, "
        f"{len(seat['refused'])} refused; **last {_s(lat['max'])}**, p50 {_s(lat['p50'])}, "
        f"p99 {_s(lat['p99'])}, first {_s(lat['min'])} ({by_kind}); {seat['within']} within "
        f"5 s; load {seat['load']:.1f} | all within 5 s of the commit, each once | {_met(ok)} |"
    )


def reminders_row(r: dict[str, Any]) -> str:
    lat = r["latency"]
    ok = (
        r["distinct"] == r["rows"]
        and r["twice"] == 0
        and lat["max"] <= REMINDER_TARGET
        and not r["refused"]
    )
    if r["how"] == "none":
        what = "no restart (reference)"
    else:
        rs = r["restart"]
        signal_name = "SIGTERM to its main process" if r["how"] == "term" else "SIGKILL"
        what = (
            f"worker {signal_name} after {r['before_restart']} had arrived "
            f"({rs['signalled']:.1f} s after due; exited {rs['exited'] - rs['signalled']:.1f} s "
            f"later, the new one ready {rs['ready'] - rs['signalled']:.1f} s after the signal)"
        )
    repeats = ""
    if r["twice"]:
        rep = r["repeat_after_s"]
        same = "the same" if r["repeat_same_collapse"] else "**another**"
        repeats = (
            f" (the repeats {rep['min']:.0f} to {rep['max']:.0f} s after the first, with "
            f"{same} collapse id)"
        )
    over = f"; **{r['over_count']} later than 10 s**" if r["over_count"] else ""
    if r["after_claim"]:
        over += f" ({r['after_claim']} of them after a claim ran out, over 120 s)"
    return (
        f'| {r["rows"]:,} reminders "starts in 5 minutes" (sweep), {what}: each from its due '
        f"time to the fake | {r['distinct']} of {r['rows']} arrived, {r['twice']} "
        f"twice{repeats}, {len(r['refused'])} refused, {r['unsent']} unsent; first "
        f"{_s(lat['min'])}, p50 {_s(lat['p50'])}, p99 {_s(lat['p99'])}, "
        f"**max {_s(lat['max'])}**{over}; load {r['load']:.1f} | all within 10 s of due, "
        f"none twice | {_met(ok)} |"
    )


def report(
    args: argparse.Namespace,
    seat: dict[str, Any] | None,
    runs: list[dict[str, Any]],
    seeding: str,
) -> str:
    lines = [
        "Fake APNs, FCM and Web Push services in the benchmark process (each verifies what it "
        "takes: provider token, OAuth bearer, VAPID signature, decryption); the Makefile's "
        "WORKER_CMD (2 prefork processes) and BEAT_CMD on PostgreSQL and Redis with "
        "docker-compose.yml's `CONN_MAX_AGE=60` and `LOG_LEVEL=INFO`, "
        "`NOTIFICATION_SWEEP_SECONDS` 5 and `NOTIFICATION_CLAIM_SECONDS` 120 (the defaults). "
        f"{seeding}",
        "",
        "| measure | figure | target | met |",
        "| --- | --- | --- | --- |",
    ]
    if seat is not None:
        lines.append(seated_row(seat))
    lines += [reminders_row(r) for r in runs]
    lines += ["", "The worker's `deliver_notifications` tasks (from its log):", ""]
    tasks = [(f"reminders, {r['how']}", r["worker"]) for r in runs]
    if seat is not None:
        tasks.insert(0, ("seated", seat["worker"]))
    for name, wk in tasks:
        lines.append(
            f"- {name}: {wk['tasks']} tasks ({wk['sending']} that sent something), "
            f"{wk['sent']} pushes, {wk['seconds']:.1f} s of task time in all, the longest "
            f"{wk['longest']:.2f} s, {wk['per_push_ms']:.1f} ms of task time a push; "
            f"{wk['sweeps']} sweeps, those that handed rows on handed "
            f"{', '.join(map(str, wk['swept'])) or 'none'}"
        )
    if seat is not None:
        lines += [
            "",
            f"Seating: `round_seat` answered in {_s(seat['seat_call_s'])}; the worker's "
            f"transaction committed {_s(seat['to_commit_s'])} after the call (read every "
            f"{POLL_SECONDS * 1000:.0f} ms, {seat['commit_window_ms']:.0f} ms window), "
            f"{_s(seat['tail_s'])} after its `seated_at` (the rest of the transaction: the "
            f"webhook and the {seat['rows']} outbox rows).",
        ]
    if args.note:
        lines += ["", args.note]
    if ANALYSIS:
        lines.append(ANALYSIS)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--reminders", type=int, default=1000)
    parser.add_argument("--restarts", default="none,term,kill")
    parser.add_argument("--kill-at", type=int, help="restart after this many (default: half)")
    parser.add_argument("--lead", type=float, default=70.0, help="seconds from move to due")
    parser.add_argument("--note", default="", help="a remark on the machine's load")
    parser.add_argument("--logs", type=Path, help="copy the worker's and beat's logs here")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    args = parser.parse_args()
    restarts = [h for h in args.restarts.split(",") if h]
    assert set(restarts) <= {"none", "term", "kill"}, restarts
    kill_at = args.kill_at or args.reminders // 2
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushdb"], check=True, capture_output=True)
    with tempfile.TemporaryDirectory(prefix="notify-") as tmp, bench_database() as db_url:
        workdir = Path(tmp)
        for key, value in base_env(db_url).items():
            os.environ[key] = value
        os.environ["CELERY_BROKER_URL"] = REDIS_URL
        fakes = start_push_services(workdir)
        stamp(fakes)
        tally = Tally(fakes)
        seat: dict[str, Any] | None = None
        runs: list[dict[str, Any]] = []
        try:
            push_env = fakes.settings()
            os.environ.update(push_env)
            import django
            from django.conf import settings

            django.setup()
            # this process registers the devices: it checks Web Push hosts as the web does
            settings.PUSH_WEBPUSH_HOSTS = push_env["PUSH_WEBPUSH_HOSTS"].split(",")
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            claim_seconds = float(settings.NOTIFICATION_CLAIM_SECONDS)
            started = time.monotonic()
            tournament = seed_tournament(args.players, fakes) if args.players else None
            club = seed_club(args.reminders, fakes)
            evenings = []
            answering = []
            for i, _how in enumerate(restarts):
                evening_id, took, first, last = seed_evening(club, 3 + i)
                evenings.append(evening_id)
                answering.append((took, first, last))
                print(
                    f"evening {i + 1}: {args.reminders} answers in {took:.0f} s, the first 100 "
                    f"{first * 1000:.0f} ms each, the last 100 {last * 1000:.0f} ms",
                    flush=True,
                )
            seeded = time.monotonic() - started
            seeding = (
                f"Seeded through the services in {seeded:.0f} s (devices with "
                f"`device_register`, offsets with `settings_update`, {args.reminders:,} yes "
                f"answers an evening with `attendance_answer`: "
                f"{', '.join(f'{x:.0f} s' for x, _, _ in answering)}; the first 100 answers of "
                f"an evening took {', '.join(f'{y * 1000:.0f}' for _, y, _ in answering)} ms "
                f"each, the last 100 {', '.join(f'{z * 1000:.0f}' for _, _, z in answering)} "
                "ms: each answer schedules the reminders of every yes again)."
            )
            print(seeding, flush=True)
            stack = Stack(db_url, REDIS_URL, workdir, free_port(8797))
            # as docker-compose.yml runs them (the soak's WARNING would hide each task's time)
            stack.env["LOG_LEVEL"] = "INFO"
            try:
                stack.start("worker")
                stack.start("beat")
                time.sleep(3)
                if tournament is not None:
                    seat = seated(stack, fakes, tally, tournament, args.players)
                    print(json.dumps(seat, default=str), flush=True)
                for how, evening_id in zip(restarts, evenings, strict=True):
                    r = reminders(
                        stack,
                        fakes,
                        tally,
                        club,
                        evening_id,
                        how,
                        kill_at,
                        args.lead,
                        claim_seconds,
                    )
                    print(json.dumps(r, default=str), flush=True)
                    runs.append(r)
            finally:
                stack.stop_all()
                if args.logs:
                    args.logs.mkdir(parents=True, exist_ok=True)
                    for name in ("worker", "beat"):
                        if stack.log(name).exists():
                            shutil.copy(stack.log(name), args.logs / f"{name}.log")
        finally:
            stop_all()
            fakes.stop()
            from django.db import connections

            connections.close_all()
    body = report(args, seat, runs, seeding)
    print(body)
    if not args.no_write:
        write_section("notifications", "Notifications (issue 40)", body)


if __name__ == "__main__":
    main()
