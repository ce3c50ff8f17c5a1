"""Parametrising an API test over the rule sets the apps offer (``engine.rule_sets()``).

``make test`` (and so CI) runs such a test for every rule set. The inner loop (``make
test-quick``) runs it for ``wien`` only: the others' cases are marked ``slow``. Each of them
plays a whole hand through the API (seconds each, eight times over), and what differs between
rule sets is checked in the inner loop already by the engine's conformance suite over every
rule set (``tests/engine/test_conformance.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

import engine


def every_rule_set(argname: str = "rs") -> Any:
    """``pytest.mark.parametrize`` over every offered rule set, ids by name; every rule set
    but ``wien`` marked ``slow``."""
    return pytest.mark.parametrize(
        argname,
        [
            pytest.param(rs, id=rs.name, marks=() if rs.name == "wien" else pytest.mark.slow)
            for rs in engine.rule_sets()
        ],
    )
