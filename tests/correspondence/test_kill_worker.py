"""Killing the worker mid-delivery loses and doubles nothing, for push and
for webhooks: a real Celery worker process (tests/correspondence/channel_worker.py)
on the real Redis broker delivers to a local push service and a local HTTPS
webhook receiver; the receiver holds the first post of the channel under
test, the worker is killed with SIGKILL while it waits for the answer, a new
worker is started, and the outbox (the stuck claim released, the relay)
finishes the work.

"Reached" is what a receiver accepted and answered: the post the killed
worker was waiting on was never answered (its connection died with it), and
the one sent again carries the same identity (the push ``Topic``, the
``webhook-id``), so a push service or a receiver that had kept the first
would replace or drop the second. Exactly one accepted delivery per
(recipient, channel, match, kind, version).

Needs PostgreSQL (the worker process reads the test's database) and Redis.
"""

from __future__ import annotations

import datetime
import os
import select
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.db import connection
from django.utils import timezone
from standardwebhooks import Webhook as StandardWebhook

from config.celery import app
from games.correspondence import push
from games.dispatch import outbox
from games.lobby import services as lobby
from games.models import ChannelDelivery, DeliveryStatus, PushSubscription, Webhook
from games.play import reliability

BASE_DIR = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("SMOKI_KILL_REDIS_URL", "redis://127.0.0.1:6379/11")


def _redis_is_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.exceptions.RedisError:
        return False


pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}"),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (the worker process reads the test's database): run with "
        "DATABASE_URL=postgres://postgres@127.0.0.1:5432/smoki",
    ),
]


def _peer_gone(sock) -> bool:
    """Whether the client closed the connection (its process died): the raw
    socket reads end of file. A TLS socket is looked at through a copy of
    its descriptor, below the encryption."""
    raw = socket.socket(fileno=os.dup(sock.fileno()))
    try:
        readable, _w, _x = select.select([raw], [], [], 2.0)
        return bool(readable) and raw.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True
    finally:
        raw.close()


