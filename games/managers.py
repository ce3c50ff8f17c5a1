"""Who manages a table, as the apps that group tables answer it.

Games knows the base layer (a table's club: its owners and admins manage it, its scorers
record at it). Apps above games group tables (tournament rounds, and later others) and know
who runs those groups; they register a :class:`Manager` here in their ``AppConfig.ready``,
so games asks them without importing them (layers: engine ← games ← clubs' evenings,
seating, seasons ← tournaments).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q

from clubs.models import User


@dataclass(frozen=True)
class Manager:
    """One app's answer. ``manages(user, table_id)``: whether ``user`` manages that table;
    ``managed(user)``: a filter on ``games.Table`` selecting every table ``user`` manages
    through this app (used by the list selectors, so it must agree with ``manages``)."""

    name: str
    manages: Callable[[User, int], bool]
    managed: Callable[[User], Q]


_MANAGERS: dict[str, Manager] = {}


def register(manager: Manager) -> None:
    """Add (or replace, by name) an app's answer; call it from ``AppConfig.ready``."""
    _MANAGERS[manager.name] = manager


def registered() -> list[Manager]:
    return list(_MANAGERS.values())


def manages(user: User, table_id: int) -> bool:
    """Whether any registered app says ``user`` manages table ``table_id``."""
    return any(m.manages(user, table_id) for m in _MANAGERS.values())


def managed(user: User) -> Q:
    """Tables any registered app lets ``user`` manage (an empty filter when none)."""
    q = Q(pk__in=[])
    for m in _MANAGERS.values():
        q |= m.managed(user)
    return q
