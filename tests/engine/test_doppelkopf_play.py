"""The play side of rule sets ``doppelkopf`` and ``doppelkopf-ddv`` (``spec/next/doppelkopf.md``):
one test per rule, positions written as card strings (``tests/engine/doppelkopf_helpers.py``);
the fast path against the validating path; the golden records of ``tests/data/doppelkopf/`` and
``tests/data/doppelkopf-ddv/``.

Seats anna, bert, carl, dora; dora deals, so anna is forehand.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.errors import EngineError, IllegalAction, NotYourTurn
from engine.rules.doppelkopf import DDV_RULE_SET, RULE_SET, fast, hand
from engine.rules.doppelkopf.cards import AUGEN, DECK, obligations, order_for, trick_winner
from engine.rules.doppelkopf.hand import State
from engine.tricks import CardOrder, legal_cards
from tests.engine.doppelkopf_helpers import (
    ALL_NONE,
    DDV,
    RULES,
    SEATS,
    apply,
    deal,
    legal,
    play,
    record,
)
from tests.engine.test_cli import ok

DATA = Path(__file__).resolve().parent.parent / "data"
GOLDEN = sorted([*DATA.glob("doppelkopf/*.json"), *DATA.glob("doppelkopf-ddv/*.json")])


def cards(text: str) -> list[str]:
    """Codes from a space-separated string."""
    return text.split()


def says(state: State, seat: str) -> list[str]:
    """``seat``'s legal announcements."""
    return [a for a in legal(state, seat) if a.startswith("!")]


def first_cards(state: State, n: int) -> State:
    """``state`` after ``n`` cards, each the first legal card of the player to play."""
    for _ in range(n):
        seat = state.active[state.turn]
        card = next(a for a in engine.legal_actions(state, seat) if a.KEY == "card")
        state = engine.apply(state, card)
    return state


def to_end(state: State) -> State:
    """``state`` played to the end by first legal cards."""
    return first_cards(state, 48 - sum(len(c) for _, c, _ in state.tricks) - len(state.trick))


def ranking(order: CardOrder, suit: int) -> list[str]:
    """The codes of game suit ``suit``, high to low (one per code), read from ``above``."""
    cards = [c for c in range(DECK.size) if order.suit_of[c] == suit and c % 2 == 0]
    cards.sort(key=lambda c: order.above[c].bit_count())
    return [DECK.code(c) for c in cards]


def winner(ddv: bool, kind: str, *codes: str, second_dulle: bool = False) -> int:
    """The index of the card that takes a trick of ``codes`` (each code's first copy, the
    second copy where a code repeats)."""
    seen: set[str] = set()
    cards = []
    for code in codes:
        c = DECK.index[code] + (code in seen)
        seen.add(code)
        cards.append(c)
    return trick_winner(order_for(ddv, kind, second_dulle), cards)


def allowed(
    ddv: bool, stichzwang: str, hand_codes: str, *trick: str, kind: str = "normal"
) -> set[str]:
    """The codes a hand may play to a trick."""
    order = order_for(ddv, kind)
    mask = DECK.parse_hand(hand_codes.split())
    taken = DECK.parse_hand(list(trick)) if trick else 0
    cards = []
    for code in trick:
        c = DECK.index[code]
        cards.append(c if not (taken & mask) >> c & 1 else c + 1)
    legal = legal_cards(order, mask, cards, obligations(ddv, stichzwang))
    return set(DECK.codes_of(legal))


# --- the deck, options ---------------------------------------------------------------------


def test_the_deck_is_24_codes_twice_worth_240_augen() -> None:
    assert DECK.size == 48 and len(set(DECK.codes)) == 24
    assert all(DECK.codes.count(c) == 2 for c in DECK.codes)
    assert sum(AUGEN) == 240


def test_the_options_have_the_spec_defaults() -> None:
    rules = engine.parse_rules(RULES).to_json()
    assert rules == {
        "variant": "doppelkopf",
        "base": 20,
        "ante": 10,
        "ante_each_deal": True,
        "spielart": "ehrlich",
        "stichzwang": "trump",
        "solo_leads": "forehand",
        "secret_solo_queens": 1,
        "hochzeit_deadline": None,
        "schneider_below": 60,
        "schneider_re_below": 60,
        "karlchen_needs_jack": True,
        "kasse_at_close": "carry",
    }
    assert engine.parse_rules(DDV).to_json() == {
        "variant": "doppelkopf-ddv",
        "point_value": 10,
        "second_dulle": False,
    }


