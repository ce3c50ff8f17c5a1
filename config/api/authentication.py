"""Who the caller is: password sign-in with its lockout, and JWT authentication that
remembers a token's user for a few seconds in this process.

:class:`LockoutModelBackend` is the one place every password sign-in passes (the token
endpoint, the session login of the browsable API, the admin's login): it refuses a locked
account and counts failures and successes (:mod:`config.api.throttles`).

JWT authentication that remembers a token's user for a few seconds in this process.

Every API request with a JWT costs a database query for its user; the seat view that phones
poll is otherwise served from one cheap query, so that lookup was a third of its cost. The user
is kept for ``JWT_USER_CACHE_SECONDS`` (default 5): a deactivated user or a changed profile is
seen by other processes at most that late, while tokens stay valid for their whole lifetime
anyway. Nothing is kept while a transaction is open (tests, ``ATOMIC_REQUESTS``), so a rolled
back user is never reused. The kept user is shared between requests: read it, do not change it
outside ``clubs.services``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.utils.translation import gettext, gettext_noop
from rest_framework import HTTP_HEADER_ENCODING
from rest_framework.authentication import SessionAuthentication
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.settings import api_settings
from rest_framework_simplejwt.tokens import AccessToken

from config.api.throttles import client_address, lockout_wait, record_failure, record_success
from config.i18n import activate_for

#: simplejwt's refusals that reach a caller but that its own German catalog leaves fuzzy or
#: untranslated: listed here, they are in this project's catalog (``config/locale``, which
#: ``LOCALE_PATHS`` puts before every package's), which translates them.
SIMPLEJWT_MESSAGES = (
    gettext_noop("Token is invalid"),
    gettext_noop("Token is expired"),
    gettext_noop("No active account found for the given token."),
    gettext_noop("The user's password has been changed."),
)

#: The request's attribute where the request limits (``config.api.limits``) leave the access
#: token they checked, with its text, so that authentication does not decode it again.
CHECKED_TOKEN = "preference_checked_token"

_USERS: OrderedDict[Any, tuple[float, Any]] = OrderedDict()
_LOCK = threading.Lock()
KEPT = 10_000


class LockoutModelBackend(ModelBackend):
    """Django's username-and-password backend behind the failed-sign-in lockout: a locked
    account is refused without trying its password (``PermissionDenied`` stops every backend,
    so no other one is asked), a wrong password counts a failure for the account from the
    caller's address, and a right one clears the account's failures."""

    def authenticate(
        self,
        request: Any,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(self._username_field())
        if username is None or password is None:
            return None
        address = client_address(request) if request is not None else ""
        if lockout_wait(str(username), address) > 0:
            raise PermissionDenied(gettext("Too many failed sign-ins for this account."))
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_failure(str(username), address)
        else:
            record_success(str(username), address)
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return str(get_user_model().USERNAME_FIELD)


class SpeaksUsersLanguage:
    """An authentication that switches the request to the signed-in user's saved language
    (``config.i18n.activate_for``) once it knows the user."""

    def authenticate(self, request: Any) -> Any:
        found = super().authenticate(request)  # type: ignore[misc]
        if found is not None:
            activate_for(found[0])
        return found


class CachedJWTAuthentication(SpeaksUsersLanguage, JWTAuthentication):
    """:class:`JWTAuthentication` with a short per-process memory of users by id, speaking the
    user's language. An access token the request limits already checked
    (:data:`CHECKED_TOKEN`: the same text, signature and expiry checked
    moments before) is taken as checked instead of being decoded a second time."""

    _checked: tuple[str, Any] | None = None

    def authenticate(self, request: Any) -> Any:
        self._checked = getattr(request, CHECKED_TOKEN, None)  # one instance per request
        return super().authenticate(request)

    def get_validated_token(self, raw_token: bytes) -> Any:
        checked = self._checked
        if (
            checked is not None
            and AccessToken in api_settings.AUTH_TOKEN_CLASSES
            and raw_token == checked[0].encode(HTTP_HEADER_ENCODING)
        ):
            return checked[1]
        return super().get_validated_token(raw_token)

    def get_user(self, validated_token: Any) -> Any:
        seconds = float(getattr(settings, "JWT_USER_CACHE_SECONDS", 5.0))
        user_id = validated_token.get(api_settings.USER_ID_CLAIM)
        now = time.monotonic()
        with _LOCK:
            hit = _USERS.get(user_id)
        if hit is not None and now - hit[0] < seconds:
            return hit[1]
        user = super().get_user(validated_token)
        if seconds > 0 and not connection.in_atomic_block:
            with _LOCK:
                _USERS[user_id] = (now, user)
                _USERS.move_to_end(user_id)
                while len(_USERS) > KEPT:
                    _USERS.popitem(last=False)
        return user


class LanguageSessionAuthentication(SpeaksUsersLanguage, SessionAuthentication):
    """The browsable API's session sign-in, speaking the user's language."""


def forget(user_id: Any) -> None:
    """Drop a user from this process's memory (after changing it)."""
    with _LOCK:
        _USERS.pop(user_id, None)


def forget_everyone() -> None:
    """Drop every kept user (tests: a new test's users may reuse an earlier test's ids)."""
    with _LOCK:
        _USERS.clear()
