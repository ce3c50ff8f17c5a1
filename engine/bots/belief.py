"""What a seat knows of the cards in card play, and deals drawn consistent with it: the ground
of the ``pimc`` bot (``engine.bots.pimc``).

A rule set reads a seat's ``view`` into a :class:`Belief` (``RuleSet.card_play_view``): the
card-play :class:`engine.solver.Position` with every card the seat knows in its place (its own
hand, open hands, cards it knows a player holds), the cards whose place it does not know and
how many of them each player holds (the rest lie out of play: a talon, discards), and the
tricks played so far. :func:`exclusions` reads the play obligations backwards: a player who
did not follow suit holds none of it, one who did not beat the trick holds no card that
would have had to, and so on, whatever the obligations are (they are data). :func:`sample`
deals the unknown cards consistently with all of that.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Deck, cards_of
from engine.solver.position import Position
from engine.tricks import legal_mask


@dataclass(frozen=True, slots=True)
class Belief:
    """``position``: card play as the seat sees it, each player's ``hands`` the cards the seat
    knows he holds; ``me``: the seat's player number; ``unknown``: the cards whose place it
    does not know; ``counts[p]``: how many of them player ``p`` holds (the others are out of
    play); ``tricks``: the complete tricks so far, ``(player, card)`` in play order (player
    ``-1``: a card that came from no hand, Preferans's talon); ``barred[p]``: unknown cards
    the seat knows player ``p`` does not hold (the talon it saw went to the declarer or out of
    play, not to the other defender)."""

    position: Position
    me: int
    unknown: int
    counts: tuple[int, ...]
    tricks: tuple[tuple[tuple[int, int], ...], ...]
    barred: tuple[int, ...]


def codes_mask(deck: Deck, codes: Iterable[str] | None) -> int:
    """The cards of a view's list of codes (``None``: none)."""
    return sum(1 << deck.index[c] for c in codes or ())


def seen_hands(view: dict[str, Any], deck: Deck) -> list[int]:
    """Each active player's cards as ``view`` shows them to its seat: its own hand and the
    hands that lie open; 0 for the others."""
    active = view["active"]
    hands = [0] * len(active)
    hands[active.index(view["seat"])] = codes_mask(deck, view["hand"])
    for seat, codes in view["open_hands"].items():
        hands[active.index(seat)] = codes_mask(deck, codes)
    return hands


def exclusions(belief: Belief) -> list[int]:
    """Per player, the unknown cards he cannot hold: holding one when he played to an earlier
    trick (or to this one), his card would not have been legal."""
    pos = belief.position
    order = pos.order
    out = list(belief.barred)
    for trick in (*belief.tricks, pos.trick):
        led = best = -1
        for q, x in trick:
            if best < 0:
                led, best = order.suit_of[x], x
                continue
            if q >= 0:
                duty = pos.duty[q].bits
                for c in cards_of(belief.unknown & ~out[q]):
                    hand = (1 << x) | (1 << c)
                    args = (order.suit_of, order.suit_mask, order.above, order.trump, duty)
                    if not legal_mask(hand, led, best, *args) >> x & 1:
                        out[q] |= 1 << c
            if order.beats(x, best):
                best = x
    return out


def sample(
    belief: Belief, rng: random.Random, tries: int = 50, *, strict: bool = True
) -> tuple[int, ...] | None:
    """The players' hands with the unknown cards dealt at random among them (and out of
    play), each player getting his count and (``strict``) none he cannot hold; ``None`` when
    no such deal was found in ``tries`` attempts."""
    pos = belief.position
    barred = exclusions(belief) if strict else [0] * len(pos.hands)
    players = [q for q, n in enumerate(belief.counts) if n > 0]
    unknown = list(cards_of(belief.unknown))
    out_of_play = len(unknown) - sum(belief.counts)
    if out_of_play < 0:
        return None
    # the most constrained cards first
    unknown.sort(key=lambda c: sum(1 for q in players if barred[q] >> c & 1), reverse=True)
    for _ in range(tries):
        room = dict.fromkeys(players, 0)
        for q in players:
            room[q] = belief.counts[q]
        left_out = out_of_play
        hands = list(pos.hands)
        for c in unknown:
            choices = [q for q in players if room[q] and not barred[q] >> c & 1]
            weights = [room[q] for q in choices]
            if left_out:
                choices.append(-1)
                weights.append(left_out)
            if not choices:
                break
            q = rng.choices(choices, weights)[0]
            if q < 0:
                left_out -= 1
            else:
                room[q] -= 1
                hands[q] |= 1 << c
        else:
            return tuple(hands)
    return None


def sampled_position(belief: Belief, hands: tuple[int, ...]) -> Position:
    """The belief's position with ``hands`` (a :func:`sample`)."""
    return replace(belief.position, hands=hands)
