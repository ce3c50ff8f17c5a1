"""Games app: tables, hands and the worker jobs that play them."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # tasks: registered by name, as the services send them (config.tasks)
        from games import live, privacy, tasks  # noqa: F401

        live.register_games()
        privacy.register()  # what the tables keep about a person (issue 39)
