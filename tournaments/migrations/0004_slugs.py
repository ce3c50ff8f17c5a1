from django.db import migrations, models


def forwards(apps, schema_editor):
    """Existing tournaments get the slug ``tournament-<id>``."""
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(slug__isnull=True):
        tournament.slug = f"tournament-{tournament.pk}"
        tournament.save(update_fields=["slug"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_lifecycle")]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="slug",
            field=models.SlugField(max_length=80, unique=True),
        ),
    ]
