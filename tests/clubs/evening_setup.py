"""Set-ups for evening tests: check players in, plan and start rounds, record hands."""

from __future__ import annotations

import random

from django.utils import timezone

import engine
from clubs.models import Attendance, Club, Evening, EveningTable, Guest, Season, User
from clubs.services import rounds
from games import services as games
from games.models import Table
from games.random_entries import random_entry
from tests.clubs.world import ClubWorld


def check_in(evening: Evening, *players: User | Guest) -> None:
    now = timezone.now()
    for p in players:
        if isinstance(p, Guest):
            Attendance.objects.create(
                evening=evening, guest=p, answer="yes", answered_at=now, checked_in_at=now
            )
        else:
            Attendance.objects.create(
                evening=evening, user=p, answer="yes", answered_at=now, checked_in_at=now
            )


def members_checked_in(w: ClubWorld) -> None:
    """member, scorer, admin, owner: four players, one table of 4."""
    check_in(w.evening, *(w.users[r] for r in ("member", "scorer", "admin", "owner")))


def six_checked_in(w: ClubWorld) -> None:
    """The four members and two guests: two tables of 3."""
    guests = [Guest.objects.create(club=w.club, name=n) for n in ("Gustav", "Helga")]
    check_in(w.evening, *(w.users[r] for r in ("member", "scorer", "admin", "owner")), *guests)


def planned_round(w: ClubWorld) -> None:
    members_checked_in(w)
    rounds.round_plan(user=w.users["owner"], evening_id=w.evening.pk, rounds_total=2, seed=1)


def started_round(w: ClubWorld) -> None:
    planned_round(w)
    rounds.round_start(user=w.users["owner"], evening_id=w.evening.pk, number=1)


def an_evening_of(w: ClubWorld, rules: dict[str, object]) -> list[Table]:
    """The club's default ``rules``, a season, six players checked in (eight where the rule
    set seats tables of four only, Doppelkopf) and one round seated and started (tables of
    three, or four): the round's games tables."""
    Club.objects.filter(pk=w.club.pk).update(default_rules=rules)
    w.club.refresh_from_db()
    a_season(w)
    if 3 in engine.rule_set(str(rules["variant"])).table.seats:
        six_checked_in(w)
    else:
        guests = [Guest.objects.create(club=w.club, name=n) for n in ("Gustav", "Helga", "Ida")]
        guests.append(Guest.objects.create(club=w.club, name="Jakob"))
        check_in(w.evening, *(w.users[r] for r in ("member", "scorer", "admin", "owner")), *guests)
    owner = w.users["owner"]
    rounds.round_plan(user=owner, evening_id=w.evening.pk, rounds_total=1, seed=1)
    rounds.round_start(user=owner, evening_id=w.evening.pk, number=1)
    return [link.table for link in EveningTable.objects.filter(evening=w.evening)]


def a_season(w: ClubWorld) -> None:
    today = timezone.localdate()
    season = Season.objects.create(
        club=w.club,
        name="Saison",
        starts_on=today.replace(month=1, day=1),
        ends_on=today.replace(month=12, day=31),
        is_active=True,
    )
    w.extra["season"] = season.pk


def evening_table(w: ClubWorld, players: list[User | Guest], name: str = "Tisch") -> Table:
    """A recorded games table of the club linked to the world's evening (as the seating
    service would make it), the first player dealing first."""
    seats = []
    for i, p in enumerate(players):
        if isinstance(p, Guest):
            seats.append(games.SeatSpec(key=f"g{i}", kind="guest", guest=p, guest_name=p.name))
        else:
            seats.append(games.SeatSpec(key=f"p{i}", kind="user", user=p))
    table = games.table_create(
        user=w.users["owner"],
        name=name,
        mode=Table.Mode.RECORDED,
        rules=dict(w.club.default_rules),
        seats=seats,
        first_dealer=seats[0].key,
        club_id=w.club.pk,
    )
    EveningTable.objects.create(evening=w.evening, number=w.evening.tables.count() + 1, table=table)
    return table


def record(w: ClubWorld, table: Table, hands: int, rng: random.Random) -> None:
    for _ in range(hands):
        games.table_record_hand(
            table_id=table.pk, user=w.users["owner"], entry=random_entry(table, rng)
        )
