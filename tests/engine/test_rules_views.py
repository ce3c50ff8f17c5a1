"""engine.view: what each seat may see (wien.md: the talon for a premium caller without h,
open hands in 7 and 8 after the first trick; hidden discards)."""

from __future__ import annotations

import json

from engine import view
from engine.rules.wien import Phase
from tests.engine.helpers import DEAL, TALON, act, calls, hand_from, play_cards, premium_game


def test_a_seat_sees_its_own_hand_and_not_the_others() -> None:
    state = hand_from(DEAL, TALON)
    v = view(state, "bert")
    assert sorted(v["hand"]) == sorted(DEAL["bert"].split())
    assert v["open_hands"] == {}
    text = json.dumps(v)
    hidden = DEAL["anna"].split() + DEAL["carl"].split() + TALON.split()
    assert [c for c in hidden if f'"{c}"' in text] == []  # no other card leaves the engine
    assert v["talon"] is None
    assert v["hand_sizes"] == {"anna": 10, "bert": 10, "carl": 10}
    assert "deal" not in v


def test_the_player_to_act_sees_his_legal_actions_and_the_others_do_not() -> None:
    state = hand_from(DEAL, TALON)
    assert {"call": "1"} in view(state, "anna")["legal"]
    assert "legal" not in view(state, "bert")


def test_a_premium_call_without_h_shows_the_talon_to_the_caller_at_once_and_to_nobody_else() -> (
    None
):
    state = hand_from(DEAL, TALON, actions=calls("anna 5"))
    assert state.phase is Phase.AUCTION  # the auction goes on
    assert view(state, "anna")["talon"] == ["S7", "D7"]
    assert view(state, "bert")["talon"] is None
    assert view(state, "carl")["talon"] is None
    assert view(state, None)["talon"] is None


def test_a_premium_call_von_der_hand_does_not_show_the_talon() -> None:
    state = hand_from(DEAL, TALON, actions=calls("anna 5h"))
    assert view(state, "anna")["talon"] is None


def test_the_discards_are_known_only_to_the_player_who_laid_them_away() -> None:
    actions = [
        *calls("anna 1", "bert pass", "carl pass"),
        {"seat": "anna", "discard": ["CA", "C7"]},
    ]
    state = hand_from(DEAL, TALON, actions=actions)
    assert view(state, "anna")["talon"] == ["C7", "CA"]
    assert view(state, "bert")["talon"] is None
    assert view(state, "bert")["actions"][-1] == {"seat": "anna", "discard": None}
    assert view(state, "anna")["actions"][-1] == {"seat": "anna", "discard": ["C7", "CA"]}


def test_in_an_open_game_the_defenders_hands_are_shown_to_everyone_after_the_first_trick() -> None:
    state = premium_game(DEAL, TALON, 7)
    assert view(state, "anna")["open_hands"] == {}  # not before the first trick
    state = play_cards(state, "C7 C8 H7")  # bert wins; anna took no trick
    assert state.phase is Phase.PLAY
    for seat in ("anna", "bert", "carl", None):
        shown = view(state, seat)["open_hands"]
        assert set(shown) == {"bert", "carl"}  # never the declarer's
        assert len(shown["bert"]) == 9
    assert "C8" not in view(state, "carl")["open_hands"]["bert"]


def test_in_a_closed_premium_game_no_hands_are_shown() -> None:
    state = play_cards(premium_game(DEAL, TALON, 5), "C7 C8 H7")
    assert view(state, "anna")["open_hands"] == {}


def test_a_sitting_out_dealer_sees_no_hand() -> None:
    state = hand_from(DEAL, TALON, seats=["anna", "bert", "carl", "dora"], dealer="dora")
    v = view(state, "dora")
    assert v["hand"] is None
    assert v["active"] == ["anna", "bert", "carl"]


def test_after_the_hand_everything_is_shown() -> None:
    state = play_cards(premium_game(DEAL, TALON, 5), "DA CK D8")
    v = view(state, "bert")
    assert v["phase"] == "done"
    assert sorted(v["deal"]["anna"]) == sorted(DEAL["anna"].split())
    assert sorted(v["deal"]["talon"]) == sorted(TALON.split())
    assert set(v["deal"]) == {"anna", "bert", "carl", "talon"}
    assert v["open_hands"].keys() == {"anna", "bert", "carl"}


def test_the_view_shows_the_current_trick_and_the_tricks_won() -> None:
    state = act(premium_game(DEAL, TALON, 5), "anna", card="C7")
    v = view(state, "carl")
    assert v["trick"] == [{"seat": "anna", "card": "C7"}]
    assert v["tricks"] == {"anna": 0, "bert": 0, "carl": 0}
