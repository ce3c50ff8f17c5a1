"""Cards, decks and hands.

Terms: a *card* (Karte) is a small int, its index in a :class:`Deck`; a *hand* (Blatt) is a
bit mask over those indices; the *talon* (Talon) is the cards not dealt to players. A card's
text form is suit letter + rank letter: ``HA`` (Herz-Ass), ``DT`` (Caro-Zehn), ``C7``.

The deck is a value, not a constant, so that rule sets with other decks plug in without
touching code that only moves cards around. A deck may hold *copies*: Doppelkopf's 48 cards
are 24 codes twice. Every copy has its own index (the copies of one code are neighbours), so a
hand is still a bit mask, one bit per copy, and ``codes_of`` lists a code once per copy held.
Préférence uses :data:`PIQUET`: 32 cards, suits C < S < D < H (Treff, Pique, Caro, Herz, bid
numbers 1..4) and ranks 7 < 8 < 9 < T < J < Q < K < A (``spec/wien.md``, "Table, cards,
seats").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine.messages import CARD_TOO_OFTEN, CARD_TWICE, NOT_A_CARD, NOT_A_CARD_LIST


@dataclass(frozen=True, slots=True)
class Deck:
    """A game's cards: ``suits`` and ``ranks`` low to high, each code ``copies`` times.

    Card ``i`` is copy ``i % copies`` of code ``i // copies``; code ``k`` is suit
    ``k // len(ranks)``, rank ``k % len(ranks)``. So within a suit a higher int is a higher or
    (another copy) an equal card, and a suit's cards are one run of bits.
    """

    name: str
    suits: str
    ranks: str
    copies: int = 1
    size: int = field(init=False)
    codes: tuple[str, ...] = field(init=False)
    index: dict[str, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.copies < 1:
            raise ValueError("a deck holds every card at least once")
        codes = tuple(s + r for s in self.suits for r in self.ranks for _ in range(self.copies))
        object.__setattr__(self, "size", len(codes))
        object.__setattr__(self, "codes", codes)
        first: dict[str, int] = {}
        for i, c in enumerate(codes):
            first.setdefault(c, i)
        object.__setattr__(self, "index", first)

    @property
    def full(self) -> int:
        """The mask of every card in the deck (every copy)."""
        return (1 << self.size) - 1

    def suit(self, card: int) -> int:
        """The suit index of ``card`` (0 = lowest suit)."""
        return card // (len(self.ranks) * self.copies)

    def suit_mask(self, suit: int) -> int:
        """The mask of all cards of ``suit``."""
        n = len(self.ranks) * self.copies
        return ((1 << n) - 1) << (suit * n)

    def rank(self, card: int) -> int:
        """The rank index of ``card`` within its suit (0 = lowest rank)."""
        return card // self.copies % len(self.ranks)

    def same(self, card: int) -> int:
        """The mask of every copy of ``card``'s code (``card`` itself when there are no
        copies)."""
        first = card - card % self.copies
        return ((1 << self.copies) - 1) << first

    def suit_letter(self, suit: int) -> str:
        return self.suits[suit]

    def suit_index(self, letter: str) -> int:
        return self.suits.index(letter)

    def code(self, card: int) -> str:
        """The text form of ``card``: ``HA``."""
        return self.codes[card]

    def parse(self, text: object, at: str = "") -> int:
        """The card named ``text`` (its first copy); raises :class:`EngineError` for anything
        else."""
        if isinstance(text, str) and text in self.index:
            return self.index[text]
        raise NOT_A_CARD.error(at, text=repr(text))

    def parse_hand(self, texts: object, at: str = "", taken: int = 0) -> int:
        """A mask from a list of card codes. Each code names the first copy not yet in the mask
        nor in ``taken`` (cards already placed elsewhere); naming a code more often than the
        deck holds it is an error."""
        if not isinstance(texts, list):
            raise NOT_A_CARD_LIST.error(at)
        mask = 0
        for i, text in enumerate(texts):
            card = self.parse(text, f"{at}[{i}]")
            free = self.same(card) & ~mask
            if not free:
                if self.copies == 1:
                    raise CARD_TWICE.error(f"{at}[{i}]", card=text)
                raise CARD_TOO_OFTEN.error(f"{at}[{i}]", card=text, copies=self.copies)
            unused = free & ~taken
            mask |= (unused or free) & -(unused or free)
        return mask

    def codes_of(self, mask: int) -> list[str]:
        """The codes of the cards in ``mask``, sorted by suit and rank (C7 first), a code once
        per copy."""
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
"""The 32-card piquet deck of the Préférence family (``wien`` and the rule sets to come that
share its cards); a rule set names its deck, callers ask the rule set."""
