"""A rule set registered for the engine only, for the tests of that mechanism.

Which rule sets are engine only changes from issue to issue (Preferans was until issue 26,
Doppelkopf is until issue 27), so the tests of the mechanism (``register(rs, offered=False)``,
``settings.PREVIEW_RULE_SETS``) use their own: :func:`engine_only` registers a copy of ``kurz``
under the name ``kurz-preview`` for the engine only, and takes it out of the registry
afterwards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

import engine
from engine import rules as registry

NAME = "kurz-preview"
"""The engine-only copy's variant name."""


@pytest.fixture
def engine_only() -> Iterator[engine.RuleSet]:  # type: ignore[type-arg]
    """``kurz`` again as ``kurz-preview``, registered with ``offered=False`` for one test."""
    copy = dataclasses.replace(engine.rule_set("kurz"), name=NAME)
    registry.register(copy, offered=False)
    try:
        yield copy
    finally:
        registry._REGISTRY.pop(NAME, None)  # the registry has no unregister: tests only
        registry._ENGINE_ONLY.discard(NAME)
