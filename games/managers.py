"""Who manages a table, as the apps that group tables answer it.

Games knows the base layer (a table's club: its owners and admins manage it, its scorers
record at it). Apps above games group tables (tournament rounds, and later others) and know
who runs those groups; they register a :class:`Manager` here in their ``AppConfig.ready``,
so games asks them without importing them (layers: engine ← games ← clubs' evenings,
seating, seasons ← tournaments).

A group may also bound its tables: how many hands a table plays (a tournament round's
``deals_per_round``: :func:`check_hand_limit`) and who may still correct the hands of a
closed table (a tournament's directors while it runs: :func:`corrects_closed`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import User
from games.errors import TableConflict


def _no_limit(table_id: int) -> int | None:
    return None


def _no_corrections(user: User, table_id: int) -> bool:
    return False


def _ungrouped(table_id: int) -> bool:
    return False


def _not_frozen(table_id: int) -> str | None:
    return None


@dataclass(frozen=True)
class Manager:
    """One app's answer. ``manages(user, table_id)``: whether ``user`` manages that table;
    ``managed(user)``: a filter on ``games.Table`` selecting every table ``user`` manages
    through this app (used by the list selectors, so it must agree with ``manages``);
    ``hand_limit(table_id)``: the most hands that table plays, None when this app sets none;
    ``corrects_closed(user, table_id)``: whether ``user`` may still correct (edit, delete) the
    recorded hands of that table once it is closed; it may instead raise a games error whose
    sentence says why not; ``groups(table_id)``: whether this app groups that table (a
    tournament round's table: its players do not close it, its managers do);
    ``frozen(table_id)``: why that closed table must stay closed now (its round or evening is
    closed), a sentence, or None."""

    name: str
    manages: Callable[[User, int], bool]
    managed: Callable[[User], Q]
    hand_limit: Callable[[int], int | None] = _no_limit
    corrects_closed: Callable[[User, int], bool] = _no_corrections
    groups: Callable[[int], bool] = _ungrouped
    frozen: Callable[[int], str | None] = _not_frozen


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


def check_hand_limit(table_id: int, number: int) -> None:
    """Refuse hand ``number`` of a table a registered app limits to fewer hands (409
    ``hand_limit``): a hand beyond them would count nowhere, or in the money only."""
    for m in _MANAGERS.values():
        limit = m.hand_limit(table_id)
        if limit is not None and number > limit:
            raise TableConflict(
                _(
                    "This table plays {limit} hands and all of them are in; correct or delete "
                    "one of them instead of adding hand {number}."
                ).format(limit=limit, number=number),
                code="hand_limit",
            )


def corrects_closed(user: User, table_id: int) -> bool:
    """Whether any registered app lets ``user`` correct the hands of closed table
    ``table_id`` (an app may raise a games error that says why not instead)."""
    return any(m.corrects_closed(user, table_id) for m in _MANAGERS.values())


def grouped(table_id: int) -> bool:
    """Whether an app above games groups table ``table_id`` (a tournament round's table)."""
    return any(m.groups(table_id) for m in _MANAGERS.values())


def frozen(table_id: int) -> str | None:
    """Why table ``table_id`` must stay closed (the first app's sentence), or None."""
    for m in _MANAGERS.values():
        reason = m.frozen(table_id)
        if reason:
            return reason
    return None
