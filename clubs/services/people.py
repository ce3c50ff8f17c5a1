"""Writes for a club and its people: founding and editing clubs, roles, removing members,
leaving, handing the club over, invitations, join requests and guests.

Every service is keyword-only, runs in one transaction and takes the club's row lock first
(then the invitation's, request's or guest's), so the checks it makes (the last owner, an
invitation's remaining uses, a pending request) cannot race with another change of the same
club. Who may do what is checked again here, under the lock, with the caller's role read
inside the transaction (``clubs/permissions.py`` describes the roles). E-mails go out after
the commit (:mod:`clubs.emails`).

Refusals are :mod:`clubs.errors`: ``ClubNotFound`` (404), ``NotAllowed`` (403),
``InvalidInput`` (400, with ``fields``) and ``ClubConflict`` (409) with one of the codes in
:data:`CONFLICT_CODES`.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
import zoneinfo
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.timezone import now
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import engine
from clubs import emails, outbox
from clubs.errors import ClubConflict, ClubNotFound, InvalidInput, NotAllowed
from clubs.models import Club, Guest, Invitation, JoinRequest, Membership, User
from clubs.models.people import default_rules as club_default_rules
from clubs.services import evenings, seasons
from config.i18n import engine_text, language_for, offered, supported
from config.slugs import slug_of
from games.models import Seat
from games.rulesets import parse_offered_rules

Role = Membership.Role

#: The ``code`` of every 409 these services raise, and what it means.
CONFLICT_CODES = {
    "last_owner": "The club's last owner cannot leave, be removed or be demoted.",
    "already_member": "The user is a member of the club already.",
    "invitation_expired": "The invitation's time is over.",
    "invitation_used_up": "The invitation has been used as often as it may be.",
    "invitation_revoked": "An owner or admin has revoked the invitation.",
    "join_request_pending": "The user has asked to join already; the request is pending.",
    "join_request_decided": "The join request was accepted, declined or withdrawn already.",
    "already_merged": "The guest has been merged into a member already.",
    "seated_together": "The guest and the member sat at the same table.",
}

INVITABLE_ROLES = (Role.MEMBER, Role.SCORER, Role.ADMIN)
STAY_AS = ("admin", "member", "leave")
#: Why the last owner cannot do something (409 ``last_owner``), by what they tried.
LAST_OWNER = {
    "demoted": gettext_lazy(
        "{name} is the last owner of {club} and cannot be demoted; hand the club over to "
        "another member first (transfer-ownership)."
    ),
    "removed": gettext_lazy(
        "{name} is the last owner of {club} and cannot be removed; hand the club over to "
        "another member first (transfer-ownership)."
    ),
    "leave": gettext_lazy(
        "{name} is the last owner of {club} and cannot leave; hand the club over to another "
        "member first (transfer-ownership)."
    ),
}
#: Why a join request cannot be answered or withdrawn (409 ``join_request_decided``), by its
#: status.
JOIN_REQUEST_DECIDED = {
    JoinRequest.Status.ACCEPTED: gettext_lazy(
        "This request was accepted already; only pending requests can be answered or withdrawn."
    ),
    JoinRequest.Status.DECLINED: gettext_lazy(
        "This request was declined already; only pending requests can be answered or withdrawn."
    ),
    JoinRequest.Status.WITHDRAWN: gettext_lazy(
        "This request was withdrawn already; only pending requests can be answered or withdrawn."
    ),
}
MAX_INVITATION_DAYS = 90
MAX_INVITATION_USES = 1000
MAX_REMINDER_HOURS = 168
CURRENCY = re.compile(r"[A-Z]{3}")
SLUG_LENGTH = Club._meta.get_field("slug").max_length or 80
_UNSET: Any = object()


# ---------------------------------------------------------------------------------------------
# helpers


def _lock_club(club_id: int) -> Club:
    """The club, row-locked for the rest of the transaction."""
    club = Club.objects.select_for_update().filter(pk=club_id).first()
    if club is None:
        raise ClubNotFound()
    return club


def _role(club: Club, user: User) -> str | None:
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def _require_manager(club: Club, user: User, message: str) -> str:
    """The caller's role when they are an owner or admin; ``NotAllowed(message)`` otherwise."""
    role = _role(club, user)
    if role not in Membership.MANAGERS:
        raise NotAllowed(message)
    assert role is not None
    return role


