"""Claiming a notification row before it is sent (issue 41): PostgreSQL's one statement
(``clubs.outbox._claim_returning``) against the transaction every other database uses
(``_claim_in_transaction``), one row a claim, as each "your turn" that a falling flag leaves is
claimed by its own delivery.

    python bench/outbox_bench.py [--claims 2000] [--rounds 3] [--no-write]

On a database ``bench_outbox_<pid>`` of ``BENCH_PG_URL`` (default
``postgres://postgres@127.0.0.1:5432``; created, migrated and dropped): ``--claims`` due rows
made for each path and round, then claimed one by one, the paths alternating; the median per
claim of this process's CPU (``time.process_time``: what a claim costs the worker whatever
else the machine does) and of wall time. Written to the "Claiming notifications" section of
``docs/benchmarks.md`` unless ``--no-write``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report import cpu_wall_medians, write_section  # noqa: E402

PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")


def measure(claims: int, rounds: int) -> dict[str, list[tuple[float, float]]]:
    from django.utils import timezone

    from clubs import outbox
    from clubs.models import Notification, User

    user = User.objects.create_user(username="outbox_bench", password="bench-pass-1")
    paths = {
        "one statement (PostgreSQL)": outbox._claim_returning,
        "transaction (other databases)": outbox._claim_in_transaction,
    }
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in paths}
    for k in range(rounds):
        for name, claim in paths.items():
            due = timezone.now() - dt.timedelta(seconds=1)
            made = Notification.objects.bulk_create(
                Notification(user=user, type="your_turn", key=f"table:{k}:{name}:{n}",
                             due_at=due, payload={"table_id": n}, context={"table": "T"})
                for n in range(claims)
            )  # fmt: skip
            cpu, wall = time.process_time(), time.perf_counter()
            taken = sum(len(claim([row.pk])) for row in made)
            spent = (time.process_time() - cpu, time.perf_counter() - wall)
            figures[name].append((spent[0] / claims * 1e6, spent[1] / claims * 1e6))
            assert taken == claims, (name, taken)
            Notification.objects.filter(pk__in=[row.pk for row in made]).delete()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    name = f"bench_outbox_{os.getpid()}"
    admin = f"{PG_URL}/postgres"
    subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {name}"], check=True)
    try:
        os.environ.update(
            {"DATABASE_URL": f"{PG_URL}/{name}", "SECRET_KEY": "bench-outbox-0123456789abcdef"}
        )
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        figures = measure(args.claims, args.rounds)
        from django.db import connections

        connections.close_all()
    finally:
        subprocess.run(
            ["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=True
        )
    rows = [
        "| claim | CPU µs a claim | wall µs a claim | every round (CPU µs) |",
        "| --- | ---: | ---: | --- |",
    ]
    for label, got in figures.items():
        cpu, wall = cpu_wall_medians(got)
        rounds = ", ".join(f"{c:.0f}" for c, _ in got)
        rows.append(f"| {label} | {cpu:.0f} | {wall:.0f} | {rounds} |")
    body = (
        f"{args.claims:,} one-row claims a path and round, {args.rounds} rounds alternating the "
        "paths, medians; PostgreSQL on loopback.\n\n" + "\n".join(rows) + "\n"
    )
    print(body)
    if not args.no_write:
        write_section("outbox", "Claiming notifications (issue 41)", body)


if __name__ == "__main__":
    main()
