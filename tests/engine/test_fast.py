"""The fast playout path plays by exactly the same rules as the validating engine: both are
driven side by side over random hands and must agree on the player to act, the phase, every
legal move, and the settlement."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import apply, legal_actions, new_hand, outcome, settle_outcome
from engine.actions import Action, Call, Declare, Defence, Discard, PlayCard
from engine.fast import play_random_hand
from engine.rules.wien import WienRules
from engine.rules.wien.actions import Accept, GeschaeftSuit, Look, Negotiate
from engine.rules.wien.fast import PHASE_NAMES, FastHand, random_move
from tests.draws import draws

SEATS = ("anna", "bert", "carl")


def to_action(seat: str, move: tuple[str, object]) -> Action:
    kind, v = move
    match kind:
        case "call":
            return Call(seat, v)  # type: ignore[arg-type]
        case "gs":
            return GeschaeftSuit(seat, v)  # type: ignore[arg-type]
        case "discard":
            return Discard(seat, v)  # type: ignore[arg-type]
        case "declare":
            return Declare(seat, *v)  # type: ignore[misc]
        case "look":
            return Look(seat, v)  # type: ignore[arg-type]
        case "defence":
            return Defence(seat, v)  # type: ignore[arg-type]
        case "negotiate":
            return Negotiate(seat, *v)  # type: ignore[misc]
        case "accept":
            return Accept(seat, v)  # type: ignore[arg-type]
    return PlayCard(seat, v)  # type: ignore[arg-type]


def run_side_by_side(seed: int, uniform: bool) -> None:
    rng = random.Random(seed)
    rules = WienRules(
        dealer_contribution=rng.choice([10, 100]) * 1,
        pot_cap=rng.choice([None, 300]) if rng.random() < 0.5 else None,
        holding_after_forehand=rng.choice(["rearhand", "middlehand"]),
        invitation_tricks=rng.choice(["inviter", "each"]),
    )
    if rules.pot_cap is not None and rules.pot_cap % rules.dealer_contribution:
        rules = WienRules(rules.dealer_contribution, None)
    pot = rng.choice([0, 0, 100, 200, 500])
    cards = list(range(32))
    rng.shuffle(cards)
    masks = [sum(1 << c for c in cards[i * 10 : i * 10 + 10]) for i in range(3)]
    talon = (1 << cards[30]) | (1 << cards[31])
    state = new_hand(
        rules, SEATS, "carl", pot, dict(zip((*SEATS, "talon"), (*masks, talon), strict=True))
    )
    fast = FastHand((masks[0], masks[1], masks[2]), talon, rules, pot)
    while True:
        assert PHASE_NAMES[fast.phase] == state.phase.value
        engine_legal = legal_actions(state)
        if not engine_legal:
            break
        assert fast.to_act == state.to_act
        seat = SEATS[fast.to_act]
        fast_legal = fast.legal()
        assert [to_action(seat, m) for m in fast_legal] == engine_legal
        move = rng.choice(fast_legal) if uniform else random_move(fast, rng)
        assert move in fast_legal
        fast.step(move)
        state = apply(state, to_action(seat, move))
    result = settle_outcome(outcome(state))
    delta, pot_after = fast.settle()
    g = rules.dealer_contribution
    assert pot_after == result["pot"]
    for i, seat in enumerate(SEATS):
        assert result["delta"][seat] == delta[i] - (g if seat == "carl" else 0)


@settings(max_examples=draws(400))
@given(st.integers(0, 2**32))
def test_fast_path_matches_the_engine_with_the_bot_policy(seed: int) -> None:
    run_side_by_side(seed, uniform=False)


@settings(max_examples=draws(300))
@given(st.integers(0, 2**32))
def test_fast_path_matches_the_engine_with_uniform_moves(seed: int) -> None:
    run_side_by_side(seed, uniform=True)


def test_a_fast_random_hand_balances() -> None:
    rng = random.Random(7)
    rules = WienRules(100, 300)
    for _ in range(500):
        delta, pot = play_random_hand(rules, 200, rng)
        assert sum(delta) - 100 + pot - 200 == 0
