"""The random bot's policy and the fast path of a Doppelkopf hand (bots, simulations, the
benchmark).

The policy (:func:`choose`): a reservation is the healthy one (``none``, or ``hochzeit`` for a
``doppelkopf`` player holding both CQ) 19 times in 20, else uniform among the others; under the
DDV rules, before each trick one draw in 20 lets a seat with an announcement in time (uniform
among them) make its lowest one (and the next draw whether another follows); a card is the
k-th lowest legal card, ``k = int(rand() * count)``, with no draw when there is one, as the
shared board's playout picks it.

The fast path (:func:`random_result`) makes the same draws for the same choices, so it reaches
the validating path's Result for the same seed, only sooner:

- it deals by a Fisher-Yates shuffle on ``rand()`` (:func:`deal_hands`, which the validating
  path's callers deal by too), each hand a mask built as its places are drawn;
- while all four seats send their healthy reservation (over four hands in five) the game is
  :func:`healthy_game`'s, what :func:`hand.resolve` makes of them; a seat's other reservations
  are remembered by the cards that decide them (:func:`other_reservations`), and any other set
  of reservations is resolved by :func:`hand.resolve` itself;
- it plays the twelve tricks in one loop (:func:`play_out`) that reads one
  :class:`Table` per game and duty: the cards that beat each card as the trick's best, the
  cards of its game suit; the cards a player may play are :func:`engine.tricks.legal_mask`'s,
  written out from them (``tests/engine/test_doppelkopf_fast.py`` compares the two);
- it counts the tricks as they fall (Augen, tricks, CQ tricks, DDV announcements and extras)
  instead of keeping them, and settles the counts by the function every outcome of the rule set
  is settled by (:func:`kasse.result`, :func:`ddv.result`; :func:`settle_played`), without
  building an :class:`~engine.rules.doppelkopf.outcome.Outcome` in between.

``tests/engine/test_doppelkopf_play.py`` and ``tests/engine/test_doppelkopf_fast.py`` play hands
by :func:`choose` on the validating states and on the fast path from the same seed and check
that they reach the same Result, key for key and in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

from engine.actions import Action, PlayCard
from engine.rules.doppelkopf.actions import Announce, Reservation
from engine.rules.doppelkopf.cards import AUGEN, CJ, CQ, DA, DECK, NORMAL, obligations, order_for
from engine.rules.doppelkopf.ddv import result as ddv_result
from engine.rules.doppelkopf.hand import (
    RESERVE,
    State,
    announce_levels,
    announce_options,
    announce_top,
    card_mask,
    game_entry,
    hochzeit_step,
    reservation_choices,
    reservation_options,
    resolve,
    word_of,
)
from engine.rules.doppelkopf.kasse import result as kasse_result
from engine.rules.doppelkopf.outcome import TOTAL_AUGEN, TRICKS
from engine.rules.doppelkopf.results import DOPPELKOPF_AUGEN
from engine.rules.doppelkopf.rules import AnyRules, DdvRules
from engine.tricks import FOLLOW_BIT, HEAD_BIT, LOWEST_BIT, TRUMP_BIT, CardOrder

HEALTHY_SHARE = 0.95
"""How often the bot sends the healthy reservation."""
ANNOUNCE_SHARE = 0.05
"""DDV: how often, before a trick, the bot lets a seat announce."""

Rand = Callable[[], float]


def pick(rand: Rand, n: int) -> int:
    """A uniform index below ``n`` (no draw when ``n`` is 1)."""
    return 0 if n == 1 else int(rand() * n)


def kth_card(rand: Rand, mask: int) -> int:
    """The k-th lowest card of ``mask``, ``k = int(rand() * count)`` (no draw for one card)."""
    count = mask.bit_count()
    if count > 1:
        for _ in range(int(rand() * count)):
            mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def healthy(rules: AnyRules, seat: str, hand: int) -> Reservation:
    """The healthy reservation: ``none``, or in ``doppelkopf`` ``hochzeit`` with both CQ (who
    may not send ``none``)."""
    if not rules.ddv and hand & CQ == CQ:
        return Reservation(seat, "hochzeit")
    return Reservation(seat, "none")


def choose_reservation(
    rand: Rand, first: Reservation, options: Callable[[], Sequence[Reservation]]
) -> Reservation:
    """``first`` (:func:`healthy`) with :data:`HEALTHY_SHARE`, else uniform among the other
    ``options()``."""
    if rand() < HEALTHY_SHARE:
        return first
    return choose_other(rand, first, options())


def choose_other(rand: Rand, first: Reservation, options: Sequence[Reservation]) -> Reservation:
    """Uniform among ``options`` but ``first`` (``first`` when there are none)."""
    others = [r for r in options if r != first]
    return others[pick(rand, len(others))] if others else first


RESERVING_CARDS = CQ | CJ
"""The cards that decide which reservations a hand may send (:func:`hand.reservation_refusal`
reads how many CQ it holds and whether a CJ) and its :func:`healthy` one."""


@lru_cache(maxsize=1024)
def other_reservations(
    rules: AnyRules, seat: str, cards: int
) -> tuple[Reservation, tuple[Reservation, ...]]:
    """The :func:`healthy` reservation of ``seat`` holding ``cards`` (a hand's
    :data:`RESERVING_CARDS`) and his other :func:`hand.reservation_choices`, as
    :func:`choose_other` draws from them."""
    first = healthy(rules, seat, cards)
    return first, tuple(r for r in reservation_choices(rules, seat, cards) if r != first)


_announce_top = cache(announce_top)
""":func:`hand.announce_top` remembered (a few thousand arguments at most)."""


def choose(s: State, rng: random.Random) -> Action:
    """The ``random`` bot's action for a hand in progress (module docstring)."""
    if s.is_over:
        raise ValueError("the hand is over")
    rand = rng.random
    p = s.turn
    if s.phase == RESERVE:
        if s.vorfuehrung == s.active[p]:  # vorgeführt: one of his solos
            solos = reservation_options(s, p)
            return solos[pick(rand, len(solos))]
        first = healthy(s.rules, s.active[p], s.hands[p])
        return choose_reservation(rand, first, lambda: reservation_options(s, p))
    if s.ddv and not s.trick and rand() < ANNOUNCE_SHARE:
        who = [q for q in range(4) if announce_levels(s, q)[0] >= 0]
        if who:
            q = who[pick(rand, len(who))]
            return Announce(s.active[q], announce_options(s, q)[0])
    c = kth_card(rand, card_mask(s))
    return PlayCard(s.active[p], c - c % 2)


