"""Hidden information in a Doppelkopf hand (``spec/next/doppelkopf.md``, "What each player
sees"): a seat sees its own hand and reservation, every card played, the public game and the
public parties; no view before the end shows another seat's card, a hidden reservation or a
hidden party; over random deals a view does not change when the cards hidden from its seat lie
elsewhere."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.rules.doppelkopf import fast
from engine.rules.doppelkopf.cards import DECK
from engine.rules.doppelkopf.hand import State
from tests.cards import swap_hidden
from tests.draws import draws
from tests.engine.doppelkopf_helpers import (
    ALL_NONE,
    DDV,
    RULES,
    SEATS,
    apply,
    deal,
    play,
    record,
)

EVERYONE = [*SEATS, None]
KEYS = {
    "seat",
    "phase",
    "actions",
    "hand",
    "own_reservation",
    "reservations",
    "game",
    "tricks",
    "parties",
    "to_act",
    "legal",
}
CARD_FIELDS = ("hand", "tricks", "legal", "actions")


def shown(data: Any) -> set[str]:
    """Every card code anywhere in ``data``'s JSON."""
    text = json.dumps(data)
    return {c for c in DECK.codes if f'"{c}"' in text}


def known(s: State, seat: str | None) -> set[str]:
    return set(DECK.codes_of(engine.known(s, seat)))


def first_cards(state: State, n: int) -> State:
    for _ in range(n):
        seat = state.active[state.turn]
        card = next(a for a in engine.legal_actions(state, seat) if a.KEY == "card")
        state = engine.apply(state, card)
    return state


# --- the shape -------------------------------------------------------------------------------


def test_a_view_has_the_spec_shape() -> None:
    state = play(deal(anna="CQ", bert="CQ"), *ALL_NONE, "anna D9")
    view = engine.view(state, "carl")
    assert set(view) == {*KEYS, "kasse"}
    assert view["kasse"] == 100
    assert view["to_act"] == "bert"
    assert view["tricks"] == [{"leader": "anna", "cards": [{"seat": "anna", "card": "D9"}]}]
    assert view["hand"] == DECK.codes_of(state.hands[2])
    assert view["legal"] == []  # not carl's turn
    state = first_cards(state, 3)
    trick = engine.view(state, "carl")["tricks"][0]
    assert set(trick) == {"leader", "cards", "winner", "augen"}
    ddv = engine.view(play(deal(anna="CQ", bert="CQ"), *ALL_NONE, rules=DDV), "carl")
    assert set(ddv) == {*KEYS, "announcements"}
    assert [a["announce"] for a in ddv["legal"]] == ["kontra", "no90", "no60", "no30", "schwarz"]


def test_during_the_reservations_the_game_is_null_and_reservations_show_none_or_reserved() -> None:
    hands = deal(anna="CQ CQ")
    state = play(hands, "anna hochzeit", "bert none")
    for seat in EVERYONE:
        view = engine.view(state, seat)
        assert view["game"] is None and view["parties"] == {"re": [], "kontra": []}
        assert view["reservations"] == [
            {"seat": "anna", "reservation": "reserved"},
            {"seat": "bert", "reservation": "none"},
        ]
    assert engine.view(state, "anna")["own_reservation"] == "hochzeit"
    assert engine.view(state, "bert")["own_reservation"] == "none"
    assert engine.view(state, "carl")["own_reservation"] is None
    assert engine.view(state, "carl")["to_act"] == "carl"
    assert [a["reservation"] for a in engine.view(state, "carl")["legal"]][:1] == ["none"]


def test_a_secret_solo_shows_as_none_and_the_game_as_normal() -> None:
    hands = deal(anna="CQ", carl="CQ")
    state = play(hands, "anna secret_solo", *ALL_NONE[1:])
    for seat in ("bert", "carl", "dora", None):
        view = engine.view(state, seat)
        assert view["game"] == {"type": "normal"}
        assert {r["reservation"] for r in view["reservations"]} == {"none"}
    assert engine.view(state, "anna")["own_reservation"] == "secret_solo"


def test_a_lapsed_reservation_stays_reserved_until_the_end() -> None:
    hands = deal(anna="CQ CQ")
    state = play(hands, "anna hochzeit", "bert solo:H", "carl none", "dora none")
    view = engine.view(state, "dora")
    assert view["game"] == {"type": "solo", "soloist": "bert", "trump": "H"}
    assert view["reservations"][0] == {"seat": "anna", "reservation": "reserved"}
    assert view["parties"] == {"re": ["bert"], "kontra": ["anna", "carl", "dora"]}
    done = first_cards(state, 48)
    view = engine.view(done, "dora")
    assert [r["reservation"] for r in view["reservations"]] == [
        "hochzeit",
        {"solo": "H"},
        "none",
        "none",
    ]