def _membership(club: Club, user_id: int) -> Membership:
    membership = (
        Membership.objects.select_for_update()
        .select_related("user")
        .filter(club=club, user_id=user_id)
        .first()
    )
    if membership is None:
        raise ClubNotFound(_("There is no such member in this club."))
    return membership


def _owners(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).count()


def _refuse_last_owner(club: Club, membership: Membership, doing: str) -> None:
    """409 ``last_owner`` when ``membership`` is the club's only owner; ``doing`` is what
    they tried (a key of :data:`LAST_OWNER`)."""
    if membership.role == Role.OWNER and _owners(club) == 1:
        raise ClubConflict(
            str(LAST_OWNER[doing]).format(name=_name(membership.user), club=club.name),
            code="last_owner",
        )


def _name(user: User) -> str:
    return user.display_name or user.username


def _check_timezone(name: str) -> str:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(
            _("{name} is not a time zone; use an IANA name such as Europe/Vienna.").format(
                name=repr(name)
            ),
            fields={"timezone": [_("Not an IANA time zone name (such as Europe/Vienna).")]},
        ) from None
    return name


def _check_language(code: str) -> str:
    """``code`` when the server offers it (``de-AT`` is ``de``), else a 400 naming those."""
    found = supported(code)
    if found is None:
        offered_codes = ", ".join(offered())
        raise InvalidInput(
            _("{code} is not a language this server offers ({offered}).").format(
                code=repr(code), offered=offered_codes
            ),
            fields={"language": [_("Not an offered language.")]},
        )
    return found


def _check_currency(code: str) -> str:
    if not CURRENCY.fullmatch(code):
        raise InvalidInput(
            _("{code} is not a currency code; use three capital letters such as EUR.").format(
                code=repr(code)
            ),
            fields={"currency": [_("Three capital letters (ISO 4217), such as EUR.")]},
        )
    return code


def _check_reminder_hours(hours: int) -> int:
    if not 0 <= hours <= MAX_REMINDER_HOURS:
        raise InvalidInput(
            _("Reminders go out 0 to {most} hours before an evening.").format(
                most=MAX_REMINDER_HOURS
            ),
            fields={
                "reminder_hours": [
                    _("Between 0 (no reminder) and {most}.").format(most=MAX_REMINDER_HOURS)
                ]
            },
        )
    return hours


def _check_name_policy(policy: str) -> str:
    if policy not in Club.NamePolicy.values:
        raise InvalidInput(
            _("{policy} is not a name policy; the policies are consent and publish.").format(
                policy=repr(policy)
            ),
            fields={"name_policy": [_("Either consent or publish.")]},
        )
    return policy


def _check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise InvalidInput(
            _("A club needs a name."), fields={"name": [_("This field may not be blank.")]}
        )
    return name


