"""Rule sets by name: the registry.

Each rule set is a package in this folder (``wien/``, ``kurz/``, ``austria_modern/``,
``illustrated/``, ``austria_1829/``, ``american/``, ``balkan/``, ``danube_swabian/``,
``preferans/``, ``doppelkopf/``; a variant
``austria-modern`` lives in ``austria_modern``, and ``doppelkopf/`` holds two, ``doppelkopf`` and
``doppelkopf-ddv``) that builds one :class:`engine.ruleset.RuleSet`
value; :func:`register` adds it under its name, the ``variant`` of a record's ``rules``.
A rule set may be registered *engine only* (``register(rs, offered=False)``: one the Django
apps cannot carry yet, as ``preferans`` was until its pulya reached the club and tournament
standings; ``doppelkopf`` and ``doppelkopf-ddv`` are now): the engine knows it by name
(:func:`rule_set`, ``parse_rules``, the CLI, ``python -m engine rules``, the conformance suite), but
:func:`rule_sets` leaves it out unless asked (``rule_sets(include_engine_only=True)``), so
the Django apps, which iterate :func:`rule_sets`, do not offer it. The registry is asked when
a question arrives, never copied at import: a rule set registered later (the test suite's
``tests/trickgame``) counts everywhere.
``family/`` is a library the talon-family sets share, not a rule set. The core looks rule sets
up here by name (:func:`rule_set`) and never imports a rule set's package itself
(``tests/engine/test_seam.py``); ``engine/README.md`` says how they meet the seam.

No rule set is the default: a record's or a caller's ``variant`` names the rule set, and a
missing one is an error naming ``rules.variant`` (:func:`rule_set`). Each rule set has its own
types of options, hand states and phases; code that serves any rule set annotates with the
seam's (``engine.ruleset.RuleOptions``, ``HandState``).
"""

from __future__ import annotations

from typing import Any

from engine.errors import Message
from engine.messages import RULES_NOT_OBJECT
from engine.rules.american import RULE_SET as _AMERICAN
from engine.rules.austria_1829 import RULE_SET as _AUSTRIA_1829
from engine.rules.austria_modern import RULE_SET as _AUSTRIA_MODERN
from engine.rules.balkan import RULE_SET as _BALKAN
from engine.rules.danube_swabian import RULE_SET as _DANUBE_SWABIAN
from engine.rules.doppelkopf import DDV_RULE_SET as _DOPPELKOPF_DDV
from engine.rules.doppelkopf import RULE_SET as _DOPPELKOPF
from engine.rules.illustrated import RULE_SET as _ILLUSTRATED
from engine.rules.kurz import RULE_SET as _KURZ
from engine.rules.preferans import RULE_SET as _PREFERANS
from engine.rules.wien import RULE_SET as _WIEN
from engine.ruleset import RuleOptions, RuleSet

AnyRuleSet = RuleSet[Any, Any, Any]

MISSING_VARIANT = Message("missing_variant", "rules must name a variant (known: {known})")
"""A ``rules`` object (or a caller) that names no ``variant``; ``known``: the registered
names, comma-separated."""
UNKNOWN_VARIANT = Message("unknown_variant", "unknown variant {variant} (known: {known})")
"""A ``variant`` no rule set is registered under (``variant``: its ``repr``)."""

_REGISTRY: dict[str, AnyRuleSet] = {}
_ENGINE_ONLY: set[str] = set()


def register(rule_set: AnyRuleSet, *, offered: bool = True) -> None:
    """Make ``rule_set`` known by its name (each name once). ``offered=False``: known to the
    engine only, left out of :func:`rule_sets` by default (see the module docstring)."""
    if rule_set.name in _REGISTRY:
        raise ValueError(f"a rule set named {rule_set.name!r} is registered already")
    _REGISTRY[rule_set.name] = rule_set
    if not offered:
        _ENGINE_ONLY.add(rule_set.name)


def rule_set(variant: object) -> AnyRuleSet:
    """The rule set named ``variant``; a missing (``None``) or unknown name is an error naming
    ``rules.variant`` and listing the known ones (:data:`MISSING_VARIANT`,
    :data:`UNKNOWN_VARIANT`)."""
    found = _REGISTRY.get(variant) if isinstance(variant, str) else None
    if found is not None:
        return found
    known = ", ".join(sorted(_REGISTRY))
    if variant is None:
        raise MISSING_VARIANT.error("rules.variant", known=known)
    raise UNKNOWN_VARIANT.error("rules.variant", variant=repr(variant), known=known)


def rule_sets(*, include_engine_only: bool = False) -> tuple[AnyRuleSet, ...]:
    """Every offered rule set, in the order registered; with ``include_engine_only`` also
    those registered for the engine only (``register(rs, offered=False)``)."""
    return tuple(
        rs for rs in _REGISTRY.values() if include_engine_only or rs.name not in _ENGINE_ONLY
    )


def house_rules() -> dict[str, Any]:
    """The ``rules`` a new club or tournament plays where its organiser names none: the
    first registered rule set's house rules (:attr:`RuleSet.house`; wien's, the house rule
    book of ``seeds/000``), else its first example. A fresh copy each time."""
    first = rule_sets()[0]
    return dict(first.house if first.house is not None else first.examples[0])


register(_WIEN)
register(_KURZ)
register(_AUSTRIA_MODERN)
register(_ILLUSTRATED)
register(_AUSTRIA_1829)
register(_AMERICAN)
register(_BALKAN)
register(_DANUBE_SWABIAN)
register(_PREFERANS)
register(_DOPPELKOPF)
register(_DOPPELKOPF_DDV)


def parse_rules(data: Any) -> RuleOptions:
    """The options value of a record's ``rules`` object, validated by the rule set its
    ``variant`` names (a missing or unknown variant is an error naming ``rules.variant``)."""
    if not isinstance(data, dict):
        raise RULES_NOT_OBJECT.error("rules")
    options: RuleOptions = rule_set(data.get("variant")).parse_rules(data)
    return options


__all__ = [
    "MISSING_VARIANT",
    "UNKNOWN_VARIANT",
    "AnyRuleSet",
    "parse_rules",
    "register",
    "rule_set",
    "rule_sets",
]
