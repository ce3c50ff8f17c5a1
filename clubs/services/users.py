"""Writes for users: registration, profile updates, confirming e-mail addresses, and the
refresh tokens that keep a device signed in.

E-mail addresses. A new or changed address starts *unconfirmed* and gets a confirmation
e-mail with a signed token (:func:`email_verification_token`: the account, the address and
when it was issued, signed with ``SECRET_KEY``); :func:`user_email_verify` takes it back
within ``EMAIL_VERIFICATION_MAX_AGE_SECONDS`` and marks the address confirmed. Only a
confirmed address shows the invitations sent to it or accepts them (``clubs.services.people``),
so typing someone else's address into one's profile gains nothing. A confirmed address
belongs to one account, in any case (a database constraint); saving an address never says
whether another account has it (no account enumeration): only confirming it does, to whoever
holds the token, i.e. the address's owner. Confirmation e-mails are limited per account
(``EMAIL_VERIFICATION_RATE``, 429 ``throttled`` with ``Retry-After``).

Refresh tokens are used once: :func:`session_refresh` blacklists the one it is given and
answers a new one; :func:`session_revoke` signs one device out, :func:`sessions_revoke_all`
every device of the account. Tokens carry ``auth_time``, when the person last gave their
password (:func:`sign_in_time`), which refreshing keeps: erasing an account without the
password asks for a sign-in of the last ``FRESH_SIGN_IN`` (10 minutes).

A person's data (GDPR art. 15, 17, 20; ``docs/privacy.md``): :func:`user_export` answers the
person's export (``clubs.privacy.export``) at once, or, above ``EXPORT_INLINE_HANDS`` hands,
has the worker build it (:func:`export_build`) and keeps it ``EXPORT_KEPT`` (24 hours) behind
a signed link valid ``EXPORT_LINK_SECONDS`` (1 hour, :func:`export_link_signature`);
:func:`member_export` is a club manager's export of a member's data in the club;
:func:`user_erase` erases the account (``clubs.privacy.erase``). Each is recorded as a
:class:`~clubs.models.DataRequest`, the audit of who asked for whose data.
"""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.signing import b62_encode
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.timezone import now
from django.utils.translation import gettext as _
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.settings import api_settings as jwt_settings
from rest_framework_simplejwt.state import token_backend
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

from clubs import emails, privacy
from clubs import notifications as clubs_notifications
from clubs.errors import ClubConflict, ClubNotFound, InvalidInput, NotAllowed
from clubs.models import Club, DataRequest, Membership, User
from clubs.services import devices
from config.api.authentication import forget
from config.api.throttles import (
    check_lockout,
    in_words,
    record_failure,
    take_from_first,
    throttled,
)
from config.i18n import supported
from config.tasks import send_after_commit
from games.models import Hand

EMAIL_TOKEN_SALT = "clubs.email-verification"
VERIFY_PATH = "/api/v1/auth/email/verify/"
AUTH_TIME_CLAIM = "auth_time"
"""The claim of a token that says when the person gave their password (OpenID Connect's name):
set by the first refresh from the sign-in's ``iat``, kept by every refresh after it."""
FRESH_SIGN_IN = dt.timedelta(minutes=10)
"""How recent a sign-in erases the account without the password again."""
EXPORT_INLINE_HANDS = 2000
"""An export of more hands at the person's seats is built by the worker (202), not at once."""
EXPORT_KEPT = dt.timedelta(hours=24)
"""How long a worker-built export's document is kept after it is ready."""
EXPORT_LINK_SECONDS = 3600
"""How long a signed download link of an export works (a new one comes with every look)."""
EXPORT_LINK_SALT = "clubs.export-download"


# ---------------------------------------------------------------------------------------------
# accounts


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "", display_name: str = "") -> User:
    """Create a player account.

    The username must be free (case-insensitively) and the password must pass Django's
    password validators; failures raise ``ValidationError`` keyed by field. A given e-mail
    address starts unconfirmed and is sent the confirmation e-mail.
    """
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": [_("This username is taken.")]})
    user = User(username=username, email=email.strip(), display_name=display_name)
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc
    user.set_password(password)
    user.full_clean()
    user.save()
    if user.email:
        _count_verification_mail(user)
        _queue_verification(user)
    return user


