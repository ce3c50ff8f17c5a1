"""The outbox of notifications (issue 40, ``docs/notifications.md``): what every app tells a
person, kept as rows (:class:`clubs.models.Notification`) and sent by the worker.

An app calls :func:`notify` inside the transaction of the change (a round seated, a join
request made, a hosted hand waiting for someone): one row per person, type and object. Once
the change commits, the rows due now go to the worker (:func:`deliver`, the task
``clubs.tasks.deliver_notifications``); rows due later (reminders) wait for the beat's sweep
(``clubs.tasks.send_due_notifications``, every ``NOTIFICATION_SWEEP_SECONDS``), which also
sends any row whose message was lost: one due and unsent ``NOTIFICATION_RESEND_SECONDS`` after
a task was given it (``queued_at``; a row with its task on the way is not given a second one).
Nothing is sent from a request, and a row rolled back with its change is never sent.

Exactly once: the same person, type and object are one row, so telling twice updates it (a
reminder's moment moved) instead of adding a second; a row is claimed before it is sent (a
second worker, or a sweep running beside a delivery, skips it) and marked sent after. A
worker that dies between the two leaves its claim, which a sweep takes again after
``NOTIFICATION_CLAIM_SECONDS``: the push may then reach the device twice, and the device
shows it once (every push carries its collapse id).

When a row is sent, the person's choice for its type decides the channel
(``clubs.notifications``): push to every registered device, e-mail, or nothing. The text is
written then, in the person's language, from the row's ``context``; "your turn" is not sent
while the person watches that table (:func:`watching`), and is written for every table
waiting for them at once ("your turn at 3 tables")."""

from __future__ import annotations

import datetime as dt
import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import emails, push
from clubs.models import Device, Guest, Notification, User
from clubs.notifications import BY_NAME, EMAIL, OFF, PUSH, channels_of
from config.i18n import language_for
from config.tasks import send, send_after_commit

log = logging.getLogger(__name__)

DELIVER_TASK = "clubs.tasks.deliver_notifications"
RETRY_TASK = "clubs.tasks.push_again"
#: Rows a delivery or a sweep claims at once.
BATCH = 200
#: A reminder found by a sweep more than this late is dropped, not sent (the worker was down
#: while the round it reminds of started).
STALE_REMINDER = dt.timedelta(hours=1)


# ---------------------------------------------------------------------------------------------
# queueing (inside the change's transaction)


def notify(
    users: Iterable[int],
    type_name: str,
    key: str,
    *,
    payload: Mapping[str, Any],
    context: Mapping[str, Any] | None = None,
    contexts: Mapping[int, Mapping[str, Any]] | None = None,
    payloads: Mapping[int, Mapping[str, Any]] | None = None,
    moment: dt.datetime | None = None,
    delay: dt.timedelta = dt.timedelta(0),
) -> None:
    """Tell each of ``users`` (ids) of ``type_name`` about ``key`` once the transaction
    commits. ``payload`` is what the app routes on (it gains ``type``; give ``path`` and the
    ids), ``context`` the values of the text (``payloads``, ``contexts``: each person's own
    additions, e.g. where they sit; one call for everyone a change concerns hands them to the
    worker together). A
    reminder type needs its ``moment``: it is due that moment less each person's offset.
    Telling someone again about the same thing changes nothing when nothing changed, moves a
    reminder whose moment moved, and sends anything else again (a round seated anew)."""
    kind = BY_NAME[type_name]
    assert (kind.offset is None) == (moment is None), f"{type_name} and its moment"
    ids = sorted(set(users))
    if not ids:
        return
    now = timezone.now()
    shared_body = {"type": type_name, **payload}
    shared = dict(context or {})
    offsets = _offsets(ids, type_name) if moment is not None else {}
    existing = {
        n.user_id: n for n in Notification.objects.filter(user_id__in=ids, type=type_name, key=key)
    }
    changed: list[Notification] = []
    fresh: list[Notification] = []
    for user_id in ids:
        due = now + delay if moment is None else moment - dt.timedelta(minutes=offsets[user_id])
        words = {**shared, **(contexts or {}).get(user_id, {})}
        body = {**shared_body, **(payloads or {}).get(user_id, {})}
        row = existing.get(user_id)
        queued = now if due <= now + SOON else None  # _hand_on gives it a task after commit
        if row is None:
            fresh.append(
                Notification(
                    user_id=user_id,
                    type=type_name,
                    key=key,
                    moment=moment,
                    due_at=due,
                    payload=body,
                    context=words,
                    queued_at=queued,
                )
            )
            continue
        if row.payload == body and row.context == words and row.moment == moment:
            continue
        row.payload, row.context, row.moment, row.due_at = body, words, moment, due
        row.sent_at = row.claimed_at = None
        row.outcome = ""
        row.queued_at = queued
        row.save(update_fields=[*RESET, "payload", "context", "moment", "due_at", "queued_at"])
        changed.append(row)
    _hand_on([*changed, *Notification.objects.bulk_create(fresh)], now)


