"""Tournament standings under a steady stream of results: requests are coalesced, yet the
standings keep up (the same rule as season standings, ``clubs.services.seasons``)."""

from __future__ import annotations

import pytest

from tests.tournaments.setup import RULES
from tournaments.models import Tournament
from tournaments.services.standings import tournament_recompute

pytestmark = pytest.mark.django_db


def test_results_faster_than_the_coalescing_wait_still_move_the_standings() -> None:
    t = Tournament.objects.create(
        name="Wiener Open", slug="wiener-open", status="running", rules=RULES
    )
    computed = 0
    for step in range(1, 21):
        Tournament.objects.filter(pk=t.pk).update(requested_version=step)
        if step > 1:  # the task for the previous result runs after the next was entered
            computed += tournament_recompute(tournament_id=t.pk, version=step - 1)
    t.refresh_from_db()
    assert computed == 10
    assert t.requested_version - t.computed_version <= 1


def test_a_task_already_answered_computes_nothing() -> None:
    t = Tournament.objects.create(
        name="Wiener Open", slug="wiener-open", status="running", rules=RULES
    )
    Tournament.objects.filter(pk=t.pk).update(requested_version=3)
    assert tournament_recompute(tournament_id=t.pk, version=1)  # the first since: all of 1-3
    assert not tournament_recompute(tournament_id=t.pk, version=2)
    assert not tournament_recompute(tournament_id=t.pk, version=3)
    t.refresh_from_db()
    assert (t.computed_version, t.computations) == (3, 1)
