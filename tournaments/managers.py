"""Tell games who manages a tournament's tables: the tournament's directors."""

from __future__ import annotations

from django.db.models import Q

from clubs.models import User
from games import managers
from tournaments.models import RoundTable, Tournament


def _manages(user: User, table_id: int) -> bool:
    return RoundTable.objects.filter(
        table_id=table_id, round__tournament__directors=user.pk
    ).exists()


def _managed(user: User) -> Q:
    directed = Tournament.objects.filter(directors=user.pk).values("pk")
    return Q(pk__in=RoundTable.objects.filter(round__tournament__in=directed).values("table_id"))


def register() -> None:
    managers.register(managers.Manager("tournaments", _manages, _managed))
