"""What the clubs app keeps about a person, for their export and their erasure (issue 39,
``clubs.privacy``; ``docs/privacy.md``).

Two keepers answer for the clubs app's models:

- ``account`` (the account around the profile): the refresh tokens that keep the person's
  devices signed in, their requests for an export or an erasure, and the admin's log entries
  about them or by them. Erasure signs every device out, drops the documents of their exports
  and replaces their names in the admin's log by the pseudonym.
- ``clubs``: memberships, invitations, join requests, guests, evening series, answers and
  check-ins, calendar feeds, season standings and ratings. Erasure ends every membership (as
  leaving does), deletes what served only the person (pending invitations and join requests,
  calendar feeds, answers for evenings still to come) and keeps, under the pseudonym, what
  the club's books and other players' results need (past attendance, standings, ratings,
  the settlements of closed evenings).

An export in a club's :class:`~clubs.privacy.Scope` (a manager acting on the member's request)
holds only the rows of that club (``Scope.covers``): its memberships, invitations, join
requests, guests, series, evenings, standings and ratings, and the data requests made
through that club; the rest (devices, calendar feeds, the admin's log) is the person's own
export's alone, and its lists are empty there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q
from django.utils import timezone, translation
from rest_framework_simplejwt.token_blacklist.models import OutstandingToken

from clubs import privacy
from clubs.models import (
    Attendance,
    CalendarFeed,
    Club,
    DataRequest,
    Device,
    Evening,
    EveningSeries,
    Guest,
    Invitation,
    JoinRequest,
    Membership,
    Notification,
    NotificationSetting,
    Rating,
    RatingChange,
    SeasonStanding,
    User,
)
from clubs.privacy import Erasure, Keeper, Scope, when
from clubs.services import evenings, rounds, users
from clubs.services.people import invitation_state
from games.models import Seat

ACCOUNT_MODELS = frozenset(
    {
        "clubs.User",
        "clubs.DataRequest",
        "clubs.Device",
        "clubs.NotificationSetting",
        "clubs.Notification",
        "admin.LogEntry",
        "token_blacklist.OutstandingToken",
    }
)
CLUBS_MODELS = frozenset(
    {
        "clubs.Membership",
        "clubs.Invitation",
        "clubs.JoinRequest",
        "clubs.Guest",
        "clubs.EveningSeries",
        "clubs.Attendance",
        "clubs.CalendarFeed",
        "clubs.SeasonStanding",
        "clubs.Rating",
    }
)

_ACTIONS = {ADDITION: "added", CHANGE: "changed", DELETION: "deleted"}


def register() -> None:
    """Register the clubs app's two keepers (``ClubsConfig.ready``)."""
    privacy.register(
        Keeper(
            section="clubs",
            models=CLUBS_MODELS,
            export=clubs_export,
            erase=clubs_erase,
            order=500,
        )
    )
    privacy.register(
        Keeper(
            section="account",
            models=ACCOUNT_MODELS,
            export=account_export,
            erase=account_erase,
            order=900,
        )
    )


def _club(club: Club) -> dict[str, Any]:
    return {"id": club.pk, "name": club.name}


def _confirmed_email(user: User) -> str:
    """The person's confirmed address (lower case), or ``""``: only a confirmed address
    proves that the invitations sent to it are the person's (``clubs.services.users``)."""
    return user.email.strip().lower() if user.email and user.email_verified_at else ""


def _merged_guests(user: User) -> list[Guest]:
    return list(Guest.objects.filter(merged_into=user).select_related("club").order_by("pk"))


# ---------------------------------------------------------------------------------------------
# the account


def account_export(user: User, scope: Scope) -> dict[str, Any]:
    """The ``account`` section: ``sessions`` (the refresh tokens of the person's devices),
    ``push_devices`` (their push targets), ``notification_settings`` (the choices they made),
    ``notifications`` (what was sent or is to be sent to them), ``data_requests`` and
    ``admin_log``. In a club's
    export only the data requests made through that club; the other lists are empty."""
    requests = [
        r
        for r in DataRequest.objects.filter(subject=user).select_related("club").order_by("pk")
        if scope.covers(r.club_id)
    ]
    own = scope.club is None
    return {
        "sessions": _sessions(user) if own else [],
        "push_devices": _push_devices(user) if own else [],
        "notification_settings": _notification_settings(user) if own else [],
        "notifications": _notifications(user) if own else [],
        "data_requests": [_data_request(user, r) for r in requests],
        "admin_log": _admin_log(user) if own else [],
    }


