"""The notification rows a match's events write (games.notifications): one
row per player and match, never rolled back by a late event, delivered again
when it is brought up to date for a new turn."""

from __future__ import annotations

import pytest

from games.dispatch import notifications
from games.lobby import services as lobby
from games.models import DeliveryStatus, Notification, NotificationKind
from tests.conftest import play_one, user_to_move

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


def test_an_updated_row_is_delivered_again_for_the_new_turn(alice, bob, nogi):
    """The unread row's email was sent for an earlier turn: the update is a new delivery."""
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    first = user_to_move(match, nogi)
    other = bob if first == alice else alice
    play_one(match, nogi)  # the other player's turn now
    row = Notification.objects.get(user=other, match=match, kind=NotificationKind.YOUR_TURN)
    Notification.objects.filter(pk=row.pk).update(
        status=DeliveryStatus.SENT, attempts=1, last_error="x"
    )
    play_one(match, nogi)
    play_one(match, nogi)  # the other player's turn again
    match.refresh_from_db()
    row.refresh_from_db()
    assert row.version == match.version
    assert (row.status, row.attempts, row.sent_at, row.last_error) in (
        (DeliveryStatus.PENDING, 0, None, ""),
        (DeliveryStatus.SKIPPED, 0, None, ""),
    )