@pytest.mark.parametrize(
    ("rules", "at"),
    [
        ({**RULES, "base": 0}, "rules.base"),
        ({"variant": "doppelkopf", "ante": 10}, "rules.base"),
        ({**RULES, "ante": True}, "rules.ante"),
        ({**RULES, "secret_solo_queens": 3}, "rules.secret_solo_queens"),
        ({**RULES, "hochzeit_deadline": 13}, "rules.hochzeit_deadline"),
        ({**RULES, "schneider_below": 121}, "rules.schneider_below"),
        ({**RULES, "schneider_re_below": 122}, "rules.schneider_re_below"),
        ({**RULES, "stichzwang": "always"}, "rules.stichzwang"),
        ({**RULES, "solo_leads": "dealer"}, "rules.solo_leads"),
        ({**RULES, "spielart": "wild"}, "rules.spielart"),
        ({**RULES, "kasse_at_close": "keep"}, "rules.kasse_at_close"),
        ({**RULES, "pot_cap": 100}, "rules.pot_cap"),
        ({**DDV, "base": 20}, "rules.base"),
        ({**DDV, "stichzwang": "trump"}, "rules.stichzwang"),
        ({"variant": "doppelkopf-ddv"}, "rules.point_value"),
        ({**DDV, "second_dulle": 1}, "rules.second_dulle"),
    ],
)
def test_a_bad_option_is_an_error_naming_it(rules: dict[str, Any], at: str) -> None:
    with pytest.raises(EngineError) as e:
        engine.parse_rules(rules)
    assert e.value.at == at


def test_the_option_bounds_include_their_ends() -> None:
    for extra in (
        {"hochzeit_deadline": 1},
        {"hochzeit_deadline": 12},
        {"hochzeit_deadline": None},
        {"schneider_below": 120},
        {"schneider_re_below": 121},
        {"secret_solo_queens": 2},
    ):
        assert engine.parse_rules({**RULES, **extra}).to_json()[next(iter(extra))] == next(
            iter(extra.values())
        )


# --- trumps and plain suits ----------------------------------------------------------------


def test_the_normal_game_has_24_trumps_queens_jacks_then_diamonds() -> None:
    order = order_for(False, "normal")
    assert ranking(order, 4) == cards("CQ SQ HQ DQ CJ SJ HJ DJ DA DT DK D9")
    assert order.suit_mask[4].bit_count() == 24
    for suit, name in ((3, "C"), (2, "S"), (1, "H")):
        assert ranking(order, suit) == [name + r for r in "ATK9"]
    assert order.suit_mask[0] == 0  # no plain diamonds


def test_without_dulle_the_heart_ten_is_a_heart() -> None:
    order = order_for(False, "normal")
    assert order.suit_of[DECK.index["HT"]] == 1
    assert winner(False, "normal", "HA", "HT") == 0


@pytest.mark.parametrize("suit", ["C", "S", "H"])
def test_a_suit_solo_has_queens_jacks_then_the_suit_and_plain_diamonds(suit: str) -> None:
    order = order_for(False, suit)
    queens_jacks = cards("CQ SQ HQ DQ CJ SJ HJ DJ")
    assert ranking(order, 4) == [*queens_jacks, *(suit + r for r in "ATK9")]
    assert ranking(order, 0) == ["DA", "DT", "DK", "D9"]


def test_a_solo_in_diamonds_has_the_normal_order() -> None:
    state = play(deal(carl="CQ"), "anna none", "bert none", "carl solo:D", "dora none")
    assert state.game == "solo" and state.order == order_for(False, "normal")
    assert hand.game_entry(False, state.game, state.kind, state.pflicht) == {
        "type": "solo",
        "trump": "D",
    }


def test_a_cards_game_suit_is_trump_when_it_is_a_trump() -> None:
    """``CQ`` is a trump, not a club: a player with CQ and no other club is void in clubs."""
    assert allowed(False, "trump", "CQ D9 HA SA", "CA") == {"CQ", "D9"}


def test_ddv_normal_game_has_the_dulle_on_top_and_26_trumps() -> None:
    order = order_for(True, "normal")
    assert ranking(order, 4) == cards("HT CQ SQ HQ DQ CJ SJ HJ DJ DA DT DK D9")
    assert order.suit_mask[4].bit_count() == 26
    assert ranking(order, 1) == ["HA", "HK", "H9"]
    assert ranking(order, 3) == ["CA", "CT", "CK", "C9"]


def test_ddv_hearts_solo_has_24_trumps() -> None:
    order = order_for(True, "H")
    assert ranking(order, 4) == cards("HT CQ SQ HQ DQ CJ SJ HJ DJ HA HK H9")
    assert order.suit_mask[4].bit_count() == 24
    assert ranking(order, 0) == ["DA", "DT", "DK", "D9"]


@pytest.mark.parametrize(
    ("kind", "trumps", "plain"),
    [
        ("queens", "CQ SQ HQ DQ", "ATKJ9"),
        ("jacks", "CJ SJ HJ DJ", "ATKQ9"),
        ("fleischlos", "", "ATKQJ9"),
    ],
)
def test_ddv_queen_jack_and_fleischlos_solos(kind: str, trumps: str, plain: str) -> None:
    order = order_for(True, kind)
    assert ranking(order, 4) == trumps.split()
    for suit in "DHSC":
        assert ranking(order, DECK.suits.index(suit)) == [suit + r for r in plain]
    assert order.trump == (-1 if kind == "fleischlos" else 4)


