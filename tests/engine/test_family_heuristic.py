"""The talon family's heuristic bot (:mod:`engine.rules.family.heuristic`): its hand valuation,
each decision on a position written as card strings (a strong hand bids, a weak one passes, the
discard keeps trumps and aces, a weak defender stays home, contra only with a strong defending
hand, …), and over random positions of all seven rule sets an answer that is always one of the
view's legal actions, ``None`` exactly when those are cards.

Seats ``anna bert carl``, carl deals, so anna is forehand (``tests/engine/family_helpers.py``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.bots import random_bot
from engine.rules.family.heuristic import (
    choose,
    defence_tricks,
    holding,
    misere_risk,
    slam_losers,
    suit_tricks,
)
from tests.engine.family_helpers import state_of

KURZ = {"variant": "kurz"}
MODERN = {"variant": "austria-modern", "unit": 10, "ante": 100}
ILLUSTRATED = {"variant": "illustrated", "unit": 10, "ante": 100}
OLD = {"variant": "austria-1829", "unit": 1, "ante": 240}
BALKAN = {"variant": "balkan", "unit": 1, "ante": 100}
DANUBE = {"variant": "danube-swabian", "unit": 10}
AMERICAN = {"variant": "american", "unit": 1, "ante": 20}
FAMILY = (
    "kurz",
    "austria-1829",
    "austria-modern",
    "illustrated",
    "balkan",
    "danube-swabian",
    "american",
)

STRONG = "DA DK DQ DJ DT D9 SA SK CA C7"
"""Six top diamonds and three side aces and kings: ten tricks in diamonds."""
MIDDLE = "CK CQ CJ CT C9 C8 SQ SJ ST S9"
REST = "HA HK HQ HJ HT H9 H8 H7 D8 S8"
"""With :data:`STRONG` and the talon ``D7 S7``: the helpers' deal."""
WEAK = "C7 C8 S7 S8 D7 D8 D9 H7 H8 H9"
HIGH = "CA CK CQ CJ SA SK SQ SJ DA DK"
TENS = "CT C9 ST S9 DQ DJ DT HA HK HQ"
"""With :data:`WEAK` and :data:`HIGH` and the talon ``HJ HT``."""


def deal(anna: str, bert: str, carl: str) -> dict[str, str]:
    return {"anna": anna, "bert": bert, "carl": carl}


def ask(state: Any, seat: str) -> dict[str, Any] | None:
    """The bot's answer for ``seat`` from that seat's view and the view's ``legal``."""
    view = engine.view(state, seat)
    return choose(view, view["legal"], random.Random(0))


def answer(state: Any, seat: str) -> Any:
    action = ask(state, seat)
    assert action is not None
    (key,) = action
    return action[key]


def h(cards: str) -> Any:
    return holding(cards.split())


# --- hand valuation --------------------------------------------------------------------------


def test_trump_length_honours_and_side_aces_make_tricks() -> None:
    assert suit_tricks(h(STRONG), 2) > 9  # diamonds
    assert suit_tricks(h(STRONG), 3) < suit_tricks(h(STRONG), 2) - 3  # hearts: none held
    assert suit_tricks(h(WEAK), 0) < 1


def test_a_void_is_worth_more_than_a_small_singleton_when_long_in_trumps() -> None:
    singleton = suit_tricks(h("HA HK HQ H9 H8 SA SK S7 D7 C7"), 3)
    void = suit_tricks(h("HA HK HQ H9 H8 SA SK S7 S8 C7"), 3)
    assert void > singleton


def test_a_defender_counts_trump_honours_and_aces() -> None:
    assert defence_tricks(h("CA CK C7 SA DA H7 H8 S8 D8 D9"), 0) > 3
    assert defence_tricks(h(WEAK), 3) < 1


def test_misere_risk_counts_the_cards_that_can_be_forced_to_win() -> None:
    assert misere_risk(h("C7 C9 CJ S7 S9 D7 D9 DJ H7 H9")) == 0
    assert misere_risk(h("C8 C9 CJ S7 S9 D7 D9 DJ H7 H9")) == 1  # the club eight
    assert misere_risk(h(STRONG)) >= 5


def test_slam_losers_are_the_cards_below_a_broken_run() -> None:
    assert slam_losers(h("CA CK CQ CJ SA SK SQ DA DK HA")) == 0
    assert slam_losers(h(STRONG)) == 1  # the club seven


# --- the auction --------------------------------------------------------------------------------


