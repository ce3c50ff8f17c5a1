"""The fast path of rule sets ``doppelkopf`` and ``doppelkopf-ddv``
(:mod:`engine.rules.doppelkopf.fast`) reaches the validating path's Result: the random bot
deals, reserves, announces and plays one hand from a seed on both paths (``fast.random_result``
and ``hand.apply`` with ``fast.choose``), and the two Results are equal, key order included,
for every example's rules, several Kassen and Pflichtsolo debts. Then the shortcuts the fast
path takes, each against what it stands for: the shuffle, the game of four healthy
reservations, the remembered reservations, the follower's cards of :class:`fast.Table`."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.doppelkopf import DDV_RULE_SET, RULE_SET, fast, hand
from engine.rules.doppelkopf.cards import (
    AUGEN,
    CQ,
    DDV_SOLOS,
    DECK,
    NORMAL,
    SOLO_TRUMPS,
    obligations,
    order_for,
)
from engine.rules.doppelkopf.hand import State
from engine.rules.doppelkopf.ruleset import FAST_SEATS
from engine.tricks import legal_mask
from tests.draws import draws

RULE_SETS = {"doppelkopf": RULE_SET, "doppelkopf-ddv": DDV_RULE_SET}
SEATS = ("anna", "bert", "carl", "dora")
KASSEN = (0, 35, 100, 1000)
"""``doppelkopf``: a Kasse that must be refilled, a small one, the usual, a large one."""
DUTIES = ("trump", "none", "head")
"""``doppelkopf``'s ``stichzwang``."""


def rules_of(name: str, example: int) -> Any:
    rs = RULE_SETS[name]
    return rs.parse_rules(rs.examples[example % len(rs.examples)])


def carry_of(rules: Any, seats: tuple[str, ...], pick: int) -> tuple[int | None, tuple[str, ...]]:
    """``doppelkopf``: a Kasse of :data:`KASSEN`; DDV: no Kasse, and none, one or two seats
    owing a Pflichtsolo."""
    if rules.ddv:
        return None, (seats[1 : 1 + pick % 3] if pick % 3 else ())
    return KASSEN[pick % len(KASSEN)], ()


def validating(
    rules: Any, seats: tuple[str, ...], kasse: int | None, owed: tuple[str, ...], seed: int
) -> tuple[dict[str, Any], State]:
    """The random bot's hand from ``seed`` on the validating states (dealt by
    ``fast.deal_hands``, as the fast path deals), settled from its outcome."""
    rs = RULE_SETS[rules.variant]
    rng = random.Random(seed)
    hands = fast.deal_hands(rng.random)
    state = hand.new_state(rules, seats, seats[-1], seats, kasse, owed, hands)
    while not state.is_over:
        state = hand.apply(state, fast.choose(state, rng))
    return rs.settle_outcome(hand.outcome(state)), state


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal Results, written alike: the same keys in the same order at every level."""
    return a == b and json.dumps(a) == json.dumps(b)


def counted(state: State) -> tuple[list[int], list[int]]:
    """Each player's Augen and tricks in a finished hand."""
    augen, tricks = [0, 0, 0, 0], [0, 0, 0, 0]
    for _, cards, winner in state.tricks:
        augen[winner] += sum(AUGEN[c] for c in cards)
        tricks[winner] += 1
    return augen, tricks


def check(name: str, example: int, seed: int, pick: int) -> State:
    """Both paths from ``seed``: the same Result, and the fast path counted what the validating
    state holds at the end (Augen, tricks, the Re party, the Hochzeit's partner, each party's
    announcement level and whether its word came only as a reply, the last trick)."""
    rules = rules_of(name, example)
    kasse, owed = carry_of(rules, SEATS, pick)
    slow, state = validating(rules, SEATS, kasse, owed, seed)
    seen: list[fast.Played] = []
    settle_played = fast.settle_played

    def spy(*args: Any) -> dict[str, Any]:
        seen.append(args[3])
        return settle_played(*args)

    with mock.patch.object(fast, "settle_played", spy):
        quick = fast.random_result(rules, SEATS, kasse, owed, random.Random(seed))
    assert same(quick, slow), (seed, quick, slow)
    (played,) = seen
    assert (played.augen, played.tricks) == counted(state)
    assert played.re == tuple(sorted(state.re))
    assert (played.partner, played.clarified) == (state.partner, state.clarified)
    assert (played.levels, played.reply_only) == (list(state.levels), list(state.reply_only))
    leader, cards, winner = state.tricks[-1]
    best = cards[(winner - leader) % 4]
    assert (played.last[0], DECK.codes[played.last[1]]) == (winner, DECK.codes[best])
    return state


