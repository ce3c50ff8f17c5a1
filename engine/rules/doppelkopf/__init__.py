"""Rule sets ``doppelkopf`` and ``doppelkopf-ddv``: Doppelkopf (``spec/next/doppelkopf.md``).

Terms: *Re* / *Kontra* (the two parties), *die Alten* (the Kreuz-Damen, ``CQ``), *Vorbehalt*
(a reservation), *Hochzeit* (marriage), *Solo*, *Heimliches Solo*, *stilles Solo*, *Karlchen
Müller* (the ``CJ`` solo), *Dulle* (``HT`` under the DDV rules), *Augen* (card points),
*Kasse* (the common pot), *Ansage* / *Absage* (DDV announcements), *Pflichtsolo* /
*Lustsolo* (DDV: a compulsory solo / any other).

The play side: ``rules`` (both rule sets' options), ``cards`` (the deck of 24 codes twice, the
trump orders of every game, obligations), ``actions`` (``reservation``, ``announce``, the
vocabulary), ``hand`` (a hand's immutable states and transitions), ``views`` (what a seat may
know), ``fast`` (the random bot and the fast path), ``ruleset`` (:data:`RULE_SET`,
:data:`DDV_RULE_SET`). The results side: ``outcome`` (a finished hand as scoring sees it),
``results`` (an outcome from the tricks), ``kasse`` and ``ddv`` (the two settlements),
``entries`` (score-sheet entries). Both are registered in ``engine.rules`` and offered by the
Django apps (tables of four, club evenings, tournaments).
"""

from __future__ import annotations

from engine.rules.doppelkopf.ruleset import DDV_RULE_SET, RULE_SET, Doppelkopf, DoppelkopfDdv

__all__ = ["DDV_RULE_SET", "RULE_SET", "Doppelkopf", "DoppelkopfDdv"]
