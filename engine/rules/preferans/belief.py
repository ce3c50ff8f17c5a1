"""A seat's view of a ``preferans`` deal in card play read into a
:class:`engine.bots.belief.Belief` (what the ``pimc`` and ``heuristic`` bots reason from): only
what the view shows, never the state.

Where a seat knows a card to be: in its own hand, in a hand lying open (open play, §6.3, and
the passer's hand the lone whister sends cards from), played, in its own discard (снос, the
declarer's), and on raspasy in the tricks the talon (прикуп) led (§8.1). The talon of a contract
or a misère, turned face up for all (§4), went to the declarer, who laid two cards away: the
others know that neither defender holds those cards, not whether the declarer still does.

The seat of the view is the one that sends the card (the lone whister for the passer in open
play); the hand to play is the view's ``hand_due``. A trick led by the talon is not one the
solver plays (``PreferansRuleSet.card_play``); in :attr:`Belief.tricks` its talon card is
player ``-1``.
"""

from __future__ import annotations

from typing import Any

from engine.bots.belief import Belief, codes_mask, seen_hands
from engine.cards import PIQUET
from engine.rules.preferans.hand import PLAY, trump_of
from engine.solver.position import FEWEST, MOST, Position
from engine.tricks import FOLLOW_TRUMP, suit_order

FROM_TALON = -1
"""The player of a talon card in :attr:`Belief.tricks`."""


def card_play_view(view: dict[str, Any]) -> Belief | None:
    """The belief of the seat whose ``view`` this is when it is to send a card of a trick
    the solver plays (``PreferansRuleSet.card_play``: a contract, a misère, raspasy once the
    talon led its two tricks); ``None`` otherwise."""
    seat, active = view["seat"], view["active"]
    if view["phase"] != PLAY or view["to_act"] != seat or seat not in active:
        return None
    if any(t["seat"] not in active for t in view["trick"]):
        return None  # the talon's card leads this trick (§8.1)
    game = view["game"]
    talon = [PIQUET.index[c] for c in view["talon"]]
    plays = [
        (active.index(a["seat"]), PIQUET.index[a["card"]]) for a in view["actions"] if "card" in a
    ]
    done = len(plays) - len(view["trick"])
    talon_lead = game["type"] == "raspasy" and view["rules"]["raspasy_talon"] == "lead"
    if talon_lead and done < 6:
        return None
    tricks: list[tuple[tuple[int, int], ...]] = []
    rest = plays[:done]
    if talon_lead:
        tricks = [((FROM_TALON, talon[k]), *rest[3 * k : 3 * k + 3]) for k in (0, 1)]
        rest = rest[6:]
    tricks += [tuple(rest[i : i + 3]) for i in range(0, len(rest), 3)]
    p = active.index(view["hand_due"])
    d = None if view["declarer"] is None else active.index(view["declarer"])
    if game["type"] == "contract":
        assert d is not None
        side, goal, strain = d, MOST, game["strain"]
    elif game["type"] == "misere":
        assert d is not None
        side, goal, strain = d, FEWEST, None
    else:
        side, goal, strain = p, FEWEST, None
    me = active.index(seat)
    hands = seen_hands(view, PIQUET)
    shown = codes_mask(PIQUET, view["talon"])
    # on raspasy the talon's cards lie in the tricks it led; the talon of a contract or a
    # misère went to the declarer, who laid two cards away: its place the seat knows only
    # as the declarer, and neither defender holds it
    known = 0 if d is not None else shown
    for _, c in plays:
        known |= 1 << c
    for held in hands:
        known |= held
    for a in view["actions"]:
        if a.get("discard") and a["seat"] == seat:
            known |= codes_mask(PIQUET, a["discard"])
    unknown = PIQUET.full & ~known
    counts = tuple(view["hand_sizes"][s] - hands[q].bit_count() for q, s in enumerate(active))
    barred = tuple(0 if q == d else shown & unknown for q in range(3))
    position = Position(
        deck=PIQUET,
        seats=tuple(active),
        hands=tuple(hands),
        trick=tuple((active.index(t["seat"]), PIQUET.index[t["card"]]) for t in view["trick"]),
        to_act=p,
        playing=0b111,
        order=suit_order(PIQUET, trump_of(strain)),
        duty=(FOLLOW_TRUMP, FOLLOW_TRUMP, FOLLOW_TRUMP),
        side=1 << side,
        won=view["tricks"][active[side]],
        goal=goal,
    )
    return Belief(position, me, unknown, counts, tuple(tricks), barred)
