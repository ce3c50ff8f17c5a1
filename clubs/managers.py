"""Tell games about the tables a club evening groups: once the evening is closed and
settled, its tables stay closed (the settlement is final). The club's owners and admins
already manage the club's tables through the table's club, so this names no managers."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import Evening, EveningTable, User
from games import managers


def _nobody(user: User, table_id: int) -> bool:
    return False


def _none(user: User) -> Q:
    return Q(pk__in=[])


def _frozen(table_id: int) -> str | None:
    closed = EveningTable.objects.filter(
        table_id=table_id, evening__status=Evening.Status.CLOSED
    ).exists()
    if not closed:
        return None
    return _("This table's evening is closed and settled, so its tables stay closed.")


def register() -> None:
    managers.register(managers.Manager("club evenings", _nobody, _none, frozen=_frozen))
