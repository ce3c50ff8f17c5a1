"""The ``pimc`` bot's choices other than the card, by simulation (``engine.bots.simulate``):
the whole ``wien`` hands a seat is dealt from its view (``RuleSet.bot_deal``) look to it
exactly like the real hand, the auction tells where the strength lies, a hand played out from
a choice ends and balances, and the bot answers a legal choice at every decision.

Hands are dealt at random and played by the heuristic bot (its cards double dummy) up to each
decision before the first card; the seat deciding is each time the one to act.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine.bots import pimc, simulate
from engine.bots.levels import policy_for
from engine.rules.wien import heuristic
from engine.rules.wien import simulate as wien_simulate

RULES = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
SEATS = ["anna", "bert", "carl"]
WIEN = engine.rule_set("wien")
DECIDE = heuristic.choose


def dealt(seed: int) -> Any:
    order, _ = WIEN.shuffled_deck(random.Random(seed))
    deal = WIEN.deal_from_deck(order, WIEN.active_seats(SEATS, "carl"))
    record = {"rules": RULES, "seats": SEATS, "dealer": "carl", "pot": 0, "deal": deal}
    return engine.replay({**record, "actions": []})


def decisions(seed: int) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    """Each decision before the first card of hand ``seed`` played by the heuristic: the
    state, the seat to act and its view."""
    state, rng = dealt(seed), random.Random(seed)
    while not state.is_over and WIEN.card_play(state) is None:
        seat = next(s for s in SEATS if s in engine.to_act(state))
        view = engine.view(state, seat)
        yield state, seat, view
        chosen = DECIDE(view, view["legal"], rng)
        assert chosen is not None
        state = engine.apply(state, WIEN.action_from_json({**chosen, "seat": seat}, "action"))


@pytest.mark.slow
def test_a_drawn_hand_shows_the_seat_exactly_its_own_view() -> None:
    checked = 0
    for seed in range(60):
        for _, seat, view in decisions(seed):
            rng = random.Random(seed)
            for _ in range(3):
                drawn = WIEN.bot_deal(view, rng)
                if drawn is None:  # a look took a talon the seat was not shown as dealt
                    assert any(a.get("look") for a in view["actions"] if a["seat"] == seat)
                    continue
                assert engine.view(drawn, seat) == view
                checked += 1
    assert checked > 500


def test_a_drawn_hand_keeps_the_talon_the_seat_saw_and_deals_the_rest_anew() -> None:
    moved = 0
    for seed in range(40):
        for state, seat, view in decisions(seed):
            if view["phase"] != "talon":
                continue
            drawn = WIEN.bot_deal(view, random.Random(seed))
            assert drawn is not None
            assert drawn.deal[3] == state.deal[3]  # the declarer took it: he knows it
            me = state.active.index(seat)
            assert drawn.deal[me] == state.deal[me]
            moved += drawn.deal[(me + 1) % 3] != state.deal[(me + 1) % 3]
    assert moved > 0


@pytest.mark.slow
def test_the_auction_tells_where_the_hearts_are() -> None:
    """A player who called herz (a hand game in hearts) is dealt more hearts than chance
    gives him: the drawn deals explain the calls as the heuristic would have made them."""
    drawn_hearts, fair_hearts, found = 0.0, 0.0, 0
    for seed in range(400):
        for state, seat, view in decisions(seed):
            callers = [a["seat"] for a in view["actions"] if a.get("call") == "herz"]
            if view["phase"] != "defence" or not callers or callers[0] == seat:
                continue
            caller = state.active.index(callers[0])
            unknown_hearts = 8 - sum(c[0] == "H" for c in view["hand"])
            fair_hearts += unknown_hearts * 10 / 22
            drawn = WIEN.bot_deal(view, random.Random(seed))
            assert drawn is not None
            drawn_hearts += sum(c[0] == "H" for c in drawn.deck.codes_of(drawn.deal[caller]))
            found += 1
            break
    assert found >= 5
    assert drawn_hearts / found > fair_hearts / found + 1, (
        drawn_hearts / found,
        fair_hearts / found,
    )


def test_a_hand_played_out_from_a_choice_ends_and_balances() -> None:
    for seed in range(10):
        for _, _, view in decisions(seed):
            drawn = WIEN.bot_deal(view, random.Random(seed))
            if drawn is None:
                continue
            end = simulate.play_out(WIEN, drawn, DECIDE, random.Random(seed))
            assert end.is_over
            result = WIEN.settle_outcome(WIEN.outcome(end))
            assert sum(result["delta"].values()) + result["pot"] - end.pot_before == 0


def test_the_comparison_keeps_the_heuristics_choice_on_a_tie() -> None:
    for seed in range(30):
        for _, _, view in decisions(seed):
            if view["phase"] != "auction":
                continue
            chosen = DECIDE(view, view["legal"], random.Random(0))
            assert chosen is not None
            same = [chosen, dict(chosen)]  # two equal candidates: equal means
            best, means, played = simulate.choose(
                WIEN, view, same, chosen, DECIDE, random.Random(seed), 3
            )
            assert best is chosen and played == 3 and means[0] == means[1]
            return
    raise AssertionError("no auction found")


@pytest.mark.slow
def test_pimc_answers_a_legal_choice_at_every_decision_and_simulates_where_there_is_one() -> None:
    bot = policy_for(WIEN, "pimc:8")
    cards_only = policy_for(WIEN, "pimc-cards:8")
    assert bot is not None and cards_only is not None
    differ = 0
    for seed in range(8):
        for _, _, view in decisions(seed):
            chosen = bot(view, view["legal"], random.Random(seed))
            assert chosen in view["legal"]
            baseline = cards_only(view, view["legal"], random.Random(seed))
            assert baseline == DECIDE(view, view["legal"], random.Random(seed))
            differ += chosen != baseline
    assert differ > 0  # the simulation changes some choices of the heuristic


def test_candidates_are_the_heuristics_best_discards_and_the_premium_calls_in_reach() -> None:
    for seed in range(40):
        for _, _, view in decisions(seed):
            candidates = WIEN.bot_candidates(view, view["legal"])
            assert all(c in view["legal"] for c in candidates)
            chosen = DECIDE(view, view["legal"], random.Random(0))
            if view["phase"] == "talon":
                assert len(candidates) == heuristic.DISCARD_CANDIDATES
                assert candidates[0] == chosen  # the heuristic's discard is the best ranked
            if view["phase"] == "auction":
                assert {"call": "pass"} in candidates
                assert chosen in candidates


def test_a_seat_that_looked_at_the_declarers_discards_is_dealt_no_hand() -> None:
    twelve = [f"H{r}" for r in "789TJQKA"] + ["S7", "S8", "S9", "ST"]
    view = {"seat": "anna", "active": SEATS, "phase": "defence", "hand": twelve}
    view |= {"actions": [{"seat": "anna", "look": True}], "dealt_talon": None}
    assert wien_simulate.original_hand(view) is None
    assert WIEN.bot_deal({**view, "seat": None}, random.Random(0)) is None


def test_the_decision_deals_follow_the_card_samples() -> None:
    assert pimc.decision_deals(100) == 25
    assert pimc.decision_deals(8) == simulate.MIN_DEALS
