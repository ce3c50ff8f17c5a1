"""What the server tells a person on their phone (issue 40, ``docs/notifications.md``): the
notification types, the channels a person may choose for each, and each person's choice.

Part of the base, as :mod:`clubs.privacy` is: every app sends notifications of these types
(clubs: evenings and their rounds, invitations, join requests; games: a hosted table's turn,
corrected results; tournaments: rounds, waitlists, final standings, cups' proposals and
finalists), and the person chooses once per type, whichever app sends it. A type names the
thing that happened, not the app: "you are seated" is the same choice at a club evening and
at a tournament.

A person's choice (:class:`clubs.models.NotificationSetting`) is kept only where it differs
from the type's default; :func:`settings_of` answers every type, the default where no choice
is kept."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from clubs.errors import InvalidInput
from clubs.models import Notification, NotificationSetting, User

PUSH, EMAIL, OFF = "push", "email", "off"
#: Every channel, in the order a settings screen lists them.
CHANNELS = (PUSH, EMAIL, OFF)


@dataclass(frozen=True)
class NotificationType:
    """One thing a person may be told of: its ``name`` (the API's word), what a settings
    screen shows (``title``, ``description``), the channels it may go by and the default,
    and, where it is a reminder, its default offset in minutes before the moment and the
    range a person may choose."""

    name: str
    title: Promise
    description: Promise
    default: str = PUSH
    channels: tuple[str, ...] = CHANNELS
    offset: int | None = None
    offsets: tuple[int, int] | None = None
    #: Sent by e-mail instead when push is chosen and the person has no device (what the
    #: server sent by e-mail before there was push).
    mail_without_device: bool = False
    #: The app sends its own e-mail for it (with its links and codes) to whom
    #: ``clubs.outbox.mail_wanted`` names: the outbox then only pushes.
    mailed_by_app: bool = False


TYPES: tuple[NotificationType, ...] = (
    NotificationType(
        "seated",
        gettext_lazy("You are seated"),
        gettext_lazy(
            "A round of a club evening or a tournament is seated: your table, seat and opponents."
        ),
    ),
    NotificationType(
        "round_starts",
        gettext_lazy("A round starts soon"),
        gettext_lazy("A reminder before a round you play in starts."),
        offset=10,
        offsets=(0, 240),
    ),
    NotificationType(
        "your_turn",
        gettext_lazy("Your turn"),
        gettext_lazy(
            "It is your turn at a hosted table, and you are not watching it (several tables "
            "in one message)."
        ),
        channels=(PUSH, OFF),
    ),
    NotificationType(
        "time_running_out",
        gettext_lazy("Time is running out"),
        gettext_lazy(
            "At a turn-based table: a reminder and a warning before your time for an action "
            "runs out."
        ),
    ),
    NotificationType(
        "rsvp_closes",
        gettext_lazy("Answers close"),
        gettext_lazy("A reminder before the answers to a club evening close."),
        offset=24 * 60,
        offsets=(60, 7 * 24 * 60),
    ),
    NotificationType(
        "moved_up",
        gettext_lazy("Moved up from the waitlist"),
        gettext_lazy("You have a place at an evening or in a tournament you waited for."),
        mail_without_device=True,
    ),
    NotificationType(
        "invited",
        gettext_lazy("An invitation for you"),
        gettext_lazy("A club or a tournament invites you."),
        mail_without_device=True,
        mailed_by_app=True,
    ),
    NotificationType(
        "join_request_answered",
        gettext_lazy("Your request to join"),
        gettext_lazy("A club accepted or declined your request to join."),
        mail_without_device=True,
        mailed_by_app=True,
    ),
    NotificationType(
        "join_request",
        gettext_lazy("A request to join your club"),
        gettext_lazy("Someone asks to join a club you manage (owners and admins)."),
        mail_without_device=True,
        mailed_by_app=True,
    ),
    NotificationType(
        "results_corrected",
        gettext_lazy("Results corrected"),
        gettext_lazy("A hand or a total at a table of yours was corrected."),
    ),
    NotificationType(
        "standings_final",
        gettext_lazy("Final standings"),
        gettext_lazy("A tournament you played in has finished: its final standings."),
    ),
    # new types go last: clients list the types in this order
    NotificationType(
        "cup_proposal",
        gettext_lazy("A cup proposes your tournament"),
        gettext_lazy(
            "A cup's directors propose that a tournament you direct counts in their cup: you "
            "accept or decline it."
        ),
    ),
    NotificationType(
        "cup_qualified",
        gettext_lazy("Qualified for a cup's final"),
        gettext_lazy(
            "You qualified for the final of a cup you play in: your cup rank and the points "
            "you carry into the final."
        ),
    ),
)
BY_NAME: Mapping[str, NotificationType] = {t.name: t for t in TYPES}
#: The types' names, in order: the schema's ``NotificationTypeEnum``.
TYPE_NAMES = tuple(BY_NAME)


def settings_of(user: User) -> list[dict[str, Any]]:
    """Every type with ``user``'s channel and offset (the defaults where they chose none), in
    the order of :data:`TYPES`."""
    chosen = {s.type: s for s in NotificationSetting.objects.filter(user=user)}
    out = []
    for t in TYPES:
        kept = chosen.get(t.name)
        out.append(
            {
                "type": t.name,
                "channel": kept.channel if kept else t.default,
                "offset_minutes": (
                    kept.offset_minutes if kept and kept.offset_minutes is not None else t.offset
                ),
            }
        )
    return out


def channels_of(user_ids: Iterable[int], type_name: str) -> dict[int, tuple[str, int | None]]:
    """Each of ``user_ids``'s channel and offset for ``type_name`` (the defaults where they
    chose none), in one query."""
    t = BY_NAME[type_name]
    chosen = {
        s.user_id: s
        for s in NotificationSetting.objects.filter(user_id__in=list(user_ids), type=type_name)
    }
    out: dict[int, tuple[str, int | None]] = {}
    for user_id in user_ids:
        kept = chosen.get(user_id)
        offset = kept.offset_minutes if kept and kept.offset_minutes is not None else t.offset
        out[user_id] = (kept.channel if kept else t.default, offset)
    return out


def _checked(change: Mapping[str, Any]) -> tuple[NotificationType, str | None, int | None]:
    """One change's type, channel and offset, or a 400 naming ``notifications``."""
    t = BY_NAME.get(str(change.get("type")))
    if t is None:
        raise InvalidInput.about(
            "notifications",
            gettext("There is no notification type {type}; the types are {types}.").format(
                type=change.get("type"), types=", ".join(BY_NAME)
            ),
            code="notification_type_unknown",
        )
    channel, offset = change.get("channel"), change.get("offset_minutes")
    if channel is not None and channel not in t.channels:
        raise InvalidInput.about(
            "notifications",
            gettext("{type} goes by {channels}, not by {channel}.").format(
                type=t.name, channels=", ".join(t.channels), channel=channel
            ),
            code="notification_channel",
        )
    if offset is not None:
        if t.offsets is None:
            raise InvalidInput.about(
                "notifications",
                gettext("{type} is no reminder: it has no offset.").format(type=t.name),
                code="notification_offset",
            )
        low, high = t.offsets
        if not low <= offset <= high:
            raise InvalidInput.about(
                "notifications",
                gettext(
                    "{type} reminds you {low} to {high} minutes before; {offset} is outside."
                ).format(type=t.name, low=low, high=high, offset=offset),
                code="notification_offset",
            )
    return t, channel, offset


