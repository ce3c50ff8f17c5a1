"""Engine benchmark: complete random hands per second (deal, auction, play, settle) on the fast
path, card-play playouts per second on the shared board, and ``engine.legal_actions`` calls per
second, on one core; then each rule set's hands per second beside wien's, Preferans once per
convention (``sochi``, ``leningrad``, ``rostov``).

    python bench/engine_bench.py [--hands N] [--runs R] [--no-write]

Writes its figures into docs/benchmarks.md; the last line printed is ``hands/s: N``.
Target (issue 3): at least 10,000 complete random hands per second.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.report import write_section  # noqa: E402
from engine import (  # noqa: E402
    PIQUET,
    HandState,
    apply,
    legal_actions,
    new_hand,
    outcome,
    replay,
    settle,
    settle_outcome,
    sheet_entry,
    to_record,
)
from engine.board import CardBoard  # noqa: E402
from engine.bots.random_bot import choose  # noqa: E402
from engine.fast import play_random_hand  # noqa: E402
from engine.rules import rule_set, rule_sets  # noqa: E402
from engine.rules.wien import WienRules  # noqa: E402
from engine.tricks import FOLLOW_TRUMP, HEAD, HEAD_LOW, Obligations, suit_order  # noqa: E402

SEATS = ("anna", "bert", "carl")
WIEN = "wien"
"""The rule set the others are measured against (issue 25: each at least 0.8 × wien's)."""


def best_of(runs: int, fn: Callable[[], float]) -> float:
    """The best rate of ``runs`` timed runs (the least disturbed by other processes)."""
    return max(fn() for _ in range(runs))


def fast_hands(n: int, rules: WienRules) -> float:
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(n):
        play_random_hand(rules, 200, rng)
    return n / (time.perf_counter() - start)


def board_playouts(n: int, duty: tuple[Obligations, ...] = (HEAD, HEAD_LOW, HEAD)) -> float:
    """Card play only, on the shared board: ten tricks of random legal cards from a random deal
    of 3 x 10 cards, trumps drawn from the four suits and none, under ``duty`` (default wien's
    obligations: Largierpflicht for the player after the leader)."""
    rng = random.Random(3)
    orders = [suit_order(PIQUET, t) for t in (None, 0, 1, 2, 3)]
    cards = list(range(32))
    rand = rng.random
    start = time.perf_counter()
    for _ in range(n):
        for i in range(31, 0, -1):  # Fisher-Yates, as the fast path deals
            j = int(rand() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        board = CardBoard([sum(1 << c for c in cards[i * 10 : i * 10 + 10]) for i in range(3)])
        board.start_tricks(orders[int(rng.random() * 5)], duty, 0, 0b111)
        while board.tricks < 10:
            mask = board.legal_card_mask()
            for _ in range(int(rng.random() * mask.bit_count())):
                mask &= mask - 1
            board.play_card((mask & -mask).bit_length() - 1)
    return n / (time.perf_counter() - start)


def rule_set_hands(n: int, name: str, example: int = 0) -> float:
    """Complete random hands per second of rule set ``name`` on its fast path
    (``RuleSet.play_random_hand``), its example rules ``example`` (default the first) and second
    example carry."""
    rs = rule_set(name)
    rules = rs.parse_rules(rs.examples[example])
    carry = rs.read_carry(rs.carry_examples[min(1, len(rs.carry_examples) - 1)])
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(n):
        rs.play_random_hand(rules, carry, rng)
    return n / (time.perf_counter() - start)


def bench_sets() -> list[tuple[str, str, int]]:
    """Each registered rule set, those registered for the engine only too, once per convention
    among its examples (``preferans``: ``sochi``, ``leningrad``, ``rostov``; the others have
    none, so once): its label, name and example index."""
    out = []
    for rs in rule_sets(include_engine_only=True):
        seen: set[object] = set()
        for i, example in enumerate(rs.examples):
            convention = example.get("convention")
            if convention not in seen:
                seen.add(convention)
                out.append((f"{rs.name} {convention}" if convention else rs.name, rs.name, i))
    return out


def rule_set_duty(name: str) -> tuple[Obligations, ...]:
    """The card-play obligations of rule set ``name``'s default table, for the playouts."""
    if name == WIEN:
        return (HEAD, HEAD_LOW, HEAD)
    rs = rule_set(name)
    family = getattr(rs, "family", None)
    if family is None:  # preferans: follow suit, else trump; no duty to beat
        return (FOLLOW_TRUMP, FOLLOW_TRUMP, FOLLOW_TRUMP)
    duty = family.obligations(rs.parse_rules(rs.examples[0]))
    return (duty, duty, duty)


def per_rule_set(args: argparse.Namespace) -> list[tuple[str, str, float, float]]:
    """Every registered rule set's complete random hands/s (per convention, :func:`bench_sets`)
    and board playouts/s: label, name, hands/s, playouts/s; measured in turns (best of
    ``args.runs``) so that a busy machine disturbs them alike."""
    sets = bench_sets()
    names = list(dict.fromkeys(name for _, name, _ in sets))
    hands = {label: 0.0 for label, _, _ in sets}
    playouts = {name: 0.0 for name in names}
    for _ in range(args.runs):
        for label, name, example in sets:
            hands[label] = max(hands[label], rule_set_hands(args.hands // 2, name, example))
        for name in names:
            rate = board_playouts(args.hands // 2, rule_set_duty(name))
            playouts[name] = max(playouts[name], rate)
    return [(label, name, hands[label], playouts[name]) for label, name, _ in sets]


PULYA_DEALS = 100
PULYA_RULES = {
    "variant": "preferans",
    "convention": "sochi",
    "pool_target": 1000,
    "whist_value": 10,
}
"""A pool target no 100 random deals reach, so the whole pulya is scored."""


def pulya_records(deals: int = PULYA_DEALS) -> dict[str, dict[str, object]]:
    """A Preferans pulya of ``deals`` random deals (the random bot on the validating path,
    dealers in turn) as two records for ``engine.settle``: of score-sheet entries and of full
    records (deal and actions, replayed and checked when settled)."""
    rs = rule_set("preferans")
    rng = random.Random(100)
    seats = ["a", "b", "c"]
    entries, fulls = [], []
    for n in range(deals):
        dealer = seats[(n + 2) % 3]
        common = {"rules": PULYA_RULES, "seats": seats, "dealer": dealer}
        order, _ = rs.shuffled_deck(rng)
        deal = rs.deal_from_deck(order, rs.active_seats(seats, dealer))
        state = replay({**common, "deal": deal, "actions": []})
        while not state.is_over:
            state = apply(state, rs.random_action(state, rng))
        entries.append({k: v for k, v in sheet_entry(state).items() if k in rs.sheet_keys})
        record = to_record(state)
        fulls.append({"deal": record["deal"], "actions": record["actions"]})
    base = {"rules": PULYA_RULES, "seats": seats, "dealer": "c"}
    return {"entries": {**base, "deals": entries}, "full": {**base, "deals": fulls}}


def pulya_seconds(runs: int) -> dict[str, float]:
    """The best time of ``runs`` to settle each form of :func:`pulya_records` (``engine.settle``:
    every deal scored on the running sheet, then the §11 settlement); both forms must agree."""
    records = pulya_records()
    out: dict[str, float] = {}
    settled = []
    for form, record in records.items():
        best = float("inf")
        for _ in range(runs):
            start = time.perf_counter()
            answer = settle(record)
            best = min(best, time.perf_counter() - start)
        out[form] = best
        settled.append(answer["settlement"])
    assert settled[0] == settled[1], "the two forms of one pulya settle alike"
    return out


def random_state(rng: random.Random, rules: WienRules) -> HandState:
    cards = list(range(32))
    rng.shuffle(cards)
    deal = {s: sum(1 << c for c in cards[i * 10 : i * 10 + 10]) for i, s in enumerate(SEATS)}
    deal["talon"] = (1 << cards[30]) | (1 << cards[31])
    return new_hand(rules, SEATS, "carl", 200, deal)


def validating_hands(n: int, rules: WienRules) -> tuple[float, list[HandState]]:
    """Whole hands through the validating ``apply``; also collects positions for legal_actions."""
    rng = random.Random(2)
    states: list[HandState] = []
    start = time.perf_counter()
    for _ in range(n):
        state = random_state(rng, rules)
        while not state.is_over:
            if len(states) < 20000:
                states.append(state)
            state = apply(state, choose(state, rng))
        settle_outcome(outcome(state))
    return n / (time.perf_counter() - start), states


def legal_calls(states: list[HandState]) -> float:
    start = time.perf_counter()
    for s in states:
        legal_actions(s)
    return len(states) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50000, help="hands per fast-path run")
    parser.add_argument("--runs", type=int, default=3, help="timed runs; the best is reported")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rules = WienRules(100, 300)
    hands = best_of(args.runs, lambda: fast_hands(args.hands, rules))
    playouts = best_of(args.runs, lambda: board_playouts(args.hands))
    slow, states = validating_hands(max(args.hands // 20, 200), rules)
    legal = best_of(args.runs, lambda: legal_calls(states))
    rows = per_rule_set(args)
    pulya = pulya_seconds(args.runs)
    offered = {rs.name for rs in rule_sets()}
    wien_hands, wien_playouts = next((h, p) for _, n, h, p in rows if n == WIEN)
    table = "".join(
        f"| `{label}`{'' if name in offered else ' (engine only)'} | {h:,.0f} "
        f"| {h / wien_hands:.2f} | {p:,.0f} | {p / wien_playouts:.2f} |\n"
        for label, name, h, p in rows
    )
    body = (
        "| figure | value | target |\n|---|---|---|\n"
        f"| complete random hands/s, fast path (`engine.fast.play_random_hand`) | {hands:,.0f} "
        "| ≥ 10,000 |\n"
        f"| card-play playouts/s, shared board (`engine.board.CardBoard`, 10 tricks) "
        f"| {playouts:,.0f} | — |\n"
        f"| complete random hands/s, validating `engine.apply` + `settle` | {slow:,.0f} | — |\n"
        f"| `engine.legal_actions` calls/s ({len(states):,} positions from random hands) "
        f"| {legal:,.0f} | — |\n" + "\n"
        "Hands are dealt from a shuffled deck and played by the `random` bot policy (most players "
        "pass, one in ten looks into the talon), so every kind of game occurs; best of "
        f"{args.runs} runs of {args.hands:,} hands, pinned to one core.\n\n"
        "Per rule set (issue 25: each at least 0.8 × wien's in the same run; measured in turns, "
        f"best of {args.runs} runs of {args.hands // 2:,} hands or playouts, the first example "
        "rules (Preferans: the first of each convention, deals of three seats), the playouts "
        "under the set's obligations):\n\n"
        "| rule set | complete random hands/s | × wien | board playouts/s | × wien |\n"
        f"|---|---|---|---|---|\n{table}\n"
        f"Settling a Preferans pulya of {PULYA_DEALS} deals (`engine.settle`, Sochi; every "
        "deal scored on the running sheet, then the §11 settlement; best of "
        f"{args.runs}): {pulya['entries'] * 1000:.1f} ms from score-sheet entries, "
        f"{pulya['full'] * 1000:.0f} ms from full records (each deal replayed and checked "
        "card by card).\n\n"
        "Measured before optimising: the first fast path made 9,897 hands/s; cProfile showed "
        "the shuffle (`random.shuffle`), listing a mask's cards to pick one, and rebuilding "
        "each trick's players as the cost. Fisher–Yates on `random()`, picking the k-th set "
        "bit directly and remembering who played each card brought it to the figure above. "
        "The validating path is the reference, not the one bots and simulations use. "
        "Preferans's first fast path bid and whisted on the validating states and made "
        "4,702 to 4,881 deals/s (0.14 to 0.15 × wien); cProfile showed the frozen state "
        "rebuilt per action as the cost. One mutable `FastDeal` stepped in place, the "
        "auction and whist choices asked of the same functions as the validating path, and "
        "a cheaper shuffle, scoring and board playout brought it to the figures above.\n"
    )
    if not args.no_write:
        write_section("engine", "Engine (issue 3)", body)
    for label, name, h, p in rows:
        print(
            f"{label}{'' if name in offered else ' (engine only)'}: "
            f"hands/s {h:,.0f} ({h / wien_hands:.2f} × wien), "
            f"playouts/s {p:,.0f} ({p / wien_playouts:.2f} × wien)"
        )
    print(
        f"pulya of {PULYA_DEALS} deals settled: {pulya['entries'] * 1000:.1f} ms (entries), "
        f"{pulya['full'] * 1000:.0f} ms (full records)"
    )
    print(f"board playouts/s: {playouts:,.0f}")
    print(f"validating hands/s: {slow:,.0f}")
    print(f"legal_actions/s: {legal:,.0f}")
    print(f"hands/s: {hands:.0f}")


if __name__ == "__main__":
    main()
