"""Web push through the outbox, received by a local push service that
decrypts each message with the subscription's keys (RFC 8291) as a browser
would, so the tests check what a device really gets."""

import base64
import json
import os
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.urls import reverse
from django.utils import timezone

from games.correspondence import push
from games.dispatch import outbox
from games.lobby import services as lobby
from games.models import (
    ChannelDelivery,
    DeliveryStatus,
    Notification,
    NotificationKind,
    PushSubscription,
)

pytestmark = pytest.mark.django_db


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A push service on 127.0.0.1: keeps each decrypted message, answers
    ``status`` (201 unless a test says otherwise)."""

    def __init__(self):
        self.received: list[dict] = []
        self.headers: list[dict] = []
        self.status = 201
        self.devices: dict[str, tuple] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                key, auth = service.devices[self.path]
                if service.status < 300:
                    plain = http_ece.decrypt(
                        body, private_key=key, auth_secret=auth, version="aes128gcm"
                    )
                    service.received.append(json.loads(plain))
                    service.headers.append({k.lower(): v for k, v in self.headers.items()})
                self.send_response(service.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subscribe(self, user, kinds=None) -> PushSubscription:
        """A device of ``user``'s: a browser's key pair and auth secret."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        path = f"/push/{len(self.devices)}"
        self.devices[path] = (key, auth)
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return PushSubscription.objects.create(
            user=user,
            endpoint=self.origin + path,
            p256dh=b64(public),
            auth=b64(auth),
            kinds=kinds if kinds is not None else [k.value for k in NotificationKind],
        )


@pytest.fixture
def service(settings):
    server = PushService()
    settings.VAPID_KEYS = push.new_vapid_keys()
    settings.PUSH_SERVICES = [*settings.PUSH_SERVICES, server.origin]
    yield server
    server.server.shutdown()


def start_match(alice, bob, **options):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host", **options}
    )
    lobby.join_match(user=bob, match=match)
    return match


def test_your_turn_arrives_encrypted_in_the_players_language(
    service, alice, bob, django_capture_on_commit_callbacks
):
    alice.profile.language = "pl"
    alice.profile.save()
    service.subscribe(alice)
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn)
    assert row.status == DeliveryStatus.SENT and row.attempts == 1
    arrived = [m for m in service.received if m["tag"] == f"smoki-{turn.pk}"]
    assert len(arrived) == 1, "exactly once"
    message = arrived[0]
    assert message["title"].startswith("Twój ruch"), message["title"]
    assert message["url"].endswith(f"/matches/{match.pk}/") or f"/{match.pk}" in message["url"]
    assert all(h["topic"].startswith("n") for h in service.headers)
    assert PushSubscription.objects.get(user=alice).last_success_at is not None
    # Delivering again changes nothing.
    assert push.deliver(row.pk) == "nothing to do"
    assert len([m for m in service.received if m["tag"] == f"smoki-{turn.pk}"]) == 1


def test_a_device_gets_only_the_kinds_it_asked_for(
    service, alice, bob, django_capture_on_commit_callbacks
):
    service.subscribe(alice, kinds=[NotificationKind.MATCH_FINISHED])
    with django_capture_on_commit_callbacks(execute=True):
        start_match(alice, bob)
    assert service.received == []
    assert not ChannelDelivery.objects.exists()


def test_gone_subscription_is_removed_and_failed_for_good(service, alice, bob):
    device = service.subscribe(alice)
    start_match(alice, bob)
    row = ChannelDelivery.objects.filter(target_id=device.pk).first()
    service.status = 410
    assert push.deliver(row.pk) == DeliveryStatus.FAILED
    row.refresh_from_db()
    assert "410" in row.last_error
    assert not PushSubscription.objects.filter(pk=device.pk).exists()


