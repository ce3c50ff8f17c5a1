"""``trickgame``'s own rules, one test each, from card strings (the package docstring states
them). What every rule set promises (bots finish, replay, balance, hidden cards) is checked
for it by ``tests/engine/test_conformance.py``, which picks it up because the test settings
registered it."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from tests.trickgame import RULE_SET
from tests.trickgame.bot import heuristic

SEATS = ["anna", "bert", "carl", "dora"]
RULES = {"variant": "trickgame", "trick_value": 10, "nil_bonus": 20, "lead": "high_bid"}
DEAL = {
    "anna": ["CA", "CK", "SA", "HJ"],
    "bert": ["CQ", "SK", "SQ", "DA"],
    "carl": ["CJ", "SJ", "DK", "HA"],
    "dora": ["DQ", "DJ", "HK", "HQ"],
}


def hand_after(*actions: dict[str, Any], rules: dict[str, Any] = RULES) -> Any:
    """The hand (dora deals, anna is forehand) after ``actions``."""
    record = {"rules": rules, "seats": SEATS, "dealer": "dora", "deal": DEAL}
    return engine.replay({**record, "actions": list(actions)})


def bids(anna: int, bert: int, carl: int, dora: int) -> list[dict[str, Any]]:
    return [
        {"seat": "anna", "bid": anna},
        {"seat": "bert", "bid": bert},
        {"seat": "carl", "bid": carl},
        {"seat": "dora", "bid": dora},
    ]


def test_it_is_registered_offered_and_found_by_its_variant() -> None:
    assert engine.rule_set("trickgame") is RULE_SET
    assert RULE_SET in engine.rule_sets()


def test_the_dealer_may_not_bring_the_bids_to_four() -> None:
    state = hand_after(*bids(1, 1, 1, 0)[:3])
    legal = engine.legal_actions(state, "dora")
    assert [engine.action_to_json(a, RULE_SET.deck)["bid"] for a in legal] == [0, 2, 3, 4]
    with pytest.raises(engine.IllegalAction, match="the hook"):
        engine.apply(state, RULE_SET.action_from_json({"seat": "dora", "bid": 1}, "action"))


def test_the_highest_bidder_leads_and_the_first_of_equal_bids_wins() -> None:
    state = hand_after(*bids(1, 2, 2, 0))
    assert engine.to_act(state) == {"bert"}
    view = engine.view(state, None)
    assert (view["declarer"], view["game"]) == ("bert", {"type": "contest", "high_bid": 2})


def test_forehand_leads_when_the_rules_say_so() -> None:
    state = hand_after(*bids(1, 2, 2, 0), rules={**RULES, "lead": "forehand"})
    assert engine.to_act(state) == {"anna"}


def test_a_player_must_follow_suit() -> None:
    state = hand_after(*bids(1, 2, 2, 0), {"seat": "bert", "card": "SK"})
    move = RULE_SET.action_from_json({"seat": "carl", "card": "HA"}, "action")
    with pytest.raises(engine.IllegalAction, match="carl must follow suit S: SJ"):
        engine.apply(state, move)


def test_the_highest_card_of_the_led_suit_wins_and_leads_next() -> None:
    state = hand_after(
        *bids(1, 2, 2, 0),
        {"seat": "bert", "card": "SK"},
        {"seat": "carl", "card": "SJ"},
        {"seat": "dora", "card": "HK"},  # void in spades: any card, and it does not win
        {"seat": "anna", "card": "SA"},
    )
    view = engine.view(state, "anna")
    assert view["tricks"] == {"anna": 1, "bert": 0, "carl": 0, "dora": 0}
    assert view["needs"] == {"anna": 0, "bert": 2, "carl": 2, "dora": 0}
    assert engine.to_act(state) == {"anna"}


def test_a_seat_sees_its_own_cards_and_the_bids_but_no_other_hand() -> None:
    state = hand_after(*bids(1, 2, 2, 0)[:2])
    view = engine.view(state, "carl")
    assert view["hand"] == ["CJ", "SJ", "DK", "HA"]
    assert view["bids"] == {"anna": 1, "bert": 2}
    assert view["legal"] == [{"bid": n} for n in range(5)]
    assert "deal" not in view and "legal" not in engine.view(state, "anna")
    assert engine.view(state, None)["hand"] is None


ENTRY = {"rules": RULES, "seats": SEATS, "dealer": "dora"}


def per_seat(numbers: tuple[int, ...]) -> dict[str, int]:
    """``numbers`` by seat, forehand (anna) first."""
    return dict(zip(SEATS, numbers, strict=False))


@pytest.mark.parametrize(
    ("bid", "taken", "delta", "why"),
    [
        # anna (nil) and bert (2) are exact: carl and dora missed and pay anna 1 × 10 and
        # bert 3 × 10 each; anna's exact nil is also paid 20 by each of the other three
        (
            (0, 2, 1, 2),
            (0, 2, 2, 0),
            {"anna": 10 + 10 + 60, "bert": 30 + 30 - 20, "carl": -10 - 30 - 20, "dora": -60},
            {"exact", "nil"},
        ),
        # nobody exact: nothing moves
        ((1, 1, 1, 0), (0, 0, 2, 2), {"anna": 0, "bert": 0, "carl": 0, "dora": 0}, set()),
        # a sweep made: 5 × 10 from each of the three who missed
        (
            (4, 1, 1, 1),
            (4, 0, 0, 0),
            {"anna": 150, "bert": -50, "carl": -50, "dora": -50},
            {"exact"},
        ),
    ],
)
def test_exact_bids_are_paid_by_those_who_missed(
    bid: tuple[int, ...], taken: tuple[int, ...], delta: dict[str, int], why: set[str]
) -> None:
    result = engine.settle({**ENTRY, "bids": per_seat(bid), "taken": per_seat(taken)})
    assert result["delta"] == delta
    assert {t["why"] for t in result["transfers"]} == why
    assert set(why) <= set(RULE_SET.shapes.reasons)


@pytest.mark.parametrize(
    ("bid", "taken", "at"),
    [
        ((1, 1, 1, 1), (4, 0, 0, 0), "bids.dora"),  # the dealer broke the hook
        ((0, 0, 0, 0), (1, 0, 0, 0), "taken"),  # four tricks are taken, not one
        ((5, 0, 0, 0), (4, 0, 0, 0), "bids.anna"),  # nobody bids more than four
        ((0,), (4, 0, 0, 0), "bids"),  # a bid for every player
    ],
)
def test_a_score_sheet_entry_is_checked_against_the_rules(
    bid: tuple[int, ...], taken: tuple[int, ...], at: str
) -> None:
    with pytest.raises(engine.EngineError) as refused:
        engine.settle({**ENTRY, "bids": per_seat(bid), "taken": per_seat(taken)})
    assert refused.value.at == at


def test_a_sweep_is_the_premium_game_and_its_bidder_declares() -> None:
    result = engine.settle(
        {
            **ENTRY,
            "bids": {"anna": 4, "bert": 0, "carl": 1, "dora": 0},
            "taken": {"anna": 3, "bert": 0, "carl": 1, "dora": 0},
        }
    )
    assert RULE_SET.describe_game(result["game"]) == "sweep"
    assert RULE_SET.statistics(result) == {"declarer": "anna", "made": False, "premium": True}
    assert RULE_SET.sheet_row(result) == {
        "bids": {"anna": 4, "bert": 0, "carl": 1, "dora": 0},
        "exact": ["bert", "carl", "dora"],
    }


def test_the_heuristic_bot_always_chooses_a_legal_action() -> None:
    policy = RULE_SET.bot_policies()["heuristic"]
    assert policy is heuristic
    rng = random.Random(1)
    for seed in range(30):
        order, _ = RULE_SET.shuffled_deck(random.Random(seed))
        deal = RULE_SET.deal_from_deck(order, SEATS)
        state = engine.replay({**ENTRY, "dealer": "dora", "deal": deal, "actions": []})
        while not state.is_over:
            (seat,) = engine.to_act(state)
            view = engine.view(state, seat)
            action = policy(view, view["legal"], rng)
            assert action is not None and action in view["legal"]
            state = engine.apply(state, RULE_SET.action_from_json({"seat": seat, **action}, "a"))


def test_the_fast_path_plays_and_settles_a_hand() -> None:
    rules = RULE_SET.parse_rules(RULES)
    for seed in range(20):
        result = RULE_SET.play_random_hand(rules, {}, random.Random(seed))
        assert sum(result["delta"].values()) == 0
