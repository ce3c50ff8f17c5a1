"""Live updates over websockets (``docs/live.md``): the topics, who may read them, their
versions, and publishing a change to the sockets that listen.

Terms. A *topic* is what a socket subscribes to: a hosted ``hand`` (its events, rendered for
the caller's seat), a ``table``, a club ``evening``, a ``tournament`` (small "reload" messages
with a version, as the lichess app uses) and the caller's own ``notifications`` ("your turn",
"you are seated"). A *group* is the channel-layer group a socket joins for one subscription
(:func:`group`); a *publish* sends one message to a group after the change committed.

Games knows hands and tables. The apps above it (club evenings, tournaments) own their topics
and register them here in their ``AppConfig.ready`` (:func:`register`, the way
``games.managers`` and ``games.deals`` are filled), together with where a user currently sits
(:func:`register_seating`); games never imports them. The websocket consumer that serves the
topics is :mod:`games.live.consumer` (imported only by ``config/asgi.py``, so publishing from a
service never loads it); the database calls it shares with the long poll are
:func:`games.live.db.db_call`.

Publishing goes through Django Channels' layer (``CHANNEL_LAYERS``): with Redis every process
(web, worker, events) reaches the events process's sockets; the in-memory layer (no Redis)
reaches only sockets of the same process. Publishing is best effort: a lost message costs a
client at most a late reload, and every message carries the version a client resumes from.
Nothing seat-specific ever goes through the layer: hand messages say only "version V exists",
and each socket reads its view from the database (shared by the sockets of a process that read
the same seat's view of the same version: :mod:`games.live.consumer`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

import engine
from clubs import outbox
from clubs.models import User
from engine.ruleset import HandState
from games import clock, hooks
from games.hands import hand_state
from games.models import AuditEntry, Hand, Seat, Table
from games.permissions import can_read

log = logging.getLogger(__name__)

AnyUser = User | AnonymousUser


@dataclass(frozen=True)
class Topic:
    """One app's reload topic.

    ``name``: the ``topic`` of messages (``"tournament"``); ``key``: the field naming the
    object (``"tournament_id"``); ``read(user, object_id)``: the object's current version when
    ``user`` may read it over REST, None when the object does not exist for them (the socket
    then answers ``not_found``, as REST answers 404); ``version(object_id)``: the current
    version (None when the object is gone), read when a change is published. Versions are
    integers that grow with every change a reader would reload for."""

    name: str
    key: str
    read: Callable[[AnyUser, int], int | None]
    version: Callable[[int], int | None]


#: Where a user sits now, as one app answers it: a list of ``seated`` notifications.
Seating = Callable[[User], list[dict[str, Any]]]

_TOPICS: dict[str, Topic] = {}
_SEATING: dict[str, Seating] = {}


def micros(moment: Any) -> int:
    """A datetime as a version: microseconds since the epoch (evenings and tournaments use
    the moment they last changed)."""
    return int(moment.timestamp() * 1_000_000)


def register(topic: Topic) -> None:
    """Add (or replace, by name) a reload topic; call it from ``AppConfig.ready``."""
    _TOPICS[topic.name] = topic


def topic(name: str) -> Topic | None:
    """The registered reload topic called ``name``, if any."""
    return _TOPICS.get(name)


def topics() -> list[str]:
    """The names of the registered reload topics."""
    return sorted(_TOPICS)


def register_seating(name: str, seating: Seating) -> None:
    """Add (or replace, by name) an app's answer to "where does this user sit now"."""
    _SEATING[name] = seating


# ---------------------------------------------------------------------------------------------
# groups and publishing


def group(name: str, *ids: int) -> str:
    """The channel-layer group of a subscription: ``live.tournament.7``, ``live.hand.3.2``
    (table 3, hand 2), ``live.user.5`` (user 5's notifications)."""
    return ".".join(["live", name, *(str(int(i)) for i in ids)])


def user_group(user_id: int) -> str:
    """The group of ``user_id``'s notifications."""
    return group("user", user_id)


_SERVER_LOOP: asyncio.AbstractEventLoop | None = None
_PUBLISHER: tuple[asyncio.AbstractEventLoop, threading.Thread] | None = None
_PUBLISHER_LOCK = threading.Lock()


