"""Rule set ``austria-modern``: modern Austrian Préférence (``seeds/004``, made exact by
``spec/next/austria-variants.md``): a ladder of four bids and their hand versions, positional
holding, a forced rearhand, play or home, giving up, the pot paying 10 units, and optional
bonuses.

Modules: ``rules`` (the options, the ladder, the contracts and the settlement, as a
:class:`engine.rules.family.spec.Family`), ``ruleset`` (:data:`RULE_SET`). The phases, the card
play, the views, the records and the fast path are the family's (``engine.rules.family``).
"""

from __future__ import annotations

from engine.rules.austria_modern.ruleset import RULE_SET, AustriaModern

__all__ = ["RULE_SET", "AustriaModern"]
