"""A card-play position as the solver sees it: every hand open, the trick in progress, the
game's card order and each player's obligations as data, and what the tricks are for.

A rule set builds one from a hand state (``RuleSet.card_play``); the solver knows no rule set.
Players are numbered ``0 .. n-1`` in playing order from forehand, as on the board
(``engine.board``); ``seats`` names them.

``goal`` says what the *side* (the declarer, mask ``side``) wants from its tricks and when the
play ends early:

- :data:`MOST`: as many tricks as possible, all tricks played (suit games);
- :data:`FEWEST`: as few as possible, all tricks played (a misère played out; Ausfechten and
  Preferans' raspasy seen from the player to move, the others assumed against him);
- :data:`MISERE`: none; the play ends when the side wins a trick (``wien``'s 5 and 7);
- :data:`SLAM`: all; the play ends when the side loses a trick (``wien``'s 6 and 8).

The value of a position is the side's tricks at the end of the hand (those already won
included); the side's opponents want the opposite of the side.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.cards import Deck
from engine.tricks import CardOrder, Obligations

MOST, FEWEST, MISERE, SLAM = "most", "fewest", "misere", "slam"
GOALS = (MOST, FEWEST, MISERE, SLAM)
GOAL_MEANINGS = {
    MOST: "as many tricks as possible, every trick played (a suit game)",
    FEWEST: "as few tricks as possible, every trick played (a misère played out, or each "
    "player on his own)",
    MISERE: "no trick: the play ends at the declarer's first trick won",
    SLAM: "every trick: the play ends at the declarer's first trick lost",
}
"""What each goal asks of the side, as the API documents an analysis's ``goal``."""
MAXIMISING = frozenset({MOST, SLAM})
"""Goals in which the side wants more tricks."""


@cache
def ranked_by_index(order: CardOrder) -> bool:
    """Whether every card of ``order`` is beaten exactly by the higher cards (by index) of its
    game suit, as in every Préférence game (:func:`engine.tricks.suit_order`): the solver
    takes cards as touching by their index. Doppelkopf's order (copies, trumps from several
    suits) is not."""
    return all(
        above == order.suit_mask[s] & ~((2 << c) - 1)
        for c, (s, above) in enumerate(zip(order.suit_of, order.above, strict=True))
    )


@dataclass(frozen=True, slots=True)
class Position:
    """Card play frozen at one moment, every card known.

    ``hands[p]`` is player ``p``'s remaining cards (a mask); ``trick`` the cards of the trick
    in progress as ``(player, card)`` in play order; ``to_act`` the player to play;
    ``playing`` the mask of players who play cards (a defender at home does not); ``duty[p]``
    player ``p``'s obligations under ``order``; ``side`` the mask of the players whose tricks
    count (the declarer); ``won`` the side's tricks so far; ``goal`` one of :data:`GOALS`.
    """

    deck: Deck
    seats: tuple[str, ...]
    hands: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    to_act: int
    playing: int
    order: CardOrder
    duty: tuple[Obligations, ...]
    side: int
    won: int
    goal: str

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise ValueError(f"unknown goal {self.goal!r}")
        if len(self.hands) != len(self.seats) or len(self.duty) != len(self.seats):
            raise ValueError("one hand and one duty per seat")
        if not ranked_by_index(self.order):
            raise ValueError("the solver needs cards that rank by their index within a suit")

    @property
    def maximising(self) -> bool:
        """Whether the side wants more tricks (:data:`MOST`, :data:`SLAM`)."""
        return self.goal in MAXIMISING

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        p = next(q for q in range(len(self.seats)) if self.playing >> q & 1)
        played = any(q == p for q, _ in self.trick)
        return self.hands[p].bit_count() + played
