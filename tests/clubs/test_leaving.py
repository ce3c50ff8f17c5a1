"""A member who leaves or is removed frees their place at the club's coming evenings: the
first on the waitlist moves up."""

from __future__ import annotations

import pytest

from clubs.models import Attendance, Evening
from clubs.services import evenings, people
from tests.clubs.world import build_club_world

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("how", ["leave", "removed"])
def test_a_leaving_member_frees_their_place_for_the_waitlist(how: str) -> None:
    w = build_club_world()
    Evening.objects.filter(pk=w.evening.pk).update(capacity=2)
    for role in ("member", "scorer", "admin"):
        evenings.attendance_answer(user=w.users[role], evening_id=w.evening.pk, answer="yes")
    waiting = Attendance.objects.get(evening=w.evening, user=w.users["admin"])
    assert waiting.waitlisted
    if how == "leave":
        people.club_leave(club_id=w.club.pk, user=w.users["member"])
    else:
        people.membership_remove(
            club_id=w.club.pk, user=w.users["owner"], member_id=w.users["member"].pk
        )
    assert not Attendance.objects.filter(evening=w.evening, user=w.users["member"]).exists()
    waiting.refresh_from_db()
    assert not waiting.waitlisted
