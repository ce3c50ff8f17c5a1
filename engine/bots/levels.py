"""The bot levels of a rule set by name, with a strength: what tables and the arena seat."""

from __future__ import annotations

import random
import secrets

from engine.bots import pimc
from engine.bots.policy import BotPolicy
from engine.messages import UNKNOWN_BOT
from engine.rules import AnyRuleSet


def levels_of(rs: AnyRuleSet) -> tuple[str, ...]:
    """The bot levels that play ``rs``: ``random`` and the rule set's own
    (``RuleSet.bot_policies``)."""
    return ("random", *rs.bot_policies())


CARDS_ONLY = "pimc-cards"
"""``pimc``'s card play with the heuristic's other choices (no simulated bidding): not a
level tables offer, the arena's baseline to measure what the simulation adds."""


def policy_for(rs: AnyRuleSet, name: str, *, budget: float | None = None) -> BotPolicy | None:
    """The policy of bot ``name`` at a table of ``rs`` (``None``: the random bot, which plays
    on the state). ``pimc:N`` is ``pimc`` with ``N`` deals sampled per card; ``budget`` (in
    seconds) bounds ``pimc``'s thinking per move. ``pimc-cards`` (:data:`CARDS_ONLY`, also
    ``pimc-cards:N``) is for the arena. An unknown name is an :class:`EngineError` listing
    the levels."""
    level, _, samples = name.partition(":")
    known = rs.bot_policies()
    decide = rs.bot_decide()
    if level == "random" and not samples:
        return None
    if level in ("pimc", CARDS_ONLY) and decide is not None and (not samples or samples.isdigit()):
        count = int(samples) if samples else pimc.DEFAULT_SAMPLES
        if count > 0:
            simulated = rs if level == "pimc" else None
            return pimc.policy(
                rs.card_play_view, decide, samples=count, budget=budget, rule_set=simulated
            )
    if level in known and not samples:
        return known[level]
    levels = ", ".join(levels_of(rs))
    raise UNKNOWN_BOT.error("bots", rule_set=rs.name, name=repr(name), levels=levels)


def fresh_rng() -> random.Random:
    """The random source a bot decides a live move from: a fresh seed each time, so nobody
    can replay a bot's choices (tests and benchmarks pass their own seeded source)."""
    return random.Random(secrets.randbits(64))
