"""``preferans`` records (``spec/next/preferans.md`` §13): golden full records replayed to their
known Result, the record forms ``settle`` tells apart, replay against step-by-step play, the
ordered talon, and a committed deck verified.

Golden files ``tests/data/preferans/deal-*.json`` are ``{"description", "record", "expect"}``;
``expect`` is the whole Result (scored by ``scoring.score``), worked out in the description from
§9."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.record import commitment
from tests.engine.preferans_helpers import EXAMPLE_13, calls, play_out, record, whists

DATA = Path(__file__).resolve().parent.parent / "data" / "preferans"
GOLDEN = sorted(DATA.glob("deal-*.json"))
PREFERANS = engine.rule_set("preferans")


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_there_are_golden_deals_of_each_kind() -> None:
    assert {p.stem for p in GOLDEN} == {
        "deal-contract-whist",
        "deal-misere",
        "deal-raspasy-four",
        "deal-open-play",
    }


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_deal_replays_to_its_known_result(path: Path) -> None:
    doc = load(path)
    assert engine.settle(doc["record"]) == doc["expect"]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_deal_is_finished_and_written_back(path: Path) -> None:
    rec = load(path)["record"]
    state = engine.replay(rec)
    assert state.is_over and engine.legal_actions(state) == []
    again = engine.to_record(state)
    assert again["deal"] == rec["deal"] and again["actions"] == rec["actions"]
    assert engine.replay(again) == state
    assert engine.settle(engine.sheet_entry(state)) == engine.settle(rec)


def test_the_golden_raspasy_with_four_players_gives_the_dealer_the_first_trick() -> None:
    doc = load(DATA / "deal-raspasy-four.json")
    assert doc["expect"]["tricks"]["dora"] >= 1
    state = engine.replay(doc["record"])
    assert engine.view(state, None)["tricks"] == doc["expect"]["tricks"]


def test_replaying_the_same_actions_one_by_one_gives_the_same_state() -> None:
    rec = load(DATA / "deal-open-play.json")["record"]
    state = engine.replay({**rec, "actions": []})
    for data in rec["actions"]:
        state = engine.apply(state, PREFERANS.action_from_json(data, "action"))
    assert state == engine.replay(rec)


def test_a_score_sheet_entry_settles_like_the_deal_it_records() -> None:
    state = play_out(engine.replay(record(actions=EXAMPLE_13)))
    entry = engine.sheet_entry(state)
    assert set(entry) == {
        "rules",
        "seats",
        "dealer",
        "streak",
        "game",
        "declarer",
        "defence",
        "mode",
        "tricks",
    }
    assert entry["mode"] == "open" and entry["defence"] == {"bert": "whist", "carl": "pass"}
    assert engine.settle(entry) == engine.settle(engine.to_record(state))


def test_settle_tells_the_forms_apart_by_their_keys() -> None:
    """§13: ``deals`` → pulya; ``game`` → entry; ``deal``/``actions`` → full record; none →
    the settlement of a ``sheet``; a ``pot`` is an error."""
    rules = {"variant": "preferans", "convention": "sochi", "pool_target": 20}
    seats = ["anna", "bert", "carl"]
    sheet = {
        "pool": {"anna": 0, "bert": 0, "carl": 0},
        "mountain": {"anna": 4, "bert": 0, "carl": 2},
        "whists": {"bert": {"anna": 10}},
    }
    bare = engine.settle({"rules": rules, "seats": seats, "sheet": sheet})
    assert set(bare) >= {"n", "result_n", "result"} and sum(bare["result"].values()) == 0
    full = load(DATA / "deal-misere.json")["record"]
    pulya = engine.settle(
        {
            "rules": rules,
            "seats": seats,
            "dealer": "carl",
            "deals": [{k: v for k, v in full.items() if k in ("deal", "actions")}],
        }
    )
    assert pulya["deals"][0]["entry"]["pool"]["bert"] == 10 and pulya["dealer"] == "anna"
    with pytest.raises(engine.EngineError) as e:
        engine.settle({"rules": rules, "seats": seats, "dealer": "carl", "pot": 0, "sheet": sheet})
    assert e.value.at == "pot"


def test_an_error_in_a_pulya_deal_names_the_deal_and_the_action() -> None:
    rules = {"variant": "preferans", "convention": "sochi", "pool_target": 20}
    full = load(DATA / "deal-misere.json")["record"]
    bad = {"deal": full["deal"], "actions": [*calls("anna pass", "bert misere"), *calls("carl 6S")]}
    with pytest.raises(engine.EngineError) as e:
        engine.settle(
            {"rules": rules, "seats": ["anna", "bert", "carl"], "dealer": "carl", "deals": [bad]}
        )
    assert e.value.at == "deals[0].actions[2]"
    assert e.value.message == "carl cannot bid 6S: it is not higher than the highest call"


def test_a_record_needs_no_pot_and_refuses_one() -> None:
    with pytest.raises(engine.EngineError) as e:
        engine.replay({**record(), "pot": 0})
    assert e.value.at == "pot"


def test_a_committed_deck_verifies_with_the_talon_in_its_order() -> None:
    """§2: the talon order must match the committed deck; hands compare as sets."""
    rng = random.Random(7)
    order, salt = PREFERANS.shuffled_deck(rng)
    deal = PREFERANS.deal_from_deck(order, ("anna", "bert", "carl"))
    actions = [
        *calls("anna 6S", "bert pass", "carl pass"),
        {"seat": "anna", "discard": deal["anna"][:2]},
        {"seat": "anna", "declare": {"type": "contract", "level": 6, "strain": "S"}},
        *whists("bert pass", "carl pass"),
    ]
    state = engine.replay(record(deal, actions=actions))
    proof = {"commitment": commitment(salt, order), "salt": salt, "deck": order}
    rec = engine.to_record(state, proof)
    assert rec["deal"]["talon"] == order[6:8]
    answer = engine.verify(rec)
    assert answer["verified"] is True and answer["result"] == engine.settle(rec)
    shuffled = {**rec, "deal": {**rec["deal"], "anna": sorted(rec["deal"]["anna"])}}
    assert engine.verify(shuffled)["verified"] is True
    swapped = {**rec, "deal": {**rec["deal"], "talon": order[6:8][::-1]}}
    with pytest.raises(engine.EngineError) as e:
        engine.verify(swapped)
    assert e.value.at == "deal.talon"


def test_a_full_record_carries_its_streak_and_sheet_to_the_next_deal() -> None:
    """§13: ``streak`` and ``sheet`` before the deal; the Result gives the sheet after it and
    the streak for the next deal (``carry_after``), and closing the table settles the sheet."""
    doc = load(DATA / "deal-misere.json")
    seats = ["anna", "bert", "carl"]
    sheet = {
        "pool": {"anna": 4, "bert": 12, "carl": 0},
        "mountain": {"anna": 0, "bert": 2, "carl": 6},
        "whists": {"anna": {"carl": 20}},
    }
    rules = {**doc["record"]["rules"], "whist_value": 10}
    rec = {**doc["record"], "rules": rules, "streak": 2, "sheet": sheet}
    result = engine.settle(rec)
    # bert's misère takes his pool from 12 past T = 20: he helps the highest pool below T
    assert result["sheet"]["pool"] == {"anna": 6, "bert": 20, "carl": 0}
    assert result["help"] == [{"from": "bert", "to": "anna", "points": 2, "whists": 20}]
    assert result["streak"] == 0 and result["game_over"] is False
    after = PREFERANS.carry_after(result)
    assert after == {"streak": 0, "sheet": result["sheet"]}
    state = engine.replay(rec)
    assert engine.to_record(state)["sheet"] == sheet and engine.to_record(state)["streak"] == 2
    closing = PREFERANS.close(PREFERANS.parse_rules(rules), seats, PREFERANS.read_carry(after))
    money = engine.settle({"rules": rules, "seats": seats, "sheet": after["sheet"]})["money"]
    paid = {s: 0 for s in seats}
    for t in closing.transfers:
        paid[t["from"]] -= t["amount"]
        paid[t["to"]] += t["amount"]
    assert paid == money and closing.carry == {}


def test_a_deal_on_a_finished_sheet_is_refused() -> None:
    full = load(DATA / "deal-misere.json")["record"]
    done = {"pool": {s: 20 for s in ("anna", "bert", "carl")}, "mountain": {}, "whists": {}}
    done["mountain"] = {s: 0 for s in ("anna", "bert", "carl")}
    with pytest.raises(engine.EngineError) as e:
        engine.replay({**full, "sheet": done})
    assert e.value.at == "sheet"
