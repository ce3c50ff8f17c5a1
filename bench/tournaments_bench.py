"""Tournaments benchmark: a 200-player, 10-round tournament, its standings and next seating.

    python bench/tournaments_bench.py [--seconds 12] [--connections 32] [--repeats 3] [--no-write]

A fresh PostgreSQL database (dropped at the end) gets a running tournament of 200 checked-in
players: 10 closed rounds, each seated at random into the tables ``round_sizes`` gives (64
tables of 3 and 2 of 4), 24 recorded hands a table: 15,840 hands, each a random hand played
out by the engine's random bot and settled by the engine (written in bulk: the seed measures
nothing). The format is the issue's: table-rank scoring, tiebreaks ``declarer_wins``,
``best_round``, ``head_to_head``, ``average_opponent``, ``lots``, fewest-repeats seating and 11
rounds planned, so an 11th can be seated. Then:

- ``recompute``: ``tournament_recompute`` in-process (load every hand, compute, store the 200
  rows), median of 5, for table-rank and balance scoring (target ≤ 0.5 s), with its parts
  (``inputs``, ``scoring.standings``, ``store``) timed apart;
- ``seating``: round 11 planned with fewest repeats (``plan_round``, median of 3; target
  ≤ 1 s), and ``round_seat_run`` once (plan and create the 66 games tables in one
  transaction);
- ``standings``: ``GET /api/v1/tournaments/{id}/standings/`` (anonymous, 200 rows) on the
  Makefile's WEB_CMD with wrk, next to the bare ``/healthz`` floor of the same server and the
  same concurrency (targets ≥ 0.3 × floor, p95 ≤ 25 ms), and its 304 answer to
  ``If-None-Match`` with the current ETag (target ≥ 0.6 × floor).

Only loopback addresses; every process it starts is stopped before it exits.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games_bench import (  # noqa: E402
    HOST,
    LUA,
    PORT,
    PYTHON,
    Result,
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

PLAYERS, ROUNDS, DEALS, NEXT_ROUND = 200, 10, 24, 11
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 300}
TIEBREAKS = ["declarer_wins", "best_round", "head_to_head", "average_opponent", "lots"]
NEXT_SEED = 20261111
ANALYSIS = """
Where the time goes (written by hand into the script's `ANALYSIS` from in-process timings and
cProfile on the same seeded data; re-check after a change to the services):

- Standings endpoint. The first version read the tournament through the ORM on every request
  (1.56 ms of a 2.1 ms answer in Django's test client; `/healthz` 0.22 ms) and went through
  DRF's request cycle: 0.14 × floor for the 200, 0.19 × for the 304, p95 216 ms (with a test
  suite running beside it). Now an anonymous GET on a listed tournament is answered before
  DRF's cycle (`StandingsView.dispatch`), the tournament's few polled columns come from one
  plain query, and a process keeps them `PUBLIC_POLL_CACHE_SECONDS` (1 s): however many
  phones poll, each process reads the tournament at most once a second, and the body is
  rendered once per computation. Signed-in callers and every error take DRF's way.
- The runs of one row differ mostly by how gunicorn's 3 gthread workers happened to share the
  32 keep-alive connections when a run started: a run where one worker holds most of them
  runs at about half speed (e.g. one 304 run at 1,431 req/s among four at 3,100 to 3,400),
  which is why each row is the median of interleaved runs.
- Recompute: `inputs()` (120 to 160 ms) is mostly the hands query (PostgreSQL 16 ms; Django
  decoding `result__delta` for each of the 15,840 hands about 35 ms) and the Python loop over
  the hands; the round links now load only the round number. `scoring.standings` fell from
  105 ms (table rank) and 190 ms (balance) to about 55 to 60 ms: tiebreaks that do not depend
  on the tied group are computed once for every player instead of once per group (with
  balance scoring nearly every group is one player), `head_to_head` is 0 for a player alone
  without scanning the sittings, and rounds played are counted in one pass. `store` 25 ms.
- Seating round 11 with fewest repeats plans the remaining round with the 10 played rounds
  fixed (about 170 ms, reaching the lower bound); creating its 66 games tables in the same
  transaction brings the whole task to about 450 ms.
