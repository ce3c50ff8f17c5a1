"""``trickgame``'s ``heuristic`` bot: a seat's view and legal actions (JSON) to an action."""

from __future__ import annotations

import random
from typing import Any

RANKS = "JQKA"


def heuristic(
    view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any] | None:
    """Bid the number of aces held (the nearest legal bid); then, while the seat still needs
    tricks, play its highest legal card, else its lowest."""
    if not legal:
        return None
    bids = [a for a in legal if "bid" in a]
    if bids:
        aces = sum(1 for card in view.get("hand") or [] if card.endswith("A"))
        return min(bids, key=lambda a: (abs(a["bid"] - aces), a["bid"]))
    needs = (view.get("needs") or {}).get(view.get("seat"), 0)
    ranked = sorted(legal, key=lambda a: (RANKS.index(a["card"][1]), a["card"]))
    return ranked[-1] if needs > 0 else ranked[0]
