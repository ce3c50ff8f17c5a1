"""Fixtures for the games API: players, clients signed in as them, tables and entries.

Seats are ``anna``, ``bert``, ``carl`` (and ``dave`` at four-seat tables) in playing order;
unless a test says otherwise ``carl`` deals first, so ``anna`` is forehand of hand 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import User
from games import services
from games.models import Table
from tests.factories import UserFactory
from tests.games.world import World, build_world
from tests.worlds import built_once

RULES: dict[str, Any] = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
SPLIT_RULES: dict[str, Any] = {**RULES, "pot_at_close": "split"}

#: Score-sheet entries for a three-seat table with carl dealing (anna forehand).
MADE = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "anna",
    "defence": {"bert": "play", "carl": "play"},
    "tricks": {"anna": 6, "bert": 2, "carl": 2},
}
FELL = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "anna",
    "defence": {"bert": "play", "carl": "play"},
    "tricks": {"anna": 4, "bert": 3, "carl": 3},
}
AUSFECHTEN = {"game": {"type": "ausfechten"}, "tricks": {"anna": 4, "bert": 4, "carl": 2}}


def suit_game(declarer: str, defence: dict[str, str], tricks: dict[str, int]) -> dict[str, Any]:
    """A number game in spades (with the talon)."""
    return {
        "game": {"type": "suit", "level": "S", "talon": True},
        "declarer": declarer,
        "defence": defence,
        "tricks": tricks,
    }


@pytest.fixture
def anna(db: None) -> User:
    return UserFactory.create(username="anna", display_name="anna")


@pytest.fixture
def bert(db: None) -> User:
    return UserFactory.create(username="bert", display_name="bert")


@pytest.fixture
def carl(db: None) -> User:
    return UserFactory.create(username="carl", display_name="carl")


@pytest.fixture
def dave(db: None) -> User:
    return UserFactory.create(username="dave", display_name="dave")


@pytest.fixture
def stranger(db: None) -> User:
    return UserFactory.create(username="stranger")


@pytest.fixture
def client_for() -> Callable[[User | None], APIClient]:
    """``client_for(user)``: an APIClient signed in as ``user`` (anonymous for None)."""

    def make(user: User | None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def make_table(anna: User, bert: User, carl: User, dave: User) -> Callable[..., Table]:
    """``make_table(mode="recorded", seats=3, first_dealer="carl", **options)``: a table
    opened by anna through the service, seats anna, bert, carl (, dave) as users unless
    ``kinds`` says otherwise (``{"bert": "bot"}``)."""
    users = {"anna": anna, "bert": bert, "carl": carl, "dave": dave}

    def make(
        mode: str = Table.Mode.RECORDED,
        seats: int = 3,
        first_dealer: str | None = "carl",
        kinds: dict[str, str] | None = None,
        rules: dict[str, Any] | None = None,
        **options: Any,
    ) -> Table:
        specs = []
        for key in list(users)[:seats]:
            kind = (kinds or {}).get(key, "user")
            specs.append(
                services.SeatSpec(
                    key=key,
                    kind=kind,
                    user=users[key] if kind == "user" else None,
                    guest_name=key.capitalize() if kind == "guest" else "",
                    bot_level="random" if kind == "bot" else "",
                )
            )
        return services.table_create(
            user=options.pop("user", anna),
            name=options.pop("name", "Friday table"),
            mode=mode,
            rules=rules or RULES,
            seats=specs,
            first_dealer=first_dealer,
            **options,
        )

    return make


@pytest.fixture
def recorded(make_table: Callable[..., Table]) -> Table:
    """A recorded three-seat table, carl dealing first."""
    return make_table()


@pytest.fixture
def hosted(make_table: Callable[..., Table]) -> Table:
    """A hosted three-seat table of three human players, carl dealing first."""
    return make_table(mode=Table.Mode.HOSTED)


def hands_url(table: Table, suffix: str = "") -> str:
    return f"/api/v1/tables/{table.pk}/hands/{suffix}"


def hand_url(table: Table, number: int, suffix: str = "") -> str:
    return f"/api/v1/tables/{table.pk}/hands/{number}/{suffix}"


@pytest.fixture(scope="module")
def shared_world(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[World]:
    """The world of tests/games/world.py for ``request.param``, ``(public, setup)``: whether
    its tables are public, and a matrix row's set-up (or None), done once for the tests that
    share it (tests/worlds.py)."""
    public, setup = request.param

    def build() -> World:
        world = build_world(public=public)
        if setup is not None:
            setup(world)
        return world

    with built_once(django_db_blocker, build) as world:
        yield world
