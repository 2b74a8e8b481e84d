import unicodedata

from django.db import migrations, models


def name_key(name):
    # accounts.models.name_key as it was when this migration was written.
    folded = unicodedata.normalize("NFKC", name or "").casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def fill_keys(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.select_related("user"):
        profile.username_key = name_key(profile.user.username)
        profile.display_key = name_key(profile.display_name)
        profile.save(update_fields=["username_key", "display_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_invitations_from"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="display_key",
            field=models.CharField(blank=True, db_index=True, default="", max_length=160),
        ),
        migrations.AddField(
            model_name="profile",
            name="username_key",
            field=models.CharField(blank=True, db_index=True, default="", max_length=160),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
