"""The clubs admin shows times in the club's timezone and an evening's settlement as the
payments people make, not as stored JSON."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from clubs.models import Evening
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

STARTS = dt.datetime(2026, 1, 10, 10, 0, tzinfo=dt.UTC)  # 19:00 in Tokyo
SETTLEMENT = {
    "final": True,
    "players": [
        {"player": "u:1", "name": "Anna", "net": 340},
        {"player": "u:2", "name": "Carl", "net": -300},
        {"player": "u:3", "name": "Berta", "net": -40},
    ],
    "pot_net": 0,
    "payments": [
        {
            "from": "u:2",
            "from_name": "Carl",
            "to": "u:1",
            "to_name": "Anna",
            "amount": 300,
            "sentence": "Carl pays Anna 3.00 €",
        },
        {
            "from": "u:3",
            "from_name": "Berta",
            "to": "u:1",
            "to_name": "Anna",
            "amount": 40,
            "sentence": "Berta pays Anna 0.40 €",
        },
    ],
    "payments_proven": True,
}


def staff() -> Client:
    client = Client()
    client.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))
    return client


def evening(**values: object) -> Evening:
    club = ClubFactory.create(timezone="Asia/Tokyo")
    return Evening.objects.create(
        club=club,
        title="Friday",
        starts_at=STARTS,
        ends_at=STARTS + dt.timedelta(hours=4),
        **values,
    )


def test_an_evening_shows_its_times_in_the_clubs_timezone() -> None:
    e = evening()
    client = staff()
    listing = client.get("/admin/clubs/evening/").content.decode()
    assert "2026-01-10 19:00 JST" in listing
    page = client.get(f"/admin/clubs/evening/{e.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="19:00:00"' in html and 'value="23:00:00"' in html
    assert "times in Asia/Tokyo" in html
    club = client.get(f"/admin/clubs/club/{e.club_id}/change/").content.decode()
    assert "Jan. 10, 2026, 7 p.m." in club  # the evenings inline, in the club's zone


def test_saving_an_evening_reads_the_times_in_the_clubs_timezone() -> None:
    e = evening()
    client = staff()
    answer = client.post(
        f"/admin/clubs/evening/{e.pk}/change/",
        {
            "club": e.club_id,
            "title": "Friday",
            "starts_at_0": "2026-01-10",
            "starts_at_1": "20:00:00",
            "ends_at_0": "2026-01-10",
            "ends_at_1": "23:30:00",
            "seating_seed": 0,
            "place": "",
            "notes": "",
            "rules": "null",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    e.refresh_from_db()
    assert e.starts_at == dt.datetime(2026, 1, 10, 11, 0, tzinfo=dt.UTC)


def test_a_closed_evenings_settlement_shows_as_payments() -> None:
    e = evening(status=Evening.Status.CLOSED, settlement=SETTLEMENT)
    html = staff().get(f"/admin/clubs/evening/{e.pk}/change/").content.decode()
    assert "Carl pays Anna 3.00 €" in html and "Berta pays Anna 0.40 €" in html
    assert "-3.00" in html  # Carl's net
    assert "payments_proven" not in html and "from_name" not in html
    assert 'name="settlement"' not in html


def test_an_open_evening_says_it_is_not_settled() -> None:
    e = evening()
    html = staff().get(f"/admin/clubs/evening/{e.pk}/change/").content.decode()
    assert "Not settled yet" in html
