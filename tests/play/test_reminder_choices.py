"""Reminders by share of the turn's time (50 %, 80 %) beside those by hours,
and the one reminder a new player starts with."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from games.models import Notification, NotificationKind
from games.play import timeouts
from tests.clock import DAY, START, two_player

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def reminders(match):
    return list(
        Notification.objects.filter(match=match, kind=NotificationKind.REMINDER)
        .order_by("created_at")
        .values_list("tag", flat=True)
    )


def choose(user, hours="", shares=""):
    user.profile.reminder_hours, user.profile.reminder_shares = hours, shares
    user.profile.save()


def test_a_share_of_the_turns_time_sets_the_reminder(traveller, alice, bob):
    choose(alice, shares="80")
    match = two_player(alice, bob, time_per_move=5 * DAY)
    assert match.wake_at == START + 4 * DAY, "80 % of five days is four"
    traveller.move_to(START + 4 * DAY - HOUR)
    timeouts.sweep()
    assert reminders(match) == []
    traveller.move_to(START + 4 * DAY)
    timeouts.sweep()
    assert reminders(match) == ["80%"]


def test_shares_and_hours_mix_earliest_first(traveller, alice, bob):
    choose(alice, hours="2", shares="50,80")
    match = two_player(alice, bob, time_per_move=2 * DAY)
    traveller.move_to(START + DAY)
    timeouts.sweep()
    assert reminders(match) == ["50%"]
    Notification.objects.filter(match=match).update(read_at=START + DAY)
    traveller.move_to(START + DAY + 14 * HOUR + 24 * timedelta(minutes=1))  # 38.4 h: 80 %
    timeouts.sweep()
    assert reminders(match) == ["50%", "80%"]
    Notification.objects.filter(match=match).update(read_at=START + 2 * DAY)
    traveller.move_to(START + 2 * DAY - 2 * HOUR)
    timeouts.sweep()
    assert reminders(match) == ["50%", "80%", "2h"]


def test_a_share_follows_the_matchs_pace(traveller, alice, bob):
    choose(alice, shares="80")
    fast = two_player(alice, bob, time_per_move=10 * HOUR)
    assert fast.wake_at == START + 8 * HOUR


def test_shares_outside_the_offered_ones_are_ignored(alice):
    choose(alice, shares="80, 33,x,50,50")
    assert alice.profile.reminder_share_list() == [50, 80]


def test_a_new_player_starts_with_one_reminder_at_80_percent(client: Client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code in (200, 302)
    user = get_user_model().objects.get(username="newcomer")
    profile = Profile.objects.get(user=user)
    assert (profile.reminder_hours, profile.reminder_shares) == ("", "80")
    assert (profile.email_your_turn, profile.email_reminder) == ("immediate", "immediate")