def choose_for(s: State, p: int, rng: random.Random) -> Action | None:
    """The ``random`` bot's action for player ``p`` alone (a bot seat at a table, whoever else
    may act): on his turn as :func:`choose` with only his own announcements; otherwise one of
    his announcements with :data:`ANNOUNCE_SHARE` before a trick is begun, else ``None``
    (he lets the moment pass)."""
    if s.is_over:
        return None
    rand = rng.random
    if p != s.turn or s.phase == RESERVE:
        if p != s.turn:
            if s.ddv and s.phase != RESERVE and not s.trick and rand() < ANNOUNCE_SHARE:
                words = announce_options(s, p)
                return Announce(s.active[p], words[0]) if words else None
            return None
        return choose(s, rng)
    if s.ddv and not s.trick and rand() < ANNOUNCE_SHARE:
        words = announce_options(s, p)
        if words:
            return Announce(s.active[p], words[0])
    c = kth_card(rand, card_mask(s))
    return PlayCard(s.active[p], c - c % 2)


_FULL = DECK.full
_BITS: tuple[int, ...] = tuple(1 << c for c in range(DECK.size))
"""Each card's bit."""
_DEAL: tuple[tuple[tuple[int, float], ...], ...] = tuple(
    tuple((i, float(i + 1)) for i in range(top, top - 12, -1)) for top in (47, 35, 23)
)
"""The places :func:`deal_hands` draws, per hand (the dealer's, the third seat's, the second
seat's): each place ``i`` and how many cards are left to draw it from (a float: ``rand() * n``
is the same product, multiplied as two floats)."""