def test_a_server_error_is_retried_with_backoff_then_sent_once(service, alice, bob):
    service.subscribe(alice)
    start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn)
    service.status = 503
    assert push.deliver(row.pk) == DeliveryStatus.PENDING
    row.refresh_from_db()
    assert row.next_attempt_at > timezone.now() and "503" in row.last_error
    service.status = 201
    with time_machine.travel(row.next_attempt_at + timedelta(seconds=1)):
        assert outbox.relay()["pushes"] >= 1  # eagerly delivered
    row.refresh_from_db()
    assert (row.status, row.attempts) == (DeliveryStatus.SENT, 2)
    assert len([m for m in service.received if m["tag"] == f"smoki-{turn.pk}"]) == 1


def test_a_worker_killed_mid_delivery_loses_nothing_and_shows_once(service, alice, bob):
    """The claim is committed, then the worker dies before it settles: after
    the stuck claims are released the row is delivered, and a message that
    had left is replaced on the device (same tag and Topic), not doubled."""
    service.subscribe(alice)
    start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn)
    assert push.claim(row.pk) is not None  # ... and the worker is killed here
    push.send(
        PushSubscription.objects.get(pk=row.target_id),
        push.payload(turn),
        topic=f"n{row.pk}",
    )  # the message had left before the kill
    assert push.deliver(row.pk) == "nothing to do", "a claimed row is not sent twice"
    later = timezone.now() + timedelta(hours=1)
    assert push.release_stuck_claims(now=later) == 1
    assert push.deliver(row.pk) == DeliveryStatus.SENT
    arrived = [m for m in service.received if m["tag"] == f"smoki-{turn.pk}"]
    assert len(arrived) == 2 and arrived[0] == arrived[1], "the twin replaces the first"
    assert len({h["topic"] for h in service.headers}) == 1
    row.refresh_from_db()
    assert row.status == DeliveryStatus.SENT


def test_a_turn_over_before_delivery_is_not_pushed(service, alice, bob):
    from games.engine import registry
    from tests.conftest import play_one

    service.subscribe(alice)
    match = start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn)
    play_one(match, registry.get("nogi"))
    assert push.deliver(row.pk) == DeliveryStatus.SKIPPED
    assert service.received == []


def test_no_push_without_vapid_keys(settings, service, alice, bob):
    settings.VAPID_KEYS = {"private": "", "public": ""}
    service.subscribe(alice)
    start_match(alice, bob)
    assert not ChannelDelivery.objects.exists()


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://fcm.googleapis.com/fcm/send/abc", True),
        ("https://web.push.apple.com/QG", True),
        ("https://push.apple.com.evil.example/x", False),
        ("https://evilpush.apple.com/x", False),
        ("http://fcm.googleapis.com/fcm/send/abc", False),
        ("https://fcm.googleapis.com:8443/x", False),
        ("https://user@fcm.googleapis.com/x", False),
        ("https://127.0.0.1/x", False),
        ("https://169.254.169.254/latest", False),
        ("javascript:alert(1)", False),
        ("", False),
        (None, False),
        ("https://[::1]/x", False),
        ("https://fcm.googleapis.com:bad/x", False),
    ],
)
def test_only_trusted_push_services_are_allowed(url, allowed):
    assert push.allowed_endpoint(url) is allowed


# -- The page where a player turns push on per device -----------------------------------


def browser_keys() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64(public), b64(os.urandom(16))


def test_a_player_turns_push_on_chooses_kinds_and_turns_it_off(service, client, alice):
    client.force_login(alice)
    page = client.get(reverse("push_devices"))
    assert page.status_code == 200
    assert service_key_shown(page, push.settings.VAPID_KEYS["public"])
    assert "iPhone" in page.content.decode()
    p256dh, auth = browser_keys()
    endpoint = service.origin + "/push/new"
    answer = client.post(
        reverse("push_devices"),
        {"action": "subscribe", "endpoint": endpoint, "p256dh": p256dh, "auth": auth},
    )
    assert answer.status_code == 302
    device = PushSubscription.objects.get(user=alice)
    assert device.endpoint == endpoint and NotificationKind.YOUR_TURN in device.kinds
    client.post(
        reverse("push_devices"),
        {"action": "kinds", "device": device.pk, "kinds": ["match_finished", "bogus"]},
    )
    device.refresh_from_db()
    assert device.kinds == ["match_finished"]
    client.post(reverse("push_devices"), {"action": "remove", "device": device.pk})
    assert not PushSubscription.objects.exists()


