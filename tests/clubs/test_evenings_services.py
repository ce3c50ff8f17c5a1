"""Evening services: local times, RRULE checks, series generation at fixed moments, the
waitlist, and (``services``: PostgreSQL, Redis, a real worker) concurrent sign-ups and
reminder runs and the beat task in a worker."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient

from clubs import tasks
from clubs.errors import ClubConflict, InvalidInput, NotAllowed
from clubs.models import Attendance, Club, Evening, EveningSeries, Membership, User
from clubs.services import evenings as services
from tests.clubs.world import ClubWorld, build_club_world
from tests.factories import UserFactory

VIENNA = ZoneInfo("Europe/Vienna")
UTC = dt.UTC


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    """A UTC instant."""
    return dt.datetime(year, month, day, hour, minute, tzinfo=UTC)


def new_members(club: Club, n: int, prefix: str = "m") -> list[User]:
    users = [UserFactory.create(username=f"{prefix}{i}") for i in range(n)]
    Membership.objects.bulk_create(Membership(club=club, user=u) for u in users)
    return users


def series(world: ClubWorld, rrule: str, first_start: dt.datetime, now: dt.datetime) -> Any:
    return services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Runde",
        rrule=rrule,
        first_start=first_start,
        now=now,
    )


def local_starts(series_: EveningSeries) -> list[dt.datetime]:
    starts = Evening.objects.filter(series=series_).order_by("starts_at")
    return [e.starts_at.astimezone(VIENNA) for e in starts]


# ---------------------------------------------------------------------------------------------
# times and rules (no database)


def test_it_reads_naive_times_in_the_zone_and_keeps_offsets() -> None:
    naive = dt.datetime(2026, 12, 1, 19)
    assert services.local_to_utc(naive, VIENNA, field="x") == at(2026, 12, 1, 18)
    summer = dt.datetime(2027, 7, 1, 19)
    assert services.local_to_utc(summer, VIENNA, field="x") == at(2027, 7, 1, 17)
    aware = dt.datetime(2026, 12, 1, 19, tzinfo=ZoneInfo("America/New_York"))
    assert services.local_to_utc(aware, VIENNA, field="x") == at(2026, 12, 2, 0)


def test_it_takes_the_first_of_a_time_the_clocks_pass_twice_and_refuses_a_skipped_one() -> None:
    twice = dt.datetime(2027, 10, 31, 2, 30)
    assert services.local_to_utc(twice, VIENNA, field="x") == at(2027, 10, 31, 0, 30)
    with pytest.raises(InvalidInput) as refused:
        services.local_to_utc(dt.datetime(2027, 3, 28, 2, 30), VIENNA, field="starts_at")
    assert refused.value.fields.keys() == {"starts_at"}


@pytest.mark.parametrize(
    ("given", "normalized"),
    [
        ("FREQ=WEEKLY;BYDAY=TU", "FREQ=WEEKLY;BYDAY=TU"),
        ("RRULE:freq=weekly;byday=tu;", "FREQ=WEEKLY;BYDAY=TU"),
        ("BYDAY=FR;FREQ=WEEKLY;INTERVAL=2", "FREQ=WEEKLY;BYDAY=FR;INTERVAL=2"),
        ("FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1", "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1"),
        # UNTIL as a local date: the end of that day in Vienna
        ("FREQ=WEEKLY;UNTIL=20270131", "FREQ=WEEKLY;UNTIL=20270131T225959Z"),
        ("FREQ=WEEKLY;UNTIL=20270701T190000", "FREQ=WEEKLY;UNTIL=20270701T170000Z"),
        ("FREQ=DAILY;COUNT=3", "FREQ=DAILY;COUNT=3"),
    ],
)
def test_it_spells_rules_out_canonically(given: str, normalized: str) -> None:
    first = at(2027, 1, 5, 18)
    assert services.rrule_normalize(given, zone=VIENNA, first_start=first) == normalized


@pytest.mark.parametrize(
    "rrule",
    [
        "",
        "FREQ=SECONDLY",
        "FREQ=HOURLY;INTERVAL=24",
        "FREQ=WEEKLY;INTERVAL=0",
        "FREQ=WEEKLY;COUNT=-1",
        "FREQ=WEEKLY;FREQ=DAILY",
        "FREQ=WEEKLY;BYMINUTE=5",
        "FREQ=WEEKLY;X-NAME=1",
        "FREQ=WEEKLY;UNTIL=tomorrow",
        "FREQ=WEEKLY;BYDAY",
    ],
)
def test_it_refuses_rules_it_cannot_schedule(rrule: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        services.rrule_normalize(rrule, zone=VIENNA, first_start=at(2027, 1, 5, 18))
    assert refused.value.fields.keys() == {"rrule"}


# ---------------------------------------------------------------------------------------------
# series at fixed moments


@pytest.mark.django_db
def test_it_keeps_the_local_hour_across_both_daylight_saving_changes(settings: Settings) -> None:
    world = build_club_world()
    settings.EVENING_SERIES_WEEKS_AHEAD = 8
    autumn = series(
        world, "FREQ=WEEKLY;BYDAY=TU", dt.datetime(2027, 10, 12, 19), now=at(2027, 10, 1)
    )
    starts = local_starts(autumn)
    assert [s.date() for s in starts] == [
        dt.date(2027, 10, 12) + dt.timedelta(weeks=k) for k in range(7)
    ]
    assert {(s.hour, s.minute) for s in starts} == {(19, 0)}
    offsets = [s.utcoffset() for s in starts]
    assert offsets == [dt.timedelta(hours=2)] * 3 + [dt.timedelta(hours=1)] * 4

    spring = series(world, "FREQ=WEEKLY;BYDAY=TU", dt.datetime(2027, 3, 16, 19), now=at(2027, 3, 1))
    starts = local_starts(spring)
    assert {(s.hour, s.minute) for s in starts} == {(19, 0)}
    assert [s.utcoffset() for s in starts][:3] == [
        dt.timedelta(hours=1),
        dt.timedelta(hours=1),
        dt.timedelta(hours=2),
    ]


@pytest.mark.django_db
def test_it_generates_from_now_and_records_how_far(settings: Settings) -> None:
    world = build_club_world()
    settings.EVENING_SERIES_WEEKS_AHEAD = 2
    now = at(2027, 2, 10, 12)
    created = series(world, "FREQ=WEEKLY;BYDAY=MO", dt.datetime(2027, 1, 4, 19), now=now)
    # Mondays 15 and 22 February; none of the January ones (they are over)
    assert [s.date() for s in local_starts(created)] == [dt.date(2027, 2, 15), dt.date(2027, 2, 22)]
    created.refresh_from_db()
    assert created.generated_until == now + dt.timedelta(weeks=2)


@pytest.mark.django_db
def test_it_extends_once_and_never_brings_back_an_edited_or_cancelled_evening(
    settings: Settings,
) -> None:
    world = build_club_world()
    settings.EVENING_SERIES_WEEKS_AHEAD = 2
    now = at(2027, 2, 10, 12)
    created = series(world, "FREQ=WEEKLY;BYDAY=MO", dt.datetime(2027, 1, 4, 19), now=now)
    moved, cancelled = Evening.objects.filter(series=created).order_by("starts_at")
    moved.starts_at = moved.starts_at + dt.timedelta(days=1)
    moved.ends_at = moved.ends_at + dt.timedelta(days=1)
    moved.save()
    services.evening_cancel(user=world.users["owner"], evening_id=cancelled.pk)

    later = now + dt.timedelta(weeks=1)
    assert services.series_extend(series_id=created.pk, now=later) == 1
    assert services.series_extend(series_id=created.pk, now=later) == 0
    assert services.series_extend_all(now=later) == 0
    assert services.series_extend_all(now=later - dt.timedelta(days=3)) == 0
    dates = [s.date() for s in local_starts(created)]
    assert dates == [dt.date(2027, 2, 16), dt.date(2027, 2, 22), dt.date(2027, 3, 1)]


@pytest.mark.django_db
def test_it_skips_the_weeks_nobody_extended_instead_of_filling_the_past(
    settings: Settings,
) -> None:
    world = build_club_world()
    settings.EVENING_SERIES_WEEKS_AHEAD = 1
    now = at(2027, 2, 10, 12)
    created = series(world, "FREQ=WEEKLY;BYDAY=MO", dt.datetime(2027, 1, 4, 19), now=now)
    assert services.series_extend_all(now=now + dt.timedelta(weeks=4)) == 1
    dates = [s.date() for s in local_starts(created)]
    assert dates == [dt.date(2027, 2, 15), dt.date(2027, 3, 15)]


@pytest.mark.django_db
def test_it_ends_a_series_at_its_until(settings: Settings) -> None:
    world = build_club_world()
    settings.EVENING_SERIES_WEEKS_AHEAD = 10
    created = series(
        world,
        "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270222",
        dt.datetime(2027, 2, 1, 19),
        now=at(2027, 1, 1),
    )
    assert [s.date() for s in local_starts(created)][-1] == dt.date(2027, 2, 22)
    assert services.series_extend(series_id=created.pk, now=at(2027, 6, 1)) == 0


@pytest.mark.django_db
def test_it_extends_nothing_for_a_series_that_is_gone() -> None:
    assert services.series_extend(series_id=123456) == 0
    assert tasks.extend_evening_series(123456) == 0


@pytest.mark.django_db
def test_it_keeps_an_unchanged_schedule_in_a_series_update() -> None:
    world = build_club_world()
    created = series(world, "FREQ=WEEKLY;BYDAY=MO", timezone.now(), now=timezone.now())
    same = services.series_update(
        user=world.users["owner"],
        series_id=created.pk,
        changes={"rrule": "freq=weekly;byday=mo", "duration_minutes": 240, "title": "Neu"},
    )
    assert same.title == "Neu"
    with pytest.raises(ClubConflict):
        services.series_update(
            user=world.users["owner"],
            series_id=created.pk,
            changes={"first_start": timezone.now() + dt.timedelta(days=1)},
        )


# ---------------------------------------------------------------------------------------------
# the waitlist


@pytest.mark.django_db
# the e-mail to whom moved up goes through the outbox: its task runs in this process
@pytest.mark.usefixtures("eager_tasks")
def test_it_moves_the_first_waiting_answer_up_when_a_member_leaves_the_club(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    world = build_club_world()
    evening = world.evening
    evening.capacity = 1
    evening.save()
    first, second = new_members(world.club, 2)
    services.attendance_answer(user=first, evening_id=evening.pk, answer="yes")
    services.attendance_answer(user=second, evening_id=evening.pk, answer="yes")
    with django_capture_on_commit_callbacks(execute=True):
        dropped = services.attendance_remove_member(club_id=world.club.pk, user_id=first.pk)
    assert dropped == 1
    assert not Attendance.objects.get(evening=evening, user=second).waitlisted
    assert [m.to for m in mail.outbox] == [[second.email]]


@pytest.mark.django_db
def test_it_lets_only_members_answer() -> None:
    world = build_club_world(public=True)
    with pytest.raises(NotAllowed):
        services.attendance_answer(
            user=world.users["outsider"], evening_id=world.evening.pk, answer="yes"
        )


# ---------------------------------------------------------------------------------------------
# PostgreSQL, Redis and a real worker


def in_threads(n: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``n`` threads released together; their answers in order."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = work(i)
        except Exception as e:  # reported by the test
            results[i] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_it_confirms_exactly_the_capacity_under_concurrent_sign_ups() -> None:
    world = build_club_world()
    evening = world.evening
    evening.capacity = 8
    evening.save()
    users = new_members(world.club, 12, prefix="rush")
    path = f"/api/v1/clubs/{world.club.pk}/evenings/{evening.pk}/attendance/"

    def sign_up(i: int) -> Any:
        client = APIClient()
        client.force_authenticate(users[i])
        return client.put(path, {"answer": "yes"}, format="json")

    responses = in_threads(12, sign_up)
    assert [getattr(r, "status_code", r) for r in responses] == [200] * 12
    bodies = [r.json() for r in responses]
    assert sum(not b["waitlisted"] for b in bodies) == 8
    assert sorted(b["waitlist_position"] for b in bodies if b["waitlisted"]) == [1, 2, 3, 4]
    confirmed = Attendance.objects.filter(evening=evening, answer="yes", waitlisted=False)
    assert confirmed.count() == 8
    # the line follows the time of the yes
    waiting = list(
        Attendance.objects.filter(evening=evening, waitlisted=True).order_by("answered_at", "id")
    )
    assert all(w.answered_at >= c.answered_at for w in waiting for c in confirmed)

    leaver = confirmed.first()
    assert leaver is not None and leaver.user is not None
    client = APIClient()
    client.force_authenticate(leaver.user)
    assert client.put(path, {"answer": "no"}, format="json").status_code == 200
    moved = Attendance.objects.get(pk=waiting[0].pk)
    assert not moved.waitlisted
    assert Attendance.objects.filter(evening=evening, answer="yes", waitlisted=False).count() == 8
    listed = client.get(
        f"/api/v1/clubs/{world.club.pk}/evenings/{evening.pk}/attendances/?waitlisted=true"
    ).json()
    assert [a["waitlist_position"] for a in listed["results"]] == [1, 2, 3]
    assert [a["id"] for a in listed["results"]] == [w.pk for w in waiting[1:]]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_it_reminds_once_when_two_beat_runs_race() -> None:
    world = build_club_world()
    club = world.club
    club.reminder_hours = 24
    club.save()
    evenings = []
    for hours in (2, 3, 4):
        starts = timezone.now() + dt.timedelta(hours=hours)
        evenings.append(
            Evening.objects.create(
                club=club, title=f"In {hours}h", starts_at=starts, ends_at=starts
            )
        )
    for evening in evenings:
        for role in ("member", "admin"):
            services.attendance_answer(user=world.users[role], evening_id=evening.pk, answer="yes")
    mail.outbox.clear()

    counts = in_threads(2, lambda i: services.evening_reminders_send())
    assert sum(counts) == 3
    assert len(mail.outbox) == 6
    assert len({(m.to[0], m.subject) for m in mail.outbox}) == 6
    assert services.evening_reminders_send() == 0


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_worker_extends_a_series_from_the_beat_task(celery_worker_process: Any) -> None:
    world = build_club_world()
    created = services.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Dienstag",
        rrule="FREQ=WEEKLY;BYDAY=TU",
        first_start=timezone.now() - dt.timedelta(days=60),
    )
    before = Evening.objects.filter(series=created).count()
    # as if the beat had stopped two weeks ago
    last = Evening.objects.filter(series=created).order_by("-starts_at")[:2]
    cut = min(e.starts_at for e in last)
    Evening.objects.filter(series=created, starts_at__gte=cut).delete()
    EveningSeries.objects.filter(pk=created.pk).update(generated_until=cut - dt.timedelta(hours=1))

    tasks.extend_evening_series.delay(created.pk)
    deadline = time.monotonic() + 30
    while Evening.objects.filter(series=created).count() < before:
        assert time.monotonic() < deadline, celery_worker_process.log()
        time.sleep(0.2)
    time.sleep(0.5)
    starts = list(Evening.objects.filter(series=created).values_list("starts_at", flat=True))
    assert len(starts) == len(set(starts)) == before