#: The fields of a row that make it unsent again.
RESET = ("sent_at", "claimed_at", "outcome")
#: Rows due within this long go to the worker with a countdown; later ones wait for a sweep.
SOON = dt.timedelta(seconds=60)
#: Rows one delivery task sends: several tasks share a round's many rows among the worker's
#: processes.
TASK_ROWS = 50


def _tasks(rows: Iterable[Notification], now: dt.datetime) -> list[tuple[list[int], float]]:
    """The delivery tasks of ``rows`` due by ``now`` + :data:`SOON`: ids and countdown (the
    seconds until they are due, rounded up to a tenth so that no task comes before its rows;
    short, so the broker never redelivers the message), at most :data:`TASK_ROWS` ids each."""
    by_wait: dict[float, list[int]] = {}
    for row in rows:
        if row.due_at <= now + SOON:
            wait = max(0.0, (row.due_at - now).total_seconds())
            by_wait.setdefault(math.ceil(round(wait * 10, 6)) / 10, []).append(row.pk)
    return [
        (ids[i : i + TASK_ROWS], wait)
        for wait, ids in sorted(by_wait.items())
        for i in range(0, len(ids), TASK_ROWS)
    ]


def _hand_on(rows: Sequence[Notification], now: dt.datetime) -> None:
    """After commit, hand the rows due now or soon to the worker."""
    for ids, wait in _tasks(rows, now):
        if wait:
            send_after_commit(DELIVER_TASK, ids, countdown=wait)
        else:
            send_after_commit(DELIVER_TASK, ids)


def mail_wanted(users: Iterable[int], type_name: str) -> set[int]:
    """Of ``users``, those an app's own e-mail of ``type_name`` goes to (a type it mails
    itself): who chose e-mail, and who chose push but has no device to push to."""
    ids = list(users)
    chosen = channels_of(ids, type_name)
    with_device = set(
        Device.objects.filter(user_id__in=ids).values_list("user_id", flat=True).distinct()
    )
    return {
        u for u in ids if chosen[u][0] == EMAIL or (chosen[u][0] == PUSH and u not in with_device)
    }


def told(type_name: str, key: str) -> set[int]:
    """Who has a row of ``type_name`` about ``key``, sent or still to send: an app that tells
    each person once (a cup's finalists) leaves them out of its next :func:`notify`."""
    return set(
        Notification.objects.filter(type=type_name, key=key).values_list("user_id", flat=True)
    )


def withdraw(type_name: str, key: str, users: Iterable[int] | None = None) -> int:
    """Nobody (or none of ``users``) is to be told of ``type_name`` about ``key`` any more: an
    evening cancelled removes its reminders, a turn taken its "your turn". Unsent rows are
    deleted; sent ones are deleted too where the type counts what is still pending (your
    turn), else kept as the record of what was sent. Answers how many rows went."""
    rows = Notification.objects.filter(type=type_name, key=key)
    if users is not None:
        rows = rows.filter(user_id__in=list(users))
    if type_name != "your_turn":
        rows = rows.filter(sent_at__isnull=True)
    return rows.delete()[0]


def _offsets(user_ids: Sequence[int], type_name: str) -> dict[int, int]:
    chosen = channels_of(user_ids, type_name)
    return {user_id: chosen[user_id][1] or 0 for user_id in user_ids}


# ---------------------------------------------------------------------------------------------
# presence: "your turn" waits while the person watches the table


def _presence_key(user_id: int, table_id: int) -> str:
    return f"watching:{user_id}:{table_id}"


def mark_watching(user_id: int, table_id: int, seconds: float) -> None:
    """``user_id`` watches ``table_id`` (a live socket subscribed to its hand, or a long
    poll waiting on it) for the next ``seconds``; the watcher renews it while it watches."""
    cache.set(_presence_key(user_id, table_id), 1, timeout=max(1, int(seconds)))


