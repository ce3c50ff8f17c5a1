"""Tournaments app: tournaments, their directors and rounds; a round's tables link here."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from tournaments import managers

        managers.register()
