"""Blocking moves from the players' app to the accounts app, below the
matches (which must check it). The table stays as it is (``players_block``):
only Django's idea of which app owns the model changes, and its content
type follows, so the permissions and admin history attached to it stay."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if ContentType.objects.filter(app_label="accounts", model="block").exists():
        return
    ContentType.objects.filter(app_label="players", model="block").update(app_label="accounts")


def move_content_type_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if ContentType.objects.filter(app_label="players", model="block").exists():
        return
    ContentType.objects.filter(app_label="accounts", model="block").update(app_label="players")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_name_readings"),
        ("players", "0002_rating_active"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Block",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "blocked",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="blocked_by",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "blocker",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="blocks_made",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "players_block",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("blocker", "blocked"), name="block_once"
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("blocker", models.F("blocked")), _negated=True),
                                name="block_not_self",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
