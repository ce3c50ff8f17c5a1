"""The heuristic wien bot (:mod:`engine.rules.wien.heuristic`): on positions written as card
strings, each decision its docstring names (auction, Geschäft suit, talon, declaration,
Nachschauen, defence, invitation, Aushandeln); over random deals it always answers one of the
legal actions of the view it is given, from that view alone, and ``None`` only when a card is
to be played; and a seat that decides by it loses less money than a random seat.

Positions: seats ``anna bert carl``, carl deals, so anna is forehand
(``tests/engine/helpers.py``); :func:`table` deals the cards a test does not name."""

from __future__ import annotations

import copy
import json
import math
import random
import statistics
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import PIQUET
from engine.bots import random_bot
from engine.rules.wien import State
from engine.rules.wien.heuristic import (
    by_suit,
    choose,
    declarer_tricks,
    defender_tricks,
    misere_risk,
    side_tricks,
    slam_losers,
)
from tests.draws import draws
from tests.engine.helpers import RULES, SEATS, act, calls, cards, hand_from

Deal = tuple[dict[str, str], str]


def table(anna: str, bert: str | None = None, carl: str | None = None, talon: str = "") -> Deal:
    """A deal with the named hands and talon; the cards left go, in card order, to the hands
    not named, then to the talon."""
    named = set(cards(f"{anna} {bert or ''} {carl or ''} {talon}"))
    rest = [c for c in PIQUET.codes_of(PIQUET.full) if c not in named]
    hands = {"anna": anna}
    for seat, hand in (("bert", bert), ("carl", carl)):
        if hand is None:
            hand, rest = " ".join(rest[:10]), rest[10:]
        hands[seat] = hand
    if not talon:
        talon, rest = " ".join(rest[:2]), rest[2:]
    assert not rest, f"cards left over: {rest}"
    return hands, talon


def ask(state: State, seat: str | None = None) -> dict[str, Any] | None:
    """The bot's answer for ``seat`` (the seat to act), from its view and the view's
    ``legal``."""
    view = engine.view(state, seat or state.to_act_seat)
    return choose(view, view["legal"], random.Random(0))


def answer(state: State) -> Any:
    """The value of the bot's answer (the call, the discard, the game, ...)."""
    action = ask(state)
    assert action is not None
    (value,) = action.values()
    return value


def first_call(anna: str) -> Any:
    """anna's opening call with ``anna``, the other cards dealt by :func:`table`."""
    return answer(hand_from(*table(anna)))


def then(state: State, *actions: dict[str, Any]) -> State:
    """``state`` after ``actions`` (each with its ``seat``)."""
    for action in actions:
        seat = action["seat"]
        state = act(state, seat, **{k: v for k, v in action.items() if k != "seat"})
    return state


# --- counting a hand -------------------------------------------------------------------------


def test_trumps_count_their_length_less_the_missing_honours() -> None:
    # AKQ J T: five sure tricks, the ace half more, two long trumps a quarter each
    assert declarer_tricks(cards("HA HK HQ HJ HT C7 C8 S7 S8 D7"), "H") == 6.0
    # without ace and king two of five trumps lose
    assert declarer_tricks(cards("HQ HJ HT H9 H8 C7 C8 S7 S8 D7"), "H") == 3.5


def test_side_aces_and_kings_count_less_with_few_trumps() -> None:
    clubs = by_suit(cards("CA CK C7"))["C"]
    # with two trumps the defenders ruff the second round: the CK behind the CA counts half
    assert side_tricks(clubs, trumps=2) == pytest.approx(1.65)
    assert side_tricks(clubs, trumps=4) == pytest.approx(2.05)


def test_a_defender_counts_aces_guarded_kings_and_long_trumps() -> None:
    weak = defender_tricks(cards("C7 C8 C9 S7 S8 S9 D7 D8 H7 H8"), "D")
    strong = defender_tricks(cards("CA C8 SA SK S7 D9 DT DJ DK H8"), "D")
    assert weak < 2 <= 3 < strong


