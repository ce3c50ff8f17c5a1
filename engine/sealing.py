"""A deck sealed before the first call (hand-record.md, "Deal commitment"): a shuffled order
of a rule set's deck, a fresh salt, and the commitment published before the deal is played,
``SHA-256(salt + "|" + " ".join(order))``. A server stores the three and shows the
commitment at once, the order and salt once the hand is over (or, for a duplicate board,
once every table played it)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass


def commitment(salt: str, deck_order: Sequence[str]) -> str:
    """SHA-256 hex of ``salt + "|" + " ".join(deck)``."""
    return hashlib.sha256(f"{salt}|{' '.join(deck_order)}".encode()).hexdigest()


@dataclass(frozen=True)
class SealedDeck:
    """A deck order, its salt and their commitment (:func:`commitment`)."""

    order: tuple[str, ...]
    salt: str
    commitment: str

    @classmethod
    def of(cls, order: Sequence[str], salt: str) -> SealedDeck:
        """The sealed deck of a given order and salt (a duplicate board dealt again)."""
        return cls(tuple(order), salt, commitment(salt, order))
