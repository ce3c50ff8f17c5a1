"""Preferans tables stored before ``whist_value`` was left out when a table has no whist price
(``preferans.md`` §12: numeric options are positive integers, ``whist_value`` only for money)
held ``"whist_value": null`` in their rules, which their exported records repeated and which a
client echoing the rules back would no longer match. Leave it out of those rows too."""

from typing import Any

from django.db import migrations


def leave_out_null_whist_value(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(rules__variant="preferans").only("pk", "rules"):
        rules = table.rules
        if isinstance(rules, dict) and "whist_value" in rules and rules["whist_value"] is None:
            del rules["whist_value"]
            Table.objects.filter(pk=table.pk).update(rules=rules)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_bots_and_analysis"),
    ]

    operations = [
        migrations.RunPython(leave_out_null_whist_value, migrations.RunPython.noop),
    ]
