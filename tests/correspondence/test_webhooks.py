"""The webhook guard: only https to public addresses, checked after DNS
resolution and pinned to the address checked; and the posting itself,
against a local TLS server (the guard's public-address rule relaxed for
the loopback only in these tests)."""

import datetime
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from standardwebhooks import Webhook as StandardWebhook

from games.correspondence import webhooks


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("2001:4860:4860::8888", True),
        ("127.0.0.1", False),
        ("127.255.0.1", False),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("172.31.255.255", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),  # the cloud metadata service
        ("100.64.0.1", False),  # shared address space
        ("100.100.100.200", False),  # another cloud's metadata, in it
        ("0.0.0.0", False),
        ("255.255.255.255", False),
        ("224.0.0.1", False),
        ("240.0.0.1", False),
        ("192.0.2.1", False),  # documentation
        ("198.18.0.1", False),  # benchmarking
        ("::1", False),
        ("::", False),
        ("fe80::1", False),
        ("fe80::1%eth0", False),
        ("fc00::1", False),
        ("fd00:ec2::254", False),  # the cloud metadata service over IPv6
        ("ff02::1", False),
        ("::ffff:127.0.0.1", False),  # IPv4-mapped
        ("::ffff:169.254.169.254", False),
        ("64:ff9b::7f00:1", False),  # NAT64 of 127.0.0.1
        ("64:ff9b::a9fe:a9fe", False),  # NAT64 of 169.254.169.254
        ("2002:7f00:1::", False),  # 6to4 of 127.0.0.1
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", False),  # Teredo of 127.0.0.1
        ("not an address", False),
        ("", False),
    ],
)
def test_public_ip(address, public):
    assert webhooks.public_ip(address) is public


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example.com/x",
        "ftp://hooks.example.com/x",
        "https://user:pw@hooks.example.com/x",
        "https://127.0.0.1/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:10.0.0.1]/x",
        "https:///x",
        "https://hooks.example.com:99999/x",
        "javascript:alert(1)",
        "https://" + "a" * 1000 + ".com/",
    ],
)
def test_check_url_refuses(url):
    with pytest.raises(webhooks.Unsafe):
        webhooks.check_url(url)


def test_check_url_gives_host_port_and_path():
    assert webhooks.check_url("https://Hooks.Example.com./in?a=1") == (
        "hooks.example.com",
        443,
        "/in?a=1",
    )


def answers(*addresses):
    def resolver(host, port, type=0):
        return [
            (
                socket.AF_INET6 if ":" in a else socket.AF_INET,
                socket.SOCK_STREAM,
                6,
                "",
                (a, port),
            )
            for a in addresses
        ]

    return resolver


def test_resolution_must_be_all_public():
    assert webhooks.resolve_public("h", 443, answers("8.8.8.8")) == "8.8.8.8"
    # A rebinding answer: one public address beside an inner one.
    with pytest.raises(webhooks.Unsafe):
        webhooks.resolve_public("h", 443, answers("8.8.8.8", "10.0.0.5"))
    with pytest.raises(webhooks.Unsafe):
        webhooks.resolve_public("h", 443, answers("::ffff:127.0.0.1"))
    with pytest.raises(webhooks.Unsafe):
        webhooks.resolve_public("h", 443, answers())

    def fails(*args, **kwargs):
        raise socket.gaierror("no such host")

    with pytest.raises(webhooks.Unsafe):
        webhooks.resolve_public("h", 443, fails)