def test_a_misere_risk_counts_the_lower_cards_outside() -> None:
    assert misere_risk(cards("C7 C8 S7 S8 D7 D8 D9 H7 H8 H9")) == 0
    assert misere_risk(cards("C7 C9 S7")) == 1  # C8 may be led under the C9
    assert misere_risk(cards("C7 C9 S7"), out=cards("C8")) == 0  # not when it is laid away
    assert misere_risk(cards("CJ")) == 4


def test_a_slam_is_certain_when_each_suit_is_led_from_the_top() -> None:
    assert slam_losers(cards("CA CK CQ CJ CT C9 C8 C7 SA DA")) == 0
    # AKQ and two small: the three other clubs fall under the three honours
    assert slam_losers(cards("CA CK CQ C7 C8 SA SK DA DK HA")) == 0
    # AK and two small: the four others may not all fall under two honours
    assert slam_losers(cards("CA CK C7 C8 SA SK DA DK HA HK")) == 2
    assert slam_losers(cards("CA CK C7 C8 SA SK DA DK HA HK"), out=cards("C9 CT")) == 0


# --- auction ---------------------------------------------------------------------------------


def test_a_strong_suit_hand_calls_geschaeft() -> None:
    assert first_call("CA CK CQ CJ C9 SA DA DK H7 H8") == "geschaeft"


def test_a_strong_heart_hand_calls_herz() -> None:
    assert first_call("HA HK HQ HJ HT CA SA D7 D8 C7") == "herz"


def test_a_hand_that_needs_the_talon_opens_with_a_number_bid() -> None:
    assert first_call("SA SK S9 S8 DA C7 C8 H7 H8 D7") == "1"


def test_a_weak_hand_passes() -> None:
    assert first_call("C9 CJ SQ S8 DT D9 HQ H8 DJ CT") == "pass"


def test_the_holder_holds_a_bid_within_reach_and_passes_above_it() -> None:
    # anna is good for spades (bid 2) with the talon, not for diamonds
    deal = table("SA SK S9 S8 DA C7 C8 H7 H8 D7")
    assert answer(hand_from(*deal, actions=calls("anna 1", "bert 2", "carl pass"))) == "hold"
    assert answer(hand_from(*deal, actions=calls("anna 1", "bert 2", "carl 3"))) == "pass"


@pytest.mark.parametrize(
    ("hand", "call"),
    [
        ("C7 C8 S7 S8 D7 D8 D9 H7 H8 H9", "7h"),  # nothing can be forced: open, von der Hand
        ("C7 CJ S7 S8 D7 D8 D9 H7 H8 H9", "5h"),  # the CJ over C8 C9 CT: closed
        ("C7 CQ S7 S8 D7 D8 D9 H7 H8 H9", "5"),  # the CQ is too high: the talon lays it away
    ],
)
def test_a_misere_shaped_hand_calls_misere(hand: str, call: str) -> None:
    assert first_call(hand) == call


def test_a_certain_slam_calls_8_von_der_hand() -> None:
    assert first_call("CA CK CQ CJ CT C9 C8 C7 SA DA") == "8h"


def test_a_good_hand_still_passes_when_only_premium_calls_are_left() -> None:
    deal = table("SA SK S9 S8 DA C7 C8 H7 H8 D7")
    assert answer(hand_from(*deal, actions=calls("anna pass", "bert 5"))) == "pass"


# --- Geschäft --------------------------------------------------------------------------------


def test_the_first_geschaeft_caller_names_his_best_suit() -> None:
    deal = table("C7 C8 S7 DA DK DQ DJ D9 SA CA")
    state = hand_from(*deal, actions=calls("anna geschaeft", "bert pass", "carl geschaeft"))
    assert state.to_act_seat == "anna"
    assert answer(state) == "D"


def test_a_later_geschaeft_caller_names_a_higher_suit_only_when_it_is_good() -> None:
    anna = "CK CQ CJ CT C9 C8 SK SQ S7 S8"
    actions = [
        *calls("anna geschaeft", "bert pass", "carl geschaeft"),
        {"seat": "anna", "geschaeft_suit": "C"},
    ]
    strong = hand_from(*table(anna, carl="DA DK DQ DJ DT CA SA H8 H9 HJ"), actions=actions)
    assert strong.to_act_seat == "carl"
    assert answer(strong) == "D"
    weak = hand_from(*table(anna, carl="D7 D8 D9 C7 S9 ST SJ H8 H9 HJ"), actions=actions)
    assert answer(weak) == "pass"


