"""The outbox of notifications (``clubs.outbox``, issue 40): what each change tells whom, once
per person, type and object; reminders that move with their moment and go with a cancelled
evening; "your turn" held back while the person watches the table and counted over their
tables; the inbox and the Web Push key over the API. Tasks run in this process and no push
service is configured here: a push choice without a device is recorded as such, an e-mail
choice lands in Django's outbox (the fake push services and the real worker:
``tests/clubs/test_push_services.py``)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone
from pytest_django import Settings

from clubs import notifications, outbox
from clubs.models import Club, Membership, Notification, User
from clubs.services import evenings, people, rounds
from games.models import Table
from tests.clubs.evening_setup import six_checked_in
from tests.clubs.world import ClubWorld, build_club_world
from tests.factories import UserFactory
from tests.games.test_events import act, hosted_table
from tests.helpers import client_for
from tests.tournaments.setup import RULES, Field, make_field, play, seat
from tournaments.models import Entry, Round, StandingRow

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

WEEK = dt.timedelta(days=7)


def rows(type_name: str, **where: Any) -> list[Notification]:
    return list(Notification.objects.filter(type=type_name, **where).order_by("user_id"))


def choose(user: User, type_name: str, **choice: Any) -> None:
    notifications.settings_update(user, [{"type": type_name, **choice}])


def test_a_started_round_tells_each_seated_member_once_in_their_language() -> None:
    w = build_club_world()
    six_checked_in(w)
    member = w.users["member"]
    User.objects.filter(pk=member.pk).update(language="de")
    choose(member, "seated", channel="email")
    owner = w.users["owner"]
    rounds.round_plan(user=owner, evening_id=w.evening.pk, rounds_total=2, seed=1)
    rounds.round_start(user=owner, evening_id=w.evening.pk, number=1)

    seated = rows("seated")
    assert sorted(n.user_id for n in seated) == sorted(
        w.users[r].pk for r in ("member", "scorer", "admin", "owner")
    )
    assert all(n.sent_at is not None for n in seated)
    mine = next(n for n in seated if n.user_id == member.pk)
    assert mine.outcome == Notification.Outcome.MAILED
    assert {n.outcome for n in seated if n.user_id != member.pk} == {"no_target"}
    (letter,) = mail.outbox
    assert letter.to == [member.email]
    assert letter.subject == "Du sitzt: Clubabend"
    table = Table.objects.get(pk=mine.payload["table_id"])
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    mine_seat = next(s for s in seats if s.user_id == member.pk)
    others = [
        (s.user.display_name or s.user.username) if s.user else s.guest.name
        for s in seats
        if s.pk != mine_seat.pk
    ]
    assert (
        f"Runde 1, Tisch {table.evening_link.number}, Sitz {mine_seat.position + 1}, "
        f"mit {others[0]} und {others[1]}."
    ) in letter.body
    assert mine.payload == {
        "type": "seated",
        "path": f"/api/v1/tables/{table.pk}/",
        "club_id": w.club.pk,
        "evening_id": w.evening.pk,
        "round": 1,
        "table_id": table.pk,
    }

    # telling again about the same round with nothing changed sends nothing
    before = Notification.objects.filter(type="seated").values_list("pk", "sent_at")
    from clubs import live

    live.round_started(table.evening_link.round_id)
    assert list(Notification.objects.filter(type="seated").values_list("pk", "sent_at")) == list(
        before
    )
    assert len(mail.outbox) == 1


def local(w: ClubWorld, moment: dt.datetime) -> dt.datetime:
    """``moment`` as the club's wall clock (the evening services read naive times so)."""
    return moment.astimezone(ZoneInfo(w.club.timezone)).replace(tzinfo=None)


def evening_via_service(w: ClubWorld, starts_in: dt.timedelta) -> int:
    starts = local(w, timezone.now() + starts_in).replace(microsecond=0)
    evening = evenings.evening_create(
        user=w.users["owner"],
        club_id=w.club.pk,
        title="Dienstagsrunde",
        starts_at=starts,
        ends_at=starts + dt.timedelta(hours=4),
        capacity=2,
    )
    return evening.pk


