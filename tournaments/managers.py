"""Tell games who manages a tournament's tables: its directors and the organising club's
owners and admins (tournaments.permissions.is_director)."""

from __future__ import annotations

from django.db.models import Q

from clubs.models import Membership, User
from games import managers
from tournaments.models import RoundTable, Tournament


def _directed(user: User) -> Q:
    clubs = Membership.objects.filter(user_id=user.pk, role__in=Membership.MANAGERS).values(
        "club_id"
    )
    return Q(directors=user.pk) | Q(club_id__in=clubs)


def _manages(user: User, table_id: int) -> bool:
    tournaments = Tournament.objects.filter(_directed(user)).values("pk")
    return RoundTable.objects.filter(table_id=table_id, round__tournament__in=tournaments).exists()


def _managed(user: User) -> Q:
    directed = Tournament.objects.filter(_directed(user)).values("pk")
    return Q(pk__in=RoundTable.objects.filter(round__tournament__in=directed).values("table_id"))


def register() -> None:
    managers.register(managers.Manager("tournaments", _manages, _managed))