def parse_default_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The club's default rules as the engine reads them, every option spelled out; the
    engine's refusal is a 400 with its sentence (in the reader's language) under
    ``default_rules.<option>``."""
    try:
        return parse_offered_rules(rules).to_json()
    except engine.EngineError as e:
        at = e.at.split(".", 1)[1] if e.at.startswith("rules.") else ""
        key = f"default_rules.{at}" if at else "default_rules"
        reason = engine_text(e)
        raise InvalidInput(
            _("The default rules are invalid: {reason}.").format(reason=reason.rstrip(".")),
            fields={key: [reason]},
        ) from None
    except TypeError:
        raise InvalidInput(
            _("The default rules must be an object."),
            fields={"default_rules": [_("Not an object.")]},
        ) from None


def _slug_taken(slug: str, club: Club | None) -> bool:
    others = Club.objects.filter(slug=slug)
    if club is not None and club.pk is not None:
        others = others.exclude(pk=club.pk)
    return others.exists()


def _free_slug(name: str) -> str:
    """A slug for ``name`` that no club has: ``grazer-runde``, else ``grazer-runde-2``, …"""
    return _free_from(slug_of(name)[: SLUG_LENGTH - 4].strip("-") or "club", None)


def _free_from(base: str, club: Club | None) -> str:
    candidate, n = base, 1
    while _slug_taken(candidate, club):
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _check_slug(slug: str, club: Club | None) -> str:
    """The slug asked for; when another club has it, the next free one with a suffix
    (``grazer-runde-2``), as for a slug made from a name. Whether that club is one the caller
    may see or a private one, the answer is the same and names no other club, so slugs tell
    nobody that a private club exists (``docs/security.md``)."""
    if not _slug_taken(slug, club):
        return slug
    return _free_from(slug[: SLUG_LENGTH - 4].strip("-") or "club", club)


def _save_club(club: Club, *, slug_given: bool) -> None:
    """Save ``club``; a slug taken in the meantime (another request won) makes way for the
    next free one (:func:`_check_slug`, or from the name when none was asked for)."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                club.save()
            return
        except IntegrityError:
            if club.slug is None:
                raise
            club.slug = _check_slug(club.slug, club) if slug_given else _free_slug(club.name)
    raise ClubConflict(_("The club could not get an address; try again."))


# ---------------------------------------------------------------------------------------------
# clubs


def club_create(
    *,
    user: User,
    name: str,
    slug: str | None = None,
    description: str = "",
    city: str = "",
    timezone: str = "Europe/Vienna",
    language: str | None = None,
    is_public: bool = False,
    currency: str = "EUR",
    default_rules: Mapping[str, Any] | None = None,
    reminder_hours: int = 24,
    name_policy: str = Club.NamePolicy.CONSENT,
) -> Club:
    """Found a club; the founder becomes its owner.

    The time zone is an IANA name, the currency three capital letters, the default rules
    what the engine accepts (stored with every option spelled out); the slug, when not
    given, comes from the name; either is made unique with a suffix (``-2``, ``-3``, …).
    ``language`` (an offered one): the language of its texts, by default the one the founder
    is spoken to in now (their preference or their request's). ``name_policy``: whose names
    its public lists show (``Club.name_policy``; ``consent`` unless the founder says
    ``publish``, docs/privacy.md).
    """
    name = _check_name(name)
    _check_name_policy(name_policy)
    _check_timezone(timezone)
    _check_currency(currency)
    _check_reminder_hours(reminder_hours)
    rules = parse_default_rules(club_default_rules() if default_rules is None else default_rules)
    with transaction.atomic():
        club = Club(
            name=name,
            slug=_check_slug(slug, None) if slug else _free_slug(name),
            description=description,
            city=city.strip(),
            timezone=timezone,
            language=_check_language(translation.get_language() if language is None else language),
            is_public=is_public,
            currency=currency,
            default_rules=rules,
            reminder_hours=reminder_hours,
            name_policy=name_policy,
        )
        _save_club(club, slug_given=bool(slug))
        Membership.objects.create(club=club, user=user, role=Role.OWNER)
    return club


def club_update(
    *,
    club_id: int,
    user: User,
    name: str = _UNSET,
    slug: str = _UNSET,
    description: str = _UNSET,
    city: str = _UNSET,
    timezone: str = _UNSET,
    language: str = _UNSET,
    is_public: bool = _UNSET,
    currency: str = _UNSET,
    default_rules: Mapping[str, Any] = _UNSET,
    reminder_hours: int = _UNSET,
    name_policy: str = _UNSET,
) -> Club:
    """Change a club's settings (owners and admins); omitted fields stay as they are and
    are checked as in :func:`club_create`. ``default_rules`` replaces the whole object. A
    new ``name_policy`` holds for every public list from its next read."""
    with transaction.atomic():
        club = _lock_club(club_id)
        _require_manager(club, user, _("Only the club's owners and admins change its settings."))
        if name is not _UNSET:
            club.name = _check_name(name)
        if slug is not _UNSET:
            club.slug = _check_slug(slug, club)
        if description is not _UNSET:
            club.description = description
        if city is not _UNSET:
            club.city = city.strip()
        if timezone is not _UNSET:
            club.timezone = _check_timezone(timezone)
        if language is not _UNSET:
            club.language = _check_language(language)
        if is_public is not _UNSET:
            club.is_public = is_public
        if currency is not _UNSET:
            club.currency = _check_currency(currency)
        if default_rules is not _UNSET:
            club.default_rules = parse_default_rules(default_rules)
        if reminder_hours is not _UNSET:
            club.reminder_hours = _check_reminder_hours(reminder_hours)
        if name_policy is not _UNSET:
            club.name_policy = _check_name_policy(name_policy)
        _save_club(club, slug_given=True)
    return club


