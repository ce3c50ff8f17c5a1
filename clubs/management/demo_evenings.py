"""Demo club life for ``manage.py demo_data``: a dozen members, a season, last week's evening
with three rounds seated by the seating service, hands recorded at every table and the
evening closed and settled, and a coming evening with answers and a waitlist.

Everything goes through the services (seating, games, evenings, seasons), with a fixed
random seed, so the demo is what the API would have stored; the standings and ratings are
computed by the same tasks (in-process without a broker).

The evening's hands are score-sheet entries drawn to look like a real club night
(:func:`club_night_entry`): mostly suit games, most of them made, now and then a defender who
falls, a Bettler or an Ausfechten. (Hands played out by the random bot fail nearly every time,
so every deal would pay a fall into the pot: hundreds of euros in one evening.)
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils import timezone

import engine
from clubs.models import Club, Evening, Membership, Season, User
from clubs.services import evenings, rounds, seasons
from games import services as games
from games.models import Table
from games.rulesets import rule_set_of

MORE_PLAYERS = ("emil", "franz", "gerti", "hilde", "ida", "jakob", "karl", "lena")
PAST_EVENING = "Clubabend (vorige Woche)"
COMING_EVENING = "Clubabend (nächste Woche)"
SEASON_NAME = "Saison"
HANDS_PER_TABLE = 6
COMING_CAPACITY = 9


def members(club: Club, players: dict[str, User]) -> dict[str, User]:
    """The four demo players plus the eight more members (accounts made by ``demo_data``)."""
    for name in MORE_PLAYERS:
        Membership.objects.get_or_create(club=club, user=players[name])
    return dict(players)


#: The two defenders' choices (the other two active players, in seat order).
DEFENCES = (
    ("play", "play"),
    ("play", "home"),
    ("home", "play"),
    ("home", "home"),
    ("invite", "invited"),
)
#: Ausfechten trick splits (most tricks first; the first player or two pay G into the pot).
AUSFECHTEN_SPLITS = ((4, 3, 3), (5, 3, 2), (4, 4, 2), (5, 4, 1), (6, 2, 2))


def _share(tricks: int, players: Sequence[str], rng: random.Random) -> dict[str, int]:
    """``tricks`` shared between two players, as evenly as the cards allow more often than
    not."""
    first = min(tricks, max(0, round(rng.gauss(tricks / 2, 0.6))))
    return {players[0]: first, players[1]: tricks - first}


def _club_night(active: Sequence[str], rng: random.Random) -> dict[str, Any]:
    """One candidate entry: the shares of kinds and results of an ordinary club night."""
    kind = rng.random()
    if kind < 0.07:
        split = rng.choice(AUSFECHTEN_SPLITS)
        order = rng.sample(list(active), 3)
        return {"game": {"type": "ausfechten"}, "tricks": dict(zip(order, split, strict=True))}
    declarer = rng.choice(list(active))
    others = [p for p in active if p != declarer]
    if kind < 0.13:  # a Bettler: no trick in ten, or lost at the declarer's first trick
        made = rng.random() < 0.6
        taken = 10 if made else rng.randint(1, 7)
        return {
            "game": {"type": "premium", "level": 5, "hand": False},
            "declarer": declarer,
            "tricks": {declarer: 0 if made else 1, **_share(taken, others, rng)},
        }
    game = {"type": "suit", "level": rng.choice("CSDH"), "talon": rng.random() < 0.85}
    defence = rng.choices(DEFENCES, weights=(40, 18, 18, 12, 12))[0]
    entry: dict[str, Any] = {
        "game": game,
        "declarer": declarer,
        "defence": dict(zip(others, defence, strict=True)),
    }
    playing = [p for p, choice in entry["defence"].items() if choice != "home"]
    if not playing:
        entry["tricks"] = {}
        return entry
    # Defenders who both play expect two tricks each: the declarer mostly makes exactly six
    # (seven or more leaves a defender short); alone, a defender lets the declarer have more.
    weights = (8, 17, 62, 9, 4) if len(playing) == 2 else (4, 12, 34, 30, 20)
    declared = rng.choices((4, 5, 6, 7, 8), weights=weights)[0]
    if len(playing) == 1:
        entry["tricks"] = {declarer: declared, playing[0]: 10 - declared}
    else:
        entry["tricks"] = {declarer: declared, **_share(10 - declared, playing, rng)}
    return entry


def club_night_entry(table: Table, rng: random.Random) -> dict[str, Any]:
    """The next score-sheet entry of ``table`` as a club night would write it; the engine
    judges each candidate (a defender may stay home only when the pot holds more than the
    dealer's contribution, wien.md "Defence") and a refused one is drawn again."""
    last = table.hands.order_by("-number").first()
    number = 1 if last is None else last.number + 1
    common = games.common_part(table, number, games.carry_for(table, number))
    active = rule_set_of(table).active_seats(common["seats"], common["dealer"])
    while True:
        entry = _club_night(active, rng)
        try:
            engine.settle({**common, **entry})
        except engine.EngineError:
            continue
        return entry


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
                    table_id=link.table_id, user=owner, entry=club_night_entry(link.table, rng)
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


def build(club: Club, players: dict[str, User]) -> list[str]:
    """Create (or find) the demo club life; the lines of the demo's summary about it."""
    owner = players["anna"]
    people = members(club, players)
    the_season = season(club, owner)
    past = past_evening(club, owner, people)
    coming = coming_evening(club, owner, people)
    base = f"/api/v1/clubs/{club.pk}"
    return [
        f"  Evenings:   last week's, evening {past.pk} (3 rounds, closed and settled): "
        f"GET {base}/evenings/{past.pk}/settlement/",
        f"              next week's, evening {coming.pk} ({COMING_CAPACITY} places, a waitlist):"
        f" GET {base}/evenings/{coming.pk}/attendances/",
        f"  Season:     season {the_season.pk}: GET {base}/seasons/{the_season.pk}/standings/;"
        f" ratings: GET {base}/ratings/",
    ]
