"""The clock's tests run at a fixed moment that each test moves on by hand
(the ``traveller`` fixture, in tests/conftest.py, starts there)."""

from datetime import timedelta

from django.utils import timezone

from games.lobby import services as lobby

START = timezone.datetime(2026, 3, 2, 12, 0, tzinfo=timezone.UTC)
DAY = timedelta(days=1)


def two_player(alice, bob, **kwargs):
    """A started two-player Nogi match, alice to move first."""
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}, **kwargs
    )
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match
