"""Doppelkopf's cards and how they rank in each game (``spec/next/doppelkopf.md``, "Table,
cards, seats", "Trumps and plain suits", "Card play", and the DDV section's trumps, solos and
following).

Terms: *Trumpf* (trump), *Fehlfarbe* (a plain suit), *die Alte* (Kreuz-Dame, ``CQ``), *Karlchen
Müller* (Kreuz-Bube, ``CJ``), *Dulle* (Herz-Zehn, ``HT``: the highest trump under the DDV
rules), *Fuchs* (Karo-Ass, ``DA``), *Augen* (card points: A 11, T 10, K 4, Q 3, J 2, 9 0; 240
in all), *bedienen* (to follow suit), *Stichzwang* (the duty to trump, or to beat, when void).

The deck is 24 codes twice (:data:`DECK`, ``copies=2``): suits ``D H S C`` low to high (the
Farbenrangfolge C > S > H > D), ranks ``9 J Q K T A``. A game's ranking is a
:class:`engine.tricks.CardOrder` whose game suits are the four printed suits (0-3, the deck's
suit indices: the plain cards of each) and :data:`TRUMP` (4: the trump cards of that game,
from several printed suits, in their order). ``above`` holds only strictly higher cards, so of
two identical cards the first played wins (the seed's "von zwei gleichrangigen Karten jeweils
die zuerst auf den Tisch kommende"); with ``second_dulle`` the two HT copies each lie above the
other, so the later one wins. The obligations are the core's (:mod:`engine.tricks`):
``stichzwang`` ``trump`` is :data:`~engine.tricks.FOLLOW_TRUMP`, ``none``
:data:`~engine.tricks.FOLLOW`, ``head`` :data:`~engine.tricks.HEAD`; the DDV rules
:data:`~engine.tricks.FOLLOW`. :func:`engine.tricks.legal_mask` states them for both the
validating path and the fast path.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.cards import Deck, cards_of
from engine.errors import EngineError
from engine.rules.doppelkopf import messages as m
from engine.tricks import FOLLOW, FOLLOW_TRUMP, HEAD, CardOrder, Obligations

DECK = Deck("doppelkopf48", "DHSC", "9JQKTA", copies=2)
"""48 cards: 24 codes (suits D < H < S < C, ranks 9 J Q K T A), each twice."""

TRUMP = 4
"""The game suit of trumps in every :class:`CardOrder` of this module."""
SUIT_NAMES: tuple[str, ...] = ("D", "H", "S", "C", "trump")
"""How refusals name the game suits."""
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
"""Augen of each rank."""
AUGEN: tuple[int, ...] = tuple(POINTS[code[1]] for code in DECK.codes)
"""Augen of each card."""


def mask(*codes: str) -> int:
    """Both copies of each code."""
    out = 0
    for code in codes:
        out |= DECK.same(DECK.index[code])
    return out


CQ = mask("CQ")
"""Both Kreuz-Damen (die Alten)."""
CJ = mask("CJ")
"""Both Kreuz-Buben (Karlchen Müller)."""
HT = mask("HT")
"""Both Herz-Zehnen (the Dullen under the DDV rules)."""
DA = mask("DA")
"""Both Karo-Asse (the foxes)."""

QUEENS = ("CQ", "SQ", "HQ", "DQ")
JACKS = ("CJ", "SJ", "HJ", "DJ")
PLAIN_RANKS = "ATKQJ9"
"""Plain cards rank A T K Q J 9, high to low, whichever of them are not trumps."""

SOLO_TRUMPS = ("C", "S", "H", "D")
"""The einfache Solo suits of ``doppelkopf`` (``D``: the normal order)."""
DDV_SOLOS = ("queens", "jacks", "C", "S", "H", "D", "fleischlos")
"""The solos of ``doppelkopf-ddv``: Damen-, Buben-, Farb- (``D``: Trumpfsolo) and fleischlos."""
NORMAL = "normal"
"""The order of the normal game (Hochzeit, Heimliches and stilles Solo, Karlchen, solo D)."""


def trump_codes(ddv: bool, kind: str) -> tuple[str, ...]:
    """The trumps of a game, high to low. ``kind``: :data:`NORMAL`, a suit letter (a suit
    solo; ``D`` is the normal order), or under the DDV rules ``queens``, ``jacks``,
    ``fleischlos``.

    - ``doppelkopf``, normal: ``CQ SQ HQ DQ CJ SJ HJ DJ DA DT DK D9``; solo in X: the queens and
      jacks, then X's ``A T K 9``.
    - ``doppelkopf-ddv``: ``HT`` above all of these wherever queens and jacks are trumps (26
      trump cards in the normal game, 24 in a hearts solo); ``queens``: the four queens;
      ``jacks``: the four jacks; ``fleischlos``: none.
    """
    if kind == "queens":
        return QUEENS
    if kind == "jacks":
        return JACKS
    if kind == "fleischlos":
        return ()
    suit = "D" if kind == NORMAL else kind
    tail = tuple(suit + r for r in "ATK9")
    dulle = ("HT",) if ddv else ()
    return (*dulle, *QUEENS, *JACKS, *(c for c in tail if c not in dulle))


@cache
def order_for(ddv: bool, kind: str, second_dulle: bool = False) -> CardOrder:
    """How the cards rank in a game of ``kind`` (:func:`trump_codes`): the trumps as game
    suit :data:`TRUMP` in their order, every other card in its printed suit ranked
    ``A T K Q J 9``. A card's ``above`` is the cards of its game suit strictly higher (the
    other copy is not: the first played wins), except the two HT under ``second_dulle``, which
    lie above each other (the later wins)."""
    trumps = trump_codes(ddv, kind)
    ranking: list[tuple[str, ...]] = []
    for suit in DECK.suits:
        ranking.append(tuple(suit + r for r in PLAIN_RANKS if suit + r not in trumps))
    ranking.append(trumps)
    suit_of = [0] * DECK.size
    above = [0] * DECK.size
    suit_mask = [0] * 5
    for g, codes in enumerate(ranking):
        higher = 0
        for code in codes:
            both = mask(code)
            suit_mask[g] |= both
            for c in cards_of(both):
                suit_of[c] = g
                above[c] = higher
            higher |= both
    if second_dulle and "HT" in trumps:
        for c in cards_of(HT):
            above[c] |= HT & ~(1 << c)
    return CardOrder(
        tuple(suit_of), tuple(suit_mask), tuple(above), TRUMP if trumps else -1, SUIT_NAMES
    )


def obligations(ddv: bool, stichzwang: str) -> Obligations:
    """What a player must play to a trick (``Card play``, rules 1-3): ``trump``
    (:data:`FOLLOW_TRUMP`: follow, else trump), ``none`` (:data:`FOLLOW`: follow, else any
    card), ``head`` (:data:`HEAD`: follow and beat when able, else a trump that beats if
    possible, else any trump); the DDV rules :data:`FOLLOW`."""
    if ddv or stichzwang == "none":
        return FOLLOW
    if stichzwang == "head":
        return HEAD
    return FOLLOW_TRUMP


def trick_winner(order: CardOrder, cards: Sequence[int]) -> int:
    """The index in ``cards`` (play order) of the card that takes the trick: the highest
    trump, else the highest card of the led suit; a card beats the current winner only if
    strictly higher, so of two identical cards the first played wins."""
    best = 0
    for i in range(1, len(cards)):
        if order.beats(cards[i], cards[best]):
            best = i
    return best


def codes(cards: int) -> list[str]:
    """The codes of a mask of cards in deck order (``D9`` … ``CA``), a code once per copy."""
    return DECK.codes_of(cards)


def distinct(cards: int) -> int:
    """``cards`` with one copy of each code kept (the first copy's index): what a player may
    name (``card: "CQ"`` plays either copy)."""
    out = 0
    for c in cards_of(cards):
        out |= 1 << (c - c % 2)
    return out


def refusal(
    order: CardOrder, duty: Obligations, who: str, hand: int, led: int, legal: int
) -> EngineError:
    """Why a card is not allowed: the refusal to raise, ``bert must follow C: CA or C9``,
    ``bert has no C and must play a trump: DA or DK``, ``bert must beat the trick in trump:
    CQ``."""
    names = " or ".join(dict.fromkeys(DECK.code(c) for c in cards_of(legal)))
    led_name = SUIT_NAMES[led]
    led_mask = order.suit_mask[led]
    if legal & led_mask:
        if legal == hand & led_mask:
            if led == TRUMP:
                return m.MUST_FOLLOW_TRUMP.error("", seat=who, cards=names)
            return m.MUST_FOLLOW.error("", seat=who, suit=led_name, cards=names)
        if led == TRUMP:
            return m.MUST_BEAT_TRUMP.error("", seat=who, cards=names)
        return m.MUST_BEAT.error("", seat=who, suit=led_name, cards=names)
    trumps = order.suit_mask[TRUMP] if order.trump >= 0 else 0
    if legal & trumps:
        if legal == hand & trumps:
            return m.MUST_TRUMP.error("", seat=who, suit=led_name, cards=names)
        return m.MUST_OVERTRUMP.error("", seat=who, suit=led_name, cards=names)
    return m.ANY_CARD.error("", seat=who)


__all__ = [
    "AUGEN",
    "CJ",
    "CQ",
    "DA",
    "DDV_SOLOS",
    "DECK",
    "HT",
    "NORMAL",
    "SOLO_TRUMPS",
    "TRUMP",
    "codes",
    "distinct",
    "mask",
    "obligations",
    "order_for",
    "refusal",
    "trick_winner",
    "trump_codes",
]
