"""Push notifications end to end (issue 40's "Done when"): a person registers their phones and
a browser through the API, chooses their language and how they hear of each type, and
receives, from the fake APNs, FCM and Web Push services (tests/push_fakes.py) through the real
Celery worker (PostgreSQL, Redis broker), exactly what a club evening, a tournament round and a
hosted hand should tell them: in their language, once on each device, with the documented
payload and never a card, and no "your turn" while a websocket of theirs watches the table.
Push services that answer a device as gone, or ask to be asked again later, are obeyed.

Everything a person does goes through the HTTP API, as an app does it; the tests read the
database only to see what the worker did (a row sent, a turn found watched), which they wait
for instead of sleeping.
There is no beat here: the rows due now reach the worker right after their commit. The "your
turn" delay is read where the turn comes (the request, in this process), so a test sets it
with pytest-django's ``settings`` where it wants a short one."""

from __future__ import annotations

import datetime as dt
import json
import secrets
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from clubs import outbox
from clubs.models import Notification, User
from tests.clubs.world import MEMBER_ROLES, RULES, ClubWorld, build_club_world
from tests.conftest import WorkerProcess
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.live.server import serve, socket_to
from tests.openapi import committed_schema, schema_errors
from tests.push_fakes import PushServices, wait_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: How long the worker may take for anything here: generous, since a test only waits as long
#: as the worker needs.
PATIENCE = 60.0


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json() if response.content else None


# ---------------------------------------------------------------------------------------------
# what the fakes received, as an app on the device reads it


@dataclass(frozen=True)
class Push:
    """One push message as the app on the device reads it."""

    target: str  # the device's token (APNs, FCM) or endpoint (Web Push)
    title: str
    body: str
    payload: dict[str, Any]
    collapse_id: str  # what the device shows once: a later push with the same id replaces it

    @property
    def type(self) -> str:
        return str(self.payload["type"])


def received(push: PushServices) -> list[Push]:
    """Everything the three fakes took, in the form each platform hands its app (docs/
    notifications.md, "What a push says")."""
    out = []
    for r in push.apns.received:
        alert = r.payload["aps"]["alert"]
        out.append(
            Push(
                r.target,
                alert["title"],
                alert["body"],
                r.payload["payload"],
                r.headers["apns-collapse-id"],
            )
        )
    for r in push.fcm.received:
        message = r.payload["message"]
        data = message["data"]
        payload = json.loads(data["payload"])
        # the type and the path are keys of their own too, for an app that routes on them
        assert (data["type"], data["path"]) == (payload["type"], payload["path"])
        shown = message["notification"]
        out.append(
            Push(
                r.target,
                shown["title"],
                shown["body"],
                payload,
                message["android"]["collapse_key"],
            )
        )
    for r in push.webpush.received:
        message = r.payload
        out.append(
            Push(
                r.target, message["title"], message["body"], message["payload"], r.headers["topic"]
            )
        )
    return out


def at(push: PushServices, targets: list[str], type_name: str) -> list[Push]:
    """The pushes of ``type_name`` that reached any of ``targets``."""
    wanted = set(targets)
    return [p for p in received(push) if p.target in wanted and p.type == type_name]


def one_each(push: PushServices, targets: list[str], type_name: str) -> list[Push]:
    """Wait until a push of ``type_name`` reached each of ``targets``; answers them, one per
    target in their order, failing when a target got two."""
    wait_until(
        lambda: {p.target for p in at(push, targets, type_name)} == set(targets),
        f"a {type_name} push on each of {len(targets)} devices",
        PATIENCE,
    )
    got = at(push, targets, type_name)
    assert sorted(p.target for p in got) == sorted(targets), got
    return [next(p for p in got if p.target == t) for t in targets]


def documented(pushes: list[Push]) -> dict[str, Any]:
    """The payload the ``pushes`` (one notification on several devices) share, checked against
    the schema: its type, keys and required ones; one notification id, one collapse id."""
    schema = committed_schema()["components"]["schemas"]["NotificationPayload"]
    payloads = [p.payload for p in pushes]
    assert all(p == payloads[0] for p in payloads), payloads
    payload = payloads[0]
    assert schema_errors("NotificationPayload", payload) == []
    assert set(payload) <= set(schema["properties"]), payload
    assert set(schema["required"]) <= set(payload)
    assert len({p.collapse_id for p in pushes}) == 1
    assert len({(p.title, p.body) for p in pushes}) == 1
    return payload


