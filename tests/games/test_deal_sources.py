"""Deal sources (``games.deals``): a duplicate round's board dealt at every table, and a
finished board withheld from everyone until every table has finished it.

A test source gives a fixed deck and salt to the tables it is told about and withholds their
finished hands while its ``secret`` flag is set. Seats are anna, bert, carl; carl deals hand 1
unless a test says otherwise, so anna is forehand.
"""

from __future__ import annotations

import html
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client as PageClient
from django.urls import reverse
from rest_framework.test import APIClient

import engine
from clubs.models import User
from games import deals, services
from games.models import Hand, Table
from tests.cards import cards_in
from tests.factories import UserFactory
from tests.games.conftest import hand_url, hands_url
from tests.games.test_hidden_information import cards_in_text
from tests.games.test_hosted_hands import act, play_out, start

pytestmark = pytest.mark.django_db

SOURCE = "test boards"
CARDS = frozenset(engine.PIQUET.codes)
ClientFor = Callable[[User | None], APIClient]


@dataclass
class Boards:
    """The test source's state: a deck order and salt per table id, withheld while
    ``secret``."""

    decks: dict[int, tuple[list[str], str]] = field(default_factory=dict)
    secret: bool = True
    asked: list[tuple[int, int]] = field(default_factory=list)

    def give(self, *tables: Table, seed: int = 1) -> tuple[list[str], str]:
        """Deal every hand of ``tables`` from one board (shuffled with ``seed``)."""
        board = engine.record.shuffled_deck(random.Random(seed), variant="wien")
        for table in tables:
            self.decks[table.pk] = board
        return board

    def deck_for(self, table_id: int, number: int) -> tuple[list[str], str] | None:
        return self.decks.get(table_id)

    def withheld(self, table_id: int, number: int) -> bool:
        self.asked.append((table_id, number))
        return self.secret and table_id in self.decks


@pytest.fixture
def boards() -> Iterator[Boards]:
    state = Boards()
    deals.register(deals.DealSource(SOURCE, deck_for=state.deck_for, withheld=state.withheld))
    yield state
    deals.unregister(SOURCE)


@pytest.fixture
def clients(client_for: ClientFor, anna: User, bert: User, carl: User) -> dict[str, APIClient]:
    return {"anna": client_for(anna), "bert": client_for(bert), "carl": client_for(carl)}


@pytest.fixture
def public_hosted(make_table: Callable[..., Table]) -> Table:
    return make_table(mode=Table.Mode.HOSTED, is_public=True)


def dealt(table: Table, number: int, order: list[str]) -> dict[str, list[str]]:
    """What ``order`` deals for hand ``number`` of ``table`` (by the engine)."""
    common = services.common_part(table, number, {"pot": 0})
    variant = common["rules"]["variant"]
    active = engine.active_seats(common["seats"], common["dealer"], variant=variant)
    return engine.deal_from_deck(order, active, variant=variant)


def choose(view: dict[str, Any], home: bool) -> dict[str, Any]:
    """Forehand calls 1 and the others pass; then the first legal action, except that the
    defenders stay home when ``home`` (and the pot allows it)."""
    if view["phase"] == "auction":
        return {"call": "pass"} if view["actions"] else {"call": "1"}
    if home and {"defence": "home"} in view["legal"]:
        return {"defence": "home"}
    return dict(view["legal"][0])


def finish(clients: dict[str, APIClient], table: Table, number: int, *, home: bool) -> Any:
    """Play hand ``number`` to its end through the API; returns the answer to the last move."""
    last = None
    for _ in range(100):
        public = clients["anna"].get(hand_url(table, number)).json()
        if public["status"] == "done":
            return last
        seat = public["to_act"]
        view = clients[seat].get(hand_url(table, number, "view/")).json()
        response = act(clients[seat], table, choose(view, home), view["version"], number)
        assert response.status_code == 200, response.json()
        last = response
    raise AssertionError("the hand did not end")


def unseen_cards(table: Table, hand: Hand, seat: str | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) never saw while the hand was played: not in the
    engine's view of the position before the last action, nor the last card played."""
    before = engine.replay({**services.hand_record_json(table, hand), "actions": hand.actions[:-1]})
    seen = cards_in(engine.view(before, seat), CARDS) | cards_in(hand.actions[-1], CARDS)
    return set(CARDS - seen)


def answers(
    client: APIClient, table: Table, number: int, last_move: Any | None
) -> dict[str, tuple[int, str]]:
    """Every answer that could show the finished hand's deal, as (status, raw body)."""
    paths = {
        "view": hand_url(table, number, "view/"),
        "hand": hand_url(table, number),
        "hands": hands_url(table),
        "record": hand_url(table, number, "record/"),
        "events": hand_url(table, number, "events/?wait=0"),
        "sheet": f"/api/v1/tables/{table.pk}/sheet/",
        "sheet.csv": f"/api/v1/tables/{table.pk}/sheet/?format=csv",
        "ledger": f"/api/v1/tables/{table.pk}/ledger/",
        "audit": f"/api/v1/tables/{table.pk}/audit/",
        "table": f"/api/v1/tables/{table.pk}/",
    }
    out = {}
    for name, path in paths.items():
        response = client.get(path)
        out[name] = (response.status_code, response.content.decode())
    if last_move is not None:
        out["last move"] = (last_move.status_code, last_move.content.decode())
    return out


