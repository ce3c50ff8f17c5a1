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

A rule set's ``bot_deal`` draws its deals with the helpers here (wien's and Preferans's
``simulate.py``): :func:`deal_from_view` (who gets a deal, and the best of
:data:`TRIES`), :func:`deal_unseen` (the cards the seat has not seen, dealt at random) and
:func:`replay_view` (the view's actions replayed, the others' choices read as the heuristic
would have made them).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.bots.policy import Decide
from engine.errors import EngineError
from engine.messages import NOBODY_CHOSE
from engine.ruleset import RuleSet
from engine.solver.search import solve

MIN_DEALS = 4
"""A deadline never stops the comparison before this many deals."""
TRIES = 40
"""Deals drawn for one simulated deal (:func:`best_draw`)."""

S = TypeVar("S")
Json = dict[str, Any]


def deal_from_view(
    view: Json,
    phases: frozenset[str],
    dealt: Callable[[Json], list[str] | None],
    draw: Callable[[Json, list[str], random.Random, int], tuple[int, S] | None],
    rng: random.Random,
) -> S | None:
    """A rule set's ``bot_deal`` before the first card: for a seat playing the deal whose
    ``view`` is in one of ``phases`` and whose cards as dealt its view tells (``dealt``), the
    :func:`best_draw` of the deals ``draw(view, cards, rng, worst)`` draws; else ``None``."""
    seat = view["seat"]
    if seat is None or seat not in view["active"] or view["phase"] not in phases:
        return None
    mine = dealt(view)
    if mine is None:
        return None
    return best_draw(lambda worst: draw(view, mine, rng, worst))


def deal_unseen(
    codes: Sequence[str],
    mine: Sequence[str],
    talon: Sequence[str],
    others: Sequence[str],
    rng: random.Random,
) -> tuple[list[str], dict[str, list[str]]]:
    """The cards of the deck ``codes`` a seat holding ``mine`` has not seen, dealt at random:
    the talon (``talon`` where the seat saw it, else two of them) and as many to each of
    ``others`` as the seat holds."""
    rest = [c for c in codes if c not in mine and c not in talon]
    rng.shuffle(rest)
    if not talon:
        talon, rest = rest[:2], rest[2:]
    n = len(mine)
    return list(talon), {s: rest[i * n : (i + 1) * n] for i, s in enumerate(others)}


def best_draw(draw: Callable[[int], tuple[int, S] | None], tries: int = TRIES) -> S | None:
    """The deal to simulate on, of up to ``tries`` deals ``draw(worst)`` draws (each with the
    number of the others' choices it does not explain; ``None`` for one that does not fit
    the view, or explains no more than a deal with ``worst`` misses): the first that explains
    them all, else the one that explains most; ``None`` when none fits."""
    best: tuple[int, S] | None = None
    for _ in range(tries):
        drawn = draw(99 if best is None else best[0])
        if drawn is None:
            continue
        if best is None or drawn[0] < best[0]:
            best = drawn
        if drawn[0] == 0:
            break
    return None if best is None else best[1]


def replay_view(
    state: S,
    view: Json,
    inferred: Sequence[str],
    view_of: Callable[[S, str], Json],
    decide: Decide,
    step: Callable[[S, Json], S],
    rng: random.Random,
    worst: int,
) -> tuple[int, S] | None:
    """The actions of the seat's ``view`` replayed on a drawn deal ``state`` (``step`` applies
    one JSON action), and how many of the others' choices of the kinds ``inferred`` the rule
    set's heuristic ``decide``, given the drawn hands, would have made otherwise. An action the
    seat was not shown (a discard of ``None``) is the heuristic's. ``None`` when the actions
    do not fit the deal, when it misses ``worst`` choices or more, or when the seat would not
    see its own hand and turn again."""
    seat = view["seat"]
    misses = 0
    try:
        for item in view["actions"]:
            actor = item["seat"]
            hidden = item.get("discard", "") is None
            if hidden or (actor != seat and any(k in item for k in inferred)):
                theirs = view_of(state, actor)
                guess = decide(theirs, theirs.get("legal", []), rng)
                if hidden:
                    if guess is None:
                        return None
                    item = {**guess, "seat": actor}
                elif guess is None or any(guess.get(k) != item.get(k) for k in guess):
                    misses += 1
                    if misses >= worst:
                        return None
            state = step(state, item)
    except EngineError:
        return None
    again = view_of(state, seat)
    if sorted(again["hand"]) != sorted(view["hand"]) or again["to_act"] != view["to_act"]:
        return None
    return misses, state


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
                raise NOBODY_CHOSE.error("", seat=seat)
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
