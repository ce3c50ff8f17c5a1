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

from engine.bots.belief import codes_mask
from engine.cards import PIQUET
from engine.errors import EngineError
from engine.rules.wien import heuristic, play, views
from engine.rules.wien.actions import action_from_json
from engine.rules.wien.rules import WienRules
from engine.rules.wien.state import Phase, State

TRIES = 40
"""Deals drawn for one simulated deal: the first whose replay agrees with every call and
defence choice of the others is kept, else the one that agrees with most."""
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
    seat = view["seat"]
    if seat is None or seat not in view["active"] or view["phase"] not in BEFORE_PLAY:
        return None
    mine = original_hand(view)
    if mine is None:
        return None
    best: tuple[int, State] | None = None
    for _ in range(TRIES):
        drawn = _draw(view, mine, rng, 99 if best is None else best[0])
        if drawn is None:
            continue
        misses, state = drawn
        if best is None or misses < best[0]:
            best = (misses, state)
        if misses == 0:
            break
    return None if best is None else best[1]


def _draw(
    view: dict[str, Any], mine: list[str], rng: random.Random, worst: int
) -> tuple[int, State] | None:
    """One deal and its replay: how many of the others' choices the heuristic would have made
    otherwise, and the state; ``None`` when the view's actions do not fit the deal, or it
    explains them no better than a deal with ``worst`` misses."""
    seat, active = view["seat"], view["active"]
    talon = list(view["dealt_talon"] or ())
    rest = [c for c in PIQUET.codes if c not in mine and c not in talon]
    rng.shuffle(rest)
    if not talon:
        talon, rest = rest[:2], rest[2:]
    deal = {"talon": codes_mask(PIQUET, talon), seat: codes_mask(PIQUET, mine)}
    others = [s for s in active if s != seat]
    for i, s in enumerate(others):
        deal[s] = codes_mask(PIQUET, rest[i * 10 : (i + 1) * 10])
    try:
        rules = WienRules.from_json(view["rules"])
        state = play.new_hand(rules, view["seats"], view["dealer"], view["pot"], deal)
        misses = 0
        for item in view["actions"]:
            actor = item["seat"]
            theirs = actor != seat and any(k in item for k in INFERRED)
            if theirs or item.get("discard", "") is None:
                other = views.view(state, actor)
                guess = heuristic.choose(other, other.get("legal", []), rng)
                if item.get("discard", "") is None:
                    if guess is None:
                        return None
                    item = {**guess, "seat": actor}
                elif guess is None or any(guess.get(k) != item.get(k) for k in guess):
                    misses += 1
                    if misses >= worst:
                        return None
            state = play.apply(state, action_from_json(item, PIQUET))
    except EngineError:
        return None
    again = views.view(state, seat)
    if sorted(again["hand"]) != sorted(view["hand"]) or again["to_act"] != view["to_act"]:
        return None
    return misses, state
