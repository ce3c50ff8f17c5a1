"""Rule set ``illustrated``: ``austria-modern`` plus four no-trump premium contracts (``seeds/004``,
made exact by ``spec/next/austria-variants.md``, "illustrated"): ``5`` misère, ``6`` slam, ``7``
open misère, ``8`` open slam, each with a hand version; or, with ``illustrated_form =
"six_in_row"``, a slam made by six tricks in a row and no open contracts.

Modules: ``rules`` (the ladder, the contracts, the settlement), ``ruleset`` (:data:`RULE_SET`).
"""

from __future__ import annotations

from engine.rules.illustrated.ruleset import RULE_SET, Illustrated

__all__ = ["RULE_SET", "Illustrated"]
