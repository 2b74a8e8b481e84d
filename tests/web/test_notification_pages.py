"""The notification settings page and "What was sent": what they save, what
they refuse (400, nothing changed), whose rows they show, and their bound
on queries."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from games.dispatch import notifications
from games.models import DeliveryStatus, Notification, NotificationKind
from games.play import chat

pytestmark = pytest.mark.django_db

GOOD = {
    "email_your_turn": "immediate",
    "email_reminder": "digest",
    "email_match_events": "immediate",
    "email_invitation": "never",
    "email_follows": "immediate",
    "email_mentions": "never",
    "tell_follows": "on",
    "reminder_shares": ["80", "50"],
    "reminder_hours": "6",
    "quiet_from": "22",
    "quiet_until": "7",
}


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_settings_page_saves_every_choice(alice):
    client = client_for(alice)
    assert client.get(reverse("notification_settings")).status_code == 200
    response = client.post(reverse("notification_settings"), GOOD)
    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.email_reminder, profile.email_invitation, profile.email_mentions) == (
        "digest",
        "never",
        "never",
    )
    assert (profile.reminder_shares, profile.reminder_hours) == ("50,80", "6")
    assert (profile.quiet_from, profile.quiet_until) == (22, 7)
    page = client.get(reverse("notification_settings")).content.decode()
    assert re.search(r'value="80"[^>]*checked', page), "the saved share is shown chosen"


@pytest.mark.parametrize(
    "change",
    [
        {"quiet_from": "22", "quiet_until": ""},
        {"quiet_from": "5", "quiet_until": "5"},
        {"quiet_from": "24"},
        {"reminder_shares": ["33"]},
        {"reminder_hours": "²"},
        {"email_your_turn": "always"},
    ],
)
def test_bad_input_is_refused_and_changes_nothing(alice, change):
    before = Profile.objects.filter(user=alice).values().get()
    response = client_for(alice).post(reverse("notification_settings"), {**GOOD, **change})
    assert response.status_code == 400
    assert Profile.objects.filter(user=alice).values().get() == before


def test_the_profile_form_leaves_the_notification_choices_alone(alice):
    alice.profile.email_your_turn = "digest"
    alice.profile.save()
    response = client_for(alice).post(
        reverse("profile"),
        {"display_name": "", "language": "en", "timezone": "UTC", "email_your_turn": "never"},
    )
    assert response.status_code == 302
    assert Profile.objects.get(user=alice).email_your_turn == "digest"


def test_the_pages_need_a_login():
    for name in ("notification_settings", "notifications_sent"):
        response = Client().get(reverse(name))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_what_was_sent_says_what_became_of_each_email_and_why(started_match, alice, bob, carol):
    bob.profile.email_mentions = "never"
    bob.profile.save()
    chat.post_message(alice, started_match, "@bob @carol secret plans")
    row = Notification.objects.get(user=carol, kind=NotificationKind.MENTION)
    Notification.objects.filter(pk=row.pk).update(
        status=DeliveryStatus.FAILED,
        last_error="Refused for good by the mail server: 550 no such mailbox",
    )
    page = client_for(bob).get(reverse("notifications_sent")).content.decode()
    assert "You chose never to be emailed about this." in page
    assert f"A player mentions you in a match chat: Nogi za pas! #{started_match.pk}" in page
    assert "secret plans" not in page, "the list names the event, not the line"
    carols = client_for(carol).get(reverse("notifications_sent")).content.decode()
    assert "The mail server refused it: 550 no such mailbox" in carols
    assert "Failed" in carols
    assert "You chose never" not in carols, "only the player's own rows"


def test_a_held_email_says_it_waits_for_the_quiet_hours(alice, started_match):
    row = Notification.objects.filter(user=alice).first()
    Notification.objects.filter(pk=row.pk).update(
        status=DeliveryStatus.PENDING, last_error=notifications.HELD_QUIET
    )
    page = client_for(alice).get(reverse("notifications_sent")).content.decode()
    assert "Held for your quiet hours; sent when they end." in page


def test_what_was_sent_lists_the_last_100_in_bounded_queries(
    alice, started_match, django_assert_max_num_queries
):
    Notification.objects.bulk_create(
        Notification(
            user=alice,
            match=started_match,
            kind=NotificationKind.REMINDER,
            version=1000 + n,
            tag=f"{n}h",
            status=DeliveryStatus.SENT,
            read_at=started_match.created_at,
        )
        for n in range(130)
    )
    from games.models import ChannelDelivery

    ChannelDelivery.objects.bulk_create(
        ChannelDelivery(
            notification=row,
            channel="push",
            target_id=1,
            version=row.version,
            tag=row.tag,
            status=DeliveryStatus.SENT,
        )
        for row in Notification.objects.filter(user=alice)
    )
    client = client_for(alice)
    client.get(reverse("notifications_sent"))  # the session and caches warm
    # The session, the user, the rows with their matches, their pushes and posts.
    with django_assert_max_num_queries(4):
        page = client.get(reverse("notifications_sent")).content.decode()
    assert page.count('<li class="sent-') == 100
    assert page.count("Push notification: <strong>Sent") == 100, "each row's push, one query"


def test_the_settings_page_is_drawn_in_bounded_queries(alice, django_assert_max_num_queries):
    client = client_for(alice)
    client.get(reverse("notification_settings"))
    # The session, the user, the profile.
    with django_assert_max_num_queries(3):
        assert client.get(reverse("notification_settings")).status_code == 200
