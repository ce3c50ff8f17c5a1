"""Permission-matrix rows for clubs and their people: clubs, members, leaving, handing over,
invitations, join requests, guests and the caller's own clubs and invitations.

Each row runs as every role on a fresh world (``tests/clubs/world.py``): a private club
unless ``public=True``. Placeholders beyond ``{club}`` come from the row's ``setup``:
``{target}`` (another plain member), ``{admin_id}``/``{owner_id}`` (the world's admin and
owner), ``{invitation}``/``{code}``, ``{join_request}``, ``{guest}``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from clubs.models import Guest, Invitation, JoinRequest, Membership
from tests.clubs.world import (
    MANAGERS_WRITE,
    MEMBERS_READ,
    PUBLIC_MANAGERS_WRITE,
    PUBLIC_READ,
    ClubWorld,
    Row,
    statuses,
    with_status,
)
from tests.factories import UserFactory

API = "/api/v1"
CLUB = API + "/clubs/{club}/"

# Shapes of this resource beyond world.py's.
PUBLIC_MEMBERS_READ = statuses(anonymous=403, outsider=403)
SIGNED_IN = statuses(anonymous=401)
ALREADY_MEMBERS = statuses(anonymous=401, outsider=404, rest=409)
PUBLIC_ALREADY_MEMBERS = statuses(anonymous=401, outsider=201, rest=409)
SCORERS_WRITE = statuses(anonymous=401, outsider=404, member=403, rest=201)
PUBLIC_SCORERS_WRITE = statuses(anonymous=401, outsider=403, member=403, rest=201)
OWNER_ONLY = statuses(anonymous=401, outsider=404, member=403, scorer=403, admin=403)
PUBLIC_OWNER_ONLY = statuses(anonymous=401, outsider=403, member=403, scorer=403, admin=403)


def _target(world: ClubWorld) -> None:
    """A second plain member to act on (so no role acts on itself)."""
    user = UserFactory.create(username="target")
    Membership.objects.create(club=world.club, user=user, role=Membership.Role.MEMBER)
    world.extra["target"] = user.pk


def _managers(world: ClubWorld) -> None:
    world.extra["admin_id"] = world.users["admin"].pk
    world.extra["owner_id"] = world.users["owner"].pk


def _invitation(world: ClubWorld) -> None:
    invitation = Invitation.objects.create(
        club=world.club,
        code=secrets.token_urlsafe(16),
        role=Membership.Role.MEMBER,
        expires_at=timezone.now() + dt.timedelta(days=14),
        max_uses=5,
        created_by=world.users["owner"],
    )
    world.extra["invitation"] = invitation.pk
    world.extra["code"] = invitation.code


def _join_request_by(username: str | None) -> Callable[[ClubWorld], None]:
    def setup(world: ClubWorld) -> None:
        user = world.users[username] if username else UserFactory.create(username="asker")
        request = JoinRequest.objects.create(club=world.club, user=user, message="Darf ich?")
        world.extra["join_request"] = request.pk

    return setup


def _guest(world: ClubWorld) -> None:
    _target(world)
    world.extra["guest"] = Guest.objects.create(club=world.club, name="Onkel Franz").pk


def _private_and_public(
    method: str,
    path: str,
    private: dict[str, int],
    public: dict[str, int],
    **kwargs: Any,
) -> list[Row]:
    return [
        Row(method, path, private, **kwargs),
        Row(method, path, public, public=True, **kwargs),
    ]


ROWS: list[Row] = [
    # clubs
    Row("get", API + "/clubs/", PUBLIC_READ),
    Row("post", API + "/clubs/", with_status(SIGNED_IN, 201), body=lambda w, r: {"name": "Neu"}),
    *_private_and_public("get", CLUB, MEMBERS_READ, PUBLIC_READ),
    *_private_and_public(
        "patch",
        CLUB,
        MANAGERS_WRITE,
        PUBLIC_MANAGERS_WRITE,
        body=lambda w, r: {"city": "Graz", "reminder_hours": 12},
    ),
    # members
    *_private_and_public("get", CLUB + "members/", MEMBERS_READ, PUBLIC_MEMBERS_READ),
    *_private_and_public(
        "patch",
        CLUB + "members/{target}/",
        MANAGERS_WRITE,
        PUBLIC_MANAGERS_WRITE,
        setup=_target,
        body=lambda w, r: {"role": "scorer"},
    ),
    # an admin may not touch an admin (here: themselves); an owner may
    Row(
        "patch",
        CLUB + "members/{admin_id}/",
        statuses(anonymous=401, outsider=404, member=403, scorer=403, admin=403),
        setup=_managers,
        body=lambda w, r: {"role": "member"},
    ),
    # the last owner cannot be demoted, not even by themselves
    Row(
        "patch",
        CLUB + "members/{owner_id}/",
        statuses(anonymous=401, outsider=404, member=403, scorer=403, admin=403, owner=409),
        setup=_managers,
        body=lambda w, r: {"role": "admin"},
    ),
    *_private_and_public(
        "delete",
        CLUB + "members/{target}/",
        with_status(MANAGERS_WRITE, 204),
        with_status(PUBLIC_MANAGERS_WRITE, 204),
        setup=_target,
    ),
    Row(
        "delete",
        CLUB + "members/{owner_id}/",
        statuses(anonymous=401, outsider=404, member=403, scorer=403, admin=403, owner=409),
        setup=_managers,
    ),
    *_private_and_public(
        "post",
        CLUB + "leave/",
        statuses(anonymous=401, outsider=404, owner=409, rest=204),
        statuses(anonymous=401, outsider=403, owner=409, rest=204),
    ),
    *_private_and_public(
        "post",
        CLUB + "transfer-ownership/",
        OWNER_ONLY,
        PUBLIC_OWNER_ONLY,
        setup=_target,
        body=lambda w, r: {"user_id": w.extra["target"], "stay_as": "admin"},
    ),
    # invitations
    *_private_and_public(
        "get",
        CLUB + "invitations/",
        MANAGERS_WRITE,
        PUBLIC_MANAGERS_WRITE,
        setup=_invitation,
    ),
    *_private_and_public(
        "post",
        CLUB + "invitations/",
        with_status(MANAGERS_WRITE, 201),
        with_status(PUBLIC_MANAGERS_WRITE, 201),
        body=lambda w, r: {"role": "scorer", "expires_in_days": 3},
    ),
    *_private_and_public(
        "delete",
        CLUB + "invitations/{invitation}/",
        with_status(MANAGERS_WRITE, 204),
        with_status(PUBLIC_MANAGERS_WRITE, 204),
        setup=_invitation,
    ),
    Row("get", API + "/invitations/{code}/", PUBLIC_READ, setup=_invitation),
    Row(
        "post",
        API + "/invitations/{code}/accept/",
        statuses(anonymous=401, outsider=201, rest=409),
        setup=_invitation,
    ),
    # join requests
    *_private_and_public(
        "get",
        CLUB + "join-requests/",
        MANAGERS_WRITE,
        PUBLIC_MANAGERS_WRITE,
        setup=_join_request_by(None),
    ),
    *_private_and_public(
        "post",
        CLUB + "join-requests/",
        ALREADY_MEMBERS,
        PUBLIC_ALREADY_MEMBERS,
        body=lambda w, r: {"message": "Ich spiele donnerstags."},
    ),
    Row(
        "delete",
        CLUB + "join-requests/{join_request}/",
        statuses(anonymous=401, outsider=404, rest=403),
        setup=_join_request_by(None),
    ),
    Row(
        "delete",
        CLUB + "join-requests/{join_request}/",
        statuses(anonymous=401, outsider=204, rest=403),
        setup=_join_request_by("outsider"),
        public=True,
    ),
    *_private_and_public(
        "post",
        CLUB + "join-requests/{join_request}/accept/",
        MANAGERS_WRITE,
        PUBLIC_MANAGERS_WRITE,
        setup=_join_request_by(None),
    ),
    *_private_and_public(
        "post",
        CLUB + "join-requests/{join_request}/decline/",
        MANAGERS_WRITE,
        PUBLIC_MANAGERS_WRITE,
        setup=_join_request_by(None),
    ),
    # guests
    *_private_and_public("get", CLUB + "guests/", MEMBERS_READ, PUBLIC_MEMBERS_READ, setup=_guest),
    *_private_and_public(
        "post",
        CLUB + "guests/",
        SCORERS_WRITE,
        PUBLIC_SCORERS_WRITE,
        body=lambda w, r: {"name": "Tante Mizzi"},
    ),
    *_private_and_public(
        "post",
        CLUB + "guests/{guest}/merge/",
        MANAGERS_WRITE,
        PUBLIC_MANAGERS_WRITE,
        setup=_guest,
        body=lambda w, r: {"user_id": w.extra["target"]},
    ),
    # the caller's own
    Row("get", API + "/me/clubs/", SIGNED_IN),
    Row("get", API + "/me/invitations/", SIGNED_IN, setup=_invitation),
]
