"""Slugs from names (config/slugs.py) write German as Germans do without umlauts, and every
slug made from a name goes through it: a club's and a tournament's address. (Seat keys are
made from no name: tests/test_seat_keys.py.)"""

from __future__ import annotations

import unicodedata

import pytest

from clubs.services import people
from config.slugs import slug_of
from tests.factories import UserFactory
from tournaments.services import tournaments

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
