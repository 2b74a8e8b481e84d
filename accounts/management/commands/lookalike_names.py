"""List accounts whose names pass for each other's, for moderators to settle."""

from django.core.management.base import BaseCommand

from accounts.selectors import lookalike_groups


class Command(BaseCommand):
    help = (
        "List players whose usernames or display names look alike (case, accents, "
        "spaces and look-alike characters of other scripts set aside), oldest account first."
    )

    def handle(self, *args, **options):
        groups = lookalike_groups()
        for key, profiles in groups:
            self.stdout.write(f"{key!r}:")
            for profile in profiles:
                user = profile.user
                self.stdout.write(
                    f"  user {user.pk} username {user.username!r} display name"
                    f" {profile.display_name!r} joined {user.date_joined:%Y-%m-%d}"
                )
        self.stdout.write(f"{len(groups)} groups of look-alike names")