def unmark_watching(user_id: int, table_id: int) -> None:
    cache.delete(_presence_key(user_id, table_id))


def watching(user_id: int, table_id: int) -> bool:
    """Whether ``user_id`` watches ``table_id`` now. Kept in the cache (Redis in production,
    shared by the events process and the worker); a watcher that vanished without a goodbye
    is forgotten when its last renewal runs out."""
    return bool(cache.get(_presence_key(user_id, table_id)))


# ---------------------------------------------------------------------------------------------
# sending (in the worker)


def due_ids(
    limit: int = BATCH,
    after: tuple[dt.datetime, int] | None = None,
    ahead: dt.timedelta = dt.timedelta(0),
) -> list[int]:
    """Rows due now (or within ``ahead``) that nobody is sending (or whose sender died) and
    no task is on its way to (none was given, or one was given ``NOTIFICATION_RESEND_SECONDS``
    ago and the row is due and still unsent: its message was lost), in the order they come
    due (after the row ``after`` names, by its due time and id): what a sweep hands on."""
    now = timezone.now()
    stale = now - dt.timedelta(seconds=settings.NOTIFICATION_CLAIM_SECONDS)
    lost = now - dt.timedelta(seconds=settings.NOTIFICATION_RESEND_SECONDS)
    rows = (
        Notification.objects.filter(sent_at__isnull=True, due_at__lte=now + ahead)
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale))
        .filter(Q(queued_at__isnull=True) | Q(queued_at__lte=lost, due_at__lte=now))
    )
    if after is not None:
        rows = rows.filter(Q(due_at__gt=after[0]) | Q(due_at=after[0], pk__gt=after[1]))
    return list(rows.order_by("due_at", "id").values_list("pk", flat=True)[:limit])


def hand_on_due() -> int:
    """Hand every row due now, or before the next sweep, to the worker in tasks of
    :data:`TASK_ROWS` (those due later with a countdown to their time, so a reminder goes out
    when it is due rather than at the next sweep); answers how many rows were handed on.
    Several tasks share a large sweep among the worker's processes; a row handed on twice (by
    a sweep and by its change, or by two sweeps) is sent once: whoever claims it first."""
    handed = 0
    after: tuple[dt.datetime, int] | None = None
    ahead = dt.timedelta(seconds=settings.NOTIFICATION_SWEEP_SECONDS)
    while True:
        ids = due_ids(after=after, ahead=ahead)
        if not ids:
            return handed
        rows = list(Notification.objects.filter(pk__in=ids).order_by("due_at", "id"))
        now = timezone.now()
        Notification.objects.filter(pk__in=ids).update(queued_at=now)
        for chunk, wait in _tasks(rows, now):
            options = {"countdown": wait} if wait else {}
            if not send(DELIVER_TASK, chunk, **options) and not wait:
                deliver(chunk)
        handed += len(ids)
        if len(ids) < BATCH:
            return handed
        after = (rows[-1].due_at, rows[-1].pk)


def _claim(ids: Sequence[int]) -> list[Notification]:
    """Claim the rows ``ids`` that are due, unsent and unclaimed (or claimed by a sender that
    died), skipping rows another sender is claiming; answers them in the order they came
    due. On PostgreSQL one statement (:func:`_claim_returning`), else a transaction."""
    if connection.vendor == "postgresql":
        return _claim_returning(ids)
    return _claim_in_transaction(ids)


_CLAIM_RETURNING = (
    "UPDATE {table} SET claimed_at = %s WHERE id IN ("
    "SELECT id FROM {table} WHERE id = ANY(%s) AND sent_at IS NULL AND due_at <= %s "
    "AND (claimed_at IS NULL OR claimed_at < %s) FOR UPDATE SKIP LOCKED) RETURNING *"
)


def _claim_returning(ids: Sequence[int]) -> list[Notification]:
    """:func:`_claim` as one ``UPDATE ... RETURNING`` (PostgreSQL): under a third of the
    transaction's CPU in the worker (``bench/outbox_bench.py``), as every "your turn" that a
    falling flag leaves is claimed on its own."""
    now = timezone.now()
    stale = now - dt.timedelta(seconds=settings.NOTIFICATION_CLAIM_SECONDS)
    sql = _CLAIM_RETURNING.format(table=Notification._meta.db_table)
    rows = list(Notification.objects.raw(sql, [now, list(ids), now, stale]))
    rows.sort(key=lambda r: (r.due_at, r.pk))
    return rows


