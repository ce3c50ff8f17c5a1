"""The core's building blocks for every rule set: decks with copies, table shapes and dealing,
trick obligations as data, the fast board; and what ``wien`` answers through the seam
(``to_act``, ``legal_actions`` per seat, closing a table)."""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import PIQUET, Deck, EngineError
from engine.board import CardBoard
from engine.bots import random_bot
from engine.rules import AnyRuleSet
from engine.tricks import (
    FOLLOW,
    FOLLOW_TRUMP,
    HEAD,
    HEAD_LOW,
    NONE,
    Obligations,
    legal_cards,
    suit_order,
    trick_winner,
)
from tests.engine.helpers import DEAL, RULES, TALON, hand_from, record, sheet, suit, suit_game

#: Doppelkopf's cards as a deck with copies (suits and ranks in index order only; the game's
#: own order of trumps is a rule set's CardOrder, not the deck's).
DOUBLE = Deck("double48", "DHSC", "9JQKTA", copies=2)
FOUR = ["anna", "bert", "carl", "dora"]


def mask(text: str, deck: Deck = PIQUET) -> int:
    return deck.parse_hand(text.split())


def codes(m: int, deck: Deck = PIQUET) -> str:
    return " ".join(deck.codes_of(m))


# --- decks ----------------------------------------------------------------------------------


def test_a_deck_with_copies_holds_every_code_that_often() -> None:
    assert DOUBLE.size == 48 and len(set(DOUBLE.codes)) == 24
    assert DOUBLE.codes[:4] == ("D9", "D9", "DJ", "DJ")
    assert DOUBLE.parse("CQ") == DOUBLE.codes.index("CQ")
    assert DOUBLE.same(DOUBLE.parse("CQ") + 1) == 0b11 << DOUBLE.parse("CQ")


def test_naming_a_code_twice_takes_both_copies_and_a_third_time_is_an_error() -> None:
    both = mask("CQ CQ", DOUBLE)
    assert both.bit_count() == 2 and codes(both, DOUBLE) == "CQ CQ"
    with pytest.raises(EngineError, match="CQ appears more than 2 times") as e:
        mask("CQ CQ CQ", DOUBLE)
    assert e.value.at == "[2]"
    with pytest.raises(EngineError, match="HA appears twice"):
        mask("HA HA")


def test_a_code_held_elsewhere_takes_the_other_copy() -> None:
    one = DOUBLE.parse_hand(["CQ"])
    two = DOUBLE.parse_hand(["CQ"], taken=one)
    assert one != two and one | two == DOUBLE.same(DOUBLE.parse("CQ"))


def test_suits_and_ranks_count_copies() -> None:
    cq = DOUBLE.parse("CQ")
    assert DOUBLE.suit(cq) == DOUBLE.suit(cq + 1) == 3
    assert DOUBLE.rank(cq) == DOUBLE.rank(cq + 1) == 2
    assert DOUBLE.suit_mask(3).bit_count() == 12


# --- tables and dealing ---------------------------------------------------------------------


def test_with_as_many_seats_as_players_the_dealer_plays_last() -> None:
    shape = engine.rule_set("wien").table
    four_play = type(shape)(seats=(4,), players=4)
    assert four_play.active(FOUR, "dora") == ("anna", "bert", "carl", "dora")
    assert shape.active(FOUR, "dora") == ("anna", "bert", "carl")


def test_a_table_shape_names_its_seat_counts_and_reserved_names() -> None:
    shape = type(engine.rule_set("wien").table)(seats=(4,), players=4, reserved=("kasse",))
    with pytest.raises(EngineError, match="seats must list 4 player names"):
        shape.check(["a", "b", "c"], "a")
    with pytest.raises(EngineError, match="'kasse' is reserved"):
        shape.check(["a", "b", "c", "kasse"], "a")


# --- No default rule set --------------------------------------------------------------------


@pytest.mark.parametrize("rs", engine.rule_sets(include_engine_only=True), ids=lambda rs: rs.name)
def test_rules_without_a_variant_are_refused_for_every_rule_set(rs: AnyRuleSet) -> None:
    # no rule set is the default: rules name theirs, or they are an error
    rules = {k: v for k, v in rs.examples[0].items() if k != "variant"}
    with pytest.raises(EngineError) as e:
        engine.parse_rules(rules)
    assert e.value.at == "rules.variant"
    assert "must name a variant" in e.value.message


