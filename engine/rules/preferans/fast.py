"""A fast ``preferans`` deal for bots, simulations and the benchmark: one mutable hand stepped in
place, mutable ints and bit masks, no per-step re-validation (``spec/next/preferans.md``
§2–§8.2).

:class:`FastDeal` is the shared card-play board (:class:`engine.board.CardBoard`: the hands,
tricks and obligations, who wins) plus what only Preferans has: the auction, the talon and the
order, whisting, and the two talon-led tricks of raspasy. It states the choices through the
same functions as the validating :mod:`engine.rules.preferans.hand` (:func:`hand.ladder_calls`,
:func:`hand.defence_calls`, :func:`hand.talon_trick_winner`, :func:`hand.deal_outcome`) and its
steps are proven equal to ``hand.apply`` by ``tests/engine/test_preferans_fast.py``, which
drives both side by side (legal moves, the player due, the Result).

The random bot's policy is stated here once (:func:`pick`, inlined in the auction and
whisting of :func:`play_random_deal`; :func:`pick_discard`; the board's card pick):
:meth:`PreferansRuleSet.random_action` on the validating states and :func:`play_random_deal`
here draw the same numbers for the same choices, so that one seed plays one deal the same way
on both paths.

Moves (:meth:`FastDeal.legal`, :meth:`FastDeal.step`) are small tuples: ``("call", "6S")``,
``("discard", mask)``, ``("declare", (7, "H"))``, ``("whist", "pass")``, ``("mode", "open")``,
``("card", c)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from engine.board import CardBoard
from engine.cards import PIQUET
from engine.rules.preferans import scoring
from engine.rules.preferans.actions import BIDS, STRAINS
from engine.rules.preferans.hand import (
    AUCTION,
    DECLARE,
    DISCARD,
    DONE,
    MISERE_RANK,
    MODE,
    PLAY,
    TALON,
    WHIST,
    deal_outcome,
    defence_calls,
    exit_floor,
    ladder_calls,
    talon_trick_winner,
    trump_of,
)
from engine.rules.preferans.outcome import DealOutcome
from engine.rules.preferans.rules import PreferansRules
from engine.rules.preferans.sheet import Sheet
from engine.tricks import FOLLOW_TRUMP, suit_order

_DUTY = (FOLLOW_TRUMP, FOLLOW_TRUMP, FOLLOW_TRUMP)
_MODES = ("open", "closed")
_DECK = list(range(32))
_ORDERS = {strain: suit_order(PIQUET, trump_of(strain)) for strain in (*STRAINS, None)}
"""How the cards rank in each strain's play (§6.2; None: misère and raspasy)."""


@cache
def _ranks(misere_rank: str) -> dict[str, int]:
    """Each bid's and misère's :func:`hand.bid_rank` under ``misere_rank``."""
    ranks = {bid: 2 * i for i, bid in enumerate(BIDS)}
    ranks["misere"] = MISERE_RANK[misere_rank]
    return ranks


