"""Callbacks for the apps above games: "the settled hands of this table changed".

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
