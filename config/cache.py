"""A Redis cache that never takes a request down with it.

Everything Smoki keeps in the cache can be done without it: sessions and
preferences are read from PostgreSQL, the log's sentences are computed
again, and rate limits are counted in the process's own memory. So when
Redis refuses, hangs or is gone, this backend answers at once from that
fallback instead of raising:

- every command has a short socket timeout (``SMOKI_CACHE_TIMEOUT``, 0.5 s)
  and is not retried, so a frozen Redis costs a request at most that once;
- after a failure the process leaves Redis alone for
  ``SMOKI_CACHE_PAUSE_SECONDS`` (30 s), as the outbox does with the broker:
  every cache call in that time answers from the fallback without waiting;
- reads miss; on the ``sessions`` alias writes and deletes are remembered:
  once Redis answers again, the keys this process changed meanwhile are
  deleted there first, so a session ended or a profile saved during the
  outage is not brought back by Redis's older copy;
- with ``LOCAL_FALLBACK`` (the ``default`` alias: rate limits, allauth's
  login limits, the log's sentences) the fallback is a local-memory cache of
  this process, so limits keep counting (per process, not site-wide);
  without it (the ``sessions`` alias: sessions and preferences) every read
  misses and goes to the database, because a copy local to one process
  could keep a session another process has ended.

One warning is logged per failure (then the pause); the state is shared by
every thread of the process and by every alias on the same server.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)


class _ServerState:
    """What this process knows of one Redis server (shared by its threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until = 0.0
        self.failures = 0
        # Keys (already made: prefix and version) written or deleted here
        # while the server was unreachable: deleted there once it answers.
        self.stale: set[str] = set()

    def paused(self) -> bool:
        return time.monotonic() < self.down_until


_STATES: dict[str, _ServerState] = {}
_STATES_LOCK = threading.Lock()


def _state_for(location: str) -> _ServerState:
    with _STATES_LOCK:
        return _STATES.setdefault(location, _ServerState())


def reset_states() -> None:
    """Forget every failure: try Redis again at the next call (tests)."""
    with _STATES_LOCK:
        _STATES.clear()


def _errors() -> tuple[type[BaseException], ...]:
    import redis

    return (redis.exceptions.RedisError, OSError)


def _count_locally(local: LocMemCache, key, timeout, version) -> int:
    """One more hit on a counter of the local fallback: ``add``, then ``incr``
    (once more if the counter expired between the two)."""
    for _attempt in range(2):
        local.add(key, 0, timeout, version)
        try:
            return local.incr(key, 1, version)
        except ValueError:
            continue
    raise ValueError(f"Key '{key}' not found")


#: ``count_and_get`` on the server: ARGV[1] counters first among KEYS, each
#: created at 0 with its expiry (ARGV[i + 1] seconds) when missing and raised
#: by one; then the value under each remaining key (false, a nil reply, when
#: there is none). One command for what took a transaction and a GET.
_COUNT_AND_GET = """
local counters = tonumber(ARGV[1])
local answer = {}
for i = 1, counters do
  redis.call('SET', KEYS[i], 0, 'EX', ARGV[i + 1], 'NX')
  answer[i] = redis.call('INCR', KEYS[i])
end
for i = counters + 1, #KEYS do
  answer[i] = redis.call('GET', KEYS[i])
end
return answer
"""


class KeptClientRedisCacheClient(RedisCacheClient):
    """Django's Redis client, keeping one ``redis.Redis`` per connection pool.

    Django makes a new ``redis.Redis`` for every command; building one fills
    its table of some 170 reply handlers, about 0.2 ms of CPU, more than the
    round trip it serves (an API request makes four). A ``redis.Redis`` is
    safe to share between threads (each command takes a connection from the
    pool), so one per pool is kept and reused."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients.setdefault(
                index, self._client(connection_pool=self._get_connection_pool(write))
            )
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        params = dict(params)
        options = dict(params.get("OPTIONS") or {})
        timeout = float(options.pop("SOCKET_TIMEOUT", 0.5))
        self.pause_seconds = float(options.pop("PAUSE_SECONDS", 30))
        local_fallback = bool(options.pop("LOCAL_FALLBACK", False))
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        options.setdefault("socket_timeout", timeout)
        options.setdefault("socket_connect_timeout", timeout)
        options.setdefault("retry", Retry(NoBackoff(), 0))
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient
        self._script = None
        self._location = server if isinstance(server, str) else ",".join(server)
        self._state = _state_for(self._location)
        self._local = (
            LocMemCache(
                f"smoki-fallback:{self._location}:{self.key_prefix}",
                {"OPTIONS": {"MAX_ENTRIES": 10_000}},
            )
            if local_fallback
            else None
        )
        self._errors = _errors()

    # -- The guard -------------------------------------------------------------

    def available(self) -> bool:
        """Whether this process is using Redis now (not within a pause)."""
        return not self._state.paused()

    def _call(self, command, fallback, stale_keys=(), version=None):
        """Run ``command`` against Redis, or answer ``fallback()`` without
        waiting when Redis failed lately or fails now. ``stale_keys`` are the
        keys the command changes: if it does not reach Redis they are deleted
        there once Redis answers again."""
        if self._state.paused() or not self._forget_stale():
            self._remember(stale_keys, version)
            return fallback()
        try:
            return command()
        except self._errors as error:
            self._failed(error)
            self._remember(stale_keys, version)
            return fallback()

    def _remember(self, keys, version) -> None:
        # With the local fallback (rate limits, allauth's counters, the log's
        # sentences) an older copy in Redis does no harm: a sentence never
        # changes, a counter only runs its course. Only the sessions' alias
        # keeps its keys, so that an ended session stays ended.
        if keys and self._local is None:
            made = [self.make_and_validate_key(key, version=version) for key in keys]
            with self._state.lock:
                self._state.stale.update(made)

    def _forget_stale(self) -> bool:
        """Delete in Redis what this process changed while it was out of reach;
        False if Redis failed again."""
        state = self._state
        if not state.stale:
            return True
        with state.lock:
            keys = list(state.stale)
        try:
            self._cache.get_client(keys[0], write=True).delete(*keys)
        except self._errors as error:
            self._failed(error)
            return False
        with state.lock:
            state.stale.difference_update(keys)
        if self._local is not None:
            self._local.clear()
        logger.warning(
            "cache at %s answers again: %d keys changed meanwhile deleted",
            self._location,
            len(keys),
        )
        return True

    def _failed(self, error) -> None:
        state = self._state
        with state.lock:
            state.failures += 1
            state.down_until = time.monotonic() + self.pause_seconds
        logger.warning(
            "cache at %s unreachable (%s: %s); answering without it for %s s",
            self._location,
            type(error).__name__,
            error,
            self.pause_seconds,
        )

    # -- The cache API -------------------------------------------------------------

    def get(self, key, default=None, version=None):
        local = self._local
        return self._call(
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda: local.get(key, default, version) if local else default,
        )

    def get_many(self, keys, version=None):
        local = self._local
        return self._call(
            lambda: super(ResilientRedisCache, self).get_many(keys, version),
            lambda: local.get_many(keys, version) if local else {},
        )

    def has_key(self, key, version=None):
        local = self._local
        return self._call(
            lambda: super(ResilientRedisCache, self).has_key(key, version),
            lambda: local.has_key(key, version) if local else False,
        )

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        local = self._local
        self._call(
            lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
            lambda: local.set(key, value, timeout, version) if local else None,
            stale_keys=[key],
            version=version,
        )

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        local = self._local
        return self._call(
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            lambda: (local.set_many(data, timeout, version) if local else None) or [],
            stale_keys=list(data),
            version=version,
        )

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        local = self._local
        return self._call(
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version),
            lambda: local.add(key, value, timeout, version) if local else False,
        )

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        local = self._local
        return self._call(
            lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
            lambda: local.touch(key, timeout, version) if local else False,
        )

    def incr(self, key, delta=1, version=None):
        local = self._local

        def fallback():
            if local is None:
                raise ValueError(f"Key '{key}' not found")
            return local.incr(key, delta, version)

        return self._call(
            lambda: super(ResilientRedisCache, self).incr(key, delta, version), fallback
        )

    def count(self, key, timeout, version=None) -> int:
        """Raise the counter ``key`` by one and return it, creating it with
        ``timeout`` when missing (``count_many`` with one counter)."""
        return self.count_many([(key, timeout)], version)[0]

    def count_many(self, counters, version=None) -> list[int]:
        """Raise each counter of ``counters`` ((key, timeout) pairs) by one
        and return their counts, creating a missing one with its timeout: in
        one round trip (``count_and_get`` reading nothing), where ``add`` and
        ``incr`` take three a counter (Django's ``incr`` asks whether the key
        exists first)."""
        return self.count_and_get(counters, version=version)[0]

    def count_and_get(self, counters, reader=None, keys=(), version=None):
        """``count_many``'s counts, and the values ``reader`` (a cache of
        this class) holds under ``keys``, as its ``get_many`` gives them:
        one command, one round trip, when ``reader`` is on the same Redis
        server (a Lua script: for each counter ``SET NX EX`` then ``INCR``,
        then a ``GET`` for each key; atomic, as the transaction it replaces).
        The API counts a request's address and token and reads the token's
        kept copy with it. A ``reader`` elsewhere is read after the count."""
        counters = list(counters)
        keys = list(keys)
        if keys and getattr(reader, "_location", None) != self._location:
            return self.count_and_get(counters, version=version)[0], reader.get_many(keys)
        local = self._local

        def command():
            made = [self.make_and_validate_key(key, version=version) for key, _t in counters]
            read = [reader.make_and_validate_key(key) for key in keys]
            client = self._cache.get_client(made[0] if made else None, write=True)
            answer = self._count_and_get_script(client)(
                keys=made + read,
                args=[len(made), *(int(timeout) for _key, timeout in counters)],
                client=client,
            )
            loads = reader._cache._serializer.loads if keys else None
            found = {
                key: loads(value)
                for key, value in zip(keys, answer[len(made) :], strict=True)
                if value is not None
            }
            return [int(count) for count in answer[: len(made)]], found

        def fallback():
            if local is None:
                raise ValueError(f"Key '{counters[0][0]}' not found")
            counts = [_count_locally(local, key, timeout, version) for key, timeout in counters]
            return counts, {}

        return self._call(command, fallback)

    def _count_and_get_script(self, client):
        """The Lua script of ``count_and_get`` (its SHA-1 worked out once;
        ``Script`` loads it into a server that does not know it yet)."""
        script = self._script
        if script is None:
            from redis.commands.core import Script

            script = self._script = Script(client, _COUNT_AND_GET)
        return script

    def delete(self, key, version=None):
        local = self._local
        return self._call(
            lambda: super(ResilientRedisCache, self).delete(key, version),
            lambda: bool(local.delete(key, version)) if local else False,
            stale_keys=[key],
            version=version,
        )

    def delete_many(self, keys, version=None):
        keys = list(keys)
        local = self._local
        self._call(
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            lambda: local.delete_many(keys, version) if local else None,
            stale_keys=keys,
            version=version,
        )

    def clear(self):
        if self._local is not None:
            self._local.clear()
        return self._call(lambda: super(ResilientRedisCache, self).clear(), lambda: False)