def _sessions(user: User) -> list[dict[str, Any]]:
    """The refresh tokens issued to the person: when, until when, whether signed out; never
    the token or its id."""
    rows = (
        OutstandingToken.objects.filter(user=user)
        .order_by("created_at", "pk")
        .values("created_at", "expires_at", "blacklistedtoken__blacklisted_at")
    )
    return [
        {
            "issued_at": when(row["created_at"]),
            "expires_at": when(row["expires_at"]),
            "revoked": row["blacklistedtoken__blacklisted_at"] is not None,
            "revoked_at": when(row["blacklistedtoken__blacklisted_at"]),
        }
        for row in rows
    ]


def _push_devices(user: User) -> list[dict[str, Any]]:
    """The person's push targets (``clubs.models.Device``): which service, app and label,
    since and last registered; never the token or the keys, which address the phone."""
    return [
        {
            "id": d.pk,
            "kind": d.kind,
            "app": d.app,
            "name": d.name,
            "created_at": when(d.created_at),
            "registered_at": when(d.registered_at),
        }
        for d in Device.objects.filter(user=user).order_by("created_at", "pk")
    ]


def _notification_settings(user: User) -> list[dict[str, Any]]:
    """The choices the person made per notification type (the defaults are nobody's data)."""
    return [
        {"type": s.type, "channel": s.channel, "offset_minutes": s.offset_minutes}
        for s in NotificationSetting.objects.filter(user=user).order_by("type")
    ]


def _notifications(user: User) -> list[dict[str, Any]]:
    """What was sent to the person, or waits to be sent (``clubs.outbox``): type, what it is
    about, when it was due and sent and how, and what the app read (the payload)."""
    return [
        {
            "type": n.type,
            "about": n.key,
            "due_at": when(n.due_at),
            "sent_at": when(n.sent_at),
            "outcome": n.outcome,
            "payload": n.payload,
        }
        for n in Notification.objects.filter(user=user).order_by("created_at", "pk")
    ]


def _data_request(user: User, request: DataRequest) -> dict[str, Any]:
    if request.actor_id == user.pk:
        asked_by = "self"
    elif request.club_id is not None:
        asked_by = "club"
    else:
        asked_by = "staff"
    return {
        "id": request.pk,
        "kind": request.kind,
        "status": request.status,
        "asked_by": asked_by,
        "club": None if request.club is None else _club(request.club),
        "created_at": when(request.created_at),
        "finished_at": when(request.finished_at),
        "expires_at": when(request.expires_at),
    }


def _about(user: User) -> Q:
    kind = ContentType.objects.get_for_model(User)
    return Q(content_type=kind, object_id=str(user.pk))


def _admin_log(user: User) -> list[dict[str, Any]]:
    """The admin site's log entries about the person's account or made by them."""
    entries = list(
        LogEntry.objects.filter(Q(user=user) | _about(user)).order_by("action_time", "pk")
    )
    kinds = {
        kind.pk: f"{kind.app_label}.{kind.model}"
        for kind in ContentType.objects.filter(pk__in={e.content_type_id for e in entries})
    }
    return [
        {
            "action_time": when(entry.action_time),
            "action": _ACTIONS.get(entry.action_flag, str(entry.action_flag)),
            "object_type": kinds.get(entry.content_type_id) if entry.content_type_id else None,
            "object_id": entry.object_id,
            "object_repr": entry.object_repr,
            "change_message": entry.get_change_message(),
            "by_you": entry.user_id == user.pk,
        }
        for entry in entries
    ]


def account_erase(erasure: Erasure) -> None:
    """Sign every device out (blacklist each refresh token, forget each push target), forget
    the person's notification choices and notifications, drop the documents of the person's
    exports, and replace their names in the admin's log by the pseudonym. Django sessions (the
    admin's, the browsable API's) end by themselves: ``clubs.privacy.erase`` makes the password
    unusable, which changes the session's auth hash, and the account inactive."""
    user = erasure.user
    users.sessions_revoke_all(user=user)
    NotificationSetting.objects.filter(user=user).delete()
    Notification.objects.filter(user=user).delete()
    DataRequest.objects.filter(subject=user, kind=DataRequest.Kind.EXPORT).update(document=None)
    DataRequest.objects.filter(
        subject=user,
        kind=DataRequest.Kind.EXPORT,
        status__in=(DataRequest.Status.PENDING, DataRequest.Status.READY),
    ).update(status=DataRequest.Status.EXPIRED, expires_at=timezone.now())
    _scrub_admin_log(erasure)


