"""wien.md, "Talon, declaration, Nachschauen".

The deal is helpers.DEAL (anna forehand, bert middlehand, carl rearhand and dealer) with the
talon D7 S7.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import EngineError, IllegalAction, NotYourTurn
from engine.rules.wien import Phase, State
from tests.engine.helpers import (
    DEAL,
    TALON,
    act,
    calls,
    hand_from,
    hand_of,
    legal_json,
)


def game(*steps: Any) -> State:
    """Replay steps written ``"anna 1"`` (calls) or ``("anna", {"declare": ...})``."""
    actions: list[dict[str, Any]] = []
    for step in steps:
        if isinstance(step, str):
            actions += calls(step)
        else:
            actions.append({"seat": step[0], **step[1]})
    return hand_from(DEAL, TALON, actions=actions)


def declares(state: State) -> list[dict[str, Any]]:
    return [a["declare"] for a in legal_json(state)]


def suit(level: str) -> dict[str, Any]:
    return {"declare": {"type": "suit", "level": level}}


def prem(level: int) -> dict[str, Any]:
    return {"declare": {"type": "premium", "level": level}}


def discard(text: str) -> dict[str, Any]:
    return {"discard": text.split()}


LOOK = {"look": True}
NO_LOOK = {"look": False}
PREMIUMS = [{"type": "premium", "level": k} for k in (5, 6, 7, 8)]


# --- taking the talon and discarding --------------------------------------------------------


def test_the_winner_of_a_number_bid_takes_the_talon() -> None:
    state = game("anna 1", "bert pass", "carl pass")
    assert state.phase is Phase.TALON
    assert len(hand_of(state, "anna")) == 12
    assert {"D7", "S7"} <= set(hand_of(state, "anna"))


def test_the_declarer_may_discard_any_two_of_the_twelve_cards() -> None:
    state = game("anna 1", "bert pass", "carl pass")
    assert len(legal_json(state)) == 66  # 12 choose 2
    state = act(state, "anna", discard=["S7", "CA"])  # a talon card and one of her own
    assert state.phase is Phase.DECLARE
    assert len(hand_of(state, "anna")) == 10
    assert "CA" not in hand_of(state, "anna") and "D7" in hand_of(state, "anna")


def test_it_rejects_discarding_a_card_the_declarer_does_not_hold() -> None:
    state = game("anna 1", "bert pass", "carl pass")
    with pytest.raises(IllegalAction, match="must discard two cards from the hand"):
        act(state, "anna", discard=["HA", "D7"])


def test_a_discard_is_exactly_two_cards() -> None:
    state = game("anna 1", "bert pass", "carl pass")
    with pytest.raises(EngineError, match="exactly two cards"):
        act(state, "anna", discard=["D7"])


# --- declaring --------------------------------------------------------------------------------


def test_after_a_number_bid_of_1_any_suit_or_non_hand_premium_game_may_be_declared() -> None:
    state = game("anna 1", "bert pass", "carl pass", ("anna", discard("D7 S7")))
    assert declares(state) == [{"type": "suit", "level": s} for s in "CSDH"] + PREMIUMS


def test_after_a_number_bid_n_the_suit_must_have_a_bid_number_of_at_least_n() -> None:
    state = game(
        "anna 1", "bert 2", "carl pass", "anna hold", "bert pass", ("anna", discard("D7 S7"))
    )
    assert declares(state) == [{"type": "suit", "level": s} for s in "SDH"] + PREMIUMS
    with pytest.raises(IllegalAction, match="declare the game"):
        act(state, "anna", **suit("C"))


def test_after_a_number_bid_of_4_only_hearts_or_a_premium_game_may_be_declared() -> None:
    state = game(
        "anna 1", "bert 2", "carl 3", "anna 4", "bert pass", "carl pass", ("anna", discard("D7 S7"))
    )
    assert declares(state) == [{"type": "suit", "level": "H"}] + PREMIUMS


def test_after_a_premium_call_the_declaration_is_a_non_hand_premium_game_at_least_as_high() -> None:
    state = game("anna 6", "bert pass", "carl pass", ("anna", discard("D7 S7")))
    assert declares(state) == PREMIUMS[1:]
    with pytest.raises(IllegalAction):
        act(state, "anna", **prem(5))
    with pytest.raises(IllegalAction):
        act(state, "anna", **suit("H"))


def test_a_number_game_declared_in_hearts_keeps_the_talon() -> None:
    state = game(
        "anna 1", "bert pass", "carl pass", ("anna", discard("D7 S7")), ("anna", suit("H"))
    )
    assert state.game is not None
    assert state.game.to_json() == {"type": "suit", "level": "H", "talon": True}
    assert not state.game.is_herz


def test_an_uncontested_geschaeft_declares_clubs_spades_or_diamonds_without_the_talon() -> None:
    state = game("anna geschaeft", "bert pass", "carl pass")
    assert declares(state) == [{"type": "suit", "level": s} for s in "CSD"]
    with pytest.raises(IllegalAction):
        act(state, "anna", **suit("H"))
    with pytest.raises(IllegalAction, match="declare the game"):
        act(state, "anna", discard=["DA", "DK"])
    state = act(state, "anna", **suit("D"))
    assert state.game is not None
    assert state.game.to_json() == {"type": "suit", "level": "D", "talon": False}


def test_herz_is_fixed_without_a_declaration() -> None:
    state = game("anna herz", "bert pass", "carl pass")
    assert state.game is not None
    assert state.game.to_json() == {"type": "suit", "level": "H", "talon": False}
    assert state.game.is_herz
    assert state.phase is Phase.DEFENCE  # nobody else called, so nobody looks
    assert len(hand_of(state, "anna")) == 10


def test_a_hand_premium_call_is_fixed_without_a_declaration_and_played_at_once() -> None:
    state = game("anna 7h", "bert pass", "carl pass")
    assert state.game is not None
    assert state.game.to_json() == {"type": "premium", "level": 7, "hand": True}
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"


# --- Nachschauen -----------------------------------------------------------------------------


def d_game_for_anna() -> State:
    """anna wins with 2 (bert called, carl only passed) and declares D."""
    return game(
        "anna 1",
        "bert 2",
        "carl pass",
        "anna hold",
        "bert pass",
        ("anna", discard("S7 C7")),
        ("anna", suit("D")),
    )


def test_only_players_who_made_a_call_are_asked_to_look() -> None:
    state = d_game_for_anna()
    assert state.phase is Phase.LOOK
    assert state.to_act_seat == "bert"
    state = act(state, "bert", **NO_LOOK)
    assert state.phase is Phase.DEFENCE  # carl only passed: he is not asked


def test_nobody_is_asked_when_nobody_else_called() -> None:
    state = game(
        "anna 1", "bert pass", "carl pass", ("anna", discard("D7 S7")), ("anna", suit("C"))
    )
    assert state.phase is Phase.DEFENCE


def test_players_are_asked_in_playing_order_from_the_player_after_the_declarer() -> None:
    # carl wins with 4 (anna and bert both called); anna comes after carl, then bert
    state = game(
        "anna 1",
        "bert 2",
        "carl 3",
        "anna pass",
        "bert 4",
        "carl hold",
        "bert pass",
        ("carl", discard("D8 S8")),
        ("carl", suit("H")),
    )
    assert state.to_act_seat == "anna"
    state = act(state, "anna", **NO_LOOK)
    assert state.to_act_seat == "bert"
    with pytest.raises(NotYourTurn):
        act(state, "anna", **NO_LOOK)


def test_nobody_is_asked_after_an_8() -> None:
    state = game(
        "anna 1",
        "bert 2",
        "carl pass",
        "anna hold",
        "bert pass",
        ("anna", discard("S7 C7")),
        ("anna", prem(8)),
    )
    assert state.phase is Phase.PLAY  # bert called, but nothing is higher than 8


def test_nobody_is_asked_after_an_8_von_der_hand() -> None:
    state = game("anna 1", "bert 8h", "carl pass", "anna pass")
    assert state.phase is Phase.PLAY and state.to_act_seat == "bert"


def test_players_are_asked_after_a_7_von_der_hand_because_8_is_higher() -> None:
    state = game("anna 1", "bert 7h", "carl pass", "anna pass")
    assert state.phase is Phase.LOOK and state.to_act_seat == "anna"
    state = act(state, "anna", **LOOK)
    assert declares(act(state, "anna", discard=["D7", "S7"])) == [PREMIUMS[3]]


def test_a_looker_after_a_talon_game_takes_the_declarers_discards() -> None:
    state = act(d_game_for_anna(), "bert", **LOOK)
    assert state.phase is Phase.TALON and state.to_act_seat == "bert"
    bert = hand_of(state, "bert")
    assert len(bert) == 12
    assert {"S7", "C7"} <= set(bert) and "D7" not in bert  # anna kept D7, laid away S7 C7


def test_a_looker_after_a_hand_game_takes_the_untouched_talon() -> None:
    state = game("anna herz", "bert 5h", "carl pass", "anna pass")  # bert wins 5h, anna called
    assert state.to_act_seat == "anna"
    state = act(state, "anna", **LOOK)
    assert {"D7", "S7"} <= set(hand_of(state, "anna"))


def test_a_looker_must_declare_a_strictly_higher_non_hand_premium_game() -> None:
    state = act(d_game_for_anna(), "bert", **LOOK)
    state = act(state, "bert", discard=["S7", "C7"])
    assert declares(state) == PREMIUMS
    with pytest.raises(IllegalAction):
        act(state, "bert", **suit("H"))


def test_after_herz_a_looker_must_declare_at_least_6() -> None:
    state = game("anna geschaeft", "bert herz", "carl pass", "anna pass")
    assert state.phase is Phase.LOOK and state.to_act_seat == "anna"
    state = act(act(state, "anna", **LOOK), "anna", discard=["D7", "S7"])
    assert declares(state) == PREMIUMS[1:]


def test_a_raise_makes_the_looker_declarer_and_the_round_starts_again_with_the_displaced_one() -> (
    None
):
    state = act(d_game_for_anna(), "bert", **LOOK)
    state = act(act(state, "bert", discard=["S7", "C7"]), "bert", **prem(5))
    assert state.active[state.declarer] == "bert"  # type: ignore[index]
    # the round starts after bert: carl never called, so anna (displaced) is asked
    assert state.phase is Phase.LOOK and state.to_act_seat == "anna"
    state = act(act(state, "anna", **LOOK), "anna", discard=["S7", "C7"])
    assert declares(state) == PREMIUMS[1:]
    state = act(state, "anna", **prem(6))
    assert state.to_act_seat == "bert"  # and bert is asked again
    state = act(state, "bert", **NO_LOOK)
    assert state.phase is Phase.PLAY  # a premium game: no defence step
    assert state.active[state.declarer] == "anna"  # type: ignore[index]
    assert state.game is not None
    assert state.game.to_json() == {"type": "premium", "level": 6, "hand": False}


def test_the_current_declarer_is_never_asked_to_look() -> None:
    state = act(d_game_for_anna(), "bert", **LOOK)
    state = act(act(state, "bert", discard=["S7", "C7"]), "bert", **prem(5))
    state = act(state, "anna", **NO_LOOK)
    assert state.phase is Phase.PLAY  # bert, the declarer, is not asked
    assert state.to_act_seat == "bert"


def test_the_geschaeft_resolution_winner_faces_nachschauen_by_the_other_caller() -> None:
    state = game("anna geschaeft", "bert geschaeft", "carl pass")
    state = act(act(state, "anna", geschaeft_suit="C"), "bert", geschaeft_suit="pass")
    assert state.phase is Phase.LOOK and state.to_act_seat == "bert"
