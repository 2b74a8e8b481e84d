"""Names have two readings now (accounts.names.name_keys): the look-alike
skeleton taken before case is folded as well as after, every confusable
character mapped, invisible characters dropped. Add the second reading's
columns and recompute both for every profile."""

from django.db import migrations, models


def refill_keys(apps, schema_editor):
    from accounts.names import name_keys

    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.select_related("user").iterator():
        profile.username_key, profile.username_lower_key = name_keys(profile.user.username)
        profile.display_key, profile.display_lower_key = name_keys(profile.display_name)
        profile.save(
            update_fields=["username_key", "username_lower_key", "display_key", "display_lower_key"]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_confusable_name_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="display_lower_key",
            field=models.CharField(blank=True, db_index=True, default="", max_length=160),
        ),
        migrations.AddField(
            model_name="profile",
            name="username_lower_key",
            field=models.CharField(blank=True, db_index=True, default="", max_length=160),
        ),
        migrations.RunPython(refill_keys, migrations.RunPython.noop),
    ]
