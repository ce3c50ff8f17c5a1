"""The solver on a hand state or a record: what ``python -m engine solve`` prints and the
analysis of a finished hand builds on."""

from __future__ import annotations

from typing import Any

from engine.messages import SOLVER_HAND_OVER, SOLVER_NOT_CARD_PLAY
from engine.rules import rule_set
from engine.ruleset import HandState
from engine.solver.position import Position
from engine.solver.search import solve


def position_of(state: HandState) -> Position:
    """The card-play position of ``state``, or an :class:`EngineError` saying why there is
    none."""
    rs = rule_set(state.rules.variant)
    if state.is_over:
        raise SOLVER_HAND_OVER.error("")
    pos = rs.card_play(state)
    if pos is None:
        raise SOLVER_NOT_CARD_PLAY.error("", rule_set=rs.name)
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
