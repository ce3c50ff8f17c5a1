"""wien.md, "Defence (mitgehen / zu Hause bleiben / Einladung)"."""

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
    legal_json,
    premium_game,
    suit_game,
    suit_game_actions,
)


def declared(pot: int = 200) -> State:
    """anna has declared D; the defenders have not chosen yet."""
    return hand_from(DEAL, TALON, pot=pot, actions=suit_game_actions(TALON, "D")[:5])


def test_the_defenders_choose_in_playing_order_from_the_declarer() -> None:
    state = declared()
    assert state.phase is Phase.DEFENCE
    assert state.to_act_seat == "bert"
    assert legal_json(state) == [{"defence": "play"}, {"defence": "home"}]
    with pytest.raises(NotYourTurn):
        act(state, "carl", defence="play")
    assert act(state, "bert", defence="home").to_act_seat == "carl"


def test_the_defence_begins_after_the_player_after_the_declarer() -> None:
    # carl wins with 1 (anna, bert pass); the defence starts with anna, then bert
    actions = [
        *calls("anna pass", "bert pass", "carl 1"),
        {"seat": "carl", "discard": ["D7", "S7"]},
        {"seat": "carl", "declare": {"type": "suit", "level": "H"}},
    ]
    state = hand_from(DEAL, TALON, actions=actions)
    assert state.phase is Phase.DEFENCE and state.to_act_seat == "anna"
    assert act(state, "anna", defence="play").to_act_seat == "bert"


def test_when_the_pot_holds_only_the_dealer_contribution_both_defenders_must_play() -> None:
    state = declared(pot=0)
    assert legal_json(state) == [{"defence": "play"}]
    with pytest.raises(IllegalAction, match="both defenders must play"):
        act(state, "bert", defence="home")
    state = act(act(state, "bert", defence="play"), "carl", defence="play")
    assert state.phase is Phase.PLAY  # no invitation step: both play


def test_both_defenders_playing_go_straight_to_card_play() -> None:
    state = act(act(declared(), "bert", defence="play"), "carl", defence="play")
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"
    assert state.playing == 0b111


@pytest.mark.parametrize(
    ("bert", "carl", "lone"), [("play", "home", "bert"), ("home", "play", "carl")]
)
def test_a_lone_defender_invites_the_other_or_plays_alone(bert: str, carl: str, lone: str) -> None:
    state = act(act(declared(), "bert", defence=bert), "carl", defence=carl)
    assert state.phase is Phase.INVITE
    assert state.to_act_seat == lone
    assert legal_json(state) == [{"defence": "invite"}, {"defence": "alone"}]


def test_an_invited_defender_plays_without_sending_anything() -> None:
    state = suit_game(DEAL, TALON, "D", ("play", "home"), "invite")
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"
    assert state.playing == 0b111
    assert state.defence == (None, "invite", "invited")


def test_a_lone_defender_who_plays_alone_leaves_the_other_at_home() -> None:
    state = suit_game(DEAL, TALON, "D", ("play", "home"), "alone")
    assert state.phase is Phase.PLAY
    assert state.playing == 0b011  # anna and bert


def test_it_rejects_home_when_the_lone_defender_must_invite_or_play_alone() -> None:
    state = act(act(declared(), "bert", defence="play"), "carl", defence="home")
    with pytest.raises(IllegalAction, match="invite the other defender or play alone"):
        act(state, "bert", defence="home")


def test_it_rejects_an_invitation_before_both_have_chosen() -> None:
    with pytest.raises(IllegalAction, match="choose play or home"):
        act(declared(), "bert", defence="invite")


def test_when_both_defenders_stay_home_the_declarer_wins_at_once() -> None:
    state = act(act(declared(), "bert", defence="home"), "carl", defence="home")
    assert state.phase is Phase.DONE and state.to_act is None
    result = engine.settle(engine.to_record(state))
    # S = 300 from the pot to anna; carl paid G as dealer
    assert result["made"] is True
    assert result["delta"] == {"anna": 300, "bert": 0, "carl": -100}
    assert result["tricks"] == {}


def test_premium_games_have_no_defence_step() -> None:
    state = premium_game(DEAL, TALON, 6)
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"
    with pytest.raises(IllegalAction, match="play a card"):
        act(state, "anna", defence="play")


def test_herz_has_a_defence_step() -> None:
    state = hand_from(DEAL, TALON, actions=calls("anna herz", "bert pass", "carl pass"))
    assert state.phase is Phase.DEFENCE and state.to_act_seat == "bert"