def test_ddv_suit_solo_keeps_the_dulle_and_has_plain_diamonds() -> None:
    order = order_for(True, "C")
    assert ranking(order, 4)[0] == "HT"
    assert ranking(order, 4)[-4:] == ["CA", "CT", "CK", "C9"]
    assert ranking(order, 1) == ["HA", "HK", "H9"]


# --- following and the trick ---------------------------------------------------------------


def test_holding_the_led_suit_a_player_must_follow() -> None:
    assert allowed(False, "trump", "CA C9 DA SA", "CK") == {"CA", "C9"}
    assert allowed(True, "none", "CA C9 DA SA", "CK") == {"CA", "C9"}


def test_stichzwang_trump_void_a_player_must_trump_but_need_not_beat() -> None:
    """The seed: "Trumpf zugegeben oder mit Trumpf gestochen": any trump, even a low one."""
    assert allowed(False, "trump", "D9 CQ HA SA", "CA", "DA") == {"D9", "CQ"}


def test_stichzwang_none_void_a_player_may_play_any_card() -> None:
    assert allowed(False, "none", "D9 CQ HA SA", "CA") == {"D9", "CQ", "HA", "SA"}


def test_stichzwang_head_a_player_must_beat_the_trick_when_able() -> None:
    # holding the led suit: beat with it (no trump in the trick)
    assert allowed(False, "head", "CA C9 D9", "CT") == {"CA"}
    # led suit trump: beat the best trump if he can, else any trump
    assert allowed(False, "head", "CQ DJ D9", "HJ") == {"CQ"}
    assert allowed(False, "head", "DJ D9 CA", "HQ") == {"DJ", "D9"}
    # void: a trump that beats the trick's trump, else any trump
    assert allowed(False, "head", "CQ D9 HA", "CA", "DA") == {"CQ"}
    assert allowed(False, "head", "DK D9 HA", "CA", "DA") == {"DK", "D9"}
    # the led suit trumped already: following suit need not beat
    assert allowed(False, "head", "CA C9", "CT", "D9") == {"CA", "C9"}


def test_ddv_a_void_player_may_play_any_card() -> None:
    """DDV following: follow the led suit if able, otherwise any card (no duty to trump)."""
    assert allowed(True, "trump", "D9 CQ HA SA", "CA") == {"D9", "CQ", "HA", "SA"}
    # HT is a trump under the DDV rules: holding it and no other heart is void in hearts
    assert allowed(True, "trump", "HT CA", "HA") == {"HT", "CA"}


def test_the_trick_goes_to_the_highest_trump_else_the_highest_of_the_led_suit() -> None:
    assert winner(False, "normal", "CA", "CK", "SA", "C9") == 0
    assert winner(False, "normal", "CA", "CK", "D9", "C9") == 2
    assert winner(False, "normal", "DA", "CQ", "DJ", "HQ") == 1


def test_of_two_identical_cards_the_first_played_wins() -> None:
    assert winner(False, "normal", "DA", "DA", "D9", "DK") == 0
    assert winner(False, "normal", "D9", "CQ", "DT", "CQ") == 1
    assert winner(False, "normal", "CA", "C9", "CA", "CK") == 0


def test_ddv_the_dulle_is_the_highest_trump_and_the_first_of_two_wins() -> None:
    assert winner(True, "normal", "CQ", "HT", "CQ", "DA") == 1
    assert winner(True, "normal", "HT", "CQ", "HT", "D9") == 0
    assert winner(True, "H", "HA", "HT") == 1


def test_second_dulle_the_later_heart_ten_wins() -> None:
    """House rule ``second_dulle``: the second HT beats the first (in every trick)."""
    assert winner(True, "normal", "HT", "CQ", "HT", "D9", second_dulle=True) == 2
    assert winner(True, "normal", "D9", "HT", "DA", "HT", second_dulle=True) == 3
    hands = deal(anna="HT D9", carl="HT")
    rules = {**DDV, "second_dulle": True}
    state = first_cards(play(hands, *ALL_NONE, "anna HT", rules=rules), 1)
    state = first_cards(apply(state, "carl HT"), 1)
    assert state.tricks[0][2] == 2  # carl


def test_a_card_against_the_obligations_is_refused_in_words() -> None:
    hands = deal(anna="CA CQ", bert="C9 DA", carl="CQ")
    state = play(hands, *ALL_NONE, "anna CA")
    with pytest.raises(IllegalAction, match="bert must follow C: C9"):
        apply(state, "bert DA")
    with pytest.raises(IllegalAction, match="bert does not hold SA"):
        apply(state, "bert SA")
    with pytest.raises(NotYourTurn, match="it is bert's turn to play a card, not carl's"):
        apply(state, "carl CK")