def nothing_twice_nothing_refused(push: PushServices) -> None:
    """No notification reached a device twice, and no service refused a request."""
    assert push.apns.refused == push.fcm.refused == push.webpush.refused == []
    twice = Counter((p.target, p.payload["notification_id"]) for p in received(push))
    assert [key for key, count in twice.items() if count > 1] == []


def all_sent(user: User) -> None:
    """Wait until the worker has sent every row of ``user`` that is due: nothing more is on its
    way to their devices."""
    wait_until(
        lambda: (
            not Notification.objects.filter(
                user=user, due_at__lte=timezone.now(), sent_at__isnull=True
            ).exists()
        ),
        f"the worker to send everything due to {user.username}",
        PATIENCE,
    )


# ---------------------------------------------------------------------------------------------
# what an app does


@dataclass(frozen=True)
class Devices:
    """A person's iPhone, Android phone and browser: each one's address at its service."""

    apns: str
    fcm: str
    webpush: str

    @property
    def all(self) -> list[str]:
        return [self.apns, self.fcm, self.webpush]


def register_devices(api: APIClient, push: PushServices) -> Devices:
    """Register an iPhone, an Android phone and a browser, as their apps do: the phones with
    their push tokens, the browser with a subscription made with the server's Web Push key."""
    key = ok(APIClient().get("/api/v1/push/web-push-key/"))["public_key"]
    assert key == push.vapid_public_key
    endpoint, p256dh, auth = push.webpush.subscribe(key)
    devices = Devices(
        apns=secrets.token_hex(32), fcm=f"fcm:{secrets.token_urlsafe(60)}", webpush=endpoint
    )
    bodies = [
        {"kind": "apns", "token": devices.apns, "name": "iPhone"},
        {"kind": "fcm", "token": devices.fcm, "name": "Pixel"},
        {
            "kind": "webpush",
            "token": devices.webpush,
            "keys": {"p256dh": p256dh, "auth": auth},
            "name": "Firefox",
        },
    ]
    for body in bodies:
        ok(api.post("/api/v1/me/devices/", body, format="json"), 201)
    listed = ok(api.get("/api/v1/me/devices/"))["results"]
    assert sorted(d["token"] for d in listed) == sorted(devices.all)
    return devices


def choose(api: APIClient, **changes: Any) -> dict[str, Any]:
    """``PATCH /api/v1/me/``: answers the new profile."""
    me: dict[str, Any] = ok(api.patch("/api/v1/me/", changes, format="json"))
    return me


def inbox(api: APIClient) -> dict[int, dict[str, Any]]:
    return {item["id"]: item for item in ok(api.get("/api/v1/me/inbox/"))}


# ---------------------------------------------------------------------------------------------
# 1. a club evening


