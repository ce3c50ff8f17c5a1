"""A tournament of Doppelkopf under the DDV rules (issue 27): each round is a DDV round at
tables of four, 24 counted deals besides the Pflichtsoli (dealt again, not counted) and the
Vorführungen of players who still owe theirs; a table is complete when its round is, and plays
no hand beyond it. Standings sum the game points (``unit: points``); duplicate scoring is not
offered, and a round is the rule set's 24 deals.

Doppelkopf is engine-only until offered: these tests turn on ``PREVIEW_RULE_SETS``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from clubs.models import User
from games import services as games
from games.errors import TableConflict
from games.models import Hand, Seat, Table
from games.random_entries import random_entry
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import Field, make_field, seat
from tournaments.models import Round, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

RULES = {"variant": "doppelkopf-ddv", "point_value": 10}


@pytest.fixture(autouse=True)
def standings_at_once(settings: Any) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0


def play_round(f: Field, number: int, rng: random.Random) -> dict[int, int]:
    """Record random entries at every table of round ``number`` until its DDV round is
    complete; each user's game points there."""
    points: dict[int, int] = {}
    rnd = Round.objects.get(tournament=f.tournament, number=number)
    for link in RoundTable.objects.filter(round=rnd):
        table = Table.objects.get(pk=link.table_id)
        users = {s.key: s.user_id for s in Seat.objects.filter(table=table)}
        while (games.table_round(table, table.hands.count() + 1) or Any).completed == 0:
            entry = random_entry(table, rng)
            result = games.table_record_hand(table_id=table.pk, user=f.director, entry=entry).result
            for key, score in result["score"].items():
                points[users[key]] = points.get(users[key], 0) + score
        hands = list(Hand.objects.filter(table=table).order_by("number"))
        counted = [h for h in hands if not h.result["game"].get("pflicht")]
        assert len(counted) == 24 and len(hands) - 24 == 4  # each player's Pflichtsolo
        with pytest.raises(TableConflict, match=f"plays {len(hands)} hands"):
            games.table_record_hand(
                table_id=table.pk, user=f.director, entry=random_entry(table, rng)
            )
    return points


def test_a_ddv_tournament_plays_rounds_of_24_deals_and_ranks_by_game_points() -> None:
    f = make_field(8, rules=RULES, rounds_planned=2, deals_per_round=24)
    rng = random.Random(27)
    points: dict[int, int] = {}
    for number in (1, 2):
        body = seat(f)
        assert sorted(len(t["players"]) for t in body["tables"]) == [4, 4]
        for user, score in play_round(f, number, rng).items():
            points[user] = points.get(user, 0) + score
        tables = f.get(f"rounds/{number}/")["tables"]
        assert all(t["complete"] and t["hands_done"] == 28 for t in tables), tables
        f.post(f"rounds/{number}/close/")
    assert sum(points.values()) == 0 and any(points.values())
    f.post("finish/")
    standings = f.get("standings/")
    assert standings["unit"] == "points"
    assert {row["user"]: Fraction(row["points"]) for row in standings["rows"]} == {
        user: Fraction(p) for user, p in points.items()
    }
    ranked = [Fraction(row["points"]) for row in standings["rows"]]
    assert ranked == sorted(ranked, reverse=True)
    me = f.get("me/", user=f.players[0])
    assert sum(r["amount"] for r in me["rounds"]) == points[f.players[0].pk]


def create(body: dict[str, Any]) -> Any:
    director: User = UserFactory.create(username="director")
    base = {"name": "Doko-Turnier", "rounds_planned": 3, "deals_per_round": 24}
    return client_for(director).post("/api/v1/tournaments/", {**base, **body}, format="json")


def test_a_round_is_the_rule_sets_24_deals() -> None:
    refused = create({"rules": RULES, "deals_per_round": 12})
    assert refused.status_code == 400
    assert "set deals_per_round to 24" in refused.json()["message"]
    assert not Tournament.objects.exists()


def test_duplicate_scoring_is_refused() -> None:
    answer = create({"rules": RULES, "scoring": "duplicate"})
    assert answer.status_code == 400
    assert "choose balance or table_rank" in answer.json()["message"]


@pytest.mark.parametrize("results", ["hosted", "recorded"])
def test_duplicate_scoring_is_refused_for_the_kasse_game_too(results: str) -> None:
    """The Kasse carries between deals and all four refill it when it runs short, so a deal's
    money depends on the table's earlier deals: the same seat at two tables cannot be
    compared deal by deal. Balance and table rank apply."""
    kasse = {"variant": "doppelkopf", "base": 20, "ante": 10}
    answer = create({"rules": kasse, "scoring": "duplicate", "results": results})
    assert answer.status_code == 400
    body = answer.json()
    assert "refill the Kasse" in body["message"]
    assert "choose balance or table_rank" in body["message"]
    assert list(body["fields"]) == ["scoring"]
    assert not Tournament.objects.exists()
    for scoring in ("balance", "table_rank"):
        accepted = create({"rules": kasse, "scoring": scoring, "results": results})
        assert accepted.status_code == 201, accepted.json()
        Tournament.objects.all().delete()


def test_money_is_the_point_value_the_players_paid_one_another() -> None:
    answer = create({"rules": RULES, "real_money": True})
    assert answer.status_code == 201, answer.json()
