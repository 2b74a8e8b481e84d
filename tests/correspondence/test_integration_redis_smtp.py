"""Real parts end to end: a Celery worker on the real Redis broker delivers
notifications to a real SMTP server (aiosmtpd), and the beat's sweep acts on
a missed deadline. Time is moved with time-machine.

Needs Redis at SMOKI_REDIS_URL (default redis://127.0.0.1:6379/0) and
PostgreSQL (DATABASE_URL); .ci/run provides both.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from datetime import timedelta

import pytest
import time_machine
from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.db import connection

from config.celery import app
from games.lobby import services as lobby
from games.models import ActorKind, DeliveryStatus, Move, Notification
from games.tasks import relay_outbox, sweep_deadlines

REDIS_URL = os.environ.get("SMOKI_REDIS_URL", "redis://127.0.0.1:6379/0")


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
    # The worker's threads write while the test reads: SQLite's shared-cache
    # in-memory test database answers "table is locked" to that, PostgreSQL
    # (what production runs) does not.
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL: run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/smoki",
    ),
]


class Inbox:
    """An aiosmtpd handler that keeps every message and can refuse the first few."""

    def __init__(self, refuse_first: int = 0):
        self.messages: list[tuple[list[str], str]] = []
        self.refuse_left = refuse_first
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.refuse_left:
                self.refuse_left -= 1
                return "451 Try again later"
            self.messages.append((envelope.rcpt_tos, envelope.content.decode("utf8", "replace")))
        return "250 Message accepted for delivery"

    def subjects_for(self, address: str) -> list[str]:
        found = []
        for rcpts, content in self.messages:
            if address in rcpts:
                for line in content.splitlines():
                    if line.startswith("Subject:"):
                        found.append(line[len("Subject:") :].strip())
        return found


@pytest.fixture
def inbox(settings):
    handler = Inbox(refuse_first=1)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": controller.port, "timeout": 5},
        }
    }
    settings.SMOKI = {**settings.SMOKI, "RETRY_BASE_SECONDS": 1}
    yield handler
    controller.stop()


@pytest.fixture
def worker():
    """A real worker thread consuming from Redis, with eager mode off."""
    from celery.contrib.testing.worker import start_worker

    saved = (
        app.conf.task_always_eager,
        app.conf.broker_url,
        app.conf.broker_transport_options,
    )
    app.conf.task_always_eager = False
    app.conf.broker_url = REDIS_URL
    app.conf.broker_transport_options = {}
    _drop_cached_connections()
    with app.connection_for_write() as conn:
        for queue in ("celery", "mail", "bots"):
            conn.default_channel.queue_purge(queue)
    with start_worker(
        app,
        pool="threads",
        concurrency=2,
        perform_ping_check=False,
        queues=["celery", "mail", "bots"],
    ):
        yield
    (
        app.conf.task_always_eager,
        app.conf.broker_url,
        app.conf.broker_transport_options,
    ) = saved
    _drop_cached_connections()


def _drop_cached_connections():
    """Earlier tests may have built the app's producer pool for the default
    broker; forget it (as Celery does after a fork) so the next one is built
    from the broker configured now. The pools themselves stay open: kombu
    shares them by broker URL with every later user of that broker."""
    app._after_fork()


def wait_for(predicate, timeout=30.0):
    """Wait, running the beat's outbox relay now and then (retries are its job)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        relay_outbox.delay()
        time.sleep(0.5)
    return False


def test_worker_delivers_through_smtp_and_the_sweep_times_out(inbox, worker):
    User = get_user_model()
    ann = User.objects.create_user("ann", email="ann@example.com")
    ben = User.objects.create_user("ben", email="ben@example.com")
    match = lobby.create_match(
        user=ann,
        game_key="nogi",
        n_seats=2,
        options={"first_player": "host"},
        time_per_move=timedelta(hours=12),
    )
    lobby.join_match(user=ben, match=match)

    # Your turn (ann, which says the match started) and started (ben): the
    # first attempt was refused with 451, retried when the relay found it
    # due, and every email arrived once. Ann's own "started" is not sent: the
    # your-turn email of the same moment says it.
    assert wait_for(lambda: len(inbox.messages) == 2), (
        inbox.messages,
        list(Notification.objects.values_list("kind", "status", "attempts", "last_error")),
    )
    assert inbox.subjects_for("ann@example.com") == [
        f"[Smoki] Your turn in Nogi za pas! #{match.pk}",
    ]
    assert inbox.subjects_for("ben@example.com") == [
        f"[Smoki] Nogi za pas! #{match.pk} has started"
    ]
    rows = Notification.objects.filter(match=match)
    assert wait_for(
        lambda: (
            set(rows.values_list("status", flat=True))
            == {DeliveryStatus.SENT, DeliveryStatus.SKIPPED}
        )
    )
    assert sum(rows.values_list("attempts", flat=True)) == 3, "one refusal, one retry"

    # Ann goes silent. Twelve hours and a minute later the beat's sweep runs.
    match.refresh_from_db()
    with time_machine.travel(match.deadline + timedelta(minutes=1), tick=True):
        sweep_deadlines.delay()
        assert wait_for(lambda: Move.objects.filter(match=match, seq=1).exists())
        move = Move.objects.get(match=match, seq=1)
        assert (move.seat, move.actor_kind) == (0, ActorKind.TIMEOUT)
        assert wait_for(lambda: len(inbox.messages) == 4), inbox.subjects_for("ann@example.com")
    subjects = inbox.subjects_for("ann@example.com")
    assert subjects.count(f"[Smoki] You ran out of time in Nogi za pas! #{match.pk}") == 1
    # The 2-hour reminder fell due while no sweep ran; the late sweep sends
    # only what is still true, so no reminder beside "you ran out of time".
    assert subjects.count(f"[Smoki] Reminder: your move in Nogi za pas! #{match.pk}") == 0
    assert (
        inbox.subjects_for("ben@example.com")[-1]
        == f"[Smoki] Your turn in Nogi za pas! #{match.pk}"
    )
    # A second sweep finds nothing to do and sends nothing more.
    sweep_deadlines.apply()
    time.sleep(1)
    assert len(inbox.messages) == 4
