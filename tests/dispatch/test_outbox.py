"""The outbox: the broker only speeds work up; the relay hands over what it lost,
and a broker that is down or frozen never fails or stalls the request."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from config.celery import app
from games.correspondence import delivery, digests
from games.dispatch import outbox
from games.lobby import services as lobby
from games.models import DeliveryStatus, Notification, NotificationKind
from games.play import services

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def lost_hand_overs():
    """Every hand-over after a commit is lost, as if the broker dropped it."""
    with mock.patch.object(outbox, "hand_over_after_commit"):
        yield


def _two_player_match(alice, bob):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    return match


def test_the_relay_hands_over_rows_whose_hand_over_was_lost(
    alice, bob, lost_hand_overs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _two_player_match(alice, bob)
    # alice moves first: her your-turn email says the match started, so her
    # "match started" row is in the bell only.
    skipped = Notification.objects.get(status=DeliveryStatus.SKIPPED)
    assert (skipped.user, skipped.kind) == (alice, "match_started")
    rows = Notification.objects.exclude(pk=skipped.pk)
    assert set(rows.values_list("status", flat=True)) == {DeliveryStatus.PENDING}
    assert mail.outbox == []
    assert outbox.relay()["notifications"] == 0, "the commit's own hand-over gets a head start"
    with time_machine.travel(timezone.now() + outbox.relay_after() + timedelta(seconds=1)):
        assert outbox.relay()["notifications"] == rows.count()
        assert outbox.relay()["notifications"] == 0, "handed over once, not every run"
    assert set(rows.values_list("status", flat=True)) == {DeliveryStatus.SENT}
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]


def test_the_relay_runs_from_the_beat():
    from django.conf import settings

    tasks = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks["games.tasks.relay_outbox"] <= 60


def test_deliveries_and_bots_have_their_own_queues():
    """A hanging mail server can only hold the mail workers, and a bot's search
    only the bots' workers, never the sweep's."""
    route = app.amqp.router.route
    for name in [
        "deliver_notification",
        "deliver_notifications",
        "send_digest",
        "send_daily_digests",
    ]:
        assert route({}, f"games.tasks.{name}")["queue"].name == "mail", name
    assert route({}, "games.tasks.play_bot_turns")["queue"].name == "bots"
    for name in [
        "sweep_deadlines",
        "wake_matches",
        "relay_outbox",
        "release_stuck_claims",
    ]:
        assert route({}, f"games.tasks.{name}")["queue"].name == "celery", name


# -- A broker that is down or frozen ---------------------------------------------------


class FrozenServer:
    """Accepts connections and never answers (Redis after SIGSTOP, a hung SMTP server)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(50)
        self.port = self.sock.getsockname()[1]
        self.accepted = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while True:
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self):
        for conn in self.accepted:
            conn.close()
        self.sock.close()


@pytest.fixture
def real_broker(monkeypatch):
    """Eager mode off, with the broker options production uses; yields a
    function that points the app at a broker URL."""
    # Celery reads this variable before its own setting.
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    saved = (app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_transport_options)
    app.conf.task_always_eager = False
    app.conf.broker_transport_options = production_settings({})["broker_transport_options"]
    outbox.reset_pause()

    def point_at(url):
        app.conf.broker_url = url
        app._after_fork()  # forget pooled connections to the previous broker

    yield point_at
    app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_transport_options = saved
    app._after_fork()
    outbox.reset_pause()


