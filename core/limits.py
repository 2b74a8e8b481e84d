"""Rate limits: atomic counters in the cache every web process shares.

Each limit counts hits in fixed windows (``count`` per ``seconds``) under a
cache key per subject and window. On Redis (production, CACHE_URL) one
script creates the counter with its expiry if missing and raises it
(``config.cache.ResilientRedisCache.count_and_get``: one round trip); in Django's
local-memory cache (the embedded default, which one runserver process
shares between its threads) ``cache.add`` creates it and ``cache.incr``
raises it. Both are atomic, so parallel requests can never all slip under
a limit. A hit is counted before the write it guards
and only once the request was otherwise valid, so a refusal for bad input
costs nothing. A fixed window lets a burst of at most twice ``count``
straddle two windows; that is the price of one counter per subject.

While Redis is out of reach (``config/cache.py``) the counters are kept in
the process's own memory, with a logged warning: limits keep holding, but
each web process counts on its own until Redis answers again (so a limit is
at most as many times looser as there are web processes).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from core.errors import TooFast


@dataclass(frozen=True)
class Limit:
    name: str
    count: int
    seconds: int


CHAT = Limit("chat", 6, 60)  # messages per player and match
REPLAY_COMMENT = Limit("replay-comment", 6, 60)  # replay comments per user and match
REPORT = Limit("report", 5, 3600)  # reports per user
MATCH = Limit("match", 10, 3600)  # new matches per user
INVITE_SENT = Limit("invite-sent", 20, 3600)  # invitations per inviting user
INVITE_RECEIVED = Limit("invite-received", 3, 3600)  # invitations per invited user
# Moves from email links per player: the link's signed player, whatever the
# address (the links work logged out: an address could be changed at will
# and is shared by a household). Only a valid link's move is counted; a
# stale, expired or forged one is refused before (games/email_moves.py).
EMAIL_MOVE = Limit("email-move", 30, 600)  # moves from email links per player
# "Let's play live now": once per match in ten minutes, whoever offers it, so
# the other players get at most one such email or bell entry a window.
LIVE_OFFER = Limit("live-offer", 1, 600)


def hit(limit: Limit, *subject) -> bool:
    """Count one hit for ``subject``; True while it is within the limit."""
    return past_limit((limit, *subject)) is None


def past_limit(*hits) -> Limit | None:
    """Count one hit for each ``(limit, *subject)`` of ``hits``, all in one
    round trip on Redis; the first of their limits the hit took past its
    count, or None when every one is within."""
    return past_limit_reading(hits)[0]


def past_limit_reading(hits, reader=None, keys=()) -> tuple[Limit | None, dict]:
    """``past_limit(*hits)``, and what the cache ``reader`` holds under
    ``keys`` (its ``get_many``), in the same round trip on Redis: the API
    reads a token's kept copy while it counts the token's request."""
    now = time.time()
    keyed = [
        (
            "limit:{}:{}:{}".format(
                limit.name, ":".join(str(part) for part in subject), int(now // limit.seconds)
            ),
            limit.seconds + 5,
        )
        for limit, *subject in hits
    ]
    counts, found = _count_and_get(keyed, reader, list(keys))
    for (limit, *_subject), count in zip(hits, counts, strict=True):
        if count > limit.count:
            return limit, found
    return None, found


def _count_and_get(keyed: list[tuple[str, int]], reader, keys: list) -> tuple[list[int], dict]:
    """One more hit on each counter (key, timeout), and ``reader``'s values
    under ``keys``: in one round trip on Redis
    (``config.cache.ResilientRedisCache.count_and_get``), else ``add`` then
    ``incr`` each counter and a ``get_many``."""
    if hasattr(cache, "count_and_get"):
        return cache.count_and_get(keyed, reader, keys)
    counts = [_count(key, timeout) for key, timeout in keyed]
    return counts, reader.get_many(keys) if keys else {}


def _count(key: str, timeout: int) -> int:
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key)
    except ValueError:  # the counter expired between add and incr
        cache.add(key, 0, timeout=timeout)
        return cache.incr(key)


def check(limit: Limit, *subject, message: str) -> None:
    """Count one hit, or refuse with ``message`` (429) past the limit."""
    if not hit(limit, *subject):
        raise TooFast(message)


# The public API (api/): requests per token, and per address whatever the token
# (SMOKI["API_TOKEN_PER_MINUTE"], ["API_ADDRESS_PER_MINUTE"]: 120 and 300).
API_TOKEN = Limit("api-token", settings.SMOKI.get("API_TOKEN_PER_MINUTE", 120), 60)
API_ADDRESS = Limit("api-address", settings.SMOKI.get("API_ADDRESS_PER_MINUTE", 300), 60)


def retry_after(limit: Limit) -> int:
    """Seconds until ``limit``'s current window ends (a 429's Retry-After)."""
    return max(1, int(limit.seconds - time.time() % limit.seconds) + 1)
