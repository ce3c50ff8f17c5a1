"""Games app: tables, hands and the worker jobs that play them."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import live

        live.register_games()
