"""What one seat may know of a ``preferans`` deal (``spec/next/preferans.md`` §4, §5, §6.3,
§8.1): its own hand; every call and every card played; the talon face up for all once a
contract or misère auction ends, and on raspasy each talon card as it is turned; the
defenders' hands in open play (a lone whister's ``open``, misère, a checked ten) from the
moment ``open_timing`` names, never earlier; the declarer's discard not before the deal ends
(to the others its action shows ``null``). The declarer's hand is never shown during the deal;
after it, as at every table of the server, the whole deal is (``deal``: the hands and the talon
in its order), as the proof of the shuffle reveals the deck.

One choice the spec leaves open: in open play the lone whister sends the passer's cards, so
while one of them is due he sees the hand he plays from, even before ``open_timing`` shows it to
the table (only ``after_first_card`` with the passer as first hand comes to that).

A spectator (``None``) and a sitting-out dealer see what is public.
"""

from __future__ import annotations

from typing import Any

from engine.actions import PlayCard, action_to_json
from engine.cards import PIQUET
from engine.rules.preferans.actions import Discard, codes
from engine.rules.preferans.hand import DONE, PLAY, TALON, State, legal


def hands_shown(s: State) -> bool:
    """Whether the defenders' hands lie open now (§5 ``open_timing``, §6.3)."""
    if not s.open_play or s.phase != PLAY:
        return False
    timing = s.rules.open_timing
    started = s.played > 0 or any(q != TALON for q, _ in s.trick)
    if timing == "before_first_lead":
        return True
    if timing == "after_first_card":
        return started
    return started or s.declarer != 0  # after_declarer_lead


def open_hands(s: State, seat: str | None) -> dict[str, int]:
    """The defenders' hands ``seat`` sees face up: both once they lie open; the passer's for
    the lone whister while he must play from it (module docstring)."""
    defenders = [q for q in range(3) if q != s.declarer]
    if s.declarer >= 0 and hands_shown(s):
        return {s.active[q]: s.hands[q] for q in defenders}
    w = s.whister
    if s.phase == PLAY and w >= 0 and seat == s.active[w] and s.turn != w and s.turn != s.declarer:
        return {s.active[s.turn]: s.hands[s.turn]}
    return {}


def talon_seen(s: State) -> list[int]:
    """The talon cards face up now (in talon order): both once a contract or misère auction
    ended (§4); on raspasy those turned so far (§8.1)."""
    if s.game in ("contract", "misere"):
        return list(s.talon)
    if s.talon_lead and s.phase in (PLAY, DONE):
        return list(s.talon[: 1 if s.played == 0 else 2])
    return []


def known(s: State, seat: str | None) -> int:
    """The cards ``seat`` may know now (the rules of :func:`view` as a mask): after the deal,
    all of them."""
    if s.is_over:
        return PIQUET.full
    p = s.player(seat)
    out = 0
    if p is not None:
        out |= s.hands[p]
        if p == s.declarer:
            out |= s.discard
    for a in s.history:
        if isinstance(a, PlayCard):
            out |= 1 << a.card
    for c in talon_seen(s):
        out |= 1 << c
    for mask in open_hands(s, seat).values():
        out |= mask
    return out


def _trick(s: State, trick: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
    talon = s.dealer if len(s.seats) == 4 else "talon"
    return [
        {"seat": talon if q == TALON else s.active[q], "card": PIQUET.code(c)} for q, c in trick
    ]


def view(s: State, seat: str | None) -> dict[str, Any]:
    """The deal as ``seat`` may see it (JSON-ready)."""
    p = s.player(seat)
    actions = []
    for a in s.history:
        item = action_to_json(a, PIQUET)
        if isinstance(a, Discard) and a.seat != seat and not s.is_over:
            item["discard"] = None
        actions.append(item)
    game: dict[str, Any] | None = None  # a contract once ordered (the winning bid is a call)
    if s.game == "contract" and s.level is not None:
        game = {"type": "contract", "level": s.level, "strain": s.strain}
    elif s.game in ("misere", "raspasy"):
        game = {"type": s.game}
    tricks = {a: s.won[i] for i, a in enumerate(s.active)}
    if s.talon_lead and len(s.seats) == 4:
        tricks[s.dealer] = s.won[TALON]
    to_act = s.to_act
    out: dict[str, Any] = {
        "seat": seat,
        "phase": s.phase,
        "to_act": to_act,
        "hand_due": None if s.is_over else s.active[s.turn],
        "rules": s.rules.to_json(),
        "seats": list(s.seats),
        "dealer": s.dealer,
        "active": list(s.active),
        "streak": s.streak,
        "hand": codes(s.hands[p]) if p is not None else None,
        "hand_sizes": {a: s.hands[i].bit_count() for i, a in enumerate(s.active)},
        "talon": [PIQUET.code(c) for c in talon_seen(s)],
        "open_hands": {a: codes(m) for a, m in open_hands(s, seat).items()},
        "actions": actions,
        "declarer": s.active[s.declarer] if s.declarer >= 0 else None,
        "game": game,
        "defence": {s.active[q]: d for q, d in enumerate(s.defence) if d},
        "whist_mode": s.mode,
        "trick": _trick(s, s.trick),
        "last_trick": _trick(s, s.last),
        "tricks": tricks,
    }
    if s.sheet is not None:
        out["sheet"] = s.sheet.to_json()
    if s.is_over:  # the whole deal, the talon in its order (as the proof reveals the deck)
        deal = {a: codes(s.deal[i]) for i, a in enumerate(s.active)}
        deal["talon"] = [PIQUET.code(c) for c in s.talon]
        out["deal"] = deal
    if seat is not None and to_act == seat:
        out["legal"] = [action_to_json(a, PIQUET) for a in legal(s)]
    return out


__all__ = ["hands_shown", "known", "open_hands", "talon_seen", "view"]
