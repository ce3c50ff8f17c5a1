"""What a seat knows in card play (``RuleSet.card_play_view``, ``engine.bots.belief``), for
every three-hand rule set, on random hands played by the random bot.

At every state, each seat's view (sent through JSON, so the belief can read nothing else) gives
a belief exactly when a card is to be played that the solver plays (``card_play``) and the
seat sends it; then the belief is the solver's position with only what the seat may know
placed, and it never contradicts the real deal: its placed cards are really there, each
player holds exactly his count of unknown cards, no exclusion (a play obligation read
backwards, a talon the seat saw go elsewhere) rules out a card he holds, and the deals it
samples keep all of that.

``known`` and ``unknown``: ``rs.known(state, seat)`` is every card the seat may know, but a
card it may know is not always a card whose *place* it knows: a talon it saw go to the
declarer (Preferans's talon, ``balkan``'s, a ``wien`` talon shown to a player who called a
premium game, a discard taken up by a player who looked) may still be in his hand or among
the cards he laid away. Such a card is ``unknown`` (and barred from every player who never
took it), so ``unknown == deck.full & ~known`` does not hold; the sound relation checked is:
every card the seat may not know is unknown, and every unknown card it may know is a talon
card its view shows (as dealt, as it lies, or laid away by the seat).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import engine
from engine.actions import Call, PlayCard
from engine.bots import random_bot
from engine.bots.belief import Belief, exclusions, sample
from engine.cards import Deck
from engine.rules import AnyRuleSet
from engine.solver.position import Position
from tests.draws import draws
from tests.engine import family_helpers as family
from tests.engine import helpers as wien
from tests.engine import preferans_helpers as preferans

THREE_HANDED = [rs for rs in engine.rule_sets(include_engine_only=True) if rs.table.players == 3]
SEATS = ("anna", "bert", "carl", "dora")


def random_hands(rs: AnyRuleSet, seed: int) -> Iterator[Any]:
    """The states of one random hand of ``rs`` dealt and played by the random bot, one after
    another until it ends: the rules cycle through the rule set's examples; where the table
    allows four seats every other hand has a fourth seat (the dealer sits out); in every
    third hand each player passes in the auction whenever he may (Preferans's raspasy, wien's
    Ausfechten, a forced player's game, else a hand thrown in)."""
    rng = random.Random(seed)
    rules = rs.examples[seed % len(rs.examples)]
    n = 4 if 4 in rs.table.seats and seed % 2 else 3
    seats = list(SEATS[:n])
    dealer = seats[-1]
    order, _ = rs.shuffled_deck(rng)
    deal = rs.deal_from_deck(order, rs.active_seats(seats, dealer))
    carry = rs.carry_examples[seed % len(rs.carry_examples)]
    record = {"rules": rules, "seats": seats, "dealer": dealer, **carry, "deal": deal}
    state = engine.replay({**record, "actions": []})
    passing = seed % 3 == 2
    while not state.is_over:
        yield state
        action = random_bot.choose(state, rng)
        if passing:
            action = next(
                (a for a in rs.legal_actions(state, None) if a == Call(a.seat, "pass")), action
            )
        state = engine.apply(state, action)


def belief_of(rs: AnyRuleSet, state: Any, seat: str) -> Belief | None:
    """The belief of ``seat`` read from its view as JSON text would carry it."""
    return rs.card_play_view(json.loads(json.dumps(rs.view(state, seat))))


def talons_seen(deck: Deck, view: dict[str, Any]) -> int:
    """The talon cards a view shows: the talon as dealt and as it lies (where the view has
    them), and the cards the seat laid away."""
    out = 0
    for codes in (view.get("dealt_talon"), view.get("talon")):
        out |= deck.parse_hand(codes or [])
    for a in view["actions"]:
        if a.get("discard") and a["seat"] == view["seat"]:
            out |= deck.parse_hand(a["discard"])
    return out


def check_belief(
    rs: AnyRuleSet, state: Any, seat: str, pos: Position, belief: Belief, rng: random.Random
) -> None:
    """Everything the belief of ``seat`` (the sender of the card due) must satisfy."""
    full = pos.deck.full
    real = pos.hands
    placed = belief.position.hands
    counts = belief.counts
    unknown = belief.unknown
    # the solver's position, the hands aside
    assert replace(belief.position, hands=real) == pos
    assert belief.me == pos.seats.index(seat)
    # the placed cards are really there; none of them, nor a played card, is unknown
    played = [(q, c) for trick in belief.tricks for q, c in trick]
    played_mask = sum(1 << c for _, c in (*played, *pos.trick))
    for p in range(3):
        assert placed[p] & ~real[p] == 0, (p, "a placed card is not in the hand")
        assert placed[p] & unknown == 0
    assert played_mask & unknown == 0
    # the complete tricks are the cards played before the trick in progress
    history = {(a.seat, a.card) for a in state.history if isinstance(a, PlayCard)}
    assert all(q < 0 or (pos.seats[q], c) in history for q, c in played)
    assert sum(q >= 0 for q, _ in played) + len(pos.trick) == len(history)
    # unknown against what the seat may know (module docstring)
    known = rs.known(state, seat)
    assert unknown | known == full, "a card the seat may not know is not unknown"
    seen = unknown & known
    assert seen & ~talons_seen(pos.deck, rs.view(state, seat)) == 0, pos.deck.codes_of(seen)
    assert all(placed[p] & ~known == 0 for p in range(3)), "a card placed the seat may not know"
    # each player's unknown cards: his count, all unknown
    for p in range(3):
        rest = real[p] & ~placed[p]
        assert rest.bit_count() == counts[p], (p, "count")
        assert rest & ~unknown == 0
    assert sum(counts) <= unknown.bit_count()
    # no exclusion rules out a card really held
    excluded = exclusions(belief)
    barred = belief.barred
    for p in range(3):
        assert barred[p] & real[p] == 0, (p, pos.deck.codes_of(barred[p] & real[p]))
        assert excluded[p] & real[p] == 0, (p, pos.deck.codes_of(excluded[p] & real[p]))
    # a sampled deal keeps the placed cards, the counts and the exclusions
    hands = sample(belief, rng)
    assert hands is not None, "no deal sampled"
    dealt = 0
    for p in range(3):
        assert hands[p] & placed[p] == placed[p]
        extra = hands[p] & ~placed[p]
        assert extra.bit_count() == counts[p]
        assert extra & ~unknown == 0
        assert extra & excluded[p] == 0
        assert extra & dealt == 0
        dealt |= extra


def check_hand(rs: AnyRuleSet, seed: int, rng: random.Random) -> int:
    """Every state of one random hand, every seat: the beliefs checked; how many."""
    checked = 0
    for state in random_hands(rs, seed):
        pos = rs.card_play(state)
        sender = None if pos is None else rs.sender(state, pos.seats[pos.to_act])
        for seat in state.seats:
            belief = belief_of(rs, state, seat)
            if seat != sender:
                assert belief is None, (seed, seat, "a belief for a seat not to play")
                continue
            assert pos is not None
            assert belief is not None, (seed, seat, "no belief for the seat to play")
            check_belief(rs, state, seat, pos, belief, rng)
            checked += 1
    return checked


@pytest.mark.parametrize("rs", THREE_HANDED, ids=[rs.name for rs in THREE_HANDED])
def test_a_seats_belief_is_its_view_of_card_play(rs: AnyRuleSet) -> None:
    rng = random.Random(5)
    checked = sum(check_hand(rs, seed, rng) for seed in range(80))
    assert checked > 100


@pytest.mark.slow
@pytest.mark.parametrize("rs", THREE_HANDED, ids=[rs.name for rs in THREE_HANDED])
def test_a_seats_belief_is_its_view_of_card_play_on_many_hands(rs: AnyRuleSet) -> None:
    """520 hands on CI, 130 in local runs (tests/draws.py); about two seats to play a
    state on average."""
    rng = random.Random(6)
    hands = draws(520, least=130)
    checked = sum(check_hand(rs, seed, rng) for seed in range(80, 80 + hands))
    assert checked > hands * 1000 // 520


# --- one rule each ----------------------------------------------------------------------------


def codes(rs: AnyRuleSet, cards: int) -> set[str]:
    return set(rs.deck.codes_of(cards))


def must(belief: Belief | None) -> Belief:
    assert belief is not None, "no belief"
    return belief


def test_wien_a_discard_taken_up_by_a_player_who_looked_is_no_longer_known_to_lie_away() -> None:
    """carl takes the talon D7 S7 for his 5 and lays away S8 D8; bert looks, takes them up and
    raises to a 7. carl saw all four cards, but knows only that anna, who never took a talon,
    holds none of them: bert may hold them or have laid them away."""
    rs = engine.rule_set("wien")
    s = wien.hand_from(
        wien.DEAL,
        wien.TALON,
        actions=wien.calls("anna pass", "bert geschaeft", "carl 5", "bert pass"),
    )
    s = wien.act(s, "carl", discard=["S8", "D8"])
    s = wien.act(s, "carl", declare={"type": "premium", "level": 5})
    s = wien.act(s, "bert", look=True)
    s = wien.act(s, "bert", discard=["CK", "CQ"])
    s = wien.act(s, "bert", declare={"type": "premium", "level": 7})
    s = wien.act(s, "carl", look=False)
    s = wien.act(s, "bert", card="C8")
    belief = must(belief_of(rs, s, "carl"))
    assert {"S8", "D8"} <= codes(rs, belief.unknown)
    assert codes(rs, belief.barred[0]) == {"S8", "D8"}  # anna; carl holds D7 S7
    assert belief.barred[1] == 0
    assert belief_of(rs, s, "anna") is None  # not hers to play


def test_balkan_a_talon_shown_to_all_is_barred_from_the_defenders() -> None:
    """balkan shows the talon (D7 S7) to all before anna takes it: bert, to play, knows carl
    holds neither card, but not whether anna laid them away."""
    rs = engine.rule_set("balkan")
    s = family.state_of(
        rs.examples[0],
        "anna call 2",
        "bert call pass",
        "carl call pass",
        "anna discard C7 SK",
        "anna declare suit D",
        "bert defence play",
        "carl defence play",
        "anna give_up false",
        "bert contra false",
        "carl contra false",
        "anna card DA",
        pot=0,
    )
    belief = must(belief_of(rs, s, "bert"))
    assert codes(rs, belief.position.hands[1]) == set(family.DEAL["bert"].split())
    assert belief.position.hands[0] == belief.position.hands[2] == 0
    assert {"D7", "S7", "C7", "SK"} <= codes(rs, belief.unknown)
    assert codes(rs, belief.barred[2]) == {"D7", "S7"}
    assert belief.barred[0] == 0
    assert belief.counts == (9, 0, 10)


def test_preferans_the_whister_in_open_play_believes_for_the_passers_hand() -> None:
    """carl whists alone and plays open: he sends anna's lead from her hand, which he sees;
    the declarer bert holds ten cards carl cannot see, and the talon CA DA (bert's, laid away
    or not) is barred from anna and carl."""
    rs = engine.rule_set("preferans")
    s = preferans.state(
        preferans.calls("anna pass", "bert 6S", "carl pass"),
        preferans.discard("bert", "C8", "C9"),
        preferans.declare("bert", "6S"),
        preferans.whists("carl whist", "anna pass"),
        [{"seat": "carl", "mode": "open"}],
    )
    belief = must(belief_of(rs, s, "carl"))
    assert (belief.me, belief.position.to_act) == (2, 0)
    assert codes(rs, belief.position.hands[0]) == set(preferans.DEAL["anna"])
    assert belief.counts == (0, 10, 0)
    assert codes(rs, belief.barred[0]) == codes(rs, belief.barred[2]) == {"CA", "DA"}
    assert belief_of(rs, s, "anna") is None  # carl sends her cards


def test_preferans_raspasy_the_talon_leads_the_first_two_tricks() -> None:
    """No belief while a talon card leads a trick of the raspasy; afterwards the first two
    tricks begin with the talon's cards CA and DA, played by nobody (-1)."""
    rs = engine.rule_set("preferans")
    s = preferans.state(preferans.calls("anna pass", "bert pass", "carl pass"))
    while rs.card_play(s) is None:
        assert all(belief_of(rs, s, seat) is None for seat in s.seats)
        s = engine.apply(s, engine.legal_actions(s)[0])
    assert s.to_act == "anna"  # first hand plays to the third trick
    belief = must(belief_of(rs, s, "anna"))
    ca, da = rs.deck.index["CA"], rs.deck.index["DA"]
    assert [trick[0] for trick in belief.tricks] == [(-1, ca), (-1, da)]
    assert belief.position.goal == "fewest"