def test_a_club_evening_seats_and_reminds_a_person_on_each_device_in_german(
    celery_worker_process: WorkerProcess, push: PushServices
) -> None:
    assert not django_settings.CELERY_TASK_ALWAYS_EAGER
    w: ClubWorld = build_club_world()
    person = w.users["member"]
    anna = w.client("member")
    devices = register_devices(anna, push)
    me = choose(
        anna,
        language="de",
        notifications=[
            {"type": "round_starts", "offset_minutes": 30},
            {"type": "rsvp_closes", "channel": "off", "offset_minutes": 60},
        ],
    )
    assert me["language"] == "de"
    mine = {n["type"]: n for n in me["notifications"]}
    assert (mine["round_starts"]["channel"], mine["round_starts"]["offset_minutes"]) == ("push", 30)
    assert (mine["rsvp_closes"]["channel"], mine["rsvp_closes"]["offset_minutes"]) == ("off", 60)

    # the evening: four members answer and check in, the admin checks in two guests, and the
    # first round is seated and started
    admin = w.client("admin")
    club = f"/api/v1/clubs/{w.club.pk}/"
    evening = f"{club}evenings/{w.evening.pk}/"
    for role in MEMBER_ROLES:
        ok(w.client(role).put(evening + "attendance/", {"answer": "yes"}, format="json"))
        ok(w.client(role).post(evening + "check-ins/", {}, format="json"), 201)
    for name in ("Gustav", "Helga"):
        ok(admin.post(evening + "check-ins/", {"guest_name": name}, format="json"), 201)
    ok(admin.post(evening + "rounds/", {"rounds_total": 2}, format="json"), 201)
    ok(admin.post(evening + "rounds/1/start/"))

    seated = one_each(push, devices.all, "seated")
    payload = documented(seated)
    # where the app shows the person's seat (docs/mobile.md, "My table and seat")
    (table,) = ok(anna.get("/api/v1/me/tables/"))["results"]
    others = [name for i, name in enumerate(table["players"]) if i != table["position"]]
    assert payload == {
        "type": "seated",
        "path": f"/api/v1/tables/{table['table_id']}/",
        "notification_id": payload["notification_id"],
        "club_id": w.club.pk,
        "evening_id": w.evening.pk,
        "round": 1,
        "table_id": table["table_id"],
    }
    assert seated[0].title == "Du sitzt: Clubabend"
    assert seated[0].body == (
        f"Runde 1, Tisch {table['table_number']}, Sitz {table['position'] + 1}, "
        f"mit {others[0]} und {others[1]}."
    )
    # the deep link opens the table, and the inbox lists what was pushed, in German
    ok(anna.get(payload["path"]))
    item = inbox(anna)[payload["notification_id"]]
    assert (item["type"], item["channel"], item["payload"]) == ("seated", "push", payload)
    assert (item["title"], item["body"]) == (seated[0].title, seated[0].body)

    # an evening in twenty minutes: the person's reminder half an hour before is due at once,
    # and the worker sends it as soon as they answer yes; the scorer's, ten minutes before
    # (the default), waits
    starts = timezone.now() + dt.timedelta(minutes=20)
    soon = ok(
        w.client("owner").post(
            club + "evenings/",
            {
                "title": "Dienstagsrunde",
                "starts_at": starts.isoformat(),
                "ends_at": (starts + dt.timedelta(hours=4)).isoformat(),
            },
            format="json",
        ),
        201,
    )
    soon_url = f"{club}evenings/{soon['id']}/"
    # its answers close an hour before it by the person's choice, forty minutes ago: that
    # reminder is due at once, and the worker sends it nowhere, since they turned it off
    closes = Notification.objects.filter(
        user=person, type="rsvp_closes", key=f"evening:{soon['id']}", sent_at__isnull=False
    )
    wait_until(closes.exists, "the worker to take the answers' reminder", PATIENCE)
    assert closes.get().outcome == Notification.Outcome.OFF
    ok(anna.put(soon_url + "attendance/", {"answer": "yes"}, format="json"))
    ok(w.client("scorer").put(soon_url + "attendance/", {"answer": "yes"}, format="json"))
    reminders = one_each(push, devices.all, "round_starts")
    payload = documented(reminders)
    assert payload == {
        "type": "round_starts",
        "path": f"/api/v1/clubs/{w.club.pk}/evenings/{soon['id']}/",
        "notification_id": payload["notification_id"],
        "club_id": w.club.pk,
        "evening_id": soon["id"],
    }
    assert reminders[0].title == "Dienstagsrunde beginnt bald"
    assert reminders[0].body in {f"Dienstagsrunde beginnt in {m} Minuten." for m in (19, 20)}
    waiting = Notification.objects.get(
        user=w.users["scorer"], type="round_starts", key=f"evening:{soon['id']}"
    )
    assert waiting.sent_at is None and waiting.due_at > timezone.now()

    all_sent(person)
    for device in devices.all:
        assert [p.type for p in received(push) if p.target == device] == ["seated", "round_starts"]
    nothing_twice_nothing_refused(push)


# ---------------------------------------------------------------------------------------------
# 2. a tournament round


