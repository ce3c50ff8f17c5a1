"""Set-ups for tournament tests: a director, players, a tournament driven through the API,
and rounds played by recording random score-sheet entries at every table."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

import engine
from clubs.models import User
from games import services as games
from games.models import Hand, Table
from games.random_entries import random_entry
from games.services import hand_common
from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.models import Round, RoundTable, Tournament

RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100}


@dataclass
class Field:
    """A tournament with its director and players (users), and their API clients."""

    tournament_id: int
    director: User
    players: list[User]
    clients: dict[int, APIClient] = field(default_factory=dict)

    def api(self, user: User | None = None) -> APIClient:
        if user is None:
            return client_for(None)
        if user.pk not in self.clients:
            self.clients[user.pk] = client_for(user)
        return self.clients[user.pk]

    @property
    def url(self) -> str:
        return f"/api/v1/tournaments/{self.tournament_id}/"

    @property
    def tournament(self) -> Tournament:
        return Tournament.objects.get(pk=self.tournament_id)

    def boss(self) -> APIClient:
        return self.api(self.director)

    def post(
        self, path: str, data: Any = None, *, user: User | None = None, status: int = 200
    ) -> Any:
        client = self.boss() if user is None else self.api(user)
        answer = client.post(self.url + path, data if data is not None else {}, format="json")
        assert answer.status_code == status, (path, answer.status_code, answer.content[:500])
        return answer.json() if answer.content else None

    def get(self, path: str, *, user: User | None = None, status: int = 200) -> Any:
        client = self.boss() if user is None else self.api(user)
        answer = client.get(self.url + path)
        assert answer.status_code == status, (path, answer.status_code, answer.content[:500])
        return answer.json()


def make_field(players: int, **format: Any) -> Field:
    """A tournament in check-in with ``players`` users entered and checked in (each enters
    and checks in through the API)."""
    director = UserFactory.create(username="director")
    body = {
        "name": "Test Open",
        "rules": RULES,
        "rounds_planned": 3,
        "deals_per_round": 12,
        "tiebreaks": ["declarer_wins", "lots"],
        **format,
    }
    answer = client_for(director).post("/api/v1/tournaments/", body, format="json")
    assert answer.status_code == 201, answer.content
    f = Field(answer.json()["id"], director, [])
    f.post("open-registration/")
    for i in range(players):
        user = UserFactory.create(username=f"p{i + 1:03d}", first_name=f"P{i + 1:03d}")
        f.players.append(user)
        f.post("entries/", user=user, status=201)
    f.post("open-check-in/")
    for entry in entries(f):
        f.post(f"entries/{entry['id']}/check-in/", user=User.objects.get(pk=entry["user"]))
    return f


def entries(f: Field) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    page = f.get("entries/?page_size=500")
    out.extend(page["results"])
    return out


def seat(f: Field, **body: Any) -> dict[str, Any]:
    """Seat the next round (tasks run eagerly in these tests) and start it."""
    rnd = f.post("rounds/", body, status=202)
    assert rnd["status"] == "seated", rnd
    return f.post(f"rounds/{rnd['number']}/start/")


def play(f: Field, number: int, rng: random.Random, deals: int | None = None) -> None:
    """Record ``deals`` random score-sheet entries (all of them by default) at every table
    of round ``number``, as the director."""
    t = f.tournament
    rnd = Round.objects.get(tournament=t, number=number)
    for link in RoundTable.objects.filter(round=rnd).select_related("table"):
        table = Table.objects.get(pk=link.table_id)
        done = table.hands.count()
        for n in range(done + 1, (deals or t.deals_per_round) + 1):
            games.table_record_hand(
                table_id=table.pk, user=f.director, entry=random_entry(table, rng, n)
            )


def another_entry(table: Table, number: int) -> tuple[dict[str, Any], dict[str, int]]:
    """A valid entry for hand ``number`` that settles differently from the recorded one, and
    its delta by seat."""
    hand = Hand.objects.get(table=table, number=number)
    for seed in range(200):
        entry = random_entry(table, random.Random(seed), number)
        delta = engine.settle({**hand_common(table, hand), **entry})["delta"]
        if delta != hand.result["delta"]:
            return entry, {k: int(v) for k, v in delta.items()}
    raise AssertionError("no different entry found")
