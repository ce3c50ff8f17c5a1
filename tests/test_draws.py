"""The inner loop draws an eighth of a property test's examples; CI draws all of them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.conftest import hypothesis_profile
from tests.draws import draws


@pytest.fixture
def restore_profile() -> Iterator[None]:
    yield
    settings.load_profile(hypothesis_profile())


@pytest.mark.usefixtures("restore_profile")
def test_ci_draws_every_example_and_the_inner_loop_an_eighth() -> None:
    settings.load_profile("ci")
    assert [draws(n) for n in (100, 300, 1200)] == [100, 300, 1200]
    settings.load_profile("dev")
    assert [draws(n) for n in (100, 300, 1200)] == [25, 37, 150]


@pytest.mark.usefixtures("restore_profile")
def test_a_test_may_name_the_inner_loops_floor_and_never_draws_more_than_ci() -> None:
    settings.load_profile("ci")
    assert draws(15, least=4) == 15
    settings.load_profile("dev")
    assert [draws(15, least=4), draws(100, least=4), draws(10)] == [4, 12, 10]
