"""Clubs benchmark: season standings of a big club, computed and served.

    python bench/clubs_bench.py [--seconds 12] [--connections 16] [--repeats 3]
                                [--preferans-every 4] [--evenings 40] [--database NAME]
                                [--only recompute|standings] [--no-write]

A fresh PostgreSQL database (dropped at the end) gets a club with 60 members and 40
evenings (``--evenings``) of 4 rounds, 5 tables a round (15 players of the 60 each evening),
25 recorded hands a table: 20,000 hands, each a random hand played out by the engine's random
bot and settled by the engine (written in bulk: the seed measures nothing). Every fourth
evening is Russian Preferans (issue 26; ``--preferans-every N``, 0 for none): its tables keep a
pulya, which the standings settle into whists per table. Then:

- ``recompute``: ``season_recompute`` in-process (load every hand of the season, compute,
  store the rows), median of 5 (target ≤ 0.5 s); the club's ratings replay (OpenSkill over
  the 800 closed sittings) is timed beside it; then ``VACUUM ANALYZE``, so that the reads
  are not measured beside the vacuum of the rows the recomputes rewrote;
- ``standings``: ``GET /api/v1/clubs/{id}/seasons/{id}/standings/`` on the Makefile's WEB_CMD
  (gunicorn gthread) with wrk, next to the bare ``/healthz`` floor of the same server
  (target ≥ 0.3 × floor).

``--database NAME`` keeps the seeded database for the next run instead: a missing database of
that name (on ``BENCH_PG_URL``) is created, migrated and seeded, and kept; an existing one is
measured as it is, without seeding (seeding the full club takes minutes; drop it with
``dropdb NAME`` when done). ``--only`` measures one of the two. Figures from a smaller club
(``--evenings``) or a partial run are not written to ``docs/benchmarks.md``.

Only loopback addresses; every process it starts is stopped before it exits.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games_bench import (  # noqa: E402
    PG_URL,
    PYTHON,
    base_env,
    bench_database,
    configs,
    median_of,
    run,
    server,
    stop_all,
    wrk,
)
from bench.report import write_section  # noqa: E402

MEMBERS, ROUNDS, TABLES, HANDS = 60, 4, 5, 25
EVENINGS = int(os.environ.get("CLUBS_BENCH_EVENINGS", "40"))
"""Evenings seeded (``--evenings``, passed to the seed step through the environment)."""
FULL_EVENINGS = 40
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 300}
PREFERANS = {"variant": "preferans", "convention": "sochi", "pool_target": 50, "whist_value": 10}
PREFERANS_EVERY = int(os.environ.get("CLUBS_BENCH_PREFERANS_EVERY", "4"))
"""Every fourth evening (the fourth, eighth, …) plays ``PREFERANS`` (0: none); set by
``--preferans-every`` (passed to the seed step through the environment)."""


def seed(out: Path) -> None:
    """Build the club in the bench database; write the ids and a token to ``out``."""
    import django

    django.setup()
    import datetime as dt

    from django.db import transaction
    from django.utils import timezone
    from rest_framework_simplejwt.tokens import AccessToken

    import engine
    from clubs.models import Club, Evening, EveningTable, Membership, Season, User
    from games import services
    from games.models import Hand, LedgerEntry, Table
    from games.random_entries import entry_for
    from games.rulesets import rule_set_for, stored_result
    from games.services.common import carry_after

    rng = random.Random(2026)
    users = User.objects.bulk_create(
        User(username=f"m{i:02d}", display_name=f"Member {i}") for i in range(MEMBERS)
    )
    club = Club.objects.create(name="Bench Club", slug="bench", is_public=True, default_rules=RULES)
    Membership.objects.bulk_create(
        Membership(club=club, user=u, role="owner" if i == 0 else "member")
        for i, u in enumerate(users)
    )
    start = timezone.now() - dt.timedelta(days=7 * EVENINGS)
    season = Season.objects.create(
        club=club,
        name="Bench season",
        starts_on=(start - dt.timedelta(days=1)).date(),
        ends_on=timezone.now().date(),
        is_active=True,
    )
    owner = users[0]

    hands = 0
    for e in range(EVENINGS):
        with transaction.atomic():
            at = start + dt.timedelta(days=7 * e)
            evening = Evening.objects.create(
                club=club, title=f"Abend {e + 1}", starts_at=at, ends_at=at + dt.timedelta(hours=4)
            )
            present = rng.sample(users, TABLES * 3)
            rules = PREFERANS if PREFERANS_EVERY and (e + 1) % PREFERANS_EVERY == 0 else RULES
            rule_set = rule_set_for(rules)
            for r in range(ROUNDS):
                rng.shuffle(present)
                for t in range(TABLES):
                    group = present[3 * t : 3 * t + 3]
                    table = services.table_create(
                        user=owner,
                        name=f"E{e + 1} R{r + 1} T{t + 1}",
                        mode=Table.Mode.RECORDED,
                        rules=rules,
                        seats=[
                            services.SeatSpec(key=u.username, kind="user", user=u) for u in group
                        ],
                        first_dealer=group[0].username,
                        club_id=club.pk,
                    )
                    EveningTable.objects.create(evening=evening, number=t + 1, table=table)
                    carry, rows, ledger = carry_after(table, None), [], []
                    for n in range(1, HANDS + 1):
                        entry = entry_for(table, n, carry, rng)
                        record = {**services.common_part(table, n, carry), **entry}
                        result = stored_result(table, engine.settle(record))
                        hand = Hand(
                            table=table,
                            number=n,
                            status=Hand.Status.DONE,
                            dealer=record["dealer"],
                            pot_before=carry.get("pot", 0),
                            carry_before={k: v for k, v in carry.items() if k != "pot"},
                            entry=entry,
                            result=result,
                            entered_by=owner,
                            finished_at=at,
                        )
                        rows.append(hand)
                        carry = dict(rule_set.carry_after(result))
                    Hand.objects.bulk_create(rows)
                    for hand in rows:
                        ledger.extend(
                            LedgerEntry(
                                table=table,
                                hand=hand,
                                payer=t_["from"],
                                payee=t_["to"],
                                amount=t_["amount"],
                                reason=t_["why"],
                            )
                            for t_ in hand.result["transfers"]
                        )
                    LedgerEntry.objects.bulk_create(ledger)
                    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
                    hands += HANDS
        print(f"evening {e + 1}/{EVENINGS}: {hands} hands", flush=True)
    token = str(AccessToken.for_user(owner))
    out.write_text(json.dumps({"club": club.pk, "season": season.pk, "token": token}))


def seeded_ids(out: Path) -> None:
    """Write the ids of the bench club and its season in an existing bench database."""
    import django

    django.setup()
    from clubs.models import Club, Evening, Season
    from games.models import Table

    club = Club.objects.get(slug="bench")
    season = Season.objects.get(club=club)
    evenings = Evening.objects.filter(club=club).count()
    preferans = Table.objects.filter(club=club, rules__variant=PREFERANS["variant"]).count()
    out.write_text(
        json.dumps(
            {
                "club": club.pk,
                "season": season.pk,
                "evenings": evenings,
                "preferans_evenings": preferans // (ROUNDS * TABLES),
            }
        )
    )


@contextmanager
def bench_database_created() -> Iterator[tuple[str, bool]]:
    """A fresh bench database (dropped afterwards), to be migrated and seeded."""
    with bench_database() as url:
        yield url, True


def database_name(name: str) -> str:
    """``--database``: letters, digits and underscores (it goes into SQL as it is)."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise argparse.ArgumentTypeError(f"not a plain database name: {name!r}")
    return name


