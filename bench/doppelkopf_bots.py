"""Doppelkopf bots: the heuristic bot (``engine/rules/doppelkopf/heuristic.py``) at one seat
against three random bots, for rule sets ``doppelkopf`` and ``doppelkopf-ddv``.

    .venv/bin/python bench/doppelkopf_bots.py [--deals 2000] [--seed 1] [--no-write]

Each rule set plays ``--deals`` deals at a table of ``anna bert carl dora`` (dora deals, so
anna is forehand); the heuristic sits at anna in the first deal, bert in the second and so
on, so it plays every position alike. Every deal is dealt from a shuffled deck
(``rule_set.shuffled_deck`` on a ``random.Random(seed)``; both rule sets get the same deals)
and played on the validating path (``engine.apply``), then settled
(``rule_set.settle_outcome(rule_set.outcome(state))``):

- ``doppelkopf``: rules ``{"variant": "doppelkopf", "base": 20, "ante": 10}``, an empty
  Kasse before every deal (``{"kasse": 0}``), so deals are independent;
- ``doppelkopf-ddv``: rules ``{"variant": "doppelkopf-ddv", "point_value": 10}``.

Who acts: when the seat to reserve or play is the heuristic's, the heuristic chooses from its
view (``engine.view(state, seat)``) and that view's ``legal``. Otherwise the random policy
(``rule_set.random_action``) draws an action; under the DDV rules it may draw an announcement
of any seat in time, the heuristic's included. When it draws one of the heuristic seat's, the
heuristic decides instead: it answers an action from its view (an announcement) or ``None``,
and then the random policy draws again until it draws an action of another seat. So the
heuristic announces on its own turns (in time: a party's word needs 11 cards, so in its first
two turns) and when the random policy offers it a chance; it is never asked between other
seats' moves otherwise.

Figures per rule set: the mean result per deal in cents (the Result's ``delta``) of the
heuristic seat, of a random seat (the mean of the three), and of their difference per deal
(paired: heuristic minus the random seats' mean), each with a 95 % interval (mean ± 1.96 ·
sd / √n); under the DDV rules the same in game points (the Result's ``score``). Then how often
the heuristic's party won, and its games. Writes its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bench.report import write_section  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.rules.doppelkopf import heuristic as doppelkopf_heuristic  # noqa: E402

SEATS = ("anna", "bert", "carl", "dora")
DEALER = "dora"
TABLES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "doppelkopf": ({"variant": "doppelkopf", "base": 20, "ante": 10}, {"kasse": 0}),
    "doppelkopf-ddv": ({"variant": "doppelkopf-ddv", "point_value": 10}, {}),
}
"""Each rule set's rules and the carry before every deal."""
Z95 = 1.96


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval, 1.96 · sd / √n."""
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def heuristic_action(rs: Any, state: Any, seat: str, rng: random.Random) -> Action | None:
    """The heuristic's choice for ``seat``, from its view only, read as an action."""
    view = engine.view(state, seat)
    chosen = doppelkopf_heuristic.choose(view, view["legal"], rng)
    if chosen is None:
        return None
    action: Action = rs.action_from_json(chosen, "heuristic")
    return action


def next_action(
    rs: Any, state: Any, hero: str, policy: random.Random, bot: random.Random
) -> Action:
    """The next action of the hand (module docstring, "Who acts")."""
    if state.active[state.turn] == hero:
        action = heuristic_action(rs, state, hero, bot)
        assert action is not None, "the heuristic must reserve or play on its turn"
        return action
    while True:
        drawn: Action = rs.random_action(state, policy)
        if drawn.seat != hero:
            return drawn
        action = heuristic_action(rs, state, hero, bot)
        if action is not None:
            return action


def play_deal(
    variant: str, hero: str, deals: random.Random, policy: random.Random, bot: random.Random
) -> dict[str, Any]:
    """One deal dealt from ``deals``, played and settled: its Result."""
    rs = engine.rule_set(variant)
    rules_json, carry = TABLES[variant]
    rules = rs.parse_rules(rules_json)
    order, _ = rs.shuffled_deck(deals)
    deal = rs.deal_from_deck(order, rs.active_seats(SEATS, DEALER))
    state = rs.start_hand(rules, SEATS, DEALER, carry, deal)
    while not state.is_over:
        state = engine.apply(state, next_action(rs, state, hero, policy, bot))
    result: dict[str, Any] = rs.settle_outcome(rs.outcome(state))
    return result


