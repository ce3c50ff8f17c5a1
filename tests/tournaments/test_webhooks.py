"""Tournament webhooks against a real HTTP receiver on 127.0.0.1 that checks every signature
itself: delivery and its headers, the timestamped signature and secret rotation, retries with
back-off, failure after the last try, replay, duplicate task runs, test pings, and the
directors-only API. Times are injected (``now=``), never waited for."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from celery.exceptions import Retry
from django.db import transaction
from rest_framework.test import APIClient

from clubs.models import User
from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments import services, webhooks
from tournaments.models import Attempt, Delivery, LogEntry, Tournament, Webhook
from tournaments.tasks_webhooks import BACKOFF_CAP_SECONDS, backoff, deliver_webhook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks", "local_receiver")]

Capture = Callable[..., Any]


# ---------------------------------------------------------------------------------------------
# the receiver


@dataclass
class Received:
    """One request the receiver got, and whether its signature checked out."""

    path: str
    headers: dict[str, str]
    body: bytes
    signed: bool

    def json(self) -> Any:
        return json.loads(self.body)

    def signature(self) -> tuple[int, list[str]]:
        """``Preference-Signature`` read as a receiver reads it: ``t`` and the ``v1`` list."""
        parts = [p.partition("=") for p in self.headers["Preference-Signature"].split(",")]
        (t,) = [int(value) for key, _, value in parts if key == "t"]
        return t, [value for key, _, value in parts if key == "v1"]


def hmac_hex(secret: str, message: bytes) -> str:
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


@dataclass
class Receiver:
    """A local HTTP endpoint: answers POSTs with the queued status codes (then 200), records
    each request and checks its ``Preference-Signature`` with the secret of its path (a
    ``v1`` that is the HMAC of ``"<t>." + body``; the timestamp's age is checked by the tests
    that set the clock)."""

    port: int = 0
    answers: deque[int] = field(default_factory=deque)
    secrets: dict[str, str] = field(default_factory=dict)
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, name: str = "hook") -> str:
        return f"http://127.0.0.1:{self.port}/{name}"

    def expect(self, webhook: Webhook | dict[str, Any], name: str = "hook") -> None:
        """Remember the secret the webhook at ``/name`` signs with."""
        secret = webhook["secret"] if isinstance(webhook, dict) else webhook.secret
        self.secrets[f"/{name}"] = secret

    def answer(self, path: str, headers: dict[str, str], body: bytes) -> int:
        secret = self.secrets.get(path, "")
        got = Received(path, headers, body, signed=False)
        if "Preference-Signature" in headers:
            t, given = got.signature()
            digest = hmac_hex(secret, f"{t}.".encode() + body)
            got.signed = any(hmac.compare_digest(digest, v1) for v1 in given)
        with self.lock:
            self.requests.append(got)
            return self.answers.popleft() if self.answers else 200


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            code = state.answer(self.path, dict(self.headers.items()), body)
            self.send_response(code)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def local_receiver(settings: Any) -> None:
    """The receiver listens on 127.0.0.1, which webhooks may reach only when allowed
    (``tests/tournaments/test_webhook_addresses.py`` tests the refusal)."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True


def closed_port_url() -> str:
    """A URL nobody listens on: a port the system just gave out and took back."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"


# ---------------------------------------------------------------------------------------------
# tournaments, users, clients


@pytest.fixture
def director() -> User:
    return UserFactory.create(username="director")


@pytest.fixture
def tournament(director: User) -> Tournament:
    t = Tournament.objects.create(name="Wiener Open", slug="wiener-open", status="registration")
    t.directors.add(director)
    return t


@pytest.fixture
def boss(director: User) -> APIClient:
    return client_for(director)


def hooks_url(t: Tournament, rest: str = "") -> str:
    return f"/api/v1/tournaments/{t.pk}/webhooks/{rest}"


def hook(
    receiver: Receiver,
    t: Tournament,
    director: User,
    events: list[str] | None = None,
    name: str = "hook",
) -> Webhook:
    """A webhook at the receiver's ``/name``, its secret known to the receiver."""
    created = webhooks.webhook_create(
        user=director, tournament=t, url=receiver.url(name), events=events or list(Webhook.EVENTS)
    )
    receiver.expect(created, name)
    return created


