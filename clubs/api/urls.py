"""Clubs routes: accounts and profile, clubs and their people, evenings, rounds, seasons, the
caller's own view (``/me/…``) and their personal data (``clubs.api.privacy``). Each resource
module keeps its own ``urlpatterns``."""

from django.urls import include, path

from clubs.api.views import (
    EmailResendView,
    EmailVerifyView,
    MeView,
    RegisterView,
    TokenObtainView,
    TokenRefreshAccessView,
    TokenRevokeAllView,
    TokenRevokeView,
)

urlpatterns = [
    path("auth/token/", TokenObtainView.as_view(), name="token-obtain"),
    path("auth/token/refresh/", TokenRefreshAccessView.as_view(), name="token-refresh"),
    path("auth/token/revoke/", TokenRevokeView.as_view(), name="token-revoke"),
    path("auth/token/revoke-all/", TokenRevokeAllView.as_view(), name="token-revoke-all"),
    path("auth/register/", RegisterView.as_view(), name="register"),
    path("auth/email/verify/", EmailVerifyView.as_view(), name="email-verify"),
    path("me/", MeView.as_view(), name="me"),
    path("me/email/resend/", EmailResendView.as_view(), name="email-resend"),
    path("", include("clubs.api.people")),
    path("", include("clubs.api.evenings")),
    path("", include("clubs.api.rounds")),
    path("", include("clubs.api.seasons")),
    path("", include("clubs.api.me")),
    path("", include("clubs.api.privacy")),
    path("", include("clubs.api.devices")),
]
