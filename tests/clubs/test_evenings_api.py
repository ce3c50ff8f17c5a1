"""Evenings API: evenings and their times, series, answers and the waitlist, check-in,
reminders (``docs/clubs-evenings.md``). Calendars are in ``test_calendar.py``; the
concurrent sign-ups and the services' edge cases in ``test_evenings_services.py``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from clubs import tasks
from clubs.models import Attendance, Evening, EveningSeries, Guest, Membership
from clubs.services import evenings as services
from tests.clubs.world import ClubWorld, build_club_world
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

VIENNA = ZoneInfo("Europe/Vienna")
UTC = dt.UTC


@pytest.fixture
def world() -> ClubWorld:
    return build_club_world()


@pytest.fixture
def mails(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> Callable[[Callable[[], Any]], Any]:
    """Run an action and the e-mails it sends on commit."""

    def run(action: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return action()

    return run


def url(world: ClubWorld, rest: str = "") -> str:
    return f"/api/v1/clubs/{world.club.pk}/{rest}"


def evening_url(world: ClubWorld, evening: Evening | None = None, rest: str = "") -> str:
    return url(world, f"evenings/{(evening or world.evening).pk}/{rest}")


def an_evening(world: ClubWorld, *, capacity: int | None = None, days: int = 5) -> Evening:
    starts = timezone.now() + dt.timedelta(days=days)
    return Evening.objects.create(
        club=world.club,
        title="Abend",
        starts_at=starts,
        ends_at=starts + dt.timedelta(hours=4),
        capacity=capacity,
    )


def members(world: ClubWorld, n: int, prefix: str = "m") -> list[Any]:
    users = [UserFactory.create(username=f"{prefix}{i}") for i in range(n)]
    for user in users:
        Membership.objects.create(club=world.club, user=user)
    return users


def answer(world: ClubWorld, user: Any, evening: Evening, value: str) -> Any:
    client = world.client("anonymous")
    client.force_authenticate(user)
    return client.put(evening_url(world, evening, "attendance/"), {"answer": value}, format="json")


def next_autumn_change(after: dt.datetime) -> dt.date:
    """The last Sunday of October (Vienna leaves summer time) at least three weeks after
    ``after``."""
    year = after.year
    while True:
        day = dt.date(year, 10, 31)
        day -= dt.timedelta(days=(day.weekday() + 1) % 7)
        if day > (after + dt.timedelta(weeks=3)).date():
            return day
        year += 1


# ---------------------------------------------------------------------------------------------
# evenings and their times


def test_it_reads_a_naive_time_in_the_clubs_timezone_and_answers_with_its_offset(
    world: ClubWorld,
) -> None:
    response = world.client("admin").post(
        url(world, "evenings/"),
        {
            "title": "Advent",
            "starts_at": "2026-12-01T19:00",
            "ends_at": "2026-12-01T23:00",
            "place": "Café Sperl",
            "capacity": 12,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["starts_at"] == "2026-12-01T19:00:00+01:00"
    assert body["ends_at"] == "2026-12-01T23:00:00+01:00"
    assert body["timezone"] == "Europe/Vienna"
    assert body["series"] is None and body["status"] == "scheduled"
    assert body["rules"] == world.club.default_rules
    assert body["counts"] == {"yes": 0, "maybe": 0, "no": 0, "waitlisted": 0, "checked_in": 0}
    assert body["my_answer"] is None and body["my_waitlist_position"] is None
    stored = Evening.objects.get(pk=body["id"])
    assert stored.starts_at == dt.datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def test_it_answers_summer_evenings_with_the_summer_offset(world: ClubWorld) -> None:
    response = world.client("owner").post(
        url(world, "evenings/"),
        {"title": "Sommer", "starts_at": "2027-06-01T19:00", "ends_at": "2027-06-01T23:30"},
        format="json",
    )
    body = response.json()
    assert body["starts_at"] == "2027-06-01T19:00:00+02:00"
    assert Evening.objects.get(pk=body["id"]).starts_at == dt.datetime(2027, 6, 1, 17, tzinfo=UTC)


def test_it_takes_a_time_with_an_offset_as_that_instant(world: ClubWorld) -> None:
    response = world.client("owner").post(
        url(world, "evenings/"),
        {
            "title": "Gäste aus Kiew",
            "starts_at": "2026-12-01T20:00:00+02:00",
            "ends_at": "2026-12-01T22:00:00Z",
        },
        format="json",
    )
    body = response.json()
    assert body["starts_at"] == "2026-12-01T19:00:00+01:00"
    assert body["ends_at"] == "2026-12-01T23:00:00+01:00"


def test_it_refuses_an_evening_that_ends_before_it_starts(world: ClubWorld) -> None:
    response = world.client("owner").post(
        url(world, "evenings/"),
        {"title": "Rückwärts", "starts_at": "2026-12-01T19:00", "ends_at": "2026-12-01T18:00"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["fields"].keys() == {"ends_at"}


def test_it_refuses_a_local_time_the_clocks_skip(world: ClubWorld) -> None:
    response = world.client("owner").post(
        url(world, "evenings/"),
        {"title": "Zeitloch", "starts_at": "2027-03-28T02:30", "ends_at": "2027-03-28T05:00"},
        format="json",
    )
    assert response.status_code == 400
    assert "starts_at" in response.json()["fields"]


def test_it_refuses_a_time_that_is_not_iso_8601(world: ClubWorld) -> None:
    response = world.client("owner").post(
        url(world, "evenings/"),
        {"title": "?", "starts_at": "next tuesday", "ends_at": "2026-12-01T18:00"},
        format="json",
    )
    assert response.status_code == 400
    assert "starts_at" in response.json()["fields"]


def test_it_checks_an_evenings_own_rules_with_the_engine(world: ClubWorld) -> None:
    client = world.client("owner")
    base = {"title": "Hohe Stakes", "starts_at": "2026-12-01T19:00", "ends_at": "2026-12-01T23:00"}
    bad = client.post(
        url(world, "evenings/"),
        {**base, "rules": {"variant": "wien", "dealer_contribution": 10, "pot_cap": 15}},
        format="json",
    )
    assert bad.status_code == 400
    assert any(key.startswith("rules") for key in bad.json()["fields"])
    good = client.post(
        url(world, "evenings/"),
        {**base, "rules": {"variant": "wien", "dealer_contribution": 20, "pot_cap": None}},
        format="json",
    )
    assert good.status_code == 201
    assert good.json()["rules"]["dealer_contribution"] == 20
    assert good.json()["rules"]["pot_at_close"] == "carry"  # spelled out


def test_it_lists_evenings_newest_first_and_filters_them(world: ClubWorld) -> None:
    past = an_evening(world, days=-10)
    later = an_evening(world, days=20)
    services.evening_cancel(user=world.users["owner"], evening_id=later.pk)
    client = world.client("member")

    def ids(query: str = "") -> list[int]:
        response = client.get(url(world, f"evenings/{query}"))
        assert response.status_code == 200, response.json()
        return [e["id"] for e in response.json()["results"]]

    assert ids() == [later.pk, world.evening.pk, past.pk]
    assert ids("?upcoming=true") == [world.evening.pk, later.pk]
    assert ids("?upcoming=false") == [past.pk]
    assert ids("?status=cancelled") == [later.pk]
    today = timezone.localdate(timezone=VIENNA)
    assert ids(f"?from={today.isoformat()}") == [later.pk, world.evening.pk]
    assert ids(f"?to={today.isoformat()}") == [past.pk]
    week = (today + dt.timedelta(days=7)).isoformat()
    assert ids(f"?from={today.isoformat()}&to={week}") == [world.evening.pk]
    moment = (timezone.now() + dt.timedelta(days=10)).astimezone(VIENNA).isoformat()
    assert ids(f"?to={moment.replace('+', '%2B')}") == [world.evening.pk, past.pk]
    assert client.get(url(world, "evenings/?from=someday")).status_code == 400


def test_it_shows_the_counts_and_my_answer(world: ClubWorld) -> None:
    evening = an_evening(world, capacity=1)
    answer(world, world.users["admin"], evening, "yes")
    answer(world, world.users["member"], evening, "yes")
    answer(world, world.users["scorer"], evening, "maybe")
    answer(world, world.users["owner"], evening, "no")
    body = world.client("member").get(evening_url(world, evening)).json()
    assert body["counts"] == {"yes": 1, "maybe": 1, "no": 1, "waitlisted": 1, "checked_in": 0}
    assert body["my_answer"] == "yes"
    assert body["my_waitlist_position"] == 1
    mine = world.client("admin").get(evening_url(world, evening)).json()
    assert (mine["my_answer"], mine["my_waitlist_position"]) == ("yes", None)


def test_it_shows_a_public_clubs_evenings_to_anyone() -> None:
    world = build_club_world(public=True)
    body = world.client("anonymous").get(evening_url(world)).json()
    assert body["id"] == world.evening.pk
    assert body["my_answer"] is None


def test_it_says_not_found_for_another_clubs_evening(world: ClubWorld) -> None:
    other = build_other_club_evening()
    response = world.client("owner").get(url(world, f"evenings/{other.pk}/"))
    assert response.status_code == 404


def build_other_club_evening() -> Evening:
    from clubs.models import Club

    club = Club.objects.create(name="Andere Runde", is_public=True)
    now = timezone.now()
    return Evening.objects.create(
        club=club, title="Fremd", starts_at=now, ends_at=now + dt.timedelta(hours=2)
    )


def test_it_edits_only_the_one_evening_of_a_series(world: ClubWorld) -> None:
    series = services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Dienstag",
        rrule="FREQ=WEEKLY;BYDAY=TU",
        first_start=timezone.now() + dt.timedelta(days=1),
        place="Café Sperl",
    )
    first, second, *_ = Evening.objects.filter(series=series).order_by("starts_at")
    response = world.client("admin").patch(
        evening_url(world, first), {"place": "Café Hawelka", "capacity": 6}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["place"], response.json()["capacity"]) == ("Café Hawelka", 6)
    assert response.json()["series"] == series.pk
    second.refresh_from_db()
    assert (second.place, second.capacity) == ("Café Sperl", None)


def test_it_moves_an_evening_and_rearms_its_reminder(world: ClubWorld) -> None:
    world.evening.reminder_sent_at = timezone.now()
    world.evening.save()
    local = world.evening.starts_at.astimezone(VIENNA).replace(tzinfo=None)
    later = local + dt.timedelta(hours=1)
    response = world.client("owner").patch(
        evening_url(world), {"starts_at": later.isoformat()}, format="json"
    )
    assert response.status_code == 200, response.json()
    world.evening.refresh_from_db()
    assert world.evening.starts_at.astimezone(VIENNA).replace(tzinfo=None) == later
    assert world.evening.reminder_sent_at is None


def test_it_refuses_an_edit_that_ends_the_evening_before_it_starts(world: ClubWorld) -> None:
    response = world.client("owner").patch(
        evening_url(world), {"ends_at": "2000-01-01T00:00"}, format="json"
    )
    assert response.status_code == 400
    assert "ends_at" in response.json()["fields"]


def test_it_cancels_only_the_one_evening_of_a_series(
    world: ClubWorld, mails: Callable[[Callable[[], Any]], Any]
) -> None:
    series = services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Dienstag",
        rrule="FREQ=WEEKLY;BYDAY=TU",
        first_start=timezone.now() + dt.timedelta(days=1),
    )
    first, second, *_ = Evening.objects.filter(series=series).order_by("starts_at")
    answer(world, world.users["member"], first, "yes")
    answer(world, world.users["scorer"], first, "no")
    response = mails(lambda: world.client("owner").post(evening_url(world, first, "cancel/")))
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    second.refresh_from_db()
    assert second.status == "scheduled"
    assert [m.to for m in mail.outbox] == [[world.users["member"].email]]
    assert "cancelled" in mail.outbox[0].body


@pytest.mark.parametrize("state", ["cancelled", "closed"])
def test_it_refuses_to_change_an_evening_that_is_over(world: ClubWorld, state: str) -> None:
    world.evening.status = state
    world.evening.save()
    client = world.client("owner")
    patched = client.patch(evening_url(world), {"title": "Neu"}, format="json")
    assert patched.status_code == 409
    assert patched.json()["code"] == f"evening_{state}"
    assert client.post(evening_url(world, rest="cancel/")).status_code == 409
    answered = world.client("member").put(
        evening_url(world, rest="attendance/"), {"answer": "yes"}, format="json"
    )
    assert answered.status_code == 409
    assert world.client("member").post(evening_url(world, rest="check-ins/")).status_code == 409


def test_it_takes_only_json_bodies(world: ClubWorld) -> None:
    response = world.client("owner").post(
        url(world, "evenings/"), {"title": "Form"}, format="multipart"
    )
    assert response.status_code == 415


# ---------------------------------------------------------------------------------------------
# series


def test_it_keeps_a_weekly_series_at_local_19_00_across_the_end_of_summer_time(
    world: ClubWorld, settings: Settings
) -> None:
    now = timezone.now()
    change = next_autumn_change(now)
    first = dt.datetime.combine(change - dt.timedelta(days=19), dt.time(19))
    while first.weekday() != 1:  # Tuesday
        first += dt.timedelta(days=1)
    settings.EVENING_SERIES_WEEKS_AHEAD = (change - now.date()).days // 7 + 3
    response = world.client("admin").post(
        url(world, "evening-series/"),
        {
            "title": "Dienstagsrunde",
            "rrule": "FREQ=WEEKLY;BYDAY=TU",
            "first_start": first.isoformat(),
            "duration_minutes": 240,
            "place": "Café Sperl",
            "capacity": 8,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    series = response.json()
    assert series["first_start"].endswith("T19:00:00+02:00")
    assert series["upcoming_count"] >= 4
    evenings = world.client("member").get(url(world, "evenings/?upcoming=true")).json()["results"]
    generated = [e for e in evenings if e["series"] == series["id"]]
    assert len(generated) == series["upcoming_count"]
    assert {e["starts_at"][11:] for e in generated} == {"19:00:00+02:00", "19:00:00+01:00"}
    for e in generated:
        starts = dt.datetime.fromisoformat(e["starts_at"])
        assert starts.astimezone(VIENNA).hour == 19
        assert starts.astimezone(VIENNA).weekday() == 1
        assert dt.datetime.fromisoformat(e["ends_at"]) - starts == dt.timedelta(hours=4)
        assert (e["place"], e["capacity"], e["title"]) == ("Café Sperl", 8, "Dienstagsrunde")
    utc_hours = {dt.datetime.fromisoformat(e["starts_at"]).astimezone(UTC).hour for e in generated}
    assert utc_hours == {17, 18}


def test_it_extends_series_in_the_beat_task_without_duplicates(
    world: ClubWorld, settings: Settings, eager_tasks: None
) -> None:
    settings.EVENING_SERIES_WEEKS_AHEAD = 4
    series = services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Freitag",
        rrule="FREQ=WEEKLY;BYDAY=FR",
        first_start=timezone.now() - dt.timedelta(days=30),
    )
    before = list(Evening.objects.filter(series=series).order_by("starts_at"))
    assert 3 <= len(before) <= 5
    # edit one, cancel another: neither comes back
    before[0].starts_at += dt.timedelta(hours=1)
    before[0].ends_at += dt.timedelta(hours=1)
    before[0].save()
    services.evening_cancel(user=world.users["owner"], evening_id=before[1].pk)
    assert tasks.extend_evening_series() == 0
    settings.EVENING_SERIES_WEEKS_AHEAD = 8
    created = tasks.extend_evening_series.delay().get()
    assert 3 <= created <= 5
    assert tasks.extend_evening_series() == 0
    assert tasks.extend_evening_series(series.pk) == 0
    starts = list(Evening.objects.filter(series=series).values_list("starts_at", flat=True))
    assert len(starts) == len(set(starts)) == len(before) + created


def test_it_changes_a_series_and_its_future_unedited_evenings(world: ClubWorld) -> None:
    series = services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Mittwoch",
        rrule="FREQ=WEEKLY;BYDAY=WE",
        first_start=timezone.now() - dt.timedelta(days=14),
        place="Café Sperl",
        capacity=2,
    )
    first, edited, *rest = Evening.objects.filter(series=series).order_by("starts_at")
    edited.place = "Bei Anna"
    edited.save()
    for user in members(world, 3):
        answer(world, user, first, "yes")
    response = world.client("admin").patch(
        url(world, f"evening-series/{series.pk}/"),
        {"place": "Café Hawelka", "capacity": 3, "rrule": "FREQ=WEEKLY;BYDAY=WE"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["place"], response.json()["capacity"]) == ("Café Hawelka", 3)
    first.refresh_from_db()
    edited.refresh_from_db()
    assert (first.place, first.capacity) == ("Café Hawelka", 3)
    assert (edited.place, edited.capacity) == ("Bei Anna", 3)
    assert all(
        e.place == "Café Hawelka" for e in Evening.objects.filter(pk__in=[e.pk for e in rest])
    )
    # the third place went to the waiting yes
    assert not Attendance.objects.filter(evening=first, waitlisted=True).exists()


def test_it_refuses_to_change_a_series_schedule(world: ClubWorld) -> None:
    series = services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Mittwoch",
        rrule="FREQ=WEEKLY;BYDAY=WE",
        first_start=timezone.now(),
    )
    for change in ({"rrule": "FREQ=WEEKLY;BYDAY=TH"}, {"duration_minutes": 60}):
        response = world.client("owner").patch(
            url(world, f"evening-series/{series.pk}/"), change, format="json"
        )
        assert response.status_code == 409
        assert response.json()["code"] == "series_schedule_fixed"


@pytest.mark.parametrize(
    "rrule",
    [
        "FREQ=HOURLY",
        "FREQ=MINUTELY;INTERVAL=30",
        "BYDAY=TU",
        "FREQ=WEEKLY;BYDAY=XX",
        "FREQ=DAILY;BYHOUR=10,20",
        "FREQ=WEEKLY;COUNT=3;UNTIL=20271231",
        "DTSTART:20270101T190000\nRRULE:FREQ=WEEKLY",
        "weekly on tuesdays",
    ],
)
def test_it_refuses_rules_that_are_invalid_or_too_frequent(world: ClubWorld, rrule: str) -> None:
    response = world.client("owner").post(
        url(world, "evening-series/"),
        {"title": "Zu oft", "rrule": rrule, "first_start": "2027-01-05T19:00"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["fields"].keys() == {"rrule"}
    assert not EveningSeries.objects.exists()


def test_it_ends_a_series_cancelling_its_future_evenings_and_keeping_the_past(
    world: ClubWorld,
) -> None:
    series = services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Montag",
        rrule="FREQ=WEEKLY;BYDAY=MO",
        first_start=timezone.now() + dt.timedelta(days=1),
    )
    future = list(Evening.objects.filter(series=series))
    now = timezone.now()
    past = Evening.objects.create(
        club=world.club,
        series=series,
        title="Montag",
        starts_at=now - dt.timedelta(days=7),
        ends_at=now - dt.timedelta(days=7) + dt.timedelta(hours=4),
        status="closed",
    )
    response = world.client("owner").delete(url(world, f"evening-series/{series.pk}/"))
    assert response.status_code == 204
    assert not EveningSeries.objects.filter(pk=series.pk).exists()
    past.refresh_from_db()
    assert (past.status, past.series) == ("closed", None)
    statuses = set(Evening.objects.filter(pk__in=[e.pk for e in future]).values_list("status"))
    assert statuses == {("cancelled",)}
    listed = world.client("member").get(url(world, "evening-series/")).json()
    assert listed["count"] == 0


# ---------------------------------------------------------------------------------------------
# answers and the waitlist


# the e-mail to whom moved up goes through the outbox: its task runs in this process
@pytest.mark.usefixtures("eager_tasks")
def test_it_waitlists_yes_answers_past_the_capacity_and_moves_the_first_up(
    world: ClubWorld, mails: Callable[[Callable[[], Any]], Any]
) -> None:
    evening = an_evening(world, capacity=2)
    a, b, c, d = members(world, 4)
    assert answer(world, a, evening, "yes").json()["waitlisted"] is False
    assert answer(world, b, evening, "yes").json()["waitlisted"] is False
    third = answer(world, c, evening, "yes").json()
    assert (third["waitlisted"], third["waitlist_position"]) == (True, 1)
    assert answer(world, d, evening, "yes").json()["waitlist_position"] == 2
    # answering yes again keeps the place in line
    assert answer(world, d, evening, "yes").json()["waitlist_position"] == 2

    freed = mails(lambda: answer(world, a, evening, "no"))
    assert freed.status_code == 200
    assert (freed.json()["answer"], freed.json()["waitlisted"]) == ("no", False)
    moved = Attendance.objects.get(evening=evening, user=c)
    assert not moved.waitlisted
    assert [m.to for m in mail.outbox] == [[c.email]]
    assert answer(world, d, evening, "yes").json()["waitlist_position"] == 1

    # a yes after no joins the end of the line
    assert answer(world, a, evening, "yes").json()["waitlist_position"] == 2


def test_it_frees_a_place_when_a_confirmed_yes_becomes_maybe(world: ClubWorld) -> None:
    evening = an_evening(world, capacity=1)
    a, b = members(world, 2)
    answer(world, a, evening, "yes")
    answer(world, b, evening, "yes")
    assert answer(world, a, evening, "maybe").json()["waitlisted"] is False
    assert not Attendance.objects.get(evening=evening, user=b).waitlisted
    # a waiting yes turning to no frees nothing and moves nobody
    c, d = members(world, 1, prefix="late") + [world.users["member"]]
    answer(world, c, evening, "yes")
    answer(world, d, evening, "yes")
    answer(world, c, evening, "no")
    assert Attendance.objects.get(evening=evening, user=d).waitlisted


def test_it_moves_waiting_answers_up_when_the_capacity_grows(world: ClubWorld) -> None:
    evening = an_evening(world, capacity=1)
    a, b, c = members(world, 3)
    for user in (a, b, c):
        answer(world, user, evening, "yes")
    world.client("owner").patch(evening_url(world, evening), {"capacity": None}, format="json")
    assert not Attendance.objects.filter(evening=evening, waitlisted=True).exists()


def test_it_refuses_an_answer_that_is_not_yes_no_or_maybe(world: ClubWorld) -> None:
    response = answer(world, world.users["member"], world.evening, "perhaps")
    assert response.status_code == 400
    assert "answer" in response.json()["fields"]


def test_it_lists_an_evenings_attendances_to_members_with_filters(world: ClubWorld) -> None:
    evening = an_evening(world, capacity=1)
    answer(world, world.users["member"], evening, "yes")
    answer(world, world.users["scorer"], evening, "yes")
    answer(world, world.users["admin"], evening, "no")
    services.checkin_create(user=world.users["member"], evening_id=evening.pk)
    client = world.client("member")

    def names(query: str = "") -> list[str]:
        response = client.get(evening_url(world, evening, f"attendances/{query}"))
        assert response.status_code == 200, response.json()
        return [a["user"]["username"] for a in response.json()["results"]]

    assert names() == ["member", "scorer", "admin"]
    assert names("?answer=yes") == ["member", "scorer"]
    assert names("?waitlisted=true") == ["scorer"]
    assert names("?checked_in=true") == ["member"]
    assert names("?checked_in=false") == ["scorer", "admin"]
    item = client.get(evening_url(world, evening, "attendances/?waitlisted=true")).json()
    first = item["results"][0]
    assert first["waitlist_position"] == 1
    assert first["user"]["display_name"] == "Scorer"
    assert first["guest"] is None and first["checked_in_at"] is None


# ---------------------------------------------------------------------------------------------
# check-in


def test_it_checks_a_member_in_by_themselves(world: ClubWorld) -> None:
    client = world.client("member")
    response = client.post(evening_url(world, rest="check-ins/"))
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["user"]["id"] == world.users["member"].pk
    assert (body["answer"], body["waitlisted"]) == ("yes", False)
    assert body["checked_in_at"].endswith(("+01:00", "+02:00"))
    again = client.post(
        evening_url(world, rest="check-ins/"), {"user_id": world.users["member"].pk}, format="json"
    )
    assert again.status_code == 200
    assert again.json()["checked_in_at"] == body["checked_in_at"]


def test_an_attendance_reads_back_the_ids_a_check_in_takes(world: ClubWorld) -> None:
    """A scorer checks in whoever answered, with the ``user_id`` or ``guest_id`` the
    attendance reads back; a guest's too."""
    answer(world, world.users["member"], world.evening, "yes")
    client = world.client("scorer")
    listed = client.get(evening_url(world, rest="attendances/")).json()["results"]
    mine = next(a for a in listed if a["user"] and a["user"]["id"] == world.users["member"].pk)
    assert mine["user_id"] == world.users["member"].pk and mine["guest_id"] is None
    checked = client.post(
        evening_url(world, rest="check-ins/"), {"user_id": mine["user_id"]}, format="json"
    )
    assert checked.status_code == 201 and checked.json()["id"] == mine["id"]
    guest = client.post(
        evening_url(world, rest="check-ins/"), {"guest_name": "Onkel Fritz"}, format="json"
    ).json()
    assert guest["guest_id"] == guest["guest"]["id"] and guest["user_id"] is None
    again = client.post(
        evening_url(world, rest="check-ins/"), {"guest_id": guest["guest_id"]}, format="json"
    )
    assert again.status_code == 200 and again.json()["id"] == guest["id"]


