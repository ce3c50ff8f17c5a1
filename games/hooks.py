"""Callbacks for the apps above games: "the settled hands of this table changed", "a flag
fell at this table".

Club seasons and tournament standings follow the hands of the tables they group. Games
cannot import them (layers: engine ← games ← clubs' evenings, seasons ← tournaments), so
they register a listener here in their ``AppConfig.ready``. Services call
:func:`hands_changed` inside their transaction; listeners run once it commits, with the
table's id and club id (None for tables of no club), and must be cheap: they enqueue work.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.db import transaction

Listener = Callable[[int, int | None], None]
_LISTENERS: dict[str, Listener] = {}


def listen(name: str, listener: Listener) -> None:
    """Register (or replace, by name) a listener; call it from ``AppConfig.ready``."""
    _LISTENERS[name] = listener


def hands_changed(table_id: int, club_id: int | None) -> None:
    """A hand of the table was settled, corrected, confirmed or deleted, or the table closed:
    tell the listeners once the current transaction commits."""
    for listener in _LISTENERS.values():
        transaction.on_commit(partial(listener, table_id, club_id))


TimeoutListener = Callable[[int, int, list[str]], None]
_TIMEOUT_LISTENERS: dict[str, TimeoutListener] = {}


def listen_timeouts(name: str, listener: TimeoutListener) -> None:
    """Register (or replace, by name) a listener for flags that fell at hosted tables; call it
    from ``AppConfig.ready``. It runs inside the flag's transaction (so what it writes is part
    of the same commit) with the table's id, the hand's number and the seats whose time ran
    out."""
    _TIMEOUT_LISTENERS[name] = listener


def timed_out(table_id: int, hand_number: int, seats: list[str]) -> None:
    """The time of ``seats`` ran out in hand ``hand_number`` of the table (a flag fell):
    tell the listeners now, inside the caller's transaction."""
    for listener in _TIMEOUT_LISTENERS.values():
        listener(table_id, hand_number, list(seats))
