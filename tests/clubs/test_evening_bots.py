"""Bots that fill empty seats of a club evening's round when a director asks (issue 28).

Five players cannot sit at Viennese tables of 3 and 4; with one bot they sit at two tables of
three. The bot's table is hosted (dealt and played through the API, the bot moving by itself),
the other stays recorded. A bot is never a player of the club: it is not ranked, rated or
settled as one; what it wins or loses is the club's, a party of its own in the settlement.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, Guest, Season
from clubs.services import seasons
from games import services as games
from games.models import Seat, Table
from tests.clubs.evening_setup import a_season, check_in
from tests.clubs.world import ClubWorld, build_club_world

pytestmark = pytest.mark.django_db

MEMBERS = ("member", "scorer", "admin", "owner")


@pytest.fixture
def world() -> ClubWorld:
    return build_club_world()


def url(w: ClubWorld, rest: str = "") -> str:
    return f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/{rest}"


def plan(w: ClubWorld, **body: Any) -> Any:
    return w.client("admin").post(url(w, "rounds/"), body, format="json")


def five_players(w: ClubWorld) -> None:
    check_in(
        w.evening, *(w.users[r] for r in MEMBERS), Guest.objects.create(club=w.club, name="Gustav")
    )


def test_five_players_are_told_that_a_bot_would_seat_them(world: ClubWorld) -> None:
    five_players(world)
    refused = plan(world)
    assert refused.status_code == 400 and refused.json()["code"] == "unsplittable"
    assert '"bots": 1' in refused.json()["message"]


def test_one_bot_seats_five_players_at_two_tables_and_its_table_is_hosted(
    world: ClubWorld,
) -> None:
    five_players(world)
    planned = plan(world, bots=1)
    assert planned.status_code == 201, planned.json()
    tables = planned.json()["tables"]
    assert sorted(len(t["seats"]) for t in tables) == [3, 3]
    bots = [s for t in tables for s in t["seats"] if s["player"].startswith("b:")]
    assert bots == [{"player": "b:1", "name": "Bot 1 (pimc)"}]  # the strongest wien level
    assert planned.json()["plan"]["bots"] == {"count": 1, "level": "pimc"}

    started = world.client("admin").post(url(world, "rounds/1/start/")).json()
    modes = {}
    for t in started["tables"]:
        table = Table.objects.get(pk=t["table_id"])
        has_bot = any(s["player"] == "b:1" for s in t["seats"])
        modes[has_bot] = table.mode
        if has_bot:
            bot = table.seats.get(kind=Seat.Kind.BOT)
            assert (bot.key, bot.bot_level) == ("bot-1", "pimc")
    assert modes == {True: Table.Mode.HOSTED, False: Table.Mode.RECORDED}
    listed = world.client("member").get(url(world, "tables/")).json()["results"]
    assert {"player": "b:1", "name": "Bot 1 (pimc)"} in [s for t in listed for s in t["seats"]]


def test_two_bots_sit_at_different_tables_at_the_level_asked(world: ClubWorld) -> None:
    check_in(world.evening, *(world.users[r] for r in MEMBERS))
    planned = plan(world, bots=2, bot_level="heuristic")
    assert planned.status_code == 201, planned.json()
    for table in planned.json()["tables"]:
        assert len(table["seats"]) == 3
        assert sum(s["player"].startswith("b:") for s in table["seats"]) == 1
    assert {s["name"] for t in planned.json()["tables"] for s in t["seats"]} >= {
        "Bot 1 (heuristic)",
        "Bot 2 (heuristic)",
    }


@pytest.mark.parametrize(
    ("body", "field", "sentence"),
    [
        ({"bots": 1, "bot_level": "grandmaster"}, "bot_level", "grandmaster"),
        ({"bots": 9}, "bots", "less than or equal to 8"),
    ],
)
def test_a_bad_bot_request_is_refused_with_a_sentence(
    world: ClubWorld, body: dict[str, Any], field: str, sentence: str
) -> None:
    five_players(world)
    refused = plan(world, **body)
    assert refused.status_code == 400 and field in refused.json()["fields"], refused.json()
    assert sentence in str(refused.json())


def test_a_level_the_evenings_game_does_not_have_is_refused(world: ClubWorld) -> None:
    Club.objects.filter(pk=world.club.pk).update(
        default_rules={"variant": "doppelkopf-ddv", "point_value": 10}
    )
    check_in(world.evening, *(world.users[r] for r in ("member", "scorer", "admin")))
    refused = plan(world, bots=1, bot_level="pimc")
    assert refused.status_code == 400 and "bot_level" in refused.json()["fields"]
    assert "random or heuristic" in refused.json()["message"], refused.json()
    seated = plan(world, bots=1)  # three players and a bot: one Doppelkopf table
    assert seated.status_code == 201, seated.json()
    assert seated.json()["plan"]["bots"] == {"count": 1, "level": "heuristic"}


def test_more_bots_than_tables_are_refused(world: ClubWorld) -> None:
    check_in(world.evening, *(world.users[r] for r in ("member", "scorer")))
    refused = plan(world, bots=2)  # four at one table: the two bots would share it
    assert refused.status_code == 400, refused.json()
    assert "one bot at most" in refused.json()["message"]
    too_many = plan(world, bots=3)
    assert too_many.status_code == 400 and "no more bots than players" in too_many.json()["message"]


def play_hosted_hand(table: Table, number: int, rng: random.Random) -> None:
    """Deal hand ``number`` at ``table`` and play it out: each player, from their own client,
    plays a random legal action on their turn; the bot answers in process."""
    clients = {}
    for seat in table.seats.exclude(user=None):
        clients[seat.key] = APIClient()
        clients[seat.key].force_authenticate(seat.user)
    anyone = next(iter(clients.values()))
    hand = f"/api/v1/tables/{table.pk}/hands/"
    assert anyone.post(hand).status_code == 201
    for _ in range(300):
        view = anyone.get(f"{hand}{number}/view/").json()
        if view["status"] == "done":
            return
        assert view["to_act"] in clients, f"the bot left its turn open: {view['to_act']}"
        player = clients[view["to_act"]]
        mine = player.get(f"{hand}{number}/view/").json()
        body = {"action": rng.choice(mine["legal"]), "expected_version": mine["version"]}
        answer = player.post(f"{hand}{number}/actions/", body, format="json")
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the hand did not end")


# the bot moves on the commit: real transactions
@pytest.mark.django_db(transaction=True)
def test_a_bot_is_settled_as_the_clubs_money_and_never_ranked(eager_tasks: None) -> None:
    world = build_club_world()
    a_season(world)
    check_in(world.evening, *(world.users[r] for r in ("member", "scorer")))
    assert plan(world, bots=1, bot_level="random").status_code == 201
    started = world.client("admin").post(url(world, "rounds/1/start/")).json()
    table = Table.objects.get(pk=started["tables"][0]["table_id"])
    assert table.mode == Table.Mode.HOSTED
    rng = random.Random(5)
    bot_net = 0
    for number in range(1, 11):  # until the bot has won or lost something
        play_hosted_hand(table, number, rng)
        bot_net = games.table_balances(Table.objects.get(pk=table.pk)).get("bot-1", 0)
        if bot_net:
            break
    assert bot_net, "ten hands moved no money for the bot"

    settlement = world.client("member").get(url(world, "settlement/")).json()
    assert settlement["bots_net"] == bot_net
    people = {f"u:{world.users[r].pk}" for r in ("member", "scorer")}
    assert {row["player"] for row in settlement["players"]} == people
    nets = sum(row["net"] for row in settlement["players"])
    assert nets + settlement["pot_net"] + settlement["bots_net"] == 0
    into_club = sum(p["amount"] for p in settlement["payments"] if p["to"] == "bots")
    out_of_club = sum(p["amount"] for p in settlement["payments"] if p["from"] == "bots")
    assert into_club - out_of_club == bot_net
    assert any("the club (for its bots)" in p["sentence"] for p in settlement["payments"])

    standings, _ = seasons.compute_standings(Season.objects.get(pk=world.extra["season"]))
    assert {row.player for row in standings.rows} == people