def test_it_lets_only_scorers_and_managers_check_in_others(world: ClubWorld) -> None:
    other = {"user_id": world.users["admin"].pk}
    refused = world.client("member").post(
        evening_url(world, rest="check-ins/"), other, format="json"
    )
    assert refused.status_code == 403
    by_scorer = world.client("scorer").post(
        evening_url(world, rest="check-ins/"), other, format="json"
    )
    assert by_scorer.status_code == 201


def test_it_checks_in_past_the_capacity_whoever_is_there(world: ClubWorld) -> None:
    evening = an_evening(world, capacity=1)
    answer(world, world.users["admin"], evening, "yes")
    answer(world, world.users["member"], evening, "yes")  # waiting
    response = world.client("owner").post(
        evening_url(world, evening, "check-ins/"),
        {"user_id": world.users["member"].pk},
        format="json",
    )
    assert response.status_code == 201
    assert (response.json()["waitlisted"], response.json()["waitlist_position"]) == (False, None)
    walk_in = world.client("owner").post(
        evening_url(world, evening, "check-ins/"),
        {"user_id": world.users["scorer"].pk},
        format="json",
    )
    assert walk_in.json()["answer"] == "yes" and walk_in.json()["waitlisted"] is False
    counts = world.client("member").get(evening_url(world, evening)).json()["counts"]
    assert (counts["yes"], counts["checked_in"]) == (3, 2)