def test_card_cq_plays_either_copy_and_legal_lists_a_code_once() -> None:
    hands = deal(anna="CQ CQ D9 D9")
    state = play(hands, "anna hochzeit", *ALL_NONE[1:])
    cards = legal(state, "anna")
    assert cards.count("CQ") == 1 and cards.count("D9") == 1
    state = apply(state, "anna CQ")
    assert DECK.codes_of(state.hands[0]).count("CQ") == 1


# --- reservations and the game -------------------------------------------------------------


def test_a_player_holding_both_cq_must_declare() -> None:
    hands = deal(carl="CQ CQ")
    with pytest.raises(EngineError) as e:
        engine.replay(record(hands, "anna none", "bert none", "carl none"))
    assert str(e.value) == "actions[2]: carl holds both CQ and must declare"


def test_reservations_come_in_playing_order_from_forehand() -> None:
    state = play(deal())
    assert engine.to_act(state) == {"anna"}
    with pytest.raises(NotYourTurn, match="it is anna's turn to send a reservation"):
        apply(state, "bert none")


def test_a_hochzeit_needs_both_cq() -> None:
    with pytest.raises(IllegalAction, match="anna may announce a Hochzeit only holding both CQ"):
        play(deal(anna="CQ"), "anna hochzeit")


def test_karlchen_needs_a_cj_unless_the_option_says_otherwise() -> None:
    with pytest.raises(IllegalAction, match="anna holds no CJ and may not announce Karlchen"):
        play(deal(bert="CJ CJ"), "anna karlchen")
    rules = {**RULES, "karlchen_needs_jack": False}
    state = play(deal(bert="CJ CJ CQ", carl="CQ"), "anna karlchen", *ALL_NONE[1:], rules=rules)
    assert state.game == "karlchen" and state.declarer == 0


def test_a_secret_solo_needs_secret_solo_queens_cq() -> None:
    hands = deal(anna="CQ", carl="CQ")
    assert play(hands, "anna secret_solo", *ALL_NONE[1:]).game == "secret_solo"
    with pytest.raises(IllegalAction, match="anna needs both CQ for a Heimliches Solo"):
        play(hands, "anna secret_solo", rules={**RULES, "secret_solo_queens": 2})
    with pytest.raises(IllegalAction, match="bert needs a CQ"):
        play(hands, "anna none", "bert secret_solo")


def test_the_first_solo_in_playing_order_stands_over_hochzeit_and_later_solos() -> None:
    hands = deal(anna="CQ CQ", bert="CJ")
    state = play(hands, "anna hochzeit", "bert karlchen", "carl solo:H", "dora solo:C")
    assert (state.game, state.active[state.declarer]) == ("karlchen", "bert")
    state = play(hands, "anna hochzeit", "bert none", "carl solo:H", "dora solo:C")
    assert (state.game, state.active[state.declarer], state.kind) == ("solo", "carl", "H")


def test_a_hochzeit_stands_over_a_secret_solo() -> None:
    state = play(deal(anna="CQ CQ"), "anna hochzeit", *ALL_NONE[1:])
    assert (state.game, state.declarer) == ("hochzeit", 0)
    hands = deal(anna="CQ CQ")
    state = play(hands, "anna secret_solo", *ALL_NONE[1:])
    assert (state.game, state.declarer) == ("secret_solo", 0)


def test_two_secret_solos_cancel_into_a_normal_game_with_them_as_re() -> None:
    hands = deal(bert="CQ", dora="CQ")
    state = play(hands, "anna none", "bert secret_solo", "carl none", "dora secret_solo")
    assert state.game == "normal" and state.re == (1, 3)


def test_a_normal_game_re_is_the_two_cq_holders() -> None:
    state = play(deal(bert="CQ", carl="CQ"), *ALL_NONE)
    assert (state.game, state.re, state.turn) == ("normal", (1, 2), 0)


def test_an_announced_solo_is_led_by_forehand_or_the_soloist() -> None:
    hands = deal(anna="CQ", bert="CQ", carl="CJ")
    moves = ("anna none", "bert none", "carl solo:S", "dora none")
    assert play(hands, *moves).turn == 0
    assert play(hands, *moves, rules={**RULES, "solo_leads": "soloist"}).turn == 2
    karlchen = ("anna none", "bert none", "carl karlchen", "dora none")
    assert play(hands, *karlchen, rules={**RULES, "solo_leads": "soloist"}).turn == 2


def test_a_secret_solo_always_starts_with_forehand() -> None:
    hands = deal(carl="CQ CQ")
    moves = ("anna none", "bert none", "carl secret_solo", "dora none")
    assert play(hands, *moves, rules={**RULES, "solo_leads": "soloist"}).turn == 0


