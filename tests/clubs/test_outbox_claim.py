"""Claiming notification rows before sending them (``clubs.outbox._claim``): on PostgreSQL one
``UPDATE ... RETURNING``, elsewhere a transaction; both take the same rows, in the order they
came due, and never a row another sender is claiming at that moment."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Sequence

import pytest
from django.db import connections, transaction
from django.utils import timezone
from pytest_django import Settings

from clubs import outbox
from clubs.models import Notification
from tests.factories import UserFactory

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

Claim = Callable[[Sequence[int]], list[Notification]]
PATHS = {"returning": outbox._claim_returning, "transaction": outbox._claim_in_transaction}


def a_mix(tag: str) -> dict[str, int]:
    """Rows of every kind a claim meets: two due (the later one made first), one due later,
    one sent, one claimed just now, one whose claim is stale (its sender died)."""
    user = UserFactory.create()
    now = timezone.now()
    kinds = {
        "due second": {"due_at": now - dt.timedelta(seconds=5)},
        "due first": {"due_at": now - dt.timedelta(seconds=50)},
        "not yet due": {"due_at": now + dt.timedelta(minutes=5)},
        "sent": {"due_at": now - dt.timedelta(seconds=9), "sent_at": now},
        "claimed": {"due_at": now - dt.timedelta(seconds=8), "claimed_at": now},
        "stale claim": {
            "due_at": now - dt.timedelta(seconds=7),
            "claimed_at": now - dt.timedelta(hours=2),
        },
    }
    return {
        name: Notification.objects.create(
            user=user, type="your_turn", key=f"table:{tag}:{name}", payload={}, **fields
        ).pk
        for name, fields in kinds.items()
    }


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_claim_takes_the_due_unclaimed_rows_in_due_order_once(
    path: str, settings: Settings
) -> None:
    settings.NOTIFICATION_CLAIM_SECONDS = 3600
    claim: Claim = PATHS[path]
    ids = a_mix(path)
    got = claim(list(ids.values()))
    assert [r.pk for r in got] == [ids["due first"], ids["stale claim"], ids["due second"]]
    marked = dict(Notification.objects.filter(pk__in=ids.values()).values_list("pk", "claimed_at"))
    recently = timezone.now() - dt.timedelta(minutes=1)
    assert all((marked[r.pk] or recently) > recently for r in got)
    assert marked[ids["not yet due"]] is None and marked[ids["sent"]] is None
    assert claim(list(ids.values())) == []  # claimed now: nobody takes them again


def test_the_one_statement_skips_a_row_another_sender_holds() -> None:
    ids = a_mix("held")
    held, free = ids["due first"], ids["due second"]
    locked, release = threading.Event(), threading.Event()

    def other_sender() -> None:
        try:
            with transaction.atomic():
                list(Notification.objects.select_for_update().filter(pk=held))
                locked.set()
                release.wait(30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_sender)
    thread.start()
    try:
        assert locked.wait(30)
        got = outbox._claim_returning([held, free])
        assert [r.pk for r in got] == [free]
    finally:
        release.set()
        thread.join(30)
    # once the other sender let go without claiming it, the row can be claimed
    assert [r.pk for r in outbox._claim_returning([held])] == [held]