@pytest.mark.parametrize(
    "settled",
    [
        lambda rules: engine.replay(record(DEAL, TALON, rules=rules)),
        lambda rules: engine.settle(record(DEAL, TALON, rules=rules)),
        lambda rules: engine.settle(sheet(suit("D"), {"anna": 6, "bert": 4}, rules=rules)),
        lambda rules: engine.record.parse_sheet(sheet(suit("D"), {"anna": 6}, rules=rules)),
    ],
    ids=["replay", "settle a full record", "settle a score-sheet entry", "parse_sheet"],
)
def test_a_record_without_a_variant_is_refused(settled: Any) -> None:
    rules = {k: v for k, v in RULES.items() if k != "variant"}
    with pytest.raises(EngineError) as e:
        settled(rules)
    assert e.value.at == "rules.variant"
    assert "must name a variant" in e.value.message


def test_engine_settle_is_the_function_and_no_module_shadows_it() -> None:
    # a submodule engine/settle.py would replace the function once anything imported it
    assert importlib.util.find_spec("engine.settle") is None
    assert engine.settle is engine.record.settle


def test_wien_deals_three_talon_two_four_three() -> None:
    order = list(PIQUET.codes)
    deal = engine.deal_from_deck(order, ["a", "b", "c"], variant="wien")
    assert deal["a"] == [*order[0:3], *order[11:15], *order[23:26]]
    assert deal["talon"] == order[9:11]


def test_four_rounds_of_three_deal_the_whole_double_deck() -> None:
    dealing = type(engine.rule_set("wien").dealing)(((3, ""),) * 4)
    order = list(DOUBLE.codes)
    deal = dealing.deal(order, FOUR)
    assert set(deal) == set(FOUR) and all(len(cards) == 12 for cards in deal.values())
    masks = dealing.parse(deal, DOUBLE, FOUR)
    dealing.check(DOUBLE, FOUR, masks)
    assert sum(masks.values()) == DOUBLE.full
    deal["anna"][0] = deal["bert"][0] = deal["carl"][0] = "CQ"
    with pytest.raises(EngineError, match="CQ appears more than 2 times|dealt more than 2"):
        dealing.check(DOUBLE, FOUR, dealing.parse(deal, DOUBLE, FOUR))


# --- trick obligations as data --------------------------------------------------------------

CLUBS = suit_order(PIQUET, 0)  # clubs are trumps
NO_TRUMP = suit_order(PIQUET, None)


def allowed(hand: str, trick: str, duty: Obligations, order: object = CLUBS) -> str:
    assert order is CLUBS or order is NO_TRUMP
    return codes(legal_cards(order, mask(hand), [PIQUET.parse(c) for c in trick.split()], duty))


@pytest.mark.parametrize(
    ("duty", "hand", "trick", "may"),
    [
        (HEAD, "H7 HA S9", "H9", "HA"),  # wien rule 1: beat the trick in the led suit
        (HEAD_LOW, "H7 HT HA S9", "H9", "HT"),  # Largierpflicht: the lowest that beats
        (FOLLOW_TRUMP, "H7 HA S9", "H9", "H7 HA"),  # follow, no duty to beat
        (FOLLOW, "H7 HA S9", "H9", "H7 HA"),
        (HEAD, "C7 CA S9", "H9", "C7 CA"),  # void: any trump (every trump beats)
        (HEAD_LOW, "C7 CA S9", "H9", "C7"),
        (HEAD, "C7 CA S9", "H9 CT", "CA"),  # void: over-trump a trump in the trick
        (FOLLOW_TRUMP, "C7 CA S9", "H9 CT", "C7 CA"),  # trump, no duty to over-trump
        (FOLLOW, "C7 CA S9", "H9", "C7 CA S9"),  # may trump, need not (kurz, whist)
        (NONE, "C7 S9 H7", "H9", "C7 S9 H7"),  # no obligation at all
    ],
)
def test_obligations_are_data(duty: Obligations, hand: str, trick: str, may: str) -> None:
    assert allowed(hand, trick, duty) == may