def test_an_uncontested_geschaeft_declares_the_best_suit() -> None:
    deal = table("C7 C8 S7 DA DK DQ DJ D9 SA CA")
    state = hand_from(*deal, actions=calls("anna geschaeft", "bert pass", "carl pass"))
    assert answer(state) == {"type": "suit", "level": "D"}


# --- talon and declaration -------------------------------------------------------------------


def won_with_1(anna: str, talon: str) -> State:
    """anna bids 1, bert and carl pass: anna holds the twelve cards."""
    return hand_from(*table(anna, talon=talon), actions=calls("anna 1", "bert pass", "carl pass"))


def test_the_discard_keeps_the_trumps_and_aces_and_makes_a_void() -> None:
    state = won_with_1("HA HK HQ H9 H8 CA SA S7 D7 C8", talon="DT S9")
    laid = answer(state)
    assert sorted(laid) == ["D7", "DT"]  # diamonds go: no trump, no ace
    state = act(state, "anna", discard=laid)
    assert answer(state) == {"type": "suit", "level": "H"}


def test_the_declaration_is_the_best_suit_the_winning_bid_allows() -> None:
    # anna holds bert's 2: clubs would be best, but only spades and up are allowed
    deal = table("CA CK CQ CJ C9 SA SK S7 D7 H7", talon="S8 D8")
    actions = calls("anna 1", "bert 2", "carl pass", "anna hold", "bert pass")
    state = hand_from(*deal, actions=actions)
    laid = answer(state)
    assert not {"SA", "SK", "S8", "S7"} & set(laid)
    state = act(state, "anna", discard=laid)
    assert answer(state) == {"type": "suit", "level": "S"}


def test_a_misere_caller_lays_the_dangerous_cards_away_and_declares_misere() -> None:
    deal = table("C7 CQ S7 S8 D7 D8 D9 H7 H8 H9", talon="CT DT")
    state = hand_from(*deal, actions=calls("anna 5", "bert pass", "carl pass"))
    laid = answer(state)
    assert sorted(laid) == ["CQ", "CT"]  # the clubs that could be forced to win
    state = act(state, "anna", discard=laid)
    assert answer(state) == {"type": "premium", "level": 7}  # now nothing can: open


# --- Nachschauen -----------------------------------------------------------------------------


def bert_declares_d(anna: str) -> State:
    """anna bids 1, bert 2, carl and anna pass: bert takes the talon, lays two cards away and
    declares D; anna, who called, is asked whether to look."""
    deal = table(anna, bert="DA DK DQ DJ DT CA SA H7 H8 C8")
    state = hand_from(*deal, actions=calls("anna 1", "bert 2", "carl pass", "anna pass"))
    state = act(state, "bert", discard=answer(state))
    state = act(state, "bert", declare={"type": "suit", "level": "D"})
    assert state.to_act_seat == "anna"
    return state


def test_a_normal_hand_does_not_look() -> None:
    assert answer(bert_declares_d("SK SQ S9 S8 C7 CJ CQ H9 HT HA")) is False


def test_a_hand_that_is_already_a_misere_looks_and_raises() -> None:
    state = bert_declares_d("C7 C9 CT S7 S8 S9 ST D7 D8 D9")
    assert answer(state) is True
    state = act(state, "anna", look=True)
    state = act(state, "anna", discard=answer(state))
    game = answer(state)
    assert game["type"] == "premium" and game["level"] in (5, 7)


# --- defence ---------------------------------------------------------------------------------


