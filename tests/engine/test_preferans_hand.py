"""One ``preferans`` deal, rule by rule (``spec/next/preferans.md`` §1–§8.2, §13): the deal in
pairs, the auction (misère, hold, the exit minimum), the talon and the order, whisting with
half-whist and its return, open and closed play, Russian card obligations, misère, a checked
ten and raspasy with its talon-led first two tricks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.errors import IllegalAction, NotYourTurn
from engine.rules.preferans.actions import BIDS
from engine.rules.preferans.hand import DONE, MODE, PLAY, WHIST
from engine.rules.preferans.ruleset import random_deal
from tests.draws import draws
from tests.engine.preferans_helpers import (
    DEAL,
    DEAL4,
    EXAMPLE_13,
    act,
    calls,
    cards,
    declare,
    discard,
    legal,
    legal_calls,
    play_out,
    record,
    state,
    whists,
)

PREFERANS = engine.rule_set("preferans")
CONTRACT_7H = [
    *calls("anna 6S", "bert pass", "carl pass"),
    *discard("anna", "C7", "D8"),
    *declare("anna", "7H"),
]


def refusal(s: object, data: dict[str, object]) -> str:
    with pytest.raises(engine.EngineError) as e:
        act(s, data)  # type: ignore[arg-type]
    return e.value.message


# --- §1, §2: table and deal ----------------------------------------------------------------------


def test_a_committed_deck_is_dealt_in_pairs_with_the_talon_fourth() -> None:
    """§2: [0:2] first hand, [2:4] second, [4:6] third, [6:8] the talon in order, then four
    more rounds of pairs."""
    deck = [PREFERANS.deck.code(i) for i in range(32)]
    dealt = PREFERANS.deal_from_deck(deck, ("anna", "bert", "carl"))
    assert dealt["talon"] == deck[6:8]
    assert dealt["anna"] == [*deck[0:2], *deck[8:10], *deck[14:16], *deck[20:22], *deck[26:28]]
    assert dealt["bert"][:4] == [*deck[2:4], *deck[10:12]]
    assert dealt["carl"][-2:] == deck[30:32]


def test_with_four_seats_the_dealer_sits_out_and_first_hand_speaks_first() -> None:
    s = state(seats=["anna", "bert", "carl", "dora"], dealer="dora", deal=DEAL4)
    assert s.active == ("anna", "bert", "carl")
    assert engine.to_act(s) == {"anna"}
    assert refusal(s, {"seat": "dora", "call": "pass"}) == "dora deals and sits out this deal"


# --- §3: the auction -----------------------------------------------------------------------------


def test_the_first_auction_example_hold_then_outbid() -> None:
    """§3: F 6S, S 6C, T pass, F hold, S 6D, F pass → S wins at 6D."""
    s = state(calls("anna 6S", "bert 6C", "carl pass", "anna hold", "bert 6D", "anna pass"))
    assert s.declarer == 1 and s.game == "contract"
    assert BIDS[s.high // 2] == "6D" and s.high_by == 1
    assert engine.view(s, None)["game"] is None  # the contract is ordered after the discard
    assert legal(s)[0] == {"seat": "bert", "discard": ["S7", "S8"]}


def test_the_second_auction_example_over_misere() -> None:
    """§3: F 6S, S misere, T 9S, F pass, S pass → T wins at 9S."""
    s = state(calls("anna 6S", "bert misere", "carl 9S", "anna pass", "bert pass"))
    assert s.declarer == 2 and s.game == "contract"
    assert BIDS[s.high // 2] == "9S" and s.high_by == 2


def test_bids_go_up_one_step_at_a_time_unless_jumps_are_allowed() -> None:
    """§3 ``bid_jumps``: false (seed) names only the lowest qualifying bid."""
    s = state(calls("anna 6S"))
    assert legal_calls(s) == ["pass", "6C", "misere"]
    assert refusal(s, {"seat": "bert", "call": "7S"}) == (
        "bert cannot bid 7S: bids go up one step at a time, next is 6C"
    )
    s = state(calls("anna 6S"), rules={"bid_jumps": True})
    assert legal_calls(s)[:3] == ["pass", "6C", "6D"] and legal_calls(s)[-1] == "10NT"
    assert legal_calls(s).index("misere") == legal_calls(s).index("9S") - 1  # just below 9S


def test_misere_is_only_a_first_call() -> None:
    s = state(calls("anna 6S", "bert 6C", "carl pass"))
    assert "misere" not in legal_calls(s)
    assert refusal(s, {"seat": "anna", "call": "misere"}) == (
        "anna cannot call misère: misère is only a player's first call"
    )


def test_a_misere_caller_may_afterwards_only_pass() -> None:
    s = state(calls("anna misere", "bert 9S", "carl pass"))
    assert legal_calls(s) == ["pass"]
    assert refusal(s, {"seat": "anna", "call": "9C"}) == "anna called misère and may only pass"


def test_misere_ranks_below_10_with_that_option() -> None:
    s = state(calls("anna misere"), rules={"misere_rank": "below_10"})
    assert legal_calls(s) == ["pass", "10S"]


def test_only_a_senior_player_holds_a_junior_players_bid() -> None:
    """§3: hold takes over a contract bid made or held by a junior player."""
    s = state(calls("anna 6S", "bert 6C"))
    assert "hold" not in legal_calls(s)  # carl is junior to bert
    assert refusal(s, {"seat": "carl", "call": "hold"}) == (
        "carl cannot hold: only a senior player may hold a junior player's bid"
    )
    s = state(calls("anna 6S", "bert 6C", "carl pass"))
    assert legal_calls(s) == ["pass", "6D", "hold"]


def test_hold_is_never_on_misere() -> None:
    s = state(calls("anna pass", "bert pass", "carl misere"), rules={"bid_jumps": True})
    assert s.declarer == 2  # the first two passed, the third still spoke
    s = state(calls("anna pass", "bert misere"))
    assert "hold" not in legal_calls(s)


@pytest.mark.parametrize(
    ("hold", "moves", "expected"),
    [
        ("senior", ("anna 6S", "bert 6C"), ["pass", "6D", "hold"]),  # §3 default
        ("two_left", ("anna 6S", "bert 6C"), ["pass", "6D"]),  # three are still in
        ("two_left", ("anna 6S", "bert 6C", "carl pass"), ["pass", "6D", "hold"]),
        ("none", ("anna 6S", "bert 6C", "carl pass"), ["pass", "6D"]),
    ],
)
def test_the_hold_option(hold: str, moves: tuple[str, ...], expected: list[str]) -> None:
    s = state(calls(*moves, *(() if len(moves) == 3 else ("carl 6D",))), rules={"hold": hold})
    if len(moves) == 2:  # anna answers carl's 6D
        expected = [c.replace("6D", "6H") for c in expected]
    assert legal_calls(s) == expected


def test_after_raspasy_the_exit_minimum_bars_low_bids_but_not_misere() -> None:
    """§8.4: with ``raspasy_exit`` [7] ("7-7-7") and one raspasy before, 6s are not legal."""
    s = state(rules={"raspasy_exit": [7]}, streak=1)
    assert legal_calls(s) == ["pass", "7S", "misere"]
    assert refusal(s, {"seat": "anna", "call": "6S"}) == (
        "anna cannot bid 6S: after 1 raspasy in a row the lowest bid is a 7"
    )
    assert legal_calls(state(rules={"raspasy_exit": [7]}, streak=0)) == ["pass", "6S", "misere"]
    exits = {"raspasy_exit": [6, 7, 8]}
    assert legal_calls(state(rules=exits, streak=1))[1] == "6S"
    assert legal_calls(state(rules=exits, streak=2))[1] == "7S"
    assert legal_calls(state(rules=exits, streak=5))[1] == "8S"


def test_a_player_whose_only_call_is_pass_still_sends_it() -> None:
    s = state(calls("anna misere", "bert 9S", "carl pass"))
    assert engine.to_act(s) == {"anna"} and legal_calls(s) == ["pass"]


def test_all_three_passing_is_raspasy() -> None:
    s = state(calls("anna pass", "bert pass", "carl pass"))
    assert s.game == "raspasy" and s.phase == PLAY and s.declarer == -1


def test_turns_skip_players_who_passed() -> None:
    s = state(calls("anna 6S", "bert pass", "carl 6C"))
    assert engine.to_act(s) == {"anna"}
    s = act(s, {"seat": "anna", "call": "hold"})
    assert engine.to_act(s) == {"carl"}
    with pytest.raises(NotYourTurn):
        act(s, {"seat": "bert", "call": "pass"})


# --- §4: talon and order -------------------------------------------------------------------------


def test_the_declarer_takes_the_talon_and_discards_two_of_twelve() -> None:
    s = state(calls("anna 6S", "bert pass", "carl pass"))
    pairs = legal(s)
    assert len(pairs) == 66
    assert pairs[0] == {"seat": "anna", "discard": ["SK", "SA"]}
    assert pairs[-1] == {"seat": "anna", "discard": ["HK", "HA"]}
    assert refusal(s, {"seat": "anna", "discard": ["SA", "S7"]}).startswith(
        "anna must discard two cards of the hand"
    )


def test_the_order_is_not_below_the_winning_bid_and_never_misere() -> None:
    s = state(calls("anna 6S", "bert 6C", "carl pass", "anna 6D", "bert pass"))
    s = act(s, {"seat": "anna", "discard": ["C7", "D8"]})
    orders = [a["declare"] for a in legal(s)]
    assert orders[0] == {"type": "contract", "level": 6, "strain": "D"}
    assert len(orders) == 23 and orders[-1]["strain"] == "NT"
    assert refusal(s, declare("anna", "6C")[0]) == (
        "anna cannot declare 6C: the contract may not be below 6D"
    )


def test_misere_has_no_order_and_first_hand_leads() -> None:
    s = state(calls("anna pass", "bert misere", "carl pass"))
    s = act(s, {"seat": "bert", "discard": ["CA", "DA"]})
    assert s.phase == PLAY and engine.to_act(s) == {"anna"}


# --- §5: whisting --------------------------------------------------------------------------------


def test_the_section_13_example_replays_with_the_whister_sending_the_passers_card() -> None:
    s = engine.replay(record(actions=EXAMPLE_13))
    assert s.defence == ("", "whist", "pass") and s.mode == "open"
    assert [engine.action_to_json(a, PREFERANS.deck) for a in s.history] == EXAMPLE_13
    assert s.played == 1 and s.won[0] == 1  # anna's HA took the trick


def test_half_whist_returned_makes_the_first_defender_the_lone_whister() -> None:
    """§5.3: after ``half`` the first defender's ``whist`` returns it."""
    s = state(CONTRACT_7H, whists("bert pass", "carl half"))
    assert engine.to_act(s) == {"bert"} and [a["whist"] for a in legal(s)] == ["whist", "pass"]
    s = act(s, {"seat": "bert", "whist": "whist"})
    assert s.phase == MODE and engine.to_act(s) == {"bert"}
    assert [a["mode"] for a in legal(s)] == ["open", "closed"]


