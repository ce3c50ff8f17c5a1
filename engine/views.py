"""What one seat may know: the only way hidden information leaves the engine.

``view(state, seat)`` asks the state's rule set for the position as ``seat`` may see it
(``seat=None``: a spectator); ``known(state, seat)`` for the cards that seat may know. Every
rule set's view shows no card outside ``known`` and does not change when the cards hidden from
the seat lie elsewhere (``tests/engine/test_conformance.py``). For ``wien`` see
``engine/rules/wien/views.py``.
"""

from __future__ import annotations

from typing import Any

from engine.rules import rule_set
from engine.ruleset import HandState


def view(state: HandState, seat: str | None) -> dict[str, Any]:
    """The position as ``seat`` may see it (JSON-ready)."""
    return rule_set(state.rules.variant).view(state, seat)


def known(state: HandState, seat: str | None) -> int:
    """The mask of cards ``seat`` may know now (everything after the hand)."""
    mask: int = rule_set(state.rules.variant).known(state, seat)
    return mask
