"""``manage.py demo_cup``: idempotently create a demo cup of the demo club.

Run after ``demo_tournament`` (it counts that tournament): "Wiener Kartencup", a season like
the Raiffeisen Tarock-Cup's on a small scale (docs/cups.md): points per placing from a table,
the best 3 results counting, at least 2 tournaments to be ranked, a side ranking by region and
a final for the best 6 with carried points. It counts the demo tournament (anna directs both,
so it is accepted at once; it counts once it is finished) and two tournaments run elsewhere,
imported as CSV and as JSON, whose players are the demo club's members and two guests.
Everything goes through ``tournaments.services`` (the standings are computed at once without
a broker), so the demo is what the API would have stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.management.quiet import quiet_task_logs
from clubs.models import User
from tournaments import services
from tournaments.models import Cup, Tournament

NAME = "Wiener Kartencup"
SLUG = "wiener-kartencup"
TOURNAMENT_SLUG = "wiener-herbstturnier"
POLICY = {
    "points": {"table": [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4]},
    "participation": 2,
    "best_of": 3,
    "min_events": 2,
    "side_rankings": ["region"],
}
FINAL = {
    "qualify": {"top": 6, "min_events": 2},
    "carry": [10, 8, 6, 4, 2, 1],
    "points": {"table": [30, 24, 19, 15, 12, 10]},
}
NOE, BGLD = "Niederösterreich", "Burgenland"
REGION = {"anna": "Wien", "bert": "Wien", "carl": NOE, "dave": "Wien", "emil": BGLD,
          "franz": "Wien", "gerti": NOE, "hilde": "Wien", "ida": BGLD, "jakob": "Wien",
          "karl": NOE, "lena": "Wien"}  # fmt: skip
SPRING = ("anna", "carl", "emil", "gerti", "ida", "karl", "bert", "lena")
SUMMER = ("dave", "anna", "hilde", "bert", "jakob", "franz", "carl", "emil")


def _csv(users: dict[str, User]) -> str:
    lines = ["placing,name,score,rounds,user,region"]
    for placing, name in enumerate(SPRING, 1):
        user = users[name]
        score = 60 - 6 * placing
        lines.append(f"{placing},{user.display_name},{score},3,{user.pk},{REGION[name]}")
    lines.append(f"{len(SPRING) + 1},Rudi Gast,2,3,,Steiermark")
    return "\n".join(lines) + "\n"


def _json(users: dict[str, User]) -> dict[str, Any]:
    results: list[dict[str, Any]] = [
        {
            "placing": placing,
            "name": users[name].display_name,
            "score": str(50 - 5 * placing),
            "rounds": 3,
            "user": users[name].pk,
            "attributes": {"region": REGION[name]},
        }
        for placing, name in enumerate(SUMMER, 1)
    ]
    results.append({"placing": len(SUMMER) + 1, "name": "Rudi Gast", "score": "1", "rounds": 3})
    return {"results": results}


def build() -> Cup:
    """Create (or find) the demo cup."""
    found = Cup.objects.filter(slug=SLUG).first()
    if found is not None:
        return found
    t = Tournament.objects.filter(slug=TOURNAMENT_SLUG).select_related("club").first()
    users = {u.username: u for u in User.objects.filter(username__in=REGION)}
    if t is None or t.club is None or len(users) != len(REGION):
        raise CommandError("Run `manage.py demo_tournament` first: the cup counts it.")
    director = users["anna"]
    cup = services.cup_create(
        user=director,
        club=t.club,
        name=NAME,
        slug=SLUG,
        description="Die Saison der Runde: die besten drei Turniere zählen, ein Finale der besten"
        " sechs.",
        season_starts_on=dt.date(2026, 3, 1),
        season_ends_on=dt.date(2026, 12, 31),
        rule_sets=[t.rules["variant"]],
        policy=POLICY,
        final=FINAL,
    )
    services.cup_open(user=director, cup=cup)
    services.event_import(
        user=director,
        cup=cup,
        name="Frühlingsturnier Mödling",
        held_on=dt.date(2026, 4, 18),
        data=_csv(users),
        format="csv",
    )
    services.event_import(
        user=director,
        cup=cup,
        name="Sommerturnier Eisenstadt",
        held_on=dt.date(2026, 7, 11),
        data=_json(users),
        format="json",
    )
    services.event_add_tournament(user=director, cup=cup, tournament_id=t.pk)
    return cup


class Command(BaseCommand):
    help = "Create the demo cup of the demo club (idempotent; after demo_tournament)."

    def handle(self, *args: Any, **options: Any) -> None:
        with quiet_task_logs(), transaction.atomic():
            cup = build()
        base = f"/api/v1/cups/{cup.pk}"
        self.stdout.write(
            "\n".join(
                [
                    f"  Cup: {NAME} (id {cup.pk}; anna directs it), 2 imported tournaments and"
                    f" the Herbstturnier (counts once finished): GET {base}/events/",
                    f"       standings: GET {base}/standings/ (printable: {base}/standings/print/,"
                    f" Wien only: ?ranking=region:Wien), final: GET {base}/final/",
                ]
            )
        )
