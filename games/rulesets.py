"""The rule set a table plays by: how the Django apps ask the engine for a table's deck, table
shape, dealing, turns and close, instead of naming one rule set's constants.

A table's ``rules`` (and an evening's, a club's default, a tournament's) is the engine's rules
object, validated by ``engine.parse_rules`` before it is stored, so its ``variant`` names a
registered rule set (``engine.rules.rule_set``). No module of games, clubs or tournaments
imports a rule-set package (``engine.rules.<name>``) or names one rule set's deck
(``tests/test_layers.py``): what differs between rule sets is asked of the rule set here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.translation import pgettext

import engine
from engine.table import words
from games.models import POT

if TYPE_CHECKING:
    from games.models import Table


def offered_rule_sets() -> tuple[engine.RuleSet[Any, Any, Any], ...]:
    """The rule sets tables, evenings and tournaments may choose, in the registry's order:
    those the apps offer (``engine.rule_sets()``), and with ``settings.PREVIEW_RULE_SETS``
    also those the engine knows but the apps do not offer yet (``register(rs,
    offered=False)``; none at present). ``GET /api/v1/rules/`` lists them."""
    return tuple(engine.rule_sets(include_engine_only=settings.PREVIEW_RULE_SETS))


def offered_variants() -> tuple[str, ...]:
    """The names of :func:`offered_rule_sets`."""
    return tuple(rs.name for rs in offered_rule_sets())


def parse_offered_rules(rules: Mapping[str, Any]) -> Any:
    """A rules object a table, an evening, a club's default or a tournament may choose,
    validated by its rule set (``engine.parse_rules``). Only :func:`offered_variants` may be
    chosen: one the engine knows but the apps cannot carry yet (registered for the engine
    only) is refused as an unknown one is, in the same words."""
    if not isinstance(rules, Mapping):
        return engine.parse_rules(rules)  # the engine's "rules must be an object"
    variant = rules.get("variant")
    offered = offered_variants()
    if variant not in offered:
        known = ", ".join(sorted(offered))
        if variant is None:  # the engine's words for a missing variant, naming the offered ones
            raise engine.MISSING_VARIANT.error("rules.variant", known=known)
        raise engine.UNKNOWN_VARIANT.error("rules.variant", variant=repr(variant), known=known)
    return engine.parse_rules(dict(rules))


def rule_set_for(rules: Mapping[str, Any]) -> engine.RuleSet[Any, Any, Any]:
    """The rule set of a rules object (its ``variant``); an unknown one is the engine's
    error."""
    return engine.rule_set(rules.get("variant"))


def rule_set_of(table: Table) -> engine.RuleSet[Any, Any, Any]:
    """The rule set ``table`` plays by."""
    return rule_set_for(table.rules)


def variant_of(table: Table) -> str:
    """The name of the rule set ``table`` plays by (the engine functions' ``variant=``)."""
    return rule_set_of(table).name


def sitting_score(
    table: Table, seats: list[str], last_result: Mapping[str, Any] | None
) -> dict[str, int] | None:
    """What the sitting at ``table`` is worth to each seat after its last settled hand
    (``last_result``; ``None`` before the first), in the rule set's ``score_unit``
    (``RuleSet.sitting_score``); ``None`` when its rule set has no score unit (the sitting's
    money is its result)."""
    rule_set = rule_set_of(table)
    if rule_set.score_unit is None:
        return None
    if last_result is None:
        carry: Mapping[str, Any] = table.opening_carry or {}
    else:
        carry = rule_set.carry_after(last_result)
    return rule_set.sitting_score(engine.parse_rules(table.rules), seats, carry)


def money_key(rule_set: engine.RuleSet[Any, Any, Any]) -> str | None:
    """The record key of the money a table of ``rule_set`` holds in common between deals, which
    the ledger keeps as its party ``pot`` (``games.models.POT``): the carry's party key
    (``RuleSet.carry``); ``None`` where the players pay one another."""
    carry = rule_set.carry
    return carry.party if carry.party is not None and carry.party in carry.keys else None


def shares_pot_at_close(rules: Mapping[str, Any]) -> bool:
    """Whether closing a table of ``rules`` shares out the money it holds in common
    (:func:`money_key`) rather than keeping it for the table's next sitting (a rule set's
    option for the pot at close set to ``"split"``). Asked of the rule set's close
    (``RuleSet.close``, as ``games.services.tables.close_pot`` closes a table) with a pot at a
    table of its fewest seats; ``False`` where it keeps no such money."""
    rule_set = rule_set_for(rules)
    pot_key = money_key(rule_set)
    if pot_key is None:
        return False
    seats = [f"seat-{i}" for i in range(min(rule_set.table.seats))]
    carry = rule_set.read_carry({pot_key: 100 * len(seats)})
    closing = rule_set.close(engine.parse_rules(dict(rules)), seats, carry)
    return not closing.carry.get(pot_key, 0)


def ledger_party(rule_set: engine.RuleSet[Any, Any, Any], party: str) -> str:
    """The ledger's name of a party of ``rule_set``'s transfers: its common money (a pot, a
    kitty) is the ledger's ``pot``; seats keep their keys."""
    return POT if party == money_key(rule_set) else party


def whose_turn(acting: Iterable[str], seats: Iterable[str]) -> str:
    """The seats that may act, as a refusal says it in the reader's language: ``carl's``,
    ``anna's or carl's`` (in playing order), ``nobody's``."""
    may = set(acting)
    names = [pgettext("whose turn", "{seat}'s").format(seat=seat) for seat in seats if seat in may]
    if not names:
        return pgettext("whose turn", "nobody's")
    return words(names, pgettext("a list's last item", "or"))


def stored_result(table: Table, result: Mapping[str, Any]) -> dict[str, Any]:
    """A hand's Result as the server keeps and answers it: the engine's, with the keys every
    Result has in the API (``ResultSerializer``) spelled out where a rule set's Result has
    none: no ``stake``, ``declarer`` or ``made``, nobody ``fallen``, no ``tricks`` per seat,
    and ``pot`` the money the table holds in common after the deal (under the rule set's pot
    key, :func:`money_key`; null where the players pay one another). For a rule set whose
    results are points (no stake, fallen, delta, pot or transfers) also every seat's change 0
    and no transfers: money comes at the close."""
    rule_set = rule_set_of(table)
    pot_key = money_key(rule_set)
    common: dict[str, Any] = {
        "stake": None,
        "declarer": None,
        "made": None,
        "fallen": [],
        "tricks": {},
        "pot": None if pot_key is None else result.get(pot_key),
    }
    if rule_set.carry.unit == "points":
        seats = [s.key for s in sorted(table.seats.all(), key=lambda s: s.position)]
        common["delta"] = dict.fromkeys(seats, 0)
        common["transfers"] = []
    return {**common, **result}
