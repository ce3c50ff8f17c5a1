"""The fast path: whole random hands for bots, simulations and the benchmark.

Every rule set plays its cards on the shared board (:class:`engine.board.CardBoard`: tricks,
obligations as data, who wins); a rule set's fast hand adds only what is its own (auction,
contracts, settlement) and is proven equal to its validating ``apply`` by tests
(``tests/engine/test_fast.py`` for wien). :func:`play_random_hand` asks the rule set of
``rules`` for one.
"""

from __future__ import annotations

import random
from typing import Any

from engine.board import CardBoard
from engine.rules import rule_set
from engine.ruleset import RuleOptions


def play_random_hand(rules: RuleOptions, pot_before: Any, rng: random.Random) -> Any:
    """Deal, bid, play and settle one random hand on the fast path of ``rules``' rule set; for
    wien the active players' changes (without the dealer's contribution) and the pot after the
    deal."""
    return rule_set(rules.variant).play_random_hand(rules, pot_before, rng)


__all__ = ["CardBoard", "play_random_hand"]
