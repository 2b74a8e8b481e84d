"""Quiet hours: nothing is emailed inside them, everything after, cut on the
player's own wall clock, the nights the clocks change included."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
import time_machine
from django.core import mail

from games.correspondence import delivery, digests
from games.dispatch import notifications, outbox, quiet
from games.lobby import services as lobby
from games.models import DeliveryStatus, Notification, NotificationKind

pytestmark = pytest.mark.django_db


def night(zone="Europe/Warsaw", start=22, end=7):
    return SimpleNamespace(timezone=zone, quiet_from=start, quiet_until=end)


def test_outside_the_hours_nothing_waits():
    assert quiet.quiet_until(night(), datetime(2026, 6, 1, 12, 0, tzinfo=UTC)) is None


def test_no_hours_or_the_same_hour_twice_is_no_window():
    now = datetime(2026, 6, 1, 23, 0, tzinfo=UTC)
    assert quiet.quiet_until(night(start=None), now) is None
    assert quiet.quiet_until(night(start=5, end=5), now) is None


def test_a_summer_night_ends_at_seven_local_time():
    # 23:00 in Warsaw (CEST, UTC+2) is 21:00 UTC; 7:00 the next morning is 5:00 UTC.
    now = datetime(2026, 6, 1, 21, 0, tzinfo=UTC)
    assert quiet.quiet_until(night(), now) == datetime(2026, 6, 2, 5, 0, tzinfo=UTC)


def test_after_midnight_the_same_night_ends_the_same_morning():
    now = datetime(2026, 6, 2, 1, 0, tzinfo=UTC)  # 3:00 in Warsaw
    assert quiet.quiet_until(night(), now) == datetime(2026, 6, 2, 5, 0, tzinfo=UTC)


def test_the_night_the_clocks_go_back_ends_at_seven_on_the_wall_clock():
    # 25 October 2026: 3:00 CEST becomes 2:00 CET in Warsaw. 23:00 CEST on the
    # 24th is 21:00 UTC; 7:00 CET on the 25th is 6:00 UTC (ten hours of quiet).
    now = datetime(2026, 10, 24, 21, 0, tzinfo=UTC)
    assert quiet.quiet_until(night(), now) == datetime(2026, 10, 25, 6, 0, tzinfo=UTC)


def test_the_night_the_clocks_go_forward_ends_at_seven_on_the_wall_clock():
    # 29 March 2026: 2:00 CET becomes 3:00 CEST. 7:00 CEST is 5:00 UTC.
    now = datetime(2026, 3, 28, 22, 0, tzinfo=UTC)  # 23:00 CET
    assert quiet.quiet_until(night(), now) == datetime(2026, 3, 29, 5, 0, tzinfo=UTC)


def test_an_end_in_the_skipped_hour_is_the_first_moment_after_it():
    # Quiet until 2 o'clock on the night 2:00 does not exist: it ends at 3:00 CEST.
    now = datetime(2026, 3, 28, 23, 30, tzinfo=UTC)  # 0:30 CET
    assert quiet.quiet_until(night(start=22, end=2), now) == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)


def test_a_daytime_window_does_not_wrap():
    profile = night(zone="America/New_York", start=9, end=17)
    assert quiet.quiet_until(profile, datetime(2026, 6, 1, 14, 0, tzinfo=UTC)) == datetime(
        2026, 6, 1, 21, 0, tzinfo=UTC
    )
    assert quiet.quiet_until(profile, datetime(2026, 6, 1, 22, 0, tzinfo=UTC)) is None


def quiet_alice(alice):
    alice.profile.timezone = "Europe/Warsaw"
    alice.profile.quiet_from, alice.profile.quiet_until = 22, 7
    alice.profile.save()


def test_a_turn_in_quiet_hours_is_held_then_sent_by_the_relay(
    alice, bob, django_capture_on_commit_callbacks
):
    quiet_alice(alice)
    with time_machine.travel(datetime(2026, 10, 24, 21, 0, tzinfo=UTC), tick=False) as clock:
        with django_capture_on_commit_callbacks(execute=True):
            match = lobby.create_match(
                user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
            )
            lobby.join_match(user=bob, match=match)
        row = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
        assert row.status == DeliveryStatus.PENDING
        assert row.next_attempt_at == datetime(2026, 10, 25, 6, 0, tzinfo=UTC)
        assert row.last_error == notifications.HELD_QUIET
        assert not [m for m in mail.outbox if "alice@example.com" in m.to], "held, not sent"
        # A hand-over that arrives anyway (a retry) sends nothing either.
        assert delivery.deliver(row.pk) == "nothing to do"
        assert outbox.relay()["notifications"] == 0
        clock.move_to(datetime(2026, 10, 25, 6, 0, tzinfo=UTC))
        assert outbox.relay()["notifications"] >= 1
    row.refresh_from_db()
    assert row.status == DeliveryStatus.SENT
    assert row.last_error == ""
    assert [m for m in mail.outbox if "alice@example.com" in m.to]


def test_the_digest_waits_for_the_end_of_quiet_hours(alice, bob):
    quiet_alice(alice)
    alice.profile.email_your_turn = alice.profile.email_match_events = "digest"
    alice.profile.save()
    with time_machine.travel(datetime(2026, 6, 1, 21, 0, tzinfo=UTC), tick=False) as clock:
        match = lobby.create_match(
            user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
        )
        lobby.join_match(user=bob, match=match)
        mail.outbox.clear()
        assert digests.send_for_user(alice.pk) is False
        assert not mail.outbox
        rows = Notification.objects.filter(user=alice, status=DeliveryStatus.DIGEST)
        assert rows.exists()
        assert set(rows.values_list("next_attempt_at", flat=True)) == {
            datetime(2026, 6, 2, 5, 0, tzinfo=UTC)
        }
        clock.move_to(datetime(2026, 6, 2, 5, 0, tzinfo=UTC) + timedelta(seconds=1))
        assert outbox.relay()["digests"] == 1
    assert [m for m in mail.outbox if "alice@example.com" in m.to]
    assert not Notification.objects.filter(user=alice, status=DeliveryStatus.DIGEST).exists()


def test_a_reminder_the_sweep_writes_in_quiet_hours_waits_for_their_end(traveller, alice, bob):
    from games.play import timeouts
    from tests.clock import DAY, START, two_player

    alice.profile.reminder_hours, alice.profile.reminder_shares = "", "80"
    alice.profile.quiet_from, alice.profile.quiet_until = 11, 13  # UTC, around START's noon
    alice.profile.save()
    match = two_player(alice, bob, time_per_move=5 * DAY)
    traveller.move_to(START + 4 * DAY)
    timeouts.sweep()
    row = Notification.objects.get(match=match, kind=NotificationKind.REMINDER)
    assert (row.status, row.next_attempt_at) == (
        DeliveryStatus.PENDING,
        START + 4 * DAY + timedelta(hours=1),
    )
    assert row.last_error == notifications.HELD_QUIET
    mail.outbox.clear()
    traveller.move_to(START + 4 * DAY + timedelta(hours=1))
    outbox.relay()
    row.refresh_from_db()
    assert row.status == DeliveryStatus.SENT
    assert [m.subject for m in mail.outbox if m.to == ["alice@example.com"]]


def test_a_turn_written_with_the_move_in_quiet_hours_waits_too(traveller, alice, bob, nogi):
    """The move's "your turn" goes through the batched upsert, not ``queue``."""
    from tests.clock import START, two_player
    from tests.conftest import play_one

    match = two_player(alice, bob)
    bob.profile.quiet_from, bob.profile.quiet_until = 11, 13
    bob.profile.save()
    play_one(match, nogi)  # alice moves; bob is to move, at noon UTC
    row = Notification.objects.get(match=match, user=bob, kind=NotificationKind.YOUR_TURN)
    assert row.status == DeliveryStatus.PENDING
    assert row.next_attempt_at == START + timedelta(hours=1)
    assert row.last_error == notifications.HELD_QUIET
    assert delivery.deliver(row.pk) == "nothing to do"