"""
# wrk_requests.lua with an If-None-Match header on every request it formats.
IF_NONE_MATCH_LUA = """\
local format = wrk.format
wrk.format = function(method, path, headers, body)
  headers = headers or {{}}
  headers["If-None-Match"] = [[{etag}]]
  return format(method, path, headers, body)
end
dofile([[{lua}]])
"""


def seed(out: Path) -> None:
    """Build the tournament in the bench database; write its ids and counts to ``out``."""
    import django

    django.setup()
    import datetime as dt

    from django.db import transaction
    from django.db.models import prefetch_related_objects
    from django.utils import timezone

    import engine
    from clubs.models import User
    from games import services
    from games.models import Hand, LedgerEntry, Table
    from games.random_entries import entry_for
    from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament
    from tournaments.services.rounds import round_sizes, seat_keys

    rng = random.Random(2026)
    now = timezone.now()
    director = User.objects.create(username="td", display_name="Tournament director")
    users = User.objects.bulk_create(
        User(username=f"p{i:03d}", display_name=f"Player {i:03d}") for i in range(1, PLAYERS + 1)
    )
    t = Tournament.objects.create(
        name="Bench Open",
        slug="bench-open",
        status=Tournament.Status.RUNNING,
        is_public=True,
        rules=engine.parse_rules(RULES).to_json(),
        rounds_planned=NEXT_ROUND,
        deals_per_round=DEALS,
        seating=Tournament.Seating.FEWEST_REPEATS,
        scoring=Tournament.Scoring.TABLE_RANK,
        results=Tournament.Results.RECORDED,
        tiebreaks=TIEBREAKS,
        lots_seed=rng.getrandbits(48),
        created_by=director,
    )
    t.directors.add(director)
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=t,
            user=u,
            name=u.display_name,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=now,
        )
        for u in users
    )
    sizes = round_sizes(len(entries), t)
    start = now - dt.timedelta(hours=3 * ROUNDS)

    hands = ledger_rows = 0
    for number in range(1, ROUNDS + 1):
        at = start + dt.timedelta(hours=3 * (number - 1))
        with transaction.atomic():
            round_seed = rng.getrandbits(48)
            rnd = Round.objects.create(
                tournament=t,
                number=number,
                status=Round.Status.CLOSED,
                seating=Tournament.Seating.RANDOM,
                seed=round_seed,
                plan={"method": "random", "seed": round_seed},
                seated_at=at,
                started_at=at,
                closed_at=at + dt.timedelta(hours=2, minutes=30),
            )
            order = list(entries)
            rng.shuffle(order)
            seats: list[RoundSeat] = []
            rows: list[Hand] = []
            tables: list[Table] = []
            at_seat = 0
            for table_number, size in enumerate(sizes, 1):
                seated = order[at_seat : at_seat + size]
                at_seat += size
                keys = seat_keys(seated)
                table = services.table_create(
                    user=director,
                    name=f"{t.name}: round {number}, table {table_number}",
                    mode=Table.Mode.RECORDED,
                    rules=t.rules,
                    seats=[
                        services.SeatSpec(key=k, kind="user", user=e.user)
                        for k, e in zip(keys, seated, strict=True)
                    ],
                    first_dealer=rng.choice(keys),
                )
                prefetch_related_objects([table], "seats")  # the seat keys of every hand
                tables.append(table)
                link = RoundTable.objects.create(round=rnd, number=table_number, table=table)
                seats.extend(
                    RoundSeat(round=rnd, round_table=link, entry=e, position=i, seat=k)
                    for i, (k, e) in enumerate(zip(keys, seated, strict=True))
                )
                pot = table.opening_pot
                for n in range(1, DEALS + 1):
                    entry = entry_for(table, n, {"pot": pot}, rng)  # wien carries its pot
                    record = {**services.common_part(table, n, {"pot": pot}), **entry}
                    result = engine.settle(record)
                    rows.append(
                        Hand(
                            table=table,
                            number=n,
                            status=Hand.Status.DONE,
                            dealer=record["dealer"],
                            pot_before=pot,
                            entry=entry,
                            result=result,
                            entered_by=director,
                            finished_at=at,
                        )
                    )
                    pot = result["pot"]
            RoundSeat.objects.bulk_create(seats)
            Hand.objects.bulk_create(rows, batch_size=2000)
            ledger = [
                LedgerEntry(
                    table=hand.table,
                    hand=hand,
                    payer=x["from"],
                    payee=x["to"],
                    amount=x["amount"],
                    reason=x["why"],
                )
                for hand in rows
                for x in hand.result["transfers"]
            ]
            LedgerEntry.objects.bulk_create(ledger, batch_size=5000)
            Table.objects.filter(pk__in=[x.pk for x in tables]).update(
                status=Table.Status.CLOSED, closed_at=at + dt.timedelta(hours=2, minutes=30)
            )
            hands += len(rows)
            ledger_rows += len(ledger)
        print(f"round {number}/{ROUNDS}: {hands} hands", flush=True)
    stored = Hand.objects.filter(table__round_link__round__tournament=t).count()
    assert stored == hands == ROUNDS * DEALS * len(sizes), (stored, hands)
    print(f"seeded {stored} hands, {ledger_rows} ledger rows", flush=True)
    out.write_text(
        json.dumps(
            {
                "tournament": t.pk,
                "director": director.pk,
                "hands": stored,
                "ledger": ledger_rows,
                "sizes": sizes,
            }
        )
    )


def _timed(f: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    value = f(*args, **kwargs)
    return time.perf_counter() - started, value


def measure(out: Path, tournament_id: int, director_id: int) -> None:
    """Time the recomputation (whole and in parts) and the seating of the next round in this
    process; leaves the table-rank standings stored and round 11 seated."""
    import django

    django.setup()
    from django.db import transaction

    from tournaments.models import Round, RoundTable, StandingRow, Tournament
    from tournaments.services import rounds, standings

    figures: dict[str, Any] = {"recompute": {}, "parts": {}}
    for method in ("balance", "table_rank"):  # table_rank last: its rows are served
        Tournament.objects.filter(pk=tournament_id).update(scoring=method)
        whole, parts = [], {"inputs": [], "standings": [], "store": []}
        for _ in range(5):
            took, _done = _timed(standings.tournament_recompute, tournament_id=tournament_id)
            whole.append(took)
        for _ in range(5):
            t = Tournament.objects.get(pk=tournament_id)
            took, (sittings, boards, players) = _timed(standings.inputs, t)
            parts["inputs"].append(took)
            took, table = _timed(standings.rank, t, sittings, boards, players)
            parts["standings"].append(took)
            with transaction.atomic():
                took, _none = _timed(standings.store, t, table)
            parts["store"].append(took)
        figures["recompute"][method] = whole
        figures["parts"][method] = parts
    figures["sittings"] = len(sittings)
    figures["rows"] = StandingRow.objects.filter(tournament_id=tournament_id).count()
    figures["computations"] = Tournament.objects.get(pk=tournament_id).computations

    t = Tournament.objects.get(pk=tournament_id)
    players = rounds._players(t, NEXT_ROUND, [])
    planned = Round(
        tournament=t,
        number=NEXT_ROUND,
        status=Round.Status.SEATING,
        seating=Tournament.Seating.FEWEST_REPEATS,
        seed=NEXT_SEED,
    )
    plans = [_timed(rounds.plan_round, t, planned, players) for _ in range(3)]
    tables, how = plans[-1][1]
    _earlier, met = rounds._met(t, NEXT_ROUND)
    figures["plan"] = {
        "runs": [took for took, _plan in plans],
        "how": how,
        "tables": len(tables),
        "players": len(players),
        "pairs_met_twice_before": sum(1 for n in met.values() if n > 1),
        "pairs_met_before": len(met),
    }
    rnd = Round.objects.create(
        tournament=t,
        number=NEXT_ROUND,
        status=Round.Status.SEATING,
        seating=Tournament.Seating.FEWEST_REPEATS,
        seed=NEXT_SEED,
    )
    took, seated = _timed(rounds.round_seat_run, round_id=rnd.pk, user_id=director_id)
    rnd.refresh_from_db()
    assert seated and rnd.status == Round.Status.SEATED, (seated, rnd.status, rnd.error)
    figures["seat_run"] = {
        "seconds": took,
        "tables": RoundTable.objects.filter(round=rnd).count(),
        "repeats": rnd.plan["repeats"],
    }
    out.write_text(json.dumps(figures))


def get(path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request to the bench server: status, headers, body."""
    connection = http.client.HTTPConnection(HOST, PORT, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def wrk_not_modified(path: str, etag: str, workdir: Path, **common: Any) -> Result:
    """wrk over ``GET path`` with ``If-None-Match: etag`` (wrk_requests.lua wrapped so every
    request carries the header)."""
    script = workdir / "wrk_if_none_match.lua"
    script.write_text(IF_NONE_MATCH_LUA.format(etag=etag, lua=LUA))
    return wrk("standings 304", "web", [f"GET\t{path}\t\t"], workdir, script=script, **common)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=12)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--seed", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--tournament", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--director", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        seed(args.seed)
        return
    if args.measure:
        measure(args.measure, args.tournament, args.director)
        return
    web = configs()["web"]
    with tempfile.TemporaryDirectory(prefix="tournaments-bench-") as tmp, bench_database() as db:
        workdir = Path(tmp)
        try:
            env = base_env(db)
            quiet = {**env, "CELERY_BROKER_URL": ""}  # tasks eager, no broker
            run([PYTHON, "manage.py", "migrate", "--noinput"], env)
            started = time.monotonic()
            seed_file = workdir / "seed.json"
            run([PYTHON, __file__, "--seed", str(seed_file)], quiet)
            data = json.loads(seed_file.read_text())
            seeded = time.monotonic() - started
            print(f"seeded {data['hands']:,} hands in {seeded:.0f} s", flush=True)
            figures_file = workdir / "measure.json"
            ids = ["--tournament", str(data["tournament"]), "--director", str(data["director"])]
            run([PYTHON, __file__, "--measure", str(figures_file), *ids], quiet)
            figures = json.loads(figures_file.read_text())
            print("in-process (s):", json.dumps(figures), flush=True)
            common = {"seconds": args.seconds, "connections": args.connections}
            path = f"/api/v1/tournaments/{data['tournament']}/standings/"
            with server(web.name, web.command, web.env, db, workdir):
                status, headers, answer = get(path)
                assert status == 200, (status, answer[:300])
                served = json.loads(answer)
                etag = headers["ETag"]
                check, _headers, empty = get(path, {"If-None-Match": etag})
                assert check == 304 and not empty, (check, empty[:300])
                runs: dict[str, list[Result]] = {"healthz": [], "standings": [], "304": []}
                for _ in range(args.repeats):  # interleaved: each row sees the same machine
                    runs["healthz"].append(
                        wrk("healthz", "web", ["GET\t/healthz\t\t"], workdir, **common)
                    )
                    runs["standings"].append(
                        wrk("standings", "web", [f"GET\t{path}\t\t"], workdir, **common)
                    )
                    runs["304"].append(wrk_not_modified(path, etag, workdir, **common))
                    for name, results in runs.items():
                        r = results[-1]
                        print(
                            f"{name:10} {r.rps:8.0f} req/s  p95 {r.p95:6.1f} ms  "
                            f"{r.statuses} load {r.load:.1f}",
                            flush=True,
                        )
        finally:
            stop_all()
    floor, standings, not_modified = (median_of(runs[k]) for k in ("healthz", "standings", "304"))
    body = report(args, data, seeded, figures, served, len(answer), floor, standings, not_modified)
    print(body)
    if not args.no_write:
        write_section("tournaments", "Tournaments: standings and seating", body)


