"""Playing a hand's remaining cards out double dummy (``engine.solver.playout``): from any
moment of card play of every rule set the solver plays, the play-out is legal, ends the hand,
plays only cards the solver calls optimal, and leaves the declarer's side with exactly the
solver's value; it is the same every time."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.bots import random_bot
from engine.errors import EngineError
from engine.rules import AnyRuleSet
from engine.solver import FEWEST, Position, solve
from engine.solver.playout import best_card, playout, tricks_left
from tests.draws import draws

SOLVABLE = [rs for rs in engine.rule_sets(include_engine_only=True) if rs.table.players == 3]


def card_play_state(rs: AnyRuleSet, seed: int, cards_in: int) -> Any | None:
    """A random hand of ``rs`` dealt and bid by the random bot, then ``cards_in`` cards into
    its card play (fewer where it ends sooner); ``None`` when the hand has no card play."""
    rng = random.Random(seed)
    rules = rs.examples[seed % len(rs.examples)]
    seats = ["anna", "bert", "carl"]
    order, _ = rs.shuffled_deck(rng)
    deal = rs.deal_from_deck(order, rs.active_seats(seats, "carl"))
    state = engine.replay(
        {
            "rules": rules,
            "seats": seats,
            "dealer": "carl",
            **rs.carry_examples[0],
            "deal": deal,
            "actions": [],
        }
    )
    while not state.is_over and rs.card_play(state) is None:
        state = engine.apply(state, random_bot.choose(state, rng))
    if state.is_over:
        return None
    for _ in range(cards_in):
        pos = rs.card_play(state)
        if pos is None:
            break
        after = engine.apply(state, random_bot.choose(state, rng))
        if after.is_over or rs.card_play(after) is None:
            break
        state = after
    return state


def side_of(pos: Position) -> str:
    return pos.seats[next(q for q in range(len(pos.seats)) if pos.side >> q & 1)]


def tricks_of(rs: AnyRuleSet, state: Any, seat: str) -> int:
    """The tricks ``seat`` took in the finished hand ``state``: its public view's ``tricks``."""
    return int(rs.view(state, None)["tricks"][seat])


@settings(max_examples=draws(240, least=40))
@given(
    rs=st.sampled_from(SOLVABLE),
    seed=st.integers(min_value=0, max_value=2**32),
    cards_in=st.integers(min_value=12, max_value=30),
)
def test_the_play_out_ends_the_hand_with_the_solvers_value(
    rs: AnyRuleSet, seed: int, cards_in: int
) -> None:
    state = card_play_state(rs, seed, cards_in)
    if state is None:
        return
    first = rs.card_play(state)
    assert first is not None
    assert tricks_left(state) == first.tricks_left
    value, _ = solve(first)
    cards = playout(state)
    assert cards == playout(state)  # the same every time
    for card in cards:
        pos = rs.card_play(state)
        assert pos is not None and card.seat == pos.seats[pos.to_act]
        _, optimal = solve(pos)
        assert optimal >> card.card & 1, (rs.name, seed, card)
        state = engine.apply(state, card)
    assert state.is_over
    if first.goal != FEWEST:  # FEWEST is the mover's own: its side changes with the mover
        assert tricks_of(rs, state, side_of(first)) == value, (rs.name, seed)


@pytest.mark.parametrize("rs", SOLVABLE, ids=[rs.name for rs in SOLVABLE])
def test_the_best_card_is_one_of_the_solvers_optimal_cards(rs: AnyRuleSet) -> None:
    checked = 0
    for seed in range(40):
        state = card_play_state(rs, seed, 15)
        pos = None if state is None else rs.card_play(state)
        if pos is None:
            continue
        _, optimal = solve(pos)
        assert optimal >> best_card(pos) & 1
        checked += 1
    assert checked >= 10


def test_a_hand_not_in_card_play_has_no_play_out() -> None:
    rs = SOLVABLE[0]
    rng = random.Random(1)
    order, _ = rs.shuffled_deck(rng)
    seats = ["anna", "bert", "carl"]
    state = engine.replay(
        {
            "rules": rs.examples[0],
            "seats": seats,
            "dealer": "carl",
            **rs.carry_examples[0],
            "deal": rs.deal_from_deck(order, rs.active_seats(seats, "carl")),
            "actions": [],
        }
    )
    with pytest.raises(EngineError):
        playout(state)
    with pytest.raises(EngineError):
        tricks_left(state)
