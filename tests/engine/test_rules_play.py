"""wien.md, "Card play": who leads, Farb- und Stichzwang (rules 1 to 3), Largierpflicht and
the early end of premium games.

In every suit game below anna (forehand) bid 1, took the talon, laid the same two cards away
and declared diamonds; bert follows her in playing order, so he is the defender bound by
Largierpflicht whenever both defenders play.
"""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction, NotYourTurn
from engine.rules.wien import Phase, State
from tests.engine.helpers import (
    DEAL,
    TALON,
    act,
    calls,
    hand_from,
    legal_cards,
    play_cards,
    premium_game,
    suit_game,
)

# bert is void in clubs, carl in hearts.
P = {
    "anna": "DA DK D8 SA SK S7 CK C8 H7 H8",
    "bert": "D9 DQ ST S9 HA HK HQ HJ HT H9",
    "carl": "D7 DT DJ SQ SJ S8 CA CQ CJ C9",
}
P_TALON = "CT C7"

# anna holds every heart; bert and carl are both void in hearts.
OPEN = {
    "anna": "HA HK HQ HJ HT H9 H8 H7 DA DK",
    "bert": "D8 D9 DQ SA SK SQ SJ ST S9 S8",
    "carl": "D7 DT DJ CA CK CQ CJ CT C9 C8",
}
O_TALON = "S7 C7"


def p_game(defence: tuple[str, str] = ("play", "play"), then: str | None = None) -> State:
    return suit_game(P, P_TALON, "D", defence, then)


def o_game(defence: tuple[str, str] = ("play", "play"), then: str | None = None) -> State:
    return suit_game(OPEN, O_TALON, "D", defence, then)


# --- leading -----------------------------------------------------------------------------------


def test_the_declarer_leads_to_the_first_trick() -> None:
    state = p_game()
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"
    assert len(legal_cards(state)) == 10  # a lead may be any card


def test_it_rejects_a_card_out_of_turn() -> None:
    with pytest.raises(NotYourTurn, match="it is anna's turn, not bert's"):
        act(p_game(), "bert", card="D9")


def test_it_rejects_a_card_the_player_does_not_hold() -> None:
    with pytest.raises(IllegalAction, match="anna does not hold HA"):
        act(p_game(), "anna", card="HA")


def test_the_winner_of_a_trick_leads_to_the_next() -> None:
    state = play_cards(p_game(), "S7 S9 SQ")
    assert state.to_act_seat == "carl"
    assert state.won == (0, 0, 1)
    assert state.tricks_done == 1


# --- rule 1: follow suit and head the trick -------------------------------------------------


def test_a_player_holding_the_led_suit_must_beat_the_trick_if_he_can() -> None:
    state = play_cards(p_game(), "S7 S9")
    assert legal_cards(state) == ["SJ", "SQ"]  # carl: S8 would not beat S9
    with pytest.raises(IllegalAction, match="carl must beat the trick in S: SJ or SQ"):
        act(state, "carl", card="S8")


def test_a_player_who_cannot_beat_the_trick_plays_any_card_of_the_led_suit() -> None:
    state = play_cards(p_game(), "SK")
    assert legal_cards(state) == ["S9", "ST"]
    with pytest.raises(IllegalAction, match="bert must follow suit S: S9 or ST"):
        act(state, "bert", card="HA")


def test_when_trumps_are_led_a_higher_trump_must_be_played() -> None:
    state = play_cards(p_game(), "D8 D9")
    assert legal_cards(state) == ["DT", "DJ"]  # carl may not play D7


def test_a_trump_played_to_a_plain_suit_lead_removes_the_duty_to_beat_in_that_suit() -> None:
    state = play_cards(p_game(), "CK D9")  # bert is void in clubs and trumps
    assert legal_cards(state) == ["C9", "CJ", "CQ", "CA"]  # carl need not play CA


# --- rule 2: trump when void, over-trump -------------------------------------------------------


def test_a_player_void_in_the_led_suit_must_play_a_trump() -> None:
    state = play_cards(p_game(), "H7 H9")  # carl has no hearts
    assert legal_cards(state) == ["D7", "DT", "DJ"]
    with pytest.raises(IllegalAction, match=r"carl has no H and must play a trump \(D\)"):
        act(state, "carl", card="SQ")


def test_a_player_void_in_the_led_suit_must_over_trump_a_trump_in_the_trick() -> None:
    state = play_cards(o_game(), "H7 D8")
    assert legal_cards(state) == ["DT", "DJ"]
    with pytest.raises(IllegalAction, match="carl has no H and must beat the trick with a trump"):
        act(state, "carl", card="D7")


def test_a_player_who_cannot_over_trump_plays_any_trump() -> None:
    state = play_cards(o_game(), "H7 D8 DJ")  # carl wins and leads clubs
    state = play_cards(state, "C8 DA")  # anna has no clubs and trumps high
    assert legal_cards(state) == ["D9", "DQ"]  # bert cannot beat DA: any trump


# --- rule 3 ------------------------------------------------------------------------------------


