"""Choices other than the card, by simulation over sampled deals: how the ``pimc`` bot bids,
lays away, declares and chooses its defence where the rule set deals whole hands from a view
(``RuleSet.bot_deal``).

For each candidate (``RuleSet.bot_candidates``: the legal choices, or the best few by the
rule set's heuristic where there are many) and each of the same sampled deals, the hand is
played out from the choice: every later choice by the rule set's heuristic (the bot's model of
every player, itself included), every card double dummy (``engine.solver``: the lowest of the
optimal cards), and the seat's money (or score) at the end is the candidate's value on that
deal. The candidate of the best mean wins; the heuristic's own choice wins a tie. The same
deals for every candidate (common random numbers) make the comparison fair with few deals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from engine.bots.policy import Decide
from engine.errors import EngineError
from engine.ruleset import RuleSet
from engine.solver.search import solve

MIN_DEALS = 4
"""A deadline never stops the comparison before this many deals."""


def outcome_value(rs: RuleSet[Any, Any, Any], state: Any, seat: str) -> float:
    """What a finished hand gave ``seat``: its score for the sitting where the rule set keeps
    one (Preferans's whists), else its money (cents)."""
    result = rs.settle_outcome(rs.outcome(state))
    sitting = rs.sitting_score(state.rules, list(state.seats), rs.carry_after(result))
    money = sitting if sitting is not None else result["delta"]
    return float(money.get(seat, 0))


def play_out(rs: RuleSet[Any, Any, Any], state: Any, decide: Decide, rng: random.Random) -> Any:
    """The hand of ``state`` played to its end: cards double dummy, every other choice by
    ``decide`` (a random legal one where it gives none)."""
    while not state.is_over:
        pos = rs.card_play(state)
        if pos is not None:
            _, optimal = solve(pos)
            card = (optimal & -optimal).bit_length() - 1  # the lowest optimal card
            data: dict[str, Any] = {"card": pos.deck.code(card), "seat": pos.seats[pos.to_act]}
        else:
            acting = rs.to_act(state)
            seat = next(s for s in state.seats if s in acting)
            view = rs.view(state, seat)
            legal = view.get("legal", [])
            chosen = decide(view, legal, rng) or (rng.choice(legal) if legal else None)
            if chosen is None:
                raise EngineError("", f"nobody chose at {seat}")
            data = {**chosen, "seat": chosen.get("seat", seat)}
        state = rs.apply(state, rs.action_from_json(data, "action"))
    return state


def choose(
    rs: RuleSet[Any, Any, Any],
    view: dict[str, Any],
    candidates: Sequence[dict[str, Any]],
    preferred: dict[str, Any],
    decide: Decide,
    rng: random.Random,
    deals: int,
    deadline: float | None = None,
) -> tuple[dict[str, Any], dict[int, float], int]:
    """The candidate with the best mean value for the seat of ``view`` over up to ``deals``
    sampled deals (``preferred``, the heuristic's choice, on a tie or when no deal is found),
    each candidate's mean by its index, and the number of deals played."""
    seat = view["seat"]
    totals = [0.0] * len(candidates)
    played = 0
    for i in range(deals):
        if deadline is not None and i >= MIN_DEALS and time.monotonic() > deadline:
            break
        state = rs.bot_deal(view, rng)
        if state is None:
            break
        for k, candidate in enumerate(candidates):
            data = {**candidate, "seat": candidate.get("seat", seat)}
            after = rs.apply(state, rs.action_from_json(data, "action"))
            totals[k] += outcome_value(rs, play_out(rs, after, decide, rng), seat)
        played += 1
    if not played:
        return preferred, {}, 0
    means = {k: t / played for k, t in enumerate(totals)}
    best = max(means.values())
    if preferred in candidates and means[candidates.index(preferred)] == best:
        return preferred, means, played
    return candidates[max(means, key=lambda k: means[k])], means, played
