"""The ``pimc`` bot's card play: Perfect Information Monte Carlo. Deal the cards the seat
cannot see at random, consistently with everything it knows (``engine.bots.belief``), solve
each deal double dummy (``engine.solver.card_values``: the value of every legal card), and play
the card with the best mean over the deals. Its strength is the number of deals; a deadline
(a time budget per move) may stop it earlier, never before ``MIN_SAMPLES``.

The bot sees only a seat's view and its legal actions; the rule set reads the view
(``RuleSet.card_play_view``). Choices other than cards (bidding, discarding, declaring,
defence, invitation) are compared by simulation (``engine.bots.simulate``) where the rule set
deals whole hands from a view (``RuleSet.bot_deal``: ``wien``, ``preferans``), each over
:func:`decision_deals` sampled deals; elsewhere they are the rule set's heuristic's, which
:func:`policy` is given.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import engine.bots.simulate as simulate
from engine.bots.belief import Belief, sample, sampled_position
from engine.bots.heuristic import card_action
from engine.bots.heuristic import choose_card as choose_heuristic
from engine.bots.policy import BotPolicy, Decide
from engine.solver.search import card_values

if TYPE_CHECKING:
    from engine.ruleset import RuleSet

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


def decision_deals(samples: int) -> int:
    """The deals a choice other than a card is compared over, for ``samples`` deals a card:
    each deal is a whole hand played out per candidate, so a quarter as many (at least
    :data:`simulate.MIN_DEALS`)."""
    return max(simulate.MIN_DEALS, samples // 4)


def policy(
    read: Callable[[dict[str, Any]], Belief | None],
    decide: Decide,
    samples: int = DEFAULT_SAMPLES,
    budget: float | None = None,
    rule_set: RuleSet[Any, Any, Any] | None = None,
) -> BotPolicy:
    """The ``pimc`` level of a three-hand rule set: the PIMC card (from ``read(view)``, the
    rule set's ``card_play_view``) with at most ``samples`` deals and ``budget`` seconds; the
    other choices by simulation over :func:`decision_deals` deals where ``rule_set`` deals
    whole hands (``RuleSet.bot_deal``), else, and without ``rule_set``, ``decide``'s (the rule
    set's heuristic)."""

    def choose(
        view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any] | None:
        chosen = decide(view, legal, rng)
        deadline = None if budget is None else time.monotonic() + budget
        if chosen is not None:
            if rule_set is None:
                return chosen
            candidates = rule_set.bot_candidates(view, legal)
            if chosen not in candidates:
                candidates.append(chosen)
            if len(candidates) < 2:
                return chosen
            best, _, _ = simulate.choose(
                rule_set,
                view,
                candidates,
                chosen,
                decide,
                rng,
                decision_deals(samples),
                deadline,
            )
            return best

        def pick(belief: Belief) -> int:
            return choose_card(belief, rng, samples, deadline)[0]

        return card_action(view, legal, read, pick, rng)

    return choose