def deal_hands(rand: Rand) -> tuple[int, int, int, int]:
    """Four random hands of 12: a Fisher-Yates shuffle on ``rand()`` that stops once the last
    36 places are drawn (to the dealer, the seat before him and the next); the 12 cards left
    are forehand's. Place ``i`` is final once drawn: it goes to hand ``i // 12``.

    ``(rand() * n).__trunc__()`` is ``int(rand() * n)`` (``int`` of a float is its
    ``__trunc__``), without the cost of calling the type ``int``; so are the draws of
    :func:`play_out`."""
    cards = list(_BITS)
    to_dealer, to_third, to_second = _DEAL
    dealer = third = second = 0
    for i, n in to_dealer:
        j = (rand() * n).__trunc__()
        dealer |= cards[j]
        cards[j] = cards[i]
    for i, n in to_third:
        j = (rand() * n).__trunc__()
        third |= cards[j]
        cards[j] = cards[i]
    for i, n in to_second:
        j = (rand() * n).__trunc__()
        second |= cards[j]
        cards[j] = cards[i]
    return _FULL ^ (second | third | dealer), second, third, dealer


def healthy_game(ddv: bool, hands: Sequence[int]) -> tuple[str, int]:
    """The game and declarer :func:`hand.resolve` gives when every seat sent its
    :func:`healthy` reservation: a Hochzeit (``doppelkopf``) or stilles Solo (DDV) of the first
    player holding both CQ, else a normal game (forehand leads, no Pflichtsolo)."""
    for p in range(4):
        if hands[p] & CQ == CQ:
            return ("silent_solo" if ddv else "hochzeit"), p
    return "normal", -1


class Table:
    """What the trick loop reads of one game's :class:`CardOrder` under one duty, per card
    index: ``beats[c]`` the cards that beat ``c`` as the trick's best card (the higher cards of
    its game suit, and every trump when ``c`` is not one: :meth:`CardOrder.beats`),
    ``follow[c]`` the cards of its game suit; ``must_trump`` the trumps when a void follower
    must trump (``-1``: any card, no duty to follow at all); ``head`` whether the trick must be
    beaten when possible.

    The cards a follower may play (:func:`engine.tricks.legal_mask`) are then ``hand &
    follow[led] or hand & must_trump or hand``, and under ``head`` those of them in
    ``beats[best]``, if any: ``beats[best]`` lies within the led suit and the trumps, it is the
    led suit's higher cards while the best card is of the led suit and the higher trumps once it
    is a trump, and every trump while no trump lies in the trick (``tests/engine/
    test_doppelkopf_fast.py`` checks this against ``legal_mask`` for each game and duty)."""

    __slots__ = ("beats", "follow", "head", "must_trump")

    def __init__(self, order: CardOrder, duty: int) -> None:
        if duty & LOWEST_BIT or (duty & HEAD_BIT and not duty & TRUMP_BIT):
            raise ValueError(f"no Doppelkopf rules have the obligations {duty}")
        trumps = order.suit_mask[order.trump] if order.trump >= 0 else 0
        self.beats: tuple[int, ...] = tuple(
            above if order.suit_of[c] == order.trump else above | trumps
            for c, above in enumerate(order.above)
        )
        self.follow: tuple[int, ...] = tuple(order.suit_mask[g] for g in order.suit_of)
        self.must_trump = trumps if duty & TRUMP_BIT else 0
        self.head = bool(duty & HEAD_BIT)
        if not duty & FOLLOW_BIT:  # no obligation at all (no rule set of this package)
            self.follow = (0,) * len(order.suit_of)
            self.must_trump, self.head = -1, False


@cache
def table_for(ddv: bool, kind: str, second_dulle: bool, stichzwang: str) -> Table:
    """The :class:`Table` of a game of ``kind`` (:func:`cards.order_for`) under the obligations
    of ``stichzwang`` (:func:`cards.obligations`)."""
    return Table(order_for(ddv, kind, second_dulle), obligations(ddv, stichzwang).bits)


