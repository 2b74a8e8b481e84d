"""The Celery application. Tasks live in each app's tasks.py."""

import logging
import os
import time

from celery import Celery
from celery import Task as BaseTask
from celery.signals import worker_ready
from celery.worker.consumer import Consumer as BaseConsumer
from celery.worker.request import Request as BaseRequest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger("config.celery")

#: The longest wait between two tries of an acknowledgement (seconds).
ACK_RETRY_MAX_SECONDS = 10.0
#: The worker's timer (its event loop's), where failed acknowledgements wait.
_worker_timer = None


@worker_ready.connect
def _keep_worker_timer(sender=None, **kwargs):
    global _worker_timer
    _worker_timer = getattr(sender, "timer", None)


def acknowledge(message, errors: tuple, attempt: int = 1) -> None:
    """Acknowledge ``message``; if the broker does not answer, try again
    later on the worker's event loop, until it does or the channel the
    message came on is closed (the connection was lost and renewed: the
    broker then delivers the message again, and every task is safe to run
    twice).

    Kombu's own acknowledgement only logs a failure ("Couldn't ack ...") and
    leaves the message counted as unacknowledged on its channel for good: a
    Redis frozen for longer than the socket timeout took one prefetch slot per
    task finishing meanwhile, and once they were all taken the worker,
    connected and answering pings, received nothing more."""
    if message.acknowledged or _channel_gone(message.channel):
        return
    try:
        message.ack()
    except AttributeError as exc:
        # The channel's transport let go of its broker meanwhile (a lost
        # connection): as closed.
        if not _channel_gone(message.channel):
            raise
        logger.warning(
            "Not acknowledged, its connection is gone: %s (%r)", message.delivery_tag, exc
        )
    except errors as exc:
        timer = _worker_timer
        if timer is None:  # not in a worker: nothing to try it later on
            logger.critical("Couldn't acknowledge %s: %r", message.delivery_tag, exc)
            return
        delay = min(ACK_RETRY_MAX_SECONDS, 0.5 * 2**attempt)
        logger.warning(
            "Couldn't acknowledge %s (%r); trying again in %g s", message.delivery_tag, exc, delay
        )
        timer.call_after(delay, acknowledge, (message, errors, attempt + 1))


def _channel_gone(channel) -> bool:
    """Whether ``channel`` belongs to a connection that was lost: closed, or
    its transport no longer linked to the broker connection."""
    if channel is None or getattr(channel, "closed", False):
        return True
    transport = getattr(channel, "connection", None)
    return transport is None or getattr(transport, "client", True) is None


class Request(BaseRequest):
    """A task request whose late acknowledgement is retried (``acknowledge``)."""

    def acknowledge(self):
        if not self.acknowledged:
            self.acknowledged = True
            acknowledge(self.message, self.connection_errors)


class Task(BaseTask):
    Request = "config.celery:Request"


class Consumer(BaseConsumer):
    """The worker's consumer, surviving the loss of its broker connection.

    On a lost connection Celery 5.7 collects the connection (kombu closes its
    channels and drops the transport's link back to it) and then closes it
    again. When tasks were being run unacknowledged (late acknowledgement,
    every prefetch slot busy, so no BRPOP outstanding), the first close
    could not give them back to the broker that is down, and the second one
    tries once more through a transport that no longer knows its broker:
    ``AttributeError: 'NoneType' object has no attribute 'hostname'``, which
    is no connection error, so it escaped the reconnect and stopped the worker
    ("Unrecoverable error"). That second close of a dead connection is only
    tidying up: its failure is logged and the worker reconnects. The
    messages stay in Redis's unacknowledged set and are delivered again
    after the visibility timeout (and the outbox relay hands their work over
    again long before)."""

    def on_connection_error_after_connected(self, exc):
        connection = self.connection
        if connection is not None:
            close = connection.close

            def close_quietly():
                try:
                    close()
                except Exception as error:  # noqa: BLE001 - a dead connection's teardown
                    logger.warning("Closing the lost broker connection failed: %r", error)

            connection.close = close_quietly
        super().on_connection_error_after_connected(exc)


app = Celery("smoki", task_cls=Task)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="smoki.echo", bind=True, ignore_result=True, acks_late=True)
def echo(self, key: str, seconds: float = 0.0) -> None:
    """The workers' health check (config/workers.py): sent to one queue, it
    writes ``key`` to the broker's Redis with the name of the worker that ran
    it, so the sender sees the queue consumed end to end (taken, run and
    acknowledged by a live worker). ``seconds`` keeps it running that long
    first, and an empty ``key`` writes nothing (tests keep tasks in flight
    with it while the broker fails)."""
    import redis

    if seconds:
        time.sleep(seconds)
    if not key:
        return
    client = redis.Redis.from_url(app.conf.broker_url, socket_timeout=5, socket_connect_timeout=5)
    try:
        client.set(key, self.request.hostname or "", ex=600)
    finally:
        client.close()