# ---------------------------------------------------------------------------------------------
# members


def membership_set_role(*, club_id: int, user: User, member_id: int, role: str) -> Membership:
    """Give the member ``member_id`` (a user id) the role ``role``.

    Owners set any role on anyone, including owner and admin. Admins set member or scorer on
    members and scorers only. The last owner cannot be demoted (409 ``last_owner``).
    """
    if role not in Role.values:
        raise InvalidInput(
            _("{role} is not a role; roles are owner, admin, scorer and member.").format(
                role=repr(role)
            ),
            fields={"role": [_("Not a role.")]},
        )
    with transaction.atomic():
        club = _lock_club(club_id)
        mine = _require_manager(club, user, _("Only the club's owners and admins change roles."))
        membership = _membership(club, member_id)
        if mine == Role.ADMIN:
            if membership.role in Membership.MANAGERS:
                raise NotAllowed(
                    _(
                        "Admins change the roles of members and scorers only; ask an owner to "
                        "change an admin's or owner's role."
                    )
                )
            if role in Membership.MANAGERS:
                raise NotAllowed(_("Only an owner names admins and owners."))
        if membership.role == role:
            return membership
        if role != Role.OWNER:
            _refuse_last_owner(club, membership, "demoted")
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def membership_remove(*, club_id: int, user: User, member_id: int) -> None:
    """Remove the member ``member_id`` (a user id) from the club; removing yourself is
    leaving (:func:`club_leave`).

    Admins remove members and scorers; owners remove anyone but the last owner. Only the
    membership goes: the member's seats, hands, ledger rows and standings stay.
    """
    if member_id == user.pk:
        club_leave(club_id=club_id, user=user)
        return
    with transaction.atomic():
        club = _lock_club(club_id)
        mine = _require_manager(
            club, user, _("Only the club's owners and admins remove members; you may leave.")
        )
        membership = _membership(club, member_id)
        if mine == Role.ADMIN and membership.role in Membership.MANAGERS:
            raise NotAllowed(_("Admins remove members and scorers only; ask an owner."))
        _refuse_last_owner(club, membership, "removed")
        membership.delete()
        evenings.attendance_remove_member(club_id=club.pk, user_id=member_id)


def club_leave(*, club_id: int, user: User) -> None:
    """The caller leaves the club; the last owner cannot (409 ``last_owner``). Their
    history (seats, hands, ledger, standings) stays."""
    with transaction.atomic():
        club = _lock_club(club_id)
        membership = Membership.objects.filter(club=club, user=user).select_related("user").first()
        if membership is None:
            raise NotAllowed(_("You are not a member of this club."))
        _refuse_last_owner(club, membership, "leave")
        membership.delete()
        evenings.attendance_remove_member(club_id=club.pk, user_id=user.pk)