@dataclass
class Tally:
    """What one rule set's deals came to, per deal."""

    hero: list[float] = field(default_factory=list)
    random: list[float] = field(default_factory=list)
    hero_score: list[float] = field(default_factory=list)
    random_score: list[float] = field(default_factory=list)
    won: int = 0
    games: Counter[str] = field(default_factory=Counter)
    games_won: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, result: dict[str, Any], hero: str) -> None:
        others = [s for s in SEATS if s != hero]
        self.hero.append(result["delta"][hero])
        self.random.append(statistics.fmean(result["delta"][s] for s in others))
        if "score" in result:
            self.hero_score.append(result["score"][hero])
            self.random_score.append(statistics.fmean(result["score"][s] for s in others))
        party = "re" if hero in result["re"] else "kontra"
        game = describe(result, hero)
        self.games[game] += 1
        if result["winner"] == party:
            self.won += 1
            self.games_won[game] += 1


def describe(result: dict[str, Any], hero: str) -> str:
    """The heuristic's game: ``soloist`` (any solo, a stilles or Heimliches Solo, Karlchen, a
    lone Hochzeit), ``against a solo``, ``Hochzeit (Re)`` / ``Hochzeit (Kontra)``, ``Re`` or
    ``Kontra`` (a normal game)."""
    re = result["re"]
    hochzeit = result["game"]["type"] == "hochzeit"
    if len(re) == 1 and hero in re:
        return "soloist"
    if len(re) == 1 and not hochzeit:
        return "against a solo"
    if hochzeit:
        return "Hochzeit (Re)" if hero in re else "Hochzeit (Kontra)"
    return "Re" if hero in re else "Kontra"


def run(variant: str, deals: int, seed: int) -> Tally:
    """``deals`` deals of ``variant``, the heuristic at each seat in turn."""
    tally = Tally()
    deal_rng, policy, bot = random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)
    start = time.perf_counter()
    for n in range(deals):
        hero = SEATS[n % len(SEATS)]
        tally.add(play_deal(variant, hero, deal_rng, policy, bot), hero)
    tally.seconds = time.perf_counter() - start
    return tally


def row(label: str, values: Sequence[float], unit: str) -> str:
    mean, half = interval(values)
    return f"| {label} | {mean:+.2f} {unit} | [{mean - half:+.2f}, {mean + half:+.2f}] |\n"


def section(variant: str, tally: Tally) -> str:
    """The figures of one rule set as Markdown."""
    rules, carry = TABLES[variant]
    n = len(tally.hero)
    diff = [h - r for h, r in zip(tally.hero, tally.random, strict=True)]
    text = (
        f"### `{variant}`\n\n"
        f"{n:,} deals, rules `{json.dumps(rules)}`"
        + (f", carry `{json.dumps(carry)}` before every deal" if carry else "")
        + f"; {tally.seconds:.0f} s.\n\n"
        "| per deal | mean | 95 % interval |\n|---|---|---|\n"
        + row("heuristic seat", tally.hero, "cents")
        + row("random seat (mean of three)", tally.random, "cents")
        + row("difference (heuristic − random)", diff, "cents")
    )
    if tally.hero_score:
        score_diff = [h - r for h, r in zip(tally.hero_score, tally.random_score, strict=True)]
        text += (
            row("heuristic seat", tally.hero_score, "points")
            + row("random seat (mean of three)", tally.random_score, "points")
            + row("difference (heuristic − random)", score_diff, "points")
        )
    games = ", ".join(
        f"{game} {count} (won {tally.games_won[game]})"
        for game, count in sorted(tally.games.items(), key=lambda kv: -kv[1])
    )
    text += f"\nThe heuristic's party won {tally.won / n:.1%} of the deals. Its games: {games}.\n"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per rule set")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args()
    body = (
        "The heuristic bot (`engine/rules/doppelkopf/heuristic.py`) at one seat against three "
        "random bots (`rule_set.random_action`), the heuristic's seat rotating each deal; "
        "every deal dealt from a seeded shuffle (the same deals for both rule sets), played "
        "on the validating path and settled. Results per deal of the heuristic seat, of a "
        "random seat (the mean of the other three) and of the paired difference, with 95 % "
        "intervals (mean ± 1.96 · sd / √n). Who acts when is in the script's docstring.\n\n"
    )
    for variant in TABLES:
        tally = run(variant, args.deals, args.seed)
        body += section(variant, tally) + "\n"
        for label, values in (("heuristic", tally.hero), ("random", tally.random)):
            mean, half = interval(values)
            print(f"{variant}: {label} {mean:+.2f} ± {half:.2f} cents per deal")
        diff = [h - r for h, r in zip(tally.hero, tally.random, strict=True)]
        mean, half = interval(diff)
        print(f"{variant}: difference {mean:+.2f} ± {half:.2f} cents per deal")
    if not args.no_write:
        write_section("doppelkopf-bots", "Doppelkopf bots", body)


if __name__ == "__main__":
    main()
