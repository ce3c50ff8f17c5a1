"""English plural names for the admin, and no lots seed in the log of an unfinished
tournament: the log recorded the seed with the settings until it recorded the commitment
instead (``tournaments.services.tournaments._snapshot``); earlier entries get the same."""

import hashlib
from typing import Any

from django.db import migrations


def commitment(value: Any) -> Any:
    """``value`` with every ``lots_seed`` replaced by ``lots_commitment`` (SHA-256 of
    ``lots:<seed>``, as ``tournaments.scoring.lots_commitment``)."""
    if isinstance(value, dict):
        out = {k: commitment(v) for k, v in value.items() if k != "lots_seed"}
        if "lots_seed" in value:
            out["lots_commitment"] = hashlib.sha256(
                f"lots:{value['lots_seed']}".encode()
            ).hexdigest()
        return out
    if isinstance(value, list):
        return [commitment(v) for v in value]
    return value


def scrub(apps: Any, schema_editor: Any) -> None:
    LogEntry = apps.get_model("tournaments", "LogEntry")
    for entry in LogEntry.objects.exclude(tournament__status="finished").iterator():
        detail = commitment(entry.detail)
        if detail != entry.detail:
            entry.detail = detail
            entry.save(update_fields=["detail"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_standings_pending_and_result_revision"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="delivery",
            options={"ordering": ("webhook", "created_at"), "verbose_name_plural": "deliveries"},
        ),
        migrations.AlterModelOptions(
            name="entry",
            options={
                "ordering": ("tournament", "registered_at", "id"),
                "verbose_name_plural": "entries",
            },
        ),
        migrations.AlterModelOptions(
            name="logentry",
            options={
                "ordering": ("tournament", "at", "id"),
                "verbose_name": "log entry",
                "verbose_name_plural": "log entries",
            },
        ),
        migrations.AlterModelOptions(
            name="tabletotals",
            options={"verbose_name": "table totals", "verbose_name_plural": "table totals"},
        ),
        migrations.RunPython(scrub, migrations.RunPython.noop),
    ]
