"""Closing a club evening: every table closes (its pot_at_close applied) and each player's
net over the whole evening is settled, exact to the cent, the pot a party when it holds
money; JSON and CSV."""

from __future__ import annotations

import csv
import io
import random

import pytest

from clubs.models import Evening, Guest
from games import services as games
from games.models import Table
from tests.clubs.evening_setup import a_season, evening_table, record
from tests.clubs.world import ClubWorld, build_club_world

# Committed rows (the hooks run on commit) and the tasks they send run in this process, even
# when a broker is configured: the worker's own test is test_evening_services.py.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def world() -> ClubWorld:
    w = build_club_world()
    a_season(w)
    return w


def evening_with_tables(w: ClubWorld, seed: int) -> list[Table]:
    """Two rounds: the same six players at two tables each round, shuffled."""
    guests = [Guest.objects.create(club=w.club, name=n) for n in ("Gustav", "Helga")]
    people = [w.users[r] for r in ("member", "scorer", "admin", "owner")] + guests
    rng = random.Random(seed)
    tables = []
    for rnd in range(2):
        rng.shuffle(people)
        for t in range(2):
            table = evening_table(w, people[3 * t : 3 * t + 3], f"R{rnd + 1}T{t + 1}")
            record(w, table, rng.randint(3, 9), rng)
            tables.append(table)
    return tables


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_closing_settles_every_players_evening_net_exactly(world: ClubWorld, seed: int) -> None:
    tables = evening_with_tables(world, seed)
    url = f"/api/v1/clubs/{world.club.pk}/evenings/{world.evening.pk}/"
    answer = world.client("admin").post(url + "close/")
    assert answer.status_code == 200, answer.json()
    settlement = answer.json()
    assert settlement["final"] is True
    assert all(Table.objects.get(pk=t.pk).status == Table.Status.CLOSED for t in tables)
    nets = {row["player"]: row["net"] for row in settlement["players"]}
    # each net is the sum of that player's seat balances over the evening's tables
    expected: dict[str, int] = {}
    for table in tables:
        balances = games.table_balances(Table.objects.get(pk=table.pk))
        for seat in table.seats.all():
            player = f"u:{seat.user_id}" if seat.user_id else f"g:{seat.guest_id}"
            expected[player] = expected.get(player, 0) + balances[seat.key]
    assert nets == expected
    # the payments meet every net exactly, and players and pot sum to zero
    assert sum(nets.values()) + settlement["pot_net"] == 0
    paid = dict.fromkeys([*nets, "pot"], 0)
    for p in settlement["payments"]:
        paid[p["from"]] -= p["amount"]
        paid[p["to"]] += p["amount"]
        assert p["amount"] > 0 and " pays " in p["sentence"]
    assert {k: v for k, v in paid.items() if k != "pot"} == nets
    assert paid["pot"] == settlement["pot_net"]
    assert len(settlement["payments"]) <= len(nets)  # at most n - 1 with the pot a party
    evening = Evening.objects.get(pk=world.evening.pk)
    assert evening.status == Evening.Status.CLOSED
    assert world.client("member").get(url + "settlement/").json() == settlement


@pytest.mark.parametrize("how", ["file", "file accepting csv", "query"])
def test_the_settlement_comes_as_csv(world: ClubWorld, how: str) -> None:
    """``…/settlement.csv`` is the documented operation; ``?format=csv`` on the JSON one
    still answers CSV for API 1.1.0 clients."""
    evening_with_tables(world, 4)
    url = f"/api/v1/clubs/{world.club.pk}/evenings/{world.evening.pk}/settlement/"
    provisional = world.client("member").get(url).json()
    assert provisional["final"] is False
    member = world.client("member")
    if how == "query":
        answer = member.get(url + "?format=csv")
    else:
        accept = {"Accept": "text/csv"} if how == "file accepting csv" else {}
        answer = member.get(url.removesuffix("/") + ".csv", headers=accept)
        assert answer["Content-Disposition"].endswith(
            f'filename="evening-{world.evening.pk}-settlement.csv"'
        )
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0] == ["from", "to", "amount", "sentence"]
    sentences = [r[3] for r in rows[1:] if len(r) == 4]
    assert sentences == [p["sentence"] for p in provisional["payments"]]


def test_a_hand_awaiting_confirmation_keeps_the_whole_evening_open(world: ClubWorld) -> None:
    tables = evening_with_tables(world, 5)
    Table.objects.filter(pk=tables[-1].pk).update(requires_confirmation=True)
    from tests.clubs.evening_setup import random_entry

    games.table_record_hand(
        table_id=tables[-1].pk,
        user=world.users["owner"],
        entry=random_entry(tables[-1], random.Random(1)),
    )
    url = f"/api/v1/clubs/{world.club.pk}/evenings/{world.evening.pk}/close/"
    answer = world.client("owner").post(url)
    assert answer.status_code == 409, answer.json()
    assert "awaits confirmation" in answer.json()["message"]
    assert Table.objects.filter(pk__in=[t.pk for t in tables], status="closed").count() == 0
    assert Evening.objects.get(pk=world.evening.pk).status == Evening.Status.SCHEDULED


def test_the_evening_settlement_says_its_payments_are_proven_fewest(world: ClubWorld) -> None:
    evening_with_tables(world, 5)
    url = f"/api/v1/clubs/{world.club.pk}/evenings/{world.evening.pk}/"
    assert world.client("member").get(url + "settlement/").json()["payments_proven"] is True
    closed = world.client("admin").post(url + "close/").json()
    assert closed["payments_proven"] is True
    # an evening closed before the field existed does not say
    stored = Evening.objects.get(pk=world.evening.pk).settlement
    del stored["payments_proven"]
    Evening.objects.filter(pk=world.evening.pk).update(settlement=stored)
    assert world.client("member").get(url + "settlement/").json()["payments_proven"] is None