def test_a_hand_is_dealt_from_the_sources_deck(
    boards: Boards, clients: dict[str, APIClient], hosted: Table
) -> None:
    order, salt = boards.give(hosted)
    body = start(clients["anna"], hosted)

    assert body["commitment"] == engine.commitment(salt, order)
    cards = dealt(hosted, 1, order)
    for seat, client in clients.items():
        view = client.get(hand_url(hosted, 1, "view/")).json()
        assert sorted(view["hand"]) == sorted(cards[seat])
    hand = Hand.objects.get()
    assert (hand.deck, hand.salt) == (order, salt)
    clients["anna"].get(hands_url(hosted))
    assert boards.asked == []  # only finished hands are asked about


def test_tables_given_the_same_board_deal_each_direction_the_same_cards(
    boards: Boards, clients: dict[str, APIClient], make_table: Callable[..., Table]
) -> None:
    # carl deals at the first table and anna at the second: forehand is anna, then bert
    first = make_table(mode=Table.Mode.HOSTED, first_dealer="carl")
    second = make_table(mode=Table.Mode.HOSTED, first_dealer="anna")
    order, salt = boards.give(first, second)

    commitments = {start(clients["anna"], t)["commitment"] for t in (first, second)}
    assert commitments == {engine.commitment(salt, order)}

    def own_cards(table: Table, seat: str) -> list[str]:
        return sorted(clients[seat].get(hand_url(table, 1, "view/")).json()["hand"])

    directions = [("anna", "bert"), ("bert", "carl"), ("carl", "anna")]  # fore-, middle-, rear
    for at_first, at_second in directions:
        assert own_cards(first, at_first) == own_cards(second, at_second)
    assert own_cards(first, "anna") == sorted(dealt(first, 1, order)["anna"])


@pytest.mark.parametrize("ending", ["played_out", "both_home"])
def test_a_withheld_board_shows_nobody_the_deal_until_it_is_revealed(
    boards: Boards,
    clients: dict[str, APIClient],
    public_hosted: Table,
    client_for: ClientFor,
    ending: str,
) -> None:
    table = public_hosted
    order, salt = boards.give(table)
    number = 1
    if ending == "both_home":  # staying home needs money in the pot: play hand 1 first
        boards.secret = False
        start(clients["anna"], table)
        play_out(clients, table, random.Random(1))
        boards.secret = True
        number = 2
    dealt_now = start(clients["anna"], table)
    last_move = finish(clients, table, number, home=ending == "both_home")
    hand = Hand.objects.get(table=table, number=number)
    assert hand.status == Hand.Status.DONE
    assert hand.result is not None and hand.deal is not None
    if ending == "both_home":
        assert not any("card" in a for a in hand.actions)  # nobody played a card

    viewers: dict[str, tuple[APIClient, str | None]] = {
        **{seat: (client, seat) for seat, client in clients.items()},
        "outsider": (client_for(UserFactory.create(username="outsider")), None),
        "anonymous": (APIClient(), None),
    }
    mover = hand.actions[-1]["seat"]
    for viewer, (client, seat) in viewers.items():
        unseen = unseen_cards(table, hand, seat)
        if ending == "both_home" and seat is not None:
            others = {
                c for s, cards in hand.deal.items() if s not in (seat, "talon") for c in cards
            }
            assert others <= unseen  # no card was played: the other hands stay unseen
        if seat != hand.result["declarer"]:
            assert unseen, viewer  # a defender or spectator never saw the talon
        shown = answers(client, table, number, last_move if seat == mover else None)
        for name, (code, text) in shown.items():
            where = f"{viewer} {name}"
            assert code == (409 if name == "record" else 200), where
            assert not cards_in_text(text) & unseen, f"{where} shows {cards_in_text(text) & unseen}"
            assert salt not in text, where
            assert " ".join(order) not in text and json.dumps(order) not in text, where
            assert '"deal"' not in text, where
        view = json.loads(shown["view"][1])
        assert view["phase"] == "done"
        assert view["proof"] is None and view["result"] == hand.result
        listed = json.loads(shown["hands"][1])["results"][number - 1]
        assert listed["proof"] is None and listed["result"] == hand.result
        record = json.loads(shown["record"][1])
        assert record["code"] == "board_not_revealed"
        assert record["message"] == (
            "This board is still being played at other tables; its deal is revealed when every "
            "table has finished it."
        )

    staff = PageClient()
    staff.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))
    page = html.unescape(
        staff.get(reverse("admin:games_hand_change", args=[hand.pk])).content.decode()
    )
    assert salt not in page and json.dumps(order) not in page

    boards.secret = False
    body = clients["bert"].get(hand_url(table, number, "record/")).json()
    record = body["record"]
    assert record["proof"] == {"commitment": dealt_now["commitment"], "salt": salt, "deck": order}
    assert engine.verify(record) == {
        "verified": True,
        "commitment": dealt_now["commitment"],
        "result": body["result"],
    }
    view = APIClient().get(hand_url(table, number, "view/")).json()
    assert view["proof"] == record["proof"]
    assert {k: sorted(v) for k, v in view["deal"].items()} == {
        k: sorted(v) for k, v in record["deal"].items()
    }


def test_without_a_source_the_table_shuffles_and_reveals_at_the_end(
    clients: dict[str, APIClient], hosted: Table
) -> None:
    assert deals.deck_for(hosted.pk, 1) is None
    body = start(clients["anna"], hosted)
    hand = Hand.objects.get()
    assert sorted(hand.deck or []) == sorted(CARDS)
    assert body["commitment"] == engine.commitment(hand.salt, hand.deck or [])

    finish(clients, hosted, 1, home=False)
    assert not deals.withheld(hosted.pk, 1)
    view = clients["bert"].get(hand_url(hosted, 1, "view/")).json()
    assert view["proof"]["salt"] == hand.salt
    assert "deal" in view
    assert clients["bert"].get(hand_url(hosted, 1, "record/")).status_code == 200