@settings(max_examples=draws(800), deadline=None)
@given(
    name=st.sampled_from(sorted(RULE_SETS)),
    example=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
    pick=st.integers(0, 11),
)
def test_the_fast_path_reaches_the_validating_result(
    name: str, example: int, seed: int, pick: int
) -> None:
    """Any seed, every example's rules (``stichzwang`` ``trump``, ``head`` and ``none``, solos
    led by the soloist, a Hochzeit deadline, a Heimliches Solo with both CQ, the DDV second
    Dulle), a Kasse of each size, Pflichtsolo debts: the same Result on both paths."""
    check(name, example, seed, pick)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_fast_path_reaches_the_validating_result_in_every_kind_of_hand(name: str) -> None:
    """Fixed seeds over every example: the hands met on the way include each game of the rule
    set, a Hochzeit with and without a partner, announcements up to Absagen, and extra points
    of every kind."""
    rs = RULE_SETS[name]
    met: set[str] = set()
    for seed in range(700):
        state = check(name, seed, seed, seed)
        met.add(str(state.game))
        if state.game == "hochzeit":
            met.add("hochzeit with partner" if state.partner >= 0 else "lone hochzeit")
        if any(level >= 1 for level in state.levels):
            met.add("absage")
        if rules_of(name, seed).ddv and state.game in ("normal", "hochzeit"):
            out = hand.outcome(state)
            met.update(x for party in out.extras.values() for x in party)
    if rs is RULE_SET:
        games = {"normal", "hochzeit", "solo", "karlchen", "secret_solo"}
        assert games | {"hochzeit with partner", "lone hochzeit"} <= met
    else:
        games = {"normal", "hochzeit", "solo", "silent_solo"}
        extras = {"doppelkopf", "fox", "karlchen"}
        assert games | extras | {"hochzeit with partner", "absage"} <= met


@settings(max_examples=draws(200), deadline=None)
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32 - 1))
def test_play_random_hand_is_the_fast_path_at_the_fast_table(name: str, seed: int) -> None:
    """``play_random_hand`` plays at the table of ``a b c d`` (``d`` deals), each carry example
    read as the rule set reads it."""
    rs = RULE_SETS[name]
    rules = rules_of(name, seed)
    for carry in rs.carry_examples:
        kasse, owed = rs.carry_of(FAST_SEATS, rs.read_carry(carry))
        quick = rs.play_random_hand(rules, rs.read_carry(carry), random.Random(seed))
        slow, _ = validating(rules, FAST_SEATS, kasse, owed, seed)
        assert same(quick, slow)


# --- the shortcuts ---------------------------------------------------------------------------


