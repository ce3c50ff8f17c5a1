"""Rule sets by variant name.

Each rule set is a module in this package with a ``Rules`` value (its options, validated on
construction). Only ``wien`` exists so far; ``engine/README.md`` says where the next ones go
and what the core already shares with them.
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.rules.wien import WienRules

Rules = WienRules

_RULES: dict[str, type[WienRules]] = {"wien": WienRules}


def parse_rules(data: Any) -> Rules:
    """The ``Rules`` value for a record's ``rules`` object, validated."""
    if not isinstance(data, dict):
        raise EngineError("rules", "rules must be an object")
    variant = data.get("variant")
    if not isinstance(variant, str) or variant not in _RULES:
        known = ", ".join(sorted(_RULES))
        raise EngineError("rules.variant", f"unknown variant {variant!r} (known: {known})")
    return _RULES[variant].from_json(data)
