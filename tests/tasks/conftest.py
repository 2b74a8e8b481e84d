"""The clock's tests run at a fixed moment that each test moves on by hand."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.lobby import services as lobby

START = timezone.datetime(2026, 3, 2, 12, 0, tzinfo=timezone.UTC)
DAY = timedelta(days=1)


@pytest.fixture
def traveller():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def two_player(alice, bob, **kwargs):
    """A started two-player Nogi match, alice to move first."""
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}, **kwargs
    )
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match
