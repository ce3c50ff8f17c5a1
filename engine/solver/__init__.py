"""Double-dummy analysis of card play: :func:`solve` (exact, fast: ``search``) and
:func:`reference_solve` (plain minimax: ``reference``) over a :class:`Position`, which a rule
set builds from a hand state (``RuleSet.card_play``)."""

from engine.solver.position import FEWEST, GOAL_MEANINGS, GOALS, MISERE, MOST, SLAM, Position
from engine.solver.reference import reference_card_values, reference_solve
from engine.solver.search import Search, card_values, python_solve, solve

__all__ = [
    "FEWEST",
    "GOALS",
    "GOAL_MEANINGS",
    "MISERE",
    "MOST",
    "SLAM",
    "Position",
    "Search",
    "card_values",
    "python_solve",
    "reference_card_values",
    "reference_solve",
    "solve",
]
