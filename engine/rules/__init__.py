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
:func:`rule_sets` leaves it out unless asked (``rule_sets(include_engine_only=True)``) and
:data:`VARIANTS` lists only the offered ones, so the Django apps, which iterate
:func:`rule_sets`, do not offer it.
``family/`` is a library the talon-family sets share, not a rule set. The core looks rule sets
up here by name (:func:`rule_set`) and never imports a rule set's package itself
(``tests/engine/test_seam.py``); ``engine/README.md`` says how they meet the seam.

``Rules``, ``State`` and ``Phase`` are wien's types of options, hand states and phases (the
other rule sets have their own). Code outside the engine still imports
them (through ``engine``: type annotations, the API's phase enum and rules serializer), and
``DEFAULT`` names the rule set of callers that do not name one (``engine.active_seats(seats,
dealer)`` and the like: the engine's tests and the benchmarks; the Django apps name the
table's); both go once those callers ask the rule set of their rules.
"""

from __future__ import annotations

from typing import Any, cast

from engine.errors import EngineError
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
from engine.rules.wien import Phase as _WienPhase
from engine.rules.wien import State as _WienState
from engine.rules.wien import WienRules
from engine.ruleset import RuleSet

AnyRuleSet = RuleSet[Any, Any, Any]

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
    """The rule set named ``variant``; an unknown name is an error listing the known ones."""
    found = _REGISTRY.get(variant) if isinstance(variant, str) else None
    if found is not None:
        return found
    known = ", ".join(sorted(_REGISTRY))
    raise EngineError("rules.variant", f"unknown variant {variant!r} (known: {known})")


def rule_sets(*, include_engine_only: bool = False) -> tuple[AnyRuleSet, ...]:
    """Every offered rule set, in the order registered; with ``include_engine_only`` also
    those registered for the engine only (``register(rs, offered=False)``)."""
    return tuple(
        rs for rs in _REGISTRY.values() if include_engine_only or rs.name not in _ENGINE_ONLY
    )


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

VARIANTS: tuple[str, ...] = tuple(rs.name for rs in rule_sets())
"""The offered variant names (a rules object's ``variant``, which ``parse_rules`` requires;
it also knows the engine-only ones)."""

DEFAULT = _WIEN.name
"""The rule set of callers that name none (see the module docstring)."""

Rules = WienRules
"""The options of a registered rule set (wien's ``WienRules``; the others have their own)."""
State = _WienState
"""A hand of a registered rule set (wien's ``State``; the other rule sets have their own)."""
Phase = _WienPhase
"""The phases of a registered rule set's hand (wien's; the other rule sets have their own)."""


def default() -> AnyRuleSet:
    """The rule set of callers that name none (:data:`DEFAULT`)."""
    return _REGISTRY[DEFAULT]


def parse_rules(data: Any) -> Rules:
    """The ``Rules`` value for a record's ``rules`` object, validated by its rule set."""
    if not isinstance(data, dict):
        raise EngineError("rules", "rules must be an object")
    return cast(Rules, rule_set(data.get("variant")).parse_rules(data))


__all__ = [
    "DEFAULT",
    "VARIANTS",
    "AnyRuleSet",
    "Phase",
    "Rules",
    "State",
    "default",
    "parse_rules",
    "register",
    "rule_set",
    "rule_sets",
]
