"""A seat's view of a ``wien`` hand in card play read into a :class:`engine.bots.belief.Belief`
(what the ``pimc`` bot samples deals from): only what the view shows, never the state."""

from __future__ import annotations

from typing import Any

from engine.bots.belief import Belief, codes_mask, seen_hands
from engine.cards import PIQUET
from engine.rules.wien.play import ORDERS, play_terms
from engine.rules.wien.state import Game
from engine.solver.position import Position

SUITS = "CSDH"


def game_of(data: dict[str, Any] | None) -> Game | None:
    """The view's ``game`` back as a :class:`Game`."""
    if data is None:
        return None
    kind = data["type"]
    if kind == "suit":
        return Game("suit", data["level"], talon=data["talon"])
    if kind == "premium":
        return Game("premium", data["level"], talon=not data["hand"], hand=data["hand"])
    return Game(kind)


def card_play_view(view: dict[str, Any]) -> Belief | None:
    """The belief of the seat whose ``view`` this is, when it is to play a card."""
    seat, active = view["seat"], view["active"]
    if view["phase"] != "play" or view.get("offer") or view["to_act"] is None:
        return None
    if seat not in active or view["to_act"] != seat:
        return None
    me, to_act = active.index(seat), active.index(view["to_act"])
    game = game_of(view["game"])
    d = None if view["declarer"] is None else active.index(view["declarer"])
    playing = 0b111
    if game is not None and game.kind == "suit" and d is not None:
        playing = sum(1 << q for q, s in enumerate(active) if view["defence"].get(s) != "home")
        playing |= 1 << d
    side, goal, duties = play_terms(game, d, to_act, playing)
    plays = [
        (active.index(a["seat"]), PIQUET.index[a["card"]]) for a in view["actions"] if "card" in a
    ]
    size = playing.bit_count()
    done = len(plays) - len(view["trick"])
    tricks = tuple(tuple(plays[i : i + size]) for i in range(0, done, size))
    hands = seen_hands(view, PIQUET)
    played = sum(1 << c for _, c in plays)
    known = played | codes_mask(PIQUET, view["talon"])
    for h in hands:
        known |= h
    counts = tuple(
        0 if hands[q] or q == me else view["hand_sizes"][s] for q, s in enumerate(active)
    )
    # a talon this seat saw (as dealt, or its own discard) went to a player who took the
    # talon (the winner of the auction, a player who looked: each then discarded) or stayed
    # out of play; only the talon it sees now is known to lie there, and whoever never took
    # the talon holds none of it
    seen = codes_mask(PIQUET, view["dealt_talon"])
    takers = 0
    for a in view["actions"]:
        if "discard" in a:
            takers |= 1 << active.index(a["seat"])
            if a["seat"] == seat:
                seen |= codes_mask(PIQUET, a["discard"])
    unknown = PIQUET.full & ~known
    barred = tuple(0 if takers >> q & 1 else seen & unknown for q in range(3))
    position = Position(
        deck=PIQUET,
        seats=tuple(active),
        hands=tuple(hands),
        trick=tuple(plays[done:]),
        to_act=to_act,
        playing=playing,
        order=ORDERS[SUITS.index(str(game.level)) if game and game.kind == "suit" else None],
        duty=duties,
        side=1 << side,
        won=view["tricks"][active[side]],
        goal=goal,
    )
    return Belief(position, me, unknown, counts, tricks, barred)