def club_transfer_ownership(
    *, club_id: int, user: User, to_user_id: int, stay_as: str = "admin"
) -> tuple[Membership, Membership | None]:
    """Hand the club over: the member ``to_user_id`` becomes an owner and the caller (an
    owner) becomes ``stay_as``: ``admin``, ``member`` or ``leave`` (no longer a member).

    Returns the new owner's membership and the caller's (None when they left).
    """
    if stay_as not in STAY_AS:
        raise InvalidInput(
            _("stay_as is admin, member or leave."),
            fields={"stay_as": [_("admin, member or leave")]},
        )
    with transaction.atomic():
        club = _lock_club(club_id)
        if _role(club, user) != Role.OWNER:
            raise NotAllowed(_("Only an owner hands the club over."))
        if to_user_id == user.pk:
            raise InvalidInput(
                _("You own the club already; name the member who takes it over."),
                fields={"user_id": [_("This is you.")]},
            )
        target = (
            Membership.objects.select_for_update()
            .select_related("user")
            .filter(club=club, user_id=to_user_id)
            .first()
        )
        if target is None:
            raise InvalidInput(
                _("Only a member can take the club over; invite them first."),
                fields={"user_id": [_("Not a member of this club.")]},
            )
        mine = (
            Membership.objects.select_for_update().select_related("user").get(club=club, user=user)
        )
        if target.role != Role.OWNER:
            target.role = Role.OWNER
            target.save(update_fields=["role"])
        if stay_as == "leave":
            mine.delete()
            evenings.attendance_remove_member(club_id=club.pk, user_id=user.pk)
            return target, None
        mine.role = stay_as
        mine.save(update_fields=["role"])
    return target, mine


# ---------------------------------------------------------------------------------------------
# invitations


def invitation_url(code: str) -> str:
    """The link an invitation carries: its page in the API."""
    return emails.link(f"/api/v1/invitations/{code}/")


def invitation_state(invitation: Invitation, at: dt.datetime | None = None) -> Invitation.State:
    """``revoked``, ``expired``, ``used_up`` or ``active`` (in that order of precedence)."""
    if invitation.revoked_at is not None:
        return Invitation.State.REVOKED
    if invitation.expires_at <= (at or now()):
        return Invitation.State.EXPIRED
    if invitation.uses >= invitation.max_uses:
        return Invitation.State.USED_UP
    return Invitation.State.ACTIVE


def invitation_create(
    *,
    club_id: int,
    user: User,
    role: str = Role.MEMBER,
    email: str = "",
    expires_in_days: int = 14,
    max_uses: int = 1,
) -> Invitation:
    """Invite people to the club (owners and admins) with a code that is valid for
    ``expires_in_days`` (1 to 90) days and ``max_uses`` (1 to 1000) acceptances.

    The role is member or scorer; admin only when an owner invites (owners are made by
    handing the club over). With ``email``, the invitation and its link are e-mailed there
    once the invitation is saved.
    """
    if role not in INVITABLE_ROLES:
        raise InvalidInput(
            _(
                "An invitation makes a member, scorer or admin; an owner is made by handing the "
                "club over (transfer-ownership)."
            ),
            fields={"role": [_("member, scorer or admin")]},
        )
    if not 1 <= expires_in_days <= MAX_INVITATION_DAYS:
        raise InvalidInput(
            _("An invitation is valid for 1 to {most} days.").format(most=MAX_INVITATION_DAYS),
            fields={
                "expires_in_days": [_("Between 1 and {most}.").format(most=MAX_INVITATION_DAYS)]
            },
        )
    if not 1 <= max_uses <= MAX_INVITATION_USES:
        raise InvalidInput(
            _("An invitation may be used 1 to {most} times.").format(most=MAX_INVITATION_USES),
            fields={"max_uses": [_("Between 1 and {most}.").format(most=MAX_INVITATION_USES)]},
        )
    email = email.strip()
    with transaction.atomic():
        club = _lock_club(club_id)
        mine = _require_manager(club, user, _("Only the club's owners and admins invite people."))
        if role == Role.ADMIN and mine != Role.OWNER:
            raise NotAllowed(_("Only an owner invites admins."))
        invitation = Invitation.objects.create(
            club=club,
            code=secrets.token_urlsafe(16),
            role=role,
            email=email,
            expires_at=now() + dt.timedelta(days=expires_in_days),
            max_uses=max_uses,
            created_by=user,
        )
        invitee = emails.owner_of(email)
        if invitee is not None:
            outbox.notify(
                [invitee.pk],
                "invited",
                f"club-invitation:{invitation.pk}",
                payload={"path": "/api/v1/me/invitations/", "club_id": club.pk},
                context={"inviter": _name(user), "where": club.name},
            )
        if email and (invitee is None or invitee.pk in outbox.mail_wanted([invitee.pk], "invited")):
            with translation.override(language_for(invitee, club)):
                mail = emails.invitation_mail(
                    club_name=club.name,
                    role=role,
                    url=invitation_url(invitation.code),
                    code=invitation.code,
                    expires_at=invitation.expires_at,
                    timezone_name=club.timezone,
                    inviter=_name(user),
                )
            emails.send_on_commit(email, mail)
    return invitation


