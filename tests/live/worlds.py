"""Small worlds for the live tests, built with the services (committed: the server reads them
from its own connections)."""

from __future__ import annotations

from typing import Any

from clubs.models import User
from games import services
from games.models import Table
from tests.factories import UserFactory

RULES: dict[str, Any] = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}


def hosted_table(
    users: list[User], *, public: bool = False, bots: int = 0, club_id: int | None = None
) -> Table:
    """A hosted table seating ``users`` (and ``bots`` bots after them), dealer the last."""
    seats = [services.SeatSpec(key=u.username, kind="user", user=u) for u in users]
    seats += [
        services.SeatSpec(key=f"bot{i + 1}", kind="bot", bot_level="random") for i in range(bots)
    ]
    return services.table_create(
        user=users[0],
        name="live table",
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=seats,
        first_dealer=seats[-1].key,
        club_id=club_id,
        is_public=public,
    )


def public_tables(count: int) -> list[Table]:
    users = [UserFactory.create() for _ in range(3)]
    return [hosted_table(users, public=True) for _ in range(count)]