def production_settings(env: dict) -> dict:
    """Settings as a production process builds them from its environment."""
    code = (
        "import json, config.settings as s; print(json.dumps({"
        "'broker_transport_options': getattr(s, 'CELERY_BROKER_TRANSPORT_OPTIONS', {}),"
        "'mailers': s.MAILERS, 'publish_retry': s.CELERY_TASK_PUBLISH_RETRY}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("EMAIL_URL", "CELERY_BROKER_URL")}
    environment = {**base, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0", **env}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


class Stuck(Exception):
    pass


@contextlib.contextmanager
def fails_if_stuck(seconds: int):
    """Turn a hang into a test failure (a generous bound, not a timing)."""

    def alarm(signum, frame):
        raise Stuck(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("broker", ["refusing", "frozen"])
def test_a_move_is_answered_when_the_broker_is_down_or_frozen(
    broker, alice, bob, nogi, client, real_broker, django_capture_on_commit_callbacks
):
    """The move is saved and answered normally; its emails wait as pending rows
    for the relay. Before, a refused hand-over answered 500 after the commit
    and a frozen broker held the request until a worker was killed."""
    match = _two_player_match(alice, bob)
    match.refresh_from_db()
    frozen = FrozenServer()
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    port = frozen.port if broker == "frozen" else closed_port
    real_broker(f"redis://127.0.0.1:{port}/0")
    client.force_login(alice)
    action = nogi.legal_actions(match.state, 0)[0]
    # Generous: the broker timeout is 2 s. Without it this waits forever.
    with fails_if_stuck(60), django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/m/{match.pk}/act/", {"action": json.dumps(action), "version": match.version}
        )
    frozen.close()
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == 1
    row = Notification.objects.get(user=bob, kind=NotificationKind.YOUR_TURN)
    assert row.status == DeliveryStatus.PENDING and row.next_attempt_at is not None


def test_after_a_failed_hand_over_the_process_leaves_work_to_the_relay(real_broker):
    """One request pays for the broker timeout, the next ones do not wait at all."""
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    real_broker(f"redis://127.0.0.1:{port}/0")
    task = outbox.task("games.tasks.deliver_notification")
    with mock.patch.object(task, "apply_async", wraps=task.apply_async) as publish:
        assert outbox.hand_over("games.tasks.deliver_notification", 1) is False
        assert outbox.hand_over("games.tasks.deliver_notification", 2) is False
    assert publish.call_count == 1


def test_production_broker_and_smtp_settings_have_short_timeouts():
    built = production_settings({"EMAIL_URL": "smtp://127.0.0.1:2525"})
    options = built["broker_transport_options"]
    assert 0 < options["socket_connect_timeout"] <= 5 and 0 < options["socket_timeout"] <= 5
    assert built["publish_retry"] is False
    assert 0 < built["mailers"]["default"]["OPTIONS"]["timeout"] <= 60


def test_a_mail_server_that_never_answers_does_not_hold_the_worker(alice, bob, settings):
    """With the production SMTP options, a server that accepts and never
    answers costs one timeout; the row waits for its retry."""
    match = _two_player_match(alice, bob)
    row = Notification.objects.get(match=match, user=alice, kind=NotificationKind.YOUR_TURN)
    Notification.objects.exclude(pk=row.pk).update(status=DeliveryStatus.SKIPPED)
    frozen = FrozenServer()
    built = production_settings(
        {"EMAIL_URL": f"smtp://127.0.0.1:{frozen.port}", "SMOKI_SMTP_TIMEOUT": "1"}
    )
    settings.MAILERS = built["mailers"]
    with fails_if_stuck(60):
        status = delivery.deliver(row.pk)
    frozen.close()
    row.refresh_from_db()
    assert status == DeliveryStatus.PENDING
    assert "timed out" in row.last_error.lower() and row.attempts == 1


# -- Digests -----------------------------------------------------------------------------


@pytest.fixture
def digest_rows(alice, bob):
    alice.profile.email_match_events = "digest"
    alice.profile.email_your_turn = "digest"  # else it tells the start at once
    alice.profile.save()
    _two_player_match(alice, bob)
    rows = Notification.objects.filter(user=alice, status=DeliveryStatus.DIGEST)
    assert rows.exists()
    Notification.objects.filter(status=DeliveryStatus.PENDING).update(status=DeliveryStatus.SKIPPED)
    mail.outbox.clear()
    return rows


def test_a_digest_interrupted_by_a_crash_is_shown_as_failed(digest_rows):
    """Killed between the claim and the send: not "sent in a digest" forever
    but failed, for a moderator to look at (whether it left is unknown)."""

    class WorkerKilled(BaseException):
        pass

    with (
        mock.patch.object(mail.EmailMultiAlternatives, "send", side_effect=WorkerKilled),
        pytest.raises(WorkerKilled),
    ):
        digests.send_all()
    assert set(digest_rows.model.objects.values_list("status", flat=True)) >= {"in_digest"}
    assert delivery.release_stuck_claims(timezone.now() + timedelta(hours=1)) >= 1
    row = Notification.objects.filter(user__username="alice", kind="match_started").get()
    assert row.status == DeliveryStatus.FAILED and "digest" in row.last_error
    assert row.sent_at is None


def test_a_failed_digest_is_retried_by_the_relay_and_sent_once(digest_rows):
    with mock.patch.object(mail.EmailMultiAlternatives, "send", side_effect=OSError("down")):
        assert digests.send_all() == 0
    row = Notification.objects.get(user__username="alice", kind="match_started")
    assert row.status == DeliveryStatus.DIGEST and "down" in row.last_error
    assert outbox.relay()["digests"] == 0, "not before its back-off"
    with time_machine.travel(row.next_attempt_at + timedelta(seconds=1)):
        assert outbox.relay()["digests"] == 1
    row.refresh_from_db()
    assert (row.status, row.last_error) == (DeliveryStatus.IN_DIGEST, "")
    assert row.sent_at is not None
    assert [m.subject for m in mail.outbox] == ["[Smoki] Your daily Smoki digest"]
    assert digests.send_all() == 0


# -- Bots ------------------------------------------------------------------------------


def test_the_relay_hands_over_a_bot_turn_whose_hand_over_was_lost(
    alice, nogi, lost_hand_overs, django_capture_on_commit_callbacks
):
    """Before, a bot whose task was lost waited for the 3-day deadline."""
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.fill_with_bots(user=alice, match=match)
    match.refresh_from_db()
    while nogi.current_seats(match.state) == [0]:
        action = nogi.legal_actions(match.state, 0)[0]
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_action(match, alice, action, match.version)
        match.refresh_from_db()
    assert match.status == "active" and match.bots_due_at is not None
    version = match.version
    assert outbox.relay()["bots"] == 0, "the commit's own hand-over gets a head start"
    with time_machine.travel(timezone.now() + outbox.relay_after() + timedelta(seconds=1)):
        assert outbox.relay()["bots"] == 1  # the bot plays (eagerly)
    match.refresh_from_db()
    assert match.version > version
    assert match.moves.filter(actor_kind="bot").exists()
    if match.status == "active" and 1 not in nogi.current_seats(match.state):
        assert match.bots_due_at is None, "nothing left for the relay"


# -- Permanent and temporary refusals ---------------------------------------------------


class RefusingServer:
    """A real SMTP server (aiosmtpd) answering ``answer`` to every message,
    or to every recipient with ``at="rcpt"``."""

    def __init__(self, answer: str, at: str = "data"):
        from aiosmtpd.controller import Controller

        server = self

        class Handler:
            async def handle_RCPT(self, srv, session, envelope, address, options):
                server.seen += 1
                if at == "rcpt":
                    return answer
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, srv, session, envelope):
                return answer

        self.seen = 0
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def close(self):
        self.controller.stop()


@pytest.mark.parametrize(
    "answer, at",
    [
        ("550 5.1.1 No such mailbox here", "rcpt"),
        ("554 5.7.1 Message rejected as spam", "data"),
    ],
)
def test_a_permanent_refusal_fails_the_email_at_once_with_the_reason(
    alice, bob, settings, answer, at
):
    match = _two_player_match(alice, bob)
    row = Notification.objects.get(match=match, user=alice, kind=NotificationKind.YOUR_TURN)
    Notification.objects.exclude(pk=row.pk).update(status=DeliveryStatus.SKIPPED)
    server = RefusingServer(answer, at)
    try:
        settings.MAILERS = production_settings({"EMAIL_URL": f"smtp://127.0.0.1:{server.port}"})[
            "mailers"
        ]
        assert delivery.deliver(row.pk) == DeliveryStatus.FAILED
    finally:
        server.close()
    assert server.seen == 1
    row.refresh_from_db()
    assert row.status == DeliveryStatus.FAILED and row.attempts == 1
    assert row.next_attempt_at is None, "never retried on its own"
    assert answer.split(" ", 1)[1] in row.last_error and answer[:3] in row.last_error
    assert outbox.relay()["notifications"] == 0


@pytest.mark.parametrize("answer", ["451 4.3.0 Try again later", "421 Service not available"])
def test_a_temporary_refusal_is_retried(alice, bob, settings, answer):
    match = _two_player_match(alice, bob)
    row = Notification.objects.get(match=match, user=alice, kind=NotificationKind.YOUR_TURN)
    Notification.objects.exclude(pk=row.pk).update(status=DeliveryStatus.SKIPPED)
    server = RefusingServer(answer)
    try:
        settings.MAILERS = production_settings({"EMAIL_URL": f"smtp://127.0.0.1:{server.port}"})[
            "mailers"
        ]
        assert delivery.deliver(row.pk) == DeliveryStatus.PENDING
    finally:
        server.close()
    row.refresh_from_db()
    assert row.status == DeliveryStatus.PENDING and row.next_attempt_at is not None


def test_a_digest_refused_for_good_fails_at_once(digest_rows, settings):
    server = RefusingServer("550 5.1.1 No such mailbox here", at="rcpt")
    try:
        settings.MAILERS = production_settings({"EMAIL_URL": f"smtp://127.0.0.1:{server.port}"})[
            "mailers"
        ]
        assert digests.send_all() == 0
    finally:
        server.close()
    row = Notification.objects.get(user__username="alice", kind="match_started")
    assert row.status == DeliveryStatus.FAILED
    assert "550" in row.last_error and "No such mailbox" in row.last_error
    assert row.next_attempt_at is None
