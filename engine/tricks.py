"""Trick play shared by trick-taking rule sets: which cards may be played and who wins.

Terms: *Farbzwang* (following suit), *Stichzwang* (the duty to beat the trick), *Trumpfzwang*
(the duty to trump when void), *Largierpflicht* (beating with the lowest card that does). The
obligations are spec/wien.md, "Card play", rules 1 to 3; a rule set that does not make players
beat the trick passes ``must_head=False``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Deck, highest, lowest


def _above(card: int) -> int:
    """The mask of all cards above ``card`` (to be cut down to one suit by the caller)."""
    return -(1 << (card + 1))


def legal_cards(
    deck: Deck,
    hand: int,
    trick: Sequence[int],
    trump: int | None,
    *,
    lowest_beat: bool = False,
    must_head: bool = True,
) -> int:
    """The mask of cards ``hand`` may play to ``trick`` (cards in play order).

    1. Holding the led suit: if it is trumps or no trump lies in the trick, a card of the led
       suit higher than the highest of that suit in the trick must be played if held; else any
       card of the led suit.
    2. Void in the led suit, holding trumps: over-trump a trump in the trick if possible, else
       any trump.
    3. Otherwise any card.
    With ``lowest_beat`` (Largierpflicht) a card that must beat the trick is the lowest that does.
    """
    if not trick:
        return hand
    led = deck.suit(trick[0])
    in_suit = hand & deck.suit_mask(led)
    trump_mask = deck.suit_mask(trump) if trump is not None else 0
    trumps_in_trick = [c for c in trick if trump_mask >> c & 1]
    if in_suit:
        if must_head and (led == trump or not trumps_in_trick):
            best = max(c for c in trick if deck.suit(c) == led)
            higher = in_suit & _above(best)
            if higher:
                return 1 << lowest(higher) if lowest_beat else higher
        return in_suit
    trumps = hand & trump_mask
    if trumps:
        if trumps_in_trick:
            higher = trumps & _above(max(trumps_in_trick)) if must_head else 0
            if higher:
                return 1 << lowest(higher) if lowest_beat else higher
            return trumps
        return 1 << lowest(trumps) if lowest_beat and must_head else trumps
    return hand


def trick_winner(deck: Deck, trick: Sequence[int], trump: int | None) -> int:
    """The index in ``trick`` of the winning card: the highest trump, else the highest card of
    the led suit."""
    suit = trump if trump is not None and any(deck.suit(c) == trump for c in trick) else None
    if suit is None:
        suit = deck.suit(trick[0])
    best = max(c for c in trick if deck.suit(c) == suit)
    return list(trick).index(best)


def describe_obligation(
    deck: Deck,
    hand: int,
    trick: Sequence[int],
    trump: int | None,
    legal: int,
    who: str,
    *,
    lowest_beat: bool = False,
) -> str:
    """A sentence saying which obligation ``legal`` comes from, for error messages:
    ``bert must beat the trick in D: DK or DA``."""
    cards = " or ".join(deck.code(c) for c in _cards(legal))
    led = deck.suit(trick[0])
    led_letter = deck.suit_letter(led)
    low = " with the lowest card that does (Largierpflicht)" if lowest_beat else ""
    if legal & deck.suit_mask(led):
        if legal == hand & deck.suit_mask(led):
            return f"{who} must follow suit {led_letter}: {cards}"
        return f"{who} must beat the trick in {led_letter}{low}: {cards}"
    if trump is not None and legal & deck.suit_mask(trump):
        t = deck.suit_letter(trump)
        if legal == hand & deck.suit_mask(trump):
            return f"{who} has no {led_letter} and must play a trump ({t}): {cards}"
        return f"{who} has no {led_letter} and must beat the trick with a trump{low}: {cards}"
    return f"{who} may play any card"


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        c = lowest(mask)
        out.append(c)
        mask &= ~(1 << c)
    return out


__all__ = ["describe_obligation", "highest", "legal_cards", "trick_winner"]
