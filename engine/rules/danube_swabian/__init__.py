"""Rule set ``danube-swabian``: the Danube Swabian game (``seeds/004``, made exact by
``spec/next/austria-variants.md``, "danube-swabian"): ``balkan``'s deal, auction and contracts,
but no pot: everyone plays, the declarer settles with each defender separately (contra and
recontra per defender), over- and undertricks count, and a talon pair pays the dealer for the
artwork.

Modules: ``rules`` (balkan's family with its differences), ``ruleset`` (:data:`RULE_SET`).
"""

from __future__ import annotations

from engine.rules.danube_swabian.ruleset import RULE_SET, DanubeSwabian

__all__ = ["RULE_SET", "DanubeSwabian"]
