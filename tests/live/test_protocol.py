"""The socket itself: signing in (first message, subprotocol), bad and expired tokens, the
sign-in deadline, malformed messages, limits, heartbeats, origins and paths."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from rest_framework_simplejwt.tokens import AccessToken, RefreshToken
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from games.live import consumer
from tests.factories import UserFactory
from tests.live.conftest import token_for
from tests.live.server import LiveServer, socket_to


def test_it_signs_in_with_the_first_message(live: LiveServer) -> None:
    user = UserFactory.create()
    with socket_to(live) as sock:
        hello = sock.expect("hello")
        assert hello["user_id"] is None and hello["protocol"] == "preference.v1"
        sock.send({"type": "auth", "token": token_for(user)})
        answer = sock.expect("authenticated")
        assert answer["user_id"] == user.pk and answer["expires_at"] > 0


def test_it_signs_in_with_the_subprotocol_and_answers_preference_v1(live: LiveServer) -> None:
    user = UserFactory.create()
    offered = ["preference.v1", f"bearer.{token_for(user)}"]
    with socket_to(live, subprotocols=offered) as sock:
        assert sock.conn.subprotocol == "preference.v1"
        assert sock.expect("authenticated")["user_id"] == user.pk
        assert sock.expect("hello")["user_id"] == user.pk  # after signing in, unlike above


def test_it_refuses_a_handshake_without_its_protocol(live: LiveServer) -> None:
    with (
        pytest.raises(InvalidStatus) as e,
        connect(live.ws, subprotocols=["bearer.x"], open_timeout=5),  # type: ignore[list-item]
    ):
        pass
    assert e.value.response.status_code == 403


@pytest.mark.parametrize(
    "token",
    ["not-a-jwt", "", 42],
    ids=["garbage", "empty", "number"],
)
def test_a_bad_token_closes_with_4003_and_a_sentence(live: LiveServer, token: Any) -> None:
    with socket_to(live) as sock:
        sock.send({"type": "auth", "token": token})
        error = sock.expect("error")
        assert error["code"] == "token_invalid" and error["message"].endswith(".")
        assert sock.closed_with() == consumer.CLOSE_TOKEN_INVALID


def test_a_refresh_token_is_not_an_access_token(live: LiveServer) -> None:
    user = UserFactory.create()
    with socket_to(live) as sock:
        sock.send({"type": "auth", "token": str(RefreshToken.for_user(user))})
        assert sock.expect("error")["code"] == "token_invalid"
        assert sock.closed_with() == consumer.CLOSE_TOKEN_INVALID


def expired_token(user: Any) -> str:
    token = AccessToken.for_user(user)
    token.set_exp(lifetime=-dt.timedelta(minutes=1))
    return str(token)


def test_an_expired_token_closes_with_4004(live: LiveServer) -> None:
    user = UserFactory.create()
    with socket_to(live) as sock:
        sock.send({"type": "auth", "token": expired_token(user)})
        error = sock.expect("error")
        assert error["code"] == "token_expired" and "expired" in error["message"]
        assert sock.closed_with() == consumer.CLOSE_TOKEN_EXPIRED


def test_an_expired_subprotocol_token_closes_with_4004(live: LiveServer) -> None:
    user = UserFactory.create()
    offered = ["preference.v1", f"bearer.{expired_token(user)}"]
    with socket_to(live, subprotocols=offered) as sock:
        assert sock.expect("error")["code"] == "token_expired"
        assert sock.closed_with() == consumer.CLOSE_TOKEN_EXPIRED


def test_a_token_that_expires_while_connected_closes_the_socket(live: LiveServer) -> None:
    user = UserFactory.create()
    token = AccessToken.for_user(user)
    token.set_exp(lifetime=dt.timedelta(seconds=2))
    with socket_to(live, token=str(token)) as sock:
        assert sock.expect("error", timeout=10)["code"] == "token_expired"
        assert sock.closed_with() == consumer.CLOSE_TOKEN_EXPIRED


def test_a_socket_that_neither_signs_in_nor_subscribes_is_closed(
    live: LiveServer, settings: Any
) -> None:
    settings.LIVE_AUTH_SECONDS = 0.5
    with socket_to(live) as sock:
        assert sock.expect("error")["code"] == "auth_timeout"
        assert sock.closed_with() == consumer.CLOSE_AUTH_TIMEOUT


def test_a_signed_in_socket_stays_past_the_deadline(live: LiveServer, settings: Any) -> None:
    settings.LIVE_AUTH_SECONDS = 0.3
    with socket_to(live, token=token_for(UserFactory.create())) as sock:
        sock.quiet(0.8)
        sock.send({"type": "ping"})
        sock.expect("pong")


def test_it_sends_heartbeats(live: LiveServer, settings: Any) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    with socket_to(live, token=token_for(UserFactory.create())) as sock:
        hello = next(m for m in sock.seen if m["type"] == "hello")
        assert hello["heartbeat_seconds"] == 0.2
        sock.expect("ping", timeout=2)
        sock.expect("ping", timeout=2)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"kind": "subscribe"}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "subscribe", "topic": "weather"}', "unknown_topic"),
        ('{"type": "subscribe", "topic": "table", "table_id": "7"}', "invalid"),
        ('{"type": "subscribe", "topic": "table", "table_id": -1}', "invalid"),
        ('{"type": "subscribe", "topic": "table", "table_id": 99999999999999999999}', "invalid"),
        ('{"type": "subscribe", "topic": "hand", "table_id": 1}', "invalid"),
        (
            '{"type": "subscribe", "topic": "tournament", "tournament_id": 1, "version": "x"}',
            "invalid",
        ),
        ('{"type": "unsubscribe", "topic": "table", "table_id": 5}', "not_subscribed"),
        ('{"type": "subscribe", "topic": "notifications"}', "not_authenticated"),
    ],
)
def test_malformed_messages_get_an_error_with_a_sentence_and_the_socket_stays(
    live: LiveServer, raw: str, code: str
) -> None:
    with socket_to(live) as sock:
        sock.expect("hello")
        sock.conn.send(raw)
        error = sock.expect("error")
        assert error["code"] == code
        assert error["message"][0].isupper() and error["message"].rstrip().endswith((".", ")"))
        sock.send({"type": "ping"})
        sock.expect("pong")


def test_binary_messages_get_an_error(live: LiveServer) -> None:
    with socket_to(live) as sock:
        sock.conn.send(b"\x00\x01")
        assert sock.expect("error")["code"] == "bad_message"


def test_a_message_over_the_size_limit_closes_with_1009(live: LiveServer, settings: Any) -> None:
    settings.LIVE_MAX_MESSAGE_BYTES = 200
    with socket_to(live) as sock:
        sock.send({"type": "ping", "padding": "x" * 300})
        assert sock.expect("error")["code"] == "too_large"
        assert sock.closed_with() == consumer.CLOSE_TOO_BIG


def test_a_socket_holds_at_most_the_subscription_limit(live: LiveServer, settings: Any) -> None:
    from tests.live.worlds import public_tables

    settings.LIVE_MAX_SUBSCRIPTIONS = 2
    tables = public_tables(3)
    with socket_to(live) as sock:
        for table in tables[:2]:
            sock.send({"type": "subscribe", "topic": "table", "table_id": table.pk})
            sock.expect("subscribed", table_id=table.pk)
        sock.send({"type": "subscribe", "topic": "table", "table_id": tables[2].pk})
        assert sock.expect("error")["code"] == "too_many_subscriptions"
        sock.send({"type": "unsubscribe", "topic": "table", "table_id": tables[0].pk})
        sock.expect("unsubscribed", table_id=tables[0].pk)
        sock.send({"type": "subscribe", "topic": "table", "table_id": tables[2].pk})
        sock.expect("subscribed", table_id=tables[2].pk)


def test_pages_of_other_sites_are_refused_and_apps_without_origin_are_not(
    live: LiveServer,
) -> None:
    with (
        pytest.raises(InvalidStatus) as e,
        connect(live.ws, origin="https://evil.example", open_timeout=5),  # type: ignore[arg-type]
    ):
        pass
    assert e.value.response.status_code == 403
    for origin in (None, f"http://127.0.0.1:{live.port}"):
        with connect(live.ws, origin=origin, open_timeout=5) as conn:  # type: ignore[arg-type]
            assert json.loads(conn.recv(timeout=5))["type"] == "hello"


def test_other_websocket_paths_are_refused(live: LiveServer) -> None:
    with (
        pytest.raises(InvalidStatus) as e,
        connect(live.ws.replace("/ws/v1/", "/ws/v2/"), open_timeout=5),
    ):
        pass
    assert e.value.response.status_code == 403


def test_http_still_reaches_django(live: LiveServer) -> None:
    status, body = live.api("GET", "/api/v1/")
    assert status == 200 and body


def test_a_socket_signs_in_again_with_a_fresh_token_but_never_as_someone_else(
    live: LiveServer,
) -> None:
    anna, bert = UserFactory.create(), UserFactory.create()
    with socket_to(live, token=token_for(anna)) as sock:
        sock.send({"type": "auth", "token": token_for(bert)})
        assert sock.expect("error")["code"] == "other_user"
        sock.send({"type": "auth", "token": token_for(anna)})
        assert sock.expect("authenticated")["user_id"] == anna.pk
        sock.send({"type": "subscribe", "topic": "notifications"})
        sock.expect("subscribed", topic="notifications")
