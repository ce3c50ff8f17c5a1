"""The rules engine: pure Python, standard library only; the rules and nothing else.

The core (cards and decks, tables and deals, trick obligations, records, replay, dispatch)
knows no rule set; each rule set is a package under ``engine/rules/`` registered by name
(``engine.rules``), and the functions below ask the rule set of the state's or record's
``rules`` (``engine/README.md``, "Rule sets: the seam").

Public functions (everything a server, a bot or the CLI needs):

- :func:`parse_rules`, :func:`new_hand`, :func:`to_act`, :func:`legal_actions`, :func:`apply`,
  :func:`view`, :func:`known`
- :func:`replay`, :func:`settle`, :func:`to_record`, :func:`sheet_entry`
- :func:`deal_from_deck`, :func:`commitment`, :func:`verify`, :func:`draw_first_dealer`
- :func:`rule_set`, :func:`rule_sets`: the registered rule sets (deck, table shape, dealing,
  carry and unit, closing a table); :data:`MISSING_VARIANT`, :data:`UNKNOWN_VARIANT`: the
  refusals of a ``rules`` object naming no rule set, for callers that check a variant first;
  :func:`house_rules`: what a new club or tournament plays where its organiser names none
- :class:`HandState`, :class:`RuleOptions`: what the core reads of any rule set's hand state
  and options (``engine.ruleset``), for annotations outside the engine
- ``engine.fast.play_random_hand``: a whole random hand on the fast playout path (bots,
  simulations, the benchmark), proven equal to the validating ``apply`` by tests
"""

from __future__ import annotations

from engine.actions import Action, action_to_json
from engine.cards import PIQUET, Deck
from engine.errors import EngineError, IllegalAction, NotYourTurn
from engine.play import (
    action_from_json,
    active_seats,
    apply,
    legal_actions,
    new_hand,
    to_act,
    waiting_for,
)
from engine.record import (
    commitment,
    deal_from_deck,
    draw_first_dealer,
    outcome,
    parse_sheet,
    replay,
    settle,
    settle_outcome,
    sheet_entry,
    to_record,
    verify,
)
from engine.rules import (
    MISSING_VARIANT,
    UNKNOWN_VARIANT,
    house_rules,
    parse_rules,
    rule_set,
    rule_sets,
)
from engine.ruleset import HandState, RuleOptions, RuleSet, TableRound
from engine.sealing import SealedDeck
from engine.views import known, view

__all__ = [
    "MISSING_VARIANT",
    "PIQUET",
    "UNKNOWN_VARIANT",
    "Action",
    "Deck",
    "EngineError",
    "HandState",
    "IllegalAction",
    "NotYourTurn",
    "RuleOptions",
    "RuleSet",
    "SealedDeck",
    "TableRound",
    "action_from_json",
    "action_to_json",
    "active_seats",
    "apply",
    "commitment",
    "deal_from_deck",
    "draw_first_dealer",
    "known",
    "legal_actions",
    "new_hand",
    "outcome",
    "parse_rules",
    "parse_sheet",
    "replay",
    "rule_set",
    "rule_sets",
    "house_rules",
    "settle",
    "settle_outcome",
    "sheet_entry",
    "to_act",
    "to_record",
    "verify",
    "view",
    "waiting_for",
]
