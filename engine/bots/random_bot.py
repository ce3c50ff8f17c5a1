"""The ``random`` bot level: a random legal move by the rule set's random policy (wien's is
biased like real players: most pass, few look into the talon; a rule set without its own
policy picks uniformly among the legal actions)."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.rules import rule_set
from engine.ruleset import HandState


def choose(state: HandState, rng: random.Random) -> Action:
    """A random legal action for a seat that may act."""
    return rule_set(state.rules.variant).random_action(state, rng)


def choose_for(state: HandState, seat: str, rng: random.Random) -> Action | None:
    """A random legal action of ``seat`` alone, or ``None`` when it lets the moment pass
    (``RuleSet.random_action_for``)."""
    return rule_set(state.rules.variant).random_action_for(state, seat, rng)
