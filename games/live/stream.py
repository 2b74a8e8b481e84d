"""What a match's events stream sends, as Server-Sent Events.

Only two kinds of event, and never any game content, so a stream can tell
nobody more than the match's public page does:

- ``version`` with the match's version: something changed; the page fetches
  its own panel through the ordinary poll URL (the seat's view, with every
  access check of the poll).
- ``live`` with 1 or 0, sent to a seated player only: whether every seated
  human of the match has the page open now (bots are always there).

A comment line every heartbeat keeps proxies from closing an idle stream
and renews the player's presence mark (``streams.presence``). After
``LIVE_STREAM_SECONDS`` the stream ends and the browser's EventSource
reconnects on its own, so a stream never outlives what it read at its start
(the seats) by long. The stream holds no database connection while it
waits: the caller's ``probe`` (used only without Redis) opens and closes
its own for each look.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from django.conf import settings

from games.live.changes import topic
from streams import bus, presence

#: The message a stream publishes on its topic when its player comes or goes.
PRESENCE = "presence"


@dataclass(frozen=True)
class Watch:
    """Who watches which match: ``member`` is the seated human's user id
    (None for anyone else), ``humans`` every seated human's. While the match
    is still ``gathering`` players nobody is marked present (a creator alone
    at an open table is not playing live), and the stream ends at the first
    change, so the browser reconnects and reads the seats afresh."""

    match_id: int
    member: int | None
    humans: frozenset
    gathering: bool = False


def event(name: str, data: str) -> bytes:
    return f"event: {name}\ndata: {data}\n\n".encode()


async def is_live(match_id: int, humans: frozenset) -> bool:
    """Every seated human has the match's page open (a match of bots alone is
    never live: nobody plays it)."""
    if not humans:
        return False
    return await presence.present(topic(match_id), humans) == set(humans)


def version_of(stamp: str) -> str:
    return stamp.split("-", 1)[0]


async def events(
    watch: Watch, probe: Callable[[], Awaitable[str | None]] | None = None
) -> AsyncIterator[bytes]:
    """The stream's bytes until ``LIVE_STREAM_SECONDS`` have passed.

    ``probe`` returns the match's stamp (None once it is gone); without Redis
    it is asked every ``LIVE_PROBE_SECONDS`` so that a change made by another
    process (a bot's move in the worker) still arrives within a second."""
    conf = settings.SMOKI
    name = topic(watch.match_id)
    seated = watch.member is not None
    beat = conf["LIVE_HEARTBEAT_SECONDS"]
    wait = beat if bus.shared() or probe is None else min(beat, conf["LIVE_PROBE_SECONDS"])
    async with bus.Subscription(name) as subscription:
        # Listening from here on: what commits after this first line is heard.
        yield b"retry: 2000\n\n"
        stamp = await probe() if probe is not None else None
        try:
            if seated:
                await presence.mark(name, watch.member, conf["LIVE_PRESENCE_SECONDS"])
                await bus.apublish(name, PRESENCE)
            live = None
            started = last_beat = time.monotonic()
            while time.monotonic() - started < conf["LIVE_STREAM_SECONDS"]:
                if seated:
                    now_live = await is_live(watch.match_id, watch.humans)
                    if now_live != live:
                        live = now_live
                        yield event("live", "1" if live else "0")
                message = await subscription.next(wait)
                if message is not None and message != PRESENCE:
                    if probe is not None and not bus.shared():
                        stamp = await probe()  # the probe must not announce it again
                    yield event("version", message)
                    if watch.gathering:
                        return
                elif message is None and probe is not None and not bus.shared():
                    fresh = await probe()
                    if fresh is not None and fresh != stamp:
                        stamp = fresh
                        yield event("version", version_of(fresh))
                        if watch.gathering:
                            return
                if time.monotonic() - last_beat >= beat:
                    last_beat = time.monotonic()
                    if seated:
                        await presence.mark(name, watch.member, conf["LIVE_PRESENCE_SECONDS"])
                    yield b": beat\n\n"
        finally:
            if seated:
                await presence.clear(name, watch.member)
                await bus.apublish(name, PRESENCE)
