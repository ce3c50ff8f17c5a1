"""A club with one user in every role, for the clubs permission matrices and API tests.

Roles: ``anonymous``, ``outsider`` (signed in, not a member), ``member``, ``scorer``,
``admin``, ``owner``. ``build_club_world(public=...)`` makes the club public or private.
Matrix rows (:class:`Row`) name a path with ``{club}`` (and other ``{placeholders}`` that
``World.fill`` resolves) and the status each role must get.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from clubs.models import Club, Evening, Membership, User
from tests.factories import UserFactory

ROLES = ("anonymous", "outsider", "member", "scorer", "admin", "owner")
MEMBER_ROLES = ("member", "scorer", "admin", "owner")
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": None}


@dataclass
class ClubWorld:
    club: Club
    users: dict[str, User]
    evening: Evening
    extra: dict[str, Any] = field(default_factory=dict)

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            token = RefreshToken.for_user(self.users[role]).access_token
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client

    def fill(self, path: str) -> str:
        return path.format(club=self.club.pk, evening=self.evening.pk, **self.extra)


def build_club_world(*, public: bool = False) -> ClubWorld:
    users = {role: UserFactory.create(username=role) for role in ROLES if role != "anonymous"}
    club = Club.objects.create(
        name="Wiener Runde", slug="wiener-runde", is_public=public, default_rules=RULES
    )
    for role in MEMBER_ROLES:
        Membership.objects.create(club=club, user=users[role], role=role)
    starts = timezone.now() + dt.timedelta(days=3)
    evening = Evening.objects.create(
        club=club, title="Clubabend", starts_at=starts, ends_at=starts + dt.timedelta(hours=4)
    )
    return ClubWorld(club=club, users=users, evening=evening)


@dataclass(frozen=True)
class Row:
    """One endpoint: how to call it and the status per role; ``public`` on a public club."""

    method: str
    path: str
    expect: dict[str, int]
    body: Callable[[ClubWorld, str], Any] | None = None
    setup: Callable[[ClubWorld], None] | None = None
    public: bool = False

    @property
    def id(self) -> str:
        return f"{self.method} {self.path}{' public' if self.public else ''}"


def statuses(**by_role: int) -> dict[str, int]:
    """Every role's status; ``rest`` is the default for roles not named."""
    rest = by_role.pop("rest", 200)
    return {role: by_role.get(role, rest) for role in ROLES}


# Common shapes: who gets what on a private club (non-members: 404; anonymous reads 404 too,
# anonymous writes 401).
MEMBERS_READ = statuses(anonymous=404, outsider=404)
PUBLIC_READ = statuses()
MANAGERS_WRITE = statuses(anonymous=401, outsider=404, member=403, scorer=403)
PUBLIC_MANAGERS_WRITE = statuses(anonymous=401, outsider=403, member=403, scorer=403)
MEMBERS_WRITE = statuses(anonymous=401, outsider=404)
PUBLIC_MEMBERS_WRITE = statuses(anonymous=401, outsider=403)


def with_status(base: dict[str, int], ok: int) -> dict[str, int]:
    return {role: ok if status == 200 else status for role, status in base.items()}


def call_row(world: ClubWorld, row: Row, role: str) -> Any:
    """Call the row's endpoint in ``world`` (its ``setup`` done) as ``role``; the response."""
    body = row.body(world, role) if row.body is not None else None
    client = world.client(role)
    call = getattr(client, row.method)
    path = world.fill(row.path)
    return call(path, body, format="json") if body is not None else call(path)
