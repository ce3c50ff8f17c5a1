"""The reload topics (table, evening, tournament) and the notifications topic: who may
subscribe (exactly as the REST reads), the small ``update`` messages after each change, the
reload at once on a resubscription with an old version, and "your turn" / "you are seated"
with the current state on subscribing.

Changes are made through the REST API over HTTP (tasks run eagerly in the server's process),
as phones and directors make them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from clubs.live import evening_version
from clubs.models import User
from games.live import table_version
from games.models import Table
from games.random_entries import random_entry
from tests.clubs.world import build_club_world
from tests.factories import UserFactory
from tests.live.conftest import token_for
from tests.live.play import move
from tests.live.server import LiveServer, Socket, socket_to
from tests.live.worlds import RULES, hosted_table
from tournaments.live import tournament_version


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> Iterator[None]:
    """Seating, results and standings run in the server's request threads, also when the
    suite runs with a broker (CI)."""
    yield


def subscribe(sock: Socket, topic: str, **ids: Any) -> dict[str, Any]:
    sock.send({"type": "subscribe", "topic": topic, **ids})
    return sock.until(lambda m: m["type"] in ("subscribed", "error") and m.get("topic") == topic)


# ---------------------------------------------------------------------------------------------
# tournaments


def _tournament(live: LiveServer, director: User, players: list[User], **extra: Any) -> int:
    """A tournament in check-in (3 deals per round, recorded results), players checked in."""
    boss = token_for(director)
    body = {"name": "Live Open", "rules": RULES, "rounds_planned": 2, "deals_per_round": 3}
    t = live.ok("POST", "/api/v1/tournaments/", token=boss, body={**body, **extra})
    url = f"/api/v1/tournaments/{t['id']}/"
    live.ok("POST", url + "open-registration/", token=boss, body={})
    for p in players:
        live.ok("POST", url + "entries/", token=token_for(p), body={})
    live.ok("POST", url + "open-check-in/", token=boss, body={})
    for entry in live.ok("GET", url + "entries/?page_size=50", token=boss)["results"]:
        user = User.objects.get(pk=entry["user"])
        live.ok("POST", url + f"entries/{entry['id']}/check-in/", token=token_for(user), body={})
    return int(t["id"])


def test_tournament_subscribers_hear_seating_results_and_standings(live: LiveServer) -> None:
    director = UserFactory.create()
    players = [UserFactory.create() for _ in range(3)]
    tid = _tournament(live, director, players)
    url = f"/api/v1/tournaments/{tid}/"
    boss = token_for(director)
    with socket_to(live) as spectator, socket_to(live, token=token_for(players[0])) as phone:
        first = subscribe(spectator, "tournament", tournament_id=tid)
        assert first["type"] == "subscribed" and first["version"] == tournament_version(tid)
        assert subscribe(phone, "notifications")["type"] == "subscribed"
        assert phone.expect("notifications") == {
            "type": "notifications",
            "your_turn": [],
            "seated": [],
        }

        live.ok("POST", url + "rounds/", token=boss, body={})
        seated = spectator.expect("update", what="round_seated")
        assert seated["tournament_id"] == tid and seated["round"] == 1
        assert seated["version"] > first["version"]
        mine = phone.expect("notification", kind="seated")
        table_id = mine["table_id"]
        table = Table.objects.prefetch_related("seats").get(pk=table_id)
        seat = next(s for s in table.seats.all() if s.user_id == players[0].pk)
        assert mine == {
            "type": "notification",
            "kind": "seated",
            "tournament_id": tid,
            "round": 1,
            "table_id": table_id,
            "table_number": 1,
            "seat": seat.key,
        }

        live.ok("POST", url + "rounds/1/start/", token=boss, body={})
        spectator.expect("update", what="round_started")
        entry = random_entry(table, random.Random(7), 1)
        live.ok("POST", f"/api/v1/tables/{table_id}/hands/", token=boss, body=entry)
        # the worker's standings may be told before or after the result (eager here)
        got: dict[str, dict[str, Any]] = {}
        while len(got) < 2:
            update = spectator.expect("update")
            assert update["what"] in ("result_entered", "standings_changed"), update
            got[update["what"]] = update
        result, standings = got["result_entered"], got["standings_changed"]
        assert (result["round"], result["table"]) == (1, 1)
        assert standings["standings_version"] >= 1
        assert min(result["version"], standings["version"]) > seated["version"]
        assert max(result["version"], standings["version"]) == tournament_version(tid)

        # a phone that was away resubscribes with the version it had: a reload at once
        with socket_to(live) as again:
            subscribe(again, "tournament", tournament_id=tid, version=first["version"])
            reload = again.expect("update")
            assert reload["what"] == "changed"
            assert reload["version"] == tournament_version(tid)
        # one that is up to date hears nothing more
        with socket_to(live) as current:
            now = tournament_version(tid)
            subscribe(current, "tournament", tournament_id=tid, version=now)
            assert [m for m in current.quiet(0.3) if m["type"] == "update"] == []

        # and a reconnecting phone gets where it sits now
        with socket_to(live, token=token_for(players[0])) as back:
            subscribe(back, "notifications")
            assert back.expect("notifications")["seated"] == [
                {k: v for k, v in mine.items() if k != "type"}
            ]


def test_a_hidden_tournament_is_not_found_except_for_its_people(live: LiveServer) -> None:
    director = UserFactory.create()
    boss = token_for(director)
    body = {"name": "Draft", "rules": RULES, "rounds_planned": 1}
    tid = live.ok("POST", "/api/v1/tournaments/", token=boss, body=body)["id"]
    for token in (None, token_for(UserFactory.create())):
        with socket_to(live, token=token) as sock:
            answer = subscribe(sock, "tournament", tournament_id=tid)
            assert answer["type"] == "error" and answer["code"] == "not_found"
            gone = subscribe(sock, "tournament", tournament_id=10**9)
            assert gone["message"] == answer["message"]
    with socket_to(live, token=boss) as sock:
        assert subscribe(sock, "tournament", tournament_id=tid)["type"] == "subscribed"


# ---------------------------------------------------------------------------------------------
# club evenings


def test_evening_subscribers_hear_attendance_and_rounds_and_players_their_seats(
    live: LiveServer,
) -> None:
    w = build_club_world()
    e = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/"
    tokens = {role: token_for(u) for role, u in w.users.items()}
    with (
        socket_to(live, token=tokens["scorer"]) as member,
        socket_to(live, token=tokens["member"]) as phone,
    ):
        first = subscribe(member, "evening", evening_id=w.evening.pk)
        assert first["type"] == "subscribed"
        subscribe(phone, "notifications")
        phone.expect("notifications")
        versions = [first["version"]]
        for role in ("member", "scorer", "admin", "owner"):
            live.ok("POST", e + "check-ins/", token=tokens[role], body={})
            versions.append(member.expect("update", what="attendance_changed")["version"])
        live.ok("POST", e + "rounds/", token=tokens["owner"], body={"rounds_total": 1})
        versions.append(member.expect("update", what="round_planned")["version"])
        live.ok("POST", e + "rounds/1/start/", token=tokens["owner"], body={})
        versions.append(member.expect("update", what="round_started")["version"])
        assert versions == sorted(set(versions)) and versions[-1] == evening_version(w.evening.pk)
        seated = phone.expect("notification", kind="seated")
        assert seated["evening_id"] == w.evening.pk and seated["round"] == 1
        table = Table.objects.prefetch_related("seats").get(pk=seated["table_id"])
        assert seated["seat"] == next(
            s.key for s in table.seats.all() if s.user_id == w.users["member"].pk
        )
        live.ok("POST", e + "close/", token=tokens["owner"], body={})
        member.expect("update", what="closed")


def test_a_private_clubs_evening_is_not_found_for_outsiders(live: LiveServer) -> None:
    w = build_club_world()
    for token in (None, token_for(w.users["outsider"])):
        with socket_to(live, token=token) as sock:
            answer = subscribe(sock, "evening", evening_id=w.evening.pk)
            assert answer["type"] == "error" and answer["code"] == "not_found"
    w.club.is_public = True
    w.club.save(update_fields=["is_public"])
    with socket_to(live) as sock:
        assert subscribe(sock, "evening", evening_id=w.evening.pk)["type"] == "subscribed"


# ---------------------------------------------------------------------------------------------
# tables and "your turn"


def test_table_subscribers_hear_new_and_finished_hands(live: LiveServer) -> None:
    users = [UserFactory.create(username=n) for n in ("anna", "bert", "carl")]
    tokens = {u.username: token_for(u) for u in users}
    table = hosted_table(users)
    with socket_to(live, token=tokens["carl"]) as sock:
        first = subscribe(sock, "table", table_id=table.pk)
        assert first["version"] == table_version(table.pk)
        live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
        started = sock.expect("update", what="hand_started")
        assert started["number"] == 1 and started["version"] == first["version"] + 1
        while move(live, tokens, table.pk, 1) is not None:
            pass
        done = sock.expect("update", what="hands_changed")
        assert done["version"] == started["version"] + 1 == table_version(table.pk)


def test_each_player_hears_when_it_is_their_turn_and_gets_it_again_on_reconnect(
    live: LiveServer,
) -> None:
    users = [UserFactory.create(username=n) for n in ("anna", "bert", "carl")]
    tokens = {u.username: token_for(u) for u in users}
    table = hosted_table(users)
    socks: dict[str, Socket] = {}
    with (
        socket_to(live, token=tokens["anna"]) as socks["anna"],
        socket_to(live, token=tokens["bert"]) as socks["bert"],
        socket_to(live, token=tokens["carl"]) as socks["carl"],
    ):
        for sock in socks.values():
            subscribe(sock, "notifications")
            sock.expect("notifications")
        live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
        for _ in range(3):
            events = live.ok("GET", f"/api/v1/tables/{table.pk}/hands/1/events/?wait=0",
                             token=tokens["anna"])  # fmt: skip
            turn = socks[events["to_act"]].expect("notification", kind="your_turn")
            assert turn == {
                "type": "notification",
                "kind": "your_turn",
                "table_id": table.pk,
                "number": 1,
                "version": events["version"],
                "seat": events["to_act"],
            }
            assert move(live, tokens, table.pk, 1) == events["version"] + 1
        events = live.ok("GET", f"/api/v1/tables/{table.pk}/hands/1/events/?wait=0",
                         token=tokens["anna"])  # fmt: skip
        others = [n for n in socks if n != events["to_act"]]
    # the player to act reconnects: the snapshot says it is their turn; the others' is empty
    with socket_to(live, token=tokens[events["to_act"]]) as back:
        subscribe(back, "notifications")
        now = back.expect("notifications")
        assert now["your_turn"] == [
            {
                "kind": "your_turn",
                "table_id": table.pk,
                "number": 1,
                "version": events["version"],
                "seat": events["to_act"],
            }
        ]
    with socket_to(live, token=tokens[others[0]]) as other:
        subscribe(other, "notifications")
        assert other.expect("notifications")["your_turn"] == []
