"""The ``heuristic`` bot's card play in the three-hand games, from a seat's belief
(``engine.bots.belief``) alone, with the defenders' etiquette of Préférence (seed
``004_9bb31e99ee2b6d46.txt``, "Rules concerning collaboration of defenders"):

- a defender never needlessly wins a trick the other defender already heads;
- a defender who leads to a trick in which the declarer comes last leads the highest card of
  a suit; with the declarer second, a very high card (king or ace) or the lowest of a suit.

Beyond that: win a trick as cheaply as possible when last to play; second or third, win only
with a card nobody left can beat, else play low; cash sure winners; as declarer draw trumps
while the defenders may hold some; in a misère (nobody wants tricks) play the highest card
that still loses and lead low. Bidding and the other decisions are the rule set's (its
``heuristic`` module), which :func:`policy` is given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.bots.belief import Belief
from engine.bots.policy import BotPolicy, Decide
from engine.cards import cards_of
from engine.tricks import CardOrder, legal_mask


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def choose_card(belief: Belief) -> int:
    """The card the player to move plays."""
    pos = belief.position
    order = pos.order
    p = pos.to_act
    hand = pos.hands[p]
    players = [q for q in range(len(pos.hands)) if pos.playing >> q & 1]
    others = 0  # every card still held by another player, known or not
    for q in players:
        if q != p:
            others |= pos.hands[q]
    others |= belief.unknown
    mine = pos.side >> p & 1
    want = pos.maximising  # in a misère nobody wants a trick
    trump = order.trump
    trump_mask = order.suit_mask[trump] if trump >= 0 else 0

    def top(c: int) -> bool:  # no card of its suit left elsewhere beats it
        return not others & order.above[c]

    if not pos.trick:
        return _lead(belief, hand, others, mine, want, top, players)
    led = order.suit_of[pos.trick[0][1]]
    best, best_by = pos.trick[0][1], pos.trick[0][0]
    for q, c in pos.trick[1:]:
        if order.beats(c, best):
            best, best_by = c, q
    duty = pos.duty[p].bits
    legal = legal_mask(hand, led, best, order.suit_of, order.suit_mask, order.above, trump, duty)
    beating = sum(1 << c for c in cards_of(legal) if order.beats(c, best))
    losing = legal & ~beating
    last = len(pos.trick) == len(players) - 1
    if not want:  # misère: the highest card that loses, else the highest there is
        return _high(losing) if losing else _high(legal)
    partner_heads = (pos.side >> best_by & 1) == mine and best_by != p
    if partner_heads and losing:
        return _low(_shortest_low(losing, order, trump_mask))
    if beating:
        if last:
            return _low(beating)
        sure = [c for c in cards_of(beating) if top(c) or order.suit_of[c] == trump]
        if sure and (not partner_heads):
            return min(sure)
        if not losing:
            return _low(beating)
    return _low(_shortest_low(losing or legal, order, trump_mask))


def _shortest_low(mask: int, order: CardOrder, trump_mask: int) -> int:
    """Of ``mask``, the cards of its shortest side suit (keep trumps and long suits)."""
    side = mask & ~trump_mask
    if not side:
        return mask
    suits = [side & m for m in order.suit_mask if side & m]
    return min(suits, key=lambda m: (m.bit_count(), m))


def _lead(
    belief: Belief,
    hand: int,
    others: int,
    mine: int,
    want: bool,
    top: Callable[[int], bool],
    players: list[int],
) -> int:
    pos = belief.position
    order = pos.order
    trump = order.trump
    trump_mask = order.suit_mask[trump] if trump >= 0 else 0
    if not want:  # misère: the lowest card of the suit where it is lowest
        return _low(hand)
    if mine and trump >= 0 and others & trump_mask and hand & trump_mask:
        high = _high(hand & trump_mask)
        if top(high):  # the declarer draws trumps with his top trump
            return high
    winners = [c for c in cards_of(hand) if top(c)]
    if winners:
        return max(winners)
    side_cards = hand & ~trump_mask or hand
    suits = [side_cards & m for m in order.suit_mask if side_cards & m]
    longest = max(suits, key=lambda m: (m.bit_count(), m))
    if not mine:
        d = next(q for q in players if pos.side >> q & 1)
        i = players.index(pos.to_act)
        if players[(i - 1) % len(players)] == d:  # the declarer comes last
            return _high(longest)
        if players[(i + 1) % len(players)] == d:  # the declarer comes second
            honours = [c for c in cards_of(side_cards) if order.above[c].bit_count() <= 1]
            return max(honours) if honours else _low(longest)
    return _low(longest)


def policy(read: Callable[[dict[str, Any]], Belief | None], decide: Decide) -> BotPolicy:
    """The ``heuristic`` level of a three-hand rule set: ``decide`` (the rule set's own
    heuristic) for everything but cards, :func:`choose_card` for cards (from ``read(view)``,
    the rule set's ``card_play_view``)."""

    def choose(
        view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any] | None:
        chosen = decide(view, legal, rng)
        if chosen is not None:
            return chosen
        return card_action(view, legal, read, choose_card, rng)

    return choose


def card_action(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    read: Callable[[dict[str, Any]], Belief | None],
    pick: Callable[[Belief], int],
    rng: random.Random,
) -> dict[str, Any] | None:
    """The legal card action ``pick`` chooses from the view's belief (the only card when
    there is one; a random legal action when the view gives no belief)."""
    cards = [a for a in legal if "card" in a]
    if len(cards) == 1:
        return cards[0]
    belief = read(view) if cards else None
    if belief is None:
        return rng.choice(legal) if legal else None
    code = belief.position.deck.code(pick(belief))
    return next(a for a in cards if a["card"] == code)
