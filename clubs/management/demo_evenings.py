"""Demo club life for ``manage.py demo_data``: a dozen members, a season, last week's evening
with three rounds seated by the seating service, hands recorded at every table and the
evening closed and settled, and a coming evening with answers and a waitlist.

Everything goes through the services (seating, games, evenings, seasons), with a fixed
random seed, so the demo is what the API would have stored; the standings and ratings are
computed by the same tasks (in-process without a broker).
"""

from __future__ import annotations

import datetime as dt
import random

from django.conf import settings
from django.utils import timezone

from clubs.models import Club, Evening, Membership, Season, User
from clubs.services import evenings, rounds, seasons
from games import services as games
from games.random_entries import random_entry

MORE_PLAYERS = ("emil", "franz", "gerti", "hilde", "ida", "jakob", "karl", "lena")
PAST_EVENING = "Clubabend (vorige Woche)"
COMING_EVENING = "Clubabend (nächste Woche)"
SEASON_NAME = "Saison"
HANDS_PER_TABLE = 6
COMING_CAPACITY = 9


def members(club: Club, players: dict[str, User], password: str) -> dict[str, User]:
    """The four demo players plus eight more members (same password)."""
    everyone = dict(players)
    for name in MORE_PLAYERS:
        user, created = User.objects.get_or_create(
            username=name, defaults={"display_name": name.capitalize()}
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
        everyone[name] = user
        Membership.objects.get_or_create(club=club, user=user)
    return everyone


def season(club: Club, owner: User) -> Season:
    found = club.seasons.filter(name=SEASON_NAME).first()
    if found is not None:
        return found
    today = timezone.localdate()
    return seasons.season_create(
        user=owner,
        club=club,
        name=SEASON_NAME,
        starts_on=today - dt.timedelta(days=90),
        ends_on=today + dt.timedelta(days=90),
        is_active=True,
        league_points={"3": [3, 2, 1], "4": [4, 3, 2, 1]},
    )


def past_evening(club: Club, owner: User, people: dict[str, User]) -> Evening:
    """Last week's evening: twelve players checked in, three rounds seated, six hands at
    every table, closed and settled."""
    found = club.evenings.filter(title=PAST_EVENING).first()
    if found is not None:
        return found
    rng = random.Random(8)
    starts = timezone.now().replace(hour=18, minute=0, second=0, microsecond=0)
    starts -= dt.timedelta(days=7)
    evening = Evening.objects.create(
        club=club,
        title=PAST_EVENING,
        starts_at=starts,
        ends_at=starts + dt.timedelta(hours=5),
        place="Café Sperl, Gumpendorfer Straße 11",
        seating_seed=2026,
    )
    for user in people.values():
        evenings.checkin_create(user=owner, evening_id=evening.pk, user_id=user.pk, now=starts)
    for number in (1, 2, 3):
        rounds.round_plan(user=owner, evening_id=evening.pk, rounds_total=3)
        started = rounds.round_start(user=owner, evening_id=evening.pk, number=number)
        for link in started.tables.select_related("table"):
            for _ in range(HANDS_PER_TABLE):
                games.table_record_hand(
                    table_id=link.table_id, user=owner, entry=random_entry(link.table, rng)
                )
    return rounds.evening_close(
        user=owner, evening_id=evening.pk, currency=settings.CURRENCY_SYMBOL
    )


def coming_evening(club: Club, owner: User, people: dict[str, User]) -> Evening:
    """Next week's evening: capacity nine, eleven yes answers (two wait), one maybe."""
    found = club.evenings.filter(title=COMING_EVENING).first()
    if found is not None:
        return found
    starts = timezone.now().replace(hour=18, minute=0, second=0, microsecond=0)
    starts += dt.timedelta(days=6)
    evening = evenings.evening_create(
        user=owner,
        club_id=club.pk,
        title=COMING_EVENING,
        starts_at=starts,
        ends_at=starts + dt.timedelta(hours=5),
        place="Café Sperl, Gumpendorfer Straße 11",
        capacity=COMING_CAPACITY,
    )
    names = list(people)
    for i, name in enumerate(names):
        answer = "maybe" if i >= len(names) - 1 else "yes"
        evenings.attendance_answer(user=people[name], evening_id=evening.pk, answer=answer)
    return evening


def build(club: Club, players: dict[str, User], password: str) -> list[str]:
    """Create (or find) the demo club life; the lines ``make run`` prints about it."""
    owner = players["anna"]
    people = members(club, players, password)
    the_season = season(club, owner)
    past = past_evening(club, owner, people)
    coming = coming_evening(club, owner, people)
    base = f"/api/v1/clubs/{club.pk}"
    return [
        f"  Club life: {len(people)} members (also {', '.join(MORE_PLAYERS)}; same password)",
        f"             last week's evening, 3 rounds, settled: "
        f"GET {base}/evenings/{past.pk}/settlement/",
        f"             season standings: GET {base}/seasons/{the_season.pk}/standings/",
        f"             ratings: GET {base}/ratings/",
        f"             next week's evening with a waitlist: "
        f"GET {base}/evenings/{coming.pk}/attendances/",
    ]
