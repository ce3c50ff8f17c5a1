"""The heuristic Doppelkopf bot (:mod:`engine.rules.doppelkopf.heuristic`): over random deals
of both rule sets it always answers one of the legal actions of the view it is given (or
``None`` only when it may merely announce), from that view alone; its card orders are the
engine's; and, on positions written as card strings, each behaviour its docstring names:
reservations, announcements, saving a fox, feeding a partner, winning cheaply, leading aces.

Positions: seats ``anna bert carl dora``, dora deals, so anna is forehand
(``tests/engine/doppelkopf_helpers.py``)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.actions import Action
from engine.rules.doppelkopf.cards import DECK, order_for, trick_winner
from engine.rules.doppelkopf.hand import State
from engine.rules.doppelkopf.heuristic import choose, order_of, tricks
from tests.draws import draws
from tests.engine.doppelkopf_helpers import (
    ALL_NONE,
    DDV,
    DEALER,
    RULES,
    SEATS,
    apply,
    deal,
    play,
)

VARIANTS = {"doppelkopf": RULES, "doppelkopf-ddv": DDV}
KINDS = {
    False: ("normal", "C", "S", "H", "D"),
    True: ("normal", "queens", "jacks", "C", "S", "H", "D", "fleischlos"),
}
"""The card orders of each rule set (``True``: the DDV rules)."""


def ask(state: State, seat: str, seed: int = 0) -> dict[str, Any] | None:
    """The bot's answer for ``seat``, given only that seat's view and the view's ``legal``."""
    view = engine.view(state, seat)
    return choose(view, view["legal"], random.Random(seed))


def answer(state: State, seat: str) -> Any:
    """The value of the bot's answer (the card code, reservation or announcement)."""
    action = ask(state, seat)
    assert action is not None
    return next(v for k, v in action.items() if k != "seat")


# --- the card orders -------------------------------------------------------------------------


@settings(max_examples=draws(400), deadline=None)
@given(
    ddv=st.booleans(),
    pick=st.integers(0, 7),
    cards=st.lists(st.integers(0, DECK.size - 1), min_size=4, max_size=4, unique=True),
)
def test_the_bots_card_orders_take_the_tricks_the_engine_gives(
    ddv: bool, pick: int, cards: list[int]
) -> None:
    """The bot writes the trump orders out (the core imports no rule set): in every game of
    both rule sets it names the same winner of any four cards as the engine (two copies of a
    code included: the first played wins)."""
    kind = KINDS[ddv][pick % len(KINDS[ddv])]
    codes = [DECK.code(c) for c in cards]
    engine_kind = "normal" if kind == "D" else kind
    assert order_of(ddv, engine_kind).winner(codes) == trick_winner(order_for(ddv, kind), cards)


# --- every answer is legal, from the view alone ---------------------------------------------


CARRIES: dict[str, tuple[dict[str, Any], ...]] = {
    "doppelkopf": ({"kasse": 0}, {"kasse": 100}),
    "doppelkopf-ddv": (
        {},
        {"pflicht_owed": ["bert", "carl"]},
        {"pflicht_owed": ["anna"], "vorfuehrung": "anna"},
    ),
}
"""Each rule set's carries before a deal: a Kasse; no debt, two Pflichtsolo debts (a solo of
theirs is a Pflichtsolo), a Vorführung (anna may only reserve a solo)."""


def random_state(variant: str, rng: random.Random, pick: int) -> State:
    rs = engine.rule_set(variant)
    order, _ = rs.shuffled_deck(rng)
    hands = rs.deal_from_deck(order, rs.active_seats(SEATS, DEALER))
    carry = CARRIES[variant][pick % len(CARRIES[variant])]
    state: State = rs.start_hand(rs.parse_rules(VARIANTS[variant]), SEATS, DEALER, carry, hands)
    return state


def checked(state: State, seat: str, seed: int) -> dict[str, Any] | None:
    """The bot's answer for ``seat``, checked: one of the view's legal actions, ``None`` only
    when they hold no reservation and no card; the same from a JSON copy of the view (it
    reads nothing but the view's data) and again from the same seed; the view untouched."""
    view = engine.view(state, seat)
    before = copy.deepcopy(view)
    legal = view["legal"]
    got = choose(view, legal, random.Random(seed))
    assert view == before
    if got is None:
        assert not [a for a in legal if "card" in a or "reservation" in a]
    else:
        assert got in legal
    plain = json.loads(json.dumps(view))
    assert choose(plain, plain["legal"], random.Random(seed)) == got
    return got


def as_action(state: State, data: dict[str, Any]) -> Action:
    action: Action = engine.rule_set(state.rules.variant).action_from_json(data, "bot")
    return action