class Played:
    """What :func:`play_out` counts, per player in playing order: Augen, tricks, tricks won by
    a CQ, tricks of at least 40 Augen; the foxes (who lost a DA, who won it); the last trick's
    winner and winning card; the Hochzeit's partner and clarifying trick; the announcement
    levels and replies of Re and Kontra; the final Re party, sorted."""

    __slots__ = (
        "augen",
        "tricks",
        "queen_tricks",
        "big",
        "foxes",
        "last",
        "partner",
        "clarified",
        "levels",
        "reply_only",
        "re",
    )

    def __init__(self) -> None:
        self.augen = [0, 0, 0, 0]
        self.tricks = [0, 0, 0, 0]
        self.queen_tricks = [0, 0, 0, 0]
        self.big = [0, 0, 0, 0]
        self.foxes: list[tuple[int, int]] = []
        self.last = (-1, -1)
        self.partner = -1
        self.clarified = 0
        self.levels = [-1, -1]
        self.reply_only = [False, False]
        self.re: tuple[int, ...] = ()


def _re(game: str, declarer: int, queens: tuple[int, ...], partner: int) -> tuple[int, ...]:
    """The Re party as it stands (:attr:`hand.State.re`)."""
    if game == "normal":
        return queens
    if game == "hochzeit" and partner >= 0:
        return (declarer, partner)
    return (declarer,)


FOX_AUGEN = AUGEN[(DA & -DA).bit_length() - 1]
"""A DA's Augen (11): no trick it falls in holds fewer, nor does a trick of
:data:`~engine.rules.doppelkopf.results.DOPPELKOPF_AUGEN`."""

FOLLOWERS: tuple[tuple[int, int, int], ...] = tuple(
    ((p + 1) % 4, (p + 2) % 4, (p + 3) % 4) for p in range(4)
)
"""The three players after each leader, in play order."""


def play_out(
    rules: AnyRules,
    game: str,
    declarer: int,
    hands: Sequence[int],
    table: Table,
    leader: int,
    rand: Rand,
) -> Played:
    """The twelve tricks of a hand played by :func:`choose`'s policy, counted as they fall.

    A card beats the trick when it lies in ``table.beats`` of the trick's best card. Before
    trick ``n`` every player holds ``cards = 13 - n`` cards, so the leader's count needs no
    ``bit_count``; the k-th lowest card is found from the nearer end of the mask
    (:func:`kth_card`'s card). DDV: the tricks of 40 Augen and the DA are followed only in a
    normal game or a Hochzeit, where extra points count, and only in tricks of at least a DA's
    Augen; ``doppelkopf``: the CQ tricks."""
    beats_of, follow_of, must_trump, head = table.beats, table.follow, table.must_trump, table.head
    ddv = rules.ddv
    hochzeit = game == "hochzeit"
    share, followers, points_of, queens_mask, big_trick, fox_augen = (
        ANNOUNCE_SHARE,
        FOLLOWERS,
        AUGEN,
        CQ,
        DOPPELKOPF_AUGEN,
        FOX_AUGEN,
    )
    held = list(hands)
    queens: tuple[int, ...] = ()
    for p in range(4):
        if hands[p] & queens_mask:
            queens += (p,)
    out = Played()
    augen, won, queen_tricks, big = out.augen, out.tricks, out.queen_tricks, out.big
    # DDV, where extra points count: the DA not played yet, and who was dealt them
    extras = ddv and (hochzeit or game == "normal")
    foxes = first_owner = last_owner = 0
    fox_owners: tuple[int, ...] = ()
    if extras:
        foxes = DA
        for p in range(4):
            if hands[p] & DA:
                fox_owners += (p,)
        first_owner, last_owner = fox_owners[0], fox_owners[-1]
    lead = leader
    best = best_by = -1
    for cards in range(12, 0, -1):
        if ddv and rand() < share:
            _announcements(out, game, declarer, queens, cards, rand)
        # the leader: any of his cards
        hand = mask = held[lead]
        if cards == 1:
            bit = mask
            c = mask.bit_length() - 1
        else:
            k = (rand() * cards).__trunc__()
            if k + k < cards:
                while k:
                    mask &= mask - 1
                    k -= 1
                bit = mask & -mask
                c = bit.bit_length() - 1
            else:
                k = cards - 1 - k
                while k:
                    mask ^= 1 << (mask.bit_length() - 1)
                    k -= 1
                c = mask.bit_length() - 1
                bit = 1 << c
        held[lead] = hand ^ bit
        points = points_of[c]
        follow = follow_of[c]
        best = c
        best_by = lead
        beats = beats_of[c]
        for p in followers[lead]:
            hand = held[p]
            mask = hand & follow or hand & must_trump or hand
            if head:
                mask = mask & beats or mask
            count = mask.bit_count()
            if count == 1:
                bit = mask
                c = mask.bit_length() - 1
            else:
                k = (rand() * count).__trunc__()
                if k + k < count:
                    while k:
                        mask &= mask - 1
                        k -= 1
                    bit = mask & -mask
                    c = bit.bit_length() - 1
                else:
                    k = count - 1 - k
                    while k:
                        mask ^= 1 << (mask.bit_length() - 1)
                        k -= 1
                    c = mask.bit_length() - 1
                    bit = 1 << c
            held[p] = hand ^ bit
            points += points_of[c]
            if beats & bit:
                best = c
                best_by = p
                beats = beats_of[c]
        augen[best_by] += points
        won[best_by] += 1
        if extras:
            # a trick of 40 Augen, or one a DA fell in, holds at least a DA's Augen
            if points >= fox_augen:
                if points >= big_trick:
                    big[best_by] += 1
                if foxes:
                    gone = foxes & ~(held[first_owner] | held[last_owner])
                    if gone:
                        for p in fox_owners:
                            if hands[p] & gone:
                                out.foxes.append((p, best_by))
                        foxes ^= gone
        elif queens_mask >> best & 1:  # doppelkopf: the CQ tricks (DDV: not read)
            queen_tricks[best_by] += 1
        if hochzeit and not out.clarified:
            out.partner, out.clarified = hochzeit_step(rules, declarer, lead, best_by, 13 - cards)
        lead = best_by
    out.last = (best_by, best)
    re = _re(game, declarer, queens, out.partner)
    out.re = re if len(re) < 2 or re[0] < re[1] else (re[1], re[0])
    return out


