"""The Preferans heuristic bot (:mod:`engine.rules.preferans.heuristic`): each decision on a
deal written as card strings (a strong hand bids, a weak one passes, a misère-shaped hand calls
misère, the discard keeps trumps and aces, the order takes the long suit, a defender whists
with his share of the quota, else half-whists where he may, the lone whister plays open), and
over random positions of every convention an answer that is always one of the view's legal
actions, ``None`` exactly when those are cards.

Seats ``anna bert carl``, carl deals, so anna is first hand (``tests/engine/preferans_helpers.py``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.bots import random_bot
from engine.rules.preferans.heuristic import choose
from tests.engine.preferans_helpers import calls, hand, record, whists


def ask(state: Any, seat: str) -> dict[str, Any] | None:
    """The bot's answer for ``seat`` from that seat's view and the view's ``legal``."""
    view = engine.view(state, seat)
    return choose(view, view["legal"], random.Random(0))


def answer(state: Any, seat: str) -> Any:
    action = ask(state, seat)
    assert action is not None
    return next(v for k, v in action.items() if k != "seat")


def replay(actions: list[dict[str, Any]], deal: dict[str, list[str]] | None = None) -> Any:
    return engine.replay(record(deal, actions))


def discard(seat: str, cards: str) -> dict[str, Any]:
    return {"seat": seat, "discard": cards.split()}


def order(seat: str, level: int, strain: str) -> dict[str, Any]:
    return {"seat": seat, "declare": {"type": "contract", "level": level, "strain": strain}}


# --- the auction -----------------------------------------------------------------------------


def test_a_strong_hand_bids() -> None:
    """anna: five top hearts and the top spades."""
    assert answer(replay([]), "anna") == "6S"


def test_a_weak_hand_passes() -> None:
    """bert: nothing above a ten."""
    assert answer(replay(calls("anna 6S")), "bert") == "pass"


MISERE_DEAL = {
    "anna": hand("S7 S9 SJ C7 C9 D7 D9 DJ H7 H9"),
    "bert": hand("SA SK SQ ST CA CK CQ CJ CT HA"),
    "carl": hand("S8 C8 DK DQ DT D8 HQ HJ HT H8"),
    "talon": ["DA", "HK"],
}
"""anna: every suit from its seven up, no card that can be forced to win."""


def test_a_misere_shaped_hand_calls_misere() -> None:
    assert answer(replay([], MISERE_DEAL), "anna") == "misere"


def test_a_strong_hand_does_not_call_misere() -> None:
    assert answer(replay([]), "anna") != "misere"


# --- talon and order ---------------------------------------------------------------------------

WON = calls("anna 6S", "bert pass", "carl pass")
"""anna wins at 6S and takes the talon CA DA: twelve cards, five hearts and four aces."""


def test_the_discard_keeps_trumps_and_aces() -> None:
    gone = answer(replay(WON), "anna")
    assert not any(c[0] == "H" or c[1] == "A" for c in gone), gone


def test_the_misere_discard_lays_away_the_dangerous_cards() -> None:
    state = replay([*calls("anna misere", "bert pass", "carl pass")], MISERE_DEAL)
    assert sorted(answer(state, "anna")) == ["DA", "HK"]


def test_the_order_raises_a_contract_the_kept_cards_make() -> None:
    """anna keeps five top hearts, four aces and SK: nine tricks at least, all suits stopped;
    with the clubs laid away, no trumps is out."""
    game = answer(replay([*WON, discard("anna", "D8 D9")]), "anna")
    assert game["strain"] in ("H", "NT") and game["level"] >= 8
    game = answer(replay([*WON, discard("anna", "C7 CA")]), "anna")
    assert game["strain"] == "H" and game["level"] >= 7


# --- whisting ------------------------------------------------------------------------------------

WHIST_DEAL = {
    "anna": hand("HA HK HQ HJ HT H9 S7 S8 C7 D7"),
    "bert": hand("SA SK SQ CA CK CQ DA DK DQ H8"),
    "carl": hand("H7 SJ ST S9 CJ CT C9 C8 DJ DT"),
    "talon": ["D9", "D8"],
}
"""anna orders 6H; bert holds the three side aces with kings and queens, carl nothing."""
ORDERED = [*calls("anna 6S", "bert pass", "carl pass"), discard("anna", "D8 D9")]


def test_a_defender_with_his_share_of_the_quota_whists() -> None:
    state = replay([*ORDERED, order("anna", 6, "H")], WHIST_DEAL)
    assert answer(state, "bert") == "whist"


def test_a_weak_defender_passes_after_a_whist() -> None:
    state = replay([*ORDERED, order("anna", 6, "H"), *whists("bert whist")], WHIST_DEAL)
    assert answer(state, "carl") == "pass"


def test_the_lone_whister_plays_open() -> None:
    state = replay(
        [*ORDERED, order("anna", 6, "H"), *whists("bert whist", "carl pass")], WHIST_DEAL
    )
    assert answer(state, "bert") == "open"


def test_after_a_pass_the_second_defender_half_whists_a_six_and_whists_an_eight() -> None:
    """carl (two kings, two small trumps) cannot make the side's four tricks on a 6: half
    costs nothing and writes whists (§5.2); an 8 needs one trick, his and the passer's hand
    played open (no half there)."""
    state = replay([*WON, discard("anna", "D8 D9"), order("anna", 6, "H"), *whists("bert pass")])
    assert answer(state, "carl") == "half"
    state = replay([*WON, discard("anna", "D8 D9"), order("anna", 8, "H"), *whists("bert pass")])
    assert answer(state, "carl") == "whist"


def test_a_weak_first_defender_does_not_return_a_half_whist() -> None:
    state = replay(
        [*WON, discard("anna", "D8 D9"), order("anna", 6, "H"), *whists("bert pass", "carl half")]
    )
    assert answer(state, "bert") == "pass"


def test_card_play_is_left_to_the_caller() -> None:
    state = replay(
        [
            *ORDERED,
            order("anna", 6, "H"),
            *whists("bert whist", "carl pass"),
            {"seat": "bert", "mode": "open"},
        ],
        WHIST_DEAL,
    )
    assert ask(state, "anna") is None


# --- any position ----------------------------------------------------------------------------

RULES = engine.rule_set("preferans").examples


def positions(seed: int) -> Any:
    """The states of a random deal, the random bot playing every seat."""
    rs = engine.rule_set("preferans")
    rng = random.Random(seed)
    seats = ["anna", "bert", "carl"]
    order, _ = rs.shuffled_deck(rng)
    deal = rs.deal_from_deck(order, rs.active_seats(seats, "carl"))
    rules = rs.parse_rules(RULES[seed % len(RULES)])
    carry = rs.carry_examples[seed % len(rs.carry_examples)]
    state = rs.start_hand(rules, seats, "carl", carry, deal)
    while not state.is_over:
        yield state
        state = engine.apply(state, random_bot.choose(state, rng))


@pytest.mark.parametrize("part", range(2))
def test_the_answer_is_always_legal_or_none_for_cards(part: int) -> None:
    decided = 0
    for seed in range(part * 100, part * 100 + 100):
        for state in positions(seed):
            for seat in engine.to_act(state):
                view = engine.view(state, seat)
                legal = view["legal"]
                action = choose(view, legal, random.Random(seed))
                if all("card" in a for a in legal):
                    assert action is None
                else:
                    assert action in legal, (seed, action, legal)
                    decided += 1
    assert decided > 100
