"""What a talon-family deal pays: the transfers of a :class:`engine.transfers.Book`, the pot's
antes, and the Result (``hand-record.md``: ``stake`` null; ``spec/next/``)."""

from __future__ import annotations

from typing import Any

from engine.rules.family.outcome import Outcome
from engine.transfers import Book, totals

POT = "pot"
FALLS = ("fall", "bete")


class Tally(Book):
    """The same payments as a :class:`Book`, summed instead of listed: each seat's change and
    what went into and out of the pot (the fast path's settlement, proven equal to the listed
    one by ``tests/engine/test_family_fast.py``)."""

    __slots__ = ("delta", "into", "out")

    def __init__(self, seats: tuple[str, ...]) -> None:
        Book.__init__(self)
        self.delta = dict.fromkeys(seats, 0)
        self.into = 0
        self.out = 0

    def pay(self, payer: str, payee: str, amount: int, why: str) -> None:
        if amount:
            if payer == POT:
                self.out += amount
            else:
                self.delta[payer] -= amount
            if payee == POT:
                self.into += amount
            else:
                self.delta[payee] += amount


def ante_rounds(holds: int, owed: int, seats: int, ante: int) -> int:
    """k, the fewest rounds of antes from ``seats`` seats that let a pot holding ``holds`` pay
    ``owed`` (0 when it can)."""
    return -(-(owed - holds) // (ante * seats)) if holds < owed else 0


def with_antes(
    book: Book, pot_before: int, seats: tuple[str, ...], ante: int
) -> list[dict[str, Any]]:
    """``spec/next/austria-variants.md``, "Pot": the payments into the pot first; then, if the
    pot holds less than it must pay out, every seat pays k antes (k the fewest rounds that
    cover the payout, one transfer each, ``why: "ante"``); then the pot pays; payments between
    players keep their order after those."""
    into: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    holds, owed = pot_before, 0
    for t in book.transfers:
        if t["to"] == POT:
            into.append(t)
            holds += t["amount"]
        elif t["from"] == POT:
            out.append(t)
            owed += t["amount"]
        else:
            rest.append(t)
    k = ante_rounds(holds, owed, len(seats), ante)
    if k:
        into += [{"from": s, "to": POT, "amount": k * ante, "why": "ante"} for s in seats]
    return into + out + rest


def result(
    o: Outcome,
    transfers: list[dict[str, Any]],
    made: bool | None,
    *,
    party: str | None = POT,
    **more: Any,
) -> dict[str, Any]:
    """The Result of a deal: transfers summed into ``delta`` and the pot after it; ``fallen``
    lists, in playing order, every player who paid a ``fall`` or ``bete``."""
    if party is None:
        delta = dict.fromkeys(o.seats, 0)
        for t in transfers:
            delta[t["from"]] -= t["amount"]
            delta[t["to"]] += t["amount"]
        pot: int | None = None
    else:
        delta, pot = totals(transfers, o.seats, party, o.carry["pot"])
    payers = {t["from"] for t in transfers if t["why"] in FALLS}
    return {
        "stake": None,
        "declarer": o.declarer,
        "game": None if o.game is None else o.game.to_json(),
        "made": made,
        "fallen": [p for p in o.active if p in payers],
        "tricks": dict(o.tricks),
        "delta": delta,
        "pot": pot,
        "transfers": transfers,
        **more,
    }
