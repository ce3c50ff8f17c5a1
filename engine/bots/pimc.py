"""The ``pimc`` bot's card play: Perfect Information Monte Carlo. Deal the cards the seat
cannot see at random, consistently with everything it knows (``engine.bots.belief``), solve
each deal double dummy (``engine.solver.card_values``: the value of every legal card), and play
the card with the best mean over the deals. Its strength is the number of deals; a deadline
(a time budget per move) may stop it earlier, never before ``MIN_SAMPLES``.

The bot sees only a seat's view and its legal actions; the rule set reads the view
(``RuleSet.card_play_view``). Choices other than cards (bidding, discarding, declaring,
defence) are the rule set's heuristic's, which :func:`policy` is given.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine.bots.belief import Belief, sample, sampled_position
from engine.bots.heuristic import card_action
from engine.bots.heuristic import choose_card as choose_heuristic
from engine.bots.policy import BotPolicy, Decide
from engine.solver.search import card_values

DEFAULT_SAMPLES = 100
MIN_SAMPLES = 8
"""A deadline never stops the bot before this many deals."""


def choose_card(
    belief: Belief,
    rng: random.Random,
    samples: int = DEFAULT_SAMPLES,
    deadline: float | None = None,
) -> tuple[int, dict[int, float], int]:
    """The card the player to move plays (the seat's own hand, or an open hand it plays for),
    each legal card's mean value (the side's tricks from the trick in progress) and the
    number of deals solved. ``deadline``: a ``time.monotonic()`` after which no further deal
    is drawn (once ``MIN_SAMPLES`` are solved)."""
    pos = belief.position
    p = pos.to_act
    totals: dict[int, float] = {}
    solved = 0
    for i in range(samples):
        if deadline is not None and i >= MIN_SAMPLES and time.monotonic() > deadline:
            break
        # a belief too tight for the sampler (or wrong) still deals: counts kept, the
        # inferences dropped
        hands = sample(belief, rng) or sample(belief, rng, strict=False)
        if hands is None:
            break
        for c, v in card_values(sampled_position(belief, hands)).items():
            totals[c] = totals.get(c, 0.0) + v
        solved += 1
    if not solved:  # no deal at all: the heuristic's card
        return choose_heuristic(belief), {}, 0
    means = {c: v / solved for c, v in totals.items()}
    wants_more = (pos.side >> p & 1) == pos.maximising
    best = max(means.values()) if wants_more else min(means.values())
    # of equally good cards the lowest: it gives away the least
    card = min(c for c, v in means.items() if v == best)
    return card, means, solved


def policy(
    read: Callable[[dict[str, Any]], Belief | None],
    decide: Decide,
    samples: int = DEFAULT_SAMPLES,
    budget: float | None = None,
) -> BotPolicy:
    """The ``pimc`` level of a three-hand rule set: ``decide`` (the rule set's heuristic) for
    everything but cards, the PIMC card (from ``read(view)``, the rule set's
    ``card_play_view``) with at most ``samples`` deals and ``budget`` seconds."""

    def choose(
        view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any] | None:
        chosen = decide(view, legal, rng)
        if chosen is not None:
            return chosen
        deadline = None if budget is None else time.monotonic() + budget

        def pick(belief: Belief) -> int:
            return choose_card(belief, rng, samples, deadline)[0]

        return card_action(view, legal, read, pick, rng)

    return choose
