"""The ``preferans`` fast path (:mod:`engine.rules.preferans.fast`) plays by exactly the rules
of the validating ``hand.apply``: both are driven side by side over random deals, every
convention, three and four seats and several raspasy streaks, and must agree at every step on
the phase, the player due and every legal move, and at the end on the Result; and the random
bot reaches the same Result on both paths from the same seed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.actions import Action, Call, PlayCard
from engine.rules.preferans import RULE_SET, fast, scoring
from engine.rules.preferans.actions import Declare, Discard, Mode, Whist
from engine.rules.preferans.hand import State
from engine.rules.preferans.ruleset import FAST_SEATS, random_deal
from tests.draws import draws

PREFERANS = RULE_SET
CONVENTIONS = ("sochi", "leningrad", "rostov")
SEATS3 = ("anna", "bert", "carl")
SEATS4 = ("anna", "bert", "carl", "dora")
# options that change the auction, whisting and raspasy, drawn over each convention
VARIATIONS: tuple[dict[str, Any], ...] = (
    {},
    {"bid_jumps": True},
    {"hold": "two_left", "misere_rank": "below_10"},
    {"hold": "none", "half_whist": False},
    {"ten_whisted": False, "bid_jumps": True},
    {"raspasy_talon": "closed"},
    {"raspasy_talon": "lead", "raspasy_exit": [6, 7, 8]},
)


def rules_of(convention: str, variation: int = 0) -> Any:
    return PREFERANS.parse_rules(
        {
            "variant": "preferans",
            "convention": convention,
            "pool_target": 20,
            **VARIATIONS[variation],
        }
    )


def carry_of(seats: tuple[str, ...], streak: int, with_sheet: bool) -> dict[str, Any]:
    carry: dict[str, Any] = {"streak": streak}
    if with_sheet:
        carry["sheet"] = {
            "pool": {s: 2 * i for i, s in enumerate(seats)},
            "mountain": {s: 4 for s in seats},
            "whists": {seats[0]: {seats[1]: 12}},
        }
    return carry


def move_of(action: Action) -> tuple[str, Any]:
    """A validating action as the fast deal's move."""
    if isinstance(action, Call):
        return ("call", action.call)
    if isinstance(action, Discard):
        return ("discard", action.cards)
    if isinstance(action, Declare):
        return ("declare", (action.level, action.strain))
    if isinstance(action, Whist):
        return ("whist", action.call)
    if isinstance(action, Mode):
        return ("mode", action.mode)
    assert isinstance(action, PlayCard)
    return ("card", action.card)


def result_of(state: State) -> dict[str, Any]:
    return engine.settle_outcome(engine.outcome(state))


def run_side_by_side(
    seed: int, convention: str, variation: int, four: bool, streak: int, with_sheet: bool
) -> None:
    """One random deal stepped on both paths with uniformly random legal moves."""
    rules = rules_of(convention, variation)
    seats = SEATS4 if four else SEATS3
    carry = carry_of(seats, streak, with_sheet)
    rng = random.Random(seed)
    s = random_deal(PREFERANS, rules, carry, rng, seats)
    h = fast.FastDeal(rules, s.streak, s.hands, s.talon, four)
    while not s.is_over:
        assert h.phase == s.phase
        assert h.to_act == s.turn
        legal = engine.legal_actions(s)
        assert {a.seat for a in legal} == {s.active[s.turn]}
        moves = [move_of(a) for a in legal]
        mine = h.legal()
        if s.phase in ("discard", "play"):  # listed in Preferans order on the validating path
            assert sorted(mine) == sorted(moves)
        else:  # the random bot picks by position: the same order
            assert mine == moves
        i = int(rng.random() * len(legal))
        s = engine.apply(s, legal[i])
        h.step(moves[i])
        assert h.hands[:3] == list(s.hands)
    assert h.phase == "done" and h.to_act == -1
    assert list(h.won) == list(s.won) and h.tricks == s.played
    active = s.active
    assert scoring.score(h.outcome(seats, seats[-1], active, s.sheet)) == result_of(s)


