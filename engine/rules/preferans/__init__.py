"""Rule set ``preferans``: Russian Preferans (Преферанс), ``spec/next/preferans.md``.

Terms: *пуля* (the pool, P, and a whole game: the pulya), *гора* (the mountain, M), *висты*
(whists), *прикуп* (the talon), *торговля* (the auction), *мизер* (misère), *распасы* (raspasy,
the all-pass deal), *вист / пас / полвиста* (whist, pass, half-whist), *в светлую / втёмную*
(open / closed defence).

Modules: ``rules`` (the options, §12), ``sheet`` (the score sheet), ``outcome`` (a finished deal
as the sheet records it), ``scoring`` (one deal's entry, help, game end, §9–§10),
``settlement`` (§11), ``pulya`` (a whole game, §13), ``actions`` (the record vocabulary),
``hand`` (a deal's states and transitions, §1–§8.2), ``views`` (what a seat may know),
``ruleset`` (:data:`RULE_SET`, registered in ``engine.rules``; the Django apps offer it at
tables, club evenings and seasons, and tournaments).
"""

from __future__ import annotations

from engine.rules.preferans.ruleset import RULE_SET, PreferansRuleSet

__all__ = ["RULE_SET", "PreferansRuleSet"]
