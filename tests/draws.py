"""How many examples a property test that names a number draws, by Hypothesis profile
(``tests/conftest.py``): on CI (the ``ci`` profile: ``CI=true``, ``HYPOTHESIS_PROFILE=ci``)
all of them, the number the test needs to reach what it checks; in the inner loop (``dev``,
``make test-quick`` and local runs) an eighth, at least the profile's own count (or a floor
the test names) and never more than CI, so a local run answers in seconds and CI still draws
every example."""

from __future__ import annotations

from hypothesis import settings

#: The ``dev`` profile draws this share of a test's examples.
DEV_SHARE = 8


def every_example() -> bool:
    """Whether the loaded profile draws every example a test names (``ci``)."""
    return settings.default.max_examples >= settings.get_profile("ci").max_examples


def draws(examples: int, *, least: int | None = None) -> int:
    """``examples`` under the ``ci`` profile; an eighth of it, at least ``least`` (by default
    the loaded profile's ``max_examples``), under ``dev``."""
    if every_example():
        return examples
    floor = settings.default.max_examples if least is None else least
    return min(examples, max(floor, examples // DEV_SHARE))
