"""A ledger row's reason is no longer a closed list of every rule set's words: it is checked
against the registered rule sets' transfer words and the table's own when a row is written
(``games.models.ledger_reasons``), so a new rule set's words need no migration. No column
changes; every stored reason was one of the old choices, all of which a rule set or the table
still uses."""

from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_carry_out_pots_left_at_closed_tables"),
    ]

    operations = [
        migrations.AlterField(
            model_name="ledgerentry",
            name="reason",
            field=models.CharField(max_length=16, validators=[games.models.validate_reason]),
        ),
    ]
