"""``manage.py demo_data`` committing for real, as ``make demo`` runs it: Celery's line per task
stays out of the log. Apart from ``test_demo_data.py``, whose tests share one demo inside a
transaction that stays open (``tests/worlds.py``)."""

from __future__ import annotations

import logging
from io import StringIO

import pytest
from django.core.management import call_command

from clubs.management.commands import demo_data
from games.models import Hand


@pytest.mark.django_db(transaction=True)
def test_it_keeps_celerys_line_per_task_out_of_the_log(
    eager_tasks: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Committed for real, as ``make demo`` does: the tasks run at each commit, inside the
    command."""
    with caplog.at_level(logging.INFO):
        call_command("demo_data", stdout=StringIO())
    assert Hand.objects.filter(table__name=demo_data.HOSTED_TABLE, version__gt=0).exists()
    assert not [r for r in caplog.records if r.name.startswith(("celery", "kombu"))]
    assert logging.getLogger("celery.app.trace").level == logging.NOTSET  # restored
