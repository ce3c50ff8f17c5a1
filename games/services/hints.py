"""Hints: the move a bot would make for a seated player's seat, from that seat's view alone (the
table must allow them, ``Table.hints``). The strongest level the rule set has thinks (``pimc``,
else ``heuristic``), for at most half a second or the table's bot budget if that is shorter:
the answer comes in the request."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _

import engine
from engine.bots.levels import fresh_rng, policy_for
from games.errors import NotYourTurn, TableConflict
from games.hands import hand_state
from games.models import Hand, Seat, Table
from games.rulesets import rule_set_of

HINT_SECONDS = 0.5
"""The most a hint thinks (the table's bot budget if shorter)."""


def hand_hint(
    table: Table, hand: Hand, seat: Seat, rng: random.Random | None = None
) -> dict[str, Any]:
    """``{"seat", "level", "action"}``: what the hint bot would send for ``seat`` now (an
    action body for the actions endpoint; ``null`` where it would let the moment pass, an
    announcement it need not make). 409 ``hints_off`` where the table gives none, ``hand_over``
    after the hand; 403 ``not_your_turn`` while the seat has nothing to do."""
    if not table.hints:
        raise TableConflict(
            _("This table gives no hints (its hints setting is off)."), code="hints_off"
        )
    if hand.status != Hand.Status.PLAYING:
        raise TableConflict(
            _("Hand {number} is over.").format(number=hand.number), code="hand_over"
        )
    state = hand_state(table, hand)
    if seat.key not in engine.to_act(state):
        raise NotYourTurn(_("It is not your turn: there is nothing to hint."))
    rules = rule_set_of(table)
    levels = rules.bot_policies()
    level = next((name for name in ("pimc", "heuristic") if name in levels), None)
    if level is None:
        raise TableConflict(
            _("{rule_set} has no bot that gives hints.").format(rule_set=rules.name),
            code="hints_off",
        )
    budget = min(HINT_SECONDS, table.bot_budget_ms / 1000)
    policy = policy_for(rules, level, budget=budget)
    assert policy is not None
    view = engine.view(state, seat.key)
    chosen = policy(view, view.get("legal", []), rng or fresh_rng())
    return {"seat": seat.key, "level": level, "action": chosen}
