"""A club evening of every registered rule set: the club's default rules name it, the round
seats the checked-in players at the rule set's table shapes, the tables record score-sheet
entries the engine's random bot writes, the season standings follow the ledger, and closing
the evening settles every player's net exactly. Parametrised over ``engine.rule_sets()``."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from clubs.models import Season
from games import services as games
from games.models import Table
from tests.clubs.evening_setup import an_evening_of, record
from tests.clubs.test_seasons import stored
from tests.clubs.world import ClubWorld, build_club_world
from tests.rule_sets import every_rule_set

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


@every_rule_set()
def test_an_evening_of_each_rule_set_seats_records_ranks_and_settles(
    rs: engine.RuleSet[Any, Any, Any],
) -> None:
    w: ClubWorld = build_club_world()
    tables = an_evening_of(w, rs.examples[0])
    assert tables
    rng = random.Random(3)
    for table in tables:
        assert table.rules == engine.parse_rules(rs.examples[0]).to_json()
        assert table.seats.count() in rs.table.seats
        record(w, table, 4, rng)

    season = Season.objects.get(pk=w.extra["season"])
    rows = {r["player"]: r for r in stored(season.pk)}
    expected: dict[str, int] = {}
    for table in tables:
        balances = games.table_balances(Table.objects.get(pk=table.pk))
        for seat in table.seats.all():
            player = f"u:{seat.user_id}" if seat.user_id else f"g:{seat.guest_id}"
            expected[player] = expected.get(player, 0) + balances[seat.key]
            assert rows[player]["hands_played"] == 4
    assert {p: r["balance"] for p, r in rows.items()} == expected

    url = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/"
    closed = w.client("admin").post(url + "close/")
    assert closed.status_code == 200, closed.json()
    settlement = closed.json()
    nets = {row["player"]: row["net"] for row in settlement["players"]}
    assert nets == expected
    assert sum(nets.values()) + settlement["pot_net"] == 0