def _spellings(erasure: Erasure) -> list[str]:
    """Every spelling of the person's names to find in a text: as stored and case-folded."""
    user = erasure.user
    raw = (
        user.username,
        user.display_name,
        user.first_name,
        user.last_name,
        f"{user.first_name} {user.last_name}".strip(),
        user.email,
    )
    found = {name.strip() for name in (*raw, *erasure.names) if name and name.strip()}
    return sorted(found, key=lambda name: (-len(name), name))


def scrub_text(erasure: Erasure, text: str) -> str:
    """``text`` with the person's names replaced by the pseudonym: the whole text when it is
    one of them (:meth:`Erasure.scrub`), else each of them where it stands as a word of its
    own ("Anna in Grazer Runde (member)"), in any case."""
    if not text:
        return text
    whole = erasure.scrub(text)
    if whole != text:
        return str(whole)
    spellings = _spellings(erasure)
    if not spellings:
        return text
    pattern = "|".join(re.escape(name) for name in spellings)
    return re.sub(rf"(?<!\w)(?:{pattern})(?!\w)", erasure.pseudonym, text, flags=re.IGNORECASE)


def _scrub_json_text(erasure: Erasure, value: Any) -> Any:
    """``value`` (JSON) with :func:`scrub_text` applied to every string value; object keys
    (field names) stay, as in :meth:`Erasure.scrub`."""
    if isinstance(value, str):
        return scrub_text(erasure, value)
    if isinstance(value, list):
        return [_scrub_json_text(erasure, item) for item in value]
    if isinstance(value, dict):
        return {key: _scrub_json_text(erasure, item) for key, item in value.items()}
    return value


def _scrub_change_message(erasure: Erasure, message: str) -> str:
    """A log entry's change message (the admin's JSON, or a plain text) with the names
    replaced."""
    try:
        parsed = json.loads(message)
    except ValueError:
        return scrub_text(erasure, message)
    if not isinstance(parsed, (list, dict)):
        return scrub_text(erasure, message)
    return json.dumps(_scrub_json_text(erasure, parsed))


def _scrub_admin_log(erasure: Erasure) -> None:
    """The admin's log entries by the person, about their account, or naming them in their
    object's name or their change message: the names replaced by the pseudonym. The entries
    stay (who changed what in the admin is the site's record)."""
    mentions = Q(user=erasure.user) | _about(erasure.user)
    for name in _spellings(erasure):
        escaped = json.dumps(name)[1:-1]  # how the admin's JSON stores it
        mentions |= Q(object_repr__icontains=name) | Q(change_message__icontains=name)
        mentions |= Q(change_message__icontains=escaped)
    for entry in LogEntry.objects.filter(mentions).order_by("pk"):
        fields = {
            "object_repr": scrub_text(erasure, entry.object_repr),
            "change_message": _scrub_change_message(erasure, entry.change_message),
        }
        changed = [name for name, value in fields.items() if getattr(entry, name) != value]
        if changed:
            for name in changed:
                setattr(entry, name, fields[name])
            entry.save(update_fields=changed)


# ---------------------------------------------------------------------------------------------
# the clubs


def clubs_export(user: User, scope: Scope) -> dict[str, Any]:
    """The ``clubs`` section: the person's memberships, invitations, join requests, guests,
    evening series, answers and check-ins, calendar feeds, season standings and ratings (in a
    club's export: that club's only)."""
    own = scope.club is None
    return {
        "memberships": _memberships(user, scope),
        "invitations_sent": _invitations_sent(user, scope),
        "invitations_received": _invitations_received(user, scope),
        "join_requests": _join_requests(user, scope),
        "guests": _guests(user, scope),
        "evening_series": _series(user, scope),
        "attendances": _attendances(user, scope),
        "calendar_feeds": _calendar_feeds(user) if own else [],
        "season_standings": _standings(user, scope),
        "ratings": _ratings(user, scope),
    }


def _memberships(user: User, scope: Scope) -> list[dict[str, Any]]:
    rows = Membership.objects.filter(user=user).select_related("club").order_by("joined_at", "pk")
    return [
        {"club": _club(m.club), "role": m.role, "joined_at": when(m.joined_at)}
        for m in rows
        if scope.covers(m.club_id)
    ]


def _invitation(invitation: Invitation) -> dict[str, Any]:
    return {
        "id": invitation.pk,
        "club": _club(invitation.club),
        "role": invitation.role,
        "state": invitation_state(invitation).value,
        "created_at": when(invitation.created_at),
        "expires_at": when(invitation.expires_at),
        "revoked_at": when(invitation.revoked_at),
        "uses": invitation.uses,
        "max_uses": invitation.max_uses,
    }


