"""Importing this module registers ``trickgame`` (offered, like any game the apps carry).

``tests/settings.py`` imports it first thing, before ``config.settings`` is imported: the
settings, ``config.api.rule_sets`` and ``games.api.rules`` read the registry when they are
imported. ``make schema`` and the server use ``config.settings`` and never see it.
"""

from __future__ import annotations

from engine import rules
from tests.trickgame import RULE_SET

if RULE_SET.name not in {rs.name for rs in rules.rule_sets(include_engine_only=True)}:
    rules.register(RULE_SET)
