"""People and organisations: the base layer every app may use.

A *club* has members with roles (owner, admin, scorer, member), invites people by code or
link, takes join requests when it is public, and seats *guests* (non-members known by name)
whom an admin can later merge into a member's account.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy

import engine


def default_rules() -> dict[str, object]:
    """The rules a new club plays until its owner changes them: the engine's house rules
    (:func:`engine.house_rules`)."""
    return engine.house_rules()


class User(AbstractUser):
    """A player or organiser; ``display_name`` is what tables and standings show.

    ``email`` is *confirmed* (``email_verified_at`` set) once its owner has used the link
    e-mailed to it (``clubs.services.users``); a changed address starts unconfirmed. A
    confirmed address belongs to one account only, in any case; an unconfirmed one proves
    nothing and may stand on several accounts (so typing someone's address claims nothing and
    reveals nothing).
    """

    display_name = models.CharField(max_length=150, blank=True)
    public_name = models.BooleanField(
        null=True,
        blank=True,
        help_text="Whether the user's name may appear in public lists (public standings and "
        "sheets, iCal attendee names, tournaments' public pages); empty: as each club's "
        "name policy says (``Club.name_policy``). Elsewhere a pseudonym stands in.",
    )
    erased_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the person was erased (GDPR art. 17): the row stays as a pseudonym "
        "so that other players' results, money and ratings stay as they were.",
    )
    language = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="The language the user reads (an offered one, settings.LANGUAGES); empty: "
        "the request's Accept-Language, else the club's, else English (config/i18n.py).",
    )
    email_verified_at = models.DateTimeField(
        null=True, blank=True, help_text="When the owner confirmed ``email``; empty: unconfirmed."
    )

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=models.Q(email_verified_at__isnull=False) & ~models.Q(email=""),
                name="user_verified_email_unique_ci",
            )
        ]

    def __str__(self) -> str:
        return self.display_name or self.username


class Club(models.Model):
    """A club: members with roles, its evenings, seasons and tables.

    ``default_rules`` is any rules object the engine accepts; the stakes are part of it (such
    as a dealer contribution and a pot cap, in minor units of ``currency``).
    """

    name = models.CharField(max_length=150)
    slug = models.SlugField(max_length=80, unique=True, null=True, blank=True)
    description = models.TextField(blank=True)
    city = models.CharField(max_length=100, blank=True)
    timezone = models.CharField(max_length=64, default="Europe/Vienna")
    language = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="The language of the club's texts for a member who saved none (e-mails, "
        "reminders, its iCal feed, its public pages without Accept-Language); empty: English.",
    )
    is_public = models.BooleanField(default=False)

    class NamePolicy(models.TextChoices):
        CONSENT = "consent", gettext_lazy("Names only of members who agreed")
        PUBLISH = "publish", gettext_lazy("Names unless a member objected")

    name_policy = models.CharField(
        max_length=16,
        choices=NamePolicy.choices,
        default=NamePolicy.CONSENT,
        help_text="Whose names the club's public lists show: ``consent`` (the default) only "
        "those of members who agreed (``User.public_name``), ``publish`` every member's unless "
        "they objected (a club that publishes results as its legitimate interest, GDPR art. "
        "6(1)(f)). Others read a pseudonym.",
    )
    currency = models.CharField(max_length=3, default="EUR")
    default_rules = models.JSONField(default=default_rules)
    reminder_hours = models.PositiveSmallIntegerField(
        default=24, help_text="Hours before an evening its reminder e-mail goes out (0: none)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("name", "id")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's membership of a club.

    Roles, from most to least rights: ``owner`` (everything, including handing the club
    over), ``admin`` (runs members, evenings, seasons and tables), ``scorer`` (records and
    corrects hands at the club's tables), ``member``.
    """

    class Role(models.TextChoices):
        OWNER = "owner", gettext_lazy("Owner")
        ADMIN = "admin", gettext_lazy("Admin")
        SCORER = "scorer", gettext_lazy("Scorer")
        MEMBER = "member", gettext_lazy("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    MANAGERS = (Role.OWNER, Role.ADMIN)
    SCORERS = (Role.OWNER, Role.ADMIN, Role.SCORER)

    class Meta:
        ordering = ("club", "joined_at", "id")
        constraints = [
            models.UniqueConstraint(fields=("club", "user"), name="membership_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Invitation(models.Model):
    """An invitation to join a club, used by its code (or the link that carries it) until it
    expires, is used ``max_uses`` times or is revoked."""

    class State(models.TextChoices):
        """Where an invitation stands (not a column: ``clubs.services.people.invitation_state``
        derives it from the row and the time)."""

        ACTIVE = "active", gettext_lazy("Active")
        EXPIRED = "expired", gettext_lazy("Expired")
        USED_UP = "used_up", gettext_lazy("Used up")
        REVOKED = "revoked", gettext_lazy("Revoked")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(max_length=32, unique=True)
    role = models.CharField(
        max_length=16, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    email = models.EmailField(blank=True, help_text="Sent to this address when given.")
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField(default=1)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"{self.club} invitation {self.code[:6]}…"


class JoinRequest(models.Model):
    """A user asks to join a public club; an admin accepts or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Pending")
        ACCEPTED = "accepted", gettext_lazy("Accepted")
        DECLINED = "declined", gettext_lazy("Declined")
        WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="join_requests")
    message = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = [
            models.UniqueConstraint(
                fields=("club", "user"),
                condition=models.Q(status="pending"),
                name="join_request_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club} ({self.status})"


class Guest(models.Model):
    """A non-member a club seats under a name. Merging the guest into a member's account
    (``merged_into``) gives the member the guest's history."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="guests")
    name = models.CharField(max_length=150)
    merged_into = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="merged_guests"
    )
    merged_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("club", "name", "id")

    def __str__(self) -> str:
        return f"{self.name} (guest of {self.club})"
