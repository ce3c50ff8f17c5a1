"""A heuristic Doppelkopf bot for both rule sets, ``doppelkopf`` and ``doppelkopf-ddv``
(``spec/next/doppelkopf.md``): simple rules a club player would name, no search.

Terms: *Vorbehalt* (reservation), *Hochzeit* (both CQ in one hand), *Solo*, *stilles Solo*
(DDV: both CQ and no reservation), *Re* / *Kontra* (the parties), *Ansage* / *Absage*
(announcing one's party / the other party's shortfall), *Fuchs* (fox: the DA while it is a
trump), *Dulle* (DDV: the HT), *Augen* (card points), *Stich* (trick), *schmieren* (to feed
points, an A or a T, into a trick the partner wins), *Fehlfarbe* (a plain suit).

The bot sees only its seat's view (``engine.view(state, seat)``) and the legal actions in it;
never the state. What it knows it reads from the view: its hand, every card played and by
whom, the trick in progress, the public game and the public parties, its own reservation
(:class:`Seen`). It answers one of the ``legal`` dicts, or ``None`` when it may only announce
and chooses not to.

- **Reservations** (:func:`reservation`): each solo the rules allow is judged by
  :func:`tricks`, the tricks the hand would take alone in that solo's card order; the best one
  is sent when it reaches :data:`SOLO_TRICKS`, or when only solos are allowed (a DDV
  Vorführung). Else, holding both CQ: under the DDV rules
  ``none`` (a stilles Solo) when the normal order reaches :data:`SOLO_TRICKS`, otherwise
  ``hochzeit``; in ``doppelkopf`` ``hochzeit`` (``none`` is not allowed there). Else ``none``.
  The bot never sends ``karlchen`` or ``secret_solo``.
- **Announcements** (DDV, :func:`announcement`): the party's word when :func:`tricks` of the
  hand in the game's order reaches :data:`ANNOUNCE_TRICKS` (a soloist :data:`SOLO_ANNOUNCE`),
  while in time, in a game where its party is known to it; ``no90`` only for a soloist at
  :data:`NO90_TRICKS`. No other Absage.
- **Cards** (:func:`card`): leading, a soloist draws trumps with trumps no card left can beat,
  then cashes the aces of plain suits; anybody else leads the aces of plain suits not yet led,
  then a sure winner, then a cheap card. Following: when a known partner takes the trick for
  sure, feed him the most Augen (the fox first, then A and T, never a high trump); when the
  trick can be won, win it with the cheapest card that holds against the players still to
  play; otherwise throw the cheapest card, the fox last (a fox thrown into an opponent's trick
  is a point for the opponents under the DDV rules). A seat whose side is unknown counts as
  an opponent. A bride leads cheap cards until her Hochzeit is clarified (someone else must
  lead, or under the DDV rules win, a trick for her partner to be found).

What it cannot know it guesses: holding one CQ in a game shown as normal it takes itself for
Re, also when another seat's Heimliches Solo (``doppelkopf``) makes it Kontra.

The card orders (:class:`Order`) rank the trumps of
:func:`engine.rules.doppelkopf.cards.trump_codes` and the plain cards by the spec's "Trumps and
plain suits"; the bot lives in the rule set, which offers it as its ``heuristic`` level
(``RuleSet.bot_policies``).
``tests/engine/test_doppelkopf_heuristic.py`` checks them against the engine's own order
(trick winners of random tricks in every game). The house rule ``second_dulle`` is not in a
view; the bot assumes it off.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.rules.doppelkopf.cards import trump_codes

Json = dict[str, Any]

SUITS = "CSHD"
"""The printed suits, high to low (Farbenrangfolge)."""
PLAIN_RANKS = "ATKQJ9"
"""Plain cards rank A T K Q J 9, high to low, whichever of them are not trumps."""
AUGEN = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
"""Card points of each rank."""
CODES: tuple[str, ...] = tuple(s + r for s in SUITS for r in PLAIN_RANKS)
"""The 24 codes; each is in the deck twice."""
NORMAL = "normal"
TRUMP = "T"
"""The game suit of the trumps (the plain suits are their letters)."""
FOX = "DA"
OLD = "CQ"
"""Die Alte: in a normal game its holders are Re."""

SOLO_TRICKS = 7.0
"""A solo (or, holding both CQ under the DDV rules, a stilles Solo) is played when the hand
takes this many tricks alone (:func:`tricks`)."""
ANNOUNCE_TRICKS = 4.0
"""DDV: a player of a normal game or Hochzeit announces his party's word from this many."""
SOLO_ANNOUNCE = 8.0
"""DDV: a soloist announces ``re`` from this many."""
NO90_TRICKS = 9.5
"""DDV: a soloist announces ``no90`` (keine 90) from this many."""
FEED_RANKS = "AT"
"""The plain ranks fed to a partner (schmieren)."""