def _claim_in_transaction(ids: Sequence[int]) -> list[Notification]:
    """:func:`_claim` for any database: the rows locked (where the database can), then
    marked."""
    now = timezone.now()
    stale = now - dt.timedelta(seconds=settings.NOTIFICATION_CLAIM_SECONDS)
    with transaction.atomic():
        rows = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(pk__in=list(ids), sent_at__isnull=True, due_at__lte=now)
            .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale))
            .order_by("due_at", "id")
        )
        Notification.objects.filter(pk__in=[r.pk for r in rows]).update(claimed_at=now)
    return rows


#: Rows a delivery claims at a time: a worker killed while sending leaves at most these to
#: wait for ``NOTIFICATION_CLAIM_SECONDS``; the rest of its task are unclaimed, and a sweep
#: hands them on again ``NOTIFICATION_RESEND_SECONDS`` after they were handed on.
CLAIM_ROWS = 10


def deliver(ids: Sequence[int]) -> int:
    """Send the rows ``ids`` that are due and unclaimed, :data:`CLAIM_ROWS` at a time;
    answers how many were sent by push or e-mail."""
    wanted = list(ids)
    return sum(_deliver(wanted[i : i + CLAIM_ROWS]) for i in range(0, len(wanted), CLAIM_ROWS))


def _deliver(ids: Sequence[int]) -> int:
    rows = _claim(ids)
    if not rows:
        return 0
    users = {
        u.pk: u
        for u in User.objects.filter(pk__in={r.user_id for r in rows}).prefetch_related("devices")
    }
    chosen: dict[str, dict[int, tuple[str, int | None]]] = {}
    for type_name in {r.type for r in rows}:
        chosen[type_name] = channels_of([r.user_id for r in rows if r.type == type_name], type_name)
    sent = 0
    now = timezone.now()
    for row in rows:
        user = users.get(row.user_id)
        channel = chosen[row.type][row.user_id][0] if user is not None else OFF
        try:
            row.outcome = _send(row, user, channel, now)
        except Exception:  # noqa: BLE001 - one person's failure never stops the others'
            log.exception("notification %s failed", row.pk)
            row.outcome = Notification.Outcome.FAILED
        row.sent_at = timezone.now()
        Notification.objects.filter(pk=row.pk).update(sent_at=row.sent_at, outcome=row.outcome)
        sent += row.outcome in (Notification.Outcome.PUSHED, Notification.Outcome.MAILED)
    return sent


def _send(row: Notification, user: User | None, channel: str, now: dt.datetime) -> str:
    if user is None or not user.is_active or channel == OFF:
        return Notification.Outcome.OFF
    if row.moment is not None and now - row.due_at > STALE_REMINDER:
        return Notification.Outcome.OFF
    table_id = row.payload.get("table_id")
    if row.type == "your_turn" and isinstance(table_id, int) and watching(user.pk, table_id):
        return Notification.Outcome.WATCHING
    with translation.override(language_for(user)):
        message = message_of(row, now, user)
    devices = [d for d in user.devices.all() if push.configured(d.kind)]
    if channel == PUSH and not devices and BY_NAME[row.type].mail_without_device:
        channel = EMAIL
    if channel == EMAIL and BY_NAME[row.type].mailed_by_app:
        return Notification.Outcome.MAILED
    if channel == EMAIL:
        if not user.email:
            return Notification.Outcome.NO_TARGET
        emails.send(
            user.email,
            message.title,
            f"{message.body}\n\n{emails.link(message.payload['path'])}{emails.SIGNATURE}",
        )
        return Notification.Outcome.MAILED
    assert channel == PUSH
    if not devices:
        return Notification.Outcome.NO_TARGET
    reached = False
    for device in devices:
        reached |= push_to(device, message, row.pk, attempt=1)
    return Notification.Outcome.PUSHED if reached else Notification.Outcome.FAILED


def push_to(device: Device, message: push.Message, notification_id: int, attempt: int) -> bool:
    """Push ``message`` to ``device``: a target the service answers as gone is deleted; one
    the service asks to wait for is tried again later (``PUSH_MAX_ATTEMPTS`` in all). Answers
    whether the service took it or will be asked again."""
    outcome = push.send(device, message)
    if outcome.status == "sent":
        return True
    if outcome.status == "gone":
        log.info("push target %s is gone (%s): removed", device.pk, outcome.detail)
        Device.objects.filter(pk=device.pk).delete()
        return False
    if outcome.status == "retry" and attempt < settings.PUSH_MAX_ATTEMPTS:
        wait = outcome.retry_after
        if wait is None:
            wait = settings.PUSH_BACKOFF_SECONDS * 2 ** (attempt - 1)
        send(RETRY_TASK, notification_id, device.pk, attempt + 1, countdown=min(wait, 3600.0))
        return True
    log.warning("push to target %s failed: %s %s", device.pk, outcome.status, outcome.detail)
    return False