def anna_declares_h(bert: str, carl: str, pot: int = 200, **options: Any) -> State:
    """anna bids 1, lays the talon away again and declares H; bert is the first defender."""
    deal = table("HA HK HQ H7 CK CQ SK SQ DK DQ", bert=bert, carl=carl, talon="C7 S7")
    actions = [
        *calls("anna 1", "bert pass", "carl pass"),
        {"seat": "anna", "discard": ["C7", "S7"]},
        {"seat": "anna", "declare": {"type": "suit", "level": "H"}},
    ]
    return hand_from(*deal, actions=actions, pot=pot, rules={**RULES, **options})


WEAK = "C8 C9 CT S8 S9 ST D7 D8 D9 H8"
"""No honour, one low trump."""
STRONG = "CA CJ SA SJ DA DT DJ H9 HT HJ"
"""Three aces, three trumps: enough to play, not to invite."""
WEAKER = "C8 C9 CT S8 S9 ST D7 D8 D9 DT"
"""No honour, no trump."""
MIGHTY = "CA CJ SA SJ DA DJ H8 H9 HT HJ"
"""Three aces and four trumps the declarer cannot draw."""


def test_a_weak_defender_stays_home() -> None:
    assert answer(anna_declares_h(WEAK, STRONG)) == "home"


def test_a_defender_with_aces_plays() -> None:
    assert answer(anna_declares_h(STRONG, WEAK)) == "play"


def test_a_weak_defender_plays_when_both_must() -> None:
    assert answer(anna_declares_h(WEAK, STRONG, pot=0)) == "play"


def test_a_lone_strong_defender_invites_and_a_fair_one_plays_alone() -> None:
    state = then(
        anna_declares_h(MIGHTY, WEAKER),
        {"seat": "bert", "defence": "play"},
        {"seat": "carl", "defence": "home"},
    )
    assert answer(state) == "invite"
    state = then(
        anna_declares_h(STRONG, WEAK),
        {"seat": "bert", "defence": "play"},
        {"seat": "carl", "defence": "home"},
    )
    assert answer(state) == "alone"


def test_nobody_invites_who_is_paid_only_for_his_own_tricks() -> None:
    state = then(
        anna_declares_h(MIGHTY, WEAKER, invitation_tricks="each"),
        {"seat": "bert", "defence": "play"},
        {"seat": "carl", "defence": "home"},
    )
    assert answer(state) == "alone"


# --- Aushandeln ------------------------------------------------------------------------------


def lone_defence(bert: str, carl: str) -> State:
    """anna declares H, bert plays alone, carl stays home: anna is to lead."""
    return then(
        anna_declares_h(bert, carl),
        {"seat": "bert", "defence": "play"},
        {"seat": "carl", "defence": "home"},
        {"seat": "bert", "defence": "alone"},
    )


def test_a_declarer_leaves_the_card_to_the_card_player_unless_a_split_is_clearly_good() -> None:
    state = lone_defence(STRONG, WEAK)
    assert any("negotiate" in a for a in engine.view(state, "anna")["legal"])
    assert ask(state) is None  # anna's six tricks or so are worth playing for


def test_a_defender_accepts_a_split_that_gives_him_his_estimate() -> None:
    state = act(lone_defence(WEAK, STRONG), "anna", negotiate={"declarer": 8, "defender": 2})
    assert ask(state) == {"accept": True}
    state = act(lone_defence(MIGHTY, WEAKER), "anna", negotiate={"declarer": 8, "defender": 2})
    assert ask(state) == {"accept": False}


def test_a_declarer_accepts_a_counter_proposal_that_gives_him_his_estimate() -> None:
    offered = act(lone_defence(MIGHTY, WEAKER), "anna", negotiate={"declarer": 8, "defender": 2})
    # anna counts six tricks or so in hearts
    assert ask(act(offered, "bert", negotiate={"declarer": 6, "defender": 4})) == {"accept": True}


# --- every answer is legal, from the view alone ----------------------------------------------


