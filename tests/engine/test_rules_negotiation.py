"""wien.md, "Card play", Aushandeln: agreeing a split of the tricks instead of playing.

anna declared D; bert plays alone and carl stays home unless a test says otherwise.
"""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction, NotYourTurn
from engine.rules.wien import Phase, State
from tests.engine.helpers import DEAL, TALON, act, legal_json, play_cards, suit_game

SPLITS = [{"negotiate": {"declarer": 10 - n, "defender": n}} for n in (2, 3, 4)]


def alone() -> State:
    return suit_game(DEAL, TALON, "D", ("play", "home"), "alone")


def proposals(state: State) -> list[dict[str, object]]:
    return [a for a in legal_json(state) if "negotiate" in a]


def test_the_declarer_may_propose_a_split_before_the_first_card_against_one_defender() -> None:
    state = alone()
    assert proposals(state) == SPLITS
    state = act(state, "anna", negotiate={"declarer": 7, "defender": 3})
    assert state.to_act_seat == "bert"
    assert state.offer == (0, 7, 3)


@pytest.mark.parametrize(
    ("defence", "then"), [(("play", "play"), None), (("play", "home"), "invite")]
)
def test_there_is_no_proposal_when_two_defenders_play(
    defence: tuple[str, str], then: str | None
) -> None:
    state = suit_game(DEAL, TALON, "D", defence, then)
    assert proposals(state) == []
    with pytest.raises(IllegalAction, match="no proposal is possible now"):
        act(state, "anna", negotiate={"declarer": 7, "defender": 3})


def test_the_defender_cannot_propose_first() -> None:
    state = play_cards(alone(), "DA")
    assert proposals(state) == []
    with pytest.raises(IllegalAction, match="no proposal is possible now"):
        act(state, "bert", negotiate={"declarer": 6, "defender": 4})


def test_there_is_no_proposal_once_a_card_has_been_played() -> None:
    state = play_cards(alone(), "DA CK")  # anna wins and leads again
    assert state.to_act_seat == "anna"
    assert proposals(state) == []
    with pytest.raises(IllegalAction, match="no proposal is possible now"):
        act(state, "anna", negotiate={"declarer": 8, "defender": 2})


@pytest.mark.parametrize(
    ("declarer", "defender"),
    [(9, 1), (5, 5), (4, 6), (7, 2), (8, 3)],  # defender outside 2..4, or not adding up to 10
)
def test_a_split_gives_the_defender_2_to_4_tricks_and_adds_up_to_10(
    declarer: int, defender: int
) -> None:
    with pytest.raises(IllegalAction, match="2 to 4 tricks"):
        act(alone(), "anna", negotiate={"declarer": declarer, "defender": defender})


def test_an_accepted_split_ends_the_hand_with_those_tricks() -> None:
    state = act(alone(), "anna", negotiate={"declarer": 7, "defender": 3})
    state = act(state, "bert", accept=True)
    assert state.phase is Phase.DONE
    assert engine.sheet_entry(state)["negotiated"] is True
    result = engine.settle(engine.to_record(state))
    # S = 300, t = 30: anna takes S and pays bert 3 tricks (90); carl paid G as dealer
    assert result["tricks"] == {"anna": 7, "bert": 3}
    assert result["delta"] == {"anna": 210, "bert": 90, "carl": -100}
    assert result["pot"] == 0


def test_the_defender_may_make_one_counter_proposal_which_the_declarer_answers() -> None:
    state = act(alone(), "anna", negotiate={"declarer": 8, "defender": 2})
    assert legal_json(state) == [{"accept": True}, {"accept": False}, *SPLITS]
    state = act(state, "bert", negotiate={"declarer": 6, "defender": 4})
    assert state.to_act_seat == "anna"
    assert legal_json(state) == [{"accept": True}, {"accept": False}]  # no counter to a counter
    with pytest.raises(IllegalAction, match="no proposal is possible now"):
        act(state, "anna", negotiate={"declarer": 7, "defender": 3})
    state = act(state, "anna", accept=True)
    assert state.phase is Phase.DONE
    assert dict(zip(state.active, state.won, strict=True)) == {"anna": 6, "bert": 4, "carl": 0}


def test_after_a_refusal_the_declarer_leads_and_no_more_proposals_are_made() -> None:
    state = act(alone(), "anna", negotiate={"declarer": 8, "defender": 2})
    state = act(state, "bert", accept=False)
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"
    assert proposals(state) == []
    assert len(legal_json(state)) == 10  # her ten cards
    with pytest.raises(IllegalAction, match="no proposal is possible now"):
        act(state, "anna", negotiate={"declarer": 7, "defender": 3})


def test_after_a_refused_counter_proposal_the_declarer_leads() -> None:
    state = act(alone(), "anna", negotiate={"declarer": 8, "defender": 2})
    state = act(state, "bert", negotiate={"declarer": 6, "defender": 4})
    state = act(state, "anna", accept=False)
    assert state.phase is Phase.PLAY and state.to_act_seat == "anna"
    assert proposals(state) == []


def test_a_proposal_must_be_answered_before_anything_else() -> None:
    state = act(alone(), "anna", negotiate={"declarer": 7, "defender": 3})
    with pytest.raises(IllegalAction, match="answer the proposed split"):
        act(state, "bert", card="CK")
    with pytest.raises(NotYourTurn):
        act(state, "anna", card="DA")
