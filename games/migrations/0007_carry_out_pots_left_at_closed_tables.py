"""Tables of a rule set that keeps no pot (Preferans, danube-swabian, the DDV rules) took their
series' pot in (``carry_in``) before only tables that keep a pot took it, and closed without
carrying it on: the money stayed in a closed table's pot, and the series' next table opened
without it. Carry what such a closed table's pot still holds back to its series
(``carry_out``, as a close now writes it), and say so in its stored settlement."""

from typing import Any

from django.db import migrations

import engine

POT, SERIES = "pot", "series"


def _keeps_a_pot(rules: Any) -> bool | None:
    """Whether the rule set of ``rules`` keeps a pot (``games.rulesets.money_key``); None for a
    variant this engine does not know."""
    try:
        carry = engine.rule_set(rules.get("variant") if isinstance(rules, dict) else None).carry
    except engine.EngineError:
        return None
    return carry.party is not None and carry.party in carry.keys


def carry_out_left_pots(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("games", "Table")
    LedgerEntry = apps.get_model("games", "LedgerEntry")
    closed = Table.objects.filter(status="closed", opening_pot__gt=0).only("pk", "rules", "closing")
    for table in closed:
        if _keeps_a_pot(table.rules) is not False:
            continue
        rows = LedgerEntry.objects.filter(table_id=table.pk)
        pot = sum(rows.filter(payee=POT).values_list("amount", flat=True)) - sum(
            rows.filter(payer=POT).values_list("amount", flat=True)
        )
        if pot <= 0:
            continue
        LedgerEntry.objects.create(
            table_id=table.pk, payer=POT, payee=SERIES, amount=pot, reason="carry_out"
        )
        if isinstance(table.closing, dict):
            closing = {**table.closing, "pot": int(table.closing.get("pot", pot)) - pot}
            Table.objects.filter(pk=table.pk).update(closing=closing)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_preferans_rules_leave_out_whist_value"),
    ]

    operations = [
        migrations.RunPython(carry_out_left_pots, migrations.RunPython.noop),
    ]