@pytest.fixture
def tls_server(tmp_path):
    """An HTTPS server on 127.0.0.1 with a certificate for hook.test."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "hook.test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("hook.test")]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((self.path, dict(self.headers), body))
            if self.path == "/redirect":
                self.send_response(302)
                self.send_header("Location", "https://169.254.169.254/latest/")
                self.end_headers()
                return
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"x" * 100_000)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    client_context = ssl.create_default_context(cafile=str(cert_file))
    yield server.server_port, client_context, received
    server.shutdown()


@pytest.fixture
def loopback_allowed(monkeypatch):
    real = webhooks.public_ip
    monkeypatch.setattr(webhooks, "public_ip", lambda a: a == "127.0.0.1" or real(a))


def test_a_signed_generic_event_arrives_at_the_address_resolved(tls_server, loopback_allowed):
    port, context, received = tls_server
    secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    event = {"type": "your_turn", "title": "Your turn", "text": "Move.", "url": "https://s/m/1/"}
    body, headers = webhooks.message(webhooks.GENERIC, event, secret=secret, msg_id="msg_1")
    status, answer = webhooks.post(
        f"https://hook.test:{port}/in",
        body,
        headers,
        resolver=answers("127.0.0.1"),
        context=context,
    )
    assert status == 200
    assert len(answer) == webhooks.MAX_ANSWER, "the answer is read only so far"
    path, got_headers, got_body = received[0]
    assert path == "/in" and got_headers["Host"].startswith("hook.test")
    assert StandardWebhook(secret).verify(got_body, got_headers)["data"]["title"] == "Your turn"


def test_every_new_signing_secret_signs_what_a_standard_receiver_verifies():
    """A secret is standard base64: a receiver's library decodes it with the
    standard alphabet, and a base64url secret with three of ``-`` or ``_``
    in it (about one in sixteen) is refused there as a wrong length."""
    from games.correspondence import push

    event = {"type": "your_turn", "title": "Your turn", "text": "Move.", "url": "https://s/m/1/"}
    for n in range(400):
        secret = push.new_webhook_secret()
        body, headers = webhooks.message(webhooks.GENERIC, event, secret=secret, msg_id=f"msg_{n}")
        assert StandardWebhook(secret).verify(body, headers)["type"] == "your_turn", secret


def test_a_redirect_is_not_followed(tls_server, loopback_allowed):
    port, context, received = tls_server
    status, _ = webhooks.post(
        f"https://hook.test:{port}/redirect",
        b"{}",
        {},
        resolver=answers("127.0.0.1"),
        context=context,
    )
    assert status == 302 and len(received) == 1


def test_without_the_test_allowance_the_loopback_is_refused(tls_server):
    port, context, received = tls_server
    with pytest.raises(webhooks.Unsafe):
        webhooks.post(
            f"https://hook.test:{port}/in",
            b"{}",
            {},
            resolver=answers("127.0.0.1"),
            context=context,
        )
    assert received == []


def test_a_message_too_large_is_refused():
    with pytest.raises(webhooks.Unsafe):
        webhooks.post("https://hooks.example.com/", b"x" * (webhooks.MAX_BODY + 1), {})


def test_discord_and_slack_shapes():
    event = {"type": "your_turn", "title": "T", "text": "B", "url": "https://s/"}
    body, _ = webhooks.message(webhooks.DISCORD, event)
    assert b'"content"' in body and b'"parse": []' in body
    body, _ = webhooks.message(webhooks.SLACK, event)
    assert body.startswith(b'{"text"')


# -- Through the outbox ------------------------------------------------------------------


@pytest.fixture
def hooked(tls_server, loopback_allowed, monkeypatch, settings):
    """Webhooks on, hook.test resolving to the local TLS server."""
    port, context, received = tls_server
    settings.WEBHOOKS_ENABLED = True
    monkeypatch.setattr(webhooks, "_resolve", answers("127.0.0.1"))
    monkeypatch.setattr(webhooks, "tls_context", lambda: context)
    return port, received


@pytest.mark.django_db
def test_a_turn_is_posted_once_signed_and_without_move_links(
    hooked, alice, bob, django_capture_on_commit_callbacks
):
    from games.correspondence import push
    from games.lobby import services as lobby
    from games.models import (
        ChannelDelivery,
        DeliveryStatus,
        Notification,
        NotificationKind,
        Webhook,
    )

    port, received = hooked
    secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    hook = Webhook.objects.create(
        user=alice,
        kind=Webhook.Kind.GENERIC,
        url=f"https://hook.test:{port}/in",
        secret=secret,
        kinds=[NotificationKind.YOUR_TURN],
    )
    with django_capture_on_commit_callbacks(execute=True):
        match = lobby.create_match(
            user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
        )
        lobby.join_match(user=bob, match=match)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    row = ChannelDelivery.objects.get(notification=turn, channel="webhook")
    assert row.status == DeliveryStatus.SENT
    assert len(received) == 1
    _path, headers, body = received[0]
    event = StandardWebhook(secret).verify(body, headers)
    assert event["type"] == "your_turn" and f"/m/{match.pk}/" in event["data"]["url"]
    assert b"by-email" not in body, "a one-move link moves for whoever follows it"
    assert push.deliver(row.pk) == "nothing to do"
    hook.refresh_from_db()
    assert hook.last_success_at is not None


@pytest.mark.django_db
def test_an_inner_address_fails_for_good_without_a_post(
    tls_server, settings, monkeypatch, alice, bob
):
    """The guard runs on every try: a host that now resolves inside is refused."""
    from games.correspondence import push
    from games.lobby import services as lobby
    from games.models import ChannelDelivery, DeliveryStatus, NotificationKind, Webhook

    port, context, received = tls_server
    settings.WEBHOOKS_ENABLED = True
    monkeypatch.setattr(webhooks, "_resolve", answers("127.0.0.1"))
    monkeypatch.setattr(webhooks, "tls_context", lambda: context)
    Webhook.objects.create(
        user=alice,
        kind=Webhook.Kind.SLACK,
        url=f"https://hook.test:{port}/in",
        secret="",
        kinds=[NotificationKind.YOUR_TURN],
    )
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    row = ChannelDelivery.objects.get(channel="webhook")
    assert push.deliver(row.pk) == DeliveryStatus.FAILED
    row.refresh_from_db()
    assert "not public" in row.last_error and received == []


@pytest.mark.django_db
def test_devices_and_webhooks_are_found_in_one_query(
    hooked, alice, bob, settings, django_assert_max_num_queries
):
    from games.correspondence import push
    from games.dispatch import channels
    from games.lobby import services as lobby
    from games.models import (
        ChannelDelivery,
        Notification,
        NotificationKind,
        PushSubscription,
        Webhook,
    )

    settings.VAPID_KEYS = push.new_vapid_keys()
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    turn = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    every = [k.value for k in NotificationKind]
    PushSubscription.objects.create(
        user=alice, endpoint="https://fcm.googleapis.com/x", p256dh="p", auth="a", kinds=every
    )
    hook = Webhook.objects.create(
        user=alice, kind="discord", url="https://hook.test/", secret="", kinds=every
    )
    written = channels.Written(turn.pk, alice.pk, turn.kind, turn.version, turn.tag, True)
    with django_assert_max_num_queries(2):
        assert channels.fan_out([written]) == 2
    assert set(
        ChannelDelivery.objects.filter(notification=turn).values_list("channel", "target_id")
    ) >= {("webhook", hook.pk)}


# -- The page ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_player_adds_tests_chooses_and_removes_a_webhook(hooked, client, alice):
    from django.urls import reverse

    from games.models import Webhook

    port, received = hooked
    client.force_login(alice)
    url = reverse("push_devices")
    answer = client.post(
        url, {"action": "webhook_add", "kind": "generic", "url": f"https://hook.test:{port}/in"}
    )
    assert answer.status_code == 302
    hook = Webhook.objects.get(user=alice)
    assert hook.secret.startswith("whsec_") and "your_turn" in hook.kinds
    page = client.get(url).content.decode()
    assert hook.secret in page and "Last deliveries" in page
    assert client.post(url, {"action": "webhook_test", "webhook": hook.pk}).status_code == 302
    _path, headers, body = received[-1]
    assert StandardWebhook(hook.secret).verify(body, headers)["type"] == "test"
    client.post(url, {"action": "webhook_kinds", "webhook": hook.pk, "kinds": ["reminder"]})
    hook.refresh_from_db()
    assert hook.kinds == ["reminder"]
    client.post(url, {"action": "webhook_remove", "webhook": hook.pk})
    assert not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "address",
    [
        "http://hook.test/in",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/x",
        "https://inner.test/x",  # resolves to a private address
        "not a url",
    ],
)
def test_an_unsafe_webhook_address_is_refused_and_nothing_saved(
    settings, monkeypatch, client, alice, address
):
    from django.urls import reverse

    from games.models import Webhook

    settings.WEBHOOKS_ENABLED = True
    monkeypatch.setattr(webhooks, "_resolve", answers("10.0.0.7"))
    client.force_login(alice)
    answer = client.post(
        reverse("push_devices"), {"action": "webhook_add", "kind": "slack", "url": address}
    )
    assert answer.status_code == 400
    assert "public internet" in answer.content.decode()
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_another_players_webhook_is_out_of_reach(hooked, client, alice, bob):
    from django.urls import reverse

    from games.models import Webhook

    hook = Webhook.objects.create(
        user=bob, kind="slack", url="https://hook.test/", secret="", kinds=["your_turn"]
    )
    client.force_login(alice)
    for action in ("webhook_test", "webhook_remove", "webhook_kinds"):
        answer = client.post(reverse("push_devices"), {"action": action, "webhook": hook.pk})
        assert answer.status_code == 404
    hook.refresh_from_db()
    assert hook.kinds == ["your_turn"]


@pytest.mark.django_db
def test_the_page_with_webhooks_reads_a_bounded_number_of_queries(
    settings, client, alice, django_assert_max_num_queries
):
    from django.urls import reverse

    from games.models import Channel, ChannelDelivery, Webhook

    settings.WEBHOOKS_ENABLED = True
    for i in range(4):
        hook = Webhook.objects.create(
            user=alice, kind="slack", url=f"https://h{i}.example.com/", secret="", kinds=[]
        )
        for n in range(3):
            ChannelDelivery.objects.create(
                notification=_a_notification(alice, n),
                channel=Channel.WEBHOOK,
                target_id=hook.pk,
                version=i,
                last_error="503 busy",
            )
    client.force_login(alice)
    client.get(reverse("push_devices"))
    with django_assert_max_num_queries(9):
        assert client.get(reverse("push_devices")).status_code == 200


def _a_notification(user, n):
    from games.models import Notification

    return Notification.objects.get_or_create(
        user=user, match=None, kind="news", tag=f"t{n}", defaults={"version": 0}
    )[0]


@pytest.mark.django_db
def test_a_push_and_a_webhook_each_cost_the_worker_no_more_than_an_email(
    hooked, settings, alice, bob, capsys
):
    """Benchmark: the same "your turn" rows delivered by email (the local
    mail backend, the board's picture drawn), by push (a local push service
    decrypting each) and by webhook (a local HTTPS receiver, a TLS handshake
    each), timed in one run; prints each channel's time per delivery and
    its ratio to an email's (docs/performance.md)."""
    import time

    from games.correspondence import delivery, push
    from games.models import (
        ChannelDelivery,
        DeliveryStatus,
        Notification,
        NotificationKind,
        Webhook,
    )
    from tests.correspondence.test_push import PushService, start_match

    port, received = hooked
    service = PushService()
    settings.VAPID_KEYS = push.new_vapid_keys()
    settings.PUSH_SERVICES = [*settings.PUSH_SERVICES, service.origin]
    service.subscribe(alice)
    Webhook.objects.create(
        user=alice,
        kind=Webhook.Kind.GENERIC,
        url=f"https://hook.test:{port}/in",
        secret="whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        kinds=[NotificationKind.YOUR_TURN],
    )
    rounds = 8
    for _ in range(rounds):
        start_match(alice, bob)
    turns = list(Notification.objects.filter(user=alice, kind=NotificationKind.YOUR_TURN))
    by_channel = {
        channel: list(
            ChannelDelivery.objects.filter(notification__in=turns, channel=channel).values_list(
                "pk", flat=True
            )
        )
        for channel in ("push", "webhook")
    }
    assert [len(ids) for ids in by_channel.values()] == [rounds, rounds]

    def timed(deliver, ids) -> float:
        started = time.perf_counter()
        for pk in ids:
            assert deliver(pk) == DeliveryStatus.SENT
        return (time.perf_counter() - started) / len(ids) * 1000

    email = timed(delivery.deliver, [turn.pk for turn in turns])
    pushed = timed(push.deliver, by_channel["push"])
    posted = timed(push.deliver, by_channel["webhook"])
    service.server.shutdown()
    assert len(service.received) == rounds and len(received) == rounds
    with capsys.disabled():
        print(
            f"\nper delivery: email {email:.1f} ms, push {pushed:.1f} ms"
            f" ({pushed / email:.2f} of an email), webhook {posted:.1f} ms"
            f" ({posted / email:.2f} of an email)"
        )