def test_reminders_follow_answers_a_moved_start_a_new_offset_and_a_cancel() -> None:
    w = build_club_world()
    evening_id = evening_via_service(w, WEEK)
    key = f"evening:{evening_id}"
    members = sorted(m.user_id for m in Membership.objects.filter(club=w.club))
    rsvp = rows("rsvp_closes", key=key)
    assert [n.user_id for n in rsvp] == members
    start = rsvp[0].moment
    assert start is not None
    assert all(n.due_at == start - dt.timedelta(days=1) and n.sent_at is None for n in rsvp)

    member, scorer, admin = (w.users[r] for r in ("member", "scorer", "admin"))
    evenings.attendance_answer(user=member, evening_id=evening_id, answer="yes")
    evenings.attendance_answer(user=scorer, evening_id=evening_id, answer="yes")
    evenings.attendance_answer(user=admin, evening_id=evening_id, answer="yes")  # waits
    assert [n.user_id for n in rows("rsvp_closes", key=key)] == sorted(
        u for u in members if u not in (member.pk, scorer.pk, admin.pk)
    )
    starts = rows("round_starts", key=key)
    assert [n.user_id for n in starts] == sorted([member.pk, scorer.pk])
    assert all(n.due_at == start - dt.timedelta(minutes=10) for n in starts)

    # the member chooses half an hour: their reminder moves, the scorer's stays
    choose(member, "round_starts", offset_minutes=30)
    due = {n.user_id: n.due_at for n in rows("round_starts", key=key)}
    assert due == {
        member.pk: start - dt.timedelta(minutes=30),
        scorer.pk: start - dt.timedelta(minutes=10),
    }

    # the scorer says no: the admin moves up (told by push, or by e-mail without a device),
    # and the reminders follow who holds a place
    evenings.attendance_answer(user=scorer, evening_id=evening_id, answer="no")
    (moved,) = rows("moved_up", key=key)
    assert moved.user_id == admin.pk and moved.outcome == Notification.Outcome.MAILED
    assert [m.to for m in mail.outbox] == [[admin.email]]
    assert [n.user_id for n in rows("round_starts", key=key)] == sorted([member.pk, admin.pk])

    # a later start moves every unsent reminder by as much
    later = local(w, start + dt.timedelta(hours=2))
    evenings.evening_update(
        user=w.users["owner"],
        evening_id=evening_id,
        changes={"starts_at": later, "ends_at": later + dt.timedelta(hours=4)},
    )
    moved_start = start + dt.timedelta(hours=2)
    assert {n.user_id: n.due_at for n in rows("round_starts", key=key)} == {
        member.pk: moved_start - dt.timedelta(minutes=30),
        admin.pk: moved_start - dt.timedelta(minutes=10),
    }
    assert {n.due_at for n in rows("rsvp_closes", key=key)} == {moved_start - dt.timedelta(days=1)}

    evenings.evening_cancel(user=w.users["owner"], evening_id=evening_id)
    assert rows("round_starts", key=key) == rows("rsvp_closes", key=key) == []


def test_a_due_reminder_is_sent_once_by_the_sweep_and_a_stale_claim_is_taken_again(
    settings: Settings,
) -> None:
    w = build_club_world()
    evening_id = evening_via_service(w, dt.timedelta(minutes=5))
    member = w.users["member"]
    choose(member, "round_starts", channel="email")
    evenings.attendance_answer(user=member, evening_id=evening_id, answer="yes")
    (row,) = rows("round_starts")
    # 10 minutes before a start 5 minutes ahead: due at once, and sent after the answer
    assert row.due_at <= timezone.now()
    assert row.outcome == Notification.Outcome.MAILED and row.sent_at is not None
    (letter,) = mail.outbox
    assert letter.subject == "Dienstagsrunde starts soon"
    assert any(f"Dienstagsrunde starts in {m} minutes." in letter.body for m in (4, 5))
    assert outbox.hand_on_due() == 0 and len(mail.outbox) == 1  # sent: never again

    # a message lost on its way to the worker: once the resend time has passed since its task
    # was given, the sweep sends the row, once
    Notification.objects.filter(pk=row.pk).update(sent_at=None, outcome="", claimed_at=None)
    settings.NOTIFICATION_RESEND_SECONDS = 0
    assert outbox.hand_on_due() == 1
    assert outbox.hand_on_due() == 0
    assert len(mail.outbox) == 2

    # a row claimed by a worker that died is taken again once its claim is stale
    Notification.objects.filter(pk=row.pk).update(
        sent_at=None, outcome="", claimed_at=timezone.now()
    )
    assert outbox.deliver([row.pk]) == 0  # claimed: another worker sends it
    settings.NOTIFICATION_CLAIM_SECONDS = 0
    assert outbox.deliver([row.pk]) == 1
    assert len(mail.outbox) == 3


