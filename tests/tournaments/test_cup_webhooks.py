"""A cup's webhooks: the same machinery as a tournament's (tests/tournaments/test_webhooks.py),
against the same local receiver that checks every signature. A cup's webhooks subscribe to
the cup's events only, its envelope names the cup, its commands are in the cup's log, and its
directors (and its club's owners and admins) alone manage them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from clubs.models import Club, Membership, User
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments import test_webhooks
from tests.tournaments.test_webhooks import Receiver
from tournaments import webhooks
from tournaments.models import Cup, CupLogEntry, Delivery, LogEntry, Tournament, Webhook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks", "local_receiver")]

Capture = Callable[..., Any]
receiver = test_webhooks.receiver
local_receiver = test_webhooks.local_receiver


@pytest.fixture
def director() -> User:
    return UserFactory.create(username="director")


@pytest.fixture
def cup(director: User) -> Cup:
    c = Cup.objects.create(
        name="Tarock-Cup", slug="tarock-cup", status=Cup.Status.RUNNING, policy={}
    )
    c.directors.add(director)
    return c


@pytest.fixture
def boss(director: User) -> APIClient:
    return client_for(director)


def hooks_url(c: Cup, rest: str = "") -> str:
    return f"/api/v1/cups/{c.pk}/webhooks/{rest}"


def hook(
    receiver: Receiver,
    c: Cup,
    director: User,
    events: list[str] | None = None,
    name: str = "hook",
) -> Webhook:
    """A webhook of the cup at the receiver's ``/name``, its secret known to the receiver."""
    created = webhooks.webhook_create(
        user=director, cup=c, url=receiver.url(name), events=events or list(Webhook.CUP_EVENTS)
    )
    receiver.expect(created, name)
    return created


# ---------------------------------------------------------------------------------------------
# emitting


def test_emit_cup_sends_one_signed_delivery_per_subscribed_webhook_after_commit(
    receiver: Receiver, cup: Cup, director: User, django_capture_on_commit_callbacks: Capture
) -> None:
    first = hook(receiver, cup, director, ["cup_standings_changed"], "first")
    second = hook(receiver, cup, director, list(Webhook.CUP_EVENTS), "second")
    hook(receiver, cup, director, ["cup_finished"], "other-event")
    off = hook(receiver, cup, director, ["cup_standings_changed"], "inactive")
    webhooks.webhook_update(user=director, webhook=off, is_active=False)
    other = Cup.objects.create(name="Kärntner Cup", slug="kaernten", policy={})
    hook(receiver, other, webhooks_director(other), ["cup_standings_changed"], "other-cup")
    data = {"version": 3, "computed_at": "2027-03-13T14:05:09+00:00"}

    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        webhooks.emit_cup(cup_id=cup.pk, event="cup_standings_changed", data=data)
        assert receiver.requests == [], "nothing is sent before the commit"

    assert len(callbacks) == 2
    assert sorted(r.path for r in receiver.requests) == ["/first", "/second"]
    for got, webhook in zip(
        sorted(receiver.requests, key=lambda r: r.path), (first, second), strict=True
    ):
        assert got.signed
        assert got.headers["X-Preference-Event"] == "cup_standings_changed"
        envelope = got.json()
        assert set(envelope) == {"id", "event", "cup", "created_at", "data"}
        assert envelope["cup"] == cup.pk
        assert envelope["event"] == "cup_standings_changed"
        assert envelope["data"] == data
        delivery = Delivery.objects.get(webhook=webhook)
        assert envelope["id"] == got.headers["X-Preference-Delivery"] == str(delivery.pk)
        assert delivery.status == Delivery.Status.DELIVERED
    assert Delivery.objects.count() == 2


def webhooks_director(c: Cup) -> User:
    boss = UserFactory.create(username=f"boss-of-{c.slug}")
    c.directors.add(boss)
    return boss