def invitation_revoke(*, club_id: int, user: User, invitation_id: int) -> Invitation:
    """Revoke an invitation (owners and admins): its code no longer admits anyone. Revoking
    a revoked invitation changes nothing."""
    with transaction.atomic():
        club = _lock_club(club_id)
        _require_manager(club, user, _("Only the club's owners and admins revoke invitations."))
        invitation = (
            Invitation.objects.select_for_update().filter(club=club, pk=invitation_id).first()
        )
        if invitation is None:
            raise ClubNotFound(_("There is no such invitation in this club."))
        if invitation.revoked_at is None:
            invitation.revoked_at = now()
            invitation.save(update_fields=["revoked_at"])
    return invitation


def invitation_accept(*, code: str, user: User) -> Membership:
    """Join a club with an invitation's code, in the invitation's role.

    Refused, in this order: a wrong code (404), an invitation sent to an address that is not
    the caller's confirmed one (403 ``invitation_for_another_address``: whoever learns the
    code of an e-mailed invitation cannot take the invitee's place), already a member (409
    ``already_member``),
    revoked (409 ``invitation_revoked``), expired (409 ``invitation_expired``), used as often
    as allowed (409 ``invitation_used_up``). ``uses`` counts under the invitation's row lock,
    so two people taking the last use at once cannot both get in. A pending join request of
    the user for the club counts as accepted.
    """
    club_id = Invitation.objects.filter(code=code).values_list("club_id", flat=True).first()
    if club_id is None:
        raise ClubNotFound(_("There is no such invitation; check the code or link."))
    with transaction.atomic():
        club = _lock_club(club_id)
        invitation = Invitation.objects.select_for_update().filter(code=code).first()
        if invitation is None:
            raise ClubNotFound(_("There is no such invitation; check the code or link."))
        if invitation.email and not _confirmed_address(user, invitation.email):
            raise NotAllowed(
                _(
                    "This invitation was sent to an e-mail address that is not the confirmed "
                    "address of your account. Set that address on your account and confirm it "
                    "with the link we e-mail you, or ask the club for an invitation of your own."
                ),
                code="invitation_for_another_address",
            )
        if Membership.objects.filter(club=club, user=user).exists():
            raise ClubConflict(
                _("You are a member of {club} already.").format(club=club.name),
                code="already_member",
            )
        state = invitation_state(invitation)
        if state == Invitation.State.REVOKED:
            raise ClubConflict(
                _("This invitation has been revoked; ask the club for a new one."),
                code="invitation_revoked",
            )
        if state == Invitation.State.EXPIRED:
            raise ClubConflict(
                _("This invitation has expired; ask the club for a new one."),
                code="invitation_expired",
            )
        if state == Invitation.State.USED_UP:
            raise ClubConflict(
                _(
                    "This invitation has been used as often as it may be; ask the club for a "
                    "new one."
                ),
                code="invitation_used_up",
            )
        invitation.uses += 1
        invitation.save(update_fields=["uses"])
        membership = Membership.objects.create(club=club, user=user, role=invitation.role)
        JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).update(
            status=JoinRequest.Status.ACCEPTED, decided_at=now()
        )
    return membership


def _confirmed_address(user: User, address: str) -> bool:
    """Whether ``address`` is ``user``'s confirmed e-mail address (in any case)."""
    fresh = User.objects.filter(pk=user.pk).values_list("email", "email_verified_at").first()
    if fresh is None:
        return False
    email, verified_at = fresh
    return verified_at is not None and email.strip().lower() == address.strip().lower()


# ---------------------------------------------------------------------------------------------
# join requests