@transaction.atomic
def settings_update(user: User, changes: Iterable[Mapping[str, Any]]) -> None:
    """Apply ``changes`` (each a ``type`` with a ``channel`` and/or ``offset_minutes`` to
    set) to ``user``'s choices, all or none; a choice back at the type's default is
    forgotten."""
    checked = [_checked(change) for change in changes]
    current = {s["type"]: s for s in settings_of(user)}
    for t, channel, offset in checked:
        now = current[t.name]
        if channel is not None:
            now["channel"] = channel
        if offset is not None:
            now["offset_minutes"] = offset
        if offset is not None:
            _move_reminders(user, t.name, offset)
        if now["channel"] == t.default and now["offset_minutes"] == t.offset:
            NotificationSetting.objects.filter(user=user, type=t.name).delete()
        else:
            NotificationSetting.objects.update_or_create(
                user=user,
                type=t.name,
                defaults={
                    "channel": now["channel"],
                    "offset_minutes": now["offset_minutes"] if t.offsets else None,
                },
            )


def _move_reminders(user: User, type_name: str, offset: int) -> None:
    """``user`` chose another offset for reminder type ``type_name``: their unsent reminders
    of it (``clubs.outbox``) move to the new time before their moment."""
    for row in Notification.objects.filter(
        user=user, type=type_name, sent_at__isnull=True, moment__isnull=False
    ):
        assert row.moment is not None
        row.due_at = row.moment - dt.timedelta(minutes=offset)
        row.queued_at = None  # a task given for the old time finds it not due: sweeps send it
        row.save(update_fields=["due_at", "queued_at"])