def push_again(notification_id: int, device_id: int, attempt: int) -> bool:
    """The retry of one device's push (``clubs.tasks.push_again``): the message is written
    anew (the count of waiting turns may have changed); nothing when the row or the device is
    gone, or the turn was taken meanwhile."""
    row = Notification.objects.filter(pk=notification_id).first()
    device = Device.objects.filter(pk=device_id).select_related("user").first()
    if row is None or device is None or device.user_id != row.user_id:
        return False
    with translation.override(language_for(device.user)):
        message = message_of(row, timezone.now(), device.user)
    return push_to(device, message, row.pk, attempt)


# ---------------------------------------------------------------------------------------------
# what a notification says


@dataclass(frozen=True)
class Text:
    """How a type is written: ``title`` and ``body`` from the row's context (with
    ``minutes`` to a reminder's moment and ``count`` of waiting turns added)."""

    title: Callable[[Mapping[str, Any]], str]
    body: Callable[[Mapping[str, Any]], str]
    #: Seconds a push service keeps it for a phone that is off.
    ttl: int = 24 * 3600
    urgent: bool = False


def _ids(keys: Iterable[str], prefix: str) -> list[int]:
    return [int(k[2:]) for k in keys if k.startswith(prefix) and k[2:].isdigit()]


#: Namers of other apps' player keys, by the keys' prefix (:func:`register_namer`).
_NAMERS: dict[str, Callable[[list[str], User], dict[str, str]]] = {}


def register_namer(prefix: str, namer: Callable[[list[str], User], dict[str, str]]) -> None:
    """Let ``namer`` name the player keys starting with ``prefix`` (an app's own players,
    e.g. a tournament's entries) as a reader may read them: ``namer(keys, reader)`` answers
    each key's name, a pseudonym where the reader may not read the name. Apps register in
    ``AppConfig.ready``."""
    _NAMERS[prefix] = namer


def _names(values: Any, reader: User) -> str:
    """The players ``values`` names (``clubs.players.player_key``, or a key a registered namer
    knows) as one phrase, each by the name ``reader`` may read now."""
    keys = [str(v) for v in values or ()]
    named: dict[str, str] = {}
    for prefix, namer in _NAMERS.items():
        mine = [k for k in keys if k.startswith(prefix)]
        if mine:
            named.update(namer(mine, reader))
    users = {
        f"u:{u.pk}": u.display_name or u.username
        for u in User.objects.filter(pk__in=_ids(keys, "u:"))
    }
    guests = {f"g:{g.pk}": g.name for g in Guest.objects.filter(pk__in=_ids(keys, "g:"))}
    names = [
        _("a bot") if k == "bot" else named.get(k) or users.get(k) or guests.get(k) or k
        for k in keys
    ]
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