class Keep(enum.Enum):
    """The default of an argument whose ``None`` means something: leave the field as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP


@transaction.atomic
def user_update(
    *,
    user: User,
    email: str | None = None,
    display_name: str | None = None,
    language: str | None = None,
    public_name: bool | None | Keep = KEEP,
    notifications: list[dict[str, Any]] | None = None,
) -> User:
    """Change a user's own profile fields; ``None`` leaves a field unchanged, ``language``
    ``""`` clears the preference (the request's language speaks again). ``public_name`` is
    the person's choice whether public lists show their name (``True``, ``False``, or ``None``:
    as each club's name policy says, ``clubs.privacy.name_is_public``); :data:`KEEP` leaves it.

    A different address (other than in letter case) starts unconfirmed and is sent the
    confirmation e-mail, which counts against the account's limit of those (429 over it,
    nothing changed); ``""`` removes the address. ``notifications``: changes to the person's
    choice per notification type (``clubs.notifications.settings_update``).
    """
    if notifications:
        clubs_notifications.settings_update(user, notifications)
    changed: list[str] = []
    if public_name is not KEEP:
        user.public_name = public_name
        changed.append("public_name")
    if email is not None:
        email = email.strip()
        if email.lower() != user.email.lower():
            if email:
                _count_verification_mail(user)  # before ``user`` changes: a refusal changes nothing
            user.email_verified_at = None
            changed.append("email_verified_at")
        user.email = email
        changed.append("email")
    if display_name is not None:
        user.display_name = display_name
        changed.append("display_name")
    if language is not None:
        user.language = language
        changed.append("language")
    if changed:
        user.full_clean()
        user.save(update_fields=changed)
        if "email_verified_at" in changed and user.email:
            _queue_verification(user)
    return user


# ---------------------------------------------------------------------------------------------
# confirming e-mail addresses


def email_verification_token(user: User, *, issued_at: dt.datetime | None = None) -> str:
    """The token that confirms ``user``'s current address: signed, naming the account, the
    address (lower-cased) and when it was issued (``issued_at``, default now)."""
    moment = issued_at or now()
    payload = {"u": user.pk, "e": user.email.lower(), "t": int(moment.timestamp())}
    return signing.dumps(payload, salt=EMAIL_TOKEN_SALT)


def _count_verification_mail(user: User) -> None:
    """Count a confirmation e-mail against the account's limit; 429 ``throttled`` over it."""
    wait = take_from_first(f"verify-mail:{user.pk}", settings.EMAIL_VERIFICATION_RATE)
    if wait > 0:
        raise throttled(
            _("Too many confirmation e-mails for this account; try again in {wait}.").format(
                wait=in_words(wait)
            ),
            wait,
        )


def _queue_verification(user: User) -> None:
    """E-mail the confirmation of ``user``'s address after the commit, in their language
    (their preference, else the language of the request that asks for it)."""
    issued = now()
    with translation.override(supported(user.language) or translation.get_language()):
        mail = emails.email_verification_mail(
            user=user.display_name or user.username,
            email=user.email,
            token=email_verification_token(user, issued_at=issued),
            url=emails.link(VERIFY_PATH),
            expires_at=issued + dt.timedelta(seconds=settings.EMAIL_VERIFICATION_MAX_AGE_SECONDS),
        )
    emails.send_on_commit(user.email, mail)