def test_at_the_end_every_hand_reservation_and_party_is_shown() -> None:
    hands = deal(anna="CQ", carl="CQ")
    state = first_cards(play(hands, "anna secret_solo", *ALL_NONE[1:]), 48)
    for seat in EVERYONE:
        view = engine.view(state, seat)
        assert view["deal"] == {s: sorted(hands[s], key=DECK.index.__getitem__) for s in SEATS}
        assert view["game"] == {"type": "secret_solo", "soloist": "anna"}
        assert view["parties"] == {"re": ["anna"], "kontra": ["bert", "carl", "dora"]}
        assert view["reservations"][0]["reservation"] == "secret_solo"
        assert view["to_act"] is None and view["legal"] == []
        assert known(state, seat) == set(DECK.codes)


def test_a_spectator_sees_what_is_public() -> None:
    state = play(deal(anna="CQ", bert="CQ"), *ALL_NONE, "anna D9")
    view = engine.view(state, None)
    assert view["hand"] is None and view["own_reservation"] is None and view["legal"] == []
    assert shown(view) == {"D9"}


# --- no card, reservation or party before it is public ----------------------------------------


def test_no_view_shows_another_seats_card_before_the_end() -> None:
    hands = deal(anna="CQ", bert="CQ")
    state = first_cards(play(hands, *ALL_NONE), 21)
    for seat in EVERYONE:
        view = engine.view(state, seat)
        assert shown(view) <= known(state, seat)
        rest = {k: v for k, v in view.items() if k not in CARD_FIELDS}
        assert shown(rest) == set(), f"only hand, tricks and legal hold cards: {seat}"


def test_parties_grow_only_with_public_events_and_are_the_same_for_every_seat() -> None:
    hands = deal(bert="CQ", dora="CQ")
    state = play(hands, *ALL_NONE)
    seen = [engine.view(state, s)["parties"] for s in EVERYONE]
    assert seen == [{"re": [], "kontra": []}] * 5  # bert knows his CQ, but it is not public
    while not state.is_over:
        before = engine.view(state, None)["parties"]
        state = first_cards(state, 1)
        now = [engine.view(state, s)["parties"] for s in EVERYONE]
        assert all(p == now[0] for p in now)
        cq_by = {
            state.active[(lead + i) % 4]
            for lead, cards, _ in [*state.tricks, (state.leader, state.trick, -1)]
            for i, c in enumerate(cards)
            if DECK.code(c) == "CQ"
        }
        if state.is_over or len(cq_by) == 2:
            assert now[0] == {"re": ["bert", "dora"], "kontra": ["anna", "carl"]}
        else:
            assert now[0] == {"re": sorted(cq_by, key=SEATS.index), "kontra": []}
        assert set(before["re"]) <= set(now[0]["re"])


def test_a_hochzeit_shows_the_announcer_as_re_then_all_once_clarified() -> None:
    hands = deal(anna="CQ CQ CA S9 HK", bert="C9 SK HA D9", carl="CK SA H9 DK", dora="C9 ST H9 DT")
    state = play(hands, "anna hochzeit", *ALL_NONE[1:])
    assert engine.view(state, "bert")["parties"] == {"re": ["anna"], "kontra": []}
    assert engine.view(state, "bert")["game"] == {"type": "hochzeit", "announcer": "anna"}
    state = apply(state, "anna CA", "bert C9", "carl CK", "dora C9", "anna S9", "bert SK")
    assert engine.view(state, "carl")["parties"] == {"re": ["anna"], "kontra": []}
    state = apply(state, "carl SA", "dora ST", "carl H9", "dora H9", "anna HK", "bert HA")
    state = apply(state, "bert D9", "carl DK", "dora DT", "anna CQ")
    assert engine.view(state, "carl")["parties"] == {
        "re": ["anna", "bert"],
        "kontra": ["carl", "dora"],
    }


def test_a_hidden_reservation_does_not_change_what_others_see() -> None:
    """anna's secret_solo or none: the others' views are equal until the other CQ falls."""
    hands = deal(anna="CQ D9", carl="CQ")
    secret = play(hands, "anna secret_solo", *ALL_NONE[1:])
    normal = play(hands, *ALL_NONE)
    for n in range(3):
        for seat in ("bert", "carl", "dora", None):
            assert engine.view(secret, seat) == engine.view(normal, seat), (n, seat)
        secret, normal = first_cards(secret, 1), first_cards(normal, 1)