def test_a_tournament_round_seated_by_the_worker_tells_each_entrant_on_their_devices(
    celery_worker_process: WorkerProcess, push: PushServices
) -> None:
    people = [
        UserFactory.create(username=n) for n in ("anna", "bert", "carl", "dora", "emil", "fritz")
    ]
    anna, bert = client_for(people[0]), client_for(people[1])
    annas = register_devices(anna, push)
    choose(anna, language="de")
    berts = ok(
        bert.post(
            "/api/v1/me/devices/",
            {"kind": "fcm", "token": f"fcm:{secrets.token_urlsafe(40)}"},
            format="json",
        ),
        201,
    )["token"]  # bert keeps the server's language, English
    director = client_for(UserFactory.create(username="td"))
    t = ok(
        director.post(
            "/api/v1/tournaments/",
            {
                "name": "Frühjahrsturnier",
                "rules": RULES,
                "rounds_planned": 2,
                "deals_per_round": 12,
            },
            format="json",
        ),
        201,
    )
    url = f"/api/v1/tournaments/{t['id']}/"
    ok(director.post(url + "open-registration/", format="json"))
    entries = [ok(client_for(p).post(url + "entries/", {}, format="json"), 201) for p in people]
    ok(director.post(url + "open-check-in/", format="json"))
    for player, entry in zip(people, entries, strict=True):
        ok(client_for(player).post(f"{url}entries/{entry['id']}/check-in/", format="json"))
    ok(director.post(url + "rounds/", {}, format="json"), 202)  # the worker seats it

    # the worker seats the round and tells everyone seated; anna on three devices in German,
    # bert on his one in English, the others (no device) nowhere
    for client, targets, title, body in (
        (
            anna,
            annas.all,
            "Du sitzt: Frühjahrsturnier",
            "Runde 1, Tisch {number}, Sitz {seat}, mit {first} und {second}.",
        ),
        (
            bert,
            [berts],
            "You are seated: Frühjahrsturnier",
            "Round 1, table {number}, seat {seat}, with {first} and {second}.",
        ),
    ):
        seated = one_each(push, targets, "seated")
        payload = documented(seated)
        mine = ok(client.get(url + "me/"))  # "my tournament": where the app shows the seat
        table = mine["next_table"]
        seat = next(p["position"] for p in table["players"] if p["seat"] == mine["next_seat"])
        assert payload == {
            "type": "seated",
            "path": f"{url}rounds/1/",
            "notification_id": payload["notification_id"],
            "tournament_id": t["id"],
            "round": 1,
            "table_id": table["table"],
        }
        # the opponents as the app shows them to this person: an open tournament of no club
        # shows the names only of those who agreed (none here), pseudonyms for the others
        others = [p["display_name"] for p in table["players"] if p["seat"] != mine["next_seat"]]
        assert seated[0].title == title
        assert seated[0].body == body.format(
            number=table["number"], seat=seat + 1, first=others[0], second=others[1]
        )
        assert not {p.username for p in people} & set(seated[0].body.replace(".", "").split())
        ok(client.get(payload["path"]))
        assert inbox(client)[payload["notification_id"]]["channel"] == "push"
    told = Notification.objects.filter(type="seated", payload__tournament_id=t["id"])
    assert sorted(told.values_list("user_id", flat=True)) == sorted(p.pk for p in people)
    for person in people:
        all_sent(person)
    assert {
        n.user_id: n.outcome for n in told if n.user_id not in (people[0].pk, people[1].pk)
    } == {p.pk: Notification.Outcome.NO_TARGET for p in people[2:]}
    for device in [*annas.all, berts]:
        assert [p.type for p in received(push) if p.target == device] == ["seated"]
    nothing_twice_nothing_refused(push)


# ---------------------------------------------------------------------------------------------
# 3. a hosted hand