@transaction.atomic
def user_email_verification_send(*, user: User) -> None:
    """E-mail the confirmation of the user's address again (the last one got lost or
    expired). 400 ``no_email`` without an address, 409 ``email_verified`` when it is
    confirmed already, 429 over the account's limit."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.email:
        raise InvalidInput(
            _("Your account has no e-mail address; set one first (PATCH /api/v1/me/)."),
            code="no_email",
        )
    if user.email_verified_at is not None:
        raise ClubConflict(_("Your e-mail address is confirmed already."), code="email_verified")
    _count_verification_mail(user)
    _queue_verification(user)


def user_email_verify(*, token: str) -> User:
    """Confirm an address with the token e-mailed to it; confirming twice changes nothing.

    400 ``token_invalid`` for a token that is damaged or no longer names the account's
    address (it changed since), 400 ``token_expired`` when it is older than
    ``EMAIL_VERIFICATION_MAX_AGE_SECONDS``, 409 ``email_taken`` when another account has
    confirmed the address first.
    """
    invalid = InvalidInput(
        _(
            "This confirmation link is not valid: it is damaged, or the account's e-mail "
            "address has changed since it was sent. Ask for a new one "
            "(POST /api/v1/me/email/resend/)."
        ),
        code="token_invalid",
        fields={"token": [_("Not a valid confirmation token.")]},
    )
    try:
        payload: Any = signing.loads(token, salt=EMAIL_TOKEN_SALT)
        user_id, address, issued = int(payload["u"]), str(payload["e"]), int(payload["t"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise invalid from None
    if now().timestamp() - issued > settings.EMAIL_VERIFICATION_MAX_AGE_SECONDS:
        raise InvalidInput(
            _(
                "This confirmation link has expired; ask for a new one "
                "(POST /api/v1/me/email/resend/)."
            ),
            code="token_expired",
            fields={"token": [_("Expired.")]},
        )
    try:
        with transaction.atomic():
            user = User.objects.select_for_update().filter(pk=user_id).first()
            if user is None or not user.email or user.email.lower() != address:
                raise invalid
            if user.email_verified_at is None:
                if (
                    User.objects.filter(email__iexact=address, email_verified_at__isnull=False)
                    .exclude(pk=user.pk)
                    .exists()
                ):
                    raise _taken()
                user.email_verified_at = now()
                user.save(update_fields=["email_verified_at"])
    except IntegrityError:  # another account confirmed it at the same moment
        raise _taken() from None
    forget(user.pk)  # this process's signed-in copy of the user shows it at once
    return user


def _taken() -> ClubConflict:
    return ClubConflict(
        _(
            "This e-mail address is confirmed on another account already; sign in to that "
            "account, or use another address."
        ),
        code="email_taken",
    )


# ---------------------------------------------------------------------------------------------
# refresh tokens


def session_refresh(*, refresh: str) -> dict[str, str]:
    """A new access token and a new refresh token for a refresh token, which is blacklisted:
    each refresh token works once. Under the token's row lock, so two refreshes with the same
    token cannot both succeed. ``TokenError`` for a bad, expired or used token;
    ``AuthenticationFailed`` when the account is deactivated. Both new tokens keep
    ``auth_time``, when the person signed in with their password (:func:`sign_in_time`)."""
    with transaction.atomic():
        token = RefreshToken(refresh)  # type: ignore[arg-type]
        jti = token[jwt_settings.JTI_CLAIM]
        list(OutstandingToken.objects.select_for_update().filter(jti=jti))
        token.check_blacklist()
        user = User.objects.filter(pk=token[jwt_settings.USER_ID_CLAIM]).first()
        if user is None or not jwt_settings.USER_AUTHENTICATION_RULE(user):
            raise AuthenticationFailed(
                _("No active account found for the given token."), code="no_active_account"
            )
        if AUTH_TIME_CLAIM not in token.payload:  # signed in with the password then
            token[AUTH_TIME_CLAIM] = token["iat"]
        answer = {"access": str(token.access_token)}
        token.blacklist()
        token.set_jti()
        token.set_exp()
        token.set_iat()
        token.outstand()
        answer["refresh"] = str(token)
    return answer


@transaction.atomic
def session_revoke(*, refresh: str) -> None:
    """Sign one device out: blacklist its refresh token (a revoked one again changes
    nothing). ``TokenError`` for a token that is not a well-signed, unexpired refresh token.
    The device's access token stays valid until it expires (``ACCESS_TOKEN_LIFETIME``)."""
    try:
        payload = token_backend.decode(refresh, verify=True)  # type: ignore[arg-type]
    except Exception as exc:  # TokenBackendError and anything a damaged token raises
        raise TokenError(_("Token is invalid or expired")) from exc
    if payload.get(jwt_settings.TOKEN_TYPE_CLAIM) != "refresh":
        raise TokenError(_("Token has wrong type"))
    RefreshToken(refresh, verify=False).blacklist()  # type: ignore[arg-type]


@transaction.atomic
def sessions_revoke_all(*, user: User) -> int:
    """Sign every device of the account out: blacklist each of its refresh tokens that has
    not expired, and forget its push targets (no notification reaches a signed-out phone);
    returns how many tokens were still usable."""
    devices.devices_revoke_all(user=user)
    usable = OutstandingToken.objects.filter(user=user, expires_at__gt=now()).exclude(
        blacklistedtoken__isnull=False
    )
    tokens = [BlacklistedToken(token=token) for token in usable]
    BlacklistedToken.objects.bulk_create(tokens, ignore_conflicts=True)
    return len(tokens)


