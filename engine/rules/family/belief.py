"""A seat's view of a talon-family hand in card play read into a
:class:`engine.bots.belief.Belief` (what the ``pimc`` and ``heuristic`` bots reason from): only
what the view shows, never the state.

Where a seat knows a card to be: in its own hand, in a hand the rules lay open
(``illustrated``'s 7 and 8), played, in its own discard (Skat, the cards laid away), in the talon
(Talon, widow) while the view shows it. The talon as dealt, where the seat saw it (``balkan``
shows it to all), went to the declarer, who may have laid some of it away: the seat knows that
no other player holds those cards, not whether the declarer still does. A declarer who said he
holds no ace (``no_aces``) holds none. Who plays, the obligations and how far play goes are the
family's own answers (:class:`engine.rules.family.spec.Family`), asked of a hand that holds
only the view's public facts (:func:`public_hand`).
"""

from __future__ import annotations

from typing import Any

from engine.bots.belief import Belief, codes_mask, seen_hands
from engine.cards import PIQUET
from engine.rules.family.game import MISERE, NORMAL, SLAM, Game, Rules, make_game
from engine.rules.family.hand import ORDERS, Hand
from engine.rules.family.spec import ACES, Family
from engine.solver.position import MISERE as MISERE_GOAL
from engine.solver.position import MOST, Position
from engine.solver.position import SLAM as SLAM_GOAL

GOALS = {NORMAL: MOST, MISERE: MISERE_GOAL, SLAM: SLAM_GOAL}
"""The solver's goal of each target the solver plays (``FamilyRuleSet.card_play``: Balkan's
``uno`` and six tricks in a row are no count of tricks)."""


def game_of(data: dict[str, Any]) -> Game:
    """The view's ``game`` back as a :class:`Game` (``Game.to_json`` read backwards)."""
    if data["type"] == "premium":
        return make_game("premium", data["level"], talon=not data["hand"])
    return make_game(data["type"], data["level"], talon=data["talon"])


def public_hand(family: Family, rules: Rules, view: dict[str, Any]) -> Hand:
    """A hand on an empty board holding what the view makes public of the contract: the
    declarer, the game, each defender's answer and the contras said (what
    :meth:`Family.playing_mask` and :meth:`Family.duty` ask)."""
    active = tuple(view["active"])
    h = Hand(family, rules, active, (0, 0, 0, 0), {})
    h.declarer = active.index(view["declarer"])
    h.game = game_of(view["game"])
    h.defence = [view["defence"].get(s, "") for s in active]
    for a in view["actions"]:
        if a.get("contra") is True:
            h.contra[active.index(a["seat"])] = "contra"
    return h


def card_play_view(family: Family, rules: Rules, view: dict[str, Any]) -> Belief | None:
    """The belief of the seat whose ``view`` this is when it is to play a card of a contract
    the solver plays (``FamilyRuleSet.card_play``); ``None`` otherwise. ``rules``: the view's
    ``rules``, read by the rule set."""
    seat, active = view["seat"], view["active"]
    if view["phase"] != "play" or view["to_act"] != seat or seat not in active:
        return None
    if view["declarer"] is None or view["game"] is None:
        return None
    h = public_hand(family, rules, view)
    game, d = h.game, h.declarer
    assert game is not None
    goal = GOALS.get(family.target(game, rules))
    if goal is None:
        return None
    playing = family.playing_mask(h)
    duty = family.duty(h)
    plays = [
        (active.index(a["seat"]), PIQUET.index[a["card"]]) for a in view["actions"] if "card" in a
    ]
    size = playing.bit_count()
    done = len(plays) - len(view["trick"])
    tricks = tuple(tuple(plays[i : i + size]) for i in range(0, done, size))
    me = active.index(seat)
    hands = seen_hands(view, PIQUET)
    known = codes_mask(PIQUET, view["talon"])
    for _, c in plays:
        known |= 1 << c
    for held in hands:
        known |= held
    barred = [0, 0, 0]
    for a in view["actions"]:
        if a.get("discard") and a["seat"] == seat:
            known |= codes_mask(PIQUET, a["discard"])
        elif a.get("no_aces") is True:
            barred[active.index(a["seat"])] |= ACES
    unknown = PIQUET.full & ~known
    # the dealt talon, where this seat saw it, went to the declarer (who may have laid some
    # of it away): nobody else holds it
    dealt = codes_mask(PIQUET, view["dealt_talon"])
    for q in range(3):
        if q != d:
            barred[q] |= dealt
    counts = tuple(view["hand_sizes"][s] - hands[q].bit_count() for q, s in enumerate(active))
    position = Position(
        deck=PIQUET,
        seats=tuple(active),
        hands=tuple(hands),
        trick=tuple((active.index(t["seat"]), PIQUET.index[t["card"]]) for t in view["trick"]),
        to_act=me,
        playing=playing,
        order=ORDERS[game.trump],
        duty=(duty, duty, duty),
        side=1 << d,
        won=view["tricks"][active[d]],
        goal=goal,
    )
    return Belief(position, me, unknown, counts, tricks, tuple(b & unknown for b in barred))