def service_key_shown(page, key: str) -> bool:
    return f'data-key="{key}"' in page.content.decode()


@pytest.mark.parametrize(
    "fields",
    [
        {"endpoint": "https://attacker.example/collect"},
        {"endpoint": "http://169.254.169.254/latest/meta-data"},
        {"p256dh": "not-a-key"},
        {"auth": b64(b"short")},
        {"p256dh": b64(b"\x05" + os.urandom(64))},
    ],
)
def test_a_forged_subscription_is_refused_and_changes_nothing(service, client, alice, fields):
    client.force_login(alice)
    p256dh, auth = browser_keys()
    data = {
        "action": "subscribe",
        "endpoint": "https://fcm.googleapis.com/fcm/send/x",
        "p256dh": p256dh,
        "auth": auth,
        **fields,
    }
    answer = client.post(reverse("push_devices"), data)
    assert answer.status_code == 400
    assert not PushSubscription.objects.exists()


def test_another_players_device_cannot_be_changed_or_removed(service, client, alice, bob):
    device = service.subscribe(bob)
    client.force_login(alice)
    for data in (
        {"action": "remove", "device": device.pk},
        {"action": "kinds", "device": device.pk, "kinds": ["reminder"]},
    ):
        assert client.post(reverse("push_devices"), data).status_code == 404
    device.refresh_from_db()
    assert NotificationKind.YOUR_TURN in device.kinds


def test_the_page_reads_a_bounded_number_of_queries(
    service, client, alice, django_assert_max_num_queries
):
    for _ in range(5):
        service.subscribe(alice)
    client.force_login(alice)
    client.get(reverse("push_devices"))
    with django_assert_max_num_queries(8):
        assert client.get(reverse("push_devices")).status_code == 200


def test_fan_out_reads_one_query_however_many_devices(
    service, alice, bob, django_assert_max_num_queries
):
    """A move's transaction pays one query for the players' devices and one
    insert, not one per device."""
    from games.dispatch import channels

    for _ in range(6):
        service.subscribe(alice)
    match = start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    ChannelDelivery.objects.all().delete()
    written = channels.Written(turn.pk, alice.pk, turn.kind, turn.version, turn.tag, True)
    with django_assert_max_num_queries(2):
        assert channels.fan_out([written]) == 6
    with django_assert_max_num_queries(2):
        channels.fan_out([written])  # again: nothing doubled
    assert ChannelDelivery.objects.filter(notification=turn).count() == 6
    assert match.pk


def test_a_new_event_does_not_hurry_a_delivery_waiting_for_its_back_off(service, alice, bob):
    service.subscribe(alice)
    start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn)
    service.status = 503
    push.deliver(row.pk)
    service.status = 201
    assert push.deliver_all(turn.pk) == [], "its retry is not due yet"
    row.refresh_from_db()
    assert row.status == DeliveryStatus.PENDING and row.attempts == 1


def test_actions_are_offered_only_for_a_whole_choice_of_at_most_two_moves():
    confirm = "https://smoki.example/m/5/by-email/abc/"
    other = "https://smoki.example/m/5/by-email/def/"
    board = "https://smoki.example/m/5/?path=1"
    assert push.actions([("Pass", confirm), ("Take", other)]) == [
        {"action": "choice-0", "title": "Pass", "url": confirm},
        {"action": "choice-1", "title": "Take", "url": other},
    ]
    assert push.actions([("Pass", confirm)])[0]["url"] == confirm
    assert push.actions([("A", confirm), ("B", other), ("C", confirm)]) == [], "not two of many"
    assert push.actions([("A", confirm), ("First step", board)]) == [], "a step needs the board"
    assert push.actions([]) == []


def test_the_service_worker_shows_pushes_and_opens_their_pages(client):
    from django.urls import reverse

    script = client.get(reverse("service_worker")).content.decode()
    assert 'addEventListener("push"' in script and "showNotification" in script
    assert 'addEventListener("notificationclick"' in script and "openWindow" in script