def test_half_whist_accepted_ends_the_deal_without_play() -> None:
    """§5.3: the first defender passes again; the deal ends, half-whist scoring."""
    s = state(CONTRACT_7H, whists("bert pass", "carl half", "bert pass"))
    assert s.phase == DONE
    out = engine.outcome(s)
    assert out.defence == {"bert": "pass", "carl": "half"} and out.tricks == {}


@pytest.mark.parametrize(
    ("bid", "first", "rules", "reason"),
    [
        ("7H", "whist", {}, "the first defender whisted"),
        ("8H", "pass", {}, "half-whist is only on a 6 or a 7"),
        ("7H", "pass", {"half_whist": False}, "half-whist is not played at this table"),
    ],
)
def test_half_whist_only_after_the_first_passed_on_6_or_7(
    bid: str, first: str, rules: dict[str, object], reason: str
) -> None:
    actions = [
        *calls("anna 6S", "bert pass", "carl pass"),
        *discard("anna", "C7", "D8"),
        *declare("anna", bid),
        *whists(f"bert {first}"),
    ]
    s = state(actions, rules=rules)
    assert "half" not in [a["whist"] for a in legal(s)]
    assert refusal(s, {"seat": "carl", "whist": "half"}) == f"carl cannot call half ({reason})"


def test_the_error_names_the_action_in_a_record() -> None:
    actions = [*CONTRACT_7H, *whists("bert whist", "carl half")]
    with pytest.raises(IllegalAction) as e:
        engine.replay(record(actions=actions))
    assert e.value.to_json() == {
        "at": "actions[6]",
        "message": "carl cannot call half (the first defender whisted)",
        "code": "preferans_half_first_whisted",
        "params": {"seat": "carl"},
    }


