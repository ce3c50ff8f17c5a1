"""Rule set ``austria-1829``: the earliest printed rules of Préférence (``seeds/004``, made
exact by ``spec/next/austria-variants.md``, "austria-1829"): suit bids, holding (*selbst*),
*Préférence* (hearts as the very first bid), forehand's second chance, the forced player's
bête, and the 1829 settlement in which a failing defender pays the others directly.

Modules: ``rules`` (the ladder, the steps, the settlement), ``ruleset`` (:data:`RULE_SET`).
"""

from __future__ import annotations

from engine.rules.austria_1829.ruleset import RULE_SET, Austria1829

__all__ = ["RULE_SET", "Austria1829"]
