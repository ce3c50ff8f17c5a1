"""Bots against each other on duplicate deals: ``python -m engine arena``.

Every deal is dealt once from a seeded shuffle and played once for every seating of the bots
(each distinct assignment of the ``--bots`` list to the seats), so luck of the cards cancels:
a bot's result on a deal is its mean over the seatings and the seats it had in them. The
money of a deal is the Result's ``delta`` of each seat (cents; the pot takes the rest), or,
where the rule set scores a sitting (Preferans's pulya), the one-deal sitting settled
(``RuleSet.sitting_score``, whists). Reported per bot: the mean per deal with a 95 %
interval (mean ± 1.96 · sd / √n over the deals), and the paired difference of every two
bots.

Bots see only their seat's view and legal actions (``RuleSet.bot_policies``); ``random`` is
the rule set's random policy on the state, as a table's random bot plays.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any

import engine
from engine.bots import random_bot
from engine.bots.levels import policy_for
from engine.bots.policy import BotPolicy
from engine.messages import ARENA_BOT_COUNT, BOT_CHOSE_NOTHING
from engine.rules import AnyRuleSet

SEATS = ("anna", "bert", "carl", "dora")


def policies(rs: AnyRuleSet, bots: Sequence[str]) -> dict[str, BotPolicy | None]:
    """Each named bot's policy (``None``: the random bot; ``pimc:N``: see
    :func:`engine.bots.levels.policy_for`)."""
    return {name: policy_for(rs, name) for name in bots}


def _move(state: Any, policy: BotPolicy | None, seat: str, rng: random.Random) -> Any:
    """The action the bot of ``policy`` at ``seat`` (a seat that may act) sends."""
    if policy is None:
        return random_bot.choose(state, rng)
    view = engine.view(state, seat)
    chosen = policy(view, view.get("legal", []), rng)
    if chosen is None:
        raise BOT_CHOSE_NOTHING.error("", seat=seat)
    data = {**chosen, "seat": chosen.get("seat", seat)}
    return engine.rule_set(state.rules.variant).action_from_json(data, "action")


def play_deal(
    rs: AnyRuleSet,
    rules: dict[str, Any],
    order: Sequence[str],
    seating: dict[str, BotPolicy | None],
    rng: random.Random,
) -> dict[str, float]:
    """Play the deal of deck ``order`` with ``seating`` (seat → its bot's policy, ``None`` the
    random bot): each seat's money."""
    seats = list(seating)
    dealer = seats[-1]
    parsed = engine.parse_rules(rules)
    carry = {**rs.carry_examples[0], **rs.opening_carry(parsed, seats)}
    deal = rs.deal_from_deck(order, rs.active_seats(seats, dealer))
    record = {"rules": rules, "seats": seats, "dealer": dealer, **carry, "deal": deal}
    state = engine.replay({**record, "actions": []})
    while not state.is_over:
        seat = next(s for s in seats if s in engine.to_act(state))
        state = engine.apply(state, _move(state, seating[seat], seat, rng))
    result = rs.settle_outcome(rs.outcome(state))
    sitting = rs.sitting_score(parsed, seats, rs.carry_after(result))
    money = sitting if sitting is not None else result["delta"]  # score_unit, or cents
    return {s: float(money.get(s, 0)) for s in seats}


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def _deals(
    rules: dict[str, Any],
    bots: Sequence[str],
    seed: int,
    first: int,
    stop: int,
    played: Callable[[], None] | None = None,
) -> list[dict[str, float]]:
    """Deals ``first`` to ``stop - 1``: each bot's mean money on each (over the seatings and
    its seats); ``played`` is called after each deal."""
    rs = engine.rule_set(rules.get("variant"))
    chosen = policies(rs, bots)
    seats = SEATS[: len(bots)]
    names = list(dict.fromkeys(bots))
    seatings = sorted(set(permutations(bots)))
    out = []
    for d in range(first, stop):
        order, _ = rs.shuffled_deck(random.Random(f"{seed}:{d}"))
        got: dict[str, list[float]] = {b: [] for b in names}
        for i, levels in enumerate(seatings):
            seating = {seat: chosen[level] for seat, level in zip(seats, levels, strict=True)}
            money = play_deal(rs, rules, order, seating, random.Random(f"{seed}:{d}:{i}"))
            for seat, level in zip(seats, levels, strict=True):
                got[level].append(money[seat])
        out.append({b: statistics.fmean(got[b]) for b in names})
        if played is not None:
            played()
    return out


Chunk = tuple[dict[str, Any], Sequence[str], int, int, int]


def _chunk(numbered: tuple[int, Chunk]) -> tuple[int, list[dict[str, float]]]:
    index, args = numbered
    return index, _deals(*args)


def arena(
    rules: dict[str, Any],
    bots: Sequence[str],
    deals: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals (in ``jobs`` processes; the figures do not depend on
    it); the report (JSON) ``python -m engine arena`` prints. ``progress`` hears how many
    deals are played so far: after each deal in one process, after each batch of deals a
    process finishes in several."""
    rs = engine.rule_set(rules.get("variant"))
    policies(rs, bots)  # refuse unknown bots before anything is played
    n = rs.table.seats[0]
    if len(bots) != n:
        raise ARENA_BOT_COUNT.error("bots", rule_set=rs.name, seats=n)
    names = list(dict.fromkeys(bots))
    # small batches, so that progress comes often however slowly the bots play
    step = max(1, min(20, deals // max(1, jobs * 4)))
    chunks: list[Chunk] = [
        (rules, tuple(bots), seed, a, min(deals, a + step)) for a in range(0, deals, step)
    ]
    done = 0
    if jobs > 1:
        parts: list[list[dict[str, float]]] = [[] for _ in chunks]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for index, part in pool.imap_unordered(_chunk, enumerate(chunks)):
                parts[index] = part
                done += len(part)
                if progress is not None:
                    progress(done)
    else:

        def played() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done)

        parts = [_deals(*c, played=played) for c in chunks]
    per_deal = [row for part in parts for row in part]
    report: dict[str, Any] = {
        "rules": rules,
        "deals": deals,
        "seatings": len(set(permutations(bots))),
        "unit": rs.score_unit or "cents",
        "bots": {},
        "differences": {},
    }
    for b in names:
        mean, half = interval([row[b] for row in per_deal])
        report["bots"][b] = {
            "mean": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
        }
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            mean, half = interval([row[a] - row[b] for row in per_deal])
            report["differences"][f"{a} - {b}"] = {
                "mean": round(mean, 3),
                "ci95": [round(mean - half, 3), round(mean + half, 3)],
            }
    return report
