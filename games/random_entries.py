"""Random score-sheet entries: a hand dealt from a shuffled deck and played out by the
engine's random bot, written as the score sheet would. For demo data, tests and benchmarks
that need many valid hands at a recorded table (never used by the API itself)."""

from __future__ import annotations

import random
from typing import Any

import engine
from engine.bots import random_bot
from games.models import Table
from games.rulesets import variant_of
from games.services import COMMON_KEYS, common_part


def random_entry(table: Table, rng: random.Random, number: int | None = None) -> dict[str, Any]:
    """A valid entry for hand ``number`` (default: the next) of ``table``, without the
    common part (the server fills that in)."""
    if number is None:
        last = table.hands.order_by("-number").first()
        number = 1 if last is None else last.number + 1
    before = table.hands.filter(number=number - 1).first()
    pot = table.opening_pot if before is None or before.result is None else before.result["pot"]
    return entry_for(table, number, pot, rng)


def entry_for(table: Table, number: int, pot: int, rng: random.Random) -> dict[str, Any]:
    """A valid entry for hand ``number`` of ``table`` with ``pot`` before it."""
    common = common_part(table, number, pot)
    variant = variant_of(table)
    order, _ = engine.record.shuffled_deck(rng, variant=variant)
    active = engine.active_seats(common["seats"], common["dealer"], variant=variant)
    deal = engine.deal_from_deck(order, active, variant=variant)
    state = engine.replay({**common, "deal": deal, "actions": []})
    while not state.is_over:
        state = engine.apply(state, random_bot.choose(state, rng))
    return {k: v for k, v in engine.sheet_entry(state).items() if k not in COMMON_KEYS}
