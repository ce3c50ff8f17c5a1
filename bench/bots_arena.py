"""The bot levels against each other: ``python -m engine arena`` on duplicate deals, its
figures written into docs/bots.md (the "Arena" section) and into docs/benchmarks.md (the time
a ``pimc`` move takes).

    .venv/bin/python bench/bots_arena.py [--deals 10000] [--samples 20] [--jobs 2] [--seed 1]
        [--variant wien] [--no-write] [--timing-only]

Two matches per rule set, each on ``--deals`` duplicate deals (every deal played in every
seating, so the cards' luck cancels), with the rule set's first example rules:

- ``heuristic`` against two ``random`` bots (``heuristic,random,random``: 3 seatings);
- ``pimc:N`` against two ``heuristic`` bots (``pimc:N,heuristic,heuristic``), ``N`` =
  ``--samples`` deals sampled for every card (the strength; the arena plays without a clock);

and, on ``--compare-deals`` deals, what the simulated bidding, discarding, declaring and
defence add: ``pimc:N`` against two ``pimc-cards:N`` (the same card play, every other choice
the heuristic's).

Then the time of ``pimc`` moves at a table's default strength (100 deals a card, no deadline)
over random hands: the opening lead and the moves from the fourth trick on (targets: p95 ≤ 3 s
for the lead with ≥ 30 deals, ≤ 1 s from the fourth trick with ≥ 100). Each hand starts as a
new table's first (``RuleSet.opening_carry``: Preferans on an empty sheet). ``--timing-only``
times the moves of ``--variant`` and prints them, writing nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bench.report import write_section  # noqa: E402
from engine.bots import random_bot  # noqa: E402
from engine.bots.arena import arena  # noqa: E402
from engine.bots.levels import policy_for  # noqa: E402
from engine.bots.pimc import DEFAULT_SAMPLES, choose_card  # noqa: E402
from engine.solver.native import available  # noqa: E402

BOTS_DOC = ROOT / "docs" / "bots.md"


def match_rows(report: dict[str, Any]) -> str:
    unit = report["unit"]
    rows = ""
    for name, figures in report["bots"].items():
        low, high = figures["ci95"]
        rows += f"| {name} | {figures['mean']:+.2f} {unit} | [{low:+.2f}, {high:+.2f}] |\n"
    for name, figures in report["differences"].items():
        low, high = figures["ci95"]
        verdict = "excludes 0" if low > 0 or high < 0 else "includes 0"
        mean = f"**{figures['mean']:+.2f} {unit}**"
        rows += f"| **{name}** | {mean} | [{low:+.2f}, {high:+.2f}] ({verdict}) |\n"
    return rows


TABLE_BUDGET = 1.0
"""A table's default ``bot_budget_ms``, in seconds."""
CHOICES = 40
"""Choices other than a card timed (each up to :data:`TABLE_BUDGET`)."""


def pimc_times(variant: str, hands: int, seed: int) -> dict[str, list[float]]:
    """Seconds per ``pimc`` card decision (default strength, no deadline) in random hands:
    ``lead`` (the first card of the hand) and ``later`` (from the fourth trick on); and
    ``choice``: the first :data:`CHOICES` other choices with more than one candidate (bids,
    discards, declarations, defence) as a table's bot makes them, by simulation within the
    table's default budget."""
    rs = engine.rule_set(variant)
    parsed = rs.parse_rules(rs.examples[0])
    out: dict[str, list[float]] = {"lead": [], "later": [], "choice": []}
    rng = random.Random(seed)
    table_bot = policy_for(rs, "pimc", budget=TABLE_BUDGET)
    for h in range(hands):
        deal_rng = random.Random(f"{seed}:{h}")
        order, _ = rs.shuffled_deck(deal_rng)
        seats = ["anna", "bert", "carl"]
        deal = rs.deal_from_deck(order, rs.active_seats(seats, "carl"))
        # what a new table carries (Preferans: an empty sheet, so choices are worth whists)
        carry = {**rs.carry_examples[0], **rs.opening_carry(parsed, seats)}
        state = engine.replay(
            {"rules": rs.examples[0], "seats": seats, "dealer": "carl", **carry,
             "deal": deal, "actions": []}
        )  # fmt: skip
        first = True
        while not state.is_over:
            pos = rs.card_play(state)
            if pos is not None:
                seat = rs.sender(state, pos.seats[pos.to_act])
                belief = rs.card_play_view(engine.view(state, seat))
                assert belief is not None
                started = time.perf_counter()
                choose_card(belief, rng, DEFAULT_SAMPLES)
                took = time.perf_counter() - started
                if first:
                    out["lead"].append(took)
                elif pos.tricks_left <= 7:
                    out["later"].append(took)
                first = False
            elif table_bot is not None and len(out["choice"]) < CHOICES:
                seat = next(s for s in state.seats if s in rs.to_act(state))
                view = engine.view(state, seat)
                if len(rs.bot_candidates(view, view.get("legal", []))) > 1:
                    started = time.perf_counter()
                    table_bot(view, view["legal"], rng)
                    out["choice"].append(time.perf_counter() - started)
            state = engine.apply(state, random_bot.choose(state, deal_rng))
    return out