def test_it_checks_in_a_guest_by_name_and_by_id(world: ClubWorld) -> None:
    client = world.client("admin")
    named = client.post(
        evening_url(world, rest="check-ins/"), {"guest_name": "Onkel Fritz"}, format="json"
    )
    assert named.status_code == 201, named.json()
    guest = Guest.objects.get(club=world.club, name="Onkel Fritz")
    assert named.json()["guest"] == {"id": guest.pk, "name": "Onkel Fritz"}
    assert named.json()["user"] is None
    evening = an_evening(world)
    by_id = client.post(
        evening_url(world, evening, "check-ins/"), {"guest_id": guest.pk}, format="json"
    )
    assert by_id.status_code == 201
    assert by_id.json()["guest"]["id"] == guest.pk


def test_it_refuses_to_check_in_someone_who_is_not_of_the_club(world: ClubWorld) -> None:
    client = world.client("owner")
    outsider = client.post(
        evening_url(world, rest="check-ins/"),
        {"user_id": world.users["outsider"].pk},
        format="json",
    )
    assert outsider.status_code == 400
    assert "user_id" in outsider.json()["fields"]
    two = client.post(
        evening_url(world, rest="check-ins/"),
        {"user_id": world.users["member"].pk, "guest_name": "X"},
        format="json",
    )
    assert two.status_code == 400


