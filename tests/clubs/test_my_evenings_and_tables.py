"""The caller's own view: coming evenings of their clubs with their answer, the tables they
sit at now with the evening's round and table number, and the API root."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from clubs import privacy
from clubs.models import Evening
from clubs.services import evenings, rounds
from tests.clubs.evening_setup import members_checked_in
from tests.clubs.world import build_club_world

pytestmark = pytest.mark.django_db


def test_my_evenings_are_my_clubs_coming_ones_with_my_answer() -> None:
    w = build_club_world()
    past = timezone.now() - dt.timedelta(days=2)
    Evening.objects.create(club=w.club, title="Vorbei", starts_at=past, ends_at=past)
    evenings.attendance_answer(user=w.users["member"], evening_id=w.evening.pk, answer="maybe")
    body = w.client("member").get("/api/v1/me/evenings/").json()
    assert [e["title"] for e in body["results"]] == ["Clubabend"]
    assert body["results"][0]["my_answer"] == "maybe"
    assert body["results"][0]["starts_at"].endswith(("+01:00", "+02:00"))  # Vienna
    assert w.client("outsider").get("/api/v1/me/evenings/").json()["count"] == 0


def test_my_tables_say_which_round_table_and_seat() -> None:
    w = build_club_world()
    members_checked_in(w)
    rounds.round_plan(user=w.users["owner"], evening_id=w.evening.pk, rounds_total=1)
    rounds.round_start(user=w.users["owner"], evening_id=w.evening.pk, number=1)
    body = w.client("scorer").get("/api/v1/me/tables/").json()
    assert body["count"] == 1
    mine = body["results"][0]
    assert (mine["evening"], mine["round"], mine["table_number"]) == (w.evening.pk, 1, 1)
    assert mine["seat"] == privacy.seat_key(f"u:{w.users['scorer'].pk}")
    assert len(mine["players"]) == 4
    assert w.client("outsider").get("/api/v1/me/tables/").json()["count"] == 0


def test_the_api_root_lists_the_resources_with_absolute_urls() -> None:
    body = build_club_world().client("anonymous").get("/api/v1/").json()
    assert body["resources"]["clubs"] == "http://testserver/api/v1/clubs/"
    assert body["resources"]["tables"] == "http://testserver/api/v1/tables/"
    assert body["docs"]["schema"] == "http://testserver/api/v1/schema/"


def test_every_resource_the_root_names_exists() -> None:
    w = build_club_world()
    client = w.client("member")
    for name, url in client.get("/api/v1/").json()["resources"].items():
        answer = client.get(url) if name not in ("token", "register") else client.options(url)
        assert answer.status_code == 200, (name, url, answer.status_code)
