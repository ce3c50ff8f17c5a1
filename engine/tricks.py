"""Trick play shared by every trick-taking rule set: which cards may be played and who wins.

Terms: *Farbzwang* (following suit), *Trumpfzwang* (the duty to trump when void),
*Stichzwang* (the duty to beat the trick), *Largierpflicht* (beating with the lowest card that
does). A rule set states its obligations as data, an :class:`Obligations` value per player
(``spec/wien.md``, "Card play", rules 1 to 3 are :data:`HEAD`, and :data:`HEAD_LOW` for the
defender bound by Largierpflicht), and how the cards rank in the game being played as a
:class:`CardOrder` (each card's *game suit*, each game suit's cards, the cards that beat a
card). A game suit is a printed suit for Préférence; a rule set whose trumps are a set of
cards from several suits (Doppelkopf's queens, jacks and diamonds) builds its own order.

:func:`legal_mask` is the one statement of the obligations: the validating path
(:func:`legal_cards`) and the fast board (``engine.board``) both call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from engine.cards import Deck, cards_of
from engine.errors import EngineError, IllegalAction, Message
from engine.messages import (
    MAY_PLAY_ANY_CARD,
    MUST_BEAT_IN_SUIT,
    MUST_BEAT_IN_SUIT_LOWEST,
    MUST_BEAT_WITH_TRUMP,
    MUST_BEAT_WITH_TRUMP_LOWEST,
    MUST_FOLLOW_SUIT,
    MUST_TRUMP,
)

FOLLOW_BIT, TRUMP_BIT, HEAD_BIT, LOWEST_BIT = 1, 2, 4, 8


@dataclass(frozen=True, slots=True)
class Obligations:
    """What a player must play to a trick that has been led.

    - ``follow`` (Farbzwang): holding the led suit, play it; false: any card at all.
    - ``trump`` (Trumpfzwang): void in the led suit, holding trumps, play a trump.
    - ``head`` (Stichzwang): where the card played must be of the led suit or a trump, beat
      the trick if you can: with the led suit when the trick's best card is of it, with a
      trump when void and the trick's best card is a trump, with any trump when void and the
      trick holds no trump (every trump beats it).
    - ``lowest`` (Largierpflicht): a card that must beat the trick is the lowest that does.
    """

    follow: bool = True
    trump: bool = True
    head: bool = False
    lowest: bool = False
    bits: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        bits = (
            FOLLOW_BIT * self.follow
            | TRUMP_BIT * self.trump
            | HEAD_BIT * self.head
            | LOWEST_BIT * self.lowest
        )
        object.__setattr__(self, "bits", bits)


NONE = Obligations(follow=False, trump=False)
"""No obligation: any card."""
FOLLOW = Obligations(trump=False)
"""Follow suit; void, any card (``kurz``; whist play; the DDV rules)."""
FOLLOW_TRUMP = Obligations()
"""Follow suit; void, trump if you can; no duty to beat (Preferans; Doppelkopf's default)."""
HEAD = Obligations(head=True)
"""Follow, trump, and beat the trick when able (``wien``, rules 1-2)."""
HEAD_LOW = Obligations(head=True, lowest=True)
"""As :data:`HEAD`, beating with the lowest card that does (``wien``'s Largierpflicht)."""


@dataclass(frozen=True, slots=True)
class CardOrder:
    """How the cards of a deck rank in one game.

    ``suit_of[c]`` is card ``c``'s game suit, ``suit_mask[s]`` the cards of game suit ``s``,
    ``above[c]`` the cards of ``c``'s game suit that beat ``c`` (strictly higher: of two
    identical copies the first played wins), ``trump`` the trump game suit (``-1``: none) and
    ``names[s]`` how a refusal names game suit ``s``.
    """

    suit_of: tuple[int, ...]
    suit_mask: tuple[int, ...]
    above: tuple[int, ...]
    trump: int
    names: tuple[str, ...]

    def beats(self, card: int, best: int) -> bool:
        """Whether ``card`` played now beats ``best``, the trick's best card so far."""
        return bool(self.above[best] >> card & 1) or (
            self.suit_of[card] == self.trump and self.suit_of[best] != self.trump
        )


@cache
def suit_order(deck: Deck, trump: int | None) -> CardOrder:
    """The order of a game whose game suits are the printed suits, ranked as the deck lists
    them, with suit ``trump`` (or none) as trumps: Préférence's games."""
    n = len(deck.suits)
    masks = tuple(deck.suit_mask(s) for s in range(n))
    suit_of = tuple(deck.suit(c) for c in range(deck.size))
    above = tuple(
        masks[suit_of[c]] & -(1 << (c - c % deck.copies + deck.copies)) for c in range(deck.size)
    )
    return CardOrder(suit_of, masks, above, -1 if trump is None else trump, tuple(deck.suits))


def legal_mask(
    hand: int,
    led: int,
    best: int,
    suit_of: Sequence[int],
    suit_mask: Sequence[int],
    above: Sequence[int],
    trump: int,
    duty: int,
) -> int:
    """The cards ``hand`` may play to a trick whose led game suit is ``led`` and whose best
    card so far is ``best``, under obligations ``duty`` (:attr:`Obligations.bits`).

    1. Holding the led suit (``follow``): if the trick's best card is of the led suit (it is
       trumps, or no trump lies in the trick), a card of the led suit that beats it must be
       played if held (``head``); else any card of the led suit.
    2. Void in the led suit, holding trumps (``trump``): beat a trump in the trick if possible
       (``head``), else any trump.
    3. Otherwise any card.
    With ``lowest`` a card that must beat the trick is the lowest that does.
    """
    if not duty & FOLLOW_BIT:
        return hand
    in_suit = hand & suit_mask[led]
    if in_suit:
        if duty & HEAD_BIT and suit_of[best] == led:
            higher = in_suit & above[best]
            if higher:
                return higher & -higher if duty & LOWEST_BIT else higher
        return in_suit
    if trump >= 0 and duty & TRUMP_BIT:
        trumps = hand & suit_mask[trump]
        if trumps:
            if not duty & HEAD_BIT:
                return trumps
            if suit_of[best] == trump:
                higher = trumps & above[best]
                if higher:
                    return higher & -higher if duty & LOWEST_BIT else higher
                return trumps
            return trumps & -trumps if duty & LOWEST_BIT else trumps
    return hand


def best_card(order: CardOrder, trick: Sequence[int]) -> int:
    """The index in ``trick`` (cards in play order) of the card that wins it so far: the
    highest trump, else the highest card of the led suit; of equal cards the first."""
    best = 0
    for i in range(1, len(trick)):
        if order.beats(trick[i], trick[best]):
            best = i
    return best


def legal_cards(order: CardOrder, hand: int, trick: Sequence[int], duty: Obligations) -> int:
    """The mask of cards ``hand`` may play to ``trick`` (cards in play order) under ``duty``:
    :func:`legal_mask` for a trick given as its cards."""
    if not trick:
        return hand
    best = trick[best_card(order, trick)]
    return legal_mask(
        hand,
        order.suit_of[trick[0]],
        best,
        order.suit_of,
        order.suit_mask,
        order.above,
        order.trump,
        duty.bits,
    )


def trick_winner(order: CardOrder, trick: Sequence[int]) -> int:
    """The index in ``trick`` of the winning card: the highest trump, else the highest card of
    the led suit."""
    return best_card(order, trick)


def obligation_refusal(
    deck: Deck,
    order: CardOrder,
    hand: int,
    trick: Sequence[int],
    legal: int,
    who: str,
    duty: Obligations,
) -> IllegalAction:
    """The refusal of a card ``who`` may not play to ``trick``, naming the obligation ``legal``
    comes from (``bert must beat the trick in D: DK or DA``), to raise."""
    cards = " or ".join(deck.code(c) for c in cards_of(legal))
    led = order.suit_of[trick[0]]
    led_mask = order.suit_mask[led]
    led_name = order.names[led]
    message: Message
    if legal & led_mask:
        if legal == hand & led_mask:
            message = MUST_FOLLOW_SUIT
        else:
            message = MUST_BEAT_IN_SUIT_LOWEST if duty.lowest else MUST_BEAT_IN_SUIT
        return _illegal(message.error("", seat=who, suit=led_name, cards=cards))
    if order.trump >= 0 and legal & order.suit_mask[order.trump]:
        if legal == hand & order.suit_mask[order.trump]:
            t = order.names[order.trump]
            return _illegal(MUST_TRUMP.error("", seat=who, suit=led_name, trump=t, cards=cards))
        message = MUST_BEAT_WITH_TRUMP_LOWEST if duty.lowest else MUST_BEAT_WITH_TRUMP
        return _illegal(message.error("", seat=who, suit=led_name, cards=cards))
    return _illegal(MAY_PLAY_ANY_CARD.error("", seat=who))


def _illegal(error: EngineError) -> IllegalAction:
    assert isinstance(error, IllegalAction)
    return error


def describe_obligation(
    deck: Deck,
    order: CardOrder,
    hand: int,
    trick: Sequence[int],
    legal: int,
    who: str,
    duty: Obligations,
) -> str:
    """The sentence of :func:`obligation_refusal` (``bert must beat the trick in D: DK or
    DA``); a refusal raises :func:`obligation_refusal` itself, which carries its code."""
    return obligation_refusal(deck, order, hand, trick, legal, who, duty).message