def test_it_undoes_a_check_in_and_marks_an_early_leaver(world: ClubWorld) -> None:
    checked = world.client("member").post(evening_url(world, rest="check-ins/")).json()
    path = evening_url(world, rest=f"check-ins/{checked['id']}/")
    assert world.client("scorer").post(path + "leave/").status_code == 200
    attendance = Attendance.objects.get(pk=checked["id"])
    assert attendance.left_at is not None
    left = world.client("member").post(path + "leave/").json()["left_at"]
    assert dt.datetime.fromisoformat(left) == attendance.left_at  # the first time stays

    assert world.client("admin").delete(path).status_code == 204
    attendance.refresh_from_db()
    assert (attendance.checked_in_at, attendance.left_at, attendance.answer) == (None, None, "yes")
    again = world.client("admin").delete(path)
    assert again.status_code == 409 and again.json()["code"] == "not_checked_in"
    assert world.client("member").post(path + "leave/").status_code == 409


def test_it_lets_a_member_mark_only_themselves_as_gone(world: ClubWorld) -> None:
    checked = world.client("scorer").post(evening_url(world, rest="check-ins/")).json()
    response = world.client("member").post(
        evening_url(world, rest=f"check-ins/{checked['id']}/leave/")
    )
    assert response.status_code == 403