@settings(max_examples=draws(200), deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32 - 1),
    bots=st.sets(st.sampled_from(SEATS), min_size=1),
    pick=st.integers(0, 5),
)
def test_the_bot_answers_one_of_its_legal_actions_over_random_deals(
    variant: str, seed: int, bots: set[str], pick: int
) -> None:
    """The seats in ``bots`` are the heuristic, the others the random policy. Before every
    action each heuristic seat is asked, its turn or not (under the DDV rules it may announce
    at any time); a heuristic seat's announcement out of turn is made, else the seat to act
    acts: the heuristic, or the random policy, which asks the heuristic instead when it draws
    a heuristic seat's announcement (the benchmark's rule). Deals carry a Kasse, Pflichtsolo
    debts or a Vorführung (:data:`CARRIES`)."""
    rng = random.Random(seed)
    rs = engine.rule_set(variant)
    state = random_state(variant, rng, pick)
    while not state.is_over:
        answers = {seat: checked(state, seat, seed + len(state.history)) for seat in bots}
        turn = state.active[state.turn]
        out_of_turn = [a for s, a in answers.items() if s != turn and a is not None]
        if out_of_turn:
            action = as_action(state, out_of_turn[0])
        elif turn in bots:
            mine = answers[turn]
            assert mine is not None
            action = as_action(state, mine)
        else:
            action = rs.random_action(state, rng)
            while action.seat in bots:  # its announcement: the heuristic declined it above
                action = rs.random_action(state, rng)
        state = engine.apply(state, action)
    assert rs.settle_outcome(rs.outcome(state))["delta"]


def test_the_bot_answers_none_only_when_it_may_merely_announce() -> None:
    hands = deal(anna="CQ", bert="CQ", dora="D9 D9 C9 C9 S9 S9 H9 H9 SK HK CK DK")
    state = play(hands, *ALL_NONE, rules=DDV)
    view = engine.view(state, "bert")  # anna is to play; bert may announce
    assert {next(iter(set(a) - {"seat"})) for a in view["legal"]} == {"announce"}
    assert choose(view, [], random.Random(0)) is None
    assert ask(state, "dora") is None  # a weak hand makes no announcement


# --- reservations ----------------------------------------------------------------------------


WEAK_WITH_BOTH_QUEENS = "CQ CQ D9 D9 C9 C9 S9 S9 H9 H9 SK HK"
STRONG_WITH_BOTH_QUEENS = "HT HT CQ CQ SQ SQ HQ HQ DQ CJ CA SA"


def test_a_weak_hand_with_both_queens_reserves_a_hochzeit_in_both_rule_sets() -> None:
    for rules in VARIANTS.values():
        state = play(deal(anna=WEAK_WITH_BOTH_QUEENS), rules=rules)
        assert answer(state, "anna") == "hochzeit"


def test_ddv_a_strong_hand_with_both_queens_plays_a_silent_solo() -> None:
    """Under the DDV rules ``none`` with both CQ is a stilles Solo: the normal order, hidden
    until the second CQ falls."""
    assert tricks(STRONG_WITH_BOTH_QUEENS.split(), order_of(True, "normal")) >= 7
    state = play(deal(anna=STRONG_WITH_BOTH_QUEENS), rules=DDV)
    assert answer(state, "anna") == "none"


def test_doppelkopf_a_strong_hand_with_both_queens_plays_a_solo() -> None:
    """``none`` is not allowed with both CQ in ``doppelkopf``: the strong hand plays a solo
    rather than a Hochzeit."""
    state = play(deal(anna=STRONG_WITH_BOTH_QUEENS), rules=RULES)
    assert "solo" in answer(state, "anna")


def test_ddv_eight_jacks_and_four_aces_announce_a_jacks_solo() -> None:
    state = play(deal(bert="CJ CJ SJ SJ HJ HJ DJ DJ CA CA SA HA"), "anna none", rules=DDV)
    assert answer(state, "bert") == {"solo": "jacks"}


def test_doppelkopf_a_long_strong_heart_hand_announces_a_hearts_solo() -> None:
    """Queens, jacks and both heart aces: in a hearts solo all twelve cards are trumps."""
    hand = "CQ SQ SQ HQ HQ DQ DQ CJ CJ SJ HA HA"
    state = play(deal(anna=hand), rules=RULES)
    assert answer(state, "anna") == {"solo": "H"}


def test_ddv_a_player_vorgefuehrt_plays_his_best_solo_however_weak() -> None:
    """In a Vorführung only solos are allowed: with jacks and nothing else, a Bubensolo."""
    hand = "CJ SJ SJ HJ DJ D9 D9 C9 C9 S9 H9 HK"
    state = play(deal(anna=hand), rules=DDV, pflicht_owed=["anna"], vorfuehrung="anna")
    assert "none" not in engine.view(state, "anna")["legal"][0].values()
    assert answer(state, "anna") == {"solo": "jacks"}


def test_an_ordinary_hand_reserves_nothing() -> None:
    for rules in VARIANTS.values():
        state = play(deal(anna="CQ SQ HJ DA DK D9 CA CK S9 ST HK H9"), rules=rules)
        assert answer(state, "anna") == "none"


