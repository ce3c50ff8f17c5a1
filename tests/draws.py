"""How many examples a property test that names a number draws, by Hypothesis profile
(``tests/conftest.py``): on CI (the ``ci`` profile: ``CI=true``, ``HYPOTHESIS_PROFILE=ci``)
all of them, the number the test needs to reach what it checks; in the inner loop (``dev``,
``make test-quick`` and local runs) an eighth, at least the profile's own count, so a local
run answers in seconds and CI still draws every example."""

from __future__ import annotations

from hypothesis import settings

#: The ``dev`` profile draws this share of a test's examples.
DEV_SHARE = 8


def draws(examples: int) -> int:
    """``examples`` under the ``ci`` profile; an eighth of it, at least the loaded profile's
    ``max_examples``, under ``dev``."""
    loaded = settings.default.max_examples
    if loaded >= settings.get_profile("ci").max_examples:
        return examples
    return max(loaded, examples // DEV_SHARE)
