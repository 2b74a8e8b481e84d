"""Demo users and matches for a fresh clone (`make run`). Safe to run again.

``make run`` runs it twice: first silently (``-v 0``) before the worker and
the web server start, then with ``--announce URL`` beside them, which waits
until the site answers and prints the address and the logins, so they come
last, below the server's own lines.
"""

import time
import urllib.error
import urllib.request

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.roles import ensure_moderator_group
from games.engine import registry
from games.lobby import services as lobby
from games.models import DeliveryStatus, Match, MatchStatus, Notification

DEMO_PASSWORD = "smoki-demo-2026"
DEMO_USERS = [
    ("alice", "Alice", "en"),
    ("bob", "Bob", "pl"),
    ("carol", "Carol", "cs"),
]


class Command(BaseCommand):
    help = "Create demo users (verified emails) and one demo match of every registered game."

    def add_arguments(self, parser):
        parser.add_argument(
            "--announce",
            metavar="URL",
            help="Create nothing: wait until URL answers, then print it and the demo logins.",
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=120.0,
            help="Seconds --announce waits for the site (default 120).",
        )

    def handle(self, **options):
        if options["announce"]:
            self._announce(options["announce"], options["wait"])
            return
        with transaction.atomic():
            users = [self._user(name, display, lang) for name, display, lang in DEMO_USERS]
            if not Match.objects.filter(created_by=users[0]).exists():
                for game in registry.all():
                    self._demo_match(game, users)
                # One match still gathering players, to join from the lobby.
                open_match = lobby.create_match(user=users[2], game_key="nogi", n_seats=4)
                lobby.join_match(user=users[1], match=open_match)
                # The demo's own "match started" and "your turn" news stays in the
                # bell: emailed, it printed hundreds of console lines at every
                # fresh `make run`. What players do afterwards is emailed as usual.
                Notification.objects.filter(
                    match__created_by__in=users, status=DeliveryStatus.PENDING
                ).update(status=DeliveryStatus.SKIPPED, last_error="demo data: not emailed")
            moderator = self._user("mod", "Moderator", "en")
            if not moderator.is_staff:
                moderator.is_staff = True
                moderator.save(update_fields=["is_staff"])
            moderator.groups.add(ensure_moderator_group())
        if options["verbosity"] > 0:
            self._logins()

    def _logins(self) -> None:
        active = Match.objects.filter(created_by__username="alice", status=MatchStatus.ACTIVE)
        for match in active.order_by("pk"):
            self.stdout.write(f"Demo match ({match.game_key}): /m/{match.pk}/")
        self.stdout.write("Demo logins (username / password):")
        for name, _display, _lang in DEMO_USERS:
            self.stdout.write(f"  {name} / {DEMO_PASSWORD}")
        self.stdout.write(f"  mod / {DEMO_PASSWORD}  (moderator: /admin/)")

    def _announce(self, url: str, wait: float) -> None:
        """Wait until ``url`` answers (the web server is up), then print the
        demo's matches, the logins and the address, the address last."""
        deadline = time.monotonic() + wait
        while True:
            try:
                with urllib.request.urlopen(url.rstrip("/") + "/healthz", timeout=2):
                    break
            except (urllib.error.URLError, OSError) as error:
                if time.monotonic() > deadline:
                    raise CommandError(f"{url} did not answer within {wait:.0f} s.") from error
                time.sleep(0.3)
        time.sleep(0.3)  # the server's own line for that request comes first
        self.stdout.write("")
        self._logins()
        self.stdout.write(self.style.SUCCESS(f"Smoki is running at {url}"))
        self.stdout.write("(Ctrl-C stops the web server and the worker.)")

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
