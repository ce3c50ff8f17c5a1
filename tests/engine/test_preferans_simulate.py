"""The ``pimc`` bot's choices other than the card at Russian Preferans, by simulation
(``engine.bots.simulate``): the whole deals a seat is dealt from its view
(``RuleSet.bot_deal``, ``engine.rules.preferans.simulate``) look to it exactly like the real
deal, the auction tells where the strength lies, a deal played out from a choice ends on a
balanced sheet, and the bot answers a legal choice at every decision.

Deals are dealt at random on a pulya's sheet and played by the heuristic bot up to each
decision before the first card; the seat deciding is each time the one to act.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine.bots import simulate
from engine.bots.levels import policy_for
from engine.cards import PIQUET
from engine.rules.preferans import heuristic
from engine.rules.preferans import simulate as preferans_simulate
from engine.rules.preferans.ruleset import random_deal
from tests.draws import draws

PREFERANS = engine.rule_set("preferans")
SEATS3 = ("anna", "bert", "carl")
SEATS4 = ("anna", "bert", "carl", "dora")
DECIDE = heuristic.choose


def rules(seed: int) -> Any:
    """The conventions' example rules in turn (Sochi, Leningrad, Rostov)."""
    examples = PREFERANS.examples
    return PREFERANS.parse_rules(examples[seed % len(examples)])


def decisions(seed: int, seats: tuple[str, ...] = SEATS3) -> Iterator[tuple[Any, str, Any]]:
    """Each decision before the first card of deal ``seed`` played by the heuristic: the
    state, the seat to act and its view."""
    table_rules = rules(seed)
    carry = PREFERANS.opening_carry(table_rules, seats)
    rng = random.Random(seed)
    state = random_deal(PREFERANS, table_rules, carry, rng, seats)
    while not state.is_over and state.phase in preferans_simulate.BEFORE_PLAY:
        seat = next(s for s in seats if s in PREFERANS.to_act(state))
        view = engine.view(state, seat)
        yield state, seat, view
        chosen = DECIDE(view, view["legal"], rng)
        assert chosen is not None
        state = engine.apply(state, PREFERANS.action_from_json({**chosen, "seat": seat}, "a"))


@pytest.mark.slow
@pytest.mark.parametrize("seats", [SEATS3, SEATS4], ids=["three", "four"])
def test_a_drawn_deal_shows_the_seat_exactly_its_own_view(seats: tuple[str, ...]) -> None:
    """40 deals on CI, 10 in local runs (tests/draws.py)."""
    deals = draws(40, least=10)
    checked, phases = 0, set()
    for seed in range(deals):
        for _, seat, view in decisions(seed, seats):
            rng = random.Random(seed)
            for _ in range(2):
                drawn = PREFERANS.bot_deal(view, rng)
                assert drawn is not None
                assert engine.view(drawn, seat) == view
                checked += 1
                phases.add(view["phase"])
    assert checked > 150 * deals // 40
    assert {"auction", "discard", "declare", "whist"} <= phases


@pytest.mark.slow
def test_a_drawn_deal_keeps_the_turned_talon_and_the_seats_cards_and_deals_the_rest_anew() -> None:
    """60 deals on CI, 15 in local runs (tests/draws.py)."""
    moved = kept = 0
    deals = draws(60, least=15)
    for seed in range(deals):
        for state, seat, view in decisions(seed):
            drawn = PREFERANS.bot_deal(view, random.Random(seed))
            assert drawn is not None
            me = state.active.index(seat)
            assert drawn.deal[me] == state.deal[me]
            if view["phase"] == "auction":
                continue  # the talon is not turned yet: it is dealt anew too
            assert drawn.talon == state.talon
            assert drawn.discard == state.discard or state.declarer != me
            kept += 1
            other = (me + 1) % 3
            moved += drawn.deal[other] != state.deal[other]
    assert kept > 20 * deals // 60 and moved > 0


def aces_and_kings(codes: list[str]) -> int:
    return sum(c[1] in "AK" for c in codes)


