"""Random score-sheet entries: a hand dealt from a shuffled deck and played out by the
engine's random bot, written as the score sheet would. For demo data, tests and benchmarks
that need many valid hands at a recorded table (never used by the API itself)."""

from __future__ import annotations

import random
from typing import Any

import engine
from engine.bots import random_bot
from games.hands import carry_for, common_part
from games.models import Table
from games.rulesets import rule_set_of


def random_entry(table: Table, rng: random.Random, number: int | None = None) -> dict[str, Any]:
    """A valid entry for hand ``number`` (default: the next) of ``table``, without the
    common part (the server fills that in)."""
    if number is None:
        last = table.hands.order_by("-number").first()
        number = 1 if last is None else last.number + 1
    return entry_for(table, number, carry_for(table, number), rng)


def entry_for(
    table: Table, number: int, carry: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """A valid entry for hand ``number`` of ``table`` with ``carry`` (its pot) before it."""
    common = common_part(table, number, carry)
    rule_set = rule_set_of(table)
    deal = rule_set.random_deal(common["seats"], common["dealer"], rng)
    state = engine.replay({**common, "deal": deal, "actions": []})
    while not state.is_over:
        state = engine.apply(state, random_bot.choose(state, rng))
    return {k: v for k, v in engine.sheet_entry(state).items() if k not in common}
