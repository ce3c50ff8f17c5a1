"""Bots that fill empty seats of a tournament round when the director asks (issue 28).

Five players cannot sit at Viennese tables of 3 and 4; a hosted tournament for points seats
them with one bot. The bot sits at a games table like a player but is no entrant: it has no
round seat, so the standings, the exports and the webhooks' players never name it (the
round's tables list it apart as a bot). Recorded, duplicate and real-money tournaments seat
no bots, and say why.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Seat, Table
from tests.tournaments.setup import Field, make_field, seat
from tournaments.models import RoundSeat, RoundTable
from tournaments.services import standings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


def bot_rows(rnd: dict[str, Any]) -> list[dict[str, Any]]:
    return [bot for table in rnd["tables"] for bot in table["bots"]]


def test_five_players_are_told_that_a_bot_would_seat_them() -> None:
    f = make_field(5, results="hosted", deals_per_round=3, rounds_planned=1)
    refused = f.post("rounds/", {}, status=409)
    assert refused["code"] == "unsplittable" and '"bots": 1' in refused["message"]


@pytest.mark.parametrize("method", ["random", "swiss", "fewest_repeats"])
def test_bots_sit_one_a_table_whatever_the_seating_method(method: str) -> None:
    f = make_field(4, results="hosted", deals_per_round=3, rounds_planned=2)
    rnd = seat(f, bots=2, seating=method, bot_level="heuristic")
    assert (rnd["bots"], rnd["bot_level"]) == (2, "heuristic")
    for table in rnd["tables"]:
        assert len(table["players"]) == 2 and len(table["bots"]) == 1
        assert table["bots"][0]["level"] == "heuristic"
        seats = Table.objects.get(pk=table["table"]).seats.order_by("position")
        bots = [s for s in seats if s.kind == Seat.Kind.BOT]
        assert [(b.key, b.position) for b in bots] == [
            (table["bots"][0]["seat"], table["bots"][0]["position"])
        ]
    assert sorted(b["seat"] for b in bot_rows(rnd)) == ["bot-1", "bot-2"]
    assert RoundSeat.objects.filter(round__tournament_id=f.tournament_id).count() == 4


@pytest.mark.parametrize(
    ("format", "why"),
    [
        ({"results": "recorded"}, "hosted tables"),
        ({"results": "hosted", "scoring": "duplicate"}, "duplicate"),
        ({"results": "hosted", "real_money": True}, "real money"),
    ],
)
def test_a_tournament_that_seats_no_bots_says_why(format: dict[str, Any], why: str) -> None:
    f = make_field(5, deals_per_round=3, rounds_planned=1, **format)
    refused = f.post("rounds/", {"bots": 1}, status=409)
    assert refused["code"] == "no_bots" and why in refused["message"]


def test_more_bots_than_tables_are_refused() -> None:
    f = make_field(2, results="hosted", deals_per_round=3, rounds_planned=1)
    refused = f.post("rounds/", {"bots": 2}, status=400)  # one table of 4: bots would share it
    assert "one bot at most" in refused["message"]


def play_round(f: Field, rng: random.Random) -> None:
    """Every hosted table of the round deals and plays its hands: each player, from
    their own client, plays a random legal action on their turn; the bots answer in process."""
    deals = f.tournament.deals_per_round
    for link in RoundTable.objects.filter(round__tournament_id=f.tournament_id):
        table = link.table
        clients: dict[str, APIClient] = {}
        for s in table.seats.exclude(user=None):
            clients[s.key] = f.api(s.user)
        anyone = next(iter(clients.values()))
        hands = f"/api/v1/tables/{table.pk}/hands/"
        for n in range(1, deals + 1):
            assert anyone.post(hands).status_code == 201
            for _ in range(300):
                view = anyone.get(f"{hands}{n}/view/").json()
                if view["status"] == "done":
                    break
                player = clients[view["to_act"]]  # the bot never leaves its turn open
                mine = player.get(f"{hands}{n}/view/").json()
                body = {"action": rng.choice(mine["legal"]), "expected_version": mine["version"]}
                assert player.post(f"{hands}{n}/actions/", body, format="json").status_code == 200
            else:
                raise AssertionError("the hand did not end")


def test_a_bot_is_never_ranked_exported_or_named_as_a_player() -> None:
    f = make_field(5, results="hosted", deals_per_round=3, rounds_planned=1)
    rnd = seat(f, bots=1, bot_level="random")
    assert [b["level"] for b in bot_rows(rnd)] == ["random"]
    play_round(f, random.Random(3))
    f.post("rounds/1/close/")
    table = standings.compute(f.tournament)
    entrants = set(RoundSeat.objects.filter(round__number=1).values_list("entry_id", flat=True))
    assert {row.player for row in table.rows} == entrants and len(entrants) == 5
    exported = f.get("export/standings.json")
    assert len(exported["rows"]) == 5
    assert "bot" not in str(exported).lower()
    detail = f.get("rounds/1/")
    assert sum(len(t["players"]) for t in detail["tables"]) == 5
    assert bot_rows(detail) == bot_rows(rnd)