# --- card orders -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Order:
    """How the cards rank in one game: each code's game suit (:data:`TRUMP` or its printed
    suit) and its rank within it (higher wins)."""

    trumps: tuple[str, ...]
    suit: dict[str, str]
    rank: dict[str, int]

    def beats(self, card: str, best: str) -> bool:
        """``card`` takes the trick from ``best``, the trick's winning card so far: a trump
        over a plain card, else a strictly higher card of the same game suit (of two identical
        cards the first played wins)."""
        if self.suit[card] == TRUMP and self.suit[best] != TRUMP:
            return True
        return self.suit[card] == self.suit[best] and self.rank[card] > self.rank[best]

    def winner(self, cards: Sequence[str]) -> int:
        """The index of the card that takes a trick of ``cards`` (in play order)."""
        best = 0
        for i in range(1, len(cards)):
            if self.beats(cards[i], cards[best]):
                best = i
        return best

    def strength(self, card: str) -> int:
        """A trump's place among the trumps from the bottom (0 the lowest); 0 for a plain
        card."""
        if self.suit[card] != TRUMP:
            return 0
        return len(self.trumps) - 1 - self.trumps.index(card)

    def of_suit(self, suit: str) -> list[str]:
        """The codes of a game suit, high to low."""
        return sorted((c for c in CODES if self.suit[c] == suit), key=lambda c: -self.rank[c])

    @property
    def suits(self) -> tuple[str, ...]:
        """The game suits of this game: the trumps (when there are any), then the plain
        suits that still have cards."""
        plain = tuple(s for s in SUITS if any(self.suit[c] == s for c in CODES))
        return ((TRUMP,) if self.trumps else ()) + plain


@cache
def order_of(ddv: bool, kind: str) -> Order:
    """The :class:`Order` of a game of ``kind`` (:func:`trump_codes`); plain cards rank
    ``A T K Q J 9``."""
    trumps = trump_codes(ddv, kind)
    suit: dict[str, str] = {}
    rank: dict[str, int] = {}
    for i, code in enumerate(trumps):
        suit[code], rank[code] = TRUMP, 100 - i
    for code in CODES:
        if code not in suit:
            suit[code], rank[code] = code[0], 10 - PLAIN_RANKS.index(code[1])
    return Order(trumps, suit, rank)


def kind_of(game: Json | None) -> str:
    """The card order of a public game: a solo's suit or kind, else :data:`NORMAL` (a Hochzeit,
    Karlchen Müller, a Heimliches or stilles Solo and a solo in diamonds all play it)."""
    if not game or game.get("type") != "solo":
        return NORMAL
    kind = str(game.get("kind", game.get("trump", "D")))
    return NORMAL if kind == "D" else kind


# --- hand strength ---------------------------------------------------------------------------


def tricks(hand: Iterable[str], order: Order) -> float:
    """A rough count of the tricks ``hand`` (12 cards or fewer) takes playing alone against
    every other card. In each game suit, high card first, a card no other card beats counts 1;
    where there are trumps, one beaten only by as many other cards as the hand holds higher
    ones in the suit (so they may fall under them) counts 1/2 (without trumps such a loser
    gives the lead away, and the opponents cash their suits). The trumps count at least those
    left once three opponents have each followed one trump round after another. Where there
    are trumps, a plain suit is trumped from its second round: it counts its first unbeaten
    card, and a second one 1/2."""
    mine = Counter(hand)
    total = 0.0
    for suit in order.suits:
        codes = order.of_suit(suit)
        held = 0  # cards of the suit in the hand ranked above the current one
        above = 0  # other cards ranked above the current one
        count = 0.0
        for code in codes:
            for _ in range(mine[code]):
                if above == 0:
                    count += 1.0
                elif above <= held and order.trumps:
                    count += 0.5
                held += 1
            above += 2 - mine[code]
        if suit == TRUMP:
            others = 2 * len(codes) - held
            count = max(count, float(held - math.ceil(others / 3)))
        elif order.trumps:
            top = sum(mine[c] for c in codes[:1]) if codes else 0
            count = min(float(top), 1.0) + (0.5 if top == 2 else 0.0)
        total += count
    return total