@pytest.mark.slow
def test_the_auction_tells_who_holds_the_high_cards() -> None:
    """A player who bid a contract is dealt more aces and kings than chance gives him: the
    drawn deals explain the calls as the heuristic would have made them."""
    drawn_high = fair_high = 0.0
    found = 0
    for seed in range(300):
        for state, seat, view in decisions(seed):
            bidders = [
                a["seat"]
                for a in view["actions"]
                if a.get("call") not in (None, "pass", "misere") and a["seat"] != seat
            ]
            if view["phase"] != "auction" or not bidders:
                continue
            bidder = state.active.index(bidders[0])
            unknown = 8 - aces_and_kings(view["hand"])
            fair_high += unknown * 10 / 22
            drawn = PREFERANS.bot_deal(view, random.Random(seed))
            assert drawn is not None
            drawn_high += aces_and_kings(PIQUET.codes_of(drawn.deal[bidder]))
            found += 1
            break
    assert found >= 30
    assert drawn_high / found > fair_high / found + 0.5, (drawn_high / found, fair_high / found)


@pytest.mark.slow
def test_a_deal_played_out_from_a_choice_ends_on_a_balanced_sheet() -> None:
    ended = 0
    for seed in range(12):
        for _, seat, view in decisions(seed):
            drawn = PREFERANS.bot_deal(view, random.Random(seed))
            assert drawn is not None
            end = simulate.play_out(PREFERANS, drawn, DECIDE, random.Random(seed))
            assert end.is_over
            carry = PREFERANS.carry_after(PREFERANS.settle_outcome(PREFERANS.outcome(end)))
            whists = PREFERANS.sitting_score(end.rules, list(end.seats), carry)
            assert sum(whists.values()) == 0
            assert simulate.outcome_value(PREFERANS, end, seat) == whists[seat]
            ended += 1
    assert ended > 20


def test_candidates_are_the_heuristics_best_few_and_every_whist() -> None:
    seen = set()
    misere_seen = 0
    for seed in range(60):
        for _, _, view in decisions(seed):
            legal = view["legal"]
            candidates = PREFERANS.bot_candidates(view, legal)
            assert candidates and all(c in legal for c in candidates)
            chosen = DECIDE(view, legal, random.Random(0))
            assert chosen in candidates
            phase = view["phase"]
            seen.add(phase)
            if phase == "discard":
                assert len(legal) == 66
                assert len(candidates) == heuristic.DISCARD_CANDIDATES
                assert candidates[0] == chosen  # the heuristic's discard is the best ranked
            if phase == "declare":
                assert len(candidates) == min(len(legal), heuristic.DECLARE_CANDIDATES)
                assert candidates[0] == chosen
            if phase == "auction":
                calls = {c["call"] for c in candidates}
                assert "pass" in calls and len(calls) <= 5
                chance = heuristic.talon_chance(heuristic.holding(view["hand"]), "misere")
                near = chance >= heuristic.MISERE_REACH and any(
                    a["call"] == "misere" for a in legal
                )
                assert ("misere" in calls) == near or chosen["call"] == "misere"
                misere_seen += near
            if phase in ("whist", "mode"):
                assert candidates == legal
    assert {"auction", "discard", "declare", "whist"} <= seen
    assert misere_seen > 0  # a hand near a misère has it compared


@pytest.mark.slow
def test_pimc_answers_a_legal_choice_at_every_decision_and_simulates_where_there_is_one() -> None:
    bot = policy_for(PREFERANS, "pimc:8")
    cards_only = policy_for(PREFERANS, "pimc-cards:8")
    assert bot is not None and cards_only is not None
    differ = 0
    for seed in range(10):
        for _, _, view in decisions(seed):
            chosen = bot(view, view["legal"], random.Random(seed))
            assert chosen in view["legal"]
            baseline = cards_only(view, view["legal"], random.Random(seed))
            assert baseline == DECIDE(view, view["legal"], random.Random(seed))
            differ += chosen != baseline
    assert differ > 0  # the simulation changes some choices of the heuristic


def test_no_deal_is_drawn_for_a_spectator_the_dealer_sitting_out_or_in_card_play() -> None:
    for seed in range(20):
        for state, _, _ in decisions(seed, SEATS4):
            dealer = engine.view(state, state.dealer)
            assert PREFERANS.bot_deal(dealer, random.Random(0)) is None
            spectator = engine.view(state, None)
            assert PREFERANS.bot_deal(spectator, random.Random(0)) is None
    view = {"seat": "anna", "active": list(SEATS3), "phase": "play", "hand": []}
    assert PREFERANS.bot_deal(view, random.Random(0)) is None
