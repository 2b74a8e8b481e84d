"""Demo users and matches for a fresh clone (`make run`). Safe to run again."""

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import lobby
from games.engine import registry
from games.models import Match, MatchStatus
from games.roles import ensure_moderator_group

DEMO_PASSWORD = "smoki-demo-2026"
DEMO_USERS = [
    ("alice", "Alice", "en"),
    ("bob", "Bob", "pl"),
    ("carol", "Carol", "cs"),
]


class Command(BaseCommand):
    help = "Create demo users (verified emails) and one demo match of every registered game."

    def handle(self, **options):
        with transaction.atomic():
            users = [self._user(name, display, lang) for name, display, lang in DEMO_USERS]
            if not Match.objects.filter(created_by=users[0]).exists():
                for game in registry.all():
                    self._demo_match(game, users)
                # One match still gathering players, to join from the lobby.
                open_match = lobby.create_match(user=users[2], game_key="nogi", n_seats=4)
                lobby.join_match(user=users[1], match=open_match)
            moderator = self._user("mod", "Moderator", "en")
            if not moderator.is_staff:
                moderator.is_staff = True
                moderator.save(update_fields=["is_staff"])
            moderator.groups.add(ensure_moderator_group())
        active = Match.objects.filter(created_by=users[0], status=MatchStatus.ACTIVE)
        self.stdout.write("Demo logins (username / password):")
        for name, _display, _lang in DEMO_USERS:
            self.stdout.write(f"  {name} / {DEMO_PASSWORD}")
        self.stdout.write(f"  mod / {DEMO_PASSWORD}  (moderator: /admin/)")
        for match in active.order_by("pk"):
            self.stdout.write(f"Demo match ({match.game_key}): /m/{match.pk}/")

    def _demo_match(self, game, users) -> Match:
        """Alice's match of ``game`` as the game's ``demo_setup`` asks: the demo
        users take the seats, bots any beyond them."""
        n_seats, options = game.demo_setup()
        match = lobby.create_match(
            user=users[0], game_key=game.key, n_seats=n_seats, options=options
        )
        for user in users[1:n_seats]:
            lobby.join_match(user=user, match=match)
        if n_seats > len(users):
            lobby.fill_with_bots(user=users[0], match=match)
        return match

    def _user(self, username, display_name, language):
        User = get_user_model()
        email = f"{username}@example.com"
        user, created = User.objects.get_or_create(username=username, defaults={"email": email})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
            user.profile.display_name = display_name
            user.profile.language = language
            user.profile.save()
        EmailAddress.objects.get_or_create(
            user=user, email=email, defaults={"verified": True, "primary": True}
        )
        return user
