"""wien.md, "Table, cards, seats", "Stakes" and "Deal"."""

from __future__ import annotations

import pytest

import engine
from engine import EngineError, NotYourTurn
from tests.engine.helpers import DEAL, RULES, TALON, act, hand_from, record, sheet, suit

FOUR = ["anna", "bert", "carl", "dora"]


# --- Table, cards, seats ------------------------------------------------------------------


def test_the_highest_drawn_card_deals_and_suits_count_before_ranks() -> None:
    # "suits are compared first (C < S < D < H), ranks only within a suit, so H8 beats CA"
    assert (
        engine.draw_first_dealer({"anna": "CA", "bert": "H8", "carl": "DK"}, variant="wien")
        == "bert"
    )
    assert (
        engine.draw_first_dealer({"anna": "S7", "bert": "CA", "carl": "SA"}, variant="wien")
        == "carl"
    )


def test_with_three_players_the_seat_after_the_dealer_is_forehand_and_the_dealer_rearhand() -> None:
    assert engine.active_seats(["anna", "bert", "carl"], "carl", variant="wien") == (
        "anna",
        "bert",
        "carl",
    )
    assert engine.active_seats(["anna", "bert", "carl"], "anna", variant="wien") == (
        "bert",
        "carl",
        "anna",
    )


def test_with_four_players_the_dealer_sits_out_and_rearhand_is_the_seat_before_him() -> None:
    assert engine.active_seats(FOUR, "bert", variant="wien") == ("carl", "dora", "anna")


def test_a_sitting_out_dealer_gets_no_cards() -> None:
    rec = record(DEAL, TALON, seats=FOUR, dealer="dora")
    rec["deal"]["dora"] = rec["deal"].pop("carl")
    with pytest.raises(EngineError) as e:
        engine.replay(rec)
    assert e.value.at == "deal.dora"


def test_a_sitting_out_dealer_cannot_act() -> None:
    state = hand_from(DEAL, TALON, seats=FOUR, dealer="dora")
    assert state.active == ("anna", "bert", "carl")
    with pytest.raises(NotYourTurn, match="sits out"):
        act(state, "dora", call="pass")


def test_a_sitting_out_dealer_only_pays_the_dealer_contribution() -> None:
    # D game, anna 6 / bert 4, carl home; S = 300, t = 30: anna +300 - 4*30, bert +120, dora -G
    result = engine.settle(
        sheet(
            suit("D"),
            {"anna": 6, "bert": 4},
            defence={"bert": "play", "carl": "home"},
            seats=FOUR,
            dealer="dora",
        )
    )
    assert result["delta"] == {"anna": 180, "bert": 120, "carl": 0, "dora": -100}
    assert result["pot"] == 0


def test_it_rejects_repeated_seat_names() -> None:
    with pytest.raises(EngineError) as e:
        engine.replay(record(DEAL, TALON, seats=["anna", "anna", "carl"]))
    assert e.value.at == "seats"


def test_it_rejects_a_dealer_who_is_not_at_the_table() -> None:
    with pytest.raises(EngineError) as e:
        engine.replay(record(DEAL, TALON, dealer="zoe"))
    assert e.value.at == "dealer"


# --- Stakes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pot_cap", "pot", "stake"),
    [
        (300, 200, 300),  # S = min(200 + G, L) = min(300, 300)
        (300, 0, 100),  # pot holds only G: S = G
        (300, 900, 300),  # the cap limits the stake
        (None, 900, 1000),  # no cap: S = pot after the dealer's payment
    ],
)
def test_the_stake_is_the_pot_after_the_dealers_payment_up_to_the_cap(
    pot_cap: int | None, pot: int, stake: int
) -> None:
    rules = engine.parse_rules({**RULES, "pot_cap": pot_cap})
    assert rules.stake(pot) == stake


def test_a_trick_is_worth_a_tenth_of_the_stake() -> None:
    # pot 500 + G 100 capped at 300: S = 300, t = 30; bert's 4 tricks earn 120
    result = engine.settle(
        sheet(suit("D"), {"anna": 6, "bert": 4}, defence={"bert": "play", "carl": "home"}, pot=500)
    )
    assert result["stake"] == 300
    assert result["delta"]["bert"] == 120


