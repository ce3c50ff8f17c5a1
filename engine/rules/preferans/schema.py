"""Preferans's API shapes (``engine.ruleset.Shapes``).

Placeholder wiring (issue 37): the shapes are filled in by the schema work; until then the
server documents these rule sets' keys itself.
"""

from __future__ import annotations

from engine.ruleset import Shapes

END_PUBLIC = (
    "phase", "to_act", "hand_due", "hand", "hand_sizes", "declarer", "game", "defence",
    "trick", "last_trick", "tricks",
)  # fmt: skip
"""The view keys the end of a hand makes public while its board is withheld."""

SHAPES = Shapes(end_public=END_PUBLIC)