# --- what the seat knows ---------------------------------------------------------------------


@dataclass(slots=True)
class Seen:
    """What one seat knows of the hand, all of it read from its view."""

    me: str
    ddv: bool
    order: Order
    game: Json
    hand: list[str]
    unseen: Counter[str]
    """Cards neither in the hand nor played: the other seats hold them."""
    trick: list[tuple[str, str]]
    """The trick in progress: (seat, card) in play order."""
    others: frozenset[str] = frozenset()
    """The other three seats."""
    rounds: Counter[str] = field(default_factory=Counter)
    """How many tricks (the one in progress included) each game suit was led in."""
    voids: dict[str, set[str]] = field(default_factory=dict)
    """The game suits each seat has shown it lacks (it did not follow them)."""
    partners: frozenset[str] = frozenset()
    """The seats known to play with this one."""
    opponents: frozenset[str] = frozenset()
    """The seats known to play against this one (the others are unknown to it)."""
    alone: bool = False
    """The seat plays alone against three (a solo, a stilles or Heimliches Solo, a lone
    Hochzeit)."""
    bride: bool = False
    """The seat announced a Hochzeit that is not clarified yet."""

    @classmethod
    def of(cls, view: Json) -> Seen:
        """What ``view`` shows its seat."""
        me = str(view["seat"])
        ddv = "announcements" in view
        game: Json = view.get("game") or {}
        order = order_of(ddv, kind_of(game))
        hand = list(view["hand"])
        unseen = Counter({code: 2 for code in CODES})
        unseen.subtract(hand)
        others = frozenset(r["seat"] for r in view["reservations"]) - {me}
        seen = cls(me, ddv, order, game, hand, unseen, [], others)
        for trick in view["tricks"]:
            cards = [(c["seat"], c["card"]) for c in trick["cards"]]
            unseen.subtract(card for _, card in cards)
            led = order.suit[cards[0][1]]
            seen.rounds[led] += 1
            for seat, card in cards[1:]:
                if order.suit[card] != led:
                    seen.voids.setdefault(seat, set()).add(led)
            if "winner" not in trick:
                seen.trick = cards
        seen.sides(view)
        return seen

    def sides(self, view: Json) -> None:
        """Who is known to play with and against this seat: the public parties, and what the
        seat knows of its own party in a game shown as normal (a CQ makes it Re, none Kontra;
        both CQ, or its Heimliches Solo while no other seat is public Re, alone), then the
        rest where the sizes of the parties tell."""
        me, others = self.me, self.others
        re = set(view["parties"]["re"])
        kontra = set(view["parties"]["kontra"])
        if self.game.get("type") == "hochzeit" and "partner" not in self.game:
            self.bride = self.game.get("announcer") == me  # nobody's side is known yet
            return
        if len(re) + len(kontra) == 4:  # all public
            mine, theirs = (re, kontra) if me in re else (kontra, re)
            self.partners, self.opponents = frozenset(mine - {me}), frozenset(theirs)
            self.alone = mine == {me}
            return
        queens = self.hand.count(OLD) + sum(
            c["seat"] == me and c["card"] == OLD for t in view["tricks"] for c in t["cards"]
        )
        secret = view.get("own_reservation") == "secret_solo" and not re - {me}
        if queens == 2 or (queens and secret):
            self.alone, self.opponents = True, frozenset(others)
        elif me in re or (queens and me not in kontra):
            partners = re - {me}
            self.partners = frozenset(partners)
            self.opponents = frozenset(others - partners if partners else kontra)
        else:  # Kontra; one more Kontra player does not tell the rest (a stilles Solo has 3)
            self.partners = frozenset(others - re if len(re) == 2 else kontra - {me})
            self.opponents = frozenset(re)

    # --- the cards -------------------------------------------------------------------------

    def higher_unseen(self, card: str) -> bool:
        """Some card another seat may hold beats ``card`` within its game suit."""
        suit, rank = self.order.suit[card], self.order.rank[card]
        return any(
            n > 0 and self.order.suit[c] == suit and self.order.rank[c] > rank
            for c, n in self.unseen.items()
        )

    def unseen_of(self, suit: str) -> int:
        """How many cards of a game suit other seats may hold."""
        return sum(n for c, n in self.unseen.items() if n > 0 and self.order.suit[c] == suit)

    def holds(self, card: str, against: Iterable[str]) -> bool:
        """``card``, now winning the trick (or led), stays the winner whatever the seats
        ``against`` still to play hold: no card left beats it in its game suit and, a plain
        card, the suit is in its first round, they have all shown they hold it (none is known
        void) and enough of it is out for each, or no trump is left."""
        against = list(against)
        if not against:
            return True
        if self.higher_unseen(card):
            return False
        suit = self.order.suit[card]
        if suit == TRUMP or not self.unseen_of(TRUMP):
            return True
        void = any(suit in self.voids.get(seat, ()) for seat in against)
        return self.rounds[suit] <= 1 and not void and self.unseen_of(suit) >= len(against)


