"""Who a seat's player is, across tables: the key the club side ranks and settles by.

A player is ``u:<user id>`` (a member, or a club guest merged into one), ``g:<guest id>`` (a
club guest not merged) or ``s:<seat id>`` (a guest known only by the name written at one
table); bots are no players.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from clubs.models import Guest, User
from games.models import Seat


@dataclass(frozen=True)
class PlayerInfo:
    key: str
    name: str
    user_id: int | None = None
    guest_id: int | None = None


def _name(user: User) -> str:
    return user.display_name or user.username


def seat_player(seat: Seat) -> PlayerInfo | None:
    """The player at ``seat`` (load ``user``, ``guest`` and ``guest__merged_into`` with it)."""
    if seat.kind == Seat.Kind.BOT:
        return None
    if seat.user is not None:
        return PlayerInfo(f"u:{seat.user.pk}", _name(seat.user), seat.user.pk)
    guest = seat.guest
    if guest is not None:
        if guest.merged_into is not None:
            return PlayerInfo(
                f"u:{guest.merged_into.pk}", _name(guest.merged_into), guest.merged_into.pk
            )
        return PlayerInfo(f"g:{guest.pk}", guest.name, guest_id=guest.pk)
    return PlayerInfo(f"s:{seat.pk}", seat.guest_name or seat.key)


def names_for(keys: Iterable[str]) -> dict[str, str]:
    """Display names for ``u:`` and ``g:`` player keys (others are their own name)."""
    keys = list(keys)
    user_ids = [int(k[2:]) for k in keys if k.startswith("u:")]
    guest_ids = [int(k[2:]) for k in keys if k.startswith("g:")]
    users = {f"u:{u.pk}": _name(u) for u in User.objects.filter(pk__in=user_ids)}
    guests = {f"g:{g.pk}": g.name for g in Guest.objects.filter(pk__in=guest_ids)}
    return {k: users.get(k) or guests.get(k) or k for k in keys}


def player_key(seat: Seat) -> str:
    """How a notification names ``seat``'s player (``clubs.outbox`` writes the name when it
    sends, so a name changed or erased meanwhile is never sent): the player's key (``u:``,
    ``g:``), a name written only at the table as itself, ``bot`` for a bot."""
    player = seat_player(seat)
    if player is None:
        return "bot"
    return player.name if player.key.startswith("s:") else player.key
