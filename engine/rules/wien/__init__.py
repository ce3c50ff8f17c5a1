"""Rule set ``wien``: Viennese Préférence (``seeds/000``, made exact by ``spec/wien.md``).

Terms: *Geberbeitrag* (dealer contribution, G), *Topf* (pot), *Topfsperre* (pot cap, L),
*Lizitieren* (auction), *Halten* (hold), *Geschäft* (a suit hand game in C/S/D), *Herz* (the
hand game in hearts, a premium game), *Prämienspiel* (premium game 5..8: Bettler, Mord,
Plauderer aufgedeckt, Mord aufgedeckt), *von der Hand* (without the talon), *Nachschauen*
(looking into the talon to raise to a premium game), *Mitgehen / zu Hause bleiben* (play /
stay home), *Einladung* (invitation), *Largierpflicht* (duty to beat low), *Aushandeln*
(agreeing a split of tricks), *Ausfechten* (the all-pass game).

Modules: ``rules`` (the options ``WienRules``, the auction ladder, the stake), ``actions`` (the
record vocabulary), ``state`` (the hand as phases), ``play`` (``new_hand``, ``legal_actions``,
``apply``), ``views`` (``view``, ``known``), ``settle`` (what a deal pays), ``record`` (the
score-sheet entry), ``fast`` (the fast hand on the shared board), ``ruleset`` (all of it
behind ``engine.ruleset.RuleSet``: :data:`RULE_SET`).
"""

from __future__ import annotations

from engine.rules.wien.rules import (
    ALL_CALLS,
    CALL_RANK,
    MISERE_LEVELS,
    NUMBER_CALLS,
    OPEN_LEVELS,
    PREMIUM_CALLS,
    PREMIUM_NAMES,
    VARIANT,
    WienRules,
    premium_rank,
)
from engine.rules.wien.ruleset import RULE_SET, Wien
from engine.rules.wien.state import Game, Phase, State

__all__ = [
    "ALL_CALLS",
    "CALL_RANK",
    "MISERE_LEVELS",
    "NUMBER_CALLS",
    "OPEN_LEVELS",
    "PREMIUM_CALLS",
    "PREMIUM_NAMES",
    "RULE_SET",
    "VARIANT",
    "Game",
    "Phase",
    "State",
    "Wien",
    "WienRules",
    "premium_rank",
]