# --- reservations ----------------------------------------------------------------------------


def solo_kind(value: Any) -> str | None:
    """The card order of a reservation that plays a solo (``{"solo": K}``), else None."""
    if isinstance(value, dict) and "solo" in value:
        return str(value["solo"])
    return None


def reservation(view: Json, options: list[Any]) -> Any:
    """The reservation to send (module docstring): the solo whose order gives the most
    :func:`tricks` (the first of equals), when they reach :data:`SOLO_TRICKS` or when only
    solos are allowed (a DDV Vorführung); else with both CQ a stilles Solo (DDV, strong in
    the normal order) or a Hochzeit; else ``none``."""
    ddv = "announcements" in view
    hand = view["hand"]
    best, most = None, -1.0
    for value in options:
        kind = solo_kind(value)
        if kind is not None:
            count = tricks(hand, order_of(ddv, NORMAL if kind == "D" else kind))
            if count > most:
                best, most = value, count
    only_solos = "none" not in options and "hochzeit" not in options
    solo = best is not None and (most >= SOLO_TRICKS or only_solos)
    if hand.count(OLD) == 2:
        normal = tricks(hand, order_of(ddv, NORMAL))
        if ddv and "none" in options and normal >= max(most, SOLO_TRICKS):
            return "none"  # a stilles Solo: the normal order, hidden until the second CQ
        if "hochzeit" in options and not solo:
            return "hochzeit"
    if solo:
        return best
    return "none" if "none" in options else options[0]


# --- announcements ---------------------------------------------------------------------------


def announcement(seen: Seen, words: list[str]) -> str | None:
    """The DDV announcement to make now, if any (module docstring): nothing for a bride not
    yet clarified, nor against a soloist."""
    if not words or seen.bride:
        return None
    strength = tricks(seen.hand, seen.order)
    word = words[0] if words[0] in ("re", "kontra") else None
    if seen.alone:
        if "no90" in words and strength >= NO90_TRICKS:
            return "no90"  # implies the party's word
        return word if word and strength >= SOLO_ANNOUNCE else None
    against_a_soloist = len(seen.opponents) == 1 and len(seen.partners) == 2
    if word and not against_a_soloist and strength >= ANNOUNCE_TRICKS:
        return word
    return None


# --- card play -------------------------------------------------------------------------------


def augen(card: str) -> int:
    """A card's points (Augen)."""
    return AUGEN[card[1]]


def is_fox(seen: Seen, card: str) -> bool:
    """The DA while it is a trump (the fox of the DDV extra points)."""
    return card == FOX and seen.order.suit[card] == TRUMP


def cost(seen: Seen, card: str) -> tuple[bool, int, int]:
    """What throwing ``card`` away costs, lowest first: the fox last, then its Augen plus, a
    trump, its place among the trumps from the bottom (a jack costs more than a low diamond),
    then its rank."""
    return (is_fox(seen, card), augen(card) + seen.order.strength(card), seen.order.rank[card])


def cheapest(seen: Seen, cards: Iterable[str]) -> str:
    """The winning card that uses the least: a plain card before a trump, a lower one first."""
    return min(cards, key=lambda c: (seen.order.suit[c] == TRUMP, seen.order.rank[c]))


