"""The solver on a hand state or a record: what ``python -m engine solve`` prints and the
analysis of a finished hand builds on."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.rules import rule_set
from engine.ruleset import HandState
from engine.solver.position import Position
from engine.solver.search import solve


def position_of(state: HandState) -> Position:
    """The card-play position of ``state``, or an :class:`EngineError` saying why there is
    none."""
    rs = rule_set(state.rules.variant)
    if state.is_over:
        raise EngineError("", "the hand is over: there is no card left to play")
    pos = rs.card_play(state)
    if pos is None:
        raise EngineError(
            "",
            "the record does not stop in card play (a card must be the next action), or "
            f"{rs.name}'s game here is not one the solver plays",
        )
    return pos


def solve_state(state: HandState) -> dict[str, Any]:
    """``{"declarer_tricks", "optimal", "declarer", "goal"}``: the side's tricks at the end of
    the hand under best play from ``state``, every card of the player to move that achieves
    them (card codes), whose tricks they are and what they want (``engine.solver.position``)."""
    pos = position_of(state)
    total, mask = solve(pos)
    side = next(q for q in range(len(pos.seats)) if pos.side >> q & 1)
    return {
        "declarer_tricks": total,
        "optimal": pos.deck.codes_of(mask),
        "declarer": pos.seats[side],
        "goal": pos.goal,
        "to_act": pos.seats[pos.to_act],
    }