# --- announcements (DDV) ---------------------------------------------------------------------


STRONG_RE = "HT CQ SQ SQ HQ DQ CJ SJ DA CA SA HA"


def test_ddv_a_strong_hand_announces_its_party_before_its_first_card() -> None:
    state = play(deal(anna=STRONG_RE, bert="CQ"), *ALL_NONE, rules=DDV)
    assert answer(state, "anna") == "re"
    state = engine.apply(state, as_action(state, {"seat": "anna", "announce": "re"}))
    assert "card" in (ask(state, "anna") or {})  # then it plays


def test_ddv_a_strong_hand_without_queens_announces_kontra() -> None:
    hand = "HT HT SQ SQ HQ DQ CJ SJ DA CA SA HA"
    state = play(deal(bert=hand, anna="CQ", carl="CQ"), *ALL_NONE, rules=DDV)
    assert answer(state, "bert") == "kontra"


def test_ddv_a_weak_hand_announces_nothing_and_plays() -> None:
    state = play(deal(anna="CQ D9 D9 C9 C9 S9 S9 H9 H9 SK HK CK", bert="CQ"), *ALL_NONE, rules=DDV)
    action = ask(state, "anna")
    assert action is not None and "card" in action


# --- card play -------------------------------------------------------------------------------


DORA = "CQ DA D9 CT CK ST S9 HK H9 SK SQ HQ"
"""dora's hand in the next tests: Re by her CQ, with the fox, a club ten and king."""


def anna_wins_the_first_trick_with_a_cq(rules: dict[str, Any], clubs: str) -> State:
    """anna leads a CQ and wins trick 1: she is Re, so dora (the other CQ) knows her partner.
    ``clubs``: the clubs of anna, bert and carl (a code each)."""
    anna, bert, carl = clubs.split()
    hands = deal(anna=f"CQ D9 {anna}", bert=f"DJ {bert}", carl=f"DK {carl}", dora=DORA)
    return apply(play(hands, *ALL_NONE, rules=rules), "anna CQ", "bert DJ", "carl DK")


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS)
def test_it_plays_the_fox_into_a_trick_its_partner_wins(rules: dict[str, Any]) -> None:
    """dora, last to play, must follow trumps into her partner's CQ trick: she gives the fox
    (DA), the most Augen, and keeps her own CQ."""
    state = anna_wins_the_first_trick_with_a_cq(rules, "CA C9 C9")
    assert answer(state, "dora") == "DA"


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS)
def test_it_keeps_the_fox_out_of_a_trick_it_cannot_win(rules: dict[str, Any]) -> None:
    """anna's Hochzeit is not clarified: dora knows nobody's side. Following trumps into
    anna's CQ she throws the diamond nine and keeps the fox."""
    hands = deal(anna="CQ CQ", bert="DJ", carl="DK", dora="DA D9 CT C9 ST S9 HK H9 SK S9 HA C9")
    state = play(hands, "anna hochzeit", *ALL_NONE[1:], rules=rules)
    state = apply(state, "anna CQ", "bert DJ", "carl DK")
    assert answer(state, "dora") == "D9"


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS)
def test_it_feeds_its_partners_trick_and_not_an_opponents(rules: dict[str, Any]) -> None:
    """Trick 2, dora last, must follow clubs. Her partner anna wins with the CA: dora gives
    the ten. bert (then known to her as Kontra) wins with the CA: she throws the king."""
    state = anna_wins_the_first_trick_with_a_cq(rules, "CA C9 C9")
    state = apply(state, "dora D9", "anna CA", "bert C9", "carl C9")
    assert answer(state, "dora") == "CT"
    state = anna_wins_the_first_trick_with_a_cq(rules, "C9 CA C9")
    state = apply(state, "dora D9", "anna C9", "bert CA", "carl C9")
    assert answer(state, "dora") == "CK"


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS)
def test_last_to_play_it_wins_an_opponents_trick_with_the_cheapest_trump(
    rules: dict[str, Any],
) -> None:
    """dora, last, void in hearts: bert's HA would win; she takes it with her lowest trump."""
    hands = deal(
        anna="H9 CQ",
        bert="HA CQ",
        carl="HK",
        dora="D9 DK DJ SQ SA SA S9 S9 CA CA C9 C9",
    )
    state = play(hands, *ALL_NONE, rules=rules)
    state = apply(state, "anna H9", "bert HA", "carl HK")
    assert answer(state, "dora") == "D9"


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS)
def test_it_leads_the_ace_of_a_fresh_plain_suit(rules: dict[str, Any]) -> None:
    """Forehand's first lead: the ace of the shortest plain suit, not yet led."""
    state = play(deal(anna="CQ DJ D9 CA C9 C9 SA ST SK S9 H9 HK"), *ALL_NONE, rules=rules)
    assert answer(state, "anna") == "CA"