def feed_value(seen: Seen, card: str) -> tuple[int, int]:
    """How good ``card`` is to give a partner's trick (highest first): the fox, a plain A or T,
    a low trump's Augen (a high trump is kept)."""
    if is_fox(seen, card):
        return (2, augen(card))
    if seen.order.suit[card] != TRUMP and card[1] in FEED_RANKS:
        return (1, augen(card))
    if seen.order.suit[card] == TRUMP and seen.order.rank[card] > seen.order.rank.get("DJ", 0):
        return (-1, -seen.order.rank[card])  # a queen or jack stays in the hand
    return (0, augen(card))


def pick(rng: random.Random, cards: list[str], key: Callable[[str], Any]) -> str:
    """The best of ``cards`` by ``key`` (lowest), ties broken by ``rng``."""
    low = min(key(c) for c in cards)
    best = sorted({c for c in cards if key(c) == low})
    return best[0] if len(best) == 1 else rng.choice(best)


def lead(seen: Seen, cards: list[str], rng: random.Random) -> str:
    """The card to lead (module docstring)."""
    order = seen.order
    if seen.bride:  # let another seat win and lead: so the bride's partner is found
        return pick(rng, cards, lambda c: cost(seen, c))
    against = [s for s in seen.others if s not in seen.partners]
    sure = [c for c in cards if seen.holds(c, against)]
    trumps = [c for c in cards if order.suit[c] == TRUMP]
    trumps_out = seen.unseen_of(TRUMP) > 0
    if seen.alone and trumps_out and any(c in trumps for c in sure):
        return pick(rng, [c for c in sure if c in trumps], lambda c: order.rank[c])
    if sure:  # an ace of a fresh suit (the shortest first), then a trump
        short = Counter(order.suit[c] for c in cards)
        return pick(rng, sure, lambda c: (c in trumps, short[order.suit[c]], order.rank[c]))
    if seen.alone and trumps and trumps_out:
        return pick(rng, trumps, lambda c: -order.rank[c])
    return pick(rng, cards, lambda c: cost(seen, c))


def follow(seen: Seen, cards: list[str], rng: random.Random) -> str:
    """The card to play to a trick in progress (module docstring)."""
    order = seen.order
    played = [c for _, c in seen.trick]
    best_at = order.winner(played)
    best_seat, best = seen.trick[best_at]
    done = {seat for seat, _ in seen.trick}
    still = [s for s in seen.others if s not in done and s not in seen.partners]
    if best_seat in seen.partners and seen.holds(best, still):
        return pick(rng, cards, lambda c: tuple(-v for v in feed_value(seen, c)))
    winners = [c for c in cards if order.beats(c, best)]
    if seen.bride and seen.ddv:
        winners = []  # a DDV bride lets another win one of the first three tricks: a partner
    holding = [c for c in winners if seen.holds(c, still)]
    if holding and (best_seat not in seen.partners or sum(map(augen, played)) >= 10):
        return cheapest(seen, holding)
    return pick(rng, cards, lambda c: cost(seen, c))


def card(seen: Seen, cards: list[str], rng: random.Random) -> str:
    """The card to play (module docstring)."""
    if len(set(cards)) == 1:
        return cards[0]
    return follow(seen, cards, rng) if seen.trick else lead(seen, cards, rng)


# --- the bot ---------------------------------------------------------------------------------


def choose(view: Json, legal: list[Json], rng: random.Random) -> Json | None:
    """One of ``legal`` (the JSON legal actions of ``view``, the seat's view) for the seat of
    ``view``, or ``None`` when its legal actions are only announcements and it makes none now
    (module docstring). Deterministic given ``rng`` (it breaks ties between equal cards)."""
    if not legal:
        return None
    reservations = [a for a in legal if "reservation" in a]
    if reservations:
        value = reservation(view, [a["reservation"] for a in reservations])
        return next(a for a in reservations if a["reservation"] == value)
    seen = Seen.of(view)
    words = [a for a in legal if "announce" in a]
    word = announcement(seen, [a["announce"] for a in words])
    if word is not None:
        return next(a for a in words if a["announce"] == word)
    cards = [a for a in legal if "card" in a]
    if not cards:
        return None
    code = card(seen, [a["card"] for a in cards], rng)
    return next(a for a in cards if a["card"] == code)


__all__ = ["Order", "Seen", "choose", "order_of", "tricks"]
