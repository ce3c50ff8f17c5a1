"""``manage.py demo_data``: idempotently create the demo admin and players."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import User

DEMO_ADMIN = ("admin", "admin-demo-1")
DEMO_PLAYERS = ("anna", "bert", "carl", "dave")
DEMO_PLAYER_PASSWORD = "demo-pass-1"


class Command(BaseCommand):
    help = "Create demo accounts (admin/admin-demo-1; anna, bert, carl, dave/demo-pass-1)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        username, password = DEMO_ADMIN
        admin, created = User.objects.get_or_create(
            username=username,
            defaults={"is_staff": True, "is_superuser": True, "display_name": "Demo Admin"},
        )
        if created:
            admin.set_password(password)
            admin.save(update_fields=["password"])
        made = int(created)
        for name in DEMO_PLAYERS:
            player, created = User.objects.get_or_create(
                username=name, defaults={"display_name": name.capitalize()}
            )
            if created:
                player.set_password(DEMO_PLAYER_PASSWORD)
                player.save(update_fields=["password"])
                made += 1
        self.stdout.write(f"Demo data ready ({made} account(s) created).")
