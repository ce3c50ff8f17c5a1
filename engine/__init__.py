"""The rules engine: pure Python, standard library only; the rules and nothing else.

Public functions (everything a server, a bot or the CLI needs):

- :func:`parse_rules`, :func:`new_hand`, :func:`legal_actions`, :func:`apply`, :func:`view`
- :func:`replay`, :func:`settle`, :func:`to_record`, :func:`sheet_entry`
- :func:`deal_from_deck`, :func:`commitment`, :func:`verify`, :func:`draw_first_dealer`
- ``engine.fast.play_random_hand``: a whole random hand on the fast playout path (bots,
  simulations, the benchmark), proven equal to the validating ``apply`` by tests
"""

from __future__ import annotations

from engine.actions import Action, action_from_json, action_to_json
from engine.cards import PIQUET, Deck
from engine.errors import EngineError, IllegalAction, NotYourTurn
from engine.play import active_seats, apply, legal_actions, new_hand
from engine.record import (
    commitment,
    deal_from_deck,
    draw_first_dealer,
    outcome,
    parse_sheet,
    replay,
    settle,
    sheet_entry,
    to_record,
    verify,
)
from engine.rules import Rules, parse_rules
from engine.settle import settle_outcome
from engine.state import Phase, State
from engine.views import view

__all__ = [
    "PIQUET",
    "Action",
    "Deck",
    "EngineError",
    "IllegalAction",
    "NotYourTurn",
    "Phase",
    "Rules",
    "State",
    "action_from_json",
    "action_to_json",
    "active_seats",
    "apply",
    "commitment",
    "deal_from_deck",
    "draw_first_dealer",
    "legal_actions",
    "new_hand",
    "outcome",
    "parse_rules",
    "parse_sheet",
    "replay",
    "settle",
    "settle_outcome",
    "sheet_entry",
    "to_record",
    "verify",
    "view",
]