def test_a_player_void_in_the_led_suit_and_in_trumps_plays_any_card() -> None:
    state = play_cards(suit_game(DEAL, TALON, "H"), "DA")  # bert has no diamonds, no hearts
    assert len(legal_cards(state)) == 10


# --- Largierpflicht ------------------------------------------------------------------------------


def test_largierpflicht_the_defender_after_the_declarer_beats_with_the_lowest_card_that_does() -> (
    None
):
    state = play_cards(p_game(), "S7")
    assert legal_cards(state) == ["S9"]
    with pytest.raises(IllegalAction, match=r"lowest card that does \(Largierpflicht\): S9"):
        act(state, "bert", card="ST")


def test_largierpflicht_trumping_a_trick_without_trumps_means_the_lowest_trump() -> None:
    state = play_cards(o_game(), "H7")
    assert legal_cards(state) == ["D8"]
    with pytest.raises(IllegalAction, match="Largierpflicht"):
        act(state, "bert", card="DQ")


def test_largierpflicht_does_not_bind_the_second_defender() -> None:
    state = play_cards(o_game(), "H7 D8")
    assert legal_cards(state) == ["DT", "DJ"]  # carl may beat high


def test_largierpflicht_applies_in_an_invitation() -> None:
    state = play_cards(o_game(("play", "home"), "invite"), "H7")
    assert legal_cards(state) == ["D8"]


def test_largierpflicht_does_not_apply_with_one_defender() -> None:
    state = play_cards(o_game(("play", "home"), "alone"), "H7")
    assert legal_cards(state) == ["D8", "D9", "DQ"]
    state = play_cards(p_game(("play", "home"), "alone"), "S7")
    assert legal_cards(state) == ["S9", "ST"]


def test_largierpflicht_binds_the_defender_after_the_declarer_when_the_declarer_is_rearhand() -> (
    None
):
    # carl (rearhand) declares D after anna and bert pass: anna follows him and is bound
    actions = [
        *calls("anna pass", "bert pass", "carl 1"),
        {"seat": "carl", "discard": ["S7", "C7"]},
        {"seat": "carl", "declare": {"type": "suit", "level": "D"}},
        {"seat": "anna", "defence": "play"},
        {"seat": "bert", "defence": "play"},
    ]
    deal = {"anna": OPEN["bert"], "bert": OPEN["carl"], "carl": OPEN["anna"]}
    state = play_cards(hand_from(deal, O_TALON, actions=actions), "H7")
    assert state.to_act_seat == "anna"
    assert legal_cards(state) == ["D8"]
    state = play_cards(state, "D8")
    assert legal_cards(state) == ["DT", "DJ"]  # bert is not bound


# --- Ausfechten ------------------------------------------------------------------------------


def test_an_ausfechten_has_no_trumps_and_the_highest_card_of_the_led_suit_wins() -> None:
    state = hand_from(DEAL, TALON, actions=calls("anna pass", "bert pass", "carl pass"))
    state = play_cards(state, "D8")
    assert legal_cards(state) == ["D9", "DT", "DJ", "DQ", "DK", "DA"]  # anna must beat D8
    state = play_cards(state, "D9 CK")
    assert state.won == (1, 0, 0) and state.to_act_seat == "anna"


# --- premium games ---------------------------------------------------------------------------


def test_premium_games_have_no_trumps() -> None:
    state = premium_game(DEAL, TALON, 6)
    assert state.trump is None


def test_a_misere_ends_as_soon_as_the_declarer_takes_a_trick() -> None:
    state = play_cards(premium_game(DEAL, TALON, 5), "DA CK D8")
    assert state.phase is Phase.DONE
    assert state.won == (1, 0, 0)
    result = engine.settle(engine.to_record(state))
    # failed 5 (k = 1): anna pays S = 300 into the pot and G = 100 to each of the others
    assert result["made"] is False
    assert result["tricks"] == {"anna": 1, "bert": 0, "carl": 0}
    assert result["delta"] == {"anna": -500, "bert": 100, "carl": 0}
    assert result["pot"] == 600


def test_a_misere_goes_on_while_the_declarer_takes_no_trick() -> None:
    state = play_cards(premium_game(DEAL, TALON, 5), "C7 C8 H7")
    assert state.phase is Phase.PLAY and state.to_act_seat == "bert"


def test_a_slam_ends_as_soon_as_the_declarer_loses_a_trick() -> None:
    state = play_cards(premium_game(DEAL, TALON, 6), "C7 C8 H7")
    assert state.phase is Phase.DONE
    result = engine.settle(engine.to_record(state))
    # failed 6 (k = 2): anna pays S = 300 into the pot and 2G = 200 to each of the others
    assert result["delta"] == {"anna": -700, "bert": 200, "carl": 100}
    assert result["pot"] == 600


def test_a_slam_goes_on_while_the_declarer_wins() -> None:
    state = play_cards(premium_game(DEAL, TALON, 6), "DA CK D8")
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"


def test_it_rejects_any_action_once_the_hand_is_over() -> None:
    state = play_cards(premium_game(DEAL, TALON, 5), "DA CK D8")
    assert engine.legal_actions(state) == []
    with pytest.raises(IllegalAction, match="the hand is over"):
        act(state, "anna", card="DK")
