"""Slugs from names (config/slugs.py) write German as Germans do without umlauts, and every
slug made from a name goes through it: a club's and a tournament's address, the seat keys of
a club evening's tables and of a tournament round's tables."""

from __future__ import annotations

import unicodedata

import pytest

from clubs.models import Guest
from clubs.services import people, rounds
from config.slugs import slug_of
from games.models import Seat
from tests.clubs.evening_setup import check_in
from tests.clubs.world import build_club_world
from tests.factories import UserFactory
from tournaments.models import Entry
from tournaments.services import tournaments
from tournaments.services.rounds import seat_keys

RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100}


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Großes Straßen-Turnier", "grosses-strassen-turnier"),
        ("Jürgen Öhlschläger", "juergen-oehlschlaeger"),
        ("ÄRGER ÜBER ÖSTERREICH", "aerger-ueber-oesterreich"),
        ("GROẞE RUNDE", "grosse-runde"),
        (unicodedata.normalize("NFD", "Müller"), "mueller"),  # u and a combining diaeresis
        ("Café Élysée", "cafe-elysee"),  # other accents fall away as before
        ("Đorđe Łukasz Søren Æbleskiver", "djordje-lukasz-soren-aebleskiver"),
        ("!!!", ""),
    ],
)
def test_a_slug_writes_umlauts_and_sharp_s_out(name: str, slug: str) -> None:
    assert slug_of(name) == slug


@pytest.mark.django_db
def test_clubs_and_tournaments_take_their_address_from_the_name_in_german() -> None:
    owner = UserFactory.create(username="owner")
    club = people.club_create(user=owner, name="Kartenrunde Gößnitz")
    assert club.slug == "kartenrunde-goessnitz"
    tournament = tournaments.tournament_create(
        user=owner, name="Großes Straßen-Turnier", rules=RULES
    )
    assert tournament.slug == "grosses-strassen-turnier"


@pytest.mark.django_db
def test_a_club_evenings_tables_key_their_seats_by_the_names_in_german() -> None:
    w = build_club_world()
    names = ("Jürgen Öhlschläger", "Grete Weiß", "Björn Müller")
    check_in(w.evening, *(Guest.objects.create(club=w.club, name=n) for n in names))
    rounds.round_plan(user=w.users["owner"], evening_id=w.evening.pk, rounds_total=1, seed=1)
    rounds.round_start(user=w.users["owner"], evening_id=w.evening.pk, number=1)
    keys = Seat.objects.all().values_list("key", flat=True)
    assert sorted(keys) == ["bjoern-mueller", "grete-weiss", "juergen-oehlschlaeger"]


def test_a_tournament_rounds_tables_key_their_seats_by_the_names_in_german() -> None:
    entries = [Entry(pk=i, name=n) for i, n in enumerate(("Jürgen Öhlschläger", "Grete Weiß"))]
    assert seat_keys(entries) == ["juergen-oehlschlaeger", "grete-weiss"]