def test_both_passing_ends_the_deal_the_contract_counts_as_made() -> None:
    s = state(CONTRACT_7H, whists("bert pass", "carl pass"))
    assert s.phase == DONE and not engine.to_act(s)
    out = engine.outcome(s)
    assert out.defence == {"bert": "pass", "carl": "pass"} and out.tricks == {}


def test_two_whisters_play_closed_without_a_mode_step() -> None:
    s = state(CONTRACT_7H, whists("bert whist", "carl whist"))
    assert s.phase == PLAY and s.mode is None and engine.to_act(s) == {"anna"}


def test_a_checked_ten_has_no_whist_step_and_open_defenders() -> None:
    """§5 ``ten_whisted = false``: no whist step; each defender plays his own hand, open."""
    actions = [
        *calls("anna 6S", "bert pass", "carl pass"),
        *discard("anna", "C7", "D8"),
        *declare("anna", "10H"),
    ]
    s = state(actions, rules={"ten_whisted": False})
    assert s.phase == PLAY and s.open_play and s.checked
    s = act(s, {"seat": "anna", "card": "HA"})
    assert engine.to_act(s) == {"bert"}  # bert plays his own hand
    assert engine.outcome(play_out(s)).defence is None
    s = state(actions)  # whisted by default
    assert s.phase == WHIST


