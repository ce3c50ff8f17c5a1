"""Rule set ``american``: Préférence as Foster (1909) and the USPCC give it (``seeds/004``, made
exact by ``spec/next/austria-variants.md``, "american"): one round of suit bids (S < C < D <
H) played without the widow, a second round of offers paid into the pool, whist play, and a
reward per trick from the pool.

Modules: ``rules`` (the rounds, the steps, the settlement), ``ruleset`` (:data:`RULE_SET`).
"""

from __future__ import annotations

from engine.rules.american.ruleset import RULE_SET, American

__all__ = ["RULE_SET", "American"]