class FastDeal(CardBoard):
    """One deal in progress; players 0, 1, 2 are first, second and third hand, and ``won[3]``
    (:data:`hand.TALON`) counts the tricks a talon card takes (the sitting-out dealer's, on a
    talon-led raspasy with four seats)."""

    __slots__ = (
        "rules",
        "streak",
        "talon",
        "four",
        "ranks",
        "floor",
        "phase",
        "passed",
        "spoke",
        "misere_by",
        "high",
        "high_by",
        "game",
        "level",
        "strain",
        "declarer",
        "discarded",
        "defence",
        "mode",
        "talon_lead",
    )

    def __init__(
        self,
        rules: PreferansRules,
        streak: int,
        hands: tuple[int, int, int],
        talon: tuple[int, int],
        four: bool,
    ) -> None:
        CardBoard.__init__(self, hands)
        self.won = [0, 0, 0, 0]
        self.rules = rules
        self.streak = streak
        self.talon = talon
        self.four = four
        self.ranks = _ranks(rules.misere_rank)
        self.floor = exit_floor(rules, streak)
        self.phase = AUCTION
        self.passed = 0  # a bit per player who passed
        self.spoke = 0  # a bit per player who called
        self.misere_by = -1
        self.high = -1
        self.high_by = -1
        self.game: str | None = None
        self.level: int | None = None
        self.strain: str | None = None
        self.declarer = -1
        self.discarded = 0
        self.defence = ["", "", ""]
        self.mode: str | None = None
        self.talon_lead = False

    # ---- what may be done ------------------------------------------------------------------

    def calls(self) -> list[str]:
        """§3: the auction calls of the player to speak (:func:`hand.ladder_calls`)."""
        p = self.to_act
        return ladder_calls(
            self.rules,
            self.floor,
            p,
            self.misere_by,
            self.high,
            self.high_by,
            self.spoke >> p & 1,
            3 - self.passed.bit_count(),
        )

    def whist_calls(self) -> list[str]:
        """§5: the calls of the defender to speak (:func:`hand.defence_calls`)."""
        d = self.declarer
        return defence_calls(
            self.rules, self.level or 0, self.to_act, (d + 1) % 3, (d + 2) % 3, self.defence
        )

    def legal(self) -> list[tuple[str, Any]]:
        """Every legal move as tuples (tests and bots; the playout builds no list)."""
        ph = self.phase
        if ph == AUCTION:
            return [("call", c) for c in self.calls()]
        if ph == DISCARD:
            cards = [c for c in range(32) if self.hands[self.to_act] >> c & 1]
            return [("discard", 1 << cards[a] | 1 << cards[b]) for a, b in _PAIRS]
        if ph == DECLARE:
            return [("declare", (6 + i // 5, STRAINS[i % 5])) for i in range(self.high // 2, 25)]
        if ph == WHIST:
            return [("whist", c) for c in self.whist_calls()]
        if ph == MODE:
            return [("mode", m) for m in _MODES]
        if ph == PLAY:
            mask = self.legal_card_mask()
            return [("card", c) for c in range(32) if mask >> c & 1]
        return []

    # ---- what happens ----------------------------------------------------------------------

    def step(self, move: tuple[str, Any]) -> None:
        """Apply a legal move (not re-validated)."""
        kind, value = move
        if kind == "card":
            self.play_card(value)
        elif kind == "call":
            self.call(value)
        elif kind == "discard":
            self.discard(value)
        elif kind == "declare":
            self.declare(*value)
        elif kind == "whist":
            self.whist(value)
        else:
            self.mode = value
            self.start_play()

    def call(self, c: str) -> None:
        """§3: a call; all passing is raspasy, the last player left holding the highest call
        wins the auction, else the next player not passed speaks."""
        p = self.to_act
        self.spoke |= 1 << p
        if c == "pass":
            self.passed |= 1 << p
        elif c == "hold":
            self.high_by = p
        else:
            self.high = self.ranks[c]
            self.high_by = p
            if c == "misere":
                self.misere_by = p
        passed = self.passed
        if passed == 7:
            self.game = "raspasy"
            self.talon_lead = self.rules.raspasy_talon == "lead"
            self.start_play()
            return
        w = self.high_by
        if passed.bit_count() == 2 and w >= 0 and not passed >> w & 1:
            self.won_auction(w)
            return
        q = (p + 1) % 3
        while passed >> q & 1:
            q = (q + 1) % 3
        self.to_act = q

    def won_auction(self, p: int) -> None:
        """§4: the declarer takes the talon."""
        self.game = "misere" if self.high % 2 else "contract"
        self.declarer = p
        self.hands[p] |= 1 << self.talon[0] | 1 << self.talon[1]
        self.to_act = p
        self.phase = DISCARD

    def discard(self, cards: int) -> None:
        """§4: two cards laid away; a misère is played at once, a contract is declared."""
        self.hands[self.to_act] &= ~cards
        self.discarded = cards
        if self.game == "misere":
            self.start_play()
        else:
            self.phase = DECLARE

    def declare(self, level: int, strain: str) -> None:
        """§4, §5: the order; a checked ten is played at once, else the first defender
        speaks."""
        self.level = level
        self.strain = strain
        if level == 10 and not self.rules.ten_whisted:
            self.start_play()
        else:
            self.phase = WHIST
            self.to_act = (self.declarer + 1) % 3

    def whist(self, call: str) -> None:
        """§5: the defenders' calls, the return of a half-whist, and what follows them."""
        p = self.to_act
        d = self.declarer
        first, second = (d + 1) % 3, (d + 2) % 3
        defence = self.defence
        if p == first and defence[second] == "half":  # the return of a half-whist (§5.3)
            if call == "whist":
                defence[first] = "whist"
                defence[second] = "pass"
                self.phase = MODE
            else:
                defence[first] = "pass"
                self.end()
            return
        defence[p] = call
        if p == first:
            self.to_act = second
            return
        if call == "half":
            self.to_act = first
            return
        whisters = (defence[first] == "whist") + (defence[second] == "whist")
        if not whisters:
            self.end()
        elif whisters == 1:
            self.phase = MODE
            self.to_act = first if defence[first] == "whist" else second
        else:
            self.start_play()

    def end(self) -> None:
        self.phase = DONE
        self.to_act = -1

    def start_play(self) -> None:
        """§6.1, §8.1: first hand leads to trick 1 (trumps only in a suit contract), or the
        talon's first card on a talon-led raspasy."""
        self.phase = PLAY
        self.start_tricks(_ORDERS[self.strain if self.game == "contract" else None], _DUTY, 0, 7)
        if self.talon_lead:
            self.lead_talon(self.talon[0])

    def lead_talon(self, card: int) -> None:
        """§8.1: a talon card leads the trick; first hand plays to it first."""
        self.trick = [card]
        self.led = self.suit_of[card]
        self.best = card
        self.best_by = TALON
        self.to_act = 0

    def play_card(self, c: int) -> None:
        """A card, as the board plays it; a talon-led trick (the first two of a talon-led
        raspasy) goes to :func:`hand.talon_trick_winner`, and first hand leads after it."""
        if not self.talon_lead or self.tricks >= 2:
            CardBoard.play_card(self, c)
            return
        p = self.to_act
        self.hands[p] &= ~(1 << c)
        trick = self.trick
        trick.append(c)
        if len(trick) < 4:
            self.to_act = p + 1
            return
        i = talon_trick_winner(_ORDERS[None], trick, self.four)
        self.won[TALON if i == 0 else i - 1] += 1
        self.tricks += 1
        self.trick = []
        self.to_act = 0
        if self.tricks == 1:
            self.lead_talon(self.talon[1])

    def trick_done(self, winner: int) -> None:
        """All ten tricks are played (§6.4)."""
        if self.tricks == 10:
            self.end()

    # ---- the outcome -----------------------------------------------------------------------

    def outcome(
        self,
        seats: tuple[str, ...],
        dealer: str,
        active: tuple[str, ...],
        sheet: Sheet | None,
    ) -> DealOutcome:
        """The finished deal as the score sheet records it (:func:`hand.deal_outcome`)."""
        return deal_outcome(
            self.rules,
            seats,
            dealer,
            active,
            self.streak,
            sheet,
            self.game,
            self.level,
            self.strain,
            self.declarer,
            self.defence,
            self.mode,
            self.won,
            self.tricks,
        )


# ---- the random bot's policy -----------------------------------------------------------------


def pick(rand: Callable[[], float], n: int) -> int:
    """The random bot's choice among ``n`` things in their listed order: ``int(rand() * n)``,
    no draw when there is one (as the board's card pick)."""
    return int(rand() * n) if n > 1 else 0


_PAIRS = tuple((a, b) for a in range(12) for b in range(a + 1, 12))


def pick_discard(rand: Callable[[], float], hand: int) -> int:
    """The random bot's discard: the two cards of pair :func:`pick` of the 66 pairs of the
    twelve cards in ``hand`` (deck order; each pair equally likely)."""
    a, b = _PAIRS[pick(rand, 66)]
    for _ in range(a):  # drop the a lowest cards: the lowest left is the a-th
        hand &= hand - 1
    first = hand & -hand
    hand ^= first
    for _ in range(b - a - 1):
        hand &= hand - 1
    return first | hand & -hand


def deal_cards(rng: random.Random) -> tuple[tuple[int, int, int], tuple[int, int]]:
    """A random deal (:func:`shuffled`, :func:`deal_order`)."""
    return deal_order(shuffled(rng))


def shuffled(rng: random.Random) -> list[int]:
    """The deck shuffled by Fisher–Yates, each position drawn from one 160-bit
    ``rng.getrandbits`` in mixed radix (32! < 2**118, so the bias is below 2**-42)."""
    deck = _DECK[:]
    r = rng.getrandbits(160)
    for i in range(31, 0, -1):
        r, j = divmod(r, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_order(deck: Sequence[int]) -> tuple[tuple[int, int, int], tuple[int, int]]:
    """§2: a deck order dealt in pairs, the talon fourth (``ruleset.DEALING``): first, second
    and third hand's masks, and the talon in order."""
    return (
        1 << deck[0]
        | 1 << deck[1]
        | 1 << deck[8]
        | 1 << deck[9]
        | 1 << deck[14]
        | 1 << deck[15]
        | 1 << deck[20]
        | 1 << deck[21]
        | 1 << deck[26]
        | 1 << deck[27],
        1 << deck[2]
        | 1 << deck[3]
        | 1 << deck[10]
        | 1 << deck[11]
        | 1 << deck[16]
        | 1 << deck[17]
        | 1 << deck[22]
        | 1 << deck[23]
        | 1 << deck[28]
        | 1 << deck[29],
        1 << deck[4]
        | 1 << deck[5]
        | 1 << deck[12]
        | 1 << deck[13]
        | 1 << deck[18]
        | 1 << deck[19]
        | 1 << deck[24]
        | 1 << deck[25]
        | 1 << deck[30]
        | 1 << deck[31],
    ), (deck[6], deck[7])


def play_random_deal(
    rules: PreferansRules, streak: int, four: bool, rng: random.Random
) -> FastDeal:
    """Deal (:func:`deal_cards`) and play one deal to its end with the random bot's policy."""
    hands, talon = deal_cards(rng)
    h = FastDeal(rules, streak, hands, talon, four)
    rand = rng.random
    ph = AUCTION
    floor = h.floor
    while ph == AUCTION:  # h.calls() and pick(), inlined
        p = h.to_act
        calls = ladder_calls(
            rules,
            floor,
            p,
            h.misere_by,
            h.high,
            h.high_by,
            h.spoke >> p & 1,
            3 - h.passed.bit_count(),
        )
        n = len(calls)
        h.call(calls[int(rand() * n)] if n > 1 else calls[0])
        ph = h.phase
    if ph == DISCARD:
        h.discard(pick_discard(rand, h.hands[h.to_act]))
        ph = h.phase
        if ph == DECLARE:
            i = h.high // 2 + pick(rand, 25 - h.high // 2)
            h.declare(6 + i // 5, STRAINS[i % 5])
            ph = h.phase
            while ph == WHIST:
                calls = h.whist_calls()
                h.whist(calls[int(rand() * len(calls))])  # pick(): two or three calls
                ph = h.phase
            if ph == MODE:
                h.mode = _MODES[pick(rand, 2)]
                h.start_play()
                ph = h.phase
    if ph == PLAY:
        if h.talon_lead:
            while h.tricks < 2:
                mask = h.legal_card_mask()
                for _ in range(pick(rand, mask.bit_count())):
                    mask &= mask - 1
                h.play_card((mask & -mask).bit_length() - 1)
        h.play_random(rand)
    return h


def random_result(
    rules: PreferansRules,
    seats: Sequence[str],
    streak: int,
    sheet: Sheet | None,
    rng: random.Random,
) -> dict[str, Any]:
    """One random deal at a table of ``seats`` (the last deals) on the fast path, and its
    Result (:func:`scoring.score`)."""
    seat_tuple = tuple(seats)
    active = (seat_tuple[0], seat_tuple[1], seat_tuple[2])
    h = play_random_deal(rules, streak, len(seat_tuple) == 4, rng)
    return scoring.score(h.outcome(seat_tuple, seat_tuple[-1], active, sheet))


__all__ = [
    "FastDeal",
    "deal_cards",
    "deal_order",
    "pick",
    "pick_discard",
    "play_random_deal",
    "random_result",
    "shuffled",
]
