"""The preferences grid (events by channel, one form) and what every
channel does with it: email, push and webhooks each honour the player's
choice per event; quiet hours hold a push whatever became of its email;
a new player starts with email and push on their turn and one reminder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import EVENTS, Profile
from games.correspondence import push
from games.dispatch import outbox
from games.models import (
    ChannelDelivery,
    DeliveryStatus,
    Notification,
    NotificationKind,
    Webhook,
)
from tests.correspondence.test_push import PushService, start_match

pytestmark = pytest.mark.django_db

GRID = {
    "email_your_turn": "immediate",
    "email_reminder": "immediate",
    "email_match_events": "never",
    "email_invitation": "immediate",
    "email_tournaments": "digest",
    "email_follows": "immediate",
    "email_mentions": "immediate",
    "push_events": ["your_turn", "match_events"],
    "webhook_events": ["tournaments"],
    "tell_follows": "on",
    "reminder_shares": ["80"],
    "reminder_hours": "",
    "quiet_from": "",
    "quiet_until": "",
}


@pytest.fixture
def service(settings):
    server = PushService()
    settings.VAPID_KEYS = push.new_vapid_keys()
    settings.PUSH_SERVICES = [*settings.PUSH_SERVICES, server.origin]
    yield server
    server.server.shutdown()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def set_grid(user, **fields) -> None:
    Profile.objects.filter(user=user).update(**fields)
    user.profile.refresh_from_db()


# -- The page ----------------------------------------------------------------------------


def test_one_form_saves_the_whole_grid_and_shows_it_back(settings, alice):
    settings.WEBHOOKS_ENABLED = True
    client = logged_in(alice)
    response = client.post(reverse("notification_settings"), GRID)
    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert profile.push_events == ["your_turn", "match_events"]
    assert profile.webhook_events == ["tournaments"]
    assert (profile.email_match_events, profile.email_tournaments) == ("never", "digest")
    page = client.get(reverse("notification_settings")).content.decode()
    checked = {
        (channel, event)
        for channel in ("push", "webhook")
        for event in EVENTS
        if f'id="{channel}-{event}" aria-label' in page
        and f'value="{event}" id="{channel}-{event}"' in page
        and _is_checked(page, f"{channel}-{event}")
    }
    assert checked == {
        ("push", "your_turn"),
        ("push", "match_events"),
        ("webhook", "tournaments"),
    }
    # One row per event, each with its email choice and a box per channel.
    assert page.count('name="push_events"') == len(EVENTS)
    assert page.count('name="webhook_events"') == len(EVENTS)


def _is_checked(page: str, element_id: str) -> bool:
    start = page.index(f'id="{element_id}"')
    return " checked" in page[start : page.index(">", start)]


def test_without_webhooks_the_grid_has_no_webhook_column_and_keeps_their_choice(alice):
    set_grid(alice, webhook_events=["mentions"])
    client = logged_in(alice)
    page = client.get(reverse("notification_settings")).content.decode()
    assert 'id="webhook-mentions"' not in page
    data = {key: value for key, value in GRID.items() if key != "webhook_events"}
    data["webhook_events"] = ["mentions"]  # what the hidden field sends back
    assert client.post(reverse("notification_settings"), data).status_code == 302
    assert Profile.objects.get(user=alice).webhook_events == ["mentions"]


@pytest.mark.parametrize(
    "change",
    [
        {"push_events": ["your_turn", "everything"]},
        {"webhook_events": ["<script>"]},
        {"email_tournaments": "sometimes"},
    ],
)
def test_a_forged_grid_is_refused_and_changes_nothing(alice, change):
    before = Profile.objects.filter(user=alice).values().get()
    response = logged_in(alice).post(reverse("notification_settings"), {**GRID, **change})
    assert response.status_code == 400
    assert Profile.objects.filter(user=alice).values().get() == before


# -- Every channel honours it --------------------------------------------------------------


def test_push_goes_only_to_the_events_the_grid_ticks(
    service, alice, bob, django_capture_on_commit_callbacks
):
    """Both tick only "a match starts or ends": Alice, who moves first, is
    emailed her turn but not pushed it; Bob is pushed the match's start."""
    for player in (alice, bob):
        set_grid(player, push_events=["match_events"])
        service.subscribe(player)
    with django_capture_on_commit_callbacks(execute=True):
        start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    assert not ChannelDelivery.objects.filter(notification=turn).exists()
    assert turn.status == DeliveryStatus.SENT, "the email still goes"
    started = Notification.objects.get(user=bob, kind=NotificationKind.MATCH_STARTED)
    assert [m["tag"] for m in service.received] == [f"smoki-{started.pk}"]


def test_a_push_turned_off_after_it_was_written_is_not_sent(service, alice, bob):
    service.subscribe(alice)
    start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn)
    set_grid(alice, push_events=["reminder"])
    assert push.deliver(row.pk) == DeliveryStatus.SKIPPED
    row.refresh_from_db()
    assert row.last_error == push.TURNED_OFF
    assert service.received == []