def test_the_first_of_two_identical_cards_wins() -> None:
    order = suit_order(DOUBLE, None)
    first, second = DOUBLE.parse("CA"), DOUBLE.parse("CA") + 1
    assert trick_winner(order, [first, second, DOUBLE.parse("CK")]) == 0
    assert trick_winner(order, [DOUBLE.parse("CK"), second, first]) == 1


def test_the_board_plays_the_same_obligations() -> None:
    board = CardBoard([mask("H9"), mask("H7 HT HA S9"), mask("C7")])
    board.start_tricks(CLUBS, (HEAD, HEAD_LOW, HEAD), leader=0, playing=0b111)
    board.play_card(PIQUET.parse("H9"))
    assert codes(board.legal_card_mask()) == "HT"
    board.play_card(PIQUET.parse("HT"))
    board.play_card(PIQUET.parse("C7"))
    assert board.won == [0, 0, 1] and board.to_act == 2 and board.tricks == 1


# --- wien through the seam ------------------------------------------------------------------


def test_one_seat_acts_at_a_time_and_the_others_have_no_actions() -> None:
    state = hand_from(DEAL, TALON)
    assert engine.to_act(state) == {"anna"}
    assert engine.legal_actions(state, "bert") == []
    assert engine.legal_actions(state, "anna") == engine.legal_actions(state)
    done = hand_from(DEAL, TALON, actions=[{"seat": s, "call": "pass"} for s in ("anna", "bert")])
    assert engine.to_act(done) == {"carl"}


def test_the_carry_is_the_pot_in_cents() -> None:
    rs = engine.rule_set("wien")
    assert (rs.carry.keys, rs.carry.unit, rs.carry.party) == (("pot",), "cents", "pot")
    state = suit_game(DEAL, TALON, "D")
    assert rs.carry_json(state) == {"pot": 200}


def test_closing_a_wien_table_carries_or_splits_the_pot() -> None:
    """wien.md, "End of a sitting": carry keeps it; split shares it, leftover cents one each to
    the first seats."""
    rs = engine.rule_set("wien")
    carry = engine.parse_rules({"variant": "wien", "dealer_contribution": 10, "pot_cap": None})
    kept = rs.close(carry, FOUR, 1010)
    assert kept.transfers == () and kept.carry == {"pot": 1010}
    split = rs.close(engine.parse_rules({**carry.to_json(), "pot_at_close": "split"}), FOUR, 1010)
    assert [(t["to"], t["amount"], t["why"]) for t in split.transfers] == [
        ("anna", 253, "split"),
        ("bert", 253, "split"),
        ("carl", 252, "split"),
        ("dora", 252, "split"),
    ]
    assert split.carry == {"pot": 0}


@given(st.integers(0, 10_000).map(lambda n: 10 * n), st.integers(1, 6))
def test_a_split_shares_exactly_with_leftover_cents_to_the_first(pot: int, n: int) -> None:
    rs = engine.rule_set("wien")
    rules = engine.parse_rules({**rs.examples[0], "pot_at_close": "split"})
    seats = [f"p{i}" for i in range(n)]
    closing = rs.close(rules, seats, pot)
    shares = dict.fromkeys(seats, 0) | {t["to"]: t["amount"] for t in closing.transfers}
    assert sum(shares.values()) == pot and closing.carry == {"pot": 0}
    values = [shares[p] for p in seats]
    assert values == sorted(values, reverse=True)
    assert max(values) - min(values) <= 1


def test_a_split_of_two_hundred_in_three_gives_the_extra_cents_to_the_first_two() -> None:
    rs = engine.rule_set("wien")
    rules = engine.parse_rules({**rs.examples[0], "pot_at_close": "split"})
    closing = rs.close(rules, ["anna", "bert", "carl"], 200)
    assert [(t["to"], t["amount"]) for t in closing.transfers] == [
        ("anna", 67),
        ("bert", 67),
        ("carl", 66),
    ]


def test_the_random_bot_is_the_rule_sets_policy() -> None:
    state = hand_from(DEAL, TALON)
    a = engine.rule_set("wien").random_action(state, random.Random(3))
    b = random_bot.choose(state, random.Random(3))
    assert a == b and a in engine.legal_actions(state)