@pytest.mark.parametrize(
    ("rules", "at"),
    [
        ({"dealer_contribution": 105}, "rules.dealer_contribution"),  # not a multiple of 10
        ({"dealer_contribution": 0}, "rules.dealer_contribution"),  # not positive
        ({"dealer_contribution": -100}, "rules.dealer_contribution"),
        ({"dealer_contribution": 100.0}, "rules.dealer_contribution"),  # cents are integers
        ({"pot_cap": 250}, "rules.pot_cap"),  # not a multiple of G = 100
        ({"pot_cap": 0}, "rules.pot_cap"),
        ({"pot_cap": -300}, "rules.pot_cap"),
        ({"holding_after_forehand": "dealer"}, "rules.holding_after_forehand"),
        ({"invitation_tricks": "both"}, "rules.invitation_tricks"),
        ({"colour": "red"}, "rules.colour"),  # unknown option
        ({"variant": "moscow"}, "rules.variant"),
        ({"variant": ["wien"]}, "rules.variant"),  # not even a name: an error, not a crash
    ],
)
def test_it_rejects_invalid_stakes_and_options(rules: dict[str, object], at: str) -> None:
    with pytest.raises(EngineError) as e:
        engine.replay(record(DEAL, TALON, rules={**RULES, **rules}))
    assert e.value.at == at


@pytest.mark.parametrize("missing", ["dealer_contribution", "pot_cap"])
def test_dealer_contribution_and_pot_cap_are_required(missing: str) -> None:
    rules = {k: v for k, v in RULES.items() if k != missing}
    with pytest.raises(EngineError) as e:
        engine.replay(record(DEAL, TALON, rules=rules))
    assert e.value.at == f"rules.{missing}"


@pytest.mark.parametrize("pot", [-100, 15, 105, "200", None])
def test_it_rejects_a_pot_that_is_not_a_non_negative_multiple_of_10(pot: object) -> None:
    with pytest.raises(EngineError) as e:
        engine.replay(record(DEAL, TALON, pot=pot))  # type: ignore[arg-type]
    assert e.value.at == "pot"
    assert "multiple of 10" in e.value.message


def test_a_pot_is_never_rounded_in_a_score_sheet_either() -> None:
    with pytest.raises(EngineError) as e:
        engine.settle(sheet(suit("D"), {}, defence={"bert": "home", "carl": "home"}, pot=250 + 5))
    assert e.value.at == "pot"


# --- Deal -----------------------------------------------------------------------------------


def test_a_deal_gives_ten_cards_to_each_player_and_two_to_the_talon() -> None:
    state = hand_from(DEAL, TALON)
    assert [h.bit_count() for h in state.hands] == [10, 10, 10]
    assert state.talon.bit_count() == 2


def test_it_rejects_a_hand_with_the_wrong_number_of_cards() -> None:
    deal = {**DEAL, "anna": "DA DK DQ DJ DT D9 SA SK CA"}  # nine cards
    with pytest.raises(EngineError) as e:
        hand_from(deal, TALON + " C7")
    assert e.value.at == "deal.anna"
    assert "10 cards" in e.value.message


def test_it_rejects_a_talon_of_three_cards() -> None:
    deal = {**DEAL, "anna": "DA DK DQ DJ DT D9 SA SK CA"}
    with pytest.raises(EngineError) as e:
        hand_from(deal, "D7 S7 C7")
    assert e.value.at in ("deal.anna", "deal.talon")


def test_it_rejects_a_card_dealt_twice() -> None:
    deal = {**DEAL, "bert": "CK CQ CJ CT C9 C8 SQ SJ ST DA"}  # DA is anna's
    with pytest.raises(EngineError) as e:
        hand_from(deal, TALON)
    assert e.value.at == "deal.bert"
    assert "DA" in e.value.message


def test_it_rejects_a_card_repeated_within_one_hand() -> None:
    deal = {**DEAL, "anna": "DA DA DQ DJ DT D9 SA SK CA C7"}
    with pytest.raises(EngineError) as e:
        hand_from(deal, TALON)
    assert e.value.at == "deal.anna[1]"


def test_it_rejects_something_that_is_not_a_card() -> None:
    deal = {**DEAL, "anna": "DA DK DQ DJ DT D9 SA SK CA X7"}
    with pytest.raises(EngineError) as e:
        hand_from(deal, TALON)
    assert e.value.at == "deal.anna[9]"


def test_it_rejects_a_deal_that_leaves_out_a_player() -> None:
    rec = record(DEAL, TALON)
    del rec["deal"]["bert"]
    with pytest.raises(EngineError) as e:
        engine.replay(rec)
    assert e.value.at == "deal.bert"


def test_the_deck_is_dealt_three_talon_four_three() -> None:
    # hand-record.md, "Deal commitment": 3 each from forehand, 2 to the talon, 4 each, 3 each
    deck = [f"{s}{r}" for s in "CSDH" for r in "789TJQKA"]
    deal = engine.deal_from_deck(deck, ["anna", "bert", "carl"], variant="wien")
    assert deal["anna"] == deck[0:3] + deck[11:15] + deck[23:26]
    assert deal["bert"] == deck[3:6] + deck[15:19] + deck[26:29]
    assert deal["carl"] == deck[6:9] + deck[19:23] + deck[29:32]
    assert deal["talon"] == deck[9:11]