def _announcements(
    out: Played, game: str, declarer: int, queens: tuple[int, ...], cards: int, rand: Rand
) -> None:
    """DDV, before a trick, once a draw said so: while a seat has an announcement in time, one of
    them (uniform) makes his lowest one (:func:`hand.announce_top`), and the next draw says
    whether another follows. Nothing in a Hochzeit before it is clarified; after, every minimum
    drops by ``c - 1`` (clarified at trick ``c``). Before a trick every seat holds the same
    ``cards``, so what a seat may announce is his party's."""
    if game == "hochzeit" and not out.clarified:
        return
    d = out.clarified - 1 if game == "hochzeit" else 0
    levels, reply_only = out.levels, out.reply_only
    parties: list[int] = []
    while True:
        top_re, reply_re = _announce_top(cards, levels[0], levels[1], reply_only[0], d)
        top_kontra, reply_kontra = _announce_top(cards, levels[1], levels[0], reply_only[1], d)
        if top_re < 0 and top_kontra < 0:
            return
        if not parties:
            re = _re(game, declarer, queens, out.partner)
            parties = [0 if q in re else 1 for q in range(4)]
        # the seats in time, in playing order: those of each party with a level in time
        who = [party for party in parties if (top_kontra if party else top_re) >= 0]
        party = who[pick(rand, len(who))]
        if levels[party] < 0 and (reply_kontra if party else reply_re):
            reply_only[party] = True
        levels[party] += 1
        if rand() >= ANNOUNCE_SHARE:
            return