def test_a_rolled_back_cup_command_sends_nothing(
    receiver: Receiver, cup: Cup, director: User, django_capture_on_commit_callbacks: Capture
) -> None:
    hook(receiver, cup, director)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        webhooks.emit_cup(cup_id=cup.pk, event="cup_finished", data={"winner": 1})
        raise RuntimeError("the command failed")
    assert receiver.requests == []
    assert not Delivery.objects.exists()


def test_emit_cup_takes_only_the_cups_events(cup: Cup) -> None:
    with pytest.raises(ValueError, match="standings_changed"):
        webhooks.emit_cup(cup_id=cup.pk, event="standings_changed", data={})
    with pytest.raises(ValueError, match="cup_finished"):
        webhooks.emit(tournament_id=1, event="cup_finished", data={})


# ---------------------------------------------------------------------------------------------
# the API


def test_a_director_creates_lists_changes_pings_and_deletes_cup_webhooks(
    receiver: Receiver, cup: Cup, boss: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    body = {"url": receiver.url(), "events": ["cup_standings_changed"]}
    created = boss.post(hooks_url(cup), body, format="json")
    assert created.status_code == 201, created.content
    made = created.json()
    assert made["cup"] == cup.pk and "tournament" not in made
    assert len(made["secret"]) == 64
    receiver.expect(made)
    one = hooks_url(cup, f"{made['id']}/")

    listed = boss.get(hooks_url(cup)).json()["results"]
    assert [w["id"] for w in listed] == [made["id"]] and "secret" not in listed[0]
    changed = boss.patch(one, {"events": ["cup_finished"]}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["events"] == ["cup_finished"]

    with django_capture_on_commit_callbacks(execute=True):
        pinged = boss.post(one + "test/", format="json")
    assert pinged.status_code == 202, pinged.content
    assert pinged.json()["event"] == "ping"
    (ping,) = receiver.requests
    assert ping.signed and ping.json()["cup"] == cup.pk
    assert ping.json()["data"] == {"webhook": made["id"], "url": receiver.url()}
    deliveries = boss.get(one + "deliveries/").json()["results"]
    assert [d["payload"]["cup"] for d in deliveries] == [cup.pk]
    with django_capture_on_commit_callbacks(execute=True):
        replayed = boss.post(one + f"deliveries/{deliveries[0]['id']}/replay/", format="json")
    assert replayed.status_code == 202, replayed.content
    assert len(receiver.requests) == 2
    rotated = boss.post(one + "rotate-secret/", format="json")
    assert rotated.status_code == 200 and rotated.json()["secret"] != made["secret"]

    assert boss.delete(one).status_code == 204
    assert boss.get(one).status_code == 404
    actions = list(CupLogEntry.objects.filter(cup=cup).values_list("action", flat=True))
    assert actions == [
        "webhook_create",
        "webhook_update",
        "webhook_test",
        "webhook_replay",
        "webhook_rotate_secret",
        "webhook_delete",
    ]
    assert not LogEntry.objects.exists()
    assert all("secret" not in json.dumps(e.detail) for e in CupLogEntry.objects.all())


@pytest.mark.parametrize(
    ("events", "words"),
    [
        (["cup_finished", "standings_changed"], "'standings_changed'"),
        (["ping"], "'ping'"),
        ([], "at least one"),
    ],
    ids=["a-tournament-event", "ping-is-not-subscribable", "no-events"],
)
def test_a_cup_webhook_takes_only_the_cups_events(
    cup: Cup, boss: APIClient, events: list[str], words: str
) -> None:
    answer = boss.post(hooks_url(cup), {"url": "https://x.example/h", "events": events})
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert error["code"] == "validation_error" and "events" in error["fields"]
    assert words in error["message"]
    # the allowed ones named are the cup's
    assert error["message"].endswith(": cup_standings_changed, cup_finished.") or error[
        "message"
    ].endswith("choose from cup_standings_changed, cup_finished.")
    assert not Webhook.objects.exists()


def test_a_tournament_webhook_takes_no_cup_event(director: User) -> None:
    t = Tournament.objects.create(name="Wiener Open", slug="wiener-open", status="registration")
    t.directors.add(director)
    answer = client_for(director).post(
        f"/api/v1/tournaments/{t.pk}/webhooks/",
        {"url": "https://x.example/h", "events": ["cup_finished"]},
        format="json",
    )
    assert answer.status_code == 400
    assert "'cup_finished' is not an event" in answer.json()["message"]


def test_only_the_cups_directors_and_its_clubs_managers_manage_its_webhooks(
    receiver: Receiver, cup: Cup, director: User
) -> None:
    webhook = hook(receiver, cup, director)
    with transaction.atomic():
        webhooks.emit_cup(cup_id=cup.pk, event="cup_finished", data={})
    delivery = Delivery.objects.get()
    paths = [
        ("get", hooks_url(cup)),
        ("post", hooks_url(cup)),
        ("get", hooks_url(cup, f"{webhook.pk}/")),
        ("patch", hooks_url(cup, f"{webhook.pk}/")),
        ("get", hooks_url(cup, f"{webhook.pk}/deliveries/")),
        ("post", hooks_url(cup, f"{webhook.pk}/deliveries/{delivery.pk}/replay/")),
        ("post", hooks_url(cup, f"{webhook.pk}/rotate-secret/")),
        ("delete", hooks_url(cup, f"{webhook.pk}/")),
    ]
    body = {"url": receiver.url(), "events": ["cup_finished"]}
    someone = client_for(UserFactory.create(username="someone"))
    anonymous = client_for(None)
    for method, url in paths:
        seen = getattr(someone, method)(url, body, format="json")
        assert seen.status_code == 403, (method, url, seen.content)
        assert seen.json()["code"] == "permission_denied"
        assert getattr(anonymous, method)(url, body, format="json").status_code == 401
    # a cup the caller cannot see (a draft, or not public) does not exist for them
    for hidden in ({"status": Cup.Status.DRAFT}, {"is_public": False}):
        Cup.objects.filter(pk=cup.pk).update(**{"status": "running", "is_public": True, **hidden})
        for method, url in paths:
            answer = getattr(someone, method)(url, body, format="json")
            assert answer.status_code == 404, (hidden, method, url, answer.content)
            assert answer.json()["code"] == "not_found"
            assert getattr(anonymous, method)(url, body, format="json").status_code == 401
    missing = client_for(director).get(f"/api/v1/cups/{cup.pk + 1000}/webhooks/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert Webhook.objects.get().events == list(Webhook.CUP_EVENTS)
    # the owners and admins of the cup's club run it too (a draft as well)
    club = Club.objects.create(name="Tarockrunde", slug="tarockrunde")
    admin = UserFactory.create(username="admin")
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    Cup.objects.filter(pk=cup.pk).update(club=club)
    managed = client_for(admin)
    assert managed.get(hooks_url(cup)).status_code == 200
    assert managed.post(hooks_url(cup), body, format="json").status_code == 201
    for method, url in paths:
        assert getattr(managed, method)(url, body, format="json").status_code < 300, (method, url)


def test_a_webhook_of_another_cup_or_of_a_tournament_is_not_found(
    receiver: Receiver, cup: Cup, director: User, boss: APIClient
) -> None:
    other = Cup.objects.create(name="Kärntner Cup", slug="kaernten", policy={})
    theirs = hook(receiver, other, webhooks_director(other), name="theirs")
    t = Tournament.objects.create(name="Wiener Open", slug="wiener-open", status="registration")
    t.directors.add(director)
    mine = webhooks.webhook_create(
        user=director, tournament=t, url=receiver.url(), events=["round_seated"]
    )
    for webhook in (theirs, mine):
        assert boss.get(hooks_url(cup, f"{webhook.pk}/")).status_code == 404
        assert boss.get(hooks_url(cup, f"{webhook.pk}/deliveries/")).status_code == 404
    # and a cup's webhook is not one of the tournament's
    ours = hook(receiver, cup, director)
    answer = boss.get(f"/api/v1/tournaments/{t.pk}/webhooks/{ours.pk}/")
    assert answer.status_code == 404
