"""Hidden information: ``engine.view`` shows each seat what the rules show it, and no more.

``views.py`` is the only way hidden information leaves the engine, so these tests are the
guarantee a client (and an opponent reading the network traffic) relies on. The rules shown
(``spec/wien.md``): a player sees their own hand; the talon stays face down until a premium
call without ``h`` looks into it or the winner takes it; a discard is laid away face down; the
defenders' hands are shown after the first trick of the open games 7 and 8; after the hand
everything is shown. A spectator (``seat=None``) and a dealer sitting out see public
information only.

The standard deal (``tests/engine/helpers.py``): anna forehand, bert middlehand, carl rearhand
and dealer; anna "DA DK DQ DJ DT D9 SA SK CA C7", bert "CK CQ CJ CT C9 C8 SQ SJ ST S9",
carl "HA HK HQ HJ HT H9 H8 H7 D8 S8", talon "D7 S7".
"""

from __future__ import annotations

from typing import Any

import engine
from engine import PIQUET
from engine.rules.wien import State
from tests.cards import cards_in
from tests.engine.helpers import DEAL, TALON, act, calls, cards, play_cards, record

SEATS_4 = ["anna", "bert", "carl", "dave"]


def start(actions: list[dict[str, Any]] | None = None, **kw: Any) -> State:
    return engine.replay(record(DEAL, TALON, actions=actions, **kw))


def hand(state: State, seat: str) -> set[str]:
    p = state.player(seat)
    assert p is not None
    return set(PIQUET.codes_of(state.hands[p]))


def played(state: State) -> set[str]:
    return {a["card"] for a in engine.to_record(state)["actions"] if "card" in a}


def assert_sees_no_other_hand(
    state: State, seat: str | None, *, open_seats: tuple[str, ...] = ()
) -> None:
    """No card still held by another player occurs in ``seat``'s view, except open hands."""
    view = engine.view(state, seat)
    for other in state.active:
        if other != seat and other not in open_seats:
            leaked = cards_in(view, PIQUET.codes) & hand(state, other)
            assert not leaked, f"{seat} sees {sorted(leaked)} of {other}'s hand"


# ---------------------------------------------------------------------------------------------
# auction and talon


def test_each_player_sees_only_their_own_hand_in_the_auction() -> None:
    state = start(calls("anna 1", "bert 2", "carl pass"))
    for seat in ("anna", "bert", "carl"):
        view = engine.view(state, seat)
        assert set(view["hand"]) == set(cards(DEAL[seat]))
        assert cards_in(view, PIQUET.codes) == set(cards(DEAL[seat]))
        assert view["talon"] is None and view["dealt_talon"] is None
        assert "deal" not in view
        assert view["hand_sizes"] == {"anna": 10, "bert": 10, "carl": 10}  # sizes are public


def test_the_talon_is_hidden_from_everyone_in_the_auction() -> None:
    state = start(calls("anna 1", "bert 2", "carl geschaeft"))
    for seat in ("anna", "bert", "carl", None):
        view = engine.view(state, seat)
        assert view["talon"] is None
        assert not cards_in(view, PIQUET.codes) & set(cards(TALON))


def test_a_premium_call_without_h_sees_the_talon_at_once() -> None:
    """wien.md, "Auction": "ich schaue rein" — the caller sees the talon at once."""
    state = start(calls("anna 5"))
    assert engine.view(state, "anna")["talon"] == ["S7", "D7"]
    assert engine.view(state, "anna")["dealt_talon"] == ["S7", "D7"]
    for seat in ("bert", "carl", None):
        view = engine.view(state, seat)
        assert view["talon"] is None and view["dealt_talon"] is None
        assert not cards_in(view, PIQUET.codes) & set(cards(TALON))


def test_a_premium_call_von_der_hand_does_not_see_the_talon() -> None:
    state = start(calls("anna 5h"))
    for seat in ("anna", "bert", "carl"):
        assert engine.view(state, seat)["talon"] is None
        assert not cards_in(engine.view(state, seat), PIQUET.codes) & set(cards(TALON))


def test_the_winner_takes_the_talon_and_only_the_winner_sees_it() -> None:
    state = start(calls("anna 1", "bert pass", "carl pass"))
    anna = engine.view(state, "anna")
    assert set(cards(TALON)) <= set(anna["hand"])
    assert anna["dealt_talon"] == ["S7", "D7"]
    for seat in ("bert", "carl", None):
        view = engine.view(state, seat)
        assert not cards_in(view, PIQUET.codes) & set(cards(TALON))
        assert view["hand_sizes"]["anna"] == 12


def test_a_discard_is_hidden_from_the_others_and_visible_to_the_discarder() -> None:
    state = start(calls("anna 1", "bert pass", "carl pass"))
    state = act(state, "anna", discard=["C7", "S7"])
    state = act(state, "anna", declare={"type": "suit", "level": "D"})

    anna = engine.view(state, "anna")
    assert anna["talon"] == ["C7", "S7"]
    assert {"seat": "anna", "discard": ["C7", "S7"]} in anna["actions"]

    for seat in ("bert", "carl", None):
        view = engine.view(state, seat)
        assert view["talon"] is None
        assert {"seat": "anna", "discard": None} in view["actions"]
        # neither the discard nor anything else of anna's hand (talon card D7 included)
        assert not cards_in(view, PIQUET.codes) & ({"C7", "S7", "D7"} | hand(state, "anna"))