# --- §6: card play -------------------------------------------------------------------------------


def test_in_open_play_the_whister_sends_the_passers_card() -> None:
    """§6.3: the passer's card is due at the passer's turn and the whister sends it."""
    s = engine.replay(record(actions=EXAMPLE_13[:-1]))
    assert engine.to_act(s) == {"bert"}  # carl's hand is due, bert sends it
    assert legal(s, "carl") == []
    assert legal(s, "bert") == [{"seat": "carl", "card": "H8"}, {"seat": "carl", "card": "H9"}]
    assert PREFERANS.sender(s, "carl") == "bert"
    with pytest.raises(NotYourTurn):
        act(s, {"seat": "bert", "card": "S7"})


def test_in_closed_play_each_defender_plays_his_own_hand() -> None:
    s = state(CONTRACT_7H, whists("bert whist", "carl pass"), [{"seat": "bert", "mode": "closed"}])
    s = act(s, {"seat": "anna", "card": "HA"})
    s = act(s, {"seat": "bert", "card": "H7"})
    assert engine.to_act(s) == {"carl"}


def test_first_hand_leads_the_first_trick_whoever_declared() -> None:
    s = state(
        calls("anna pass", "bert 6S", "carl pass"),
        discard("bert", "CA", "DA"),
        declare("bert", "6S"),
        whists("carl whist", "anna whist"),
    )
    assert engine.to_act(s) == {"anna"}


def test_there_is_no_duty_to_beat_the_trick() -> None:
    """§6.2: follow suit, but any card of it: no duty to head."""
    s = state(CONTRACT_7H, whists("bert whist", "carl whist"), cards("anna HT", "bert H7"))
    assert [a["card"] for a in legal(s)] == ["H8", "H9"]  # carl may stay under HT


