"""The DDV series at a table (``doppelkopf-ddv``): what the page leaves to the table level
(``spec/next/doppelkopf.md``, "Not covered": "the Pflichtsolo quota per round and the
Vorführung").

A *round* (Runde, our "series") is 24 deals at a table of four. Each player owes one
Pflichtsolo per round: a deal whose solo is a Pflichtsolo is dealt again by the same dealer and
does not count towards the 24 (the page's Pflichtsolo rule). A player who has not played his
when the 24 deals are done is *vorgeführt* (Vorführung): he plays it in an extra deal in which
he sits forehand (the seat before him deals) and must reserve a solo; that deal does not count
either. The owing players are vorgeführt one after the other in playing order from the first
dealer's left. Once nobody owes one, the next round begins with every player owing again.

Plain Python over the Results of a table's deals in order: the games app asks it for the next
deal's dealer and carry (``pflicht_owed``, and ``vorfuehrung`` naming the player who must play
a solo) and shows a table where its round stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ROUND_DEALS = 24
"""Deals that count towards a round at a table of four (DDV: "Eine Spielrunde hat 24
Spiele")."""


@dataclass(frozen=True, slots=True)
class Series:
    """Where a table stands before its next deal: the ``round`` (1 first), the ``counted``
    deals of it so far (of :data:`ROUND_DEALS`), the seats that still owe their Pflichtsolo
    (``pflicht_owed``, in playing order), the seat vorgeführt in the next deal
    (``vorfuehrung``, or ``None``), and the next deal's ``dealer``."""

    round: int
    counted: int
    pflicht_owed: tuple[str, ...]
    vorfuehrung: str | None
    dealer: str

    def carry(self) -> dict[str, Any]:
        """The next deal's carry keys: ``pflicht_owed`` and, in a Vorführung, ``vorfuehrung``."""
        out: dict[str, Any] = {"pflicht_owed": list(self.pflicht_owed)}
        if self.vorfuehrung is not None:
            out["vorfuehrung"] = self.vorfuehrung
        return out

    def to_json(self) -> dict[str, Any]:
        """The table's round as the API shows it."""
        return {
            "round": self.round,
            "deals": ROUND_DEALS,
            "counted": self.counted,
            "pflicht_owed": list(self.pflicht_owed),
            "vorfuehrung": self.vorfuehrung,
            "dealer": self.dealer,
        }


def is_pflicht(result: Mapping[str, Any]) -> bool:
    """Whether a deal's Result is a Pflichtsolo (its ``game.pflicht``)."""
    game = result.get("game") or {}
    return bool(game.get("pflicht"))


def _next(seats: Sequence[str], seat: str) -> str:
    return seats[(list(seats).index(seat) + 1) % len(seats)]


def _before(seats: Sequence[str], seat: str) -> str:
    return seats[(list(seats).index(seat) - 1) % len(seats)]


def _opening(seats: Sequence[str], dealer: str, number: int) -> Series:
    """A round's start: everybody owes, in playing order from the dealer's left."""
    i = list(seats).index(dealer)
    owed = tuple(seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1))
    return Series(number, 0, owed, None, dealer)


def series_after(
    seats: Sequence[str], first_dealer: str, results: Sequence[Mapping[str, Any]]
) -> Series:
    """Where the table stands after the deals whose Results are ``results``, in order, when
    ``first_dealer`` dealt the first deal.

    Each Result: a Pflichtsolo (``game.pflicht``) clears its soloist (``re[0]``) and keeps the
    dealer; any other deal counts and moves the deal on, except in a Vorführung, which never
    counts: its player is cleared when he played his solo (the engine allows him nothing
    else). After the 24th counted deal the owing players are vorgeführt in turn; once nobody
    owes, a new round begins with the next dealer in turn after the last counted deal's."""
    s = _opening(seats, first_dealer, 1)
    dealer_after_round = first_dealer
    for result in results:
        owed = s.pflicht_owed
        if is_pflicht(result):
            soloist = result["re"][0]
            owed = tuple(p for p in owed if p != soloist)
            s = Series(s.round, s.counted, owed, None, s.dealer)
        elif s.vorfuehrung is None:
            counted = s.counted + 1
            s = Series(s.round, counted, owed, None, _next(seats, s.dealer))
            dealer_after_round = s.dealer
        if s.counted >= ROUND_DEALS:
            if s.pflicht_owed:
                who = s.pflicht_owed[0]
                s = Series(s.round, s.counted, s.pflicht_owed, who, _before(seats, who))
            else:
                s = _opening(seats, dealer_after_round, s.round + 1)
    return s


__all__ = ["ROUND_DEALS", "Series", "is_pflicht", "series_after"]
