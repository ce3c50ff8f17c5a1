"""Issue 39: the tables the server seats (a club evening's round, a tournament round) key their
seats without names, ``p-`` and the player's pseudonym code (``clubs.privacy.seat_key``), so
that the hand records, sheets, ledgers and exports that everyone at a table reads copy no name
and an erased player's old tables hold none. The key is the same at every table of the player
and carries the code of their public pseudonym ("Player 7f3a2c")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs import privacy
from clubs.models import Guest
from clubs.services import rounds
from config.slugs import slug_of
from games.models import Seat
from tests.clubs.evening_setup import check_in
from tests.clubs.world import build_club_world
from tests.factories import UserFactory
from tests.tournaments.setup import make_field
from tournaments.models import Entry, RoundSeat
from tournaments.services.rounds import seat_keys

NAMES = ("Jürgen Öhlschläger", "Grete Weiß", "Björn Müller")
KEY = re.compile(r"p-[0-9a-f]{6}")


def test_a_seat_key_is_the_players_pseudonym_code_and_the_same_every_time() -> None:
    keys = {player: privacy.seat_key(player) for player in ("u:1", "u:2", "g:1", "e:1")}
    assert all(KEY.fullmatch(k) for k in keys.values())
    assert len(set(keys.values())) == 4  # a user, a guest and an entry of the same id differ
    assert privacy.seat_key("u:1") == keys["u:1"]
    code = privacy.pseudonym_code("u:1")
    assert keys["u:1"] == f"p-{code}" and privacy.public_pseudonym("u:1").endswith(code)


def test_a_seat_key_taken_at_the_table_gets_a_number() -> None:
    key = privacy.seat_key("u:1")
    assert privacy.seat_key("u:1", {key}) == f"{key}-2"
    assert privacy.seat_key("u:1", {key, f"{key}-2"}) == f"{key}-3"


@pytest.mark.django_db
def test_a_club_evenings_tables_key_their_seats_without_the_names() -> None:
    w = build_club_world()
    guests = [Guest.objects.create(club=w.club, name=n) for n in NAMES]
    check_in(w.evening, *guests)
    rounds.round_plan(user=w.users["owner"], evening_id=w.evening.pk, rounds_total=1, seed=1)
    rounds.round_start(user=w.users["owner"], evening_id=w.evening.pk, number=1)
    keys = dict(Seat.objects.values_list("guest_id", "key"))
    assert keys == {g.pk: privacy.seat_key(f"g:{g.pk}") for g in guests}
    for name in NAMES:
        assert not any(part in key for key in keys.values() for part in slug_of(name).split("-"))


@pytest.mark.django_db
def test_a_tournament_rounds_tables_key_their_seats_without_the_names() -> None:
    users = [UserFactory.create(display_name=n) for n in NAMES[:2]]
    entries = [
        Entry(pk=10, user=users[0], name=NAMES[0]),
        Entry(pk=11, user=users[1], name=NAMES[1]),
        Entry(pk=12, name=NAMES[2]),  # a substitute without an account
    ]
    assert seat_keys(entries) == [
        privacy.seat_key(f"u:{users[0].pk}"),
        privacy.seat_key(f"u:{users[1].pk}"),
        privacy.seat_key("e:12"),
    ]


@pytest.mark.django_db
def test_a_seated_tournament_round_keys_its_seats_by_pseudonym_code(
    eager_tasks: None, django_capture_on_commit_callbacks: Any
) -> None:
    f = make_field(6)
    with django_capture_on_commit_callbacks(execute=True):
        f.post("rounds/", {}, status=202)  # the worker seats the round once this commits
    seats = RoundSeat.objects.select_related("entry")
    assert seats.count() == 6
    for s in seats:
        assert s.seat == privacy.seat_key(f"u:{s.entry.user_id}")
        assert Seat.objects.get(table=s.round_table.table, user=s.entry.user).key == s.seat
