"""The name keys now fold look-alike characters (UTS #39 skeletons, accents):
recompute them for every profile. No schema change."""

from django.db import migrations


def refill_keys(apps, schema_editor):
    from accounts.names import name_key

    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.select_related("user").iterator():
        profile.username_key = name_key(profile.user.username)
        profile.display_key = name_key(profile.display_name)
        profile.save(update_fields=["username_key", "display_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_player_page_public"),
    ]

    operations = [migrations.RunPython(refill_keys, migrations.RunPython.noop)]
