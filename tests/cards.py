"""Card codes in JSON values and hand records: the helpers that the engine's and the API's
hidden-information tests share. Standard library only, like the engine."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any


def cards_in(value: Any, codes: Collection[str]) -> set[str]:
    """Every card code (one of ``codes``) among the strings of a JSON value, keys included."""
    if isinstance(value, str):
        return {value} if value in codes else set()
    if isinstance(value, dict):
        return cards_in(list(value), codes) | cards_in(list(value.values()), codes)
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(v, codes) for v in value))
    return set()


def swap_hidden(
    record: dict[str, Any], seat: str | None, fixed: Collection[str], rng: random.Random
) -> dict[str, Any]:
    """``record`` with the cards of the other recipients that are not in ``fixed`` shuffled
    among them (each keeps its number of cards)."""
    deal = {k: list(v) for k, v in record["deal"].items()}
    places = [(k, i) for k, cards in deal.items() if k != seat for i, c in enumerate(cards)]
    places = [(k, i) for k, i in places if deal[k][i] not in fixed]
    cards = [deal[k][i] for k, i in places]
    rng.shuffle(cards)
    for (k, i), c in zip(places, cards, strict=True):
        deal[k][i] = c
    return {**record, "deal": deal}
