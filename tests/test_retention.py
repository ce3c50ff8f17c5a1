"""Personal data goes once it has passed its documented retention period (docs/privacy.md,
"Retention periods"), and not a second earlier: for each kind, a row just inside its period
stays and one just past it goes. Times are set relative to a fixed ``NOW`` that the tasks are
given; the clock plays no part."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.db.models import Model
from rest_framework.test import APIClient
from rest_framework_simplejwt.token_blacklist.models import OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

from clubs.models import (
    CalendarFeed,
    DataRequest,
    Invitation,
    JoinRequest,
    Membership,
    Notification,
    User,
)
from clubs.tasks_retention import forget_expired_personal_data
from games.models import IdempotencyRecord, Seat, Table, TableSeries, WorkerPing
from games.tasks import forget_idempotency_keys, forget_worker_pings
from tests.factories import DEFAULT_PASSWORD, ClubFactory, UserFactory
from tournaments.models import Attempt, Delivery, Entry, Tournament, Webhook
from tournaments.models import Invitation as TournamentInvitation
from tournaments.tasks_retention import forget_expired_tournament_data

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
SECOND = dt.timedelta(seconds=1)
HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


def inside(period: dt.timedelta) -> dt.datetime:
    """A time just inside ``period`` before ``NOW``."""
    return NOW - period + SECOND


def past(period: dt.timedelta) -> dt.datetime:
    """A time just past ``period`` before ``NOW``."""
    return NOW - period - SECOND


def set_times(row: Model, **fields: Any) -> None:
    """Set ``row``'s times in the database (``auto_now_add`` fields too)."""
    type(row)._default_manager.filter(pk=row.pk).update(**fields)


def exists(row: Model) -> bool:
    return type(row)._default_manager.filter(pk=row.pk).exists()


# --- clubs -----------------------------------------------------------------------------------


def club_invitation(**fields: Any) -> Invitation:
    club = ClubFactory.create()
    count = Invitation.objects.count()
    return Invitation.objects.create(
        club=club, code=f"code-{count}", **{"expires_at": NOW + DAY, **fields}
    )


def test_club_invitations_go_90_days_after_they_expired_or_were_revoked() -> None:
    active = club_invitation(expires_at=NOW + DAY)
    expired_inside = club_invitation(expires_at=inside(90 * DAY))
    expired_past = club_invitation(expires_at=past(90 * DAY))
    revoked_inside = club_invitation(expires_at=NOW - DAY, revoked_at=inside(90 * DAY))
    revoked_past = club_invitation(expires_at=NOW - DAY, revoked_at=past(90 * DAY))
    used_up_inside = club_invitation(expires_at=inside(90 * DAY), uses=1, max_uses=1)
    used_up_past = club_invitation(expires_at=past(90 * DAY), uses=1, max_uses=1)

    counts = forget_expired_personal_data(now=NOW)

    assert counts["club_invitations"] == 3
    assert all(map(exists, [active, expired_inside, revoked_inside, used_up_inside]))
    assert not any(map(exists, [expired_past, revoked_past, used_up_past]))


def join_request(status: str, decided_at: dt.datetime | None) -> JoinRequest:
    return JoinRequest.objects.create(
        club=ClubFactory.create(), user=UserFactory.create(), status=status, decided_at=decided_at
    )


@pytest.mark.parametrize("status", ["accepted", "declined", "withdrawn"])
def test_decided_join_requests_go_a_year_after_the_decision(status: str) -> None:
    kept = join_request(status, inside(365 * DAY))
    gone = join_request(status, past(365 * DAY))

    counts = forget_expired_personal_data(now=NOW)

    assert counts["join_requests"] == 1
    assert exists(kept) and not exists(gone)


def test_a_pending_join_request_stays_however_old() -> None:
    pending = join_request("pending", None)
    set_times(pending, created_at=NOW - 1000 * DAY)

    forget_expired_personal_data(now=NOW)

    assert exists(pending)


def unconfirmed(joined: dt.datetime) -> User:
    """An account that signed up at ``joined``, never confirmed its address, never signed in."""
    user = UserFactory.create()
    set_times(user, date_joined=joined)
    return user


def test_unconfirmed_accounts_go_30_days_after_sign_up() -> None:
    kept = unconfirmed(inside(30 * DAY))
    gone = unconfirmed(past(30 * DAY))

    counts = forget_expired_personal_data(now=NOW)

    assert counts["unconfirmed_accounts"] == 1
    assert exists(kept) and not exists(gone)


