"""A hand through its rule set: :func:`new_hand`, :func:`to_act`, :func:`legal_actions`,
:func:`apply`, and reading actions (:func:`action_from_json`).

Each function finds the rule set by the ``variant`` of the rules (``engine.rules.rule_set``)
and asks it; the rules themselves live in ``engine/rules/<name>/``. ``apply`` always
validates: an action that is not legal raises :class:`engine.errors.IllegalAction` (or
:class:`engine.errors.NotYourTurn`) with a sentence naming the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from engine.actions import Action
from engine.cards import Deck
from engine.rules import AnyRuleSet, rule_set
from engine.ruleset import HandState, RuleOptions

H = TypeVar("H", bound=HandState)


def rules_of(rules: RuleOptions) -> AnyRuleSet:
    """The rule set of a ``Rules`` value."""
    return rule_set(rules.variant)


def _of(state: HandState) -> AnyRuleSet:
    return rule_set(state.rules.variant)


def active_seats(seats: Sequence[str], dealer: str, *, variant: str) -> tuple[str, ...]:
    """The active players of a deal by rule set ``variant``, forehand first: for Préférence
    the three seats after the dealer (with 4 seats the dealer sits out; wien.md, "Table")."""
    return rule_set(variant).active_seats(seats, dealer)


def new_hand(
    rules: RuleOptions,
    seats: Sequence[str],
    dealer: str,
    pot: Any,
    deal: Mapping[str, int],
) -> HandState:
    """A hand of ``rules``' rule set ready for its first action. ``pot`` is what the table
    carries into the deal (the pot before the dealer's contribution, for wien); ``deal`` maps
    each active seat and pile (``"talon"``) to a card mask."""
    state: HandState = rules_of(rules).new_hand(rules, seats, dealer, pot, deal)
    return state


def to_act(state: HandState) -> frozenset[str]:
    """The seats that may act now; empty once the hand is over."""
    return _of(state).to_act(state)


def waiting_for(state: HandState) -> frozenset[str]:
    """The seats the hand waits for: those of :func:`to_act` whose move it needs to go on
    (``RuleSet.waiting_for``; Doppelkopf under the DDV rules: the player to play, not the
    seats that may announce); empty once the hand is over."""
    return _of(state).waiting_for(state)


def legal_actions(state: HandState, seat: str | None = None) -> list[Action]:
    """Every action ``seat`` may take now, in a stable order; empty when it may not act. With
    no seat: the actions of every seat that may act now, seat by seat (for wien, the player to
    act)."""
    return rule_set(state.rules.variant).legal_actions(state, seat)


def apply(state: H, action: Action) -> H:
    """The next state; raises :class:`engine.errors.IllegalAction` /
    :class:`engine.errors.NotYourTurn` with the rule in words when the rules do not allow
    ``action``."""
    after: H = _of(state).apply(state, action)
    return after


def action_from_json(data: Any, deck: Deck, at: str = "action", *, variant: str) -> Action:
    """Read one action of the record vocabulary of rule set ``variant``; the shape is checked
    here, legality by :func:`apply`. ``deck`` must be the rule set's deck."""
    rs = rule_set(variant)
    if deck is not rs.deck and deck != rs.deck:
        raise ValueError(f"{rs.name} plays with {rs.deck.name}, not {deck.name}")
    return rs.action_from_json(data, at)
