"""The talon family's API shapes (``engine.ruleset.Shapes``): wien and the seven family sets.

Placeholder wiring (issue 37): the shapes are filled in by the schema work; until then the
server documents these rule sets' keys itself.
"""

from __future__ import annotations

from engine.ruleset import Shapes

END_PUBLIC = (
    "phase", "to_act", "hand", "hand_sizes", "declarer", "game", "defence", "trick",
    "last_trick", "tricks", "offer",
)  # fmt: skip
"""The view keys the end of a hand makes public while its board is withheld: phase, the last
action, the tricks, the seat's own cards left, the declarer's game and the defence."""

SHAPES = Shapes(end_public=END_PUBLIC)

POSITIONS = ("forehand", "middlehand", "rearhand")
"""The active positions of a deal, forehand first (duplicate scoring compares them)."""
