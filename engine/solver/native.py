"""The compiled twin of :mod:`engine.solver.search`: the same double-dummy search in C
(``engine/solver/_dd.c``, the extension module ``engine.solver._dd``), for the positions it
handles: a deck of at most 32 distinct cards (``copies == 1``) and at most four seats (a
:class:`Position` ranks its cards by index within a game suit, as every Préférence game does).

The extension is built by ``pip install -e .`` (``make install``) where a C compiler is found;
where it is not, :data:`available` is false and both functions return ``None``, and the caller
uses :class:`engine.solver.search.Search`, the reference the C search is tested against
(``tests/engine/test_solver_native.py``). The answers are the same, bit for bit.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.solver.position import GOALS, Position

MAX_CARDS = 32
MAX_SEATS = 4


def _load() -> ModuleType | None:
    """The extension module, or ``None`` where it was not built."""
    try:
        return importlib.import_module("engine.solver._dd")
    except ImportError:
        return None


_dd = _load()
available: bool = _dd is not None
"""Whether the compiled search is importable here."""


def _arguments(pos: Position) -> tuple[object, ...] | None:
    """``pos`` as the plain ints and tuples ``_dd`` takes, or ``None`` if it handles no such
    position."""
    if pos.deck.copies != 1 or pos.deck.size > MAX_CARDS or len(pos.seats) > MAX_SEATS:
        return None
    order = pos.order
    return (
        pos.hands,
        pos.trick,
        pos.to_act,
        pos.playing,
        order.suit_of,
        order.suit_mask,
        order.above,
        order.trump,
        tuple(d.bits for d in pos.duty),
        pos.side,
        GOALS.index(pos.goal),
    )


def native_solve(pos: Position) -> tuple[int, int] | None:
    """As :func:`engine.solver.search.solve`: the side's total tricks under best play
    (``pos.won`` included) and the mask of every card of the player to move that achieves
    them; ``None`` without the extension or for a position it does not handle. A position
    that breaks the course of play (hands sharing a card, a trick not from the players before
    the one to move, hands of unequal length) raises :class:`ValueError`."""
    args = None if _dd is None else _arguments(pos)
    if _dd is None or args is None:
        return None
    value, optimal = _dd.solve(*args)
    return pos.won + int(value), int(optimal)


def native_card_values(pos: Position) -> dict[int, int] | None:
    """As :meth:`engine.solver.search.Search.card_values`: each legal card of the player to
    move with the side's tricks from the start of the trick in progress (``pos.won`` not
    included) if he plays it and everybody plays best from there; ``None`` as for
    :func:`native_solve`."""
    args = None if _dd is None else _arguments(pos)
    if _dd is None or args is None:
        return None
    return {int(c): int(v) for c, v in _dd.card_values(*args)}
