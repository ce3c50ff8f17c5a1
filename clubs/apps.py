"""Clubs app: the base layer (users, clubs, memberships, guests) and, above games, club
evenings, seating, seasons, standings and ratings."""

from django.apps import AppConfig


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"

    def ready(self) -> None:
        # tasks, tasks_seasons, tasks_retention: tasks the worker knows by name
        from clubs import live, managers, tasks, tasks_retention, tasks_seasons  # noqa: F401
        from clubs.services import privacy, seasons
        from games import hooks

        hooks.listen("club seasons", seasons.on_hands_changed)
        live.register()
        managers.register()
        privacy.register()  # the "account" and "clubs" keepers of a person's data