def test_your_turn_waits_while_the_person_watches_and_counts_their_tables(
    settings: Settings,
) -> None:
    settings.NOTIFICATION_YOUR_TURN_DELAY_SECONDS = 0
    first, users = hosted_table()
    anna = users["anna"]
    (row,) = rows("your_turn", user=anna)  # anna is forehand: her turn at once
    assert row.outcome == Notification.Outcome.NO_TARGET
    assert row.payload == {
        "type": "your_turn",
        "path": f"/api/v1/tables/{first.pk}/hands/1/",
        "table_id": first.pk,
        "number": 1,
    }
    assert set(row.context) == {"table"}  # where, never what: no card, no hand

    act(first, users)  # anna calls: her turn is taken, bert's comes
    assert rows("your_turn", user=anna) == []
    (bert,) = rows("your_turn", user=users["bert"])
    assert bert.key == f"table:{first.pk}"

    # bert watches the table on a socket: his next turn is not sent
    outbox.mark_watching(users["bert"].pk, first.pk, 60)
    act(first, users)  # bert passes
    act(first, users)  # carl passes: anna plays on, bert's turn was taken
    Notification.objects.filter(user=users["bert"]).delete()
    while not rows("your_turn", user=users["bert"]):
        act(first, users)
    (watched,) = rows("your_turn", user=users["bert"])
    assert watched.outcome == Notification.Outcome.WATCHING
    outbox.unmark_watching(users["bert"].pk, first.pk)

    # three tables wait for one person: one text counts them, and replaces the last one
    for other in (-1, -2, -3):
        probe = Notification.objects.create(
            user=anna,
            type="your_turn",
            key=f"table:{other}",
            due_at=timezone.now(),
            payload={"path": f"/api/v1/tables/{other}/hands/1/", "table_id": other},
            context={"table": "Hosted"},
        )
    count = Notification.objects.filter(user=anna, type="your_turn").count()
    assert count >= 3
    message = outbox.message_of(probe, timezone.now())
    assert message.body == f"It is your turn at {count} tables."
    assert message.collapse_id == "your_turn" and message.urgent


def test_join_requests_tell_the_managers_and_the_answer_tells_who_asked() -> None:
    w = build_club_world(public=True)
    outsider = w.users["outsider"]
    request = people.join_request_create(club_id=w.club.pk, user=outsider, message="Servus")
    told = rows("join_request")
    assert sorted(n.user_id for n in told) == sorted(w.users[r].pk for r in ("admin", "owner"))
    assert {n.payload["path"] for n in told} == {f"/api/v1/clubs/{w.club.pk}/join-requests/"}
    people.join_request_decline(club_id=w.club.pk, user=w.users["owner"], request_id=request.pk)
    (answered,) = rows("join_request_answered")
    assert answered.user_id == outsider.pk
    message = outbox.message_of(answered, timezone.now())
    assert message.body == "Wiener Runde declined your request to join."


def test_an_erased_person_is_named_by_their_pseudonym_in_what_is_sent_later() -> None:
    anna = UserFactory.create(username="anna", display_name="Anna Berger")
    bert = UserFactory.create(username="bert")
    row = Notification.objects.create(
        user=bert,
        type="seated",
        key="evening-round:1",
        due_at=timezone.now(),
        payload={"path": "/api/v1/tables/1/", "table_id": 1},
        context={
            "where": "Clubabend",
            "round": 1,
            "table_number": 2,
            "seat": 3,
            "opponents": [f"u:{anna.pk}", "bot"],
        },
    )
    assert outbox.message_of(row, timezone.now()).body == (
        "Round 1, table 2, seat 3, with Anna Berger and a bot."
    )
    User.objects.filter(pk=anna.pk).update(display_name="", username="Spieler 7f3a")
    assert "Anna" not in outbox.message_of(row, timezone.now()).body