@settings(max_examples=draws(800), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    convention=st.sampled_from(CONVENTIONS),
    variation=st.integers(0, len(VARIATIONS) - 1),
    four=st.booleans(),
    streak=st.integers(0, 4),
    with_sheet=st.booleans(),
)
def test_the_fast_deal_steps_as_the_validating_states_do(
    seed: int, convention: str, variation: int, four: bool, streak: int, with_sheet: bool
) -> None:
    """At every step: the same phase, the same player due, the same legal moves (in the same
    order where the random bot picks by position), the same hands; at the end the same tricks
    and the same Result."""
    run_side_by_side(seed, convention, variation, four, streak, with_sheet)


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("four", [False, True])
def test_the_fast_deal_steps_as_the_validating_states_do_over_many_seeds(
    convention: str, four: bool
) -> None:
    """Two hundred fixed seeds per convention and table size, every option variation and
    streaks 0 to 3 in turn (raspasy, its talon-led tricks and the exit minimum included)."""
    for seed in range(200):
        run_side_by_side(
            seed, convention, seed % len(VARIATIONS), four, seed % 4, with_sheet=seed % 3 == 0
        )


def bot_results(
    seed: int, rules: Any, seats: tuple[str, ...], carry: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The random bot's deal from ``seed`` on the fast path and on the validating states."""
    streak, sheet = PREFERANS.carry_of(rules, seats, carry)
    quick = fast.random_result(rules, seats, streak, sheet, random.Random(seed))
    rng = random.Random(seed)
    s = random_deal(PREFERANS, rules, carry, rng, seats)
    while engine.to_act(s):
        s = engine.apply(s, PREFERANS.random_action(s, rng))
    return quick, result_of(s)


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("four", [False, True])
def test_the_random_bot_reaches_the_same_result_on_both_paths(convention: str, four: bool) -> None:
    """``fast.random_result`` (one mutable deal, the cards on the shared board's playout) and
    the validating ``apply`` with :meth:`PreferansRuleSet.random_action`, from the same seed,
    reach the same Result: three hundred seeds per convention and table size, streaks 0 to 2,
    with and without a sheet."""
    rules = rules_of(convention)
    seats = SEATS4 if four else SEATS3
    games = set()
    for seed in range(300):
        carry = carry_of(seats, seed % 3, with_sheet=seed % 2 == 1)
        quick, slow = bot_results(seed, rules, seats, carry)
        assert quick == slow, seed
        games.add(slow["game"]["type"])
    assert games == {"contract", "misere", "raspasy"}


@settings(max_examples=draws(300), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    example=st.integers(0, len(PREFERANS.examples) - 1),
    variation=st.integers(0, len(VARIATIONS) - 1),
    four=st.booleans(),
    streak=st.integers(0, 4),
)
def test_the_fast_path_plays_a_deal_as_the_validating_path_does(
    seed: int, example: int, variation: int, four: bool, streak: int
) -> None:
    """The same over random seeds, every example's rules with each option variation, three and
    four seats; ``play_random_hand`` is ``random_result`` at the fast path's table."""
    rules = PREFERANS.parse_rules({**PREFERANS.examples[example], **VARIATIONS[variation]})
    seats = SEATS4 if four else SEATS3
    quick, slow = bot_results(seed, rules, seats, {"streak": streak})
    assert quick == slow
    carry = {"streak": streak}
    again = PREFERANS.play_random_hand(rules, carry, random.Random(seed))
    assert again == bot_results(seed, rules, FAST_SEATS, carry)[1]


def test_a_deck_order_is_dealt_as_the_rule_set_deals_it() -> None:
    """``fast.deal_order`` is §2's dealing in pairs (``DEALING``), the talon in its order."""
    rng = random.Random(11)
    for _ in range(50):
        order = fast.shuffled(rng)
        assert sorted(order) == list(range(32))
        hands, talon = fast.deal_order(order)
        dealt = PREFERANS.deal_from_deck([PREFERANS.deck.code(c) for c in order], SEATS3)
        for i, seat in enumerate(SEATS3):
            assert hands[i] == PREFERANS.deck.parse_hand(dealt[seat])
        assert [PREFERANS.deck.code(c) for c in talon] == dealt["talon"]
