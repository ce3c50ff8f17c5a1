"""Reads served from a process's snapshots (``selectors.hand_for_user``) and remembered users
(``config.api.authentication``) are never stale where it matters: every change to a hand is
seen by the next read, and a hand number that now names another hand is that other hand.

These tests commit (``transaction=True``): snapshots are only kept outside transactions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

import engine
from clubs.models import User
from games import selectors, services
from games.models import Table
from tests.games.conftest import AUSFECHTEN, FELL, MADE, hand_url

pytestmark = pytest.mark.django_db(transaction=True)


def jwt_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    return client


def test_a_seat_view_shows_every_new_action(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User, eager_tasks: None
) -> None:
    table = make_table(mode=Table.Mode.HOSTED)
    services.hand_start(table_id=table.pk, user=anna)
    users = {"anna": anna, "bert": bert, "carl": carl}
    clients = {name: jwt_client(user) for name, user in users.items()}
    for _ in range(6):
        seen = clients["bert"].get(hand_url(table, 1, "view/")).json()
        hand = table.hands.get(number=1)
        assert seen["version"] == hand.version  # read right after the last change
        state = services.hand_state(table, hand)
        seat = state.to_act_seat
        assert seat is not None
        action = engine.action_to_json(engine.legal_actions(state)[0], engine.PIQUET, seat=False)
        response = clients[seat].post(
            hand_url(table, 1, "actions/"),
            {"action": action, "expected_version": hand.version},
            format="json",
        )
        assert response.status_code == 200, response.content
    assert clients["bert"].get(hand_url(table, 1, "view/")).json()["version"] == 6


def test_a_corrected_or_deleted_recorded_hand_is_read_as_it_is_now(
    recorded: Table, anna: User
) -> None:
    client = jwt_client(anna)
    for entry in (MADE, FELL, AUSFECHTEN):
        assert client.post(hand_url(recorded, 1)[:-2], entry, format="json").status_code == 201
    assert client.get(hand_url(recorded, 1)).json()["entry"]["tricks"] == MADE["tricks"]
    assert client.put(hand_url(recorded, 1), FELL, format="json").status_code == 200
    assert client.get(hand_url(recorded, 1)).json()["entry"]["tricks"] == FELL["tricks"]
    assert client.delete(hand_url(recorded, 1)).status_code == 204
    moved_up = client.get(hand_url(recorded, 1)).json()  # the former hand 2
    assert moved_up["entry"]["tricks"] == FELL["tricks"] and moved_up["dealer"] == "carl"
    assert client.get(hand_url(recorded, 3)).status_code == 404


def test_a_table_made_private_is_hidden_within_the_snapshot_time(
    make_table: Callable[..., Table], anna: User, stranger: User, settings: Any
) -> None:
    table = make_table(is_public=True)
    services.table_record_hand(table_id=table.pk, user=anna, entry=MADE)
    client = jwt_client(stranger)
    assert client.get(hand_url(table, 1)).status_code == 200
    Table.objects.filter(pk=table.pk).update(is_public=False)
    selectors.SNAPSHOT_SECONDS, saved = 0.0, selectors.SNAPSHOT_SECONDS
    try:
        assert client.get(hand_url(table, 1)).status_code == 404
    finally:
        selectors.SNAPSHOT_SECONDS = saved


def test_a_profile_change_is_seen_by_the_next_request(anna: User) -> None:
    client = jwt_client(anna)
    assert client.get("/api/v1/me/").json()["display_name"] == "anna"
    response = client.patch("/api/v1/me/", {"display_name": "Anna W."}, format="json")
    assert response.status_code == 200
    assert client.get("/api/v1/me/").json()["display_name"] == "Anna W."


def test_a_repeated_seat_view_costs_one_query(
    make_table: Callable[..., Table],
    anna: User,
    django_assert_num_queries: Any,
) -> None:
    table = make_table(mode=Table.Mode.HOSTED)
    services.hand_start(table_id=table.pk, user=anna)
    client = jwt_client(anna)
    assert client.get(hand_url(table, 1, "view/")).status_code == 200  # loads and keeps
    with django_assert_num_queries(1):  # the hand's stamp; user and hand are remembered
        assert client.get(hand_url(table, 1, "view/")).status_code == 200