def test_deploy_check_refuses_plain_http_push_services_and_warns_without_keys(settings):
    from games.checks import push_services_check

    settings.PUSH_SERVICES = ["https://fcm.googleapis.com", "http://127.0.0.1:9999"]
    settings.VAPID_KEYS = {"private": "", "public": ""}
    ids = {message.id for message in push_services_check(None)}
    assert ids == {"smoki.E010", "smoki.W010"}
    settings.PUSH_SERVICES = ["https://fcm.googleapis.com"]
    settings.VAPID_KEYS = push.new_vapid_keys()
    assert push_services_check(None) == []


def test_moderators_see_a_notifications_pushes_and_their_errors(service, alice, bob, client):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    service.subscribe(alice)
    start_match(alice, bob)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn)
    service.status = 503
    push.deliver(row.pk)
    moderator = get_user_model().objects.create_user("mod", password="pw", is_staff=True)
    moderator.user_permissions.add(Permission.objects.get(codename="view_notification"))
    client.force_login(moderator)
    page = client.get(reverse("admin:games_notification_change", args=[turn.pk]))
    assert page.status_code == 200
    assert "503" in page.content.decode() and "push" in page.content.decode()


def test_a_turn_in_quiet_hours_is_pushed_when_they_end(
    service, alice, bob, django_capture_on_commit_callbacks
):
    """The push waits with the email: nothing arrives in the night, it
    arrives once the relay finds it due at the end of the quiet hours."""
    from datetime import UTC, datetime

    alice.profile.timezone = "Europe/Warsaw"
    alice.profile.quiet_from, alice.profile.quiet_until = 22, 7
    alice.profile.save()
    service.subscribe(alice)
    with time_machine.travel(datetime(2026, 10, 24, 21, 0, tzinfo=UTC), tick=False) as clock:
        with django_capture_on_commit_callbacks(execute=True):
            start_match(alice, bob)
        turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
        row = ChannelDelivery.objects.get(notification=turn)
        assert row.next_attempt_at == datetime(2026, 10, 25, 6, 0, tzinfo=UTC)
        assert service.received == [], "nothing in the night"
        assert push.deliver_all(turn.pk) == [], "a stray hand-over sends nothing"
        clock.move_to(datetime(2026, 10, 25, 6, 0, tzinfo=UTC))
        assert outbox.relay()["pushes"] == 1
    assert [m["tag"] for m in service.received] == [f"smoki-{turn.pk}"]


@pytest.mark.parametrize("key", ["nogi", "drakon", "drakon_classic", "seven_dragons", "drako"])
def test_the_shortcut_past_the_choices_never_drops_a_button(service, key, make_user):
    """``payload`` works the choices out only when the player has at most two
    legal actions (a button is one whole move); along a bot-played match the
    buttons it gives are exactly those of the full choice tree."""
    from django.utils import translation

    from games.correspondence import compose
    from games.engine import registry
    from games.play import services as play
    from tests.conformance.kit import bot_choice

    users = [make_user(f"{key[:8]}-{i}") for i in range(2)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=2, options={})
    lobby.join_match(user=users[1], match=match)
    game = registry.get(key)
    compared = with_buttons = 0
    for step in range(40):
        match.refresh_from_db()
        if match.status != "active":
            break
        for row in Notification.objects.filter(
            match=match, kind=NotificationKind.YOUR_TURN, version=match.version
        ).select_related("user__profile", "match"):
            with translation.override("en"):
                full = push.actions(compose.email_choices(row))
            # Titles and order (a signed link carries its moment, so two
            # signings a second apart differ).
            got = [(a["action"], a["title"]) for a in push.payload(row)["actions"]]
            assert got == [(a["action"], a["title"]) for a in full], (key, step)
            compared += 1
            with_buttons += bool(full)
        (seat, *_rest) = game.current_seats(match.state)
        action = bot_choice(key, match.state, seat, "heuristic", f"p{step}")
        if game.result(game.apply(match.state, seat, action)[0]) is not None:
            break
        play.submit_action(match, match.seats.get(index=seat).user, action, match.version)
    assert compared > 0
    print(key, compared, "turns compared,", with_buttons, "with buttons")
