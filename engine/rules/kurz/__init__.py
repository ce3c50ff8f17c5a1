"""Rule set ``kurz``: the short family rules (``seeds/001``, made exact by
``spec/next/kurz.md``): three suit bids with a hand version each, a cent per trick out of the
pot, and a hand-game premium.

Terms: *Eins / Zwei / Drei* (the bids: at least clubs, spades, diamonds), *mit Handspiel*
(``h``: without the talon), *zusammenschmeißen* (throwing the cards in when all pass),
*mitgehen / daheimbleiben* (play / stay home).

Modules: ``rules`` (the options, the ladder, the contracts and the settlement, as a
:class:`engine.rules.family.spec.Family`), ``ruleset`` (:data:`RULE_SET`). The phases, the card
play, the views, the records and the fast path are the family's (``engine.rules.family``).
"""

from __future__ import annotations

from engine.rules.kurz.ruleset import RULE_SET, Kurz

__all__ = ["RULE_SET", "Kurz"]
