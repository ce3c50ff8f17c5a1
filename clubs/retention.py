"""What the clubs app forgets once it has passed its retention period (issue 39, docs/privacy.md
"Retention periods"; the periods are ``settings.PERSONAL_DATA_RETENTION``).

Each ``*_due(now)`` function selects the rows whose period has passed at ``now`` and changes
nothing; :func:`forget_due` deletes (or, for an export's document, empties) them and answers
how many of each kind. The beat task ``clubs.tasks_retention.forget_expired_personal_data``
runs it every hour; running it twice deletes nothing more.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, ManyToOneRel, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce

from clubs.models import DataRequest, Invitation, JoinRequest, Notification, User

#: Rows that point at a user and only serve the account itself: they go with an unconfirmed
#: account and do not keep it (every other row that points at a user does). A refresh token
#: (``token_blacklist.OutstandingToken``) is not among them: it was issued by a sign-in.
ACCOUNT_OWN = frozenset(
    {
        "clubs.User_groups",
        "clubs.User_user_permissions",
        "clubs.CalendarFeed",
        "games.IdempotencyRecord",
        "games.WorkerPing",
    }
)


def period(name: str) -> dt.timedelta:
    """The retention period ``name`` of ``settings.PERSONAL_DATA_RETENTION``."""
    return settings.PERSONAL_DATA_RETENTION[name]


def club_invitations_due(now: dt.datetime) -> QuerySet[Invitation]:
    """Club invitations that ended more than ``club_invitations`` ago: expired, or revoked.
    An invitation records no time of its last use, but it cannot be used after it expires
    (at most 90 days after it was made), so a used-up one goes ``club_invitations`` after its
    ``expires_at`` at the latest."""
    cutoff = now - period("club_invitations")
    return Invitation.objects.filter(Q(expires_at__lt=cutoff) | Q(revoked_at__lt=cutoff))


def join_requests_due(now: dt.datetime) -> QuerySet[JoinRequest]:
    """Join requests accepted, declined or withdrawn more than ``join_requests`` ago (a
    pending one stays until someone decides it)."""
    cutoff = now - period("join_requests")
    return (
        JoinRequest.objects.exclude(status=JoinRequest.Status.PENDING)
        .alias(ended=Coalesce("decided_at", "created_at"))
        .filter(ended__lt=cutoff)
    )


def unconfirmed_accounts_due(now: dt.datetime) -> QuerySet[User]:
    """Accounts that signed up more than ``unconfirmed_accounts`` ago, whose e-mail address
    was never confirmed, that never signed in (no ``last_login``, no refresh token) and to
    which nothing is attached; never staff, and never an erased account's tombstone (which
    keeps the record of its erasure).

    "Nothing attached" asks every reverse relation of the user model (:func:`attached`), not a
    list of models: a membership, a seat, a tournament entry or invitation, a table, series or
    tournament the account created, a join request, a guest merged into it, an audit entry
    naming it, and whatever a later app points at a user, without a change here. Only the
    relations in :data:`ACCOUNT_OWN` do not count: they serve the account alone and are deleted
    with it. Asking Django's deletion collector instead would answer the same for the rows a
    delete cascades to, but it works one account at a time, stops at the first protected row
    (a seat, an entry) with an exception, and reports ``SET_NULL`` rows (the tables someone
    created) through private structures; the relations give one query for every account."""
    cutoff = now - period("unconfirmed_accounts")
    return User.objects.filter(
        date_joined__lt=cutoff,
        email_verified_at__isnull=True,
        last_login__isnull=True,
        is_staff=False,
        is_superuser=False,
        erased_at__isnull=True,
    ).exclude(attached())


def attached() -> Q:
    """Whether a row of any model that points at the user (one ``Exists`` per foreign key to
    the user model, many-to-many ones through their tables) holds on to it, the models of
    :data:`ACCOUNT_OWN` apart."""
    condition = Q()
    for relation in User._meta.get_fields(include_hidden=True):
        if not isinstance(relation, ManyToOneRel):  # OneToOneRel is one; M2M: its table's
            continue
        field = relation.field  # the foreign key to the user, on the model that points
        if field.model._meta.label in ACCOUNT_OWN:
            continue
        rows = field.model._base_manager.filter(
            **{field.attname: OuterRef(field.target_field.attname)}
        )
        condition |= Q(Exists(rows))
    return condition


def export_documents_due(now: dt.datetime) -> QuerySet[DataRequest]:
    """Exports whose document became ready more than ``export_documents`` ago and still
    holds it."""
    cutoff = now - period("export_documents")
    return (
        DataRequest.objects.filter(kind=DataRequest.Kind.EXPORT, document__isnull=False)
        .alias(ready=Coalesce("finished_at", "created_at"))
        .filter(ready__lt=cutoff)
    )


def data_requests_due(now: dt.datetime) -> QuerySet[DataRequest]:
    """Records of exports and erasures finished (or, unfinished, asked) more than
    ``data_requests`` ago."""
    cutoff = now - period("data_requests")
    return DataRequest.objects.alias(ended=Coalesce("finished_at", "created_at")).filter(
        ended__lt=cutoff
    )


def notifications_due(now: dt.datetime) -> QuerySet[Notification]:
    """Notifications sent more than ``notifications`` ago (an unsent one stays until it is
    sent or withdrawn; a "your turn" until the turn is taken)."""
    return Notification.objects.filter(sent_at__lt=now - period("notifications")).exclude(
        type="your_turn"
    )


def forget_due(now: dt.datetime) -> dict[str, int]:
    """Delete what is due at ``now``: club invitations, join requests, unconfirmed accounts
    (with the rows only they used), export documents (the request stays, ``expired``, and
    without its document), old request records and sent notifications. Answers how many of
    each kind."""
    counts = {
        "club_invitations": club_invitations_due(now).delete()[1].get(Invitation._meta.label, 0),
        "join_requests": join_requests_due(now).delete()[1].get(JoinRequest._meta.label, 0),
        "unconfirmed_accounts": _delete_accounts(now),
        "export_documents": _expire_documents(now),
        "data_requests": data_requests_due(now).delete()[1].get(DataRequest._meta.label, 0),
        "notifications": notifications_due(now).delete()[1].get(Notification._meta.label, 0),
    }
    return counts


def _delete_accounts(now: dt.datetime) -> int:
    # The accounts are locked as they are chosen, so that nothing comes to point at one
    # (a membership, a seat) between the choice and the delete.
    with transaction.atomic():
        ids = list(unconfirmed_accounts_due(now).select_for_update().values_list("pk", flat=True))
        if not ids:
            return 0
        return User.objects.filter(pk__in=ids).delete()[1].get(User._meta.label, 0)


def _expire_documents(now: dt.datetime) -> int:
    due = export_documents_due(now)
    expired = due.filter(status=DataRequest.Status.READY).update(
        document=None, status=DataRequest.Status.EXPIRED
    )
    return expired + due.update(document=None)