@contextmanager
def kept_database(name: str, env: dict[str, str]) -> Iterator[tuple[str, bool]]:
    """The database ``name`` on ``BENCH_PG_URL``, created when missing (never dropped); and
    whether it was created (so needs migrating and seeding)."""
    admin = f"{PG_URL}/postgres"
    query = f"SELECT 1 FROM pg_database WHERE datname = '{name}'"
    exists = run(["psql", admin, "-tAc", query], env).strip() == "1"
    if not exists:
        run(["psql", admin, "-qc", f'CREATE DATABASE "{name}"'], env)
    yield f"{PG_URL}/{name}", not exists


def measure_recompute(out: Path, season_id: int) -> None:
    """Time the season's recomputation and the ratings replay in this process."""
    import django

    django.setup()
    from clubs.models import Season
    from clubs.services import seasons

    standings, ratings = [], []
    club_id = Season.objects.get(pk=season_id).club_id
    for _ in range(5):
        started = time.perf_counter()
        season = Season.objects.select_related("club").get(pk=season_id)
        table, people = seasons.compute_standings(season)
        seasons.store_standings(season, table, people)
        standings.append(time.perf_counter() - started)
        started = time.perf_counter()
        seasons.ratings_recompute(club_id=club_id)
        ratings.append(time.perf_counter() - started)
    rows = Season.objects.get(pk=season_id).standings.count()
    out.write_text(json.dumps({"standings": standings, "ratings": ratings, "rows": rows}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=12)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--preferans-every", type=int, default=PREFERANS_EVERY)
    parser.add_argument("--evenings", type=int, default=EVENINGS, help="evenings to seed")
    parser.add_argument(
        "--database",
        type=database_name,
        help="keep the seeded database under this name: seeded when missing, reused as it "
        "is when present (drop it with dropdb when done)",
    )
    parser.add_argument("--only", choices=("recompute", "standings"))
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--seed", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--season", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ids", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        seed(args.seed)
        return
    if args.measure:
        measure_recompute(args.measure, args.season)
        return
    if args.ids:
        seeded_ids(args.ids)
        return
    web = configs()["web"]
    database = (
        kept_database(args.database, base_env("")) if args.database else bench_database_created()
    )
    with tempfile.TemporaryDirectory(prefix="clubs-bench-") as tmp, database as (db_url, fresh):
        workdir = Path(tmp)
        try:
            env = {
                **base_env(db_url),
                "CLUBS_BENCH_PREFERANS_EVERY": str(args.preferans_every),
                "CLUBS_BENCH_EVENINGS": str(args.evenings),
                "CELERY_BROKER_URL": "",
            }
            seeded: float | None = None
            if fresh:
                run([PYTHON, "manage.py", "migrate", "--noinput"], env)
                started = time.monotonic()
                run([PYTHON, __file__, "--seed", str(workdir / "seed.json")], env)
                seeded = time.monotonic() - started
                print(f"seeded in {seeded:.0f} s", flush=True)
            else:
                print(f"reusing database {args.database} as it is", flush=True)
            run([PYTHON, __file__, "--ids", str(workdir / "ids.json")], env)
            data = json.loads((workdir / "ids.json").read_text())
            timing: dict[str, Any] | None = None
            if args.only != "standings":
                figures = workdir / "recompute.json"
                run(
                    [PYTHON, __file__, "--measure", str(figures), "--season", str(data["season"])],
                    env,
                )
                timing = json.loads(figures.read_text())
                print("recompute (s):", timing, flush=True)
                # The recomputes rewrote the standings and ratings: vacuum now, as autovacuum
                # would soon after, rather than during the reads measured next.
                run(["psql", db_url, "-qc", "VACUUM ANALYZE"], env)
            floor = standings = None
            if args.only != "recompute":
                common = {"seconds": args.seconds, "connections": args.connections}
                url = f"/api/v1/clubs/{data['club']}/seasons/{data['season']}/standings/"
                with server(web.name, web.command, web.env, db_url, workdir):
                    floor = median_of(
                        [
                            wrk("healthz", "web", ["GET\t/healthz\t\t"], workdir, **common)
                            for _ in range(args.repeats)
                        ]
                    )
                    standings = median_of(
                        [
                            wrk("standings", "web", [f"GET\t{url}\t\t"], workdir, **common)
                            for _ in range(args.repeats)
                        ]
                    )
                print(
                    f"healthz {floor.rps:,.0f} req/s (runs {floor.runs}), standings "
                    f"{standings.rps:,.0f} req/s (runs {standings.runs}): "
                    f"{standings.rps / floor.rps if floor.rps else 0:.2f} x floor",
                    flush=True,
                )
        finally:
            stop_all()
    evenings, preferans_evenings = data["evenings"], data["preferans_evenings"]
    if timing is None or floor is None or standings is None:
        return  # a partial run: the figures are printed above
    s_med = statistics.median(timing["standings"])
    r_med = statistics.median(timing["ratings"])
    ratio = standings.rps / floor.rps if floor.rps else 0.0
    every = evenings // preferans_evenings if preferans_evenings else 0  # as seeded
    preferans = (
        f"every {every}th evening Russian Preferans ({preferans_evenings * ROUNDS * TABLES} "
        "tables keeping a pulya, settled into whists per table by the standings)"
        if every
        else "no Preferans evening (`--preferans-every 0`)"
    )
    runs = ", ".join(f"{x * 1000:.0f}" for x in timing["standings"])
    body = "\n".join(
        [
            f"A club of {MEMBERS} members, {evenings} evenings × {ROUNDS} rounds × {TABLES} "
            f"tables × {HANDS} hands = {evenings * ROUNDS * TABLES * HANDS:,} recorded hands "
            f"({timing['rows']} standings rows); {preferans}; "
            + (f"seeded in {seeded:.0f} s." if seeded is not None else "seeded by an earlier run."),
            "",
            "| measure | figure | target | met |",
            "| --- | --- | --- | --- |",
            f"| season standings recomputed (load, compute, store; median of 5) | "
            f"{s_med * 1000:.0f} ms (runs {runs}) "
            f"| ≤ 500 ms | {'yes' if s_med <= 0.5 else 'no'} |",
            f"| club ratings replayed and stored ({evenings * ROUNDS * TABLES} sittings) | "
            f"{r_med * 1000:.0f} ms | — | — |",
            f"| floor `GET /healthz` | {floor.rps:,.0f} req/s, p95 {floor.p95:.1f} ms | — | — |",
            f"| `GET …/standings/` ({timing['rows']} rows) | {standings.rps:,.0f} req/s, "
            f"p95 {standings.p95:.1f} ms, {standings.non_2xx} non-2xx | ≥ 0.3 × floor | "
            f"{ratio:.2f} × floor: {'yes' if ratio >= 0.3 else 'no'} |",
            "",
            f"Server: the Makefile's WEB_CMD (gunicorn gthread), PostgreSQL, wrk with "
            f"{args.connections} connections, {args.repeats} runs of {args.seconds} s per row "
            "(medians).",
        ]
    )
    print(body)
    if not args.no_write and evenings == FULL_EVENINGS:
        write_section("clubs", "Clubs: season standings (issue 8)", body)


if __name__ == "__main__":
    main()