def test_doppelkopf_has_no_announcements() -> None:
    with pytest.raises(EngineError) as e:
        play(deal(anna="CQ", bert="CQ"), *ALL_NONE, "anna !re")
    assert str(e.value) == "actions[4].announce: doppelkopf has no announcements"


def test_unknown_reservations_are_errors() -> None:
    with pytest.raises(EngineError, match="a reservation is"):
        RULE_SET.action_from_json({"seat": "anna", "reservation": "gesund"}, "a")
    with pytest.raises(EngineError, match="a reservation is"):
        RULE_SET.action_from_json({"seat": "anna", "reservation": {"solo": "queens"}}, "a")
    for value in ("karlchen", "secret_solo"):
        with pytest.raises(EngineError, match="a reservation is"):
            DDV_RULE_SET.action_from_json({"seat": "anna", "reservation": value}, "a")


# --- Hochzeit -------------------------------------------------------------------------------

EXAMPLE_3 = {
    "anna": "CQ CQ CA S9 HK",
    "bert": "C9 SK HA D9",
    "carl": "CK SA H9 DK",
    "dora": "C9 ST H9 DT",
}
EXAMPLE_3_TRICKS = (
    "anna CA", "bert C9", "carl CK", "dora C9",  # anna leads and wins: her own lead
    "anna S9", "bert SK", "carl SA", "dora ST",  # anna leads, carl wins
    "carl H9", "dora H9", "anna HK", "bert HA",  # carl leads, bert wins
    "bert D9", "carl DK", "dora DT", "anna CQ",  # bert leads, anna wins
)  # fmt: skip


def example_3(rules: dict[str, Any], tricks: int = 4) -> State:
    state = play(deal(**EXAMPLE_3), "anna hochzeit", *ALL_NONE[1:], rules=rules)
    return apply(state, *EXAMPLE_3_TRICKS[: 4 * tricks])


def test_worked_example_3_the_hochzeit_partner_is_bert() -> None:
    """The leader of the first trick another player led and the announcer won."""
    for n in (1, 2, 3):
        state = example_3(RULES, n)
        assert (state.partner, state.clarified) == (-1, 0)
    state = example_3(RULES)
    assert (state.active[state.partner], state.clarified) == ("bert", 4)
    assert state.re == (0, 1)
    assert engine.view(state, "dora")["game"] == {
        "type": "hochzeit",
        "announcer": "anna",
        "partner": "bert",
    }


def test_worked_example_3_under_ddv_the_partner_is_carl() -> None:
    """DDV: the winner of the first of tricks 1-3 the bride does not win."""
    state = example_3(DDV, 1)
    assert (state.partner, state.clarified) == (-1, 0)
    state = example_3(DDV, 2)
    assert (state.active[state.partner], state.clarified) == ("carl", 2)


def test_a_hochzeit_without_partner_by_the_deadline_plays_alone() -> None:
    state = example_3({**RULES, "hochzeit_deadline": 2}, 2)
    assert (state.partner, state.clarified) == (-1, 2)
    assert engine.view(state, None)["game"]["partner"] is None
    state = apply(state, *EXAMPLE_3_TRICKS[8:16])  # anna's later win no longer counts
    assert state.partner == -1 and state.re == (0,)
    state = example_3({**RULES, "hochzeit_deadline": 4})
    assert state.active[state.partner] == "bert"  # found in trick 4: in time


def test_a_hochzeit_never_clarified_is_alone_after_trick_12() -> None:
    rules = RULE_SET.parse_rules(RULES)
    assert hand.hochzeit_step(rules, 0, 1, 0, 11) == (1, 11)  # bert led, anna won
    assert hand.hochzeit_step(rules, 0, 0, 0, 11) == (-1, 0)  # her own lead: still open
    assert hand.hochzeit_step(rules, 0, 2, 3, 11) == (-1, 0)
    assert hand.hochzeit_step(rules, 0, 2, 3, 12) == (-1, 12)  # alone


def test_ddv_a_bride_winning_tricks_1_to_3_plays_alone() -> None:
    hands = deal(anna="CQ CQ CA SA HA", bert="C9 S9 H9", carl="CK SK HK", dora="C9 S9 H9")
    state = play(hands, "anna hochzeit", *ALL_NONE[1:], rules=DDV)
    state = apply(
        state,
        *("anna CA", "bert C9", "carl CK", "dora C9"),
        *("anna SA", "bert S9", "carl SK", "dora S9"),
    )
    assert state.clarified == 0
    state = apply(state, "anna HA", "bert H9", "carl HK", "dora H9")
    assert (state.partner, state.clarified, state.re) == (-1, 3, (0,))


# --- Karlchen Müller -----------------------------------------------------------------------


