"""What the PostgreSQL race tests share: the marks that run them there only, and a race.

Each racing thread has its own database connection (Django's are per
thread) and closes it when done. Two ways to start them:

- ``free``: released together by a barrier;
- ``queued``: the test holds a row lock (``hold``) until every thread is seen
  waiting for a lock in ``pg_stat_activity``, then lets go, so they all reach
  the lock having read what they read before any of them wrote.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

ONLY_ON_POSTGRES = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL: run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/smoki",
    ),
]

MODES = ["free", "queued"]


def waiting_on_locks() -> int:
    """How many other sessions of this database wait for a lock right now."""
    with connection.cursor() as cursor:
        # Activity is snapshotted once per transaction; we ask inside one.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def race(jobs: list[Callable[[], Any]], mode: str, hold: Callable[[], Any]) -> list:
    """Run each of ``jobs`` in its own thread at once; what each returned, or
    the exception it raised, in order. ``hold`` takes the lock the jobs will
    wait for (``queued`` mode: held until they all wait for it)."""
    n = len(jobs)
    results: list = [None] * n
    barrier = threading.Barrier(n)

    def worker(i: int) -> None:
        try:
            connection.ensure_connection()
            barrier.wait(timeout=60)
            results[i] = jobs[i]()
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(n)]
    waiting = n
    if mode == "free":
        for thread in threads:
            thread.start()
    else:
        with transaction.atomic():
            hold()
            for thread in threads:
                thread.start()
            for _ in range(1500):  # up to about 30 s; normally well under a second
                waiting = waiting_on_locks()
                if waiting >= n:
                    break
                time.sleep(0.02)
        # Leaving the block commits and releases the lock: the race is on.
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a racing thread hung"
    assert waiting >= n, f"only {waiting} of {n} threads waited for the lock"
    return results