def test_webhooks_follow_their_own_column(settings, alice, bob):
    """Both tick only "your turn" for webhooks: Alice's turn is posted, Bob's
    match start (pushed by default, emailed) is not."""
    settings.WEBHOOKS_ENABLED = True
    for player in (alice, bob):
        Webhook.objects.create(
            user=player,
            kind=Webhook.Kind.DISCORD,
            url="https://hook.example/in",
            secret="",
            kinds=[k.value for k in NotificationKind],
        )
        set_grid(player, webhook_events=["your_turn"])
    start_match(alice, bob)
    assert Notification.objects.filter(user=bob, kind=NotificationKind.MATCH_STARTED).exists()
    posted = set(
        ChannelDelivery.objects.filter(channel="webhook").values_list(
            "notification__user__username", "notification__kind"
        )
    )
    assert posted == {("alice", NotificationKind.YOUR_TURN)}


def test_the_email_column_governs_a_tournaments_news_on_its_own(alice):
    from tournaments.notify import TOURNAMENT_NEWS, queue_tournament

    set_grid(alice, email_tournaments="never", email_match_events="immediate")
    row = queue_tournament(alice, tournament_id=1, name="Cup", event="round", round_number=2)
    assert row.kind == TOURNAMENT_NEWS and row.status == DeliveryStatus.SKIPPED
    set_grid(alice, email_tournaments="immediate", email_match_events="never")
    row = queue_tournament(alice, tournament_id=1, name="Cup", event="round", round_number=3)
    assert row.status == DeliveryStatus.PENDING


#: The row of the grid each kind of notification sits in: a kind about a
#: match by what happened in the match, a competition's news (a tournament's
#: rounds, a ladder challenge's end) in the competitions' row.
GRID_ROW_OF_KIND = {
    NotificationKind.YOUR_TURN: "your_turn",
    NotificationKind.UNDO_REQUEST: "your_turn",
    "live_offer": "your_turn",
    NotificationKind.REMINDER: "reminder",
    NotificationKind.TIMED_OUT: "reminder",
    "vacation": "reminder",
    NotificationKind.MATCH_STARTED: "match_events",
    NotificationKind.MATCH_FINISHED: "match_events",
    NotificationKind.MODERATION: "match_events",
    "quick_match": "match_events",
    NotificationKind.INVITATION: "invitation",
    "tournament": "tournaments",
    "ladder": "tournaments",
    "follow": "follows",
    NotificationKind.MENTION: "mentions",
}


def test_every_kind_sits_in_its_row_of_the_grid():
    from games.dispatch import kinds

    every = {*NotificationKind.values, *(kind for kind, _name in kinds.news_kinds())}
    assert every == set(GRID_ROW_OF_KIND)
    assert {kind: kinds.event_of(kind) for kind in every} == GRID_ROW_OF_KIND
    assert set(GRID_ROW_OF_KIND.values()) == set(EVENTS)


def test_a_ladder_challenges_news_follows_the_competitions_row_on_every_channel(
    settings, alice, bob
):
    from ladders.news import DECLINED, queue

    settings.WEBHOOKS_ENABLED = True
    Webhook.objects.create(
        user=alice, kind="generic", url="https://hooks.example/x", secret="s", kinds=["ladder"]
    )
    set_grid(
        alice,
        email_tournaments="never",
        email_match_events="immediate",
        webhook_events=["tournaments"],
    )
    row = queue(alice, challenge_id=1, game_key="drako", opponent="bob", news=DECLINED, place=1)
    assert row.status == DeliveryStatus.SKIPPED
    assert ChannelDelivery.objects.filter(notification=row, channel="webhook").count() == 1
    set_grid(
        alice,
        email_tournaments="digest",
        email_match_events="never",
        webhook_events=["match_events"],
    )
    row = queue(alice, challenge_id=2, game_key="drako", opponent="bob", news=DECLINED, place=1)
    assert row.status == DeliveryStatus.DIGEST
    assert not ChannelDelivery.objects.filter(notification=row).exists()


def test_the_grid_names_ladders_in_the_competitions_row(alice):
    page = logged_in(alice).get(reverse("notification_settings")).content.decode()
    row = page[page.index('id="push-tournaments"') - 600 : page.index('id="push-tournaments"')]
    assert "News of a tournament or ladder I play in" in row


# -- Quiet hours hold push whatever the email -----------------------------------------------