def test_a_strong_hand_bids_in_kurz() -> None:
    state = state_of(KURZ, deal=deal(STRONG, MIDDLE, REST), pot=0)
    assert answer(state, "anna") != "pass"


def test_a_weak_hand_passes() -> None:
    for rules, carry in ((KURZ, {"pot": 0}), (MODERN, {"pot": 300}), (OLD, {"pot": 0})):
        state = state_of(rules, deal=deal(WEAK, HIGH, TENS), talon="HJ HT", **carry)
        assert answer(state, "anna") == "pass", rules["variant"]


def test_a_bid_leaves_the_strong_suit_declarable() -> None:
    """modern's ``n`` lets the declarer name a suit numbered n or more: a diamond hand calls
    at most ``3`` (or the hand game ``3h``)."""
    state = state_of(MODERN, deal=deal(STRONG, MIDDLE, REST), pot=300)
    assert answer(state, "anna") in ("1", "2", "3", "3h")


def test_hold_is_preferred_to_raising() -> None:
    """anna (diamonds) may take over bert's 2, which lets her name diamonds."""
    state = state_of(
        MODERN,
        "anna call 1",
        "bert call 2",
        "carl call pass",
        deal=deal(STRONG, MIDDLE, REST),
        pot=300,
    )
    assert answer(state, "anna") == "hold"


def test_a_forced_rearhand_calls_rather_than_passes() -> None:
    state = state_of(
        MODERN,
        "anna call pass",
        "bert call pass",
        deal=deal(HIGH, TENS, WEAK),
        talon="HJ HT",
        pot=300,
    )
    view = engine.view(state, "carl")
    assert {"call": "pass"} not in view["legal"]
    assert answer(state, "carl") in {a["call"] for a in view["legal"]}


def test_american_calls_its_best_suit_as_trumps() -> None:
    state = state_of(AMERICAN, deal=deal(STRONG, MIDDLE, REST), pot=100)
    assert answer(state, "anna") == "D"


def test_american_round_two_offers_only_with_a_good_hand() -> None:
    passes = ("anna call pass", "bert call pass", "carl call pass")
    state = state_of(AMERICAN, *passes, deal=deal(WEAK, HIGH, TENS), talon="HJ HT", pot=100)
    assert answer(state, "anna") == "pass"
    state = state_of(AMERICAN, *passes, deal=deal(STRONG, MIDDLE, REST), pot=100)
    assert answer(state, "anna") == 1


# --- talon, discard, declaration -------------------------------------------------------------

TRUMPS = "HA HK HQ HJ H9 SA D7 D8 CJ C8"
"""Hearts and the spade ace; the talon brings H7 S7."""
TRUMPS_DEAL = deal(TRUMPS, "CA CK CQ CT C9 C7 SK SQ SJ ST", "S9 S8 DA DK DQ DJ DT D9 HT H8")


def test_the_discard_keeps_trumps_and_aces_and_makes_a_void() -> None:
    state = state_of(
        MODERN,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        deal=TRUMPS_DEAL,
        talon="H7 S7",
        pot=300,
    )
    gone = answer(state, "anna")
    assert not any(c[0] == "H" or c[1] == "A" for c in gone)
    kept = (set(TRUMPS.split()) | {"H7", "S7"}) - set(gone)
    assert {s for s in "CSD" if not any(c[0] == s for c in kept)}, gone  # a side suit is void


def test_the_declaration_names_the_long_suit() -> None:
    state = state_of(
        MODERN,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard D7 D8",
        deal=TRUMPS_DEAL,
        talon="H7 S7",
        pot=300,
    )
    assert answer(state, "anna") == {"type": "suit", "level": "H"}


def test_1829_takes_the_talon_with_an_ordinary_hand() -> None:
    state = state_of(
        OLD,
        "anna call C",
        "bert call pass",
        "carl call pass",
        deal=TRUMPS_DEAL,
        talon="H7 S7",
        pot=0,
    )
    assert answer(state, "anna") is True


def test_a_perfect_misere_hand_declares_a_misere() -> None:
    perfect = "C7 C9 CJ S7 S9 D7 D9 DJ H7 H9"
    # the talon brings SJ SK; anna lays them away: the ten left hold no unsafe card
    state = state_of(
        ILLUSTRATED,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard SJ SK",
        deal=deal(perfect, "CA CQ CT C8 SA SQ ST S8 DA DQ", "DK DT D8 HA HK HQ HJ HT H8 CK"),
        talon="SJ SK",
        pot=300,
    )
    game = answer(state, "anna")
    assert game["type"] == "premium" and game["level"] in (5, 7)


