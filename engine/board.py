"""The fast card-play board shared by every trick-taking rule set: mutable ints and bit masks,
no per-step re-validation, for bots, solvers and simulations.

A :class:`CardBoard` holds the hands, the trick in progress and the tricks won, and plays by
the rule set's obligations (:class:`engine.tricks.Obligations`, one per player) over the
game's :class:`engine.tricks.CardOrder`. The cards a player may play come from
:func:`engine.tricks.legal_mask`, the same function the validating path uses. A rule set's
fast hand subclasses the board with what truly differs (its auction and contracts, when its
play ends, its settlement) and is proven equal to its validating ``apply`` by tests.

Players are numbered ``0 .. n-1`` in playing order from forehand; ``playing`` is the mask of
those who play cards in this game (a defender at home does not).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from engine.tricks import CardOrder, Obligations, legal_mask


@cache
def _after(n: int, playing: int) -> tuple[int, ...]:
    """The next player who plays after each of ``n`` players, those in mask ``playing``
    playing."""
    after = []
    for q in range(n):
        r = (q + 1) % n
        while not playing >> r & 1:
            r = (r + 1) % n
        after.append(r)
    return tuple(after)


class CardBoard:
    """Tricks being played: ``hands`` (a mask per player), ``to_act``, the ``trick`` so far
    (cards in play order), its led game suit ``led`` and best card ``best`` (played by
    ``best_by``), ``won`` (tricks per player) and ``tricks`` (tricks completed)."""

    __slots__ = (
        "n",
        "hands",
        "to_act",
        "playing",
        "trick_size",
        "suit_of",
        "suit_mask",
        "above",
        "trump",
        "duty",
        "trick",
        "led",
        "best",
        "best_by",
        "won",
        "tricks",
    )

    def __init__(self, hands: Sequence[int]) -> None:
        self.n = len(hands)
        self.hands = list(hands)
        self.to_act = 0
        self.playing = (1 << self.n) - 1
        self.trick_size = self.n
        self.suit_of: Sequence[int] = ()
        self.suit_mask: Sequence[int] = ()
        self.above: Sequence[int] = ()
        self.trump = -1
        self.duty: list[int] = []
        self.trick: list[int] = []
        self.led = -1
        self.best = -1
        self.best_by = -1
        self.won = [0] * self.n
        self.tricks = 0

    def start_tricks(
        self, order: CardOrder, duty: Sequence[Obligations], leader: int, playing: int
    ) -> None:
        """Begin the card play of a game ranked by ``order``, each player bound by
        ``duty[player]``, ``leader`` leading, the players in mask ``playing`` taking part."""
        self.suit_of = order.suit_of
        self.suit_mask = order.suit_mask
        self.above = order.above
        self.trump = order.trump
        self.duty = [d.bits for d in duty]
        self.playing = playing
        self.trick_size = playing.bit_count()
        self.to_act = leader

    def legal_card_mask(self) -> int:
        """The cards the player to act may play."""
        p = self.to_act
        if not self.trick:
            return self.hands[p]
        return legal_mask(
            self.hands[p],
            self.led,
            self.best,
            self.suit_of,
            self.suit_mask,
            self.above,
            self.trump,
            self.duty[p],
        )

    def play_card(self, c: int) -> None:
        """The player to act plays ``c`` (not re-validated); a full trick goes to its best card,
        whose player leads next, and :meth:`trick_done` is told."""
        p = self.to_act
        self.hands[p] &= ~(1 << c)
        trick = self.trick
        if trick:
            b = self.best
            suit_of = self.suit_of
            if self.above[b] >> c & 1 or (suit_of[c] == self.trump and suit_of[b] != self.trump):
                self.best = c
                self.best_by = p
        else:
            self.led = self.suit_of[c]
            self.best = c
            self.best_by = p
        trick.append(c)
        if len(trick) < self.trick_size:
            n = self.n
            q = (p + 1) % n
            while not self.playing >> q & 1:
                q = (q + 1) % n
            self.to_act = q
            return
        w = self.best_by
        self.won[w] += 1
        self.tricks += 1
        self.trick = []
        self.to_act = w
        self.trick_done(w)

    def play_random(self, rand: Callable[[], float]) -> None:
        """Play random legal cards until the rule set ends the play (its :meth:`trick_done`
        sets ``to_act`` to -1): each time the k-th lowest card of those the player to act may
        play (:func:`engine.tricks.legal_mask`), k = ``int(rand() * their number)`` (no draw
        when there is one), played as :meth:`play_card` plays it. The bots' and simulations'
        playout, without a call per card; the trick is kept in locals while it runs
        (:meth:`trick_done` sees ``hands``, ``won``, ``tricks``, the winner to act and an
        empty ``trick``; ``led`` and ``best`` are written at the end).
        ``tests/engine/test_family_fast.py`` checks it against :meth:`play_card`."""
        hands, won, n = self.hands, self.won, self.n
        suit_of, suit_mask, above, trump, duty = (
            self.suit_of,
            self.suit_mask,
            self.above,
            self.trump,
            self.duty,
        )
        after = _after(n, self.playing)
        size = self.trick_size
        in_trick = len(self.trick)  # cards in the trick so far: the playout keeps no list
        self.trick = []
        led, best, best_by = self.led, self.best, self.best_by
        p = self.to_act
        while p >= 0:
            hand = hands[p]
            if in_trick:
                mask = legal_mask(hand, led, best, suit_of, suit_mask, above, trump, duty[p])
                count = mask.bit_count()
                if count == 1:
                    c = mask.bit_length() - 1
                else:
                    k = int(rand() * count)
                    if k + k < count:  # the k-th lowest: from whichever end is nearer
                        for _ in range(k):
                            mask &= mask - 1
                        c = (mask & -mask).bit_length() - 1
                    else:
                        for _ in range(count - 1 - k):
                            mask ^= 1 << (mask.bit_length() - 1)
                        c = mask.bit_length() - 1
                if above[best] >> c & 1 or (suit_of[c] == trump and suit_of[best] != trump):
                    best = c
                    best_by = p
            else:
                count = hand.bit_count()
                if count == 1:
                    c = hand.bit_length() - 1
                else:
                    mask = hand
                    k = int(rand() * count)
                    if k + k < count:
                        for _ in range(k):
                            mask &= mask - 1
                        c = (mask & -mask).bit_length() - 1
                    else:
                        for _ in range(count - 1 - k):
                            mask ^= 1 << (mask.bit_length() - 1)
                        c = mask.bit_length() - 1
                led = suit_of[c]
                best = c
                best_by = p
            hands[p] = hand & ~(1 << c)
            in_trick += 1
            if in_trick < size:
                p = after[p]
                continue
            in_trick = 0
            won[best_by] += 1
            self.tricks += 1
            self.to_act = best_by
            self.trick_done(best_by)
            p = self.to_act
        self.led, self.best, self.best_by = led, best, best_by

    def trick_done(self, winner: int) -> None:
        """Called after each complete trick: a rule set ends its play here (all tricks played,
        a misère lost early …)."""
