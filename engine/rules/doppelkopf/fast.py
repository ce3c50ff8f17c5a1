"""The random bot's policy and the fast path of a Doppelkopf hand (bots, simulations, the
benchmark).

The policy (:func:`choose`): a reservation is the healthy one (``none``, or ``hochzeit`` for a
``doppelkopf`` player holding both CQ) 19 times in 20, else uniform among the others; under the
DDV rules, before each trick one draw in 20 lets a seat with an announcement in time (uniform
among them) make its lowest one (and the next draw whether another follows); a card is the
k-th lowest legal card, ``k = int(rand() * count)``, with no draw when there is one, as the
shared board's playout picks it.

The fast path (:func:`random_result`) deals with a Fisher-Yates shuffle on ``rand()``, asks the
reservations and the game of the same functions as the validating path (:mod:`hand`), and plays
the twelve tricks in one loop (:func:`play_out`): the cards a player may play are
:func:`engine.tricks.legal_mask`'s (written out for ``FOLLOW`` and ``FOLLOW_TRUMP``, called for
``HEAD``), the tricks are counted as they fall (Augen, tricks, CQ tricks, DDV extras) instead of
being kept, and the outcome is built from the counts (:func:`fast_outcome`, the same value
``results.outcome_from_tricks`` gives). ``tests/engine/test_doppelkopf_play.py`` plays hands by
:func:`choose` on the validating states and on the fast path from the same ``rand`` and checks
that they settle alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action, PlayCard
from engine.rules.doppelkopf.actions import Announce, Reservation
from engine.rules.doppelkopf.cards import AUGEN, CJ, CQ, DA, DECK, NORMAL, obligations, order_for
from engine.rules.doppelkopf.hand import (
    PARTIES,
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
from engine.rules.doppelkopf.outcome import (
    NO_ANNOUNCEMENTS,
    NO_EXTRAS,
    NO_QUEEN_TRICKS,
    NO_REPLIES,
    TOTAL_AUGEN,
    TRICKS,
    Outcome,
)
from engine.rules.doppelkopf.results import DOPPELKOPF_AUGEN
from engine.rules.doppelkopf.rules import AnyRules
from engine.tricks import FOLLOW_BIT, HEAD_BIT, TRUMP_BIT, CardOrder, legal_mask

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


_NONE = Reservation("", "none")
_HOCHZEIT = Reservation("", "hochzeit")


def choose(s: State, rng: random.Random) -> Action:
    """The ``random`` bot's action for a hand in progress (module docstring)."""
    if s.is_over:
        raise ValueError("the hand is over")
    rand = rng.random
    p = s.turn
    if s.phase == RESERVE:
        first = healthy(s.rules, s.active[p], s.hands[p])
        return choose_reservation(rand, first, lambda: reservation_options(s, p))
    if s.ddv and not s.trick and rand() < ANNOUNCE_SHARE:
        who = [q for q in range(4) if announce_levels(s, q)[0] >= 0]
        if who:
            q = who[pick(rand, len(who))]
            return Announce(s.active[q], announce_options(s, q)[0])
    c = kth_card(rand, card_mask(s))
    return PlayCard(s.active[p], c - c % 2)