def test_it_says_not_found_for_an_attendance_of_another_evening(world: ClubWorld) -> None:
    evening = an_evening(world)
    checked = services.checkin_create(user=world.users["member"], evening_id=evening.pk)[0]
    response = world.client("owner").delete(evening_url(world, rest=f"check-ins/{checked.pk}/"))
    assert response.status_code == 404


# ---------------------------------------------------------------------------------------------
# reminders


def test_it_reminds_yes_and_maybe_answers_once(
    world: ClubWorld, mails: Callable[[Callable[[], Any]], Any], eager_tasks: None
) -> None:
    world.club.reminder_hours = 24
    world.club.save()
    soon = an_evening(world, capacity=1, days=0)
    soon.starts_at = timezone.now() + dt.timedelta(hours=20)
    soon.place = "Café Sperl"
    soon.save()
    answer(world, world.users["member"], soon, "yes")
    answer(world, world.users["scorer"], soon, "yes")  # waiting
    answer(world, world.users["admin"], soon, "maybe")
    answer(world, world.users["owner"], soon, "no")
    answer(world, world.users["member"], world.evening, "yes")  # three days ahead: not yet

    assert mails(lambda: tasks.send_evening_reminders.delay().get()) == 1
    by_user = {m.to[0]: m for m in mail.outbox}
    assert set(by_user) == {world.users[r].email for r in ("member", "scorer", "admin")}
    local = soon.starts_at.astimezone(VIENNA).strftime("%H:%M")
    for message in by_user.values():
        assert message.subject == "Reminder: Abend"
        assert local in message.body and "Café Sperl" in message.body
    assert "waitlist" in by_user[world.users["scorer"].email].body
    assert "waitlist" not in by_user[world.users["member"].email].body
    soon.refresh_from_db()
    assert soon.reminder_sent_at is not None

    assert mails(tasks.send_evening_reminders) == 0
    assert len(mail.outbox) == 3


def test_it_sends_no_reminders_for_clubs_that_want_none(
    world: ClubWorld, mails: Callable[[Callable[[], Any]], Any]
) -> None:
    world.club.reminder_hours = 0
    world.club.save()
    world.evening.starts_at = timezone.now() + dt.timedelta(hours=1)
    world.evening.save()
    answer(world, world.users["member"], world.evening, "yes")
    assert mails(tasks.send_evening_reminders) == 0
    assert mail.outbox == []


def test_it_sends_no_reminders_for_cancelled_evenings(
    world: ClubWorld, mails: Callable[[Callable[[], Any]], Any]
) -> None:
    world.evening.starts_at = timezone.now() + dt.timedelta(hours=1)
    world.evening.save()
    answer(world, world.users["member"], world.evening, "yes")
    services.evening_cancel(user=world.users["owner"], evening_id=world.evening.pk)
    mail.outbox.clear()
    assert mails(tasks.send_evening_reminders) == 0
    assert mail.outbox == []