def test_karlchen_is_decided_by_the_last_trick() -> None:
    hands = deal(dora="CJ CJ")
    state = play(hands, *ALL_NONE[:3], "dora karlchen")
    assert (state.game, state.order) == ("karlchen", order_for(False, "normal"))
    state = to_end(state)
    lead, cards, won = state.tricks[-1]
    out = engine.outcome(state)
    assert out.points is None and out.tricks is None
    assert out.last_trick == {
        "winner": state.active[won],
        "card": DECK.code(cards[(won - lead) % 4]),
    }
    result = engine.settle(engine.to_record(state))
    assert result["category"] is None and result["amount"] == 40


# --- Heimliches and stilles Solo -----------------------------------------------------------


def test_a_secret_solo_with_one_cq_is_revealed_when_another_plays_the_other_cq() -> None:
    hands = deal(anna="CQ", bert="D9", carl="CQ")
    state = play(hands, "anna secret_solo", *ALL_NONE[1:])
    view = engine.view(state, "bert")
    assert view["game"] == {"type": "normal"}
    assert [r["reservation"] for r in view["reservations"]] == ["none"] * 4
    state = apply(state, "anna CQ", "bert D9")
    assert engine.view(state, "bert")["parties"] == {"re": ["anna"], "kontra": []}
    assert engine.view(state, "bert")["game"] == {"type": "normal"}
    state = apply(state, "carl CQ")
    view = engine.view(state, "bert")
    assert view["game"] == {"type": "secret_solo", "soloist": "anna"}
    assert view["parties"] == {"re": ["anna"], "kontra": ["bert", "carl", "dora"]}


def test_a_secret_solo_with_both_cq_is_revealed_by_the_second() -> None:
    hands = deal(anna="CQ CQ")
    state = play(hands, "anna secret_solo", *ALL_NONE[1:])
    state = first_cards(apply(state, "anna CQ"), 3)  # her CQ takes the trick: she leads again
    assert engine.view(state, "carl")["game"] == {"type": "normal"}
    assert engine.view(state, "carl")["parties"] == {"re": ["anna"], "kontra": []}
    state = apply(state, "anna CQ")
    assert engine.view(state, "carl")["game"] == {"type": "secret_solo", "soloist": "anna"}
    assert engine.view(state, "carl")["parties"]["kontra"] == ["bert", "carl", "dora"]


def test_ddv_both_cq_without_reservation_is_a_silent_solo_shown_as_normal() -> None:
    hands = deal(anna="CQ CQ")
    state = play(hands, *ALL_NONE, rules=DDV)
    assert (state.game, state.re, state.turn) == ("silent_solo", (0,), 0)
    assert engine.view(state, "bert")["game"] == {"type": "normal"}
    state = first_cards(apply(state, "anna CQ"), 3)
    assert engine.view(state, "bert")["game"] == {"type": "normal"}
    assert engine.view(state, "bert")["parties"] == {"re": ["anna"], "kontra": []}
    state = apply(state, "anna CQ")
    assert engine.view(state, "bert")["game"] == {"type": "silent_solo", "soloist": "anna"}
    state = to_end(state)
    assert engine.outcome(state).game == {"type": "silent_solo"}


# --- DDV: Pflichtsolo and announcements ---------------------------------------------------------


def test_a_pflichtsolo_stands_over_a_lustsolo_and_its_soloist_leads() -> None:
    moves = ("anna none", "bert solo:H", "carl solo:queens", "dora none")
    state = play(deal(), *moves, rules=DDV, pflicht_owed=["carl"])
    assert (state.game, state.active[state.declarer], state.kind) == ("solo", "carl", "queens")
    assert state.pflicht and state.turn == 2
    assert engine.view(state, "anna")["game"] == {
        "type": "solo",
        "soloist": "carl",
        "kind": "queens",
        "pflicht": True,
    }
    state = play(deal(), *moves, rules=DDV)
    assert (state.active[state.declarer], state.pflicht, state.turn) == ("bert", False, 0)


def test_a_lustsolo_stands_over_a_hochzeit() -> None:
    moves = ("anna hochzeit", "bert none", "carl none", "dora solo:fleischlos")
    state = play(deal(anna="CQ CQ"), *moves, rules=DDV)
    assert (state.game, state.declarer, state.kind) == ("solo", 3, "fleischlos")


def test_pflicht_owed_must_name_seats() -> None:
    with pytest.raises(EngineError) as e:
        play(deal(), rules=DDV, pflicht_owed=["emil"])
    assert e.value.at == "pflicht_owed"
    assert engine.to_record(play(deal(), rules=DDV, pflicht_owed=["carl"]))["pflicht_owed"] == [
        "carl"
    ]


NORMAL_DDV = {"anna": "CQ", "carl": "CQ"}  # anna and carl are Re


