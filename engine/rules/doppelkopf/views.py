"""What one seat may know of a Doppelkopf hand (``spec/next/doppelkopf.md``, "What each player
sees").

Before the end of the hand a seat sees its own hand and its own reservation; every card
played, by whom, each trick's winner and Augen; the record's ``kasse`` (DDV: every
announcement); of each reservation sent only ``"none"`` or ``"reserved"`` (``none`` and
``secret_solo`` show as ``"none"``); the public game once all four reservations are in (a
Heimliches or stilles Solo shows as ``normal`` until revealed; a Hochzeit adds ``partner`` once
clarified); and the public parties, the same for every seat (:func:`public_parties`). At the
end: every hand (``deal``), every reservation and both parties.

``to_act`` in a view is the seat whose turn it is to send a reservation or to play (public);
whether another seat may announce depends on its party, which may be hidden, so a view shows
only the seat's own announcements, in its ``legal``.

A spectator (``None``) sees what is public.
"""

from __future__ import annotations

from typing import Any

from engine.actions import action_to_json
from engine.rules.doppelkopf.actions import Announce, Reservation
from engine.rules.doppelkopf.cards import CQ, DECK, codes
from engine.rules.doppelkopf.hand import (
    HIDDEN_SOLOS,
    SOLO_GAMES,
    State,
    augen,
    legal,
)


def public_parties(s: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The players publicly known to be Re and to be Kontra, in playing order.

    - An announced solo or Karlchen: all four once the reservations are done.
    - A Hochzeit: the announcer is Re at once; all four once it is clarified.
    - A normal game, a Heimliches or stilles Solo: a player who plays a CQ is Re (DDV: also
      who announces for Re; who announces for Kontra is Kontra); two different public Re
      players make all four known. A hidden solo, once revealed (the other CQ played by anyone
      but the soloist, or the soloist's second CQ), makes all four public at once.
    - The end of the hand: all four.
    """
    if s.game is None:
        return (), ()
    everyone = (s.re, tuple(p for p in range(4) if p not in s.re))
    if s.is_over or s.game in SOLO_GAMES:
        return everyone
    if s.game == "hochzeit":
        return everyone if s.clarified else ((s.declarer,), ())
    if s.game in HIDDEN_SOLOS and s.revealed:
        return everyone
    re: set[int] = set()
    kontra: set[int] = set()
    for lead, cards, _ in s.tricks:
        re.update((lead + i) % 4 for i, c in enumerate(cards) if (1 << c) & CQ)
    re.update((s.leader + i) % 4 for i, c in enumerate(s.trick) if (1 << c) & CQ)
    for p, _ in s.announced:
        (re if s.party(p) == 0 else kontra).add(p)
    if len(re) >= 2:
        return everyone
    return tuple(sorted(re)), tuple(sorted(kontra))


def public_game(s: State) -> dict[str, Any] | None:
    """The game as the table knows it (``None`` during the reservations)."""
    if s.game is None:
        return None
    if s.game in HIDDEN_SOLOS and not (s.revealed or s.is_over):
        return {"type": "normal"}
    out: dict[str, Any] = {"type": s.game}
    if s.game == "normal":
        return out
    if s.game == "hochzeit":
        out["announcer"] = s.active[s.declarer]
        if s.clarified:
            out["partner"] = s.active[s.partner] if s.partner >= 0 else None
        return out
    out["soloist"] = s.active[s.declarer]
    if s.game == "solo":
        kind = "D" if s.kind == "normal" else s.kind
        if s.ddv:
            out["kind"] = kind
            out["pflicht"] = s.pflicht
        else:
            out["trump"] = kind
    return out


def known(s: State, seat: str | None) -> int:
    """The cards ``seat`` may know now: its own hand as dealt and every card played; after the
    hand, all of them.

    DDV: from the first announcement on, also both CQ. An announcement makes its announcer's
    party public, and a party is a statement about the CQ (Re holds them) that the record's
    ``announce`` value (``no90``, …) does not carry: where the CQ lie is then tied to what the
    views show, so a deal that keeps the actions but moves a CQ is another hand (the swap
    check of ``tests/engine/test_conformance.py`` keeps them in place)."""
    if s.is_over:
        return DECK.full
    out = CQ if s.announced else 0
    p = s.player(seat)
    if p is not None:
        out |= s.deal[p]
    for _, cards, _ in s.tricks:
        for c in cards:
            out |= 1 << c
    for c in s.trick:
        out |= 1 << c
    return out


def _trick(s: State, lead: int, cards: tuple[int, ...]) -> dict[str, Any]:
    return {
        "leader": s.active[lead],
        "cards": [
            {"seat": s.active[(lead + i) % 4], "card": DECK.code(c)} for i, c in enumerate(cards)
        ],
    }


def _shown(r: Reservation, over: bool) -> Any:
    """A reservation as the table sees it: ``"none"`` (``none`` and ``secret_solo`` alike) or
    ``"reserved"`` until the end of the hand, then what was sent."""
    if over:
        return r.value_json(DECK)
    return "none" if r.kind in ("none", "secret_solo") else "reserved"


def view(s: State, seat: str | None) -> dict[str, Any]:
    """The hand as ``seat`` may see it (JSON-ready), in the spec's shape, with its ``phase``
    and every action so far as the table saw it (``actions``: reservations shown as above;
    the API's events read them)."""
    p = s.player(seat)
    over = s.is_over
    own = None
    if p is not None and p < len(s.reservations):
        own = s.reservations[p].value_json(DECK)
    reservations = [{"seat": r.seat, "reservation": _shown(r, over)} for r in s.reservations]
    actions = [
        {"seat": a.seat, "reservation": _shown(a, over)}
        if isinstance(a, Reservation)
        else action_to_json(a, DECK)
        for a in s.history
    ]
    tricks = []
    for lead, cards, winner in s.tricks:
        tricks.append({**_trick(s, lead, cards), "winner": s.active[winner], "augen": augen(cards)})
    if s.trick:
        tricks.append(_trick(s, s.leader, s.trick))
    re, kontra = public_parties(s)
    out: dict[str, Any] = {
        "seat": seat,
        "phase": s.phase,
        "hand": codes(s.hands[p]) if p is not None else None,
        "own_reservation": own,
        "reservations": reservations,
        "game": public_game(s),
        "tricks": tricks,
        "parties": {"re": [s.active[q] for q in re], "kontra": [s.active[q] for q in kontra]},
        "actions": actions,
    }
    if s.ddv:
        out["announcements"] = [
            {"seat": a.seat, "announce": a.word} for a in s.history if isinstance(a, Announce)
        ]
    else:
        out["kasse"] = s.kasse
    out["to_act"] = None if over else s.active[s.turn]
    out["legal"] = [action_to_json(a, DECK) for a in legal(s, p)] if p is not None else []
    if over:
        out["deal"] = {a: codes(s.deal[i]) for i, a in enumerate(s.active)}
    return out


__all__ = ["known", "public_game", "public_parties", "view"]