def sign_in_time(claims: Any) -> dt.datetime | None:
    """When the person behind an access token's ``claims`` last gave their password:
    ``auth_time`` (a refreshed token), else ``iat`` (a token from the sign-in itself); None
    without a token (a browser session) or either claim."""
    if claims is None:
        return None
    moment = claims.get(AUTH_TIME_CLAIM, claims.get("iat"))
    if not isinstance(moment, int | float):
        return None
    return dt.datetime.fromtimestamp(moment, tz=dt.UTC)


# ---------------------------------------------------------------------------------------------
# a person's data: export and erasure


def hands_of(user: User) -> int:
    """How many hands were dealt at tables where ``user`` has a seat."""
    return Hand.objects.filter(table__seats__user=user).count()


def _recorded(
    *,
    subject: User,
    actor: User,
    kind: str,
    club: Club | None = None,
) -> DataRequest:
    """A finished request, for the audit."""
    return DataRequest.objects.create(
        subject=subject,
        actor=actor,
        club=club,
        kind=kind,
        status=DataRequest.Status.DONE,
        finished_at=now(),
    )


@transaction.atomic
def user_export(*, user: User) -> tuple[DataRequest, dict[str, Any] | None]:
    """The person's export (GDPR art. 15 and 20) and its record.

    Up to :data:`EXPORT_INLINE_HANDS` hands at their seats: the document now, recorded
    ``done``. More: ``None`` and a ``pending`` request the worker builds after the commit
    (:func:`export_build`). A request of theirs still pending is answered again instead of a
    second one, and its task sent again (a message the broker lost is sent anew; the task
    builds once), so asking twice builds once."""
    from clubs.tasks import build_export  # the tasks import the services

    if hands_of(user) <= EXPORT_INLINE_HANDS:
        document = privacy.export(user)
        return _recorded(subject=user, actor=user, kind=DataRequest.Kind.EXPORT), document
    request = (
        DataRequest.objects.select_for_update()
        .filter(
            subject=user,
            club=None,
            kind=DataRequest.Kind.EXPORT,
            status=DataRequest.Status.PENDING,
        )
        .first()
    )
    if request is None:
        request = DataRequest.objects.create(
            subject=user,
            actor=user,
            kind=DataRequest.Kind.EXPORT,
            status=DataRequest.Status.PENDING,
        )
    send_after_commit(build_export, request.pk)
    return request, None


def export_build(*, request_id: int) -> DataRequest | None:
    """Build a pending export's document and keep it :data:`EXPORT_KEPT`; a request that is
    no longer pending (built already, or gone) is left as it is, so running twice builds
    once."""
    with transaction.atomic():
        request = (
            DataRequest.objects.select_for_update(of=("self",))
            .select_related("subject", "club")
            .filter(pk=request_id, kind=DataRequest.Kind.EXPORT)
            .first()
        )
        if request is None or request.status != DataRequest.Status.PENDING:
            return request
        scope = privacy.Scope(request.club)
        request.document = privacy.export(request.subject, scope)
        request.status = DataRequest.Status.READY
        request.finished_at = now()
        request.expires_at = request.finished_at + EXPORT_KEPT
        request.save(update_fields=["document", "status", "finished_at", "expires_at"])
    return request


def export_status(request: DataRequest, *, at: dt.datetime | None = None) -> str:
    """A request's status as the person reads it: a ready export past its ``expires_at`` is
    ``expired`` (before the worker that clears the document gets to it)."""
    moment = at or now()
    if (
        request.status == DataRequest.Status.READY
        and request.expires_at is not None
        and request.expires_at <= moment
    ):
        return DataRequest.Status.EXPIRED
    return request.status


def export_of(*, user: User, request_id: int) -> DataRequest:
    """The export request ``request_id`` of which ``user`` is the subject; 404 for anyone
    else's, as for one that does not exist."""
    request = DataRequest.objects.filter(
        pk=request_id, subject=user, kind=DataRequest.Kind.EXPORT
    ).first()
    if request is None:
        raise ClubNotFound(_("There is no such export."))
    return request


