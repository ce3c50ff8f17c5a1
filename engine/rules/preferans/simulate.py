"""Whole ``preferans`` deals a seat cannot tell from the real one, drawn from its view before
card play: what the ``pimc`` bot simulates its calls, discard, order, whist and mode on
(``engine.bots.simulate``).

The seat's own cards are as dealt (its hand, with what it laid away and less the talon it
took); the talon is the dealt talon once the auction turned it face up (§4); the other cards
are dealt at random. The view's actions are then replayed on that deal: the declarer's
discard, which the others are not shown, is chosen by the heuristic
(``engine.rules.preferans.heuristic``), and the others' calls, whists and modes are read as the
heuristic would have made them: of a few deals the one where the heuristic, given each other
player's drawn hand, chooses as they chose is kept (the auction tells what a hand is likely
to hold). A deal on which the view's actions are not legal, or which does not show the seat
its own view again, is never kept.
"""

from __future__ import annotations

import random
from typing import Any

import engine.bots.simulate as simulate
from engine.bots.belief import codes_mask
from engine.cards import PIQUET
from engine.errors import EngineError
from engine.rules.preferans import actions, hand, heuristic, views
from engine.rules.preferans.rules import parse_rules
from engine.rules.preferans.sheet import parse_sheet

INFERRED = ("call", "whist", "mode")
"""The choices of other players that a drawn deal should explain."""
BEFORE_PLAY = frozenset((hand.AUCTION, hand.DISCARD, hand.DECLARE, hand.WHIST, hand.MODE))
"""The phases whose choices are simulated: those before the first card."""


def original_hand(view: dict[str, Any]) -> list[str] | None:
    """The seat's ten cards as dealt: its hand with what it laid away, less the talon where it
    took it; ``None`` when the view does not tell."""
    seat = view["seat"]
    laid = [a.get("discard") for a in view["actions"] if a.get("seat") == seat]
    cards = set(view["hand"]).union(*(d for d in laid if d))
    if len(cards) == 10:
        return sorted(cards)
    talon = set(view["talon"])
    if len(cards) == 12 and len(talon) == 2 and talon <= cards:
        return sorted(cards - talon)
    return None


def deal_view(view: dict[str, Any], rng: random.Random) -> hand.State | None:
    """A whole deal consistent with the seat's ``view`` before card play (module docstring);
    ``None`` in card play, for a spectator or the dealer sitting out, or when no deal is
    found."""
    return simulate.deal_from_view(view, BEFORE_PLAY, original_hand, _draw, rng)


def _draw(
    view: dict[str, Any], mine: list[str], rng: random.Random, worst: int
) -> tuple[int, hand.State] | None:
    """One deal and its replay (:func:`engine.bots.simulate.replay_view`): how many of the
    others' choices the heuristic would have made otherwise, and the state."""
    seat, active = view["seat"], tuple(view["active"])
    others = [s for s in active if s != seat]
    talon, hands = simulate.deal_unseen(PIQUET.codes, mine, view["talon"], others, rng)
    cards = {s: codes_mask(PIQUET, c) for s, c in hands.items()}
    cards[seat] = codes_mask(PIQUET, mine)
    try:
        rules = parse_rules(view["rules"])
        seats = tuple(view["seats"])
        sheet = view.get("sheet")
        state = hand.new_state(
            rules,
            seats,
            view["dealer"],
            active,
            view["streak"],
            None if sheet is None else parse_sheet(sheet, rules, seats),
            (cards[active[0]], cards[active[1]], cards[active[2]]),
            (PIQUET.parse(talon[0]), PIQUET.parse(talon[1])),
        )
    except EngineError:
        return None
    return simulate.replay_view(
        state, view, INFERRED, views.view, heuristic.choose, _step, rng, worst
    )


def _step(state: hand.State, item: dict[str, Any]) -> hand.State:
    return hand.apply(state, actions.read(item, "action"))


__all__ = ["deal_view", "original_hand"]