def checked(state: State, seat: str, seed: int) -> dict[str, Any] | None:
    """The bot's answer for ``seat``, checked: one of the view's legal actions, ``None`` only
    when a card may be played; the same from a JSON copy of the view and from another seed
    (it reads nothing but the view's data, and ``rng`` breaks no tie); the view untouched."""
    view = engine.view(state, seat)
    before = copy.deepcopy(view)
    legal = view["legal"]
    got = choose(view, legal, random.Random(seed))
    assert view == before
    if got is None:
        assert any("card" in a for a in legal)
    else:
        assert got in legal
    plain = json.loads(json.dumps(view))
    assert choose(plain, plain["legal"], random.Random(seed + 1)) == got
    return got


TABLES = (
    (RULES, SEATS, 200),
    (RULES, SEATS, 0),
    ({**RULES, "invitation_tricks": "each", "holding_after_forehand": "middlehand"}, SEATS, 500),
    (RULES, [*SEATS, "dora"], 100),
)
"""Rules, seats and pot of the random deals: both defenders must play when the pot is empty;
the other house rules; a table of four (the dealer sits out)."""


@settings(max_examples=draws(400), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, len(TABLES) - 1))
def test_every_answer_is_legal_over_random_deals(seed: int, pick: int) -> None:
    """Random bots drive a random deal; at every decision the bot is asked from the view of
    the seat to act, and half the time its answer is played, so its own games are reached."""
    rules_json, seats, pot = TABLES[pick]
    rs = engine.rule_set("wien")
    rng = random.Random(seed)
    order, _ = rs.shuffled_deck(rng)
    dealer = seats[-1]
    deal = rs.deal_from_deck(order, rs.active_seats(seats, dealer))
    state = rs.start_hand(rs.parse_rules(rules_json), seats, dealer, pot, deal)
    while not state.is_over:
        seat = state.to_act_seat
        assert seat is not None
        got = checked(state, seat, seed)
        if got is not None and rng.random() < 0.5:
            action = rs.action_from_json({"seat": seat, **got}, "bot")
        else:
            action = random_bot.choose(state, rng)
        state = engine.apply(state, action)


# --- money -----------------------------------------------------------------------------------


DEALS = 3000
POTS = (0, 100, 200)
"""Pots before each deal in turn: stakes of 1, 2 and 3 dealer contributions."""


def heuristic_table(deals: int, seed: int) -> tuple[list[float], list[float]]:
    """``deals`` seeded deals at anna, bert, carl (carl deals); one seat, anna, bert, carl in
    turn, decides by the bot and plays a random legal card; the other two are random bots.
    The money of that seat per deal, and the mean of the other two."""
    rs = engine.rule_set("wien")
    rules = rs.parse_rules(RULES)
    deal_rng, policy, bot = random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)
    mine: list[float] = []
    theirs: list[float] = []
    for n in range(deals):
        hero = SEATS[n % 3]
        order, _ = rs.shuffled_deck(deal_rng)
        pot = POTS[n // 3 % len(POTS)]
        deal = rs.deal_from_deck(order, rs.active_seats(SEATS, "carl"))
        state = rs.start_hand(rules, SEATS, "carl", pot, deal)
        while not state.is_over:
            if state.to_act_seat == hero:
                view = engine.view(state, hero)
                got = choose(view, view["legal"], bot)
                if got is None:
                    got = bot.choice([a for a in view["legal"] if "card" in a])
                action = rs.action_from_json({"seat": hero, **got}, "bot")
            else:
                action = random_bot.choose(state, policy)
            state = engine.apply(state, action)
        delta = rs.settle_outcome(rs.outcome(state))["delta"]
        mine.append(delta[hero])
        theirs.append(statistics.fmean(delta[s] for s in SEATS if s != hero))
    return mine, theirs


@pytest.mark.slow
def test_a_seat_deciding_by_the_bot_loses_less_money_than_a_random_seat() -> None:
    """Measured at about +1.6 € for the bot's seat and -1.9 € for a random one per deal (G =
    1 €, cap 3 €); the test asks for a clear 2 € a deal between them, beyond the 95 %
    interval."""
    mine, theirs = heuristic_table(DEALS, seed=1)
    diff = [m - t for m, t in zip(mine, theirs, strict=True)]
    half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff))
    assert statistics.fmean(diff) - half > 200
    assert statistics.fmean(mine) > 0 > statistics.fmean(theirs)
