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
every device of the account.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
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

from clubs import emails
from clubs.errors import ClubConflict, InvalidInput
from clubs.models import User
from config.api.authentication import forget
from config.api.throttles import in_words, take_from_first, throttled
from config.i18n import supported

EMAIL_TOKEN_SALT = "clubs.email-verification"
VERIFY_PATH = "/api/v1/auth/email/verify/"


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


@transaction.atomic
def user_update(
    *,
    user: User,
    email: str | None = None,
    display_name: str | None = None,
    language: str | None = None,
) -> User:
    """Change a user's own profile fields; ``None`` leaves a field unchanged, ``language``
    ``""`` clears the preference (the request's language speaks again).

    A different address (other than in letter case) starts unconfirmed and is sent the
    confirmation e-mail, which counts against the account's limit of those (429 over it,
    nothing changed); ``""`` removes the address.
    """
    changed: list[str] = []
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
    ``AuthenticationFailed`` when the account is deactivated."""
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
    not expired; returns how many were still usable."""
    usable = OutstandingToken.objects.filter(user=user, expires_at__gt=now()).exclude(
        blacklistedtoken__isnull=False
    )
    tokens = [BlacklistedToken(token=token) for token in usable]
    BlacklistedToken.objects.bulk_create(tokens, ignore_conflicts=True)
    return len(tokens)