def fisher_yates(rng: random.Random) -> tuple[int, int, int, int]:
    """The deal written plainly: the deck shuffled by Fisher-Yates on ``rand()`` from the top
    place down, places 0-11 forehand's, 12-23 the next seat's, and so on."""
    cards = list(range(48))
    for i in range(47, 0, -1):
        j = int(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    hands = [0, 0, 0, 0]
    for place, card in enumerate(cards):
        hands[place // 12] |= 1 << card
    return hands[0], hands[1], hands[2], hands[3]


@settings(max_examples=draws(400), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_deal_is_a_fisher_yates_shuffle_stopped_at_the_last_hand(seed: int) -> None:
    """``deal_hands`` draws places 47 down to 12 only (the last swap's cards are forehand's
    anyway), so it deals what the whole shuffle deals, from one draw fewer for each place."""
    dealt = fast.deal_hands(random.Random(seed).random)
    assert dealt == fisher_yates(random.Random(seed))
    assert all(h.bit_count() == 12 for h in dealt)
    assert dealt[0] | dealt[1] | dealt[2] | dealt[3] == DECK.full


@settings(max_examples=draws(400), deadline=None)
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32 - 1))
def test_four_healthy_reservations_make_the_healthy_game(name: str, seed: int) -> None:
    """``healthy_game`` is what ``hand.resolve`` makes of four :func:`fast.healthy`
    reservations."""
    rules = rules_of(name, seed)
    hands = fast.deal_hands(random.Random(seed).random)
    reservations = tuple(fast.healthy(rules, seat, h) for seat, h in zip(SEATS, hands, strict=True))
    game, declarer, kind, pflicht, leader = hand.resolve(rules, SEATS, (), hands, reservations)
    assert (game, declarer) == fast.healthy_game(rules.ddv, hands)
    assert (kind, pflicht, leader) == (NORMAL, False, 0)


@settings(max_examples=draws(400), deadline=None)
@given(
    name=st.sampled_from(sorted(RULE_SETS)),
    example=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_hands_reservations_are_decided_by_its_queens_and_jacks(
    name: str, example: int, seed: int
) -> None:
    """``other_reservations`` remembers a seat's reservations by the hand's CQ and CJ
    (:data:`fast.RESERVING_CARDS`): the whole hand allows the same ones, and a draw picks among
    them as ``choose_other`` does."""
    rules = rules_of(name, example)
    rng = random.Random(seed)
    for seat, cards in zip(SEATS, fast.deal_hands(rng.random), strict=True):
        first, others = fast.other_reservations(rules, seat, cards & fast.RESERVING_CARDS)
        options = hand.reservation_choices(rules, seat, cards)
        assert first == fast.healthy(rules, seat, cards)
        assert others == tuple(r for r in options if r != first)
        draw = rng.random()
        picked = others[int(draw * len(others))] if others else first
        assert picked == fast.choose_other(itertools.repeat(draw).__next__, first, options)


GAMES = [
    *((False, kind, False, duty) for kind in (NORMAL, *SOLO_TRUMPS[:3]) for duty in DUTIES),
    *((True, kind, dulle, "") for kind in (NORMAL, *DDV_SOLOS) for dulle in (False, True)),
]
"""Every game order under every duty: ``doppelkopf`` (the normal order and its colour solos,
each ``stichzwang``) and DDV (with and without the second Dulle; one duty)."""


@pytest.mark.parametrize("ddv, kind, second_dulle, stichzwang", GAMES)
def test_a_tables_cards_are_the_legal_cards(
    ddv: bool, kind: str, second_dulle: bool, stichzwang: str
) -> None:
    """For random hands and tricks of one to three cards: a follower may play what
    ``legal_mask`` allows, and the trick's best card is beaten by what ``CardOrder.beats``
    says, as :class:`fast.Table` reads them."""
    order = order_for(ddv, kind, second_dulle)
    duty = obligations(ddv, stichzwang).bits
    table = fast.table_for(ddv, kind, second_dulle, stichzwang)
    rng = random.Random(f"{ddv}{kind}{second_dulle}{stichzwang}")
    for _ in range(2000):
        deck = list(range(48))
        rng.shuffle(deck)
        size = rng.randint(1, 12)
        hand_mask = sum(1 << c for c in deck[:size])
        trick = deck[size : size + rng.randint(1, 3)]
        best = trick[0]
        for c in trick[1:]:
            assert bool(table.beats[best] >> c & 1) == order.beats(c, best)
            if order.beats(c, best):
                best = c
        want = legal_mask(
            hand_mask,
            order.suit_of[trick[0]],
            best,
            order.suit_of,
            order.suit_mask,
            order.above,
            order.trump,
            duty,
        )
        mask = hand_mask & table.follow[trick[0]] or hand_mask & table.must_trump or hand_mask
        if table.head:
            mask = mask & table.beats[best] or mask
        assert mask == want, (trick, DECK.codes_of(hand_mask))


def test_a_table_refuses_obligations_no_doppelkopf_rules_have() -> None:
    order = order_for(False, NORMAL)
    for bits in (obligations(False, "head").bits | 8, 1 | 4):  # Largierpflicht; head, no trump
        with pytest.raises(ValueError, match="no Doppelkopf rules"):
            fast.Table(order, bits)


def test_a_hand_with_both_queens_is_a_hochzeit_or_a_silent_solo() -> None:
    """The healthy game of a deal whose second seat holds both CQ, and of one where two seats
    hold one each."""
    low, high = (c for c in range(48) if CQ >> c & 1)
    rest = [c for c in range(48) if not CQ >> c & 1]
    both = (
        sum(1 << c for c in rest[:12]),
        1 << low | 1 << high | sum(1 << c for c in rest[12:22]),
        sum(1 << c for c in rest[22:34]),
        sum(1 << c for c in rest[34:]),
    )
    assert fast.healthy_game(False, both) == ("hochzeit", 1)
    assert fast.healthy_game(True, both) == ("silent_solo", 1)
    split = (both[0], both[1] ^ 1 << high | 1 << rest[0], both[2], both[3])
    split = (split[0] ^ 1 << rest[0] | 1 << high, *split[1:])
    assert all(h.bit_count() == 12 for h in split)
    assert fast.healthy_game(False, split) == fast.healthy_game(True, split) == ("normal", -1)
