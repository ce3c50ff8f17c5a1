"""Positions of Doppelkopf hands for the tests, written as card strings.

Seats ``anna bert carl dora``, dealer ``dora``: anna is forehand. :func:`deal` writes the hands
the test cares about and fills every other place from the cards left, in deck order, so a
position names only what matters. Moves are short strings (:func:`move`): ``"anna none"``,
``"anna hochzeit"``, ``"anna solo:H"``, ``"anna karlchen"``, ``"anna secret_solo"``, ``"anna
!re"`` (an announcement), ``"anna CA"`` (a card).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

import engine
from engine.rules.doppelkopf.cards import DECK
from engine.rules.doppelkopf.hand import State

SEATS = ["anna", "bert", "carl", "dora"]
DEALER = "dora"
RULES: dict[str, Any] = {"variant": "doppelkopf", "base": 20, "ante": 10}
DDV: dict[str, Any] = {"variant": "doppelkopf-ddv", "point_value": 10}
RESERVATIONS = ("none", "hochzeit", "karlchen", "secret_solo")


def deal(**hands: str) -> dict[str, list[str]]:
    """Each named seat's cards (space-separated codes, at most 12), the rest of every hand
    filled with the cards left over in deck order (``D9 D9 DJ …``), seat by seat."""
    pool = Counter(DECK.codes)
    out: dict[str, list[str]] = {}
    for seat in SEATS:
        cards = hands.get(seat, "").split()
        assert len(cards) <= 12, seat
        for c in cards:
            assert pool[c] > 0, f"{c} is dealt more than twice"
            pool[c] -= 1
        out[seat] = cards
    left = []
    for c in DECK.codes:
        if pool[c]:
            pool[c] -= 1
            left.append(c)
    for seat in SEATS:
        need = 12 - len(out[seat])
        out[seat] += left[:need]
        del left[:need]
    return out


def move(text: str) -> dict[str, Any]:
    """An action from a short string (module docstring)."""
    seat, what = text.split()
    if what in RESERVATIONS:
        return {"seat": seat, "reservation": what}
    if what.startswith("solo:"):
        return {"seat": seat, "reservation": {"solo": what[5:]}}
    if what.startswith("!"):
        return {"seat": seat, "announce": what[1:]}
    return {"seat": seat, "card": what}


def record(
    hands: dict[str, list[str]],
    *moves: str,
    rules: dict[str, Any] | None = None,
    **carry: Any,
) -> dict[str, Any]:
    """A full record of ``hands`` and ``moves`` (``kasse`` 100 for ``doppelkopf`` unless
    given)."""
    rules = rules or RULES
    if rules["variant"] == "doppelkopf":
        carry.setdefault("kasse", 100)
    return {
        "rules": rules,
        "seats": SEATS,
        "dealer": DEALER,
        **carry,
        "deal": hands,
        "actions": [move(m) for m in moves],
    }


def play(
    hands: dict[str, list[str]],
    *moves: str,
    rules: dict[str, Any] | None = None,
    **carry: Any,
) -> State:
    """The state after ``moves`` from ``hands``."""
    return cast(State, engine.replay(record(hands, *moves, rules=rules, **carry)))


def apply(state: State, *moves: str) -> State:
    """``state`` after more moves."""
    rs = engine.rule_set(state.rules.variant)
    for text in moves:
        state = engine.apply(state, rs.action_from_json(move(text), "action"))
    return state


def legal(state: State, seat: str) -> list[str]:
    """``seat``'s legal actions as short strings (cards as codes, ``!word`` announcements)."""
    out = []
    for a in engine.legal_actions(state, seat):
        body = engine.action_to_json(a, DECK)
        if "card" in body:
            out.append(body["card"])
        elif "announce" in body:
            out.append("!" + body["announce"])
        else:
            r = body["reservation"]
            out.append(r if isinstance(r, str) else f"solo:{r['solo']}")
    return out


def healthy(*seats: str) -> tuple[str, ...]:
    """``none`` for each seat."""
    return tuple(f"{s} none" for s in seats)


ALL_NONE = healthy(*SEATS)