class HostedHand:
    """Hand 1 of a hosted table, played through the API by the apps of the people seated."""

    def __init__(self, table_id: int, clients: dict[str, APIClient]) -> None:
        self.clients = clients
        self.base = f"/api/v1/tables/{table_id}/hands/1/"

    def view(self, seat: str) -> dict[str, Any]:
        view: dict[str, Any] = ok(self.clients[seat].get(self.base + "view/"))
        return view

    def to_act(self) -> str:
        return str(self.view(next(iter(self.clients)))["to_act"])

    def act(self, seat: str) -> None:
        """``seat`` moves: in the auction the first call is 1 and every other one a pass (so
        that the hand is played), after it the first legal move."""
        view = self.view(seat)
        legal = view["legal"]
        if view["phase"] == "auction":
            wanted = {"call": "1"} if view["version"] == 0 else {"call": "pass"}
            move = next(a for a in legal if a == wanted)
        else:
            move = legal[0]
        body = {"action": move, "expected_version": view["version"]}
        ok(self.clients[seat].post(self.base + "actions/", body, format="json"))

    def others_until_turn_of(self, seat: str) -> None:
        """The other seats move until the hand waits for ``seat``."""
        while (acting := self.to_act()) != seat:
            self.act(acting)

    def cards(self) -> set[str]:
        """Every card a seat holds now, as each seat's own view shows its hand."""
        return {card for seat in self.clients for card in self.view(seat)["hand"]}


def turn_row(user: User, table_id: int) -> Notification | None:
    return Notification.objects.filter(user=user, type="your_turn", key=f"table:{table_id}").first()


def test_a_hosted_hand_pushes_your_turn_only_while_the_person_is_away(
    celery_worker_process: WorkerProcess, push: PushServices, settings: Settings
) -> None:
    w = build_club_world()
    person = w.users["member"]
    anna = w.client("member")
    devices = register_devices(anna, push)
    choose(anna, language="de")
    seats = ("scorer", "member", "admin")  # the admin deals hand 1: the scorer leads
    table_id = ok(
        anna.post(
            "/api/v1/tables/",
            {
                "name": "Stammtisch",
                "mode": "hosted",
                "rules": RULES,
                "club": w.club.pk,
                "seats": [{"key": s, "kind": "user", "user": w.users[s].pk} for s in seats],
                "first_dealer": "admin",
            },
            format="json",
        ),
        201,
    )["id"]
    hand = HostedHand(table_id, {s: w.client(s) for s in seats})
    ok(anna.post(f"/api/v1/tables/{table_id}/hands/", format="json"), 201)

    # away: the turn comes, and a second later each device hears of it
    settings.NOTIFICATION_YOUR_TURN_DELAY_SECONDS = 1.0
    before = timezone.now()
    hand.others_until_turn_of("member")
    turns = one_each(push, devices.all, "your_turn")
    payload = documented(turns)
    assert payload == {
        "type": "your_turn",
        "path": f"/api/v1/tables/{table_id}/hands/1/",
        "notification_id": payload["notification_id"],
        "table_id": table_id,
        "number": 1,
    }
    assert (turns[0].title, turns[0].body) == ("Du bist dran", "Du bist an Stammtisch am Zug.")
    assert turns[0].collapse_id == "your_turn"  # one "your turn" on the phone, the newest
    words = {w for p in turns for w in f"{p.title} {p.body}".replace(".", " ").split()}
    assert not words & hand.cards()  # where, never what
    sent = Notification.objects.get(pk=payload["notification_id"])
    assert sent.sent_at is not None and sent.sent_at >= before + dt.timedelta(seconds=1)
    assert inbox(anna)[sent.pk]["channel"] == "push"
    hand.act("member")  # taking the turn withdraws it
    assert turn_row(person, table_id) is None and sent.pk not in inbox(anna)

    # a turn taken within the delay (ten seconds, the default) is never sent
    settings.NOTIFICATION_YOUR_TURN_DELAY_SECONDS = 10.0
    hand.others_until_turn_of("member")
    taken = turn_row(person, table_id)
    assert taken is not None and taken.sent_at is None
    hand.act("member")
    assert turn_row(person, table_id) is None

    # watching: a socket subscribed to the hand at the person's seat keeps the push away,
    # and tells the app itself
    with serve() as live, socket_to(live, token=str(AccessToken.for_user(person))) as sock:
        sock.send({"type": "subscribe", "topic": "notifications"})
        sock.expect("notifications")
        sock.send({"type": "subscribe", "topic": "hand", "table_id": table_id, "number": 1})
        sock.expect("subscribed", topic="hand")
        wait_until(lambda: outbox.watching(person.pk, table_id), "the socket to watch", PATIENCE)
        hand.others_until_turn_of("member")
        version = hand.view("member")["version"]
        sock.expect("notification", kind="your_turn", version=version)
        # its delivery, due ten seconds after the turn taken above, has run by now too
        wait_until(
            lambda: (
                (row := turn_row(person, table_id)) is not None
                and row.outcome == Notification.Outcome.WATCHING
            ),
            "the worker to find the person watching",
            PATIENCE,
        )
        assert len(at(push, devices.all, "your_turn")) == 3  # the first turn's, no more
        hand.act("member")
    wait_until(lambda: not outbox.watching(person.pk, table_id), "the socket to go", PATIENCE)

    # away again: the next turn is pushed
    settings.NOTIFICATION_YOUR_TURN_DELAY_SECONDS = 1.0
    hand.others_until_turn_of("member")
    wait_until(
        lambda: len(at(push, devices.all, "your_turn")) == 6, "the next turn's pushes", PATIENCE
    )
    again = [p for p in at(push, devices.all, "your_turn") if p.payload != payload]
    assert sorted(p.target for p in again) == sorted(devices.all)
    assert documented(again)["notification_id"] != payload["notification_id"]
    assert again[0].body == "Du bist an Stammtisch am Zug."
    all_sent(person)
    for device in devices.all:
        assert [p.type for p in received(push) if p.target == device] == ["your_turn"] * 2
    nothing_twice_nothing_refused(push)