# ---------------------------------------------------------------------------------------------
# card play


def test_during_play_other_hands_appear_only_as_played_cards() -> None:
    state = start(calls("anna 1", "bert pass", "carl pass"))
    state = act(state, "anna", discard=["C7", "S7"])
    state = act(state, "anna", declare={"type": "suit", "level": "D"})
    state = act(state, "bert", defence="play")
    state = act(state, "carl", defence="play")
    state = play_cards(state, "DA C8 D8  SA S9 S8")  # two tricks, anna leads both
    assert state.tricks_done == 2

    for seat in ("anna", "bert", "carl", None):
        assert_sees_no_other_hand(state, seat)
        view = engine.view(state, seat)
        others = set().union(*(set(cards(DEAL[s])) for s in ("anna", "bert", "carl") if s != seat))
        assert cards_in(view, PIQUET.codes) & others <= played(state)


def test_open_games_show_the_defenders_hands_after_the_first_trick() -> None:
    """wien.md, "Card play": in 7 and 8 the defenders' hands are shown to all players after
    the first trick; the declarer's hand stays closed."""
    state = start(calls("anna 8h", "bert pass", "carl pass"))
    state = play_cards(state, "DA")
    for seat in ("anna", "bert", "carl", None):
        assert engine.view(state, seat)["open_hands"] == {}
        assert_sees_no_other_hand(state, seat)

    state = play_cards(state, "C8 D8")  # anna wins the first trick; the game goes on
    assert state.tricks_done == 1 and not state.is_over
    for seat in ("anna", "bert", "carl", None):
        view = engine.view(state, seat)
        assert view["open_hands"] == {
            "bert": PIQUET.codes_of(state.hands[1]),
            "carl": PIQUET.codes_of(state.hands[2]),
        }
        assert_sees_no_other_hand(state, seat, open_seats=("bert", "carl"))


def test_suit_games_never_show_the_defenders_hands() -> None:
    state = start(calls("anna 1", "bert pass", "carl pass"))
    state = act(state, "anna", discard=["C7", "S7"])
    state = act(state, "anna", declare={"type": "suit", "level": "D"})
    state = act(state, "bert", defence="play")
    state = act(state, "carl", defence="play")
    state = play_cards(state, "DA C8 D8")
    for seat in ("anna", "bert", "carl", None):
        assert engine.view(state, seat)["open_hands"] == {}
        assert_sees_no_other_hand(state, seat)


# ---------------------------------------------------------------------------------------------
# the sitting-out dealer and spectators


def test_the_sitting_out_dealer_and_spectators_see_no_hand() -> None:
    """wien.md, "Table": with four seats the dealer gets no cards and takes no part."""
    state = start(calls("anna 1", "bert 2"), seats=SEATS_4, dealer="dave")
    assert state.active == ("anna", "bert", "carl")
    for seat in ("dave", None):
        view = engine.view(state, seat)
        assert view["hand"] is None
        assert view["talon"] is None and view["dealt_talon"] is None
        assert view["open_hands"] == {}
        assert "legal" not in view
        assert cards_in(view, PIQUET.codes) == set()


def test_spectators_see_played_cards_only() -> None:
    state = start(calls("anna 8h", "bert pass", "carl pass"), seats=SEATS_4, dealer="dave")
    state = play_cards(state, "DA C8")
    for seat in ("dave", None):
        assert cards_in(engine.view(state, seat), PIQUET.codes) == {"DA", "C8"}


# ---------------------------------------------------------------------------------------------
# after the hand


def test_after_the_hand_everything_is_visible() -> None:
    state = start(calls("anna 1", "bert pass", "carl pass"))
    state = act(state, "anna", discard=["C7", "S7"])
    state = act(state, "anna", declare={"type": "suit", "level": "D"})
    state = act(state, "bert", defence="home")
    state = act(state, "carl", defence="home")
    assert state.is_over

    expected_deal = {
        seat: PIQUET.codes_of(PIQUET.parse_hand(cards(DEAL[seat])))
        for seat in ("anna", "bert", "carl")
    }
    expected_deal["talon"] = ["S7", "D7"]
    for seat in ("anna", "bert", "carl", None):
        view = engine.view(state, seat)
        assert view["deal"] == expected_deal
        assert view["talon"] == ["C7", "S7"]  # anna's discard
        assert view["dealt_talon"] == ["S7", "D7"]
        assert {"seat": "anna", "discard": ["C7", "S7"]} in view["actions"]
        assert cards_in(view, PIQUET.codes) == set(PIQUET.codes)


def test_after_the_hand_the_sitting_out_dealer_sees_the_deal_too() -> None:
    state = start(calls("anna 8h", "bert pass", "carl pass"), seats=SEATS_4, dealer="dave")
    state = play_cards(state, "DA C8 D8  SA SQ S8  C7 CK HA")  # bert wins a trick: 8 fails
    assert state.is_over and state.end == "early"
    for seat in ("dave", None):
        view = engine.view(state, seat)
        assert set(view["deal"]) == {"anna", "bert", "carl", "talon"}
        assert cards_in(view, PIQUET.codes) == set(PIQUET.codes)