def join_request_create(*, club_id: int, user: User, message: str = "") -> JoinRequest:
    """Ask to join a public club (a private one does not exist for non-members: 404).
    Members get 409 ``already_member``; a second request while one is pending 409
    ``join_request_pending``. The club's owners and admins are told by e-mail."""
    with transaction.atomic():
        club = _lock_club(club_id)
        if Membership.objects.filter(club=club, user=user).exists():
            raise ClubConflict(
                _("You are a member of {club} already.").format(club=club.name),
                code="already_member",
            )
        if not club.is_public:
            raise ClubNotFound()
        if JoinRequest.objects.filter(
            club=club, user=user, status=JoinRequest.Status.PENDING
        ).exists():
            raise ClubConflict(
                _("You have asked to join already; wait for the answer or withdraw that request."),
                code="join_request_pending",
            )
        request = JoinRequest.objects.create(club=club, user=user, message=message.strip())
        managers = User.objects.filter(
            memberships__club=club, memberships__role__in=Membership.MANAGERS
        ).exclude(email="")
        everyone = list(
            User.objects.filter(
                memberships__club=club, memberships__role__in=Membership.MANAGERS
            ).values_list("pk", flat=True)
        )
        outbox.notify(
            everyone,
            "join_request",
            f"join-request:{request.pk}",
            payload={"path": f"/api/v1/clubs/{club.pk}/join-requests/", "club_id": club.pk},
            context={"name": _name(user), "club": club.name},
        )
        mailed = outbox.mail_wanted(everyone, "join_request")
        told: set[str] = set()
        for manager in managers.order_by("pk"):  # each in their own language, once an address
            if manager.email.strip().lower() in told or manager.pk not in mailed:
                continue
            told.add(manager.email.strip().lower())
            with translation.override(language_for(manager, club)):
                mail = emails.join_request_mail(
                    club_name=club.name,
                    user=_name(user),
                    message=request.message,
                    request_id=request.pk,
                    requests_url=emails.link(f"/api/v1/clubs/{club.pk}/join-requests/"),
                )
            emails.send_on_commit(manager.email, mail)
    return request


def _pending_request(club: Club, request_id: int) -> JoinRequest:
    request = (
        JoinRequest.objects.select_for_update()
        .select_related("user")
        .filter(club=club, pk=request_id)
        .first()
    )
    if request is None:
        raise ClubNotFound(_("There is no such join request in this club."))
    if request.status != JoinRequest.Status.PENDING:
        decided = JOIN_REQUEST_DECIDED[JoinRequest.Status(request.status)]
        raise ClubConflict(str(decided), code="join_request_decided")
    return request


def join_request_accept(*, club_id: int, user: User, request_id: int) -> JoinRequest:
    """Accept a pending join request (owners and admins): the user becomes a member and is
    told by e-mail (in their language). Requests that are not pending: 409
    ``join_request_decided``."""
    with transaction.atomic():
        club = _lock_club(club_id)
        _require_manager(club, user, _("Only the club's owners and admins answer join requests."))
        request = _pending_request(club, request_id)
        if Membership.objects.filter(club=club, user_id=request.user_id).exists():
            raise ClubConflict(
                _("{name} is a member of {club} already.").format(
                    name=_name(request.user), club=club.name
                ),
                code="already_member",
            )
        Membership.objects.create(club=club, user_id=request.user_id, role=Role.MEMBER)
        request.status = JoinRequest.Status.ACCEPTED
        request.decided_by = user
        request.decided_at = now()
        request.save(update_fields=["status", "decided_by", "decided_at"])
        _tell_answered(club, request, accepted=True)
        if request.user_id in outbox.mail_wanted([request.user_id], "join_request_answered"):
            with translation.override(language_for(request.user, club)):
                mail = emails.join_accepted_mail(
                    club_name=club.name,
                    user=_name(request.user),
                    club_url=emails.link(f"/api/v1/clubs/{club.pk}/"),
                )
            emails.send_on_commit(request.user.email, mail)
    return request


