"""Rule set ``balkan``: Hungarian / West Balkan Préférence (``seeds/004``, pagat.com, prefko;
made exact by ``spec/next/austria-variants.md``, "balkan"): a 5–2–5 deal, contract codes
(``S`` 2 … ``C`` 5, misère, sans, uno, slam), number bids one above another, ``hand`` (igra)
with hand contracts, holding (moje), play or home with invitations, giving up, contra and
recontra, and refe.

Modules: ``rules`` (the auction, the contracts, the steps, the settlement; also the base of
``danube-swabian``), ``ruleset`` (:data:`RULE_SET`).
"""

from __future__ import annotations

from engine.rules.balkan.ruleset import RULE_SET, Balkan

__all__ = ["RULE_SET", "Balkan"]
