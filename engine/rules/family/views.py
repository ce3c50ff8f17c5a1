"""What one seat may know of a talon-family hand: its own hand and discards, the public
actions (another player's discard is ``null``), every card played, the hands the rules lay open
(``illustrated``'s open contracts), the talon while the rules show it to that seat (the winner
of a talon call takes it; Balkan shows it to all; a hand game never shows it before the end),
and after the hand everything. A spectator (``None``) and a sitting-out dealer see public
information only."""

from __future__ import annotations

from typing import Any

from engine.actions import Discard, PlayCard, action_to_json
from engine.cards import PIQUET
from engine.rules.family.state import State


def _played(state: State) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The trick in progress and the last complete trick, from the cards played."""
    cards = [a for a in state.history if isinstance(a, PlayCard)]
    size = state.hand.trick_size or 3
    n = len(cards) % size
    now = cards[len(cards) - n :] if n else []
    last = cards[len(cards) - n - size : len(cards) - n] if len(cards) >= size else []
    return (
        [{"seat": a.seat, "card": PIQUET.code(a.card)} for a in now],
        [{"seat": a.seat, "card": PIQUET.code(a.card)} for a in last],
    )


def _sees_talon(state: State, p: int | None) -> tuple[bool, bool]:
    """Whether ``p`` knows the talon as it lies now, and the talon as dealt."""
    h = state.hand
    if state.is_over:
        return True, True
    public = h.talon_seen == 0b111
    now = h.talon == 0 or (p is not None and bool(h.talon_known >> p & 1))
    dealt = public or (p is not None and bool(h.talon_seen >> p & 1))
    return now, dealt


def view(state: State, seat: str | None) -> dict[str, Any]:
    """The position as ``seat`` may see it (JSON-ready)."""
    h = state.hand
    deck = PIQUET
    p = state.player(seat)
    done = state.is_over
    now, dealt = _sees_talon(state, p)
    actions = []
    for a in state.history:
        item = action_to_json(a, deck)
        if isinstance(a, Discard) and not done and a.seat != seat:
            item["discard"] = None
        actions.append(item)
    trick, last = _played(state)
    out: dict[str, Any] = {
        "seat": seat,
        "phase": state.phase,
        "to_act": state.to_act_seat,
        "rules": state.rules.to_json(),
        "seats": list(state.seats),
        "dealer": state.dealer,
        "active": list(state.active),
        **state.carry_dict,
        "hand": deck.codes_of(h.hands[p]) if p is not None else None,
        "hand_sizes": {s: h.hands[i].bit_count() for i, s in enumerate(state.active)},
        "talon": deck.codes_of(h.talon) if now else None,
        "dealt_talon": deck.codes_of(h.deal[3]) if dealt else None,
        "open_hands": {
            s: deck.codes_of(h.hands[i]) for i, s in enumerate(state.active) if h.open >> i & 1
        },
        "actions": actions,
        "declarer": state.declarer,
        "game": None if h.game is None else h.game.to_json(),
        "defence": {state.active[i]: d for i, d in enumerate(h.defence) if d},
        "trick": trick,
        "last_trick": last,
        "tricks": dict(zip(state.active, h.won, strict=True)),
    }
    if p is not None and h.to_act == p and not done:
        out["legal"] = [action_to_json(a, deck, seat=False) for a in h.legal()]
    if done:
        deal = {s: deck.codes_of(h.deal[i]) for i, s in enumerate(state.active)}
        deal["talon"] = deck.codes_of(h.deal[3])
        out["deal"] = deal
    return out


def known(state: State, seat: str | None) -> int:
    """The cards ``seat`` may know (the rules of :func:`view` as a mask)."""
    h = state.hand
    if state.is_over:
        return PIQUET.full
    p = state.player(seat)
    out = 0
    for q in (0, 1, 2):
        if h.open >> q & 1:
            out |= h.hands[q]
    for a in state.history:
        if isinstance(a, PlayCard):
            out |= 1 << a.card
        elif isinstance(a, Discard) and a.seat == seat:
            out |= a.cards
    now, dealt = _sees_talon(state, p)
    if p is not None:
        out |= h.hands[p]
    if now:
        out |= h.talon
    if dealt:
        out |= h.deal[3]
    return out
