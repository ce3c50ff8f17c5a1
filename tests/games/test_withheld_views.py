"""A finished hosted hand withheld as a duplicate board (``games.deals``): what
``services.hand_view(..., withheld=True)`` shows each seat and a spectator, for every rule set
the apps offer. Each rule set's view has its own fields (the three-hand games' ``hand_sizes``
and ``open_hands``, Doppelkopf's reservations and parties), so the withheld view is built from
the fields a view has, never from one rule set's.

The hands are played through the services with random legal moves: nothing here knows one rule
set's rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from clubs.models import User
from games import services
from games.models import Hand, Table
from tests.cards import cards_in
from tests.games.test_every_rule_set import PLAYERS, seats_of
from tests.openapi import schema_errors

pytestmark = pytest.mark.django_db


def played_hand(
    rs: engine.RuleSet[Any, Any, Any], table: Table, users: dict[str, User], seed: int
) -> Hand:
    """Deal hand 1 of ``table`` and play it to its end with random legal moves of the seats
    the hand waits for (not a seat that merely may announce)."""
    hand = services.hand_start(table_id=table.pk, user=users["anna"])
    rng = random.Random(seed)
    for _ in range(300):
        if hand.status == Hand.Status.DONE:
            return hand
        state = services.hand_state(table, hand)
        seat = sorted(engine.waiting_for(state))[0]
        legal = engine.view(state, seat)["legal"]
        hand = services.hand_apply_action(
            table_id=table.pk, number=hand.number, user=users[seat], action=rng.choice(legal)
        )
    raise AssertionError(f"a hand of {rs.name} did not end")


@pytest.mark.parametrize("rs", [pytest.param(rs, id=rs.name) for rs in engine.rule_sets()])
def test_a_withheld_finished_hand_shows_each_seat_only_what_it_saw_during_play(
    rs: engine.RuleSet[Any, Any, Any],
    make_table: Callable[..., Table],
    anna: User,
    bert: User,
    carl: User,
    dave: User,
) -> None:
    n = seats_of(rs)
    table = make_table(mode=Table.Mode.HOSTED, rules=rs.examples[0], seats=n)
    users = dict(zip(PLAYERS, (anna, bert, carl, dave), strict=True))
    hand = played_hand(rs, table, {s: users[s] for s in PLAYERS[:n]}, seed=3)
    codes = frozenset(rs.deck.codes)
    end = services.hand_state(table, hand)
    before = engine.replay({**services.hand_record_json(table, hand), "actions": hand.actions[:-1]})

    for seat in (*PLAYERS[:n], None):
        shown = services.hand_view(table, hand, seat, withheld=True)  # no KeyError
        revealed = services.hand_view(table, hand, seat, withheld=False)
        assert revealed == engine.view(end, seat)

        assert "deal" not in shown and "legal" not in shown
        assert shown["seat"] == seat
        assert shown["phase"] == revealed["phase"]  # the hand is over
        assert shown["to_act"] is None
        assert shown["hand"] == revealed["hand"]  # the seat's own cards left
        assert shown["actions"][:-1] == engine.view(before, seat)["actions"]
        assert len(shown["actions"]) == len(hand.actions)
        seen = cards_in(engine.view(before, seat), codes) | cards_in(hand.actions[-1], codes)
        assert cards_in(shown, codes) <= seen, (seat, sorted(cards_in(shown, codes) - seen))
        for key in ("hand_sizes", "open_hands", "reservations", "parties", "tricks"):
            assert (key in shown) == (key in revealed), key  # the rule set's own fields
        head = {"mode": "hosted", "variant": rs.name, "number": 1, "status": "done"}
        head["version"] = hand.version
        body = {**head, **shown, "result": hand.result, "proof": None}
        assert not schema_errors("HandView", body), schema_errors("HandView", body)


@pytest.mark.parametrize("variant", ["doppelkopf", "doppelkopf-ddv"])
def test_a_withheld_doppelkopf_hand_keeps_the_reservations_as_the_table_saw_them(
    variant: str, make_table: Callable[..., Table], anna: User, bert: User, carl: User, dave: User
) -> None:
    """Reservations show only ``"none"`` or ``"reserved"`` during play; the end of the hand
    shows what was sent. A withheld hand keeps them as play showed them; the parties and the
    finished tricks, which the Result and the cards played make public, it shows."""
    rs = engine.rule_set(variant)
    table = make_table(mode=Table.Mode.HOSTED, rules=rs.examples[0], seats=4)
    users = dict(zip(PLAYERS, (anna, bert, carl, dave), strict=True))
    hand = played_hand(rs, table, users, seed=8)
    for seat in (*PLAYERS, None):
        shown = services.hand_view(table, hand, seat, withheld=True)
        revealed = services.hand_view(table, hand, seat, withheld=False)
        assert {r["reservation"] for r in shown["reservations"]} <= {"none", "reserved"}
        assert shown["own_reservation"] == revealed["own_reservation"]
        assert shown["tricks"] == revealed["tricks"] and len(shown["tricks"]) == 12
        assert shown["parties"] == revealed["parties"]
        assert shown["game"] == revealed["game"]