def test_a_player_void_in_the_led_suit_must_trump() -> None:
    """§6.2: void in the led suit, a trump if he has one."""
    s = state(CONTRACT_7H, whists("bert whist", "carl whist"), cards("anna SA"))
    assert [a["card"] for a in legal(s)] == ["S7", "S8", "S9"]  # bert follows
    s = state(  # anna laid both clubs away; carl takes a diamond and leads a club
        calls("anna 6S", "bert pass", "carl pass"),
        discard("anna", "C7", "CA"),
        declare("anna", "7H"),
        whists("bert whist", "carl whist"),
        cards("anna D9", "bert D7", "carl DQ", "carl CJ"),
    )
    assert [a["card"] for a in legal(s)] == ["HT", "HJ", "HQ", "HK", "HA"]
    assert refusal(s, {"seat": "anna", "card": "SA"}) == (
        "anna has no C and must play a trump (H): HT or HJ or HQ or HK or HA"
    )


def test_without_trumps_a_void_player_plays_any_card() -> None:
    actions = [
        *calls("anna 6S", "bert pass", "carl pass"),
        *discard("anna", "C7", "CA"),
        *declare("anna", "6NT"),
        *whists("bert whist", "carl whist"),
        *cards("anna D9", "bert D7", "carl DQ", "carl CJ"),
    ]
    assert len(legal(state(actions))) == 9  # anna: no club left and no trumps: all nine cards


def test_all_ten_tricks_are_played() -> None:
    s = play_out(state(CONTRACT_7H, whists("bert whist", "carl whist")))
    assert s.played == 10 and sum(engine.outcome(s).tricks.values()) == 10


# --- §7: misère ----------------------------------------------------------------------------------


def test_misere_plays_all_ten_tricks_even_after_the_declarer_took_one() -> None:
    s = state(calls("anna misere", "bert pass", "carl pass"), discard("anna", "SA", "SK"))
    s = act(s, {"seat": "anna", "card": "HA"})
    s = act(s, {"seat": "bert", "card": "H7"})
    s = act(s, {"seat": "carl", "card": "H9"})
    assert s.won[0] == 1 and s.phase == PLAY
    s = play_out(s)
    out = engine.outcome(s)
    assert out.game == "misere" and out.defence is None and out.mode is None
    assert sum(out.tricks.values()) == 10 and out.tricks["anna"] >= 1


def test_misere_has_no_trumps_and_no_whist_step() -> None:
    s = state(calls("anna misere", "bert pass", "carl pass"), discard("anna", "SA", "SK"))
    assert s.phase == PLAY and s.order.trump == -1


# --- §8.1: raspasy -------------------------------------------------------------------------------


RASPASY = calls("anna pass", "bert pass", "carl pass")


def test_raspasy_tricks_1_and_2_are_led_by_the_talon_with_three_players() -> None:
    """§8.1 ``lead``: talon[0] names the suit of trick 1, first hand plays first; the highest
    card of that suit among the three takes it (the talon card does not)."""
    s = state(RASPASY)
    assert engine.view(s, None)["trick"] == [{"seat": "talon", "card": "CA"}]
    assert engine.to_act(s) == {"anna"}
    assert [a["card"] for a in legal(s)] == ["C7"]  # anna must follow clubs
    s = state(RASPASY, cards("anna C7", "bert CT", "carl CJ"))
    assert s.won[:3] == (0, 0, 1)  # carl's CJ, not the talon's CA
    # trick 2 to talon[1] = DA, first hand again playing first
    assert engine.view(s, None)["trick"] == [{"seat": "talon", "card": "DA"}]
    assert engine.to_act(s) == {"anna"}
    s = state(RASPASY, cards("anna C7", "bert CT", "carl CJ", "anna D8", "bert DJ", "carl DQ"))
    assert s.won[:3] == (0, 0, 2)
    # first hand leads trick 3, whoever took trick 2
    assert engine.to_act(s) == {"anna"} and s.trick == ()


