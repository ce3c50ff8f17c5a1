"""A ``trickgame`` deal as a score sheet records it (``bids``, ``taken``), and what it pays.

Every payment is player to player (``why`` ``exact`` and ``nil``), so a deal's changes sum
to zero and nothing carries to the next deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.transfers import Book
from tests.trickgame.hand import TRICKS, State, game_json, high_bidder, hook
from tests.trickgame.rules import TrickRules

REASONS = ("exact", "nil")
"""Every ``why`` of a ``trickgame`` transfer."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished deal: the players (forehand first), their bids and the tricks they took."""

    rules: TrickRules
    seats: tuple[str, ...]
    dealer: str
    active: tuple[str, ...]
    bids: tuple[int, ...]
    taken: tuple[int, ...]


def outcome(s: State) -> Outcome:
    if not s.is_over:
        raise EngineError("", "the hand is not over yet")
    return Outcome(s.rules, s.seats, s.dealer, s.active, s.bids, s.taken)


def _per_player(record: Mapping[str, Any], key: str, active: tuple[str, ...]) -> tuple[int, ...]:
    value = record.get(key)
    if not isinstance(value, dict) or set(value) != set(active):
        raise EngineError(key, f"{key} must give a number for each of {', '.join(active)}")
    out = []
    for seat in active:
        n = value[seat]
        if type(n) is not int or not 0 <= n <= TRICKS:
            raise EngineError(f"{key}.{seat}", f"{seat}'s {key} must be 0 to {TRICKS}, not {n!r}")
        out.append(n)
    return tuple(out)


def parse_entry(
    record: Mapping[str, Any], rules: TrickRules, seats: tuple[str, ...], dealer: str,
    active: tuple[str, ...],
) -> Outcome:  # fmt: skip
    """A score-sheet entry: ``bids`` and ``taken``, each seat to a number, checked against the
    rules (the tricks taken add up to 4; the dealer's bid did not break the hook)."""
    bids = _per_player(record, "bids", active)
    taken = _per_player(record, "taken", active)
    if sum(taken) != TRICKS:
        raise EngineError("taken", f"the tricks taken must add up to {TRICKS}, not {sum(taken)}")
    if bids[-1] == hook(bids[:-1]):
        raise EngineError(
            f"bids.{active[-1]}",
            f"{active[-1]} deals and may not bring the bids to exactly {TRICKS} (the hook)",
        )
    return Outcome(rules, seats, dealer, active, bids, taken)


def entry_json(o: Outcome) -> dict[str, Any]:
    return {
        "bids": dict(zip(o.active, o.bids, strict=True)),
        "taken": dict(zip(o.active, o.taken, strict=True)),
    }


def settle(o: Outcome) -> dict[str, Any]:
    """The Result: each exact player is paid ``(bid + 1) × trick_value`` by each player who
    missed; an exact nil also ``nil_bonus`` by each other player."""
    book = Book()
    exact = [i for i, bid in enumerate(o.bids) if bid == o.taken[i]]
    for i in exact:
        for j, payer in enumerate(o.active):
            if j not in exact:
                book.pay(payer, o.active[i], (o.bids[i] + 1) * o.rules.trick_value, "exact")
    for i in exact:
        if o.bids[i] == 0:
            for j, payer in enumerate(o.active):
                if j != i:
                    book.pay(payer, o.active[i], o.rules.nil_bonus, "nil")
    delta = dict.fromkeys(o.seats, 0)
    for t in book.transfers:
        delta[t["from"]] -= t["amount"]
        delta[t["to"]] += t["amount"]
    top = high_bidder(o.bids)
    return {
        "game": game_json(o.bids),
        "declarer": None if top is None else o.active[top],
        "made": None if top is None else top in exact,
        "bids": dict(zip(o.active, o.bids, strict=True)),
        "tricks": dict(zip(o.active, o.taken, strict=True)),
        "exact": [o.active[i] for i in exact],
        "transfers": book.transfers,
        "delta": delta,
    }
