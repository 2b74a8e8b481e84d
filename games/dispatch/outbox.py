"""Handing work to the broker, and the relay that makes the broker optional.

Every piece of follow-up work is first written to the database in the same
transaction as the change that causes it: a ``pending`` notification row, or
a match's ``bots_due_at``. After the commit it is handed to the broker so a
worker starts at once, but that hand-over is only an accelerator: it never
raises into the request and never waits long (short broker timeouts in
``config/settings.py``; after a failure this process stops trying for a
while). Whatever the broker lost, or never got, the relay (a beat job every
minute) hands over again once it has waited ``RELAY_AFTER``.
"""

from __future__ import annotations

import importlib
import logging
import time
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import ChannelDelivery, DeliveryStatus, Match, MatchStatus, Notification

logger = logging.getLogger(__name__)

_broker_down_until = 0.0


def relay_after() -> timedelta:
    """How long a row waits for its own hand-over before the relay steps in."""
    return timedelta(seconds=settings.SMOKI["RELAY_AFTER_SECONDS"])


def hand_over(task_name: str, *args) -> bool:
    """Queue a task by name. Returns whether the broker took it.

    Never raises: the work is already recorded in the database, so a broker
    that refuses, hangs or is missing only delays it until the relay runs.
    After a failure, hand-overs in this process are skipped for
    ``BROKER_PAUSE_SECONDS``, so requests do not each wait for a dead broker.
    """
    global _broker_down_until
    app = current_app
    eager = app.conf.task_always_eager
    if not eager and time.monotonic() < _broker_down_until:
        logger.info("broker paused: %s%r left to the relay", task_name, args)
        return False
    try:
        task(task_name).apply_async(args=args, retry=False)
    except Exception:
        if not eager:
            _broker_down_until = time.monotonic() + settings.SMOKI["BROKER_PAUSE_SECONDS"]
        logger.warning("could not queue %s%r; the relay will", task_name, args, exc_info=True)
        return False
    return True


def task(name: str):
    """The task registered under ``name``, importing its module if needed
    (a web process has not imported the tasks modules the worker discovers)."""
    if name not in current_app.tasks:
        importlib.import_module(name.rpartition(".")[0])
    return current_app.tasks[name]


def hand_over_after_commit(task_name: str, *args) -> None:
    transaction.on_commit(lambda: hand_over(task_name, *args), robust=True)


def reset_pause() -> None:
    """Try the broker again at the next hand-over (tests, and a worker's start)."""
    global _broker_down_until
    _broker_down_until = 0.0


# -- The relay --------------------------------------------------------------------


def relay(now=None, batch: int = 500) -> dict[str, int]:
    """Hand over again what is still waiting: notifications and push
    deliveries due for a (re)try, digests due for a retry, and matches whose
    bots have not moved.

    Rows are picked under ``SKIP LOCKED`` and pushed ``RELAY_AFTER`` into the
    future before they are handed over, so two relays (two beats) never queue
    the same row twice, and a row is queued again only if it is still waiting
    a while later. Delivery itself is safe to run twice anyway.
    """
    now = now or timezone.now()
    later = now + relay_after()
    counts = {"notifications": 0, "digests": 0, "bots": 0, "pushes": 0}
    for pk in _take(
        Notification.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now),
        "next_attempt_at",
        later,
        batch,
    ):
        hand_over("games.tasks.deliver_notification", pk)
        counts["notifications"] += 1
    for pk in _take(
        ChannelDelivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now),
        "next_attempt_at",
        later,
        batch,
    ):
        hand_over("games.tasks.deliver_push", pk)
        counts["pushes"] += 1
    digest_rows = _take(
        Notification.objects.filter(status=DeliveryStatus.DIGEST, next_attempt_at__lte=now),
        "next_attempt_at",
        later,
        batch,
    )
    for user_id in sorted(
        set(Notification.objects.filter(pk__in=digest_rows).values_list("user_id", flat=True))
    ):
        hand_over("games.tasks.send_digest", user_id)
        counts["digests"] += 1
    for match_id in _take(
        Match.objects.filter(status=MatchStatus.ACTIVE, bots_due_at__lte=now - relay_after()),
        "bots_due_at",
        now,
        batch,
    ):
        hand_over("games.tasks.play_bot_turns", match_id)
        counts["bots"] += 1
    return counts


def _take(queryset, field: str, until, batch: int) -> list[int]:
    """Lock up to ``batch`` rows (skipping rows another relay holds), set
    ``field`` to ``until`` and commit. Returns their ids."""
    with transaction.atomic():
        ids = list(
            queryset.select_for_update(skip_locked=True, of=("self",))
            .order_by(field)
            .values_list("pk", flat=True)[:batch]
        )
        if ids:
            queryset.model.objects.filter(pk__in=ids).update(**{field: until})
    return ids
