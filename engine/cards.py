"""Cards, decks and hands.

Terms: a *card* (Karte) is a small int, its index in a :class:`Deck`; a *hand* (Blatt) is a
bit mask over those indices; the *talon* (Talon) is the cards not dealt to players. A card's
text form is suit letter + rank letter: ``HA`` (Herz-Ass), ``DT`` (Caro-Zehn), ``C7``.

The deck is a value, not a constant, so that rule sets with other decks (Doppelkopf: 48 cards,
two copies of each) plug in without touching code that only moves cards around. Préférence uses
:data:`PIQUET`: 32 cards, suits C < S < D < H (Treff, Pique, Caro, Herz, bid numbers 1..4) and
ranks 7 < 8 < 9 < T < J < Q < K < A (``spec/wien.md``, "Table, cards, seats").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine.errors import EngineError


@dataclass(frozen=True, slots=True)
class Deck:
    """A game's cards: ``suits`` and ``ranks`` low to high; card ``i`` is suit ``i // len(ranks)``,
    rank ``i % len(ranks)``, so within a suit a higher int is a higher card."""

    name: str
    suits: str
    ranks: str
    size: int = field(init=False)
    codes: tuple[str, ...] = field(init=False)
    index: dict[str, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        codes = tuple(s + r for s in self.suits for r in self.ranks)
        object.__setattr__(self, "size", len(codes))
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "index", {c: i for i, c in enumerate(codes)})

    @property
    def full(self) -> int:
        """The mask of every card in the deck."""
        return (1 << self.size) - 1

    def suit(self, card: int) -> int:
        """The suit index of ``card`` (0 = lowest suit)."""
        return card // len(self.ranks)

    def suit_mask(self, suit: int) -> int:
        """The mask of all cards of ``suit``."""
        n = len(self.ranks)
        return ((1 << n) - 1) << (suit * n)

    def suit_letter(self, suit: int) -> str:
        return self.suits[suit]

    def suit_index(self, letter: str) -> int:
        return self.suits.index(letter)

    def code(self, card: int) -> str:
        """The text form of ``card``: ``HA``."""
        return self.codes[card]

    def parse(self, text: object, at: str = "") -> int:
        """The card named ``text``; raises :class:`EngineError` for anything else."""
        if isinstance(text, str) and text in self.index:
            return self.index[text]
        raise EngineError(at, f"{text!r} is not a card (write suit and rank, like HA, DT, C7)")

    def parse_hand(self, texts: object, at: str = "") -> int:
        """A mask from a list of card codes, rejecting repeats."""
        if not isinstance(texts, list):
            raise EngineError(at, "expected a list of cards")
        mask = 0
        for i, text in enumerate(texts):
            card = self.parse(text, f"{at}[{i}]")
            if mask >> card & 1:
                raise EngineError(f"{at}[{i}]", f"{text} appears twice")
            mask |= 1 << card
        return mask

    def codes_of(self, mask: int) -> list[str]:
        """The codes of the cards in ``mask``, sorted by suit and rank (C7 first)."""
        return [self.codes[c] for c in cards_of(mask)]

    def sort_key_draw(self, card: int) -> int:
        """Order for drawing the first dealer: suits first, then ranks (H8 beats CA)."""
        return card


def cards_of(mask: int) -> Iterator[int]:
    """The cards in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def lowest(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest card of a non-empty mask."""
    return mask.bit_length() - 1


PIQUET = Deck("piquet32", "CSDH", "789TJQKA")
"""The 32-card Préférence deck."""