def _invitations_sent(user: User, scope: Scope) -> list[dict[str, Any]]:
    """The invitations the person made, without their codes and without the invitee's address
    (another person's)."""
    rows = Invitation.objects.filter(created_by=user).select_related("club").order_by("pk")
    return [
        {**_invitation(i), "to_an_address": bool(i.email)} for i in rows if scope.covers(i.club_id)
    ]


def _invitations_received(user: User, scope: Scope) -> list[dict[str, Any]]:
    """The invitations sent to the person's confirmed address, without their codes."""
    address = _confirmed_email(user)
    if not address:
        return []
    rows = Invitation.objects.filter(email__iexact=address).select_related("club").order_by("pk")
    return [{**_invitation(i), "email": i.email} for i in rows if scope.covers(i.club_id)]


def _join_requests(user: User, scope: Scope) -> list[dict[str, Any]]:
    rows = JoinRequest.objects.filter(user=user).select_related("club").order_by("pk")
    return [
        {
            "id": r.pk,
            "club": _club(r.club),
            "message": r.message,
            "status": r.status,
            "created_at": when(r.created_at),
            "decided_at": when(r.decided_at),
        }
        for r in rows
        if scope.covers(r.club_id)
    ]


def _guests(user: User, scope: Scope) -> list[dict[str, Any]]:
    """The guests the person added and the guests merged into their account."""
    rows = (
        Guest.objects.filter(Q(created_by=user) | Q(merged_into=user))
        .select_related("club")
        .order_by("pk")
    )
    return [
        {
            "id": g.pk,
            "club": _club(g.club),
            "name": g.name,
            "created_at": when(g.created_at),
            "added_by_you": g.created_by_id == user.pk,
            "merged_into_you": g.merged_into_id == user.pk,
            "merged_at": when(g.merged_at),
        }
        for g in rows
        if scope.covers(g.club_id)
    ]


def _series(user: User, scope: Scope) -> list[dict[str, Any]]:
    rows = EveningSeries.objects.filter(created_by=user).select_related("club").order_by("pk")
    return [
        {
            "id": s.pk,
            "club": _club(s.club),
            "title": s.title,
            "rrule": s.rrule,
            "first_start": when(s.first_start),
            "duration_minutes": s.duration_minutes,
            "place": s.place,
            "created_at": when(s.created_at),
        }
        for s in rows
        if scope.covers(s.club_id)
    ]


def _attendances(user: User, scope: Scope) -> list[dict[str, Any]]:
    """The person's answers and check-ins, and those of the guests merged into them."""
    rows = (
        Attendance.objects.filter(Q(user=user) | Q(guest__merged_into=user))
        .select_related("evening__club")
        .order_by("evening__starts_at", "pk")
    )
    return [
        {
            "evening": {
                "id": a.evening.pk,
                "title": a.evening.title,
                "starts_at": when(a.evening.starts_at),
                "ends_at": when(a.evening.ends_at),
                "status": a.evening.status,
            },
            "club": _club(a.evening.club),
            "as_guest": a.guest_id,
            "answer": a.answer,
            "waitlisted": a.waitlisted,
            "answered_at": when(a.answered_at),
            "checked_in_at": when(a.checked_in_at),
            "left_at": when(a.left_at),
        }
        for a in rows
        if scope.covers(a.evening.club_id)
    ]


def _calendar_feeds(user: User) -> list[dict[str, Any]]:
    """The person's iCal feeds, without their secret addresses."""
    rows = CalendarFeed.objects.filter(user=user).order_by("created_at", "pk")
    return [
        {"id": f.pk, "created_at": when(f.created_at), "revoked_at": when(f.revoked_at)}
        for f in rows
    ]


def _standings(user: User, scope: Scope) -> list[dict[str, Any]]:
    rows = (
        SeasonStanding.objects.filter(user=user)
        .select_related("season__club")
        .order_by("season__starts_on", "season_id")
    )
    return [
        {
            "club": _club(s.season.club),
            "season": {
                "id": s.season.pk,
                "name": s.season.name,
                "starts_on": when(s.season.starts_on),
                "ends_on": when(s.season.ends_on),
            },
            "name": s.name,
            "rank": s.rank,
            "position": s.position,
            "balance": s.balance,
            "score": s.score,
            "hands_played": s.hands_played,
            "declared": s.declared,
            "made": s.made,
            "premium_games": s.premium_games,
            "average_per_hand": s.average_per_hand,
            "evenings": s.evenings,
            "sittings": s.sittings,
            "league_points": s.league_points,
        }
        for s in rows
        if scope.covers(s.season.club_id)
    ]