# --- defence -------------------------------------------------------------------------------------

DECLARED = (
    "anna call 1",
    "bert call pass",
    "carl call pass",
    "anna discard D7 D8",
    "anna declare suit H",
)
DEFENDERS = deal(TRUMPS, "C7 C9 S8 S9 D9 DT DJ CT CQ H8", "HT H7 DA DK DQ CA CK SK SQ SJ")
"""bert: nothing; carl: the ten and seven of trumps, the side aces and kings; the talon
``S7 ST``."""


def test_a_weak_defender_stays_home_and_a_strong_one_plays() -> None:
    state = state_of(MODERN, *DECLARED, deal=DEFENDERS, talon="S7 ST", pot=300)
    assert answer(state, "bert") == "home"
    state = state_of(MODERN, *DECLARED, "bert defence home", deal=DEFENDERS, talon="S7 ST", pot=300)
    assert answer(state, "carl") == "play"


def test_a_kurz_defender_plays_a_talon_game_whatever_he_holds() -> None:
    """kurz pays each player who played per trick from the pot and fines no defender."""
    state = state_of(KURZ, *DECLARED, deal=DEFENDERS, talon="S7 ST", pot=0)
    assert answer(state, "bert") == "play"


def test_a_good_hand_never_gives_up() -> None:
    state = state_of(
        MODERN,
        *DECLARED,
        "bert defence play",
        "carl defence play",
        deal=DEFENDERS,
        talon="S7 ST",
        pot=300,
    )
    assert answer(state, "anna") is False


def test_a_hopeless_contract_is_given_up() -> None:
    state = state_of(
        MODERN,
        "anna call 4",
        "bert call pass",
        "carl call pass",
        "anna discard C7 C9",
        "anna declare suit H",
        "bert defence play",
        "carl defence play",
        deal=deal(
            "C7 C9 CJ S7 S9 D7 D9 DT H8 H9",
            "HA HK HQ HJ DA DK DQ SA SK SQ",
            "HT H7 CA CK CQ CT C8 ST S8 DJ",
        ),
        talon="SJ D8",
        pot=300,
    )
    assert answer(state, "anna") is True


BALKAN_DEAL = deal(
    "HA HK HQ HJ H9 S7 D7 D8 CJ C8",
    "SA SK SQ CA DA C7 C9 D9 DT DJ",
    "CT CQ CK S9 SJ DQ DK H7 H8 HT",
)
BALKAN_DECLARED = (
    "anna call 2",
    "bert call pass",
    "carl call pass",
    "anna discard D7 D8",
    "anna declare suit S",
    "bert defence play",
    "carl defence play",
    "anna give_up false",
)
"""anna plays spades holding three small ones (the talon ``S8 ST``); bert holds SA SK SQ
and two side aces."""


def test_contra_only_with_a_strong_defending_hand() -> None:
    state = state_of(BALKAN, *BALKAN_DECLARED, deal=BALKAN_DEAL, talon="S8 ST", pot=1000)
    assert answer(state, "bert") is True
    state = state_of(
        BALKAN, *BALKAN_DECLARED, "bert contra false", deal=BALKAN_DEAL, talon="S8 ST", pot=1000
    )
    assert answer(state, "carl") is False


def test_recontra_with_a_contract_still_sure() -> None:
    state = state_of(
        DANUBE,
        "anna call 2",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare suit D",
        "bert contra true",
        deal=deal(STRONG, MIDDLE, REST),
    )
    assert answer(state, "anna") is True


# --- any position ----------------------------------------------------------------------------


def positions(name: str, seed: int) -> Any:
    """The states of a random hand of ``name``, the random bot playing every seat."""
    rs = engine.rule_set(name)
    rng = random.Random(seed)
    seats = ["anna", "bert", "carl"]
    order, _ = rs.shuffled_deck(rng)
    deal = rs.deal_from_deck(order, rs.active_seats(seats, "carl"))
    rules = rs.parse_rules(rs.examples[seed % len(rs.examples)])
    carry = rs.carry_examples[seed % len(rs.carry_examples)]
    state = rs.start_hand(rules, seats, "carl", carry, deal)
    while not state.is_over:
        yield state
        state = engine.apply(state, random_bot.choose(state, rng))


@pytest.mark.parametrize("name", FAMILY)
def test_the_answer_is_always_legal_or_none_for_cards(name: str) -> None:
    decided = 0
    for seed in range(100):
        for state in positions(name, seed):
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
