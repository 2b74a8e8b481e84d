"""Times in the hour repeated when daylight saving time ends are told apart."""

from datetime import UTC, datetime

import pytest
from django.utils import timezone, translation

from games.correspondence import compose
from games.lobby import services as lobby
from games.models import Match, Notification, NotificationKind
from games.panel.formats import local_moment

# On 25 October 2026 Warsaw's clocks go back from 03:00 CEST to 02:00 CET:
# 00:30 and 01:30 UTC are both 02:30 on the wall.
FIRST = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
SECOND = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)


def test_the_repeated_hour_shows_the_zone():
    with timezone.override("Europe/Warsaw"), translation.override("en"):
        first, second = local_moment(FIRST), local_moment(SECOND)
        assert first != second
        assert first.endswith("CEST") and second.endswith("CET")
        assert "2:30" in first and "2:30" in second
        ordinary = local_moment(datetime(2026, 10, 26, 1, 30, tzinfo=UTC))
        assert "CET" not in ordinary and "2:30" in ordinary


def test_other_times_and_zones_stay_as_they_were():
    with timezone.override("UTC"), translation.override("en"):
        assert local_moment(FIRST) == "Oct. 25, 2026, 12:30 a.m."
    assert local_moment(None) == ""


@pytest.mark.django_db
def test_an_email_deadline_in_the_repeated_hour_carries_the_zone(alice, bob):
    alice.profile.timezone = "Europe/Warsaw"
    alice.profile.save()
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    Match.objects.filter(pk=match.pk).update(deadline=SECOND)
    row = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row.refresh_from_db()
    email = compose.build_email(row)
    assert "2:30" in email.body and "CET" in email.body
