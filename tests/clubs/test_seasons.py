"""Season standings and club ratings, computed by the worker's task (in-process here: no
broker) from the hands recorded at the club's evening tables."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from clubs import ratings as rating_core
from clubs.models import Club, Guest, Rating, RatingChange, Season, SeasonStanding
from clubs.services import rounds, seasons
from games import services as games
from games.errors import TableConflict
from games.models import Table
from tests.clubs.evening_setup import (
    a_season,
    an_evening_of,
    evening_table,
    random_entry,
    record,
)
from tests.clubs.world import ClubWorld, build_club_world

# Committed rows (the hooks run on commit) and the tasks they send run in this process, even
# when a broker is configured: the worker's own test is test_evening_services.py.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def world() -> ClubWorld:
    w = build_club_world()
    a_season(w)
    return w


def two_tables(w: ClubWorld) -> tuple[Table, Table]:
    guests = [Guest.objects.create(club=w.club, name=n) for n in ("Gustav", "Helga")]
    u = w.users
    first = evening_table(w, [u["member"], u["scorer"], u["admin"]], "Tisch 1")
    second = evening_table(w, [u["owner"], *guests], "Tisch 2")
    return first, second


def stored(season_id: int) -> list[dict[str, Any]]:
    return list(
        SeasonStanding.objects.filter(season_id=season_id)
        .order_by("position")
        .values(
            "player",
            "rank",
            "balance",
            "hands_played",
            "declared",
            "made",
            "premium_games",
            "evenings",
            "sittings",
        )
    )


def fresh(season_id: int) -> list[dict[str, Any]]:
    table, _ = seasons.compute_standings(Season.objects.get(pk=season_id))
    keys = ("player", "rank", "balance", "hands_played", "declared", "made", "premium_games")
    return [
        {**{k: getattr(r, k) for k in keys}, "evenings": r.evenings, "sittings": r.sittings}
        for r in table.rows
    ]


def test_standings_follow_the_hands_recorded_at_the_evening_tables(world: ClubWorld) -> None:
    first, second = two_tables(world)
    rng = random.Random(1)
    record(world, first, 8, rng)
    record(world, second, 5, rng)
    season = Season.objects.get(pk=world.extra["season"])
    assert season.computed_version == season.requested_version > 0
    rows = {r["player"]: r for r in stored(season.pk)}
    for table in (first, second):
        balances = games.table_balances(table)
        for seat in table.seats.all():
            player = f"u:{seat.user_id}" if seat.user_id else f"g:{seat.guest_id}"
            assert rows[player]["balance"] == balances[seat.key]
            assert rows[player]["hands_played"] == table.hands.count()
    assert [r["rank"] for r in stored(season.pk)] == sorted(r["rank"] for r in rows.values())
    assert sum(r["balance"] for r in rows.values()) == -sum(
        games.table_balances(t)["pot"] for t in (first, second)
    )


def test_after_a_long_random_run_of_entries_and_corrections_the_stored_table_is_exact(
    world: ClubWorld,
) -> None:
    first, second = two_tables(world)
    rng = random.Random(7)
    owner = world.users["owner"]
    for step in range(70):
        table = rng.choice((first, second))
        count = table.hands.count()
        roll = rng.random()
        try:
            if count < 3 or roll < 0.6:
                games.table_record_hand(
                    table_id=table.pk, user=owner, entry=random_entry(table, rng)
                )
            elif roll < 0.85:
                number = rng.randint(1, count)
                games.hand_edit(
                    table_id=table.pk,
                    number=number,
                    user=owner,
                    entry=random_entry(table, rng, number),
                )
            else:
                games.hand_delete(table_id=table.pk, number=rng.randint(1, count), user=owner)
        except TableConflict:
            pass  # a correction that would leave a later hand unsettled is refused whole
        if step % 10 == 9:
            assert stored(world.extra["season"]) == fresh(world.extra["season"])
    assert stored(world.extra["season"]) == fresh(world.extra["season"])
    assert SeasonStanding.objects.filter(season_id=world.extra["season"]).count() == 6


def test_fifty_changes_in_a_burst_are_computed_once(world: ClubWorld) -> None:
    season = Season.objects.get(pk=world.extra["season"])
    before = season.computations
    with transaction.atomic():
        for _ in range(50):
            seasons.season_request_recompute(season_id=season.pk)
    season.refresh_from_db()
    assert season.computed_version == season.requested_version
    assert season.computations == before + 1


def test_only_the_task_for_the_newest_version_computes_and_only_once(world: ClubWorld) -> None:
    Season.objects.filter(pk=world.extra["season"]).update(requested_version=3)
    season_id = world.extra["season"]
    assert not seasons.season_recompute(season_id=season_id, version=2)  # a newer one comes
    assert seasons.season_recompute(season_id=season_id, version=3)
    assert not seasons.season_recompute(season_id=season_id, version=3)  # run twice: no-op
    season = Season.objects.get(pk=season_id)
    assert (season.computed_version, season.computations) == (3, 1)


def test_a_steady_stream_of_changes_still_gets_standings(world: ClubWorld) -> None:
    """Entries faster than STANDINGS_COALESCE_SECONDS: every task runs after the next change
    was requested. Waiting for the newest request would compute nothing while they keep
    coming; the first task after each computation computes, so every other one does."""
    season_id = world.extra["season"]
    now = Season.objects.get(pk=season_id).requested_version
    Season.objects.filter(pk=season_id).update(requested_version=now, computed_version=now)
    computed = 0
    for step in range(1, 21):
        Season.objects.filter(pk=season_id).update(requested_version=now + step)
        if step > 1:  # the task for the previous request runs now
            computed += seasons.season_recompute(season_id=season_id, version=now + step - 1)
    season = Season.objects.get(pk=season_id)
    assert computed == 10
    assert season.requested_version - season.computed_version <= 1
    assert season.computations >= 10


def test_league_points_rank_the_season_when_configured(world: ClubWorld) -> None:
    first, second = two_tables(world)
    record(world, first, 6, random.Random(3))
    season = Season.objects.get(pk=world.extra["season"])
    seasons.season_update(user=world.users["owner"], season=season, league_points={"3": [3, 2, 1]})
    rows = list(SeasonStanding.objects.filter(season=season).order_by("position"))
    points = [r.league_points for r in rows if r.league_points is not None]
    assert points == sorted(points, reverse=True)
    assert sum(points) == 6  # one sitting with hands: 3 + 2 + 1, ties split


@pytest.mark.parametrize("close_order", ["as_seated", "last_first"])
def test_ratings_follow_closed_tables_and_a_full_replay_reproduces_them(
    world: ClubWorld, close_order: str
) -> None:
    first, second = two_tables(world)
    u = world.users
    third = evening_table(world, [u["member"], u["owner"], Guest.objects.get(name="Gustav")])
    rng = random.Random(11)
    for table in (first, second, third):
        record(world, table, 6, rng)
    assert not Rating.objects.exists()  # open tables are not rated yet
    # the third table shares players with both others: the order of updates matters
    order = (first, second, third) if close_order == "as_seated" else (third, second, first)
    for table in order:
        games.table_close(table_id=table.pk, user=world.users["owner"])
    stored_ratings = {
        r.player: (r.mu, r.sigma, r.sittings) for r in Rating.objects.filter(club=world.club)
    }
    assert len(stored_ratings) == 6
    sittings, _ = seasons.club_sittings(world.club.pk)
    replayed = rating_core.replay(sittings)
    counts = {p: sum(p in s.players for s in sittings) for p in replayed.current}
    assert stored_ratings == {
        str(p): (r.mu, r.sigma, counts[p]) for p, r in replayed.current.items()
    }
    assert RatingChange.objects.filter(club=world.club).count() == 9
    # incremental updates, one sitting at a time, give the same floats
    step = rating_core.start()
    for sitting in sorted(sittings, key=lambda s: (s.at, s.key)):
        step = rating_core.update(step, sitting)
    assert {str(p): (r.mu, r.sigma) for p, r in step.current.items()} == {
        p: v[:2] for p, v in stored_ratings.items()
    }


def test_the_standings_endpoint_answers_with_as_of_and_version(world: ClubWorld) -> None:
    first, _ = two_tables(world)
    record(world, first, 4, random.Random(5))
    client = world.client("member")
    url = f"/api/v1/clubs/{world.club.pk}/seasons/{world.extra['season']}/standings/"
    body = client.get(url).json()
    assert body["up_to_date"] is True and body["as_of"] is not None
    assert body["version"] == body["requested_version"]
    assert [row["rank"] for row in body["rows"]][:1] == [1]
    assert {row["player"] for row in body["rows"]} >= {
        f"u:{world.users[r].pk}" for r in ("member", "scorer", "admin")
    }
    assert world.client("outsider").get(url).status_code == 404


def test_a_merged_guest_counts_for_the_member(world: ClubWorld) -> None:
    _, second = two_tables(world)
    record(world, second, 4, random.Random(9))
    gustav = Guest.objects.get(name="Gustav")
    Guest.objects.filter(pk=gustav.pk).update(merged_into=world.users["member"])
    seasons.season_recompute(season_id=world.extra["season"])
    players = {r["player"] for r in stored(world.extra["season"])}
    assert f"g:{gustav.pk}" not in players
    assert f"u:{world.users['member'].pk}" in players


def test_the_standings_endpoint_shows_each_new_computation(world: ClubWorld) -> None:
    first, _ = two_tables(world)
    client = world.client("member")
    url = f"/api/v1/clubs/{world.club.pk}/seasons/{world.extra['season']}/standings/"
    seen = []
    for _ in range(3):
        record(world, first, 2, random.Random(len(seen)))
        body = client.get(url).json()
        assert body["version"] not in seen
        seen.append(body["version"])
        fields = [f for f in body["rows"][0] if f != "league_points"]
        assert [{k: r[k] for k in fields} for r in body["rows"]] == list(
            SeasonStanding.objects.filter(season_id=world.extra["season"])
            .order_by("position")
            .values(*fields)
        )


def test_a_client_that_has_the_standings_gets_a_304_until_they_change(world: ClubWorld) -> None:
    first, _ = two_tables(world)
    record(world, first, 2, random.Random(1))
    client = world.client("member")
    url = f"/api/v1/clubs/{world.club.pk}/seasons/{world.extra['season']}/standings/"
    answer = client.get(url)
    etag = answer["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    record(world, first, 1, random.Random(2))
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["version"] > answer.json()["version"]
    outsider = world.client("outsider").get(url, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert outsider.status_code == 404  # the ETag never tells a private club's state


def test_reading_the_standings_again_is_one_query(
    world: ClubWorld, django_assert_num_queries: Any, settings: Any
) -> None:
    """Phones poll the standings: once a computation's answer is kept, an anonymous read of
    a public club's standings is the one plain query for the season (every column the answer
    and its ETag use, ``score_unit`` and ``by_score`` included: a deferred column would cost a
    query per read; a private club's adds the caller's membership), while the process keeps
    the names the public reads (``PUBLIC_POLL_CACHE_SECONDS``; then one query more)."""
    settings.PUBLIC_POLL_CACHE_SECONDS = 60
    first, _ = two_tables(world)
    record(world, first, 2, random.Random(1))
    Club.objects.filter(pk=world.club.pk).update(is_public=True)
    client = APIClient()
    url = f"/api/v1/clubs/{world.club.pk}/seasons/{world.extra['season']}/standings/"
    assert client.get(url).status_code == 200
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200


def test_beat_computes_standings_whose_task_was_lost(world: ClubWorld) -> None:
    """A request whose task never reached a worker (the broker was down, a worker died holding
    it) leaves the season behind; beat's kick sends it again, and then nothing more."""
    from clubs.tasks_seasons import kick_stale_standings

    season_id = world.extra["season"]
    Season.objects.filter(pk=season_id).update(requested_version=5, computed_version=2)
    assert seasons.seasons_pending() == [(season_id, 5)]
    assert kick_stale_standings() == 1
    season = Season.objects.get(pk=season_id)
    assert season.computed_version == season.requested_version == 5
    assert stored(season_id) == fresh(season_id)
    assert seasons.seasons_pending() == []
    assert kick_stale_standings() == 0


def test_closing_an_evening_asks_for_its_seasons_standings_in_the_same_commit() -> None:
    """The close moves money (each table's score paid at its price): from the close's commit
    the season's standings read as not up to date until the worker has counted it, so a phone
    that reads them right after closing never takes the old balances for final."""
    w = build_club_world()
    tables = an_evening_of(
        w, {"variant": "preferans", "convention": "rostov", "pool_target": 20, "whist_value": 5}
    )
    rng = random.Random(3)
    for table in tables:
        record(w, table, 3, rng)
    season_id = w.extra["season"]
    with transaction.atomic():
        rounds.evening_close(user=w.users["owner"], evening_id=w.evening.pk)
        season = Season.objects.get(pk=season_id)
        assert season.requested_version > season.computed_version
    season = Season.objects.get(pk=season_id)
    assert season.computed_version == season.requested_version
    assert stored(season_id) == fresh(season_id)
    assert any(row["balance"] for row in stored(season_id))
