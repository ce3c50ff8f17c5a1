"""A club evening of Russian Preferans (issue 26): two tables of three keep a pulya each; the
season standings rank the players by whists (each pulya settled, §11, as it stands), the
evening's settlement shows the whists beside the money, and closing the evening settles each
pulya into money at its whist price through the ledger. The whists are checked against the
engine's own settlement of the same deals as one pulya record (``python -m engine settle``)."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest

import engine
from clubs.models import Season
from games import services as games
from games.models import LedgerEntry, Table
from games.random_entries import random_entry
from tests.clubs.evening_setup import an_evening_of
from tests.clubs.world import ClubWorld, build_club_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

WHIST_VALUE = 10
RULES = {
    "variant": "preferans",
    "convention": "sochi",
    "pool_target": 20,
    "whist_value": WHIST_VALUE,
}
DEALS = 6


def player_of(seat: Any) -> str:
    return f"u:{seat.user_id}" if seat.user_id else f"g:{seat.guest_id}"


def play_evening(w: ClubWorld) -> tuple[list[Table], dict[str, int]]:
    """Seat six players at two Preferans tables and record ``DEALS`` random deals at each; the
    whists each player's pulya settles into, by the engine's settlement of the same deals."""
    tables = an_evening_of(w, RULES)
    owner = w.users["owner"]
    assert [t.seats.count() for t in tables] == [3, 3]
    rng = random.Random(26)
    whists: dict[str, int] = {}
    for table in tables:
        entries = []
        for _ in range(DEALS):
            entry = random_entry(table, rng)
            games.table_record_hand(table_id=table.pk, user=owner, entry=entry)
            entries.append(entry)
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        first = table.hands.get(number=1)
        pulya = engine.settle(
            {
                "rules": table.rules,
                "seats": [s.key for s in seats],
                "dealer": first.dealer,
                "deals": entries,
            }
        )
        assert not pulya["game_over"]
        for seat in seats:
            whists[player_of(seat)] = pulya["settlement"]["result"][seat.key]
    return tables, whists


def test_a_preferans_evening_ranks_by_whists_and_settles_each_pulya_into_money() -> None:
    w = build_club_world()
    tables, whists = play_evening(w)
    assert sum(whists.values()) == 0
    assert any(whists.values()), "six random deals should move some whists"
    season = Season.objects.get(pk=w.extra["season"])
    standings_url = f"/api/v1/clubs/{w.club.pk}/seasons/{season.pk}/standings/"
    evening_url = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/"

    # while the tables are open: whists as the pulyas stand, no money has moved
    answer = w.client("member").get(standings_url).json()
    assert answer["ranked_by"] == "score"
    assert answer["score_unit"] == "whists"
    rows = answer["rows"]
    assert {r["player"]: r["score"] for r in rows} == whists
    assert {r["balance"] for r in rows} == {0}
    assert [r["score"] for r in rows] == sorted(whists.values(), reverse=True)
    assert all(r["hands_played"] == DEALS for r in rows)
    assert sum(r["declared"] for r in rows) <= 2 * DEALS
    provisional = w.client("member").get(evening_url + "settlement/").json()
    assert provisional["score_unit"] == "whists"
    assert {p["player"]: p["score"] for p in provisional["players"]} == whists
    assert provisional["payments"] == []

    # closing the evening closes each table: each pulya is paid at its whist price
    closed = w.client("admin").post(evening_url + "close/")
    assert closed.status_code == 200, closed.json()
    settlement = closed.json()
    nets = {p["player"]: p["net"] for p in settlement["players"]}
    assert nets == {p: v * WHIST_VALUE for p, v in whists.items()}
    assert {p["player"]: p["score"] for p in settlement["players"]} == whists
    assert settlement["pot_net"] == 0
    paid: dict[str, int] = dict.fromkeys(nets, 0)
    names = {p["player"]: p["name"] for p in settlement["players"]}
    by_name = {v: k for k, v in names.items()}
    for payment in settlement["payments"]:
        paid[by_name[payment["from_name"]]] -= payment["amount"]
        paid[by_name[payment["to_name"]]] += payment["amount"]
    assert paid == nets
    for table in tables:
        score_rows = LedgerEntry.objects.filter(table=table, reason=LedgerEntry.Reason.SCORE)
        assert sum(e.amount for e in score_rows) == sum(
            max(0, whists[player_of(s)]) * WHIST_VALUE for s in table.seats.all()
        )
        closing = Table.objects.get(pk=table.pk).closing
        assert closing["score_unit"] == "whists"
        assert closing["scores"] == {s.key: whists[player_of(s)] for s in table.seats.all()}

    # the season after the close: still ranked by whists, the money beside them
    after = w.client("member").get(standings_url).json()
    assert {r["player"]: (r["score"], r["balance"]) for r in after["rows"]} == {
        p: (v, v * WHIST_VALUE) for p, v in whists.items()
    }


def test_the_evenings_settlement_csv_has_a_whists_column() -> None:
    w = build_club_world()
    _, whists = play_evening(w)
    url = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/settlement.csv"
    rows = list(csv.reader(io.StringIO(w.client("member").get(url).content.decode())))
    header = rows.index(["player", "net", "whists"])
    players = rows[header + 1 :]
    assert len(players) == len(whists)
    assert sorted(int(row[2]) for row in players) == sorted(whists.values())