def quantile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=20, help="pimc's deals per card")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="wien")
    parser.add_argument(
        "--compare-deals", type=int, default=2_000, help="deals of pimc against pimc-cards"
    )
    parser.add_argument("--timing-hands", type=int, default=60)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--timing-only", action="store_true", help="time pimc's moves only (no matches, no write)"
    )
    args = parser.parse_args()
    rs = engine.rule_set(args.variant)
    rules = rs.examples[0]
    body = (
        f"Rule set `{args.variant}`, rules `{rules}`; {args.deals:,} duplicate deals per "
        f"match ({args.compare_deals:,} for pimc against pimc-cards), each played in every "
        "seating of the bots (`python -m engine arena`); money "
        "per deal (the Result's `delta`; the pot takes the rest), mean and 95 % interval "
        "over the deals (mean ± 1.96 · sd / √n), and the paired difference of the two "
        f"levels. Compiled solver: {'yes' if available else 'no'}.\n\n"
    )
    n = args.samples
    matches = (
        ("heuristic,random,random", args.deals),
        (f"pimc:{n},heuristic,heuristic", args.deals),
        (f"pimc:{n},pimc-cards:{n},pimc-cards:{n}", args.compare_deals),
    )
    for bots, deals in () if args.timing_only else matches:
        started = time.monotonic()
        report = arena(rules, bots.split(","), deals, args.seed, args.jobs)
        took = time.monotonic() - started
        body += (
            f"`--bots {bots}` ({report['seatings']} seatings, {took / 60:.0f} min on "
            f"{args.jobs} processes):\n\n| bot | per deal | 95 % interval |\n|---|---|---|\n"
            + match_rows(report)
            + "\n"
        )
        print(bots, report["differences"])
    times = pimc_times(args.variant, args.timing_hands, args.seed)
    timing = (
        f"`pimc` at its default strength ({DEFAULT_SAMPLES} sampled deals a card, no deadline), "
        f"one process, over {args.timing_hands} random `{args.variant}` hands (the random bot "
        "bidding): seconds per card decision; and the other choices with more than one "
        f"candidate (the first {CHOICES}) as a table's pimc bot makes them, by simulation within "
        "its default budget of 1 s.\n\n"
        "| moves | count | mean | p50 | p95 | max |\n|---|---|---|---|---|---|\n"
    )
    rows = (
        ("opening lead", times["lead"]),
        ("from the 4th trick", times["later"]),
        ("other choices, simulated (table budget 1 s)", times["choice"]),
    )
    for label, values in rows:
        if not values:
            continue
        timing += (
            f"| {label} | {len(values)} | {statistics.fmean(values):.3f} | "
            f"{quantile(values, 0.5):.3f} | {quantile(values, 0.95):.3f} | {max(values):.3f} |\n"
        )
    print(timing)
    if not args.no_write and not args.timing_only:
        write_section("arena", "Arena", body, BOTS_DOC)
        write_section("pimc", "pimc bot: time per move", timing)


if __name__ == "__main__":
    main()