def test_the_rows_only_an_unconfirmed_account_used_go_with_it() -> None:
    gone = unconfirmed(past(30 * DAY))
    ping = WorkerPing.objects.create(user=gone, api_pid=1)
    record = IdempotencyRecord.objects.create(
        user=gone, key="k", fingerprint="f", status_code=201, response={}
    )
    feed = CalendarFeed.objects.create(user=gone, token="t" * 40)
    group = Group.objects.create(name="Testers")
    gone.groups.add(group)
    gone.user_permissions.add(Permission.objects.get(codename="view_club"))

    forget_expired_personal_data(now=NOW)

    assert not any(map(exists, [gone, ping, record, feed]))
    assert exists(group) and not group.user_set.exists()


def table(created_by: User | None = None) -> Table:
    return Table.objects.create(
        name="Tisch 1",
        mode=Table.Mode.RECORDED,
        series=TableSeries.objects.create(name="Serie"),
        rules={},
        first_dealer=0,
        created_by=created_by,
    )


def confirmed(user: User) -> None:
    set_times(user, email_verified_at=NOW - 40 * DAY)


def signed_in(user: User) -> None:
    set_times(user, last_login=NOW - 40 * DAY)


def refresh_token(user: User) -> None:
    RefreshToken.for_user(user)


def member(user: User) -> None:
    Membership.objects.create(club=ClubFactory.create(), user=user)


def seated(user: User) -> None:
    Seat.objects.create(table=table(), position=0, key="anna", kind=Seat.Kind.USER, user=user)


def entered(user: User) -> None:
    t = Tournament.objects.create(name="Wiener Open", slug=f"open-{user.pk}")
    Entry.objects.create(tournament=t, user=user, name="Anna", status=Entry.Status.REGISTERED)


def created_a_table(user: User) -> None:
    table(created_by=user)


def staff(user: User) -> None:
    set_times(user, is_staff=True)


@pytest.mark.parametrize(
    "holds",
    [confirmed, signed_in, refresh_token, member, seated, entered, created_a_table, staff],
    ids=lambda holds: holds.__name__,
)
def test_an_unconfirmed_account_stays_while_something_holds_it(
    holds: Callable[[User], None],
) -> None:
    held = unconfirmed(NOW - 300 * DAY)
    holds(held)
    alone = unconfirmed(NOW - 300 * DAY)

    forget_expired_personal_data(now=NOW)

    assert exists(held)
    assert not exists(alone)


def test_signing_in_keeps_an_account_after_its_refresh_tokens_were_flushed() -> None:
    user = unconfirmed(NOW - 300 * DAY)
    answer = APIClient().post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    OutstandingToken.objects.filter(user=user).delete()  # as flushexpiredtokens does

    forget_expired_personal_data(now=NOW)

    assert exists(user)


def export_request(finished_at: dt.datetime) -> DataRequest:
    return DataRequest.objects.create(
        subject=UserFactory.create(),
        kind=DataRequest.Kind.EXPORT,
        status=DataRequest.Status.READY,
        document={"format": "preference-personal-data/1"},
        finished_at=finished_at,
    )


def test_an_exports_document_goes_24_hours_after_it_became_ready() -> None:
    kept = export_request(inside(24 * HOUR))
    gone = export_request(past(24 * HOUR))

    counts = forget_expired_personal_data(now=NOW)

    assert counts["export_documents"] == 1
    kept.refresh_from_db()
    gone.refresh_from_db()
    assert kept.document is not None and kept.status == DataRequest.Status.READY
    assert gone.document is None and gone.status == DataRequest.Status.EXPIRED


def test_the_records_of_exports_and_erasures_go_after_3_years() -> None:
    subject = UserFactory.create()
    kept, gone = (
        DataRequest.objects.create(
            subject=subject, kind=DataRequest.Kind.ERASURE, status=DataRequest.Status.DONE
        )
        for _ in range(2)
    )
    set_times(kept, created_at=NOW - 1100 * DAY, finished_at=inside(1096 * DAY))
    set_times(gone, created_at=NOW - 1100 * DAY, finished_at=past(1096 * DAY))

    counts = forget_expired_personal_data(now=NOW)

    assert counts["data_requests"] == 1
    assert exists(kept) and not exists(gone)


def test_notifications_go_30_days_after_they_were_sent_and_a_waiting_one_stays() -> None:
    person = UserFactory.create()
    kept, gone, unsent, turn = (
        Notification.objects.create(
            user=person, type=kind, key=f"evening:{n}", due_at=NOW - 40 * DAY, payload={}
        )
        for n, kind in enumerate(("seated", "seated", "round_starts", "your_turn"))
    )
    set_times(kept, sent_at=inside(30 * DAY))
    set_times(gone, sent_at=past(30 * DAY))
    set_times(turn, sent_at=past(30 * DAY))  # a turn not taken yet is still pending

    counts = forget_expired_personal_data(now=NOW)

    assert counts["notifications"] == 1
    assert exists(kept) and exists(unsent) and exists(turn) and not exists(gone)


