"""Whole ``wien`` hands a seat cannot tell from the real one, drawn from its view before card
play: what the ``pimc`` bot simulates its bidding, discarding, declaring and defence on
(``engine.bots.simulate``).

The seat's own cards are as dealt (its hand, with what it laid away and less the talon it
took); the talon is the dealt talon where the seat saw it; the other cards are dealt at
random. The view's actions are then replayed on that deal: a discard the seat was not shown
is chosen by the heuristic (``engine.rules.wien.heuristic``) for the player who made it, and
the auction and defence are read as the heuristic would have played them: of a few deals the
one where the heuristic, given each other player's drawn hand, makes his calls and defence
choices as he made them is kept (the auction tells what a hand is likely to hold). A deal on
which the view's actions are not legal, or which does not show the seat its own view again,
is never kept.
"""

from __future__ import annotations

import random
from typing import Any

import engine.bots.simulate as simulate
from engine.bots.belief import codes_mask
from engine.cards import PIQUET
from engine.errors import EngineError
from engine.rules.wien import heuristic, play, views
from engine.rules.wien.actions import action_from_json
from engine.rules.wien.rules import WienRules
from engine.rules.wien.state import Phase, State

INFERRED = ("call", "geschaeft_suit", "defence", "look")
"""The choices of other players that a drawn deal should explain."""
BEFORE_PLAY = frozenset(
    p.value
    for p in (
        Phase.AUCTION,
        Phase.GESCHAEFT,
        Phase.TALON,
        Phase.DECLARE,
        Phase.LOOK,
        Phase.DEFENCE,
        Phase.INVITE,
    )
)
"""The phases whose choices are simulated: those before the first card."""


def original_hand(view: dict[str, Any]) -> list[str] | None:
    """The seat's cards as dealt: its hand with what it laid away, less the dealt talon where
    it took it; ``None`` when the view does not tell (it took a talon it was not shown as
    dealt: a look at the declarer's discards)."""
    mine = [a.get("discard") for a in view["actions"] if a.get("seat") == view["seat"]]
    cards = set(view["hand"]).union(*(d for d in mine if d))
    if len(cards) == 10:
        return sorted(cards)
    talon = view["dealt_talon"]
    if talon is not None and len(cards) == 12 and set(talon) <= cards:
        return sorted(cards - set(talon))
    return None


def deal_view(view: dict[str, Any], rng: random.Random) -> State | None:
    """A whole hand consistent with the seat's ``view`` before card play (module docstring);
    ``None`` after the first card, for a spectator, or when no deal is found."""
    return simulate.deal_from_view(view, BEFORE_PLAY, original_hand, _draw, rng)


def _draw(
    view: dict[str, Any], mine: list[str], rng: random.Random, worst: int
) -> tuple[int, State] | None:
    """One deal and its replay (:func:`engine.bots.simulate.replay_view`): how many of the
    others' choices the heuristic would have made otherwise, and the state."""
    seat, active = view["seat"], view["active"]
    others = [s for s in active if s != seat]
    talon, hands = simulate.deal_unseen(PIQUET.codes, mine, view["dealt_talon"] or (), others, rng)
    deal = {"talon": codes_mask(PIQUET, talon), seat: codes_mask(PIQUET, mine)}
    deal |= {s: codes_mask(PIQUET, cards) for s, cards in hands.items()}
    try:
        rules = WienRules.from_json(view["rules"])
        state = play.new_hand(rules, view["seats"], view["dealer"], view["pot"], deal)
    except EngineError:
        return None
    return simulate.replay_view(
        state, view, INFERRED, views.view, heuristic.choose, _step, rng, worst
    )


def _step(state: State, item: dict[str, Any]) -> State:
    return play.apply(state, action_from_json(item, PIQUET))