def _tell_answered(club: Club, request: JoinRequest, *, accepted: bool) -> None:
    """Tell the person who asked to join that their request was answered (``outbox``)."""
    outbox.notify(
        [request.user_id],
        "join_request_answered",
        f"join-request:{request.pk}",
        payload={"path": f"/api/v1/clubs/{club.pk}/", "club_id": club.pk},
        context={"club": club.name, "accepted": accepted},
    )


def join_request_decline(*, club_id: int, user: User, request_id: int) -> JoinRequest:
    """Decline a pending join request (owners and admins); the person who asked is told by
    push (no e-mail goes out)."""
    with transaction.atomic():
        club = _lock_club(club_id)
        _require_manager(club, user, _("Only the club's owners and admins answer join requests."))
        request = _pending_request(club, request_id)
        request.status = JoinRequest.Status.DECLINED
        request.decided_by = user
        request.decided_at = now()
        request.save(update_fields=["status", "decided_by", "decided_at"])
        _tell_answered(club, request, accepted=False)
    return request


def join_request_withdraw(*, club_id: int, user: User, request_id: int) -> JoinRequest:
    """The person who asked withdraws their pending request (nobody else may: 403)."""
    with transaction.atomic():
        club = _lock_club(club_id)
        request = JoinRequest.objects.filter(club=club, pk=request_id).first()
        if request is None:
            raise ClubNotFound(_("There is no such join request in this club."))
        if request.user_id != user.pk:
            raise NotAllowed(
                _(
                    "Only the person who asked may withdraw a join request; owners and admins "
                    "decline it."
                )
            )
        request = _pending_request(club, request_id)
        request.status = JoinRequest.Status.WITHDRAWN
        request.decided_at = now()
        request.save(update_fields=["status", "decided_at"])
    return request


# ---------------------------------------------------------------------------------------------
# guests


def guest_create(*, club_id: int, user: User, name: str) -> Guest:
    """Add a guest (a non-member known by name) whom the club can seat (scorers, admins and
    owners)."""
    name = name.strip()
    if not name:
        raise InvalidInput(
            _("A guest needs a name."), fields={"name": [_("This field may not be blank.")]}
        )
    with transaction.atomic():
        club = _lock_club(club_id)
        if _role(club, user) not in Membership.SCORERS:
            raise NotAllowed(_("Only the club's scorers, admins and owners add guests."))
        guest = Guest.objects.create(club=club, name=name, created_by=user)
    return guest


def guest_merge(*, club_id: int, user: User, guest_id: int, into_user_id: int) -> Guest:
    """Merge a guest into a member's account (owners and admins): the guest's seats count as
    the member's from now on (their tables become readable to them, standings count the
    guest's hands for them). A guest merges once (409 ``already_merged``); a guest who sat
    at a table with the member cannot be them (409 ``seated_together``)."""
    with transaction.atomic():
        club = _lock_club(club_id)
        _require_manager(club, user, _("Only the club's owners and admins merge guests."))
        guest = Guest.objects.select_for_update().filter(club=club, pk=guest_id).first()
        if guest is None:
            raise ClubNotFound(_("There is no such guest in this club."))
        if guest.merged_into_id is not None:
            raise ClubConflict(
                _("{name} has been merged into a member already; a guest merges once.").format(
                    name=guest.name
                ),
                code="already_merged",
            )
        target = (
            Membership.objects.select_related("user")
            .filter(club=club, user_id=into_user_id)
            .first()
        )
        if target is None:
            raise InvalidInput(
                _("A guest merges only into a member of the club."),
                fields={"user_id": [_("Not a member of this club.")]},
            )
        shared = Seat.objects.filter(guest=guest, table__seats__user_id=into_user_id).first()
        if shared is not None:
            raise ClubConflict(
                _(
                    "{guest} and {member} sat at the same table ({table}), so they are not the "
                    "same person."
                ).format(guest=guest.name, member=_name(target.user), table=shared.table_id),
                code="seated_together",
            )
        guest.merged_into = target.user
        guest.merged_at = now()
        guest.save(update_fields=["merged_into", "merged_at"])
        seasons.club_recompute_all(club_id=club.pk)
    return guest
