"""Doppelkopf's API shapes (``engine.ruleset.Shapes``): ``doppelkopf`` and ``doppelkopf-ddv``.

Placeholder wiring (issue 37): the shapes are filled in by the schema work; until then the
server documents these rule sets' keys itself.
"""

from __future__ import annotations

from engine.ruleset import Shapes

END_PUBLIC = (
    "phase", "to_act", "hand", "hand_sizes", "game", "trick", "last_trick", "tricks",
    "parties",
)  # fmt: skip
"""The view keys the end of a hand makes public while its board is withheld (the parties,
which its Result names anyway; reservations stay ``"none"`` or ``"reserved"``)."""

SHAPES = Shapes(end_public=END_PUBLIC)

POSITIONS = ("first", "second", "third", "fourth")
"""The four positions of a deal, from the seat after the dealer."""
DDV_SHAPES = Shapes(end_public=END_PUBLIC)
