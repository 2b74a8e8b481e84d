"""Blocking is the accounts app's now (``accounts.0009_block``): the model
leaves this app's state; its table stays, owned by the accounts app."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_rating_active"),
        ("accounts", "0009_block"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Block")],
            database_operations=[],
        ),
    ]