def test_quiet_hours_hold_a_push_never_emailed_across_the_spring_change(
    service, alice, bob, django_capture_on_commit_callbacks
):
    """Warsaw, 22 to 7, the night the clocks go forward (29 March 2026, 2:00
    CET becomes 3:00 CEST): a turn at 23:30 CET is not emailed at all (the
    player chose never) and still not pushed in the night; it is pushed at
    7:00 CEST, 5:00 UTC, the hours' end on the wall clock (8 real hours
    after 23:00, not 9), once the relay finds it due."""
    set_grid(
        alice,
        timezone="Europe/Warsaw",
        quiet_from=22,
        quiet_until=7,
        email_your_turn="never",
    )
    service.subscribe(alice)
    with time_machine.travel(datetime(2026, 3, 28, 22, 30, tzinfo=UTC), tick=False) as clock:
        with django_capture_on_commit_callbacks(execute=True):
            start_match(alice, bob)
        turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
        assert turn.status == DeliveryStatus.SKIPPED, "never emailed"
        row = ChannelDelivery.objects.get(notification=turn)
        assert row.next_attempt_at == datetime(2026, 3, 29, 5, 0, tzinfo=UTC)
        assert service.received == [], "nothing in the night"
        clock.move_to(datetime(2026, 3, 29, 1, 30, tzinfo=UTC))  # 3:30 CEST, still quiet
        assert outbox.relay()["pushes"] == 0
        assert push.deliver(row.pk) == "nothing to do", "a stray hand-over sends nothing"
        row.refresh_from_db()
        assert row.status == DeliveryStatus.PENDING
        assert row.next_attempt_at == datetime(2026, 3, 29, 5, 0, tzinfo=UTC)
        clock.move_to(datetime(2026, 3, 29, 5, 0, tzinfo=UTC))
        assert outbox.relay()["pushes"] >= 1
    assert [m["tag"] for m in service.received].count(f"smoki-{turn.pk}") == 1


def test_quiet_hours_hold_a_chat_app_but_not_a_generic_endpoint(settings, alice, bob):
    settings.WEBHOOKS_ENABLED = True
    set_grid(alice, timezone="UTC", quiet_from=0, quiet_until=8)
    every = [k.value for k in NotificationKind]
    chat = Webhook.objects.create(
        user=alice, kind="slack", url="https://hook.example/s", secret="", kinds=every
    )
    generic = Webhook.objects.create(
        user=alice, kind="generic", url="https://hook.example/g", secret="whsec_x", kinds=every
    )
    with time_machine.travel(datetime(2026, 6, 1, 3, 0, tzinfo=UTC), tick=False):
        start_match(alice, bob)
        turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
        due = dict(
            ChannelDelivery.objects.filter(notification=turn).values_list(
                "target_id", "next_attempt_at"
            )
        )
    assert due[chat.pk] == datetime(2026, 6, 1, 8, 0, tzinfo=UTC)
    assert due[generic.pk] < datetime(2026, 6, 1, 3, 5, tzinfo=UTC)


# -- A new player's defaults ----------------------------------------------------------------


def test_a_new_player_gets_email_and_push_on_their_turn_and_one_reminder(
    service, bob, django_capture_on_commit_callbacks
):
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code in (200, 302)
    newcomer = get_user_model().objects.get(username="newcomer")
    profile = Profile.objects.get(user=newcomer)
    assert profile.email_your_turn == "immediate"
    assert profile.channel_events("push") == ["your_turn", "reminder"]
    assert profile.channel_events("webhook") == ["your_turn", "reminder"]
    assert profile.reminder_share_list() == [80] and profile.reminder_offsets() == []
    service.subscribe(newcomer)
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(newcomer, bob)
    pushed = set(
        ChannelDelivery.objects.filter(notification__user=newcomer).values_list(
            "notification__kind", flat=True
        )
    )
    assert pushed == {NotificationKind.YOUR_TURN}, "the match's start is emailed, not pushed"
    assert Notification.objects.get(user=newcomer, kind=NotificationKind.YOUR_TURN).status in (
        DeliveryStatus.SENT,
        DeliveryStatus.PENDING,
    )
    assert match.pk


# -- What was sent, by every channel -----------------------------------------------------------


def test_what_was_sent_says_what_became_of_each_push_and_why(
    service, alice, bob, django_capture_on_commit_callbacks
):
    import re

    set_grid(alice, push_events=["your_turn", "match_events"])
    service.subscribe(alice)
    service.status = 410
    with django_capture_on_commit_callbacks(execute=True):
        start_match(alice, bob)
    page = logged_in(alice).get(reverse("notifications_sent")).content.decode()
    text = re.sub(r"<[^>]+>", "", page)
    assert (
        "Push notification: Failed — The device no longer takes notifications; it was removed."
        in text
    ), text
    # Held for the quiet hours, said in the player's language.
    from accounts.services import set_language

    set_grid(alice, timezone="UTC", quiet_from=0, quiet_until=23)
    set_language(alice, "pl")
    gone = ChannelDelivery.objects.get()
    device = service.subscribe(alice)
    held = ChannelDelivery.objects.create(
        notification=gone.notification,
        channel="push",
        target_id=device.pk,
        version=gone.version,
        tag=gone.tag,
    )
    with time_machine.travel(datetime(2026, 6, 1, 3, 0, tzinfo=UTC), tick=False):
        assert push.deliver(held.pk) == "nothing to do"
    held.refresh_from_db()
    assert held.status == DeliveryStatus.PENDING
    assert held.next_attempt_at == datetime(2026, 6, 1, 23, 0, tzinfo=UTC)
    page = logged_in(alice).get(reverse("notifications_sent")).content.decode()
    assert "Czeka na koniec twoich godzin ciszy" in page
