"""The admin never shows the cards of a hosted hand in play (hidden information is a security
boundary for staff too); once the hand is done, deal, deck, salt and actions are shown."""

from __future__ import annotations

import html
import json
import random

import pytest
from django.test import Client
from django.urls import reverse

import engine
from clubs.models import User
from engine.bots import random_bot
from games import services
from games.models import Hand, Seat, Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RULES = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}


@pytest.fixture
def staff_client() -> Client:
    admin = UserFactory.create(username="root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def players() -> dict[str, User]:
    return {key: UserFactory.create(username=key) for key in ("anna", "bert", "carl")}


@pytest.fixture
def table(players: dict[str, User]) -> Table:
    return services.table_create(
        user=players["anna"],
        name="Hosted",
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=[services.SeatSpec(key=k, kind=Seat.Kind.USER, user=u) for k, u in players.items()],
        first_dealer="carl",
    )


def _secrets(hand: Hand) -> list[str]:
    """Strings that appear in a page only if it shows the hand's hidden information."""
    assert hand.deal and hand.deck and hand.salt
    out = [hand.salt, json.dumps(hand.deck), " ".join(hand.deck), json.dumps(hand.deal)]
    for cards in hand.deal.values():
        out += [json.dumps(cards), json.dumps(sorted(cards))]
    if any("discard" in a for a in hand.actions):
        out.append(json.dumps(hand.actions))
    return out


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def _pages(client: Client, hand: Hand) -> dict[str, str]:
    urls = {
        "changelist": reverse("admin:games_hand_changelist"),
        "change": reverse("admin:games_hand_change", args=[hand.pk]),
        "table": reverse("admin:games_table_change", args=[hand.table_id]),
    }
    return {name: _page(client, url) for name, url in urls.items()}


def _assert_hidden(client: Client, hand: Hand) -> None:
    for name, page in _pages(client, hand).items():
        for secret in _secrets(hand):
            assert secret not in page, f"{name} page shows {secret!r}"


def _move(table: Table, players: dict[str, User], rng: random.Random) -> Hand:
    """The player to act makes a random legal move through the service."""
    hand = Hand.objects.get(table=table, number=1)
    state = services.hand_state(table, hand)
    seat = state.to_act_seat
    assert seat is not None
    move = random_bot.choose(state, rng)
    return services.hand_apply_action(
        table_id=table.pk,
        number=1,
        user=players[seat],
        action=engine.action_to_json(move, engine.PIQUET, seat=False),
        expected_version=hand.version,
    )


def test_a_hand_in_play_shows_no_cards_and_a_done_hand_shows_them(
    staff_client: Client, table: Table, players: dict[str, User], eager_tasks: None
) -> None:
    hand = services.hand_start(table_id=table.pk, user=players["anna"])
    pages = _pages(staff_client, hand)
    assert hand.commitment in pages["change"]
    assert "anna" in pages["table"] and "bert" in pages["table"]  # the seat inline
    _assert_hidden(staff_client, hand)

    rng = random.Random(7)
    while hand.status == Hand.Status.PLAYING:
        _assert_hidden(staff_client, hand)
        hand = _move(table, players, rng)

    change = _page(staff_client, reverse("admin:games_hand_change", args=[hand.pk]))
    hand.refresh_from_db()  # the admin shows the stored JSON (PostgreSQL orders its keys)
    for secret in (hand.salt, json.dumps(hand.deck), json.dumps(hand.actions)):
        assert secret in change
    for cards in (hand.deal or {}).values():
        assert json.dumps(cards) in change


def test_a_hand_in_play_cannot_be_found_by_its_secret_fields(
    staff_client: Client, table: Table, players: dict[str, User]
) -> None:
    hand = services.hand_start(table_id=table.pk, user=players["anna"])
    url = reverse("admin:games_hand_changelist")
    for lookup in (f"salt__startswith={hand.salt[0]}", "deck__contains=HA", "deal__isnull=False"):
        assert staff_client.get(f"{url}?{lookup}").status_code == 400, lookup
    search = _page(staff_client, f"{url}?q={hand.salt}")
    assert "0 hands" in search or "0 results" in search


def test_hands_cannot_be_changed_added_or_deleted_in_the_admin(
    staff_client: Client, table: Table, players: dict[str, User]
) -> None:
    hand = services.hand_start(table_id=table.pk, user=players["anna"])
    change = reverse("admin:games_hand_change", args=[hand.pk])
    response = staff_client.post(change, {"status": "done", "salt": "0" * 64})
    assert response.status_code == 403
    assert staff_client.get(reverse("admin:games_hand_add")).status_code == 403
    assert staff_client.get(reverse("admin:games_hand_delete", args=[hand.pk])).status_code == 403
    hand.refresh_from_db()
    assert hand.status == Hand.Status.PLAYING and hand.salt != "0" * 64