def _ratings(user: User, scope: Scope) -> list[dict[str, Any]]:
    """The person's rating in each club, with every change of it (one per table sitting)."""
    player = f"u:{user.pk}"
    answer = []
    for r in Rating.objects.filter(user=user).select_related("club").order_by("club_id"):
        if not scope.covers(r.club_id):
            continue
        changes = RatingChange.objects.filter(club_id=r.club_id, player=player).order_by(
            "at", "table_id"
        )
        answer.append(
            {
                "club": _club(r.club),
                "name": r.name,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "sittings": r.sittings,
                "updated_at": when(r.updated_at),
                "changes": [
                    {
                        "table": c.table_id,
                        "at": when(c.at),
                        "rank": c.rank,
                        "mu_before": c.mu_before,
                        "sigma_before": c.sigma_before,
                        "mu_after": c.mu_after,
                        "sigma_after": c.sigma_after,
                        "ordinal_after": c.ordinal_after,
                    }
                    for c in changes
                ],
            }
        )
    return answer


def clubs_erase(erasure: Erasure) -> None:
    """The person leaves every club and what served only them goes; what the clubs' books and
    other players' results need stays, under the pseudonym (``docs/privacy.md``)."""
    user = erasure.user
    stand_in = erasure.pseudonym
    guests = _merged_guests(user)
    keys = {f"u:{user.pk}", *(f"g:{g.pk}" for g in guests)}
    _settlements(erasure, keys, guests)
    # Leaving every club: answers for evenings still to come go, and the waitlist moves up.
    clubs = set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
    clubs |= set(
        Attendance.objects.filter(user=user, evening__starts_at__gt=timezone.now()).values_list(
            "evening__club_id", flat=True
        )
    )
    Membership.objects.filter(user=user).delete()
    for club_id in sorted(clubs):
        evenings.attendance_remove_member(club_id=club_id, user_id=user.pk)
    # What served only the person.
    JoinRequest.objects.filter(user=user, status=JoinRequest.Status.PENDING).delete()
    JoinRequest.objects.filter(user=user).exclude(message="").update(message="")
    CalendarFeed.objects.filter(user=user).delete()
    address = _confirmed_email(user)
    if address:
        sent_to_them = Invitation.objects.filter(email__iexact=address)
        pending = [i.pk for i in sent_to_them if invitation_state(i) == Invitation.State.ACTIVE]
        Invitation.objects.filter(pk__in=pending).delete()
        Invitation.objects.filter(email__iexact=address).update(email="")
    # Copies of the name where the club keeps the rows.
    Guest.objects.filter(pk__in=[g.pk for g in guests]).update(name=stand_in)
    ours = Q(user=user) | Q(guest__in=[g.pk for g in guests])
    SeasonStanding.objects.filter(ours).update(name=stand_in)
    Rating.objects.filter(ours).update(name=stand_in)


def _evenings_of(user: User, guests: Iterable[Guest]) -> list[Evening]:
    """The closed evenings whose stored settlement may name the person: where they (or a
    guest merged into them) answered or sat at one of the evening's tables."""
    guest_ids = [g.pk for g in guests]
    tables = Seat.objects.filter(Q(user=user) | Q(guest__in=guest_ids)).values("table_id")
    attended = Attendance.objects.filter(Q(user=user) | Q(guest__in=guest_ids)).values("evening_id")
    return list(
        Evening.objects.filter(Q(tables__table__in=tables) | Q(pk__in=attended))
        .filter(settlement__isnull=False)
        .distinct()
        .order_by("pk")
    )


def _settlements(erasure: Erasure, keys: set[str], guests: list[Guest]) -> None:
    """The pseudonym for the person's name in the stored settlements of closed evenings:
    their row's name and the payments they make or get, whose sentences are written again;
    every other player's row and payment stays as it was."""
    for evening in _evenings_of(erasure.user, guests):
        settled = evening.settlement
        if not isinstance(settled, dict):
            continue
        changed = False
        for row in settled.get("players", []):
            if row.get("player") in keys:
                row["name"] = erasure.pseudonym
                changed = True
        payments = settled.get("payments", [])
        for i, payment in enumerate(payments):
            if payment.get("from") not in keys and payment.get("to") not in keys:
                continue
            for side in ("from", "to"):
                if payment.get(side) in keys:
                    payment[f"{side}_name"] = erasure.pseudonym
            with translation.override(settings.LANGUAGE_CODE):
                written = rounds.in_reader_language(
                    {"payments": [payment]},
                    settings.CURRENCY_SYMBOL,
                    keeper=rounds.evening_pot_keeper(evening),
                )
            payments[i] = {**payment, "sentence": written["payments"][0]["sentence"]}
            changed = True
        if changed:
            evening.settlement = settled
            evening.save(update_fields=["settlement"])