class Receiver:
    """A push service (plain HTTP, answers 201) or a webhook receiver (HTTPS,
    checks the Standard Webhooks signature, answers 200). Each post's
    identity is its ``Topic`` (push) or ``webhook-id`` (webhook). With
    ``hold_first`` the first post is held unanswered until ``release``;
    then, if its sender is gone, it is dropped unanswered."""

    def __init__(self, *, tls: tuple[Path, Path] | None = None, secret: str = ""):
        self.accepted: list[str] = []
        self.attempts: list[str] = []
        self.dropped: list[str] = []
        self.hold_first = False
        self.held = threading.Event()
        self.release = threading.Event()
        self.bad_signatures = 0
        self.secrets: dict[str, str] = {}
        lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                headers = {k.lower(): v for k, v in self.headers.items()}
                identity = headers.get("topic") or headers.get("webhook-id", "")
                if tls is not None:
                    secret = receiver.secrets.get(self.path, "")
                    try:
                        StandardWebhook(secret).verify(body, headers)
                    except Exception:
                        receiver.bad_signatures += 1
                with lock:
                    receiver.attempts.append(identity)
                    hold = receiver.hold_first and not receiver.held.is_set()
                    if hold:
                        receiver.held.set()
                if hold:
                    receiver.release.wait(60)
                    if _peer_gone(self.connection):
                        receiver.dropped.append(identity)
                        self.close_connection = True
                        return
                with lock:
                    receiver.accepted.append(identity)
                self.send_response(201 if tls is None else 200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.release.set()
        self.server.shutdown()


def _certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for hook.test (the worker trusts it as its CA)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "hook.test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("hook.test")]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


class Worker:
    """One worker process in its own process group, stopped by its id only."""

    def __init__(self, env: dict, log: Path, name: str):
        self.process = subprocess.Popen(
            [sys.executable, str(BASE_DIR / "tests/correspondence/channel_worker.py"), name],
            cwd=BASE_DIR,
            env=env,
            stdout=log.open("a"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


def _device(user, endpoint: str) -> PushSubscription:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return PushSubscription.objects.create(
        user=user,
        endpoint=endpoint,
        p256dh=_b64(public),
        auth=_b64(os.urandom(16)),
        kinds=[kind for kind, _label in push.device_kinds()],
    )


def _b64(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.fixture
def broker(monkeypatch):
    """The test process hands its tasks to the real Redis the worker reads.

    Celery reads ``CELERY_BROKER_URL`` from the environment before its own
    setting, so with CI's variable set the tasks went to CI's broker while
    the worker read this test's own Redis database, and nothing arrived."""
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    saved = (app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_transport_options)
    app.conf.task_always_eager = False
    app.conf.broker_url = REDIS_URL
    app.conf.broker_transport_options = {}
    app._after_fork()
    outbox.reset_pause()
    with app.connection_for_write() as conn:
        for queue in ("celery", "mail", "bots"):
            conn.default_channel.queue_purge(queue)
    yield
    (app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_transport_options) = saved
    app._after_fork()


@pytest.mark.parametrize("channel", ["push", "webhook"])
def test_a_worker_killed_mid_delivery_loses_and_doubles_nothing(
    channel, broker, settings, monkeypatch, tmp_path, make_user
):
    monkeypatch.setattr(reliability, "BASE_LIMIT", reliability.MAX_LIMIT)
    # What the test process writes waits for the relay (no eager delivery here).
    monkeypatch.setattr(outbox, "hand_over_after_commit", lambda *args: None)
    tls = _certificate(tmp_path)
    service, hooks = Receiver(), Receiver(tls=tls)
    keys = push.new_vapid_keys()
    origin = f"http://127.0.0.1:{service.port}"
    settings.VAPID_KEYS = keys
    settings.PUSH_SERVICES = [origin]
    settings.WEBHOOKS_ENABLED = True
    players = [make_user(name) for name in ("ann", "ben", "cy")]
    for i, player in enumerate(players):
        _device(player, f"{origin}/device/{i}")
        hook = Webhook.objects.create(
            user=player,
            kind=Webhook.Kind.GENERIC,
            url=f"https://hook.test:{hooks.port}/in/{i}",
            secret=push.new_webhook_secret(),
            kinds=[kind for kind, _label in push.device_kinds()],
        )
        hooks.secrets[f"/in/{i}"] = hook.secret
    for host, guest in (
        (players[0], players[1]),
        (players[1], players[2]),
        (players[2], players[0]),
    ):
        match = lobby.create_match(
            user=host, game_key="nogi", n_seats=2, options={"first_player": "host"}
        )
        lobby.join_match(user=guest, match=match)
    rows = ChannelDelivery.objects.all()
    assert rows.filter(channel="push").count() >= 6 and rows.filter(channel="webhook").count() >= 6

    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "CELERY_BROKER_URL": REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "SMOKI_VAPID_PRIVATE_KEY": keys["private"],
        "SMOKI_VAPID_PUBLIC_KEY": keys["public"],
        "SMOKI_PUSH_SERVICES": origin,
        "SMOKI_WEBHOOKS": "true",
        "SMOKI_TEST_CA": str(tls[0]),
        "EMAIL_URL": "consolemail://",
    }
    receiver = service if channel == "push" else hooks
    receiver.hold_first = True
    log = tmp_path / "worker.log"
    first = Worker(env, log, "first@%h")
    later = None
    try:
        future = timezone.now() + timedelta(minutes=2)
        assert outbox.relay(now=future)["pushes"] == rows.count()
        assert receiver.held.wait(90), log.read_text()[-3000:]
        first.kill()  # while it waits for the held post's answer
        receiver.release.set()
        deadline = time.monotonic() + 20
        while not receiver.dropped and time.monotonic() < deadline:
            time.sleep(0.2)
        assert receiver.dropped, "the held post's sender was gone"
        stalled = receiver.dropped[0]
        in_flight = [row for row in rows if _identity(row) == stalled]
        assert len(in_flight) == 1 and in_flight[0].status == DeliveryStatus.SENDING, (
            "the worker died mid-delivery"
        )

        later = Worker(env, log, "later@%h")
        # The beat's jobs, a quarter of an hour on: the stuck claim is put
        # back, and the relay hands over what is due.
        clock = timezone.now() + timedelta(seconds=settings.SMOKI["STUCK_AFTER_SECONDS"] + 60)
        assert push.release_stuck_claims(now=clock) == 1
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            clock += timedelta(minutes=2)
            outbox.relay(now=clock)
            if not rows.exclude(status=DeliveryStatus.SENT).exists():
                break
            time.sleep(2)
        unsent = list(rows.exclude(status=DeliveryStatus.SENT).values("pk", "status", "last_error"))
        assert unsent == [], (unsent, log.read_text()[-3000:])
    finally:
        first.kill()
        if later is not None:
            later.kill()
        service.stop()
        hooks.stop()

    assert hooks.bad_signatures == 0
    for name, got in (("push", service), ("webhook", hooks)):
        expected = {_identity(row) for row in rows.filter(channel=name)}
        assert Counter(got.accepted) == Counter(expected), f"{name}: each reached exactly once"
    # Per (recipient, channel, match, kind, version): exactly one.
    reached = Counter(
        (
            row.notification.user_id,
            row.channel,
            row.notification.match_id,
            row.notification.kind,
            row.version,
        )
        for row in rows.select_related("notification")
        if _identity(row) in (service.accepted if row.channel == "push" else hooks.accepted)
    )
    assert set(reached.values()) == {1} and sum(reached.values()) == rows.count()
    # The fault landed: the held post was sent twice with one identity, once answered.
    assert receiver.attempts.count(stalled) == 2
    assert receiver.accepted.count(stalled) == 1


def _identity(row: ChannelDelivery) -> str:
    """The Topic (push) or webhook-id (webhook) Smoki sends the row with."""
    if row.channel == "push":
        return f"n{row.pk}"
    return f"msg_{row.pk}_v{row.version}{row.tag}"