class _SignedAt(signing.TimestampSigner):
    """A signer that dates its signatures ``at`` (a link signed at a given moment)."""

    def __init__(self, at: dt.datetime, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.at = at

    def timestamp(self) -> str:
        return str(b62_encode(int(self.at.timestamp())))


def _signer(signed_at: dt.datetime | None = None) -> signing.TimestampSigner:
    if signed_at is None:
        return signing.TimestampSigner(salt=EXPORT_LINK_SALT)
    return _SignedAt(signed_at, salt=EXPORT_LINK_SALT)


def export_link_signature(request_id: int, *, signed_at: dt.datetime | None = None) -> str:
    """The ``signature`` of the download link of export ``request_id``: it authorises the
    download by itself (a phone may hand the link to a browser) for
    :data:`EXPORT_LINK_SECONDS` after ``signed_at`` (default now)."""
    signed = _signer(signed_at).sign(str(request_id))
    return signed.split(":", 1)[1]


def export_download(*, request_id: int, signature: str) -> DataRequest:
    """The export ``request_id`` to download with ``signature``: only while the signature is
    good and younger than :data:`EXPORT_LINK_SECONDS` and the document is kept. Every other
    case is the same 404 as an unknown id."""
    try:
        _signer().unsign(f"{request_id}:{signature}", max_age=EXPORT_LINK_SECONDS)
    except (signing.BadSignature, ValueError):  # SignatureExpired is one; ValueError: no base62
        raise _no_export() from None
    request = DataRequest.objects.filter(pk=request_id, kind=DataRequest.Kind.EXPORT).first()
    if (
        request is None
        or export_status(request) != DataRequest.Status.READY
        or request.document is None
    ):
        raise _no_export()
    return request


def _no_export() -> ClubNotFound:
    return ClubNotFound(
        _(
            "There is no such export, or its download link has expired; the export's status "
            "(GET /api/v1/me/exports/{export_id}/) gives a new link while it is kept."
        )
    )


@transaction.atomic
def member_export(*, club: Club, manager: User, member_id: int) -> dict[str, Any]:
    """What ``club`` keeps about its member ``member_id`` (``clubs.privacy.Scope``), for the
    club's manager ``manager`` who answers the member's request (GDPR art. 15); recorded with
    the manager and the club, the audit of who read whose data. The caller checks that
    ``manager`` runs the club (``clubs.selectors.club_for_manager``); a user who is not a
    member is 404, as an unknown one."""
    membership = (
        Membership.objects.filter(club=club, user_id=member_id).select_related("user").first()
    )
    if membership is None:
        raise ClubNotFound(_("There is no such member in this club."))
    document = privacy.export(membership.user, privacy.Scope(club))
    _recorded(subject=membership.user, actor=manager, club=club, kind=DataRequest.Kind.EXPORT)
    return document


def user_erase(
    *,
    user: User,
    password: str | None,
    signed_in_at: dt.datetime | None,
    address: str = "",
) -> DataRequest:
    """Erase the account (GDPR art. 17, ``clubs.privacy.erase``) and record it.

    The person proves it is them: with their ``password`` (a wrong one is 400
    ``password_wrong`` and counts as a failed sign-in from ``address``; a locked account is
    429), or without it by a sign-in of the last :data:`FRESH_SIGN_IN` (``signed_in_at``, of
    the token; else 403 ``sign_in_again``). 409 ``last_owner`` while they are the last owner
    of a club; nothing changes then. Afterwards the account cannot sign in and its tokens are
    refused."""
    if password is None:
        if signed_in_at is None or now() - signed_in_at > FRESH_SIGN_IN:
            raise NotAllowed(
                _("Sign in again, or give your password, to erase your account."),
                code="sign_in_again",
            )
    else:
        check_lockout(user.username, address)
        if not user.check_password(password):
            record_failure(user.username, address)
            raise InvalidInput(
                _("The password is wrong; your account was not erased."),
                code="password_wrong",
                fields={"password": [_("Wrong password.")]},
            )
    with transaction.atomic():
        privacy.erase(user)
        request = _recorded(subject=user, actor=user, kind=DataRequest.Kind.ERASURE)
    forget(user.pk)  # this process's signed-in copy of the user goes at once
    return request