def one_delivery(webhook: Webhook, event: str = "round_seated") -> Delivery:
    """Emit ``event`` without sending it (the callbacks are dropped): the pending delivery."""
    with transaction.atomic():
        assert webhook.tournament_id is not None
        webhooks.emit(tournament_id=webhook.tournament_id, event=event, data={"round": 1})
    return Delivery.objects.filter(webhook=webhook).latest("created_at")


def attempts(delivery: Delivery) -> list[tuple[int, int | None]]:
    return list(delivery.tries.order_by("number").values_list("number", "status_code"))


# ---------------------------------------------------------------------------------------------
# sending


def test_a_delivery_arrives_signed_with_its_event_delivery_id_and_envelope(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    wanted = hook(receiver, tournament, director, ["round_seated"], "wanted")
    hook(receiver, tournament, director, ["standings_changed"], "other-event")
    off = hook(receiver, tournament, director, ["round_seated"], "inactive")
    webhooks.webhook_update(user=director, webhook=off, is_active=False)
    data = {"round": 2, "tables": [{"table": 1, "players": ["Anna", "Bert", "Carl"]}]}
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        webhooks.emit(tournament_id=tournament.pk, event="round_seated", data=data)

    assert [r.path for r in receiver.requests] == ["/wanted"]
    got = receiver.requests[0]
    assert got.signed
    delivery = Delivery.objects.get(webhook=wanted)
    assert got.headers["Content-Type"] == "application/json"
    assert got.headers["User-Agent"] == "preference-webhooks/1"
    assert got.headers["X-Preference-Event"] == "round_seated"
    assert got.headers["X-Preference-Delivery"] == str(delivery.pk)
    envelope = got.json()
    assert set(envelope) == {"id", "event", "tournament", "created_at", "data"}
    assert envelope["id"] == str(delivery.pk)
    assert envelope["event"] == "round_seated"
    assert envelope["tournament"] == tournament.pk
    assert envelope["data"] == data
    assert got.body == json.dumps(envelope, sort_keys=True, separators=(",", ":")).encode()
    t, _ = got.signature()
    assert got.headers["Preference-Signature"] == webhooks.sign([wanted.secret], got.body, t)
    legacy = "sha256=" + hmac_hex(wanted.secret, got.body)
    assert got.headers["X-Preference-Signature"] == legacy
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED
    assert delivery.delivered_at is not None
    assert attempts(delivery) == [(1, 200)]


# ---------------------------------------------------------------------------------------------
# the timestamped signature and rotating the secret

SENT_AT = datetime(2027, 3, 13, 14, 5, 9, tzinfo=UTC)


def receiver_accepts(secret: str, got: Received, *, now: datetime, tolerance: int = 300) -> bool:
    """What a receiver following docs/webhooks.md decides: a recent ``t`` and a ``v1`` that is
    the HMAC of ``"<t>." + body`` under its secret."""
    t, given = got.signature()
    if abs(now.timestamp() - t) > tolerance:
        return False
    expected = hmac_hex(secret, f"{t}.".encode() + got.body)
    return any(hmac.compare_digest(expected, v1) for v1 in given)


def test_a_delivery_carries_its_send_time_so_a_receiver_refuses_a_replayed_request(
    receiver: Receiver, tournament: Tournament, director: User
) -> None:
    webhook = hook(receiver, tournament, director)
    delivery = one_delivery(webhook)

    assert webhooks.deliver(delivery_id=str(delivery.pk), now=SENT_AT)

    (got,) = receiver.requests
    t, v1s = got.signature()
    assert t == int(SENT_AT.timestamp())
    assert v1s == [hmac_hex(webhook.secret, f"{t}.".encode() + got.body)]
    assert got.headers["Preference-Signature"] == f"t={t},v1={v1s[0]}"
    assert receiver_accepts(webhook.secret, got, now=SENT_AT + timedelta(seconds=30))
    # The same request sent again by someone who recorded it, ten minutes later: refused.
    assert not receiver_accepts(webhook.secret, got, now=SENT_AT + timedelta(minutes=10))
    # The server's helper agrees.
    header = got.headers["Preference-Signature"]
    assert webhooks.verify(webhook.secret, got.body, header, now=t + 30)
    assert not webhooks.verify(webhook.secret, got.body, header, now=t + 600)
    assert not webhooks.verify(webhook.secret, got.body + b" ", header, now=t)


def test_a_director_rotates_the_secret_and_gets_the_new_one_once(
    receiver: Receiver, tournament: Tournament, director: User, boss: APIClient
) -> None:
    webhook = hook(receiver, tournament, director)
    old = webhook.secret

    answer = boss.post(hooks_url(tournament, f"{webhook.pk}/rotate-secret/"), format="json")

    assert answer.status_code == 200, answer.content
    new = answer.json()["secret"]
    assert len(new) == 64 and new != old
    webhook.refresh_from_db()
    assert webhook.secret == new and webhook.previous_secret == old
    assert answer.json()["previous_secret_expires_at"] is not None
    shown = boss.get(hooks_url(tournament, f"{webhook.pk}/")).json()
    assert new not in json.dumps(shown) and old not in json.dumps(shown)
    assert shown["previous_secret_expires_at"] == answer.json()["previous_secret_expires_at"]
    log = LogEntry.objects.get(tournament=tournament, action="webhook_rotate_secret")
    assert new not in json.dumps(log.detail) and old not in json.dumps(log.detail)


def test_during_a_rotation_deliveries_are_signed_with_both_secrets_until_the_old_one_expires(
    receiver: Receiver, tournament: Tournament, director: User, settings: Any
) -> None:
    settings.WEBHOOK_SECRET_OVERLAP_HOURS = 24
    webhook = hook(receiver, tournament, director)
    old = webhook.secret
    rotated = webhooks.webhook_rotate_secret(user=director, webhook=webhook, now=SENT_AT)
    assert rotated.previous_secret_expires_at == SENT_AT + timedelta(hours=24)
    new = rotated.secret
    receiver.expect(rotated)

    during = SENT_AT + timedelta(hours=23, minutes=59)
    webhooks.deliver(delivery_id=str(one_delivery(webhook).pk), now=during)
    after = SENT_AT + timedelta(hours=24)
    webhooks.deliver(delivery_id=str(one_delivery(webhook).pk), now=after)

    first, second = receiver.requests
    assert len(first.signature()[1]) == 2
    assert receiver_accepts(old, first, now=during) and receiver_accepts(new, first, now=during)
    assert len(second.signature()[1]) == 1
    assert receiver_accepts(new, second, now=after) and not receiver_accepts(old, second, now=after)


def test_the_rotation_window_follows_the_setting(
    tournament: Tournament, director: User, receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_SECRET_OVERLAP_HOURS = 2
    webhook = hook(receiver, tournament, director)
    rotated = webhooks.webhook_rotate_secret(user=director, webhook=webhook, now=SENT_AT)
    assert rotated.previous_secret_expires_at == SENT_AT + timedelta(hours=2)
    assert webhooks.signing_secrets(rotated, SENT_AT + timedelta(hours=1)) == [
        rotated.secret,
        webhook.secret,
    ]
    # Rotating again within the window: only the secret being replaced overlaps.
    again = webhooks.webhook_rotate_secret(
        user=director, webhook=rotated, now=SENT_AT + timedelta(hours=1)
    )
    assert webhooks.signing_secrets(again, SENT_AT + timedelta(hours=1)) == [
        again.secret,
        rotated.secret,
    ]


def test_a_rolled_back_transaction_sends_nothing(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    hook(receiver, tournament, director)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        webhooks.emit(tournament_id=tournament.pk, event="result_entered", data={})
        raise RuntimeError("the command failed")
    assert receiver.requests == []
    assert not Delivery.objects.exists()


def test_finishing_a_tournament_tells_its_webhooks(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    hook(receiver, tournament, director, ["tournament_finished"])
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_finish(user=director, tournament=tournament)
    events = [r.headers["X-Preference-Event"] for r in receiver.requests]
    assert events == ["tournament_finished"]
    assert receiver.requests[0].signed
    assert receiver.requests[0].json()["data"] == {"rounds": 0}


def test_a_receiver_failing_twice_gets_three_attempts_and_the_delivery_is_delivered(
    receiver: Receiver, tournament: Tournament, director: User
) -> None:
    delivery = one_delivery(hook(receiver, tournament, director))
    receiver.answers.extend([500, 500, 200])

    sent = [webhooks.deliver(delivery_id=str(delivery.pk)) for _ in range(3)]

    assert sent == [False, False, True]
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED
    assert attempts(delivery) == [(1, 500), (2, 500), (3, 200)]
    assert all(r.signed for r in receiver.requests)
    assert len({r.headers["X-Preference-Delivery"] for r in receiver.requests}) == 1
    assert len({r.body for r in receiver.requests}) == 1


@pytest.fixture
def retrying_in_process(eager_tasks: None) -> Iterator[None]:
    """Run tasks eagerly (``eager_tasks``) without propagating their errors: Celery would then
    run each retry a task asks for at once, in this process (the countdown is not waited for).
    Restored before ``eager_tasks`` restores the rest (not by monkeypatch, whose undo would
    come after it and leave the process eager for the services tests that follow)."""
    from config.celery import app

    app.conf.task_eager_propagates = False
    try:
        yield
    finally:
        app.conf.task_eager_propagates = True


@pytest.mark.usefixtures("retrying_in_process")
def test_in_process_a_failed_try_is_not_repeated_at_once_and_a_replay_delivers_it(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    """In-process nobody waits out the back-off: the task asks for no retry (which Celery
    would run at once, in the request), the delivery stays pending for a replay."""
    delivery = one_delivery(hook(receiver, tournament, director))
    receiver.answers.extend([500, 502])

    assert deliver_webhook.delay(str(delivery.pk)).get() is False

    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING
    assert attempts(delivery) == [(1, 500)]
    with django_capture_on_commit_callbacks(execute=True):
        webhooks.delivery_replay(user=director, delivery=delivery)
    assert attempts(delivery) == [(1, 500), (2, 502)]
    with django_capture_on_commit_callbacks(execute=True):
        webhooks.delivery_replay(user=director, delivery=delivery)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED
    assert attempts(delivery) == [(1, 500), (2, 502), (3, 200)]


def test_the_back_off_doubles_after_each_failed_try_and_is_capped(settings: Any) -> None:
    settings.WEBHOOK_BACKOFF_SECONDS = 10
    assert [backoff(n) for n in (1, 2, 3, 4, 5)] == [10, 20, 40, 80, 160]
    assert backoff(9) == 2560
    assert backoff(10) == BACKOFF_CAP_SECONDS == 3600
    assert backoff(500) == BACKOFF_CAP_SECONDS


def test_the_task_asks_for_a_retry_after_the_back_off(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.WEBHOOK_BACKOFF_SECONDS = 10
    delivery = one_delivery(hook(receiver, tournament, director))
    receiver.answers.extend([500, 500])
    asked: list[dict[str, Any]] = []

    def retry(**options: Any) -> Retry:
        asked.append(options)
        return Retry()

    monkeypatch.setattr(deliver_webhook, "retry", retry)
    for _ in range(2):
        with pytest.raises(Retry):
            deliver_webhook.run(str(delivery.pk))
    assert [a["countdown"] for a in asked] == [10, 20]
    assert deliver_webhook.run(str(delivery.pk)) is True
    assert len(asked) == 2


def test_an_unreachable_url_records_the_error_text(tournament: Tournament, director: User) -> None:
    webhook = webhooks.webhook_create(
        user=director, tournament=tournament, url=closed_port_url(), events=["result_entered"]
    )
    delivery = one_delivery(webhook, "result_entered")

    assert webhooks.deliver(delivery_id=str(delivery.pk)) is False

    attempt = Attempt.objects.get(delivery=delivery)
    assert attempt.status_code is None
    assert "refused" in attempt.error.lower(), attempt.error
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.attempts == 1


def test_a_delivery_fails_after_the_maximum_attempts(
    receiver: Receiver, tournament: Tournament, director: User, settings: Any
) -> None:
    settings.WEBHOOK_MAX_ATTEMPTS = 3
    delivery = one_delivery(hook(receiver, tournament, director))
    receiver.answers.extend([500] * 10)

    assert [webhooks.deliver(delivery_id=str(delivery.pk)) for _ in range(4)] == [False] * 4

    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED
    assert attempts(delivery) == [(1, 500), (2, 500), (3, 500)]
    assert len(receiver.requests) == 3


def delivery_lines(caplog: pytest.LogCaptureFixture, delivery: Delivery) -> list[str]:
    """The log lines that name ``delivery``; each must come without a traceback."""
    records = [r for r in caplog.records if str(delivery.pk) in r.getMessage()]
    assert [r for r in records if r.exc_info or r.exc_text or r.stack_info] == []
    assert "Traceback" not in caplog.text
    return [r.getMessage() for r in records]


def test_the_worker_logs_one_line_per_failed_try_and_stops_at_the_last_without_a_celery_error(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The task as a worker runs it (``run``: not eager): the retries it asks for are
    recorded instead of queued."""
    settings.WEBHOOK_MAX_ATTEMPTS = 3
    settings.WEBHOOK_BACKOFF_SECONDS = 10
    delivery = one_delivery(hook(receiver, tournament, director))
    receiver.answers.extend([500] * 10)
    asked: list[dict[str, Any]] = []

    def retry(**options: Any) -> Retry:
        asked.append(options)
        return Retry()

    monkeypatch.setattr(deliver_webhook, "retry", retry)
    for _ in range(2):
        with pytest.raises(Retry):
            deliver_webhook.run(str(delivery.pk))
    assert deliver_webhook.run(str(delivery.pk)) is False

    assert [a["countdown"] for a in asked] == [10, 20]
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED
    assert attempts(delivery) == [(1, 500), (2, 500), (3, 500)]
    prefix = f"webhook delivery {delivery.pk}: try"
    assert delivery_lines(caplog, delivery) == [
        f"{prefix} 1 of 3 failed (HTTP 500); next try in 10 s",
        f"{prefix} 2 of 3 failed (HTTP 500); next try in 20 s",
        f"{prefix} 3 of 3 failed (HTTP 500); the delivery has failed: replay it to send it again",
    ]


def test_a_failing_receiver_never_fails_the_command_that_emitted(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    django_capture_on_commit_callbacks: Capture,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """In-process (no broker, as under ``make run``) the first try runs after the commit; its
    failure is one log line without a traceback, the command stands and the delivery stays
    pending."""
    hook(receiver, tournament, director, ["result_entered"])
    receiver.answers.append(503)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        webhooks.emit(tournament_id=tournament.pk, event="result_entered", data={"table": 1})
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.PENDING
    assert attempts(delivery) == [(1, 503)]
    assert delivery_lines(caplog, delivery) == [
        f"webhook delivery {delivery.pk}: try 1 of 6 failed (HTTP 503); tasks run in-process "
        "(no CELERY_BROKER_URL), so it is not tried again on its own: replay it"
    ]


def test_a_duplicate_run_of_a_delivered_delivery_sends_nothing(
    receiver: Receiver, tournament: Tournament, director: User
) -> None:
    delivery = one_delivery(hook(receiver, tournament, director))

    assert webhooks.deliver(delivery_id=str(delivery.pk)) is True
    assert webhooks.deliver(delivery_id=str(delivery.pk)) is True
    deliver_webhook.delay(str(delivery.pk))

    assert len(receiver.requests) == 1
    assert attempts(delivery) == [(1, 200)]


# ---------------------------------------------------------------------------------------------
# the API


def test_a_replay_through_the_api_resends_the_same_delivery(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    boss: APIClient,
    settings: Any,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    webhook = hook(receiver, tournament, director)
    delivery = one_delivery(webhook)
    receiver.answers.extend([500, 500])
    webhooks.deliver(delivery_id=str(delivery.pk))
    webhooks.deliver(delivery_id=str(delivery.pk))
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED

    url = hooks_url(tournament, f"{webhook.pk}/deliveries/{delivery.pk}/replay/")
    with django_capture_on_commit_callbacks(execute=True):
        answer = boss.post(url, format="json")

    assert answer.status_code == 202, answer.content
    assert answer.json()["id"] == str(delivery.pk)
    assert len(receiver.requests) == 3
    first, replayed = receiver.requests[0], receiver.requests[-1]
    assert replayed.signed
    assert replayed.headers["X-Preference-Delivery"] == str(delivery.pk)
    assert replayed.body == first.body
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED
    assert attempts(delivery) == [(1, 500), (2, 500), (3, 200)]
    log = LogEntry.objects.get(tournament=tournament, action="webhook_replay")
    assert log.detail["delivery"] == str(delivery.pk) and log.detail["was"] == "failed"


def test_a_director_creates_lists_changes_and_deletes_webhooks(
    receiver: Receiver, tournament: Tournament, boss: APIClient
) -> None:
    body = {"url": receiver.url(), "events": ["round_seated", "tournament_finished"]}
    created = boss.post(hooks_url(tournament), body, format="json")
    assert created.status_code == 201, created.content
    made = created.json()
    assert len(made["secret"]) == 64 and int(made["secret"], 16) >= 0
    assert made["events"] == ["round_seated", "tournament_finished"]
    assert made["is_active"] is True
    one = hooks_url(tournament, f"{made['id']}/")

    listed = boss.get(hooks_url(tournament))
    assert listed.status_code == 200
    assert [w["id"] for w in listed.json()["results"]] == [made["id"]]
    assert "secret" not in listed.json()["results"][0]
    shown = boss.get(one).json()
    assert "secret" not in shown and shown["url"] == receiver.url()

    changed = boss.patch(one, {"events": ["result_entered"], "is_active": False}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["events"] == ["result_entered"]
    assert changed.json()["is_active"] is False
    assert "secret" not in changed.json()

    assert boss.delete(one).status_code == 204
    assert boss.get(one).status_code == 404
    actions = list(LogEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert actions == ["webhook_create", "webhook_update", "webhook_delete"]
    assert all("secret" not in json.dumps(e.detail) for e in LogEntry.objects.all())


def test_deliveries_are_listed_newest_first_with_their_attempts(
    receiver: Receiver, tournament: Tournament, director: User, boss: APIClient
) -> None:
    webhook = hook(receiver, tournament, director)
    older = one_delivery(webhook, "round_seated")
    newer = one_delivery(webhook, "standings_changed")
    receiver.answers.append(500)
    webhooks.deliver(delivery_id=str(older.pk))
    webhooks.deliver(delivery_id=str(older.pk))

    answer = boss.get(hooks_url(tournament, f"{webhook.pk}/deliveries/"))

    assert answer.status_code == 200
    rows = answer.json()["results"]
    assert [r["id"] for r in rows] == [str(newer.pk), str(older.pk)]
    assert rows[0]["attempts"] == []
    assert [(a["number"], a["status_code"]) for a in rows[1]["attempts"]] == [(1, 500), (2, 200)]
    assert rows[1]["status"] == "delivered" and rows[1]["payload"]["id"] == str(older.pk)
    pending = boss.get(hooks_url(tournament, f"{webhook.pk}/deliveries/?status=pending"))
    assert [r["id"] for r in pending.json()["results"]] == [str(newer.pk)]


def test_the_test_endpoint_pings_just_this_webhook(
    receiver: Receiver,
    tournament: Tournament,
    director: User,
    boss: APIClient,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    target = hook(receiver, tournament, director, ["result_entered"], "target")
    hook(receiver, tournament, director, list(Webhook.EVENTS), "bystander")

    with django_capture_on_commit_callbacks(execute=True):
        answer = boss.post(hooks_url(tournament, f"{target.pk}/test/"), format="json")

    assert answer.status_code == 202, answer.content
    assert answer.json()["event"] == "ping"
    assert [r.path for r in receiver.requests] == ["/target"]
    ping = receiver.requests[0]
    assert ping.signed and ping.headers["X-Preference-Event"] == "ping"
    assert ping.json()["data"] == {"webhook": target.pk, "url": receiver.url("target")}
    webhooks.webhook_update(user=director, webhook=target, is_active=False)
    refused = boss.post(hooks_url(tournament, f"{target.pk}/test/"), format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "webhook_inactive"


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"url": "https://x.example/h", "events": ["round_seated", "bogus"]}, "events", "bogus"),
        ({"url": "https://x.example/h", "events": ["ping"]}, "events", "'ping'"),
        ({"url": "https://x.example/h", "events": []}, "events", "at least one"),
        ({"url": "ftp://x.example/h", "events": ["round_seated"]}, "url", "http"),
    ],
    ids=["unknown-event", "ping-is-not-subscribable", "no-events", "ftp-url"],
)
def test_invalid_input_is_refused_with_the_shared_error_shape(
    tournament: Tournament, boss: APIClient, body: dict[str, Any], field: str, words: str
) -> None:
    answer = boss.post(hooks_url(tournament), body, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert set(error) == {"code", "message", "fields"}
    assert error["code"] == "validation_error"
    assert field in error["fields"]
    assert words in error["message"]
    if field == "events":
        assert all(name in error["message"] for name in Webhook.EVENTS)
    assert not Webhook.objects.exists()


def test_only_directors_manage_webhooks(
    receiver: Receiver, tournament: Tournament, director: User
) -> None:
    webhook = hook(receiver, tournament, director)
    delivery = one_delivery(webhook)
    paths = [
        ("get", hooks_url(tournament)),
        ("post", hooks_url(tournament)),
        ("get", hooks_url(tournament, f"{webhook.pk}/")),
        ("patch", hooks_url(tournament, f"{webhook.pk}/")),
        ("delete", hooks_url(tournament, f"{webhook.pk}/")),
        ("get", hooks_url(tournament, f"{webhook.pk}/deliveries/")),
        ("post", hooks_url(tournament, f"{webhook.pk}/deliveries/{delivery.pk}/replay/")),
        ("post", hooks_url(tournament, f"{webhook.pk}/test/")),
    ]
    body = {"url": receiver.url(), "events": ["round_seated"]}
    player = client_for(UserFactory.create(username="player"))
    anonymous = client_for(None)
    for method, url in paths:
        as_player = getattr(player, method)(url, body, format="json")
        assert as_player.status_code == 403, (method, url, as_player.content)
        assert as_player.json()["code"] == "permission_denied"
        as_nobody = getattr(anonymous, method)(url, body, format="json")
        assert as_nobody.status_code == 401, (method, url, as_nobody.content)
    # a tournament the caller cannot see does not exist for them
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    for method, url in paths:
        hidden = getattr(player, method)(url, body, format="json")
        assert hidden.status_code == 404, (method, url, hidden.content)
    assert Webhook.objects.get().events == list(Webhook.EVENTS)
    assert receiver.requests == []


def test_a_webhook_of_another_tournament_is_not_found(
    receiver: Receiver, tournament: Tournament, director: User, boss: APIClient
) -> None:
    other = Tournament.objects.create(name="Grazer Open", slug="grazer-open", status="registration")
    other.directors.add(UserFactory.create(username="someone"))
    theirs = webhooks.webhook_create(
        user=other.directors.get(), tournament=other, url=receiver.url(), events=["round_seated"]
    )
    assert boss.get(hooks_url(tournament, f"{theirs.pk}/")).status_code == 404
    assert boss.get(hooks_url(tournament, f"{theirs.pk}/deliveries/")).status_code == 404
