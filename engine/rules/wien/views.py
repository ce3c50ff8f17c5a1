"""What one seat may know: the only way hidden information leaves the engine.

``view(state, seat)`` gives a seat its own hand, the public actions, the talon from the moment
the rules show it to that seat (a premium call without ``h`` sees it at once, the declarer and
a player who looks take it, a discarder knows what he laid away), the defenders' hands in the
open games 7 and 8 after the first trick, and after the hand everything. ``seat=None`` is a
spectator: public information only.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Discard, PlayCard, action_to_json
from engine.rules.wien.play import legal_actions
from engine.rules.wien.rules import OPEN_LEVELS
from engine.rules.wien.state import Phase, State


def open_players(state: State) -> int:
    """Mask of players whose hands lie open: the defenders of a 7 or 8 after the first trick
    (wien.md, "Card play"), everybody once the hand is over."""
    if state.phase is Phase.DONE:
        return 0b111
    g, d = state.game, state.declarer
    if g is None or g.kind != "premium" or g.level not in OPEN_LEVELS or state.tricks_done < 1:
        return 0
    assert d is not None
    return 0b111 & ~(1 << d)


def view(state: State, seat: str | None) -> dict[str, Any]:
    """The position as ``seat`` may see it (JSON-ready)."""
    deck = state.deck
    p = None if seat is None else state.player(seat)
    done = state.phase is Phase.DONE
    opened = open_players(state)

    def knows_talon() -> bool:
        if done or state.talon == 0:
            return True
        return p is not None and bool(state.talon_known >> p & 1)

    actions = []
    for a in state.history:
        item = action_to_json(a, deck)
        if isinstance(a, Discard) and not done and a.seat != seat:
            item["discard"] = None
        actions.append(item)
    out: dict[str, Any] = {
        "seat": seat,
        "phase": state.phase.value,
        "to_act": state.to_act_seat,
        "rules": state.rules.to_json(),
        "seats": list(state.seats),
        "dealer": state.dealer,
        "active": list(state.active),
        "pot": state.pot_before,
        "stake": state.stake,
        "hand": deck.codes_of(state.hands[p]) if p is not None else None,
        "hand_sizes": {s: state.hands[i].bit_count() for i, s in enumerate(state.active)},
        "talon": deck.codes_of(state.talon) if knows_talon() else None,
        "dealt_talon": (
            deck.codes_of(state.deal[3])
            if done or (p is not None and state.talon_seen >> p & 1)
            else None
        ),
        "open_hands": {
            s: deck.codes_of(state.hands[i]) for i, s in enumerate(state.active) if opened >> i & 1
        },
        "actions": actions,
        "declarer": None if state.declarer is None else state.active[state.declarer],
        "game": None if state.game is None else state.game.to_json(),
        "defence": {state.active[i]: d for i, d in enumerate(state.defence) if d is not None},
        "trick": [{"seat": state.active[q], "card": deck.code(c)} for q, c in state.trick],
        "last_trick": [
            {"seat": state.active[q], "card": deck.code(c)} for q, c in state.last_trick
        ],
        "tricks": dict(zip(state.active, state.won, strict=True)),
        "offer": (
            None
            if state.offer is None
            else {
                "by": state.active[state.offer[0]],
                "declarer": state.offer[1],
                "defender": state.offer[2],
            }
        ),
    }
    if p is not None and state.to_act == p:
        out["legal"] = [action_to_json(a, deck, seat=False) for a in legal_actions(state)]
    if done:
        deal = {s: deck.codes_of(state.deal[i]) for i, s in enumerate(state.active)}
        deal["talon"] = deck.codes_of(state.deal[3])
        out["deal"] = deal
    return out


def known(state: State, seat: str | None) -> int:
    """The cards ``seat`` may know (the rules of :func:`view`, as a mask): its own hand and
    discards, every card played, the open hands, the talon while it shows it to that seat (the
    current talon once it knows it, the dealt talon once it saw it); everything after the
    hand."""
    if state.phase is Phase.DONE:
        return state.deck.full
    p = None if seat is None else state.player(seat)
    opened = open_players(state)
    out = 0
    for q in range(3):
        if opened >> q & 1:
            out |= state.hands[q]
    for a in state.history:
        if isinstance(a, PlayCard):
            out |= 1 << a.card
        elif isinstance(a, Discard) and a.seat == seat:
            out |= a.cards
    if p is not None:
        out |= state.hands[p]
        if state.talon_known >> p & 1:
            out |= state.talon
        if state.talon_seen >> p & 1:
            out |= state.deal[3]
    return out