def test_raspasy_with_four_players_the_talon_card_is_the_dealers() -> None:
    """§14 example 12: talon HA, C7; trick 1 A H8, B H9, C S7 goes to D (HA the highest
    heart); trick 2 to C7, A, B, C in that order again; first hand leads trick 3."""
    seats = ["anna", "bert", "carl", "dora"]
    s = state(
        RASPASY, cards("anna H8", "bert H9", "carl S7"), seats=seats, dealer="dora", deal=DEAL4
    )
    assert s.won == (0, 0, 0, 1)
    assert engine.view(s, None)["trick"] == [{"seat": "dora", "card": "C7"}]
    assert engine.to_act(s) == {"anna"}
    s = state(
        RASPASY,
        cards("anna H8", "bert H9", "carl S7", "anna D7", "bert CT", "carl C8"),
        seats=seats,
        dealer="dora",
        deal=DEAL4,
    )
    assert s.won == (0, 1, 0, 1)  # CT beats the talon's C7
    assert engine.to_act(s) == {"anna"}  # first hand, not bert, leads trick 3
    out = engine.outcome(play_out(s))
    assert set(out.tricks) == {"anna", "bert", "carl", "dora"} and sum(out.tricks.values()) == 10


def test_a_higher_talon_card_wins_only_with_four_players() -> None:
    s = state(
        RASPASY, cards("anna H8", "bert H9", "carl S7"), seats=["anna", "bert", "carl"], deal=DEAL4
    )
    assert s.won == (0, 1, 0, 0)  # three players: bert's H9 is the best of the three


def test_raspasy_with_a_closed_talon_first_hand_leads_trick_1() -> None:
    s = state(RASPASY, rules={"raspasy_talon": "closed"})
    assert s.trick == () and engine.to_act(s) == {"anna"} and len(legal(s)) == 10
    out = engine.outcome(play_out(s))
    assert set(out.tricks) == {"anna", "bert", "carl"}


def test_raspasy_has_no_trumps_and_every_card_is_played() -> None:
    s = play_out(state(RASPASY))
    assert s.order.trump == -1 and s.hands == (0, 0, 0) and s.played == 10


# --- records -------------------------------------------------------------------------------------


def test_replaying_a_full_record_equals_stepping_it() -> None:
    s = engine.replay(record())
    for data in EXAMPLE_13:
        s = act(s, data)
    s = play_out(s)
    again = engine.replay(engine.to_record(s))
    assert again == s
    assert engine.to_record(again)["deal"]["talon"] == ["CA", "DA"]  # the talon keeps its order


def test_the_talon_order_is_read_and_written_as_given() -> None:
    deal = {**DEAL, "talon": ["DA", "CA"]}
    s = state(RASPASY, deal=deal)
    assert engine.view(s, None)["trick"] == [{"seat": "talon", "card": "DA"}]
    assert engine.to_record(s)["deal"]["talon"] == ["DA", "CA"]


def test_talon_cards_are_never_sent() -> None:
    s = state(RASPASY)
    with pytest.raises(engine.EngineError):
        act(s, {"seat": "anna", "card": "CA"})


def test_settling_an_unfinished_deal_is_an_error() -> None:
    with pytest.raises(engine.EngineError) as e:
        engine.settle(record(actions=calls("anna 6S")))
    assert e.value.at == "actions"


# --- the fast path -------------------------------------------------------------------------------


@settings(max_examples=draws(300))
@given(seed=st.integers(0, 2**32 - 1), example=st.integers(0, 3))
def test_the_fast_path_plays_a_deal_as_the_validating_path_does(seed: int, example: int) -> None:
    """``play_random_hand`` (the shared board) and the validating ``apply`` with the random
    bot, from the same seed, reach the same Result."""
    rules = PREFERANS.parse_rules(PREFERANS.examples[example])
    fast = PREFERANS.play_random_hand(rules, {}, random.Random(seed))
    rng = random.Random(seed)
    s = random_deal(PREFERANS, rules, {}, rng)
    while engine.to_act(s):
        s = engine.apply(s, PREFERANS.random_action(s, rng))
    assert engine.settle_outcome(engine.outcome(s)) == fast
