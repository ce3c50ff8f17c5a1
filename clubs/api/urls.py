"""Clubs routes: accounts and profile, clubs and their people, evenings, rounds, seasons, and
the caller's own view (``/me/…``). Each resource module keeps its own ``urlpatterns``."""

from django.urls import include, path

from clubs.api.views import MeView, RegisterView, TokenObtainView, TokenRefreshAccessView

urlpatterns = [
    path("auth/token/", TokenObtainView.as_view(), name="token-obtain"),
    path("auth/token/refresh/", TokenRefreshAccessView.as_view(), name="token-refresh"),
    path("auth/register/", RegisterView.as_view(), name="register"),
    path("me/", MeView.as_view(), name="me"),
    path("", include("clubs.api.people")),
    path("", include("clubs.api.evenings")),
    path("", include("clubs.api.rounds")),
    path("", include("clubs.api.seasons")),
    path("", include("clubs.api.me")),
]
