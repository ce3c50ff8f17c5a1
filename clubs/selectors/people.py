"""Reads for a club's people: clubs with the caller's role, invitations, join requests,
guests, the caller's memberships and invitations; querysets with their relations loaded."""

from __future__ import annotations

from typing import Any

from django.db.models import CharField, F, OuterRef, QuerySet, Subquery, Value
from django.utils.timezone import now

from clubs import selectors
from clubs.models import (
    Club,
    Device,
    Guest,
    Invitation,
    JoinRequest,
    Membership,
    Notification,
    User,
)
from clubs.permissions import AnyUser


def clubs_with_my_role(*, user: AnyUser) -> QuerySet[Club]:
    """:func:`clubs.selectors.clubs_for_user` with the caller's ``my_role`` (None outside)."""
    clubs = selectors.clubs_for_user(user=user).order_by("name", "id")
    if not user.is_authenticated:
        return clubs.annotate(my_role=Value(None, output_field=CharField()))
    role = Membership.objects.filter(club=OuterRef("pk"), user=user.pk).values("role")[:1]
    return clubs.annotate(my_role=Subquery(role))


def invitations_of(*, club: Club) -> QuerySet[Invitation]:
    return Invitation.objects.filter(club=club).select_related("club")


def invitation_by_code(*, code: str) -> Invitation | None:
    return Invitation.objects.filter(code=code).select_related("club").first()


def join_requests_of(*, club: Club) -> QuerySet[JoinRequest]:
    return JoinRequest.objects.filter(club=club).select_related("user")


def guests_of(*, club: Club) -> QuerySet[Guest]:
    return Guest.objects.filter(club=club)


def memberships_of_user(*, user: User) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name", "id")


def devices_of(*, user: User) -> QuerySet[Device]:
    """The person's push targets, the one registered last first."""
    return Device.objects.filter(user=user).order_by("-registered_at", "-id")


def inbox_of(*, user: User, size: int) -> list[Notification]:
    """The last ``size`` notifications sent to the person (by push or e-mail, or meant to
    be and without a target), the newest first: their inbox."""
    shown = (
        Notification.Outcome.PUSHED,
        Notification.Outcome.MAILED,
        Notification.Outcome.NO_TARGET,
        Notification.Outcome.FAILED,
    )
    return list(
        Notification.objects.filter(user=user, sent_at__isnull=False, outcome__in=shown).order_by(
            "-sent_at", "-id"
        )[:size]
    )


def invitations_for_user(*, user: User) -> QuerySet[Invitation]:
    """Invitations addressed to the user's confirmed e-mail (case-insensitively) that they can
    still accept: not revoked, not expired, not used up, for clubs they are not in. An
    unconfirmed address shows none (anyone can type any address into a profile)."""
    if not user.email or user.email_verified_at is None:
        return Invitation.objects.none()
    mine = Membership.objects.filter(user=user).values("club_id")
    return (
        Invitation.objects.filter(
            email__iexact=user.email, revoked_at__isnull=True, expires_at__gt=now()
        )
        .filter(uses__lt=F("max_uses"))
        .exclude(club_id__in=mine)
        .select_related("club")
    )


def name_choices(*, club_id: int, user_ids: set[int]) -> tuple[str, dict[int, tuple[Any, Any]]]:
    """The club's name policy and, by user id, each user's ``public_name`` and
    ``erased_at``: one query."""
    found: list[tuple[int, Any, Any, str]] = []
    if user_ids:
        policy = Club.objects.filter(pk=club_id).values("name_policy")[:1]
        found = list(
            User.objects.filter(pk__in=user_ids)
            .annotate(policy=Subquery(policy))
            .values_list("pk", "public_name", "erased_at", "policy")
        )
    name_policy: str | None = found[0][3] if found else None
    if not found:
        name_policy = Club.objects.filter(pk=club_id).values_list("name_policy", flat=True).first()
    choices = {pk: (public, erased) for pk, public, erased, _policy in found}
    return str(name_policy or Club.NamePolicy.CONSENT), choices
