"""The DDV round at a table (``engine.rules.doppelkopf.series``): 24 counted deals, a
Pflichtsolo owed by each player and dealt again by the same dealer, the Vorführung of those who
still owe one after the 24; and the engine holding a vorgeführt player to a solo."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.errors import EngineError
from engine.rules.doppelkopf.series import ROUND_DEALS, series_after

SEATS = ("anna", "bert", "carl", "dora")
RULES = {"variant": "doppelkopf-ddv", "point_value": 10}
NORMAL: dict[str, Any] = {"game": {"type": "normal"}, "re": ["anna", "carl"]}


def pflicht(soloist: str) -> dict[str, Any]:
    """A Pflichtsolo's Result as far as the round reads it."""
    return {"game": {"type": "solo", "kind": "queens", "pflicht": True}, "re": [soloist]}


def lust(soloist: str) -> dict[str, Any]:
    return {"game": {"type": "solo", "kind": "jacks", "pflicht": False}, "re": [soloist]}


def test_a_new_table_owes_every_players_pflichtsolo_and_the_first_dealer_deals() -> None:
    at = series_after(SEATS, "dora", [])
    assert (at.round, at.counted, at.dealer, at.vorfuehrung) == (1, 0, "dora", None)
    assert at.pflicht_owed == ("anna", "bert", "carl", "dora")  # from the dealer's left


def test_each_ordinary_deal_counts_and_moves_the_deal_on() -> None:
    at = series_after(SEATS, "dora", [NORMAL, lust("bert"), NORMAL])
    assert at.counted == 3 and at.dealer == "carl"
    assert at.pflicht_owed == SEATS  # a Lustsolo is no Pflichtsolo


def test_a_pflichtsolo_is_dealt_again_by_the_same_dealer_and_does_not_count() -> None:
    at = series_after(SEATS, "dora", [NORMAL, pflicht("carl")])
    assert at.counted == 1 and at.dealer == "anna"  # anna dealt the Pflichtsolo and deals again
    assert at.pflicht_owed == ("anna", "bert", "dora")


def test_after_24_deals_with_every_pflichtsolo_played_a_new_round_begins() -> None:
    solos = [pflicht(s) for s in SEATS]
    at = series_after(SEATS, "dora", [*solos, *[NORMAL] * ROUND_DEALS])
    assert (at.round, at.counted, at.vorfuehrung) == (2, 0, None)
    assert at.dealer == "dora"  # 24 deals went round the table six times
    assert set(at.pflicht_owed) == set(SEATS)


def test_who_still_owes_after_24_deals_is_vorgefuehrt_sitting_forehand() -> None:
    results = [pflicht("anna"), pflicht("carl"), *[NORMAL] * ROUND_DEALS]
    at = series_after(SEATS, "dora", results)
    assert at.counted == ROUND_DEALS and at.round == 1
    assert at.vorfuehrung == "bert" and at.dealer == "anna"  # the seat before him deals
    assert at.carry() == {"pflicht_owed": ["bert", "dora"], "vorfuehrung": "bert"}
    after_bert = series_after(SEATS, "dora", [*results, pflicht("bert")])
    assert after_bert.vorfuehrung == "dora" and after_bert.dealer == "carl"
    done = series_after(SEATS, "dora", [*results, pflicht("bert"), pflicht("dora")])
    assert (done.round, done.counted, done.vorfuehrung, done.dealer) == (2, 0, None, "dora")


def deal_for(rule_set: engine.RuleSet[Any, Any, Any], dealer: str, seed: int) -> Any:
    order, _ = rule_set.shuffled_deck(random.Random(seed))
    return rule_set.deal_from_deck(order, rule_set.active_seats(SEATS, dealer))


def test_the_engine_holds_a_vorgefuehrt_player_to_a_solo() -> None:
    """``vorfuehrung`` in a record's carry: its player may reserve only a solo, and that solo
    is his Pflichtsolo (he leads)."""
    rule_set = engine.rule_set("doppelkopf-ddv")
    rules = rule_set.parse_rules(RULES)
    carry = rule_set.read_carry({"pflicht_owed": ["bert", "dora"], "vorfuehrung": "bert"})
    state = rule_set.start_hand(rules, SEATS, "anna", carry, deal_for(rule_set, "anna", 3))
    legal = engine.legal_actions(state, "bert")
    assert legal and all(a.kind == "solo" for a in legal)
    with pytest.raises(EngineError, match="vorgeführt"):
        engine.apply(
            state,
            engine.action_from_json(
                {"seat": "bert", "reservation": "none"}, rule_set.deck, "a", variant=rule_set.name
            ),
        )
    state = engine.apply(state, legal[0])
    for seat in ("carl", "dora", "anna"):
        state = engine.apply(state, engine.legal_actions(state, seat)[0])
    assert state.pflicht and state.active[state.leader] == "bert"
    assert rule_set.carry_json(state) == {"pflicht_owed": ["bert", "dora"], "vorfuehrung": "bert"}


def test_a_vorgefuehrt_player_must_sit_forehand() -> None:
    rule_set = engine.rule_set("doppelkopf-ddv")
    rules = rule_set.parse_rules(RULES)
    carry = rule_set.read_carry({"pflicht_owed": ["bert"], "vorfuehrung": "bert"})
    with pytest.raises(EngineError, match="must sit forehand"):
        rule_set.start_hand(rules, SEATS, "bert", carry, deal_for(rule_set, "bert", 3))


def test_vorfuehrung_names_a_seat_that_owes_its_pflichtsolo() -> None:
    with pytest.raises(EngineError, match="vorfuehrung must name a seat in pflicht_owed"):
        engine.rule_set("doppelkopf-ddv").read_carry({"vorfuehrung": "bert"})


def test_a_score_sheet_entry_of_a_vorfuehrung_is_its_players_solo() -> None:
    common = {"rules": RULES, "seats": list(SEATS), "dealer": "anna",
              "pflicht_owed": ["bert"], "vorfuehrung": "bert"}  # fmt: skip
    solo = {"game": {"type": "solo", "kind": "queens", "pflicht": True}, "re": ["bert"],
            "points": {"re": 130, "kontra": 110}, "tricks": {"re": 7, "kontra": 5}}  # fmt: skip
    assert engine.settle({**common, **solo})["score"]["bert"] == 3
    normal = {"game": {"type": "normal"}, "re": ["bert", "carl"],
              "points": {"re": 130, "kontra": 110}, "tricks": {"re": 7, "kontra": 5}}  # fmt: skip
    with pytest.raises(EngineError, match="vorgeführt"):
        engine.settle({**common, **normal})