def deal_hands(rand: Rand) -> tuple[int, int, int, int]:
    """Four random hands of 12: a Fisher-Yates shuffle on ``rand()`` that stops once the last
    36 places are drawn (to the dealer, the seat before him and the next); the 12 cards left
    are forehand's."""
    cards = list(range(48))
    hands = [0, 0, 0, 0]
    for i in range(47, 11, -1):  # place i is final once drawn: it goes to hand i // 12
        j = int(rand() * (i + 1))
        c = cards[j]
        cards[j] = cards[i]
        hands[i // 12] |= 1 << c
    return DECK.full ^ (hands[1] | hands[2] | hands[3]), hands[1], hands[2], hands[3]


class Played:
    """What :func:`play_out` counts, per player in playing order: Augen, tricks, tricks won by
    a CQ, tricks of at least 40 Augen; the foxes (who lost a DA, who won it); the last trick's
    winner and winning card; the Hochzeit's partner and clarifying trick; the announcement
    levels and replies of Re and Kontra."""

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


def _re(game: str, declarer: int, queens: tuple[int, ...], partner: int) -> tuple[int, ...]:
    """The Re party as it stands (:attr:`hand.State.re`)."""
    if game == "normal":
        return queens
    if game == "hochzeit" and partner >= 0:
        return (declarer, partner)
    return (declarer,)


def _announce(
    out: Played, game: str, declarer: int, queens: tuple[int, ...], hands: list[int], p: int
) -> bool:
    """Player ``p`` makes his lowest announcement if one is in time (:func:`hand.announce_top`);
    whether he did."""
    if game == "hochzeit" and not out.clarified:
        return False
    party = 0 if p in _re(game, declarer, queens, out.partner) else 1
    d = out.clarified - 1 if game == "hochzeit" else 0
    levels = out.levels
    top, reply = announce_top(
        hands[p].bit_count(), levels[party], levels[1 - party], out.reply_only[party], d
    )
    if top < 0:
        return False
    if levels[party] < 0 and reply:
        out.reply_only[party] = True
    levels[party] += 1
    return True


FOLLOWERS: tuple[tuple[int, int, int], ...] = tuple(
    ((p + 1) % 4, (p + 2) % 4, (p + 3) % 4) for p in range(4)
)
"""The three players after each leader, in play order."""


def play_out(
    rules: AnyRules,
    game: str,
    declarer: int,
    hands: Sequence[int],
    order: CardOrder,
    duty: int,
    leader: int,
    rand: Rand,
) -> Played:
    """The twelve tricks of a hand played by :func:`choose`'s policy, counted as they fall.

    A card beats the trick when it lies in ``beats``: the cards above the best card of its
    game suit, and every trump while the best card is not one (:meth:`CardOrder.beats`)."""
    suit_of, suit_mask, above, trump = order.suit_of, order.suit_mask, order.above, order.trump
    trumps = suit_mask[trump] if trump >= 0 else 0
    head = duty & HEAD_BIT
    must_trump = trumps if duty & TRUMP_BIT else 0
    if not duty & FOLLOW_BIT:  # no obligation at all (no rule set of this package)
        head, must_trump = 0, -1
    ddv = rules.ddv
    hochzeit = game == "hochzeit"
    share, followers, points_of, queens_mask, big_trick = (
        ANNOUNCE_SHARE,
        FOLLOWERS,
        AUGEN,
        CQ,
        DOPPELKOPF_AUGEN,
    )
    held = list(hands)
    queens = tuple(p for p in range(4) if held[p] & CQ)
    out = Played()
    augen, won, queen_tricks, big = out.augen, out.tricks, out.queen_tricks, out.big
    foxes = DA  # the DA not played yet
    lead = leader
    best = best_by = -1
    for n in range(1, 13):
        if ddv and rand() < share:
            _announcements(out, game, declarer, queens, held, rand)
        hand = held[lead]
        count = hand.bit_count()
        if count == 1:
            c = hand.bit_length() - 1
        else:
            k = int(rand() * count)
            mask = hand
            if k + k < count:
                for _ in range(k):
                    mask &= mask - 1
                c = (mask & -mask).bit_length() - 1
            else:
                for _ in range(count - 1 - k):
                    mask ^= 1 << (mask.bit_length() - 1)
                c = mask.bit_length() - 1
        held[lead] = hand ^ (1 << c)
        points = points_of[c]
        led = suit_of[c]
        led_mask = suit_mask[led] if must_trump >= 0 else 0
        best, best_by = c, lead
        beats = above[c] if led == trump else above[c] | trumps
        for p in followers[lead]:
            hand = held[p]
            if head:
                mask = legal_mask(hand, led, best, suit_of, suit_mask, above, trump, duty)
            else:
                mask = hand & led_mask or hand & must_trump or hand
            count = mask.bit_count()
            if count == 1:
                c = mask.bit_length() - 1
            else:
                k = int(rand() * count)
                if k + k < count:
                    for _ in range(k):
                        mask &= mask - 1
                    c = (mask & -mask).bit_length() - 1
                else:
                    for _ in range(count - 1 - k):
                        mask ^= 1 << (mask.bit_length() - 1)
                    c = mask.bit_length() - 1
            held[p] = hand ^ (1 << c)
            points += points_of[c]
            if beats >> c & 1:
                best, best_by = c, p
                beats = above[c] if suit_of[c] == trump else above[c] | trumps
        w = best_by
        augen[w] += points
        won[w] += 1
        if queens_mask >> best & 1:
            queen_tricks[w] += 1
        if points >= big_trick:
            big[w] += 1
        if ddv and foxes & ~(held[0] | held[1] | held[2] | held[3]):
            gone = foxes & ~(held[0] | held[1] | held[2] | held[3])
            out.foxes += [(p, w) for p in range(4) if hands[p] & gone]
            foxes ^= gone
        if hochzeit and not out.clarified:
            out.partner, out.clarified = hochzeit_step(rules, declarer, lead, w, n)
        lead = w
    out.last = (best_by, best)
    return out


def _announcements(
    out: Played, game: str, declarer: int, queens: tuple[int, ...], held: list[int], rand: Rand
) -> None:
    """DDV, before a trick, once a draw said so: while a seat has an announcement in time, one of
    them (uniform) makes his lowest one, and the next draw says whether another follows."""
    while True:
        who = [q for q in range(4) if _announce_top(out, game, declarer, queens, held, q) >= 0]
        if not who:
            return
        _announce(out, game, declarer, queens, held, who[pick(rand, len(who))])
        if rand() >= ANNOUNCE_SHARE:
            return


def _announce_top(
    out: Played, game: str, declarer: int, queens: tuple[int, ...], hands: list[int], p: int
) -> int:
    """The highest level player ``p`` may announce now (-1: none)."""
    if game == "hochzeit" and not out.clarified:
        return -1
    party = 0 if p in _re(game, declarer, queens, out.partner) else 1
    d = out.clarified - 1 if game == "hochzeit" else 0
    levels = out.levels
    return announce_top(
        hands[p].bit_count(), levels[party], levels[1 - party], out.reply_only[party], d
    )[0]


def fast_outcome(
    rules: AnyRules,
    active: tuple[str, ...],
    game: Mapping[str, Any],
    re: tuple[int, ...],
    played: Played,
    kasse: int | None,
    pflicht_owed: tuple[str, ...],
) -> Outcome:
    """The outcome of a hand counted by :func:`play_out`: the value
    ``results.outcome_from_tricks`` gives for the same tricks (Karlchen Müller: its last trick
    only; else each party's Augen and tricks, ``doppelkopf`` its CQ tricks, DDV its extra points
    in a normal game or a Hochzeit with a partner)."""
    re_seats = tuple(active[p] for p in sorted(re))
    announcements: dict[str, str | None] = dict(NO_ANNOUNCEMENTS)
    replies: dict[str, bool] = dict(NO_REPLIES)
    if rules.ddv:
        levels = played.levels
        announcements = {
            PARTIES[i]: None if levels[i] < 0 else word_of(levels[i], i) for i in range(2)
        }
        replies = {PARTIES[i]: played.reply_only[i] for i in range(2)}
    points = tricks = None
    queen_tricks: dict[str, int] = dict(NO_QUEEN_TRICKS)
    extras: dict[str, tuple[str, ...]] = dict(NO_EXTRAS)
    last_trick = None
    if game["type"] == "karlchen":
        w, c = played.last
        last_trick = {"winner": active[w], "card": DECK.code(c)}
    else:
        augen = tricks_re = queens_re = 0
        for p in re:
            augen += played.augen[p]
            tricks_re += played.tricks[p]
            queens_re += played.queen_tricks[p]
        points = {"re": augen, "kontra": TOTAL_AUGEN - augen}
        tricks = {"re": tricks_re, "kontra": TRICKS - tricks_re}
        if not rules.ddv:
            queens = sum(played.queen_tricks)
            queen_tricks = {"re": queens_re, "kontra": queens - queens_re}
        elif game["type"] in ("normal", "hochzeit") and len(re) == 2:
            side = [0 if p in re else 1 for p in range(4)]
            earned: list[list[str]] = [[], []]
            for p in range(4):
                earned[side[p]] += ["doppelkopf"] * played.big[p]
            for owner, winner in played.foxes:
                if side[owner] != side[winner]:
                    earned[side[winner]].append("fox")
            w, c = played.last
            if CJ >> c & 1:
                earned[side[w]].append("karlchen")
            extras = {"re": tuple(sorted(earned[0])), "kontra": tuple(sorted(earned[1]))}
    return Outcome(
        rules=rules,
        order=active,
        game=dict(game),
        re=re_seats,
        points=points,
        tricks=tricks,
        queen_tricks=queen_tricks,
        last_trick=last_trick,
        announcements=announcements,
        replies=replies,
        extras=extras,
        kasse=kasse,
        pflicht_owed=pflicht_owed,
    )


def random_result(
    rules: AnyRules,
    active: tuple[str, ...],
    kasse: int | None,
    pflicht_owed: tuple[str, ...],
    rng: random.Random,
    settle: Callable[[Any], dict[str, Any]],
) -> dict[str, Any]:
    """One random hand dealt, reserved and played by :func:`choose`'s policy on the fast path,
    settled by ``settle``: its Result."""
    rand = rng.random
    hands = deal_hands(rand)
    ddv = rules.ddv
    reservations = []
    for p in range(4):
        if rand() < HEALTHY_SHARE:  # the seat does not matter to resolve
            both = not ddv and hands[p] & CQ == CQ
            reservations.append(_HOCHZEIT if both else _NONE)
        else:
            first = healthy(rules, active[p], hands[p])
            options = reservation_choices(rules, active[p], hands[p])
            reservations.append(choose_other(rand, first, options))
    game, declarer, kind, pflicht, leader = resolve(
        rules, active, pflicht_owed, hands, tuple(reservations)
    )
    kind = NORMAL if kind == "D" else kind
    order = order_for(rules.ddv, kind, bool(getattr(rules, "second_dulle", False)))
    duty = obligations(rules.ddv, getattr(rules, "stichzwang", "trump")).bits
    played = play_out(rules, game, declarer, hands, order, duty, leader, rand)
    queens = tuple(p for p in range(4) if hands[p] & CQ)
    re = _re(game, declarer, queens, played.partner)
    entry = game_entry(rules.ddv, game, kind, pflicht)
    return settle(fast_outcome(rules, active, entry, re, played, kasse, pflicht_owed))


__all__ = [
    "ANNOUNCE_SHARE",
    "HEALTHY_SHARE",
    "Played",
    "choose",
    "choose_reservation",
    "deal_hands",
    "fast_outcome",
    "healthy",
    "kth_card",
    "pick",
    "play_out",
    "random_result",
]