def test_ddv_a_silent_solo_does_not_show_until_the_second_cq() -> None:
    hands = deal(anna="CQ CQ")
    state = play(hands, *ALL_NONE, rules=DDV)
    for seat in ("bert", "carl", "dora", None):
        view = engine.view(state, seat)
        assert view["game"] == {"type": "normal"} and view["parties"]["kontra"] == []
    state = first_cards(apply(state, "anna CQ"), 3)
    assert engine.view(state, "dora")["parties"] == {"re": ["anna"], "kontra": []}
    state = apply(state, "anna CQ")
    assert engine.view(state, "dora")["parties"] == {
        "re": ["anna"],
        "kontra": ["bert", "carl", "dora"],
    }


def test_ddv_views_list_announcements_and_only_the_seats_own_legal_ones() -> None:
    state = play(deal(anna="CQ", carl="CQ"), *ALL_NONE, rules=DDV)
    state = apply(state, "bert !kontra")
    view = engine.view(state, "dora")
    assert view["announcements"] == [{"seat": "bert", "announce": "kontra"}]
    assert view["parties"] == {"re": [], "kontra": ["bert"]}
    assert view["to_act"] == "anna"  # the seat to play; who else may announce is not public
    assert [a["announce"] for a in view["legal"]] == ["no90", "no60", "no30", "schwarz"]
    assert [a["announce"] for a in engine.view(state, "carl")["legal"]] == [
        "re",
        "no90",
        "no60",
        "no30",
        "schwarz",
    ]


# --- over random deals ---------------------------------------------------------------------------


@settings(max_examples=draws(200), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ddv=st.booleans(), example=st.integers(0, 3))
def test_a_view_is_independent_of_the_other_seats_hidden_cards(
    seed: int, ddv: bool, example: int
) -> None:
    """Over random deals played by the random bot: at random moments, for each seat, no view
    shows a card outside ``known`` nor any card outside ``hand``, ``tricks`` and ``legal``, and
    the view is the same when the other seats' hidden cards are dealt differently (a different
    deal that keeps every action legal)."""
    rs = engine.rule_set("doppelkopf-ddv" if ddv else "doppelkopf")
    rules = rs.examples[example % len(rs.examples)]
    rng = random.Random(seed)
    order, _ = rs.shuffled_deck(rng)
    hands = rs.deal_from_deck(order, SEATS)
    state = cast(State, engine.replay(record(hands, rules=rules)))
    while not state.is_over:
        if rng.random() < 0.15:
            rec = engine.to_record(state)
            for seat in EVERYONE:
                view = engine.view(state, seat)
                assert shown(view) <= known(state, seat)
                rest = {k: v for k, v in view.items() if k not in CARD_FIELDS}
                assert not shown(rest)
                try:
                    other = engine.replay(swap_hidden(rec, seat, known(state, seat), rng))
                except engine.EngineError:
                    continue  # the moved cards made an action illegal: not the same hand
                assert engine.view(other, seat) == view, seat
        state = engine.apply(state, fast.choose(state, rng))


@pytest.mark.parametrize("rules", [RULES, DDV], ids=["doppelkopf", "doppelkopf-ddv"])
def test_swapped_hidden_cards_usually_replay(rules: dict[str, Any]) -> None:
    """The property above compares views often: most swaps keep the hand legal early on."""
    rng = random.Random(7)
    kept = 0
    for _ in range(40):
        order, _ = engine.rule_set(rules["variant"]).shuffled_deck(rng)
        hands = engine.rule_set(rules["variant"]).deal_from_deck(order, SEATS)
        try:
            state = cast(State, engine.replay(record(hands, *ALL_NONE, rules=rules)))
        except engine.EngineError:
            continue  # a player with both CQ (doppelkopf) must declare
        state = first_cards(state, 3)
        try:
            engine.replay(swap_hidden(engine.to_record(state), "anna", known(state, "anna"), rng))
        except engine.EngineError:
            continue
        kept += 1
    assert kept >= 10


def test_ddv_after_an_announcement_the_cq_count_as_known() -> None:
    """An announcement makes its announcer's party public, a fact about where the CQ lie that
    the ``announce`` value (``no90``) does not carry: ``known`` then holds both CQ, so a deal
    that keeps the actions but moves a CQ (and so a party) is not taken for the same hand."""
    state = play(deal(anna="CQ", carl="CQ"), *ALL_NONE, rules=DDV)
    assert "CQ" not in known(state, "bert")
    state = apply(state, "carl !re", "bert !no90")
    assert engine.view(state, "dora")["parties"] == {"re": ["carl"], "kontra": ["bert"]}
    assert {"CQ"} <= known(state, "dora") and {"CQ"} <= known(state, None)