def test_ddv_announcements_are_in_time_with_enough_cards() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    words = ["!re", "!no90", "!no60", "!no30", "!schwarz"]
    assert says(state, "anna") == words
    assert says(state, "bert") == ["!kontra", "!no90", "!no60", "!no30", "!schwarz"]
    assert engine.to_act(state) == set(SEATS)
    state = first_cards(state, 8)  # two tricks: 10 cards each
    assert all(says(state, seat) == [] for seat in SEATS)
    assert engine.to_act(state) == {state.active[state.turn]}
    with pytest.raises(IllegalAction, match="anna holds 10 cards: re needs at least 11"):
        apply(state, "anna !no90")


def test_ddv_a_higher_level_implies_the_lower_ones_each_in_time() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    state = apply(state, "anna !re")
    state = first_cards(state, 8)  # 10 cards: no90 in time, no60 too
    assert says(state, "carl") == ["!no90", "!no60", "!no30", "!schwarz"]
    state = first_cards(state, 4)  # 9 cards: no90 missed, so nothing further
    assert says(state, "carl") == []
    with pytest.raises(IllegalAction, match="carl holds 9 cards: no90 needs at least 10"):
        apply(state, "carl !no60")


def test_ddv_an_announcement_counts_the_cards_the_announcer_holds_now() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    state = first_cards(state, 5)  # trick 2 led: its leader holds 10, the others 11
    for p, seat in enumerate(SEATS):
        held = state.hands[p].bit_count()
        assert held == (10 if p == state.leader else 11)
        assert bool(says(state, seat)) == (held == 11)


def test_ddv_an_announcement_must_raise_and_fit_the_party() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    with pytest.raises(IllegalAction, match="anna is not of the Kontra party"):
        apply(state, "anna !kontra")
    state = apply(state, "anna !no90")
    with pytest.raises(IllegalAction, match="Re has announced no90 already"):
        apply(state, "carl !re")
    assert engine.view(state, "dora")["parties"] == {"re": ["anna"], "kontra": []}
    assert state.levels == (1, -1)


def test_ddv_erwiderung_one_card_fewer_and_no_absage_after() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    state = apply(state, "anna !re")
    state = first_cards(state, 8)  # 10 cards: kontra only as a reply (re needed 11)
    assert says(state, "bert") == ["!kontra"]
    state = apply(state, "bert !kontra")
    assert state.reply_only == (False, True)
    with pytest.raises(IllegalAction, match="Kontra's word came only as a reply"):
        apply(state, "dora !no90")
    state = first_cards(play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV), 8)
    assert says(state, "bert") == []  # 10 cards, nothing to reply to


def test_ddv_a_reply_to_an_absage_may_come_later_still() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    state = apply(state, "anna !no90")  # no90 needed 10: a reply needs 9
    state = first_cards(state, 12)
    assert says(state, "bert") == ["!kontra"]


def test_ddv_hochzeit_no_announcement_before_clarified_then_minimums_drop() -> None:
    state = example_3(DDV, 1)
    assert all(says(state, seat) == [] for seat in SEATS)
    with pytest.raises(IllegalAction, match="nothing may be announced before it is clarified"):
        apply(state, "bert !kontra")
    state = example_3(DDV, 2)  # clarified at trick 2: every minimum drops by 1
    assert says(state, "bert") == ["!kontra", "!no90", "!no60", "!no30", "!schwarz"]
    assert engine.view(state, "bert")["parties"] == {
        "re": ["anna", "carl"],
        "kontra": ["bert", "dora"],
    }


def test_ddv_anyone_may_announce_while_another_is_to_play() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    state = apply(state, "anna CQ")
    assert [a.KEY for a in engine.legal_actions(state, "carl")] == ["announce"] * 5
    assert engine.to_act(state) == set(SEATS)
    state = apply(state, "dora !kontra")
    assert state.turn == 1 and state.announced == ((3, "kontra"),)


def test_ddv_announcements_make_the_announcers_party_public() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    state = apply(state, "bert !kontra", "dora !no90")
    assert engine.view(state, "anna")["parties"] == {"re": [], "kontra": ["bert", "dora"]}
    state = apply(state, "carl !re")
    assert engine.view(state, "anna")["parties"] == {"re": ["carl"], "kontra": ["bert", "dora"]}
    state = apply(state, "anna CQ")
    assert engine.view(state, "bert")["parties"] == {
        "re": ["anna", "carl"],
        "kontra": ["bert", "dora"],
    }


def test_ddv_outcome_carries_the_highest_announcements() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    state = to_end(apply(state, "anna !no60", "bert !kontra"))
    out = engine.outcome(state)
    assert out.announcements == {"re": "no60", "kontra": "kontra"}
    assert out.replies == {"re": False, "kontra": False}


# --- the hand end to end -------------------------------------------------------------------


def test_an_unfinished_hand_cannot_be_settled() -> None:
    with pytest.raises(EngineError, match="the hand is not finished: carl is to send"):
        engine.settle(record(deal(), "anna none", "bert none"))


