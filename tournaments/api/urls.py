"""Tournament routes: tournaments and entries, rounds and tables, standings and exports,
webhooks, cups. Each resource module keeps its own ``urlpatterns``."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.api.tournaments")),
    path("", include("tournaments.api.rounds")),
    path("", include("tournaments.api.public")),
    path("", include("tournaments.api.webhooks")),
    path("", include("tournaments.api.invitations")),
    path("", include("tournaments.api.cups")),
]