def test_the_clubs_task_answers_and_logs_what_it_forgot(caplog: pytest.LogCaptureFixture) -> None:
    club_invitation(expires_at=past(90 * DAY))
    unconfirmed(past(30 * DAY))

    with caplog.at_level(logging.INFO, logger="clubs.tasks_retention"):
        counts = forget_expired_personal_data(now=NOW)
    again = forget_expired_personal_data(now=NOW)

    assert counts == {
        "club_invitations": 1,
        "join_requests": 0,
        "unconfirmed_accounts": 1,
        "export_documents": 0,
        "data_requests": 0,
        "notifications": 0,
    }
    assert set(again.values()) == {0}
    assert "'unconfirmed_accounts': 1" in caplog.text


# --- games -----------------------------------------------------------------------------------


def test_worker_pings_go_after_a_day() -> None:
    user = UserFactory.create()
    kept, gone = (WorkerPing.objects.create(user=user, api_pid=1) for _ in range(2))
    set_times(kept, created_at=inside(DAY))
    set_times(gone, created_at=past(DAY))

    assert forget_worker_pings(now=NOW) == {"worker_pings": 1}
    assert exists(kept) and not exists(gone)


def test_idempotency_keys_go_after_24_hours() -> None:
    user = UserFactory.create()
    kept, gone = (
        IdempotencyRecord.objects.create(
            user=user, key=key, fingerprint="f", status_code=201, response={}
        )
        for key in ("a", "b")
    )
    set_times(kept, created_at=inside(24 * HOUR))
    set_times(gone, created_at=past(24 * HOUR))

    assert forget_idempotency_keys(now=NOW) == {"idempotency_keys": 1}
    assert exists(kept) and not exists(gone)


# --- tournaments -----------------------------------------------------------------------------


def tournament(status: str = Tournament.Status.REGISTRATION) -> Tournament:
    count = Tournament.objects.count()
    return Tournament.objects.create(name="Wiener Open", slug=f"wiener-open-{count}", status=status)


def delivery(webhook: Webhook, created_at: dt.datetime, *tries: dt.datetime) -> Delivery:
    sent = Delivery.objects.create(webhook=webhook, event="round_seated", payload={})
    set_times(sent, created_at=created_at)
    for number, at in enumerate(tries, start=1):
        attempt = Attempt.objects.create(delivery=sent, number=number)
        set_times(attempt, at=at)
    return sent


def test_webhook_deliveries_and_their_tries_go_after_90_days() -> None:
    webhook = Webhook.objects.create(
        tournament=tournament(), url="https://hooks.example/", events=["round_seated"], secret="s"
    )
    kept = delivery(webhook, inside(90 * DAY), inside(90 * DAY))
    gone = delivery(webhook, past(90 * DAY), past(90 * DAY), past(90 * DAY))
    replayed = delivery(webhook, NOW - 200 * DAY, NOW - 200 * DAY, inside(90 * DAY))

    counts = forget_expired_tournament_data(now=NOW)

    assert counts["webhook_deliveries"] == 1
    assert counts["webhook_attempts"] == 3  # the gone delivery's two, the replayed one's first
    assert exists(kept) and not exists(gone) and exists(replayed)
    assert kept.tries.count() == 1
    assert list(replayed.tries.values_list("number", flat=True)) == [2]


def tournament_invitation(t: Tournament, status: str, decided_at: dt.datetime | None) -> Any:
    return TournamentInvitation.objects.create(
        tournament=t,
        user=UserFactory.create(),
        role=TournamentInvitation.Role.ENTRANT,
        status=status,
        decided_at=decided_at,
    )


@pytest.mark.parametrize("status", ["accepted", "declined"])
def test_answered_tournament_invitations_go_90_days_after_the_answer(status: str) -> None:
    t = tournament()
    kept = tournament_invitation(t, status, inside(90 * DAY))
    gone = tournament_invitation(t, status, past(90 * DAY))

    counts = forget_expired_tournament_data(now=NOW)

    assert counts["tournament_invitations"] == 1
    assert exists(kept) and not exists(gone)


def test_unanswered_invitations_go_90_days_after_their_tournament_finished() -> None:
    finished_inside = tournament(Tournament.Status.FINISHED)
    finished_past = tournament(Tournament.Status.FINISHED)
    running = tournament(Tournament.Status.RUNNING)
    set_times(finished_inside, changed_at=inside(90 * DAY))
    set_times(finished_past, changed_at=past(90 * DAY))
    set_times(running, changed_at=NOW - 300 * DAY)
    kept = tournament_invitation(finished_inside, "invited", None)
    gone = tournament_invitation(finished_past, "invited", None)
    open_ = tournament_invitation(running, "invited", None)
    set_times(open_, created_at=NOW - 300 * DAY)

    counts = forget_expired_tournament_data(now=NOW)

    assert counts["tournament_invitations"] == 1
    assert exists(kept) and not exists(gone) and exists(open_)