def test_the_inbox_lists_what_was_sent_to_the_caller_only() -> None:
    w = build_club_world(public=True)
    people.join_request_create(club_id=w.club.pk, user=w.users["outsider"], message="")
    owner = w.client("owner").get("/api/v1/me/inbox/")
    assert owner.status_code == 200
    (item,) = owner.json()
    # no device: the club's own e-mail about the request went out instead
    assert item["type"] == "join_request" and item["channel"] == "email"
    assert item["title"] == "A request to join Wiener Runde"
    assert item["payload"]["notification_id"] == item["id"]
    assert w.client("member").get("/api/v1/me/inbox/").json() == []
    german = w.client("owner").get("/api/v1/me/inbox/", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 200


def test_the_web_push_key_is_null_without_web_push() -> None:
    answer = build_club_world().client("anonymous").get("/api/v1/push/web-push-key/")
    assert answer.status_code == 200 and answer.json() == {"public_key": None}


def test_a_club_without_the_person_never_reminds_them() -> None:
    w = build_club_world()
    stranger = UserFactory.create(username="stranger")
    Club.objects.create(name="Andere", slug="andere")
    evening_id = evening_via_service(w, WEEK)
    assert stranger.pk not in {n.user_id for n in rows("rsvp_closes", key=f"evening:{evening_id}")}


def test_a_tournament_round_with_a_start_time_reminds_its_seated_players_until_it_starts() -> None:
    f = make_field(6)
    starts = timezone.now() + dt.timedelta(hours=2)
    rnd = f.post("rounds/", {"starts_at": starts.isoformat()}, status=202)
    assert rnd["status"] == "seated"
    reminders = rows("round_starts")
    assert sorted(n.user_id for n in reminders) == sorted(p.pk for p in f.players)
    assert {n.due_at for n in reminders} == {
        Round.objects.get(pk=rnd["id"]).starts_at - dt.timedelta(minutes=10)  # type: ignore[operator]
    }
    assert {n.payload["path"] for n in reminders} == {
        f"/api/v1/tournaments/{f.tournament_id}/rounds/{rnd['number']}/"
    }
    text = outbox.message_of(reminders[0], reminders[0].due_at)
    assert text.body == "Round 1 of Test Open starts in 10 minutes."
    seated = rows("seated")
    assert sorted(n.user_id for n in seated) == sorted(p.pk for p in f.players)
    f.post(f"rounds/{rnd['number']}/start/")
    assert rows("round_starts") == []  # started early: nobody is reminded any more


def test_a_tournament_tells_who_moves_up_from_its_waitlist() -> None:
    director = UserFactory.create(username="director")
    answer = client_for(director).post(
        "/api/v1/tournaments/",
        {"name": "Test Open", "rules": RULES, "capacity": 3, "deals_per_round": 12},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    f = Field(answer.json()["id"], director, [])
    f.post("open-registration/")
    people = [UserFactory.create(username=f"p{i}") for i in range(4)]
    for person in people:
        f.post("entries/", user=person, status=201)
    leaving = Entry.objects.get(tournament_id=f.tournament_id, user=people[0])
    assert rows("moved_up") == []
    f.post(f"entries/{leaving.pk}/withdraw/", user=people[0])
    (moved,) = rows("moved_up")
    assert moved.user_id == people[3].pk and moved.key == f"tournament:{f.tournament_id}"
    assert outbox.message_of(moved, timezone.now()).body == (
        "A place became free: you are in at Test Open."
    )


def test_a_sweep_hands_on_every_due_row_however_many_in_batches() -> None:
    people = UserFactory.create_batch(3)
    due = timezone.now() - dt.timedelta(seconds=1)
    Notification.objects.bulk_create(
        Notification(
            user=people[n % 3],
            type="seated",
            key=f"evening-round:{n}",
            due_at=due,
            payload={"path": "/api/v1/tables/1/", "table_id": 1},
            context={"where": "Abend", "round": 1, "table_number": 1, "seat": 1, "opponents": []},
        )
        for n in range(2 * outbox.BATCH + 50)
    )
    assert outbox.hand_on_due() == 2 * outbox.BATCH + 50
    assert not Notification.objects.filter(sent_at__isnull=True).exists()
    assert outbox.hand_on_due() == 0


def test_a_large_change_goes_to_the_worker_in_tasks_its_processes_share() -> None:
    now = timezone.now()
    rows = [Notification(pk=n, due_at=now) for n in range(1, 121)]
    rows += [Notification(pk=n, due_at=now + dt.timedelta(seconds=3)) for n in range(121, 131)]
    rows += [Notification(pk=131, due_at=now + dt.timedelta(hours=1))]  # a sweep's, later
    tasks = outbox._tasks(rows, now)
    assert [(len(ids), wait) for ids, wait in tasks] == [(50, 0), (50, 0), (20, 0), (10, 3.0)]
    assert sorted(pk for ids, _ in tasks for pk in ids) == list(range(1, 131))


def test_the_sweep_hands_on_what_comes_due_before_the_next_sweep_to_be_sent_on_time(
    settings: Settings,
) -> None:
    """A row due in two seconds goes to the worker with a countdown by this sweep, not five
    seconds late by the next one; a task that runs early (here: at once) leaves it unsent."""
    person = UserFactory.create()
    soon = Notification.objects.create(
        user=person,
        type="seated",
        key="evening-round:1",
        due_at=timezone.now() + dt.timedelta(seconds=2),
        payload={"path": "/api/v1/tables/1/", "table_id": 1},
        context={"where": "Abend", "round": 1, "table_number": 1, "seat": 1, "opponents": []},
    )
    settings.NOTIFICATION_SWEEP_SECONDS = 5
    assert outbox.hand_on_due() == 1
    soon.refresh_from_db()
    assert soon.sent_at is None and soon.claimed_at is None  # not due yet: nobody claimed it
    settings.NOTIFICATION_SWEEP_SECONDS = 0
    assert outbox.hand_on_due() == 0  # without a look-ahead it is nobody's yet


def test_a_sweep_gives_no_second_task_to_a_row_whose_task_is_on_its_way(
    settings: Settings,
) -> None:
    """A row due in two seconds got its task with a countdown when it was written; the sweep
    in between leaves it to that task (a second task for every such row doubled the worker's
    deliveries under 1,000 clocked hands), and takes the row again only when it is due and
    still unsent ``NOTIFICATION_RESEND_SECONDS`` after its task was given: the task was lost."""
    person = UserFactory.create()
    settings.NOTIFICATION_SWEEP_SECONDS = 5
    with transaction.atomic():
        outbox.notify(
            [person.pk],
            "seated",
            "evening-round:7",
            payload={"path": "/api/v1/tables/1/", "table_id": 1},
            context={"where": "Abend", "round": 1, "table_number": 1, "seat": 1, "opponents": []},
            delay=dt.timedelta(seconds=2),
        )
    (row,) = rows("seated")
    assert row.queued_at is not None and row.sent_at is None  # its task came early: eager
    assert outbox.hand_on_due() == 0
    # two seconds later it is due and unsent: its task was lost. Within the resend time a
    # task may still be on its way (a busy worker); after it the sweep gives it one
    Notification.objects.filter(pk=row.pk).update(due_at=timezone.now())
    settings.NOTIFICATION_RESEND_SECONDS = 15
    assert outbox.hand_on_due() == 0
    Notification.objects.filter(pk=row.pk).update(
        queued_at=timezone.now() - dt.timedelta(seconds=16)
    )
    assert outbox.hand_on_due() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.outcome == Notification.Outcome.NO_TARGET


def test_a_task_never_comes_before_its_rows() -> None:
    """A countdown is rounded up, never down: a task that ran before its rows were due would
    leave them to a sweep, up to ``NOTIFICATION_RESEND_SECONDS`` late."""
    now = timezone.now()
    rows = [Notification(pk=1, due_at=now + dt.timedelta(seconds=2.04))]
    assert outbox._tasks(rows, now) == [([1], 2.1)]


def test_a_finished_tournament_tells_each_entrant_their_final_rank(settings: Settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6)
    rnd = seat(f)
    play(f, rnd["number"], random.Random(4))
    f.post(f"rounds/{rnd['number']}/close/")
    f.post("finish/")
    told = {n.user_id: n for n in rows("standings_final")}
    ranks = dict(
        StandingRow.objects.filter(tournament_id=f.tournament_id).values_list("user_id", "rank")
    )
    assert set(told) == {p.pk for p in f.players} == set(ranks)
    for user_id, row in told.items():
        assert row.context["rank"] == ranks[user_id]
        assert outbox.message_of(row, timezone.now()).body == (
            f"Test Open has finished: you are placed {ranks[user_id]}."
        )
