"""The talon family's fast path (``play_random_hand``: one ``Hand`` stepped in place, cards
straight on the shared board) plays by the same rules as the validating path: both are driven
side by side over random hands, for every registered talon-family rule set and each of its
example rules and carries, and must agree on the phase, the player to act, every legal action
and the settlement; ``play_random_hand`` itself gives the Result of the same hand replayed
through ``engine.apply``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.board import CardBoard
from engine.cards import PIQUET
from engine.rules.family.hand import Hand
from engine.rules.family.outcome import outcome_of
from engine.rules.family.ruleset import FamilyRuleSet, fast_choice, fast_deal
from engine.tricks import FOLLOW, FOLLOW_TRUMP, HEAD, HEAD_LOW, Obligations, suit_order
from tests.draws import draws

FAMILY = [rs for rs in engine.rule_sets() if isinstance(rs, FamilyRuleSet)]
SEATS = ("a", "b", "c")

by_rule_set = pytest.mark.parametrize("rs", FAMILY, ids=[rs.name for rs in FAMILY])


def side_by_side(rs: FamilyRuleSet, seed: int, uniform: bool) -> tuple[dict[str, Any], Any]:
    rng = random.Random(seed)
    rules = rs.parse_rules(rng.choice(rs.examples))
    carry = rs.read_carry(rng.choice(rs.carry_examples))
    rng = random.Random(seed)
    deal = fast_deal(rs, rng)
    fast = Hand(rs.family, rules, SEATS, deal, carry)
    masks = dict(zip((*SEATS, "talon"), deal, strict=True))
    state = rs.new_hand(rules, SEATS, "c", carry, masks)
    while True:
        assert fast.phase == state.hand.phase
        legal = engine.legal_actions(state)
        assert fast.legal() == legal
        if not legal:
            break
        assert SEATS[fast.to_act] == state.to_act_seat
        move = rng.choice(legal) if uniform else fast_choice(fast, rng)
        assert move in legal
        fast.step(move)
        state = engine.apply(state, move)
    result = engine.settle(engine.to_record(state))
    assert rs.family.settle(outcome_of(fast, SEATS, "c")) == result
    sheet = json.loads(json.dumps(engine.sheet_entry(state)))
    assert engine.settle(sheet) == result
    return result, carry


@by_rule_set
@settings(max_examples=draws(150), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_fast_hand_matches_the_engine_with_the_bot_policy(rs: FamilyRuleSet, seed: int) -> None:
    side_by_side(rs, seed, uniform=False)


@by_rule_set
@settings(max_examples=draws(100), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_fast_hand_matches_the_engine_with_uniform_moves(rs: FamilyRuleSet, seed: int) -> None:
    side_by_side(rs, seed, uniform=True)


@by_rule_set
@settings(max_examples=draws(100), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_play_random_hand_is_the_validated_hand(rs: FamilyRuleSet, seed: int) -> None:
    """``play_random_hand`` with a seed gives what the same deal and moves give through
    ``engine.apply`` and ``engine.settle``."""
    result, carry = side_by_side(rs, seed, uniform=False)
    rng = random.Random(seed)
    rules = rs.parse_rules(rng.choice(rs.examples))
    rng.choice(rs.carry_examples)
    delta, pot = rs.play_random_hand(rules, carry, random.Random(seed))
    assert delta == [result["delta"][s] for s in SEATS]
    assert pot == result["pot"]


class _Board(CardBoard):
    """A board that ends play after ten tricks (as a rule set's ``trick_done`` does)."""

    def trick_done(self, winner: int) -> None:
        if self.tricks == 10:
            self.to_act = -1


@settings(max_examples=draws(200), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    duty=st.sampled_from([(HEAD, HEAD_LOW, HEAD), (FOLLOW,) * 3, (FOLLOW_TRUMP,) * 3]),
    playing=st.sampled_from([0b111, 0b011, 0b101, 0b110]),
)
def test_play_random_plays_as_play_card_with_the_same_draws(
    seed: int, trump: int | None, duty: tuple[Obligations, ...], playing: int
) -> None:
    """``CardBoard.play_random`` plays the k-th lowest legal card, k = int(rand() × count) (no
    draw for one card), exactly as the same choice through ``legal_card_mask`` and
    ``play_card``."""
    cards = list(range(32))
    random.Random(seed).shuffle(cards)
    hands = [sum(1 << c for c in cards[i * 10 : i * 10 + 10]) for i in range(3)]
    leader = next(p for p in (0, 1, 2) if playing >> p & 1)
    fast, slow = _Board(hands), _Board(hands)
    for board in (fast, slow):
        board.start_tricks(suit_order(PIQUET, trump), duty, leader, playing)
    fast.play_random(random.Random(seed).random)
    rng = random.Random(seed)
    while slow.to_act >= 0:
        mask = slow.legal_card_mask()
        count = mask.bit_count()
        for _ in range(int(rng.random() * count) if count > 1 else 0):
            mask &= mask - 1
        slow.play_card((mask & -mask).bit_length() - 1)
    assert (fast.hands, fast.won, fast.tricks, fast.trick) == (
        slow.hands,
        slow.won,
        slow.tricks,
        slow.trick,
    )
    assert (fast.led, fast.best, fast.best_by) == (slow.led, slow.best, slow.best_by)