TEXTS: dict[str, Text] = {
    "seated": Text(
        lambda c: _("You are seated: {where}").format(**c),
        lambda c: _("Round {round}, table {table_number}, seat {seat}, with {opponents}.").format(
            **c
        ),
        urgent=True,
    ),
    "round_starts": Text(
        lambda c: _("{where} starts soon").format(**c),
        lambda c: (
            ngettext(
                "Round {round} of {where} starts in {minutes} minute.",
                "Round {round} of {where} starts in {minutes} minutes.",
                c["minutes"],
            )
            if c.get("round")
            else ngettext(
                "{where} starts in {minutes} minute.",
                "{where} starts in {minutes} minutes.",
                c["minutes"],
            )
        ).format(**c),
        ttl=3600,
        urgent=True,
    ),
    "your_turn": Text(
        lambda c: _("Your turn"),
        lambda c: (
            _("It is your turn at {table}: {time_left} left.").format(**c)
            if c["count"] == 1 and c.get("time_left")
            else _("It is your turn at {table}.").format(**c)
            if c["count"] == 1
            else ngettext(
                "It is your turn at {count} table.",
                "It is your turn at {count} tables.",
                c["count"],
            ).format(**c)
        ),
        ttl=3600,
        urgent=True,
    ),
    "time_running_out": Text(
        lambda c: _("Time is running out"),
        lambda c: _("{time_left} left for your turn at {table}.").format(**c),
        urgent=True,
    ),
    "rsvp_closes": Text(
        lambda c: _("Answer for {where}").format(**c),
        lambda c: _("Answers to {where} close on {closes}. Are you coming?").format(**c),
    ),
    "moved_up": Text(
        lambda c: _("You have a place"),
        lambda c: _("A place became free: you are in at {where}.").format(**c),
    ),
    "invited": Text(
        lambda c: _("An invitation for you"),
        lambda c: _("{inviter} invites you to {where}.").format(**c),
        ttl=7 * 24 * 3600,
    ),
    "join_request_answered": Text(
        lambda c: _("Your request to join {club}").format(**c),
        lambda c: (
            _("{club} accepted you as a member.")
            if c.get("accepted")
            else _("{club} declined your request to join.")
        ).format(**c),
        ttl=7 * 24 * 3600,
    ),
    "join_request": Text(
        lambda c: _("A request to join {club}").format(**c),
        lambda c: _("{name} asks to join {club}.").format(**c),
        ttl=7 * 24 * 3600,
    ),
    "results_corrected": Text(
        lambda c: _("Results corrected"),
        lambda c: _("A result at {table} was corrected.").format(**c),
    ),
    "standings_final": Text(
        lambda c: _("Final standings: {where}").format(**c),
        lambda c: (
            _("{where} has finished: you are placed {rank}.").format(**c)
            if c.get("rank")
            else _("{where} has finished: see the final standings.").format(**c)
        ),
        ttl=7 * 24 * 3600,
    ),
    "cup_proposal": Text(
        lambda c: _("{tournament} proposed for {cup}").format(**c),
        lambda c: _(
            "The directors of {cup} propose that {tournament} counts in their cup. Accept or "
            "decline it."
        ).format(**c),
        ttl=7 * 24 * 3600,
    ),
    "cup_qualified": Text(
        lambda c: _("Qualified for the final: {cup}").format(**c),
        lambda c: (
            ngettext(
                "You qualified for the final of {cup}: rank {rank}, {carried} point carried in.",
                "You qualified for the final of {cup}: rank {rank}, {carried} points carried in.",
                c["carried"],
            )
            if c.get("carried")
            else _("You qualified for the final of {cup}: rank {rank}.")
        ).format(**c),
        ttl=7 * 24 * 3600,
    ),
}


def time_left(seconds: float) -> str:
    """A time left in words, in the active language: days, hours, minutes or seconds,
    rounded down to the largest unit that fits (never below zero)."""
    seconds = max(0, int(seconds))
    if seconds >= 2 * 86400:
        days = seconds // 86400
        return ngettext("{n} day", "{n} days", days).format(n=days)
    if seconds >= 2 * 3600:
        hours = seconds // 3600
        return ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    if seconds >= 120:
        minutes = seconds // 60
        return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return ngettext("{n} second", "{n} seconds", seconds).format(n=seconds)


_COLLAPSE = re.compile(r"[^A-Za-z0-9_-]+")


def message_of(row: Notification, now: dt.datetime, reader: User | None = None) -> push.Message:
    """The push message of ``row`` in the active language, its names as its person
    (``reader``, loaded when not given) may read them."""
    text = TEXTS[row.type]
    context: dict[str, Any] = dict(row.context)
    if "opponents" in context:
        context["opponents"] = _names(context["opponents"], reader or row.user)
    ttl = text.ttl
    if row.moment is not None:
        left = max(0.0, (row.moment - now).total_seconds())
        context["minutes"] = round(left / 60)
        ttl = max(60, int(left))
    if "deadline" in context:
        deadline = dt.datetime.fromisoformat(str(context["deadline"]).replace("Z", "+00:00"))
        context["time_left"] = time_left((deadline - now).total_seconds())
    collapse = f"{row.type}-{row.key}"
    if row.type == "your_turn":
        waiting = Notification.objects.filter(user_id=row.user_id, type="your_turn")
        context["count"] = max(1, waiting.count())
        collapse = "your_turn"
    return push.Message(
        title=text.title(context),
        body=text.body(context),
        payload={**row.payload, "notification_id": row.pk},
        collapse_id=_COLLAPSE.sub("-", collapse)[:32],
        ttl_seconds=ttl,
        urgent=text.urgent,
    )
