"""Publish and subscribe on named topics (``match:12``).

A message is a short string that says *that* something changed (a version
number), never what: a stream reacts by letting its page fetch what its
reader may see through the ordinary pages.

Two carriers:

- With ``SMOKI["REDIS_URL"]`` (production and CI), ``publish`` sends the
  message with Redis ``PUBLISH`` on ``smoki:topic:<topic>``, and each process
  serving streams listens with ONE pattern subscription for all topics
  (``PSUBSCRIBE smoki:topic:*``) and hands each message to the streams of
  its topic in that process. A site's messages are a few a second, so every
  process hearing all of them costs nothing, and 500 streams cost one Redis
  connection, not 500.
- Without it (the embedded defaults), a message published in the process
  that serves the stream reaches it at once (the same in-process queues), and
  a stream whose changes may come from another process (a bot's move in the
  worker) also checks its own source every few tenths of a second
  (``shared()`` is False: the caller's probe, see ``games.live.stream``).

Publishing never raises: a lost message costs a page the poll's few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from functools import partial

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

PREFIX = "smoki:topic:"

# Topic -> the queues of the streams waiting on it in this process, each with
# the event loop it belongs to (a publish may come from any thread).
_listeners: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = {}
_listeners_lock = threading.Lock()
# The pattern subscription of each event loop of this process (Redis only).
_readers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
_publisher = None


def redis_url() -> str:
    return settings.SMOKI.get("REDIS_URL", "")


def shared() -> bool:
    """Whether messages published by any process reach this one (Redis)."""
    return bool(redis_url())


def _redis_publisher():
    """One synchronous client per process for publishing (thread-safe pool),
    with short timeouts: a move must never wait on Redis."""
    global _publisher
    url = redis_url()
    if _publisher is None or _publisher[0] != url:
        import redis

        _publisher = (
            url,
            redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5),
        )
    return _publisher[1]


#: After a failed publish, this process leaves Redis alone this long: a move's
#: answer must not wait half a second on a Redis that is down, move after move.
PAUSE_SECONDS = 30.0
_paused_until = 0.0


def publish(topic: str, message: str) -> None:
    """Tell every stream on ``topic`` (in every process with Redis, in this
    one without). Never raises; while Redis is out of reach (``PAUSE_SECONDS``
    after a failure) nothing is sent and the pages poll."""
    global _paused_until
    if not shared():
        deliver(topic, message)
        return
    if time.monotonic() < _paused_until:
        return
    try:
        _redis_publisher().publish(PREFIX + topic, message)
    except Exception:  # noqa: BLE001 - a lost message is covered by the poll
        _paused_until = time.monotonic() + PAUSE_SECONDS
        log.warning("Could not publish on %s; not trying for %d s", topic, PAUSE_SECONDS)


async def apublish(topic: str, message: str) -> None:
    """``publish`` from a stream's event loop, without blocking it on Redis."""
    await asyncio.to_thread(publish, topic, message)


def publish_on_commit(topic: str, message: str) -> None:
    """``publish`` once the caller's transaction commits (at once outside
    one): a stream must never announce a change its page cannot read yet."""
    transaction.on_commit(partial(publish, topic, message))


def deliver(topic: str, message: str) -> None:
    """Hand ``message`` to this process's streams on ``topic``, from any thread."""
    with _listeners_lock:
        waiting = list(_listeners.get(topic, ()))
    for loop, queue in waiting:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, message)
        except RuntimeError:  # that loop is closed: its stream is gone
            continue


class Subscription:
    """The messages of one topic for one stream, as an async context manager:

    async with bus.Subscription("match:12") as subscription:
        message = await subscription.next(timeout=10)   # None on timeout
    """

    def __init__(self, topic: str):
        self.topic = topic
        self.queue: asyncio.Queue = asyncio.Queue()
        self.loop: asyncio.AbstractEventLoop | None = None

    async def __aenter__(self) -> Subscription:
        self.loop = asyncio.get_running_loop()
        with _listeners_lock:
            _listeners.setdefault(self.topic, set()).add((self.loop, self.queue))
        if shared():
            await _ensure_reader(self.loop)
        return self

    async def __aexit__(self, *exc) -> None:
        with _listeners_lock:
            queues = _listeners.get(self.topic)
            if queues is not None:
                queues.discard((self.loop, self.queue))
                if not queues:
                    del _listeners[self.topic]

    async def next(self, timeout: float) -> str | None:
        """The next message, or None after ``timeout`` seconds without one.
        Several messages waiting are taken together (the last one is returned):
        a page needs to fetch once, whatever it missed."""
        try:
            message = await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None
        while not self.queue.empty():
            message = self.queue.get_nowait()
        return message


async def stop_reader() -> None:
    """End this event loop's subscription (a loop of one stream, closing)."""
    reader = _readers.pop(asyncio.get_running_loop(), None)
    if reader is not None:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


async def _ensure_reader(loop: asyncio.AbstractEventLoop) -> None:
    reader = _readers.get(loop)
    if reader is None or reader.done():
        ready = loop.create_future()
        _readers[loop] = loop.create_task(_read_forever(ready))
        # A Redis out of reach must not hold the stream: its page polls.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(ready), 2)


async def _read_forever(ready: asyncio.Future) -> None:
    """Listen to every topic for this event loop's streams; on a lost
    connection, try again every second (meanwhile pages poll)."""
    import redis.asyncio as aredis

    while True:
        client = aredis.Redis.from_url(redis_url(), socket_connect_timeout=2)
        pubsub = client.pubsub()
        try:
            await pubsub.psubscribe(PREFIX + "*")
            if not ready.done():
                ready.set_result(True)
            async for item in pubsub.listen():
                if item.get("type") != "pmessage":
                    continue
                topic = item["channel"].decode()[len(PREFIX) :]
                deliver(topic, item["data"].decode())
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - Redis went away: retry
            log.warning("Lost the streams' Redis subscription", exc_info=True)
            if not ready.done():
                ready.set_result(False)
            await asyncio.sleep(1)
        finally:
            try:
                await pubsub.aclose()
                await client.aclose()
            except Exception:  # noqa: BLE001
                pass
