"""Hidden information in a ``preferans`` deal (``spec/next/preferans.md`` §4, §5, §6.3, §8.1): no
view shows a card before the rules reveal it — the talon before the auction ends, the
defenders' hands before ``open_timing``, the discard ever."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import PIQUET
from engine.rules.preferans.hand import State
from tests.draws import draws
from tests.engine.preferans_helpers import (
    DEAL,
    SEATS,
    act,
    calls,
    cards,
    declare,
    discard,
    record,
    state,
    whists,
)

PREFERANS = engine.rule_set("preferans")
EVERYONE = [*SEATS, None]
CONTRACT_7H = [
    *calls("anna 6S", "bert pass", "carl pass"),
    *discard("anna", "C7", "D8"),
    *declare("anna", "7H"),
]


def shown(view: dict[str, Any]) -> set[str]:
    """Every card code anywhere in a view."""
    text = json.dumps(view)
    return {c for c in PREFERANS.deck.codes if f'"{c}"' in text}


def known(s: State, seat: str | None) -> set[str]:
    return set(PREFERANS.deck.codes_of(engine.known(s, seat)))


def test_the_talon_is_hidden_until_the_auction_ends() -> None:
    s = state(calls("anna 6S", "bert 6C"))
    for seat in EVERYONE:
        assert engine.view(s, seat)["talon"] == []
        assert not {"CA", "DA"} & (shown(engine.view(s, seat)) | known(s, seat))


def test_the_talon_is_turned_face_up_for_all_after_a_contract_auction() -> None:
    s = state(calls("anna 6S", "bert pass", "carl pass"))
    for seat in EVERYONE:
        assert engine.view(s, seat)["talon"] == ["CA", "DA"]
        assert {"CA", "DA"} <= known(s, seat)


def test_the_talon_is_turned_face_up_after_a_misere_auction() -> None:
    s = state(calls("anna misere", "bert pass", "carl pass"))
    assert engine.view(s, "carl")["talon"] == ["CA", "DA"]


def test_the_discard_is_shown_to_nobody_else_while_the_deal_runs() -> None:
    s = state(CONTRACT_7H, whists("bert whist", "carl pass"), [{"seat": "bert", "mode": "closed"}])
    assert not s.is_over
    for seat in ("bert", "carl", None):
        view = engine.view(s, seat)
        assert view["actions"][3] == {"seat": "anna", "discard": None}
        assert not {"C7", "D8"} & (shown(view) | known(s, seat))
    assert engine.view(s, "anna")["actions"][3] == {"seat": "anna", "discard": ["C7", "D8"]}


def test_after_the_deal_everyone_sees_the_whole_deal_as_the_proof_reveals_it() -> None:
    s = state(CONTRACT_7H, whists("bert pass", "carl pass"))  # both pass: the deal is over
    assert s.is_over
    for seat in ("bert", "carl", None):
        view = engine.view(s, seat)
        assert view["actions"][3] == {"seat": "anna", "discard": ["C7", "D8"]}
        assert view["deal"] == engine.rule_set("preferans").dealt(s)
        assert engine.known(s, seat) == PIQUET.full


def test_the_declarers_hand_is_never_shown() -> None:
    s = state(CONTRACT_7H, whists("bert whist", "carl pass"), [{"seat": "bert", "mode": "open"}])
    s = act(s, {"seat": "anna", "card": "HA"})
    for seat in ("bert", "carl", None):
        view = engine.view(s, seat)
        assert view["hand"] != engine.view(s, "anna")["hand"]
        assert "anna" not in view["open_hands"]
        assert not {"HK", "SA"} & shown(view)


def test_in_closed_play_no_defender_sees_the_other() -> None:
    s = state(CONTRACT_7H, whists("bert whist", "carl pass"), [{"seat": "bert", "mode": "closed"}])
    s = act(s, {"seat": "anna", "card": "HA"})
    assert engine.view(s, "bert")["open_hands"] == {}
    assert not set(DEAL["carl"]) - {"H9"} & known(s, "bert")


OPEN = [*CONTRACT_7H, *whists("bert whist", "carl pass"), {"seat": "bert", "mode": "open"}]


@pytest.mark.parametrize(
    ("timing", "before", "after"),
    [
        # §5: the declarer anna is first hand, so the default waits for her first card
        ("after_declarer_lead", False, True),
        ("before_first_lead", True, True),
        ("after_first_card", False, True),
    ],
)
def test_open_play_shows_the_defenders_hands_per_open_timing(
    timing: str, before: bool, after: bool
) -> None:
    s = state(OPEN, rules={"open_timing": timing})
    for seat in EVERYONE:
        assert bool(engine.view(s, seat)["open_hands"]) is before
    s = act(s, {"seat": "anna", "card": "HA"})
    for seat in EVERYONE:
        hands = engine.view(s, seat)["open_hands"]
        assert bool(hands) is after
        if after:
            assert set(hands) == {"bert", "carl"}
            assert set(hands["carl"]) <= known(s, seat)


def test_with_the_declarer_not_first_hand_the_default_shows_the_hands_before_the_first_card() -> (
    None
):
    s = state(
        calls("anna pass", "bert 6S", "carl pass"),
        discard("bert", "CA", "DA"),
        declare("bert", "6S"),
        whists("carl whist", "anna pass"),
        [{"seat": "carl", "mode": "open"}],
    )
    assert engine.to_act(s) == {"carl"}  # carl sends anna's lead
    for seat in EVERYONE:
        assert set(engine.view(s, seat)["open_hands"]) == {"anna", "carl"}
    assert engine.view(s, "carl")["legal"][0] == {"seat": "anna", "card": "SK"}


def test_the_whister_is_shown_the_passers_hand_while_he_must_play_from_it() -> None:
    """The one choice of the spec's open timing: ``after_first_card`` with the passer first
    hand; the table sees the hands only after the first card, the whister while he plays."""
    s = state(
        calls("anna pass", "bert 6S", "carl pass"),
        discard("bert", "CA", "DA"),
        declare("bert", "6S"),
        whists("carl whist", "anna pass"),
        [{"seat": "carl", "mode": "open"}],
        rules={"open_timing": "after_first_card"},
    )
    assert set(engine.view(s, "carl")["open_hands"]) == {"anna"}
    assert engine.view(s, "bert")["open_hands"] == {}
    assert engine.view(s, None)["open_hands"] == {}


def test_misere_shows_the_defenders_hands_after_the_declarers_lead() -> None:
    s = state(calls("anna misere", "bert pass", "carl pass"), discard("anna", "SA", "SK"))
    assert engine.view(s, None)["open_hands"] == {}
    s = act(s, {"seat": "anna", "card": "HT"})
    assert set(engine.view(s, None)["open_hands"]) == {"bert", "carl"}


def test_raspasy_shows_each_talon_card_as_it_is_turned() -> None:
    s = state(calls("anna pass", "bert pass", "carl pass"))
    for seat in EVERYONE:
        assert engine.view(s, seat)["talon"] == ["CA"]
        assert "DA" not in known(s, seat) | shown(engine.view(s, seat))
    s = state(calls("anna pass", "bert pass", "carl pass"), cards("anna C7", "bert CT", "carl CJ"))
    assert engine.view(s, None)["talon"] == ["CA", "DA"]


def test_a_spectator_and_the_sitting_out_dealer_see_only_what_is_public() -> None:
    seats = ["anna", "bert", "carl", "dora"]
    s = state(calls("anna 6S"), seats=seats, dealer="dora")
    for seat in ("dora", None):
        view = engine.view(s, seat)
        assert view["hand"] is None and "legal" not in view
        assert shown(view) == set()


def test_the_seat_to_act_sees_its_legal_actions() -> None:
    s = state(calls("anna 6S"))
    assert engine.view(s, "bert")["legal"][0] == {"seat": "bert", "call": "pass"}
    assert "legal" not in engine.view(s, "anna")


@settings(max_examples=draws(200))
@given(seed=st.integers(0, 2**32 - 1), four=st.booleans(), example=st.integers(0, 3))
def test_no_view_holds_a_card_its_seat_may_not_know(seed: int, four: bool, example: int) -> None:
    """Random deals played through: every view's cards lie within ``known``, which holds no
    other player's hand unless the rules lay it open."""
    rng = random.Random(seed)
    seats = ["anna", "bert", "carl", "dora"][: 4 if four else 3]
    order, _ = PREFERANS.shuffled_deck(rng)
    deal = PREFERANS.deal_from_deck(order, PREFERANS.active_seats(seats, seats[-1]))
    s = engine.replay(
        record(deal, rules=PREFERANS.examples[example], seats=seats, dealer=seats[-1])
    )
    while engine.to_act(s):
        for seat in [*seats, None]:
            view = engine.view(s, seat)
            mine = known(s, seat)
            assert shown(view) <= mine
            if not s.open_play or s.phase != "play":
                for other in s.active:
                    if other != seat:
                        hidden = set(PREFERANS.deck.codes_of(s.hands[s.active.index(other)]))
                        hidden -= set(view["talon"])  # the declarer holds the open talon
                        assert not hidden & mine, (seat, other)
        s = engine.apply(s, rng.choice(engine.legal_actions(s)))
