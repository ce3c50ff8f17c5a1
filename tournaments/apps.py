"""Tournaments app: entries, rounds and their tables, results, standings, webhooks."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from clubs import outbox
        from games import deals, hooks
        from tournaments import live, managers, names, privacy, services

        managers.register()
        privacy.register_keeper()
        live.register()
        outbox.register_namer(names.ENTRY_KEY, names.notification_names)
        hooks.listen("tournament standings", services.on_hands_changed)
        hooks.listen_timeouts("tournament log", services.on_timeout)
        deals.register(
            deals.DealSource("tournament boards", services.board_deck, services.board_withheld)
        )