def serve_on(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop this process serves sockets on (the consumer calls it): with the
    in-memory layer, publishes from any thread of the process are handed to that loop."""
    global _SERVER_LOOP
    _SERVER_LOOP = loop


def _publisher_loop() -> asyncio.AbstractEventLoop:
    """A background event loop of this process that sends to the Redis layer, so sync code
    (web requests, worker tasks) reuses one loop and its Redis connections."""
    global _PUBLISHER
    with _PUBLISHER_LOCK:
        if _PUBLISHER is None or not _PUBLISHER[1].is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="live-publisher", daemon=True)
            thread.start()
            _PUBLISHER = (loop, thread)
        return _PUBLISHER[0]


def _layer() -> Any:
    from channels.layers import get_channel_layer  # type: ignore[import-untyped]

    return get_channel_layer()


def send(group_name: str, message: dict[str, Any]) -> None:
    """Send ``message`` to a group now (best effort, waits at most ``LIVE_PUBLISH_TIMEOUT``
    seconds; failures are logged, never raised). Call :func:`on_commit` from services."""
    layer = _layer()
    if layer is None:
        return
    in_memory = type(layer).__name__ == "InMemoryChannelLayer"
    loop = _SERVER_LOOP if in_memory else _publisher_loop()
    if loop is None or loop.is_closed():
        return  # in-memory layer and no sockets served by this process: nobody to tell
    coroutine: Coroutine[Any, Any, None] = layer.group_send(group_name, message)
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:  # called on the loop itself: do not block it
        loop.create_task(coroutine)
        return
    try:
        asyncio.run_coroutine_threadsafe(coroutine, loop).result(
            timeout=settings.LIVE_PUBLISH_TIMEOUT
        )
    except Exception:  # noqa: BLE001 - a publish never fails the committed change
        log.warning("live: could not publish to %s", group_name, exc_info=True)


def on_commit(fn: Callable[[], None]) -> None:
    """Run ``fn`` once the current transaction commits (at once outside one), never failing
    the caller."""
    transaction.on_commit(partial(_safely, fn), robust=True)


def _safely(fn: Callable[[], None]) -> None:
    try:
        fn()
    except Exception:  # noqa: BLE001
        log.warning("live: publishing failed", exc_info=True)


def publish_update(topic_name: str, object_id: int, what: str, **extra: Any) -> None:
    """After commit, tell the subscribers of ``topic_name`` ``object_id`` to reload: an
    ``update`` message with ``what`` changed and the object's version then."""
    on_commit(partial(_send_update, topic_name, object_id, what, extra))


def _send_update(topic_name: str, object_id: int, what: str, extra: dict[str, Any]) -> None:
    found = _TOPICS[topic_name]
    version = found.version(object_id)
    if version is None:
        return
    send(
        group(topic_name, object_id),
        {
            "type": "live.update",
            "topic": topic_name,
            "key": found.key,
            "id": object_id,
            "what": what,
            "version": version,
            "extra": extra,
        },
    )


def notify_user(user_id: int, notification: dict[str, Any]) -> None:
    """After commit, send ``notification`` (``kind`` and its fields) to ``user_id``'s
    notifications subscribers."""
    on_commit(
        partial(send, user_group(user_id), {"type": "live.notify", "notification": notification})
    )


# ---------------------------------------------------------------------------------------------
# hands and tables


def hand_moved(table: Table, hand: Hand, state: HandState) -> None:
    """A hosted hand was dealt or moved (called inside the service's transaction): after
    commit wake the hand's subscribers, tell each user the hand waits for now
    (``engine.waiting_for``: not a seat that merely may announce) that it is their turn (at
    a table with a clock with their deadline; no push when it comes less than twice the push's
    delay ahead: the turn is over before the push could help), and for a new hand tell the
    table's subscribers."""
    acting = engine.waiting_for(state)
    on_commit(partial(_send_hand, table.pk, hand.number, hand.version))
    people = [s for s in table.seats.all() if s.kind == Seat.Kind.USER and s.user_id is not None]
    key = f"table:{table.pk}"
    done = [s.user_id for s in people if s.key not in acting and s.user_id is not None]
    if done:
        outbox.withdraw("your_turn", key, done)
    delay = dt.timedelta(seconds=settings.NOTIFICATION_YOUR_TURN_DELAY_SECONDS)
    for seat in sorted(people, key=lambda s: s.position):
        if seat.key not in acting:
            continue
        assert seat.user_id is not None
        deadline = _deadline(table, hand, seat.key)
        timed = {} if deadline is None else {"deadline": clock.iso(deadline)}
        if deadline is not None and deadline - timezone.now() < 2 * delay:
            # a live clock's turn ends before the push could help: none (the view shows it)
            outbox.withdraw("your_turn", key, [seat.user_id])
        else:
            outbox.notify(
                [seat.user_id],
                "your_turn",
                key,
                payload={
                    "path": f"/api/v1/tables/{table.pk}/hands/{hand.number}/",
                    "table_id": table.pk,
                    "number": hand.number,
                    **timed,
                },
                context={"table": table.name, **timed},
                delay=delay,
            )
        notify_user(
            seat.user_id,
            {
                "kind": "your_turn",
                "table_id": table.pk,
                "number": hand.number,
                "version": hand.version,
                "seat": seat.key,
            },
        )
    if hand.version == 0:
        publish_update("table", table.pk, "hand_started", number=hand.number)


def _deadline(table: Table, hand: Hand, seat: str) -> dt.datetime | None:
    """When ``seat``'s time for its action runs out at a table with a clock."""
    tc = clock.TimeControl.from_json(table.time_control)
    if tc is None or hand.clock is None:
        return None
    return clock.seat_deadline(tc, hand.clock, seat)


def _send_hand(table_id: int, number: int, version: int) -> None:
    send(
        group("hand", table_id, number),
        {"type": "live.hand", "table_id": table_id, "number": number, "version": version},
    )


def table_version(table_id: int) -> int | None:
    """A table's version: the number of its audited changes (opened, hands started, recorded,
    edited, deleted, confirmed, closed) plus its finished hosted hands. It grows with every
    change a table's reader reloads for; each move of a hand is the hand topic's business."""
    mode = Table.objects.filter(pk=table_id).values_list("mode", flat=True).first()
    if mode is None:
        return None
    audited = AuditEntry.objects.filter(table_id=table_id).count()
    finished = 0
    if mode == Table.Mode.HOSTED:
        finished = Hand.objects.filter(table_id=table_id, status=Hand.Status.DONE).count()
    return audited + finished


def _table_read(user: AnyUser, table_id: int) -> int | None:
    table = Table.objects.prefetch_related("seats").filter(pk=table_id).first()
    if table is None or not can_read(user, table):
        return None
    return table_version(table_id)


def _on_hands_changed(table_id: int, club_id: int | None) -> None:
    """``games.hooks`` listener (runs after commit): the table's hands changed."""
    _send_update("table", table_id, "hands_changed", {})


def register_games() -> None:
    """Games' own topic and listener; called from ``GamesConfig.ready``."""
    register(Topic("table", "table_id", _table_read, table_version))
    hooks.listen("live table", _on_hands_changed)


# ---------------------------------------------------------------------------------------------
# notifications


def your_turns(user: User) -> list[dict[str, Any]]:
    """Every hosted hand being played where ``user``'s seat is to act, as ``your_turn``
    notifications (oldest table first)."""
    hands = (
        Hand.objects.filter(
            status=Hand.Status.PLAYING,
            table__mode=Table.Mode.HOSTED,
            table__status=Table.Status.OPEN,
            table__seats__user=user,
        )
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("table_id", "number")
    )
    out = []
    for hand in hands:
        seat = next(s for s in hand.table.seats.all() if s.user_id == user.pk)
        if seat.key in engine.waiting_for(hand_state(hand.table, hand)):
            out.append(
                {
                    "kind": "your_turn",
                    "table_id": hand.table_id,
                    "number": hand.number,
                    "version": hand.version,
                    "seat": seat.key,
                }
            )
    return out


def seated(user: User) -> list[dict[str, Any]]:
    """Where ``user`` sits now, as every registered app answers it (``seated``
    notifications)."""
    return [item for answer in _SEATING.values() for item in answer(user)]


def notifications_now(user: User) -> dict[str, Any]:
    """What a reconnecting phone must not miss: every table where it is ``user``'s turn now
    and every seat ``user`` holds in a running round."""
    return {"your_turn": your_turns(user), "seated": seated(user)}