# ---------------------------------------------------------------------------------------------
# 4. push services that answer a device as gone, or ask to wait


def test_a_gone_device_is_forgotten_and_a_busy_service_is_asked_again_once(
    celery_worker_process: WorkerProcess, push: PushServices
) -> None:
    w = build_club_world(public=True)
    admin = w.client("admin")  # told of each request to join the club
    devices = register_devices(admin, push)
    push.apns.answer(devices.apns, 410, reason="Unregistered")
    push.fcm.answer(devices.fcm, 404, reason="UNREGISTERED")
    push.webpush.answer(devices.webpush, 429, retry_after=1)

    club = f"/api/v1/clubs/{w.club.pk}/"
    retries = celery_worker_process.log().count("clubs.tasks.push_again[")
    ok(w.client("outsider").post(club + "join-requests/", {}, format="json"), 201)
    (request,) = one_each(push, [devices.webpush], "join_request")
    payload = documented([request])
    assert payload == {
        "type": "join_request",
        "path": f"{club}join-requests/",
        "notification_id": payload["notification_id"],
        "club_id": w.club.pk,
    }
    assert (request.title, request.body) == (
        "A request to join Wiener Runde",
        "Outsider asks to join Wiener Runde.",
    )
    assert push.webpush.answered == [(devices.webpush, 429)]
    assert celery_worker_process.log().count("clubs.tasks.push_again[") > retries
    assert push.apns.answered == [(devices.apns, 410)]
    assert push.fcm.answered == [(devices.fcm, 404)]
    assert push.apns.received == push.fcm.received == []
    wait_until(
        lambda: (
            [d["token"] for d in ok(admin.get("/api/v1/me/devices/"))["results"]]
            == [devices.webpush]
        ),
        "the gone devices to be forgotten",
        PATIENCE,
    )
    assert inbox(admin)[payload["notification_id"]]["channel"] == "push"

    # the next request reaches the browser alone, at once: nothing asks the gone devices
    newcomer = client_for(UserFactory.create(username="newcomer"))
    ok(newcomer.post(club + "join-requests/", {}, format="json"), 201)
    wait_until(
        lambda: len(at(push, [devices.webpush], "join_request")) == 2,
        "the second request",
        PATIENCE,
    )
    assert push.apns.answered == [(devices.apns, 410)] and push.fcm.answered == [(devices.fcm, 404)]
    assert push.apns.received == push.fcm.received == []
    assert len(push.webpush.answered) == 1
    all_sent(w.users["admin"])
    nothing_twice_nothing_refused(push)
