"""The notification rows a match's events write (games.notifications): one
row per player and match, never rolled back by a late event."""

from __future__ import annotations

import pytest

from games import lobby, notifications
from games.models import NotificationKind

pytestmark = pytest.mark.django_db


def test_a_late_event_does_not_roll_the_unread_row_back(alice, bob, nogi):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    row = notifications.queue(alice, match, NotificationKind.MODERATION, version=match.version + 5)
    assert row is not None
    assert notifications.queue(alice, match, NotificationKind.MODERATION, version=1) is None
    row.refresh_from_db()
    assert row.version == match.version + 5
    again = notifications.queue(
        alice, match, NotificationKind.MODERATION, version=match.version + 5
    )
    assert again is None, "the same event is notified once"