def report(
    args: argparse.Namespace,
    data: dict[str, Any],
    seeded: float,
    figures: dict[str, Any],
    served: dict[str, Any],
    size: int,
    floor: Result,
    standings: Result,
    not_modified: Result,
) -> str:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:,.0f} ms"

    def each(values: list[float]) -> str:
        return ", ".join(f"{x * 1000:.0f}" for x in values)

    def met(ok: bool) -> str:
        return "yes" if ok else "**no**"

    def wrk_row(what: str, r: Result, target: str, ok: bool | None) -> str:
        ratio = r.rps / floor.rps if floor.rps else 0.0
        statuses = ", ".join(f"{n:,} × {code}" for code, n in r.statuses.items())
        runs = ", ".join(f"{rps:,.0f} / {p95:.1f}" for rps, p95 in r.runs)
        errors = f"; {r.errors}" if r.errors else ""
        return (
            f"| {what} | {r.rps:,.0f} req/s ({ratio:.2f} × floor), p50 {r.p50:.1f} ms, "
            f"p95 {r.p95:.1f} ms, p99 {r.p99:.1f} ms; {statuses}{errors}"
            f"; runs (req/s / p95 ms): {runs}; load {r.load:.1f} "
            f"| {target} | {'—' if ok is None else met(ok)} |"
        )

    sizes = data["sizes"]
    shape = ", ".join(f"{sizes.count(s)} of {s}" for s in sorted(set(sizes)))
    lines = [
        f"A running tournament of {PLAYERS} checked-in players, {ROUNDS} closed rounds × "
        f"{len(sizes)} tables ({shape}) × {DEALS} recorded hands = **{data['hands']:,} hands** "
        f"({data['ledger']:,} ledger rows; {figures['sittings']} sittings), seated at random "
        f"each round; tiebreaks {', '.join(TIEBREAKS)}; seeded in {seeded:.0f} s.",
        "",
        "| measure | figure | target | met |",
        "| --- | --- | --- | --- |",
    ]
    for method in ("table_rank", "balance"):
        whole = figures["recompute"][method]
        parts = {k: statistics.median(v) for k, v in figures["parts"][method].items()}
        median = statistics.median(whole)
        lines.append(
            f"| standings recomputed, `{method}` (`tournament_recompute`: load, compute, store "
            f"{figures['rows']} rows; median of 5) | {ms(median)} (runs {each(whole)}); parts: "
            f"`inputs` {ms(parts['inputs'])}, `scoring.standings` {ms(parts['standings'])}, "
            f"`store` {ms(parts['store'])} | ≤ 500 ms | {met(median <= 0.5)} |"
        )
    plan = figures["plan"]
    how = plan["how"]
    p_med = statistics.median(plan["runs"])
    lines += [
        f"| round {NEXT_ROUND} planned with fewest repeats (`plan_round`, {plan['players']} "
        f"players, {ROUNDS} rounds fixed; median of 3) | {ms(p_med)} (runs {each(plan['runs'])});"
        f" {how['repeats']} repeated pairs, objective {how['objective']} (lower bound "
        f"{how['lower_bound']}, random seating {how['random_objective']}) | ≤ 1 s "
        f"| {met(p_med <= 1.0)} |",
        f"| round {NEXT_ROUND} seated (`round_seat_run`: plan and {figures['seat_run']['tables']} "
        f"games tables in one transaction; once) | {ms(figures['seat_run']['seconds'])} | — | — |",
        wrk_row("floor `GET /healthz`", floor, "—", None),
        wrk_row(
            f"`GET …/standings/` ({len(served['rows'])} rows, {size / 1024:.0f} KiB, anonymous)",
            standings,
            "≥ 0.3 × floor, p95 ≤ 25 ms",
            standings.rps >= 0.3 * floor.rps and standings.p95 <= 25.0,
        ),
        wrk_row(
            "`GET …/standings/` with `If-None-Match` (304)",
            not_modified,
            "≥ 0.6 × floor",
            not_modified.rps >= 0.6 * floor.rps,
        ),
        "",
        f"Before round {NEXT_ROUND}, {plan['pairs_met_before']:,} pairs of players had met, "
        f"{plan['pairs_met_twice_before']:,} of them more than once (random seating).",
        "",
        f"Server: the Makefile's WEB_CMD (gunicorn gthread), PostgreSQL, wrk with "
        f"{args.connections} connections, {args.repeats} runs of {args.seconds} s per row, the "
        "rows interleaved (medians; `load` is the 1-minute load average when the first run "
        "started).",
        ANALYSIS,
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