def settle_played(
    rules: AnyRules,
    active: tuple[str, ...],
    game: dict[str, Any],
    played: Played,
    kasse_before: int | None,
) -> dict[str, Any]:
    """The Result of a hand counted by :func:`play_out`: what ``results.outcome_from_tricks``
    would find in its tricks (Karlchen Müller: its last trick only; else each party's Augen and
    tricks, ``doppelkopf`` its CQ tricks, DDV its announcements and its extra points in a normal
    game or a Hochzeit with a partner), settled by the function that settles every outcome of
    the rule set (:func:`kasse.result`, :func:`ddv.result`), without an outcome in between."""
    re = played.re
    if len(re) == 1:
        (p,) = re
        o = p
        seats = [active[p]]
    else:
        p, o = re
        seats = [active[p], active[o]]
    augen, won = played.augen, played.tricks
    # Re's Augen and tricks (a party of one counted once)
    augen_re = augen[p] + augen[o] if o != p else augen[p]
    tricks_re = won[p] + won[o] if o != p else won[p]
    points = (augen_re, TOTAL_AUGEN - augen_re)
    tricks = (tricks_re, TRICKS - tricks_re)
    if isinstance(rules, DdvRules):
        re_level, kontra_level = played.levels
        announcements = {
            "re": None if re_level < 0 else word_of(re_level, 0),
            "kontra": None if kontra_level < 0 else word_of(kontra_level, 1),
        }
        extra = len(re) == 2 and game["type"] in ("normal", "hochzeit")
        earned = _extras(played, re) if extra else None
        return ddv_result(rules, active, game, seats, points, tricks, announcements, earned)
    assert kasse_before is not None
    if game["type"] == "karlchen":
        w, c = played.last
        last = (active[w], DECK.codes[c])
        return kasse_result(rules, active, game, seats, None, None, (0, 0), last, kasse_before)
    queens = played.queen_tricks
    queens_re = queens[p] + queens[o] if o != p else queens[p]
    queen_tricks = (queens_re, sum(queens) - queens_re)
    return kasse_result(
        rules, active, game, seats, points, tricks, queen_tricks, None, kasse_before
    )


def _extras(played: Played, re: tuple[int, ...]) -> tuple[list[str], list[str]]:
    """DDV: each party's own extra points (:func:`results.extras_from_tricks`): a
    ``doppelkopf`` per trick of 40 Augen, a ``fox`` per DA won from the other party, a
    ``karlchen`` for a CJ winning the last trick."""
    p, o = re
    big = played.big
    mine = ["doppelkopf"] * (big[p] + big[o])
    theirs = ["doppelkopf"] * (sum(big) - len(mine))
    for owner, winner in played.foxes:
        if winner in re:
            if owner not in re:
                mine.append("fox")
        elif owner in re:
            theirs.append("fox")
    w, c = played.last
    if CJ >> c & 1:
        (mine if w in re else theirs).append("karlchen")
    return mine, theirs


def random_result(
    rules: AnyRules,
    active: tuple[str, ...],
    kasse: int | None,
    pflicht_owed: tuple[str, ...],
    rng: random.Random,
) -> dict[str, Any]:
    """One random hand dealt, reserved and played by :func:`choose`'s policy on the fast path:
    its Result. While every seat sends its healthy reservation (four hands in five) the game is
    :func:`healthy_game`'s, and no list of reservations is made. The counts are settled by
    :func:`settle_played`, which ends in :func:`kasse.result` or :func:`ddv.result` as the rule
    set's ``settle_outcome`` does."""
    rand = rng.random
    hands = deal_hands(rand)
    ddv = rules.ddv
    reservations = None
    for p in range(4):
        if rand() >= HEALTHY_SHARE:
            if reservations is None:  # the healthy ones before it (the seat does not matter)
                reservations = [healthy(rules, "", hands[q]) for q in range(p)]
            first, others = other_reservations(rules, active[p], hands[p] & RESERVING_CARDS)
            reservations.append(others[pick(rand, len(others))] if others else first)
        elif reservations is not None:
            reservations.append(healthy(rules, "", hands[p]))
    if reservations is None:
        game, declarer = healthy_game(ddv, hands)
        kind, pflicht, leader = NORMAL, False, 0
    else:
        game, declarer, kind, pflicht, leader = resolve(
            rules, active, pflicht_owed, hands, tuple(reservations)
        )
        kind = NORMAL if kind == "D" else kind
    if isinstance(rules, DdvRules):
        table = table_for(True, kind, rules.second_dulle, "")
    else:
        table = table_for(False, kind, False, rules.stichzwang)
    played = play_out(rules, game, declarer, hands, table, leader, rand)
    return settle_played(rules, active, game_entry(ddv, game, kind, pflicht), played, kasse)


__all__ = [
    "ANNOUNCE_SHARE",
    "HEALTHY_SHARE",
    "RESERVING_CARDS",
    "Played",
    "Table",
    "choose",
    "choose_other",
    "choose_reservation",
    "deal_hands",
    "healthy",
    "healthy_game",
    "kth_card",
    "other_reservations",
    "pick",
    "play_out",
    "random_result",
    "settle_played",
    "table_for",
]
