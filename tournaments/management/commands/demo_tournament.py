"""``manage.py demo_tournament``: idempotently create a demo tournament of the demo club.

Run after ``demo_data`` (it uses its club and players): "Wiener Herbstturnier", 12 players
(anna, bert, carl, dave and the club's eight other members), 3 rounds of 6 recorded deals
with fewest repeated opponents and table-rank points; round 1 played and closed, round 2
seated and being played. Everything goes through ``tournaments.services`` (tasks run at once
without a broker), so the demo is what the API would have stored.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.management.quiet import quiet_task_logs
from clubs.models import Club, User
from games import services as games
from games.random_entries import random_entry
from tournaments import services
from tournaments.models import Round, RoundTable, Tournament

NAME = "Wiener Herbstturnier"
SLUG = "wiener-herbstturnier"
CLUB_NAME = "Wiener Préférence-Runde"
PLAYERS = ("anna", "bert", "carl", "dave", "emil", "franz", "gerti", "hilde", "ida", "jakob",
           "karl", "lena")  # fmt: skip


def _play(t: Tournament, number: int, director: User, rng: random.Random) -> None:
    rnd = Round.objects.get(tournament=t, number=number)
    for link in RoundTable.objects.filter(round=rnd).select_related("table"):
        for n in range(link.table.hands.count() + 1, t.deals_per_round + 1):
            games.table_record_hand(
                table_id=link.table_id, user=director, entry=random_entry(link.table, rng, n)
            )


def build() -> Tournament:
    """Create (or find) the demo tournament."""
    found = Tournament.objects.filter(slug=SLUG).first()
    if found is not None:
        return found
    club = Club.objects.filter(name=CLUB_NAME).first()
    users = {u.username: u for u in User.objects.filter(username__in=PLAYERS)}
    if club is None or len(users) != len(PLAYERS):
        raise CommandError("Run `manage.py demo_data` first: it makes the club and players.")
    director = users["anna"]
    t = services.tournament_create(
        user=director,
        name=NAME,
        slug=SLUG,
        club_id=club.pk,
        venue="Café Sperl, Wien",
        rules=dict(club.default_rules),
        rounds_planned=3,
        deals_per_round=6,
        seating="fewest_repeats",
        scoring="table_rank",
        tiebreaks=["declarer_wins", "best_round", "lots"],
        prizes=[5000, 3000, 1500],
        lots_seed=20261123,
    )
    services.tournament_open_registration(user=director, tournament=t)
    for name in PLAYERS:
        services.entry_register(user=users[name], tournament=t)
    services.tournament_open_check_in(user=director, tournament=t)
    for entry in t.entries.all():
        services.entry_check_in(user=director, entry=entry)
    services.round_seat(user=director, tournament=t, seed=1)
    return t


class Command(BaseCommand):
    help = "Create the demo tournament of the demo club (idempotent; after demo_data)."

    def handle(self, *args: Any, **options: Any) -> None:
        with quiet_task_logs():
            t = self._build()
        base = f"/api/v1/tournaments/{t.pk}"
        self.stdout.write(
            "\n".join(
                [
                    f"  Tournament: {NAME} (id {t.pk}; anna directs it), {len(PLAYERS)} players,"
                    f" round 2 being played: GET {base}/rounds/2/",
                    f"              standings: GET {base}/standings/ "
                    f"(printable: {base}/standings/print/)",
                ]
            )
        )

    def _build(self) -> Tournament:
        with transaction.atomic():
            t = build()
        # Seating runs on commit (at once without a broker; with one, the worker seats and
        # the demo stops at a seated round 1). Then round 1 is played and closed, round 2
        # seated and started.
        director = User.objects.get(username="anna")
        first = t.rounds.get(number=1)
        if first.status == Round.Status.SEATED and not t.rounds.filter(number=2).exists():
            services.round_start(user=director, round=first)
            with transaction.atomic():
                _play(t, 1, director, random.Random(2026))
            services.round_close(user=director, round=first)
            services.round_seat(user=director, tournament=t, seed=2)
            second = t.rounds.get(number=2)
            if second.status == Round.Status.SEATED:
                services.round_start(user=director, round=second)
        return t
