"""The browser sign-ins (the browsable API's session login and the admin's login) under the
same limits as the token endpoint.

Both forms first count the attempt against the caller's address and check the account's
lockout (:func:`config.api.throttles.check_sign_in`); a refused attempt is answered 429 with
``Retry-After`` and the form saying when to try again, and its password is not tried. The
password check itself goes through :class:`config.api.authentication.LockoutModelBackend`,
which counts failures whichever way they come.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponseBase
from django.template.response import TemplateResponse
from django.urls import path
from rest_framework.exceptions import Throttled

from config.api.throttles import check_sign_in


class _Limited:
    """Mixin for an ``AuthenticationForm``: the limits before the password is tried."""

    request: HttpRequest | None
    data: Any
    refused_for: float = 0.0

    def clean(self) -> dict[str, Any]:
        if self.request is not None:
            try:
                check_sign_in(self.request, str(self.data.get("username", "")))
            except Throttled as refusal:
                self.refused_for = float(getattr(refusal, "wait", None) or 1)
                raise ValidationError(str(refusal.detail), code="throttled") from None
        return super().clean()  # type: ignore[misc]


class SignInForm(_Limited, AuthenticationForm):
    """The browsable API's session login form."""


class AdminSignInForm(_Limited, AdminAuthenticationForm):
    """The admin's login form."""


def answer_refusals(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Wrap a login view: a form refused by the limits is answered 429 with ``Retry-After``."""

    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        if isinstance(response, TemplateResponse):
            form = (response.context_data or {}).get("form")
            wait = getattr(form, "refused_for", 0.0)
            if wait > 0:
                response.status_code = 429
                response["Retry-After"] = str(int(wait + 0.999))
        return response

    return wrapped


#: The browsable API's ``/api/v1/auth/session/`` routes (namespace ``rest_framework``, as
#: ``rest_framework.urls`` names them) with :class:`SignInForm`.
session_urls = (
    [
        path(
            "login/",
            answer_refusals(
                LoginView.as_view(
                    template_name="rest_framework/login.html", authentication_form=SignInForm
                )
            ),
            name="login",
        ),
        path("logout/", LogoutView.as_view(), name="logout"),
    ],
    "rest_framework",
)

admin.site.login_form = AdminSignInForm
#: The admin's login (routed before ``admin.site.urls``), refusals answered 429.
admin_login = answer_refusals(admin.site.login)