def test_a_finished_hand_takes_no_more_actions_and_settles() -> None:
    state = to_end(play(deal(anna="CQ", bert="CQ"), *ALL_NONE))
    assert state.is_over and engine.to_act(state) == frozenset()
    with pytest.raises(IllegalAction, match="the hand is over"):
        apply(state, "anna none")
    result = engine.settle(engine.to_record(state))
    assert result["re"] == ["anna", "bert"]
    assert sum(result["delta"].values()) + result["kasse"] - 100 == 0


def test_the_kasse_closes_by_kasse_at_close() -> None:
    rules = RULE_SET.parse_rules({**RULES, "kasse_at_close": "split"})
    closing = RULE_SET.close(rules, SEATS, 103)
    assert [t["amount"] for t in closing.transfers] == [26, 26, 26, 25]
    assert closing.carry == {"kasse": 0}
    kept = RULE_SET.close(RULE_SET.parse_rules(RULES), SEATS, 103)
    assert kept.transfers == () and kept.carry == {"kasse": 103}
    assert RULE_SET.carry_after({"kasse": 70}) == {"kasse": 70}


def test_legal_answer_lists_the_turn_and_every_seats_announcements() -> None:
    state = play(deal(**NORMAL_DDV), *ALL_NONE, rules=DDV)
    answer = DDV_RULE_SET.legal_answer(state)
    assert answer["to_act"] == "anna"
    assert all("card" in a for a in answer["legal"])
    assert len(answer["announce"]) == 20
    done = to_end(play(deal(anna="CQ", bert="CQ"), *ALL_NONE))
    assert RULE_SET.legal_answer(done) == {"to_act": None, "legal": [], "announce": []}


# --- the fast path ---------------------------------------------------------------------------


@pytest.mark.parametrize("rs", [RULE_SET, DDV_RULE_SET], ids=["doppelkopf", "doppelkopf-ddv"])
@pytest.mark.parametrize("example", [0, 1])
def test_the_fast_path_settles_as_the_validating_path(rs: Any, example: int) -> None:
    """The random bot on the validating states and the fast path, from the same seed, deal,
    reserve, announce and play alike, so their Results are equal."""
    rules = rs.parse_rules(rs.examples[example])
    seats = ("a", "b", "c", "d")
    owed: tuple[str, ...] = ("b",) if rules.ddv else ()
    kasse = None if rules.ddv else 100
    kinds = set()
    for seed in range(150):
        fast_result = fast.random_result(rules, seats, kasse, owed, random.Random(seed))
        rng = random.Random(seed)
        hands = fast.deal_hands(rng.random)
        state = hand.new_state(rules, seats, "d", seats, kasse, owed, hands)
        while not state.is_over:
            state = hand.apply(state, fast.choose(state, rng))
        assert rs.settle_outcome(hand.outcome(state)) == fast_result, seed
        kinds.add(state.game)
        kinds.update("announced" for _ in state.announced[:1])
    assert {"normal", "solo"} <= kinds
    if rules.ddv:
        assert "announced" in kinds


def test_play_random_hand_returns_a_result() -> None:
    rng = random.Random(3)
    for rs in (RULE_SET, DDV_RULE_SET):
        rules = rs.parse_rules(rs.examples[0])
        result = rs.play_random_hand(rules, rs.read_carry(rs.carry_examples[1]), rng)
        assert (
            sum(result["delta"].values()) + result.get("kasse", 0) - (100 if not rules.ddv else 0)
            == 0
        )


# --- golden records ----------------------------------------------------------------------------


def test_both_rule_sets_have_golden_records() -> None:
    assert {p.parent.name for p in GOLDEN} == {"doppelkopf", "doppelkopf-ddv"}


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_a_golden_record_replays_to_its_known_result(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    record_ = doc["record"]
    assert record_["rules"]["variant"] == path.parent.name
    state = engine.replay(record_)
    assert state.is_over and engine.legal_actions(state) == []
    assert engine.to_record(state) == record_
    result = engine.settle(record_)
    assert {k: result[k] for k in doc["expect"]} == doc["expect"]
    assert engine.settle(engine.sheet_entry(state)) == result


def test_the_command_line_plays_and_answers_legal_with_every_seats_announcements() -> None:
    """``python -m engine play`` seats four (anna … dora) for a rule set of four; ``legal`` on
    a DDV hand in progress answers the spec's ``{"to_act", "legal", "announce"}``."""
    record = ok("play", "--seed", "5", "--rules", json.dumps(DDV))
    assert list(record["seats"]) == ["anna", "bert", "carl", "dora"]
    assert ok("verify", "-", stdin=json.dumps(record))["verified"] is True
    started = {**record, "actions": record["actions"][:4]}  # the four reservations
    started.pop("proof")
    answer = ok("legal", "-", stdin=json.dumps(started))
    assert set(answer) == {"to_act", "legal", "announce"}
    assert answer["to_act"] == "anna" and all("card" in a for a in answer["legal"])
    assert answer["announce"] and all("announce" in a for a in answer["announce"])
