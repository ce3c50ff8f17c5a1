"""Tables and deals, for any rule set: who sits, who plays this deal, who gets which cards.

Terms: the *seats* (Plätze) are the players at the table in playing order, a fixed cycle; the
*dealer* (Geber) moves round it; the *active* players of a deal are the seats after the dealer
in that cycle, as many as the rule set's game needs, *forehand* (Vorhand) first. When more sit
at the table than play, the dealer sits out (Préférence with four); when all play, the dealer
is the last of them (Doppelkopf). A *pile* is a place cards are dealt to that is not a player,
such as the talon.

A :class:`TableShape` and a :class:`Dealing` are data a rule set gives; the functions here
check records against them and deal a deck order by them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.cards import Deck
from engine.errors import Message
from engine.messages import (
    DEAL_MISSING,
    DEAL_NOT_OBJECT,
    DEAL_NOT_OBJECT_PILES,
    DEAL_RECIPIENTS,
    DEAL_SIZE,
    DEAL_STRANGER,
    DEALER_NOT_A_SEAT,
    DEALT_TOO_OFTEN,
    DEALT_TWICE,
    DECLARER_MISSING,
    DECLARER_MISSING_CONTRACT,
    DECLARER_NOT_ACTIVE,
    DECLARER_SITS_OUT,
    SEAT_NAME_RESERVED,
    SEAT_NAMES_RESERVED,
    SEATS_COUNT,
    SEATS_NOT_UNIQUE,
)

_DECLARER_MISSING: dict[str, Message] = {
    "game": DECLARER_MISSING,
    "contract": DECLARER_MISSING_CONTRACT,
}


def words(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def read_declarer(
    record: Mapping[str, object], active: Sequence[str], seats: Sequence[str], game: str = "game"
) -> str:
    """An entry's ``declarer``: one of the deal's active players (``hand-record.md``), named
    in a sentence when missing, sitting out or no seat at all; ``game`` is what the declarer
    played in the rule set's words: ``"game"`` or ``"contract"``."""
    declarer = record.get("declarer")
    if declarer is None:
        raise _DECLARER_MISSING[game].error("declarer")
    if declarer in active:
        return str(declarer)
    if isinstance(declarer, str) and declarer in seats:
        raise DECLARER_SITS_OUT.error("declarer", declarer=declarer)
    players = words(list(active), "or")
    raise DECLARER_NOT_ACTIVE.error("declarer", players=players, declarer=repr(declarer))


@dataclass(frozen=True, slots=True)
class TableShape:
    """How many sit and play: ``seats`` the allowed numbers of seats, ``players`` the active
    players of a deal (the dealer sits out while there are more seats), ``reserved`` the names
    no seat may take (parties and piles of the rule set's records, such as ``pot``,
    ``talon``)."""

    seats: tuple[int, ...]
    players: int
    reserved: tuple[str, ...] = ()

    def check(self, seats: object, dealer: object) -> tuple[str, ...]:
        """Validate a record's ``seats`` and ``dealer``: an allowed number of unique names,
        none reserved, the dealer among them."""
        counts = words([str(n) for n in self.seats], "or")
        if (
            not isinstance(seats, list | tuple)
            or len(seats) not in self.seats
            or not all(isinstance(s, str) and s for s in seats)
        ):
            raise SEATS_COUNT.error("seats", counts=counts)
        if len(set(seats)) != len(seats):
            raise SEATS_NOT_UNIQUE.error("seats")
        if any(name in seats for name in self.reserved):
            names = words([repr(n) for n in self.reserved])
            if len(self.reserved) > 1:
                raise SEAT_NAMES_RESERVED.error("seats", names=names)
            raise SEAT_NAME_RESERVED.error("seats", name=names)
        if dealer not in seats:
            raise DEALER_NOT_A_SEAT.error("dealer", dealer=repr(dealer))
        return tuple(seats)

    def active(self, seats: Sequence[str], dealer: str) -> tuple[str, ...]:
        """The active players of a deal: the ``players`` seats after the dealer, forehand
        first."""
        n, i = len(seats), list(seats).index(dealer)
        return tuple(seats[(i + k) % n] for k in range(1, self.players + 1))


@dataclass(frozen=True, slots=True)
class Dealing:
    """How a deck order is dealt: ``packets`` in order, each ``(count, to)``: ``count`` cards to
    each active player in turn from forehand when ``to`` is ``""``, else to the pile ``to``.
    ``wien``'s 3 - talon 2 - 4 - 3 is ``((3, ""), (2, "talon"), (4, ""), (3, ""))``; four rounds
    of three to four players with no talon is ``((3, ""),) * 4``."""

    packets: tuple[tuple[int, str], ...]

    @property
    def piles(self) -> tuple[str, ...]:
        """The piles in the order they are first dealt to."""
        return tuple(dict.fromkeys(to for _, to in self.packets if to))

    @property
    def hand_size(self) -> int:
        """Cards each active player receives."""
        return sum(count for count, to in self.packets if not to)

    def pile_size(self, pile: str) -> int:
        return sum(count for count, to in self.packets if to == pile)

    def size(self, recipient: str) -> int:
        """Cards ``recipient`` (an active player or a pile) receives."""
        return self.pile_size(recipient) if recipient in self.piles else self.hand_size

    def deal(self, order: Sequence[str], active: Sequence[str]) -> dict[str, list[str]]:
        """Deal ``order`` (card codes, top first) to the active players and the piles."""
        it = iter(order)
        out: dict[str, list[str]] = {seat: [] for seat in active}
        for pile in self.piles:
            out[pile] = []
        for count, to in self.packets:
            for who in (to,) if to else active:
                out[who] += [next(it) for _ in range(count)]
        return out

    def check(self, deck: Deck, active: Sequence[str], deal: Mapping[str, int]) -> None:
        """A deal given as masks names exactly the active players and the piles, gives each
        its number of cards, and deals no card more often than the deck holds it."""
        recipients = (*active, *self.piles)
        if set(deal) != set(recipients):
            raise DEAL_RECIPIENTS.error(
                "deal", recipients=words(list(recipients)), given=sorted(deal)
            )
        seen = 0
        for name in recipients:
            mask = deal[name]
            size = self.size(name)
            if mask.bit_count() != size:
                raise DEAL_SIZE.error(f"deal.{name}", name=name, size=size, count=mask.bit_count())
            if seen & mask:
                dup = deck.codes_of(seen & mask)
                if deck.copies == 1:
                    raise DEALT_TWICE.error(f"deal.{name}", cards=", ".join(dup))
                raise DEALT_TOO_OFTEN.error(
                    f"deal.{name}", cards=", ".join(dup), copies=deck.copies
                )
            seen |= mask

    def parse(self, data: object, deck: Deck, active: Sequence[str]) -> dict[str, int]:
        """A record's ``deal`` object as masks: the active players and the piles, each a list of
        codes (where the deck has copies, each code takes the next copy not dealt yet)."""
        piles = self.piles
        if not isinstance(data, dict):
            if piles:
                raise DEAL_NOT_OBJECT_PILES.error("deal", piles=words(list(piles)))
            raise DEAL_NOT_OBJECT.error("deal")
        expected = {*active, *piles}
        for key in data:
            if key not in expected:
                raise DEAL_STRANGER.error(f"deal.{key}", key=key)
        out: dict[str, int] = {}
        taken = 0
        for key in (*active, *piles):
            if key not in data:
                raise DEAL_MISSING.error(f"deal.{key}", key=key)
            out[key] = deck.parse_hand(data[key], f"deal.{key}", taken)
            taken |= out[key]
        return out
