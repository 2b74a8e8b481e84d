from django.db import migrations, models


def mark_matches_with_chat(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    ChatMessage = apps.get_model("games", "ChatMessage")
    Match.objects.filter(pk__in=ChatMessage.objects.values("match_id")).update(has_chat=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_match_indexes_in_use")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="has_chat",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_matches_with_chat, migrations.RunPython.noop),
    ]
