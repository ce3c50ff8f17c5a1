"""The analysis of a finished hand (``engine.solver.analysis``, ``python -m engine analyse``):
the deal's double-dummy result, and what every card played gave away against best play.

Judged card by card from the position each was played in, the losses account exactly for the
difference between the deal's result under best play and the tricks taken: each card of the
party that wants more tricks moves the value down by what it gave away, each of the other
party up. That identity is checked over random hands of every three-hand rule set."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.bots import random_bot
from engine.rules import AnyRuleSet
from engine.solver.analysis import analyse
from engine.solver.position import FEWEST, MAXIMISING
from tests.engine.test_cli import error, ok, write

SOLVABLE = [rs for rs in engine.rule_sets(include_engine_only=True) if rs.table.players == 3]


def finished_record(rs: AnyRuleSet, seed: int) -> dict[str, Any]:
    """A random hand of ``rs`` played to its end by the random bot, as a full record."""
    rng = random.Random(seed)
    rules = rs.examples[seed % len(rs.examples)]
    seats = ["anna", "bert", "carl"]
    order, _ = rs.shuffled_deck(rng)
    deal = rs.deal_from_deck(order, rs.active_seats(seats, "carl"))
    carry = rs.carry_examples[0]
    record = {"rules": rules, "seats": seats, "dealer": "carl", **carry, "deal": deal}
    state = engine.replay({**record, "actions": []})
    while not state.is_over:
        state = engine.apply(state, random_bot.choose(state, rng))
    return engine.to_record(state)


@pytest.mark.parametrize("rs", SOLVABLE, ids=[rs.name for rs in SOLVABLE])
def test_what_the_cards_gave_away_adds_up_to_the_tricks_taken(rs: AnyRuleSet) -> None:
    analysed = 0
    for seed in range(40):
        report = analyse(finished_record(rs, seed))
        assert all(card["lost"] >= 0 for card in report["cards"])
        assert all(
            (card["lost"] == 0) == (card["card"] in card["optimal"]) for card in report["cards"]
        )
        if report["goal"] is None or report["goal"] == FEWEST:
            continue
        side_wants_more = report["goal"] in MAXIMISING
        value = report["dealt"]
        for card in report["cards"]:
            mover_is_side = card["seat"] == report["declarer"]
            wants_more = mover_is_side == side_wants_more
            value += -card["lost"] if wants_more else card["lost"]
        assert value == report["taken"], (seed, report)
        analysed += 1
    assert analysed >= 5


def test_an_unfinished_hand_is_not_analysed(tmp_path: Path) -> None:
    record = finished_record(engine.rule_set("wien"), 3)
    record["actions"] = record["actions"][:-1]
    assert "not over" in error("analyse", write(tmp_path, record))["message"]


def test_analyse_prints_the_report(tmp_path: Path) -> None:
    record = finished_record(engine.rule_set("wien"), 5)
    out = ok("analyse", write(tmp_path, record))
    assert out == json.loads(json.dumps(analyse(record)))
    assert {"declarer", "goal", "dealt", "taken", "cards"} <= set(out)
