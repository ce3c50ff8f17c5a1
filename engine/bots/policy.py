"""The shapes of a bot level: a policy over a seat's view and its legal actions (JSON)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

BotPolicy = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], "dict[str, Any] | None"]
"""A bot level's policy (``RuleSet.bot_policies``): a seat's view and the legal actions in it
(JSON) to one of them, or ``None`` when the seat lets the moment pass (an announcement)."""

Decide = BotPolicy
"""A rule set's heuristic for every choice but the card to play (``RuleSet.bot_decide``): an
action, or ``None`` when a card is to be played (``engine.bots.heuristic`` or
``engine.bots.pimc`` chooses it)."""
