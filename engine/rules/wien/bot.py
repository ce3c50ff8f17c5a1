"""wien's ``random`` bot policy: a legal move chosen at random, with a bias that makes hands
look like real ones (most players pass, few look into the talon), so random deals cover every
kind of game rather than mostly premium games raised by Nachschauen."""

from __future__ import annotations

import random

from engine.actions import Action, Call
from engine.rules.wien.actions import Look
from engine.rules.wien.play import legal_actions
from engine.rules.wien.state import State


def choose(state: State, rng: random.Random) -> Action:
    """A random legal action for the player to act."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the hand is over")
    first = legal[0]
    if isinstance(first, Call) and len(legal) > 1 and rng.random() < 0.55:
        return first  # pass
    if isinstance(first, Look):
        return legal[1] if rng.random() < 0.1 else legal[0]
    return rng.choice(legal)
