"""A ``trickgame`` hand: the deck, the actions, the immutable state, legal actions, apply and
the views (the package docstring states the rules).

Terms: *bid* (how many tricks a player says he will take), *the hook* (the dealer may not
bring the bids to exactly 4), *high bidder* (the first of the highest bids: the declarer),
*needs* (a player's bid less the tricks he has taken).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.actions import Action, ActionForm, PlayCard, action_to_json, card_schema, read_action
from engine.cards import Deck, cards_of
from engine.errors import EngineError, IllegalAction, NotYourTurn
from engine.tricks import FOLLOW, describe_obligation, legal_cards, suit_order, trick_winner
from tests.trickgame.rules import TrickRules

DECK = Deck("trick16", "CSDH", "JQKA")
"""16 cards: J < Q < K < A of clubs, spades, diamonds and hearts."""
ORDER = suit_order(DECK, None)
"""No trumps: the highest card of the led suit wins."""
TRICKS = 4
"""Tricks in a hand (each player holds four cards)."""
BIDDING, PLAYING, DONE = "bidding", "playing", "done"
PHASES = (BIDDING, PLAYING, DONE)


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """A bid: how many tricks ``seat`` will take."""

    KEY: ClassVar[str] = "bid"

    tricks: int

    def value_json(self, deck: Deck) -> Any:
        return self.tricks


VOCABULARY = (
    ActionForm(
        "bid",
        {"type": "integer", "minimum": 0, "maximum": TRICKS},
        "bid how many of the four tricks you will take",
    ),
    ActionForm("card", card_schema(DECK), "play a card to the trick"),
)


def read(data: Any, at: str) -> Action:
    """One action of the vocabulary (shape only; legality is :func:`apply`'s)."""
    seat, key, value = read_action(data, ("bid", "card"), at)
    where = f"{at}.{key}"
    if key == "bid":
        if type(value) is not int or not 0 <= value <= TRICKS:
            raise EngineError(where, f"a bid is a whole number from 0 to {TRICKS}, not {value!r}")
        return Bid(seat, value)
    return PlayCard(seat, DECK.parse(value, where))


@dataclass(frozen=True, slots=True)
class State:
    """A hand: the players (``active``, forehand first, the dealer last), the cards as dealt
    and as held, the bids so far, the trick in progress (led by player ``leader``), the
    tricks each player took, the last completed trick (player, card) and every action."""

    rules: TrickRules
    seats: tuple[str, ...]
    dealer: str
    active: tuple[str, ...]
    deal: tuple[int, ...]
    hands: tuple[int, ...]
    bids: tuple[int, ...] = ()
    leader: int = 0
    trick: tuple[int, ...] = ()
    taken: tuple[int, ...] = (0, 0, 0, 0)
    last: tuple[tuple[int, int], ...] = ()
    history: tuple[Action, ...] = ()

    @property
    def phase(self) -> str:
        if len(self.bids) < len(self.active):
            return BIDDING
        return DONE if sum(self.taken) == TRICKS else PLAYING

    @property
    def is_over(self) -> bool:
        return self.phase == DONE

    @property
    def turn(self) -> int:
        """The player to act (meaningless once the hand is over)."""
        if self.phase == BIDDING:
            return len(self.bids)
        return (self.leader + len(self.trick)) % len(self.active)

    def player(self, seat: str | None) -> int | None:
        """The player number of ``seat`` (``None``: not a player of this hand)."""
        return self.active.index(seat) if seat in self.active else None


def new_state(
    rules: TrickRules, seats: tuple[str, ...], dealer: str, active: tuple[str, ...], deal: Any
) -> State:
    hands = tuple(deal[a] for a in active)
    return State(rules, seats, dealer, active, hands, hands)


def high_bidder(bids: tuple[int, ...]) -> int | None:
    """The first of the highest bids (``None`` when every bid is 0: no declarer)."""
    top = max(bids)
    return bids.index(top) if top else None


def hook(bids: tuple[int, ...]) -> int | None:
    """The bid the dealer (bidding last) may not make: the one bringing the bids to 4."""
    rest = TRICKS - sum(bids)
    return rest if len(bids) == 3 and 0 <= rest <= TRICKS else None


def game_json(bids: tuple[int, ...]) -> dict[str, Any]:
    """The hand's game once every bid is in: ``quiet`` (every bid 0), ``sweep`` (a bid of all
    four tricks), else a ``contest`` of the highest bid."""
    top = max(bids)
    if top == 0:
        return {"type": "quiet"}
    if top == TRICKS:
        return {"type": "sweep"}
    return {"type": "contest", "high_bid": top}


def legal(s: State, p: int) -> list[Action]:
    """Player ``p``'s legal actions in a stable order (empty when it is not his turn)."""
    if s.is_over or p != s.turn:
        return []
    seat = s.active[p]
    if s.phase == BIDDING:
        barred = hook(s.bids)
        return [Bid(seat, n) for n in range(TRICKS + 1) if n != barred]
    mask = legal_cards(ORDER, s.hands[p], s.trick, FOLLOW)
    return [PlayCard(seat, c) for c in cards_of(mask)]


def apply(s: State, action: Action) -> State:
    """The state after ``action``; refuses, with the rule in words, anything not legal."""
    if s.is_over:
        raise IllegalAction("", "the hand is over")
    p = s.player(action.seat)
    if p is None:
        raise IllegalAction("", f"{action.seat} does not play in this hand")
    due = s.active[s.turn]
    if p != s.turn:
        raise NotYourTurn("", f"it is {due}'s turn, not {action.seat}'s")
    history = (*s.history, action)
    if s.phase == BIDDING:
        if not isinstance(action, Bid):
            raise IllegalAction("", f"{due} must bid first")
        if not 0 <= action.tricks <= TRICKS:
            raise IllegalAction("", f"a bid is 0 to {TRICKS} tricks, not {action.tricks}")
        if action.tricks == hook(s.bids):
            raise IllegalAction(
                "", f"{due} deals and may not bring the bids to exactly {TRICKS} (the hook)"
            )
        bids = (*s.bids, action.tricks)
        leader = s.leader
        if len(bids) == len(s.active):
            top = high_bidder(bids)
            leader = top if s.rules.lead == "high_bid" and top is not None else 0
        return replace(s, bids=bids, leader=leader, history=history)
    if not isinstance(action, PlayCard):
        raise IllegalAction("", f"the bids are in: {due} must play a card")
    card = action.card
    if not s.hands[p] >> card & 1:
        raise IllegalAction("", f"{due} does not hold {DECK.code(card)}")
    allowed = legal_cards(ORDER, s.hands[p], s.trick, FOLLOW)
    if not allowed >> card & 1:
        raise IllegalAction(
            "", describe_obligation(DECK, ORDER, s.hands[p], s.trick, allowed, due, FOLLOW)
        )
    hands = tuple(h & ~(1 << card) if i == p else h for i, h in enumerate(s.hands))
    trick = (*s.trick, card)
    if len(trick) < len(s.active):
        return replace(s, hands=hands, trick=trick, history=history)
    n = len(s.active)
    winner = (s.leader + trick_winner(ORDER, trick)) % n
    taken = tuple(t + (i == winner) for i, t in enumerate(s.taken))
    last = tuple(((s.leader + i) % n, c) for i, c in enumerate(trick))
    return replace(s, hands=hands, trick=(), leader=winner, taken=taken, last=last, history=history)


def _cards(s: State, played: tuple[tuple[int, int], ...]) -> list[dict[str, str]]:
    return [{"seat": s.active[p], "card": DECK.code(c)} for p, c in played]


def view(s: State, seat: str | None) -> dict[str, Any]:
    """What ``seat`` may see (``None``: a spectator): its own cards, the bids, every card
    played; everything, the deal included, once the hand is over."""
    p = s.player(seat)
    bidding = s.phase == BIDDING
    top = None if bidding else high_bidder(s.bids)
    n = len(s.active)
    out: dict[str, Any] = {
        "seat": seat,
        "phase": s.phase,
        "to_act": None if s.is_over else s.active[s.turn],
        "rules": s.rules.to_json(),
        "seats": list(s.seats),
        "dealer": s.dealer,
        "active": list(s.active),
        "hand": DECK.codes_of(s.hands[p]) if p is not None else None,
        "hand_sizes": {a: s.hands[i].bit_count() for i, a in enumerate(s.active)},
        "actions": [action_to_json(a, DECK) for a in s.history],
        "declarer": None if top is None else s.active[top],
        "game": None if bidding else game_json(s.bids),
        "trick": _cards(s, tuple(((s.leader + i) % n, c) for i, c in enumerate(s.trick))),
        "last_trick": _cards(s, s.last),
        "tricks": dict(zip(s.active, s.taken, strict=True)),
        "bids": dict(zip(s.active, s.bids, strict=False)),
        "needs": {} if bidding else {a: s.bids[i] - s.taken[i] for i, a in enumerate(s.active)},
    }
    if p is not None and not s.is_over and s.turn == p:
        out["legal"] = [action_to_json(a, DECK, seat=False) for a in legal(s, p)]
    if s.is_over:
        out["deal"] = {a: DECK.codes_of(s.deal[i]) for i, a in enumerate(s.active)}
    return out


def known(s: State, seat: str | None) -> int:
    """The cards ``seat`` may know: its own and every card played (all once it is over)."""
    if s.is_over:
        return DECK.full
    p = s.player(seat)
    out = s.hands[p] if p is not None else 0
    for a in s.history:
        if isinstance(a, PlayCard):
            out |= 1 << a.card
    return out
