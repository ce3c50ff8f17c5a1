"""The hand topic: the events of ``GET …/events/`` rendered for the caller's seat, with the
hidden-information sweep extended to the socket, and resuming after a reconnect.

A hosted hand is played to its end through the REST API over HTTP while sockets of two seated
players and an anonymous spectator listen. Every events message must show only cards the
engine's own view (``engine.view``) shows that listener at the message's version; no other
message may carry a card at all.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine.cards import PIQUET
from games import services
from games.models import Hand
from tests.cards import cards_in
from tests.factories import UserFactory
from tests.games.test_hidden_information import cards_in_text
from tests.live.conftest import token_for
from tests.live.play import move
from tests.live.server import LiveServer, Socket, socket_to
from tests.live.worlds import hosted_table


def _players() -> tuple[dict[str, Any], dict[str, str]]:
    users = {n: UserFactory.create(username=n) for n in ("anna", "bert", "carl")}
    return users, {n: token_for(u) for n, u in users.items()}


def _subscribe(sock: Socket, table_id: int, number: int, after: int = 0) -> dict[str, Any]:
    sock.send(
        {"type": "subscribe", "topic": "hand", "table_id": table_id, "number": number,
         "after": after}
    )  # fmt: skip
    subscribed = sock.expect("subscribed", topic="hand")
    sock.expect("events", table_id=table_id, number=number)
    return subscribed


def _versions(sock: Socket) -> list[int]:
    return [e["version"] for m in sock.seen if m["type"] == "events" for e in m["events"]]


def _wait_for(socks: list[Socket], version: int) -> None:
    for sock in socks:
        if version not in _versions(sock):
            sock.until(lambda m: m["type"] == "events" and m["version"] >= version)


def test_no_socket_ever_shows_a_card_its_listener_may_not_see(live: LiveServer) -> None:
    users, tokens = _players()
    table = hosted_table(list(users.values()), public=True)
    live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
    listeners = {"anna": "anna", "bert": "bert", "spectator": None}
    with (
        socket_to(live, token=tokens["anna"]) as anna,
        socket_to(live, token=tokens["bert"]) as bert,
        socket_to(live) as spectator,
    ):
        socks = {"anna": anna, "bert": bert, "spectator": spectator}
        for sock in socks.values():
            _subscribe(sock, table.pk, 1)
        moves = 0
        while (version := move(live, tokens, table.pk, 1)) is not None:
            moves += 1
            _wait_for(list(socks.values()), version)
        hand = Hand.objects.get(table=table, number=1)
        assert hand.status == Hand.Status.DONE and moves == hand.version > 10
        record = services.hand_record_json(table, hand)
        hidden_seen: dict[str, set[str]] = {}
        for name, sock in socks.items():
            seat = listeners[name]
            assert _versions(sock) == list(range(1, hand.version + 1)), name
            for message in sock.seen:
                if message["type"] != "events":
                    assert not cards_in_text(json.dumps(message)), (name, message)
                    continue
                state = engine.replay(
                    {**record, "actions": record["actions"][: message["version"]]}
                )
                allowed = cards_in(engine.view(state, seat), PIQUET.codes)
                shown = cards_in(message, PIQUET.codes)
                assert shown <= allowed, (name, message["version"], shown - allowed)
                if not state.is_over:
                    hidden_seen.setdefault(name, set()).update(shown)
        # the sweep is not empty: seats saw cards, and nobody saw the talon before it was taken
        talon = set(hand.deal["talon"])
        assert hidden_seen["anna"] and hidden_seen["bert"]
        assert not talon & hidden_seen["spectator"] - _played(record)


def _played(record: dict[str, Any]) -> set[str]:
    return {a["card"] for a in record["actions"] if "card" in a}


def test_an_outsider_gets_not_found_for_a_private_hand_and_its_table(live: LiveServer) -> None:
    users, tokens = _players()
    table = hosted_table(list(users.values()))
    live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
    outsider = token_for(UserFactory.create())
    for token in (outsider, None):
        with socket_to(live, token=token) as sock:
            sock.send({"type": "subscribe", "topic": "hand", "table_id": table.pk, "number": 1})
            error = sock.expect("error")
            assert error == {
                "type": "error",
                "code": "not_found",
                "message": error["message"],
                "topic": "hand",
                "table_id": table.pk,
                "number": 1,
            }
            # a table that does not exist answers the same: existence is not revealed
            sock.send({"type": "subscribe", "topic": "hand", "table_id": 10**9, "number": 1})
            assert sock.expect("error")["message"] == error["message"]
            sock.send({"type": "subscribe", "topic": "table", "table_id": table.pk})
            assert sock.expect("error")["code"] == "not_found"
    with socket_to(live, token=tokens["carl"]) as carl:
        assert _subscribe(carl, table.pk, 1)["version"] == 0


def test_after_beyond_the_hand_is_an_error(live: LiveServer) -> None:
    users, tokens = _players()
    table = hosted_table(list(users.values()))
    live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
    with socket_to(live, token=tokens["anna"]) as sock:
        sock.send(
            {"type": "subscribe", "topic": "hand", "table_id": table.pk, "number": 1, "after": 5}
        )
        error = sock.expect("error")
        assert error["code"] == "invalid" and "version 0" in error["message"]


def test_a_reconnecting_client_resumes_without_gap_or_duplicate(live: LiveServer) -> None:
    users, tokens = _players()
    table = hosted_table(list(users.values()))
    live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
    with socket_to(live, token=tokens["anna"]) as first:
        _subscribe(first, table.pk, 1)
        for _ in range(3):
            version = move(live, tokens, table.pk, 1)
            assert version is not None
            _wait_for([first], version)
    last = max(_versions(first))
    for _ in range(3):  # moves while the phone is away
        assert move(live, tokens, table.pk, 1) is not None
    with socket_to(live, token=tokens["anna"]) as again:
        subscribed = _subscribe(again, table.pk, 1, after=last)
        assert subscribed["version"] == last + 3
        for _ in range(3):
            version = move(live, tokens, table.pk, 1)
            assert version is not None
            _wait_for([again], version)
        assert again.quiet(0.3) == [] or all(m["type"] != "events" for m in again.seen[-1:])
        versions = _versions(first) + _versions(again)
        assert versions == list(range(1, last + 7))


def test_a_spectator_whose_access_ends_stops_hearing_the_hand(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.live import consumer

    monkeypatch.setattr(consumer, "RECHECK_SECONDS", 0.0)  # check with every move
    users, tokens = _players()
    table = hosted_table(list(users.values()), public=True)
    live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
    with socket_to(live) as spectator:
        _subscribe(spectator, table.pk, 1)
        version = move(live, tokens, table.pk, 1)
        assert version is not None
        _wait_for([spectator], version)
        table.is_public = False
        table.save(update_fields=["is_public"])
        assert move(live, tokens, table.pk, 1) is not None
        error = spectator.expect("error")
        assert (error["code"], error["table_id"]) == ("not_found", table.pk)
        assert move(live, tokens, table.pk, 1) is not None
        assert [m for m in spectator.quiet(0.5) if m["type"] == "events"] == []
