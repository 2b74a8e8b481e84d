"""The event streams' server reads through a pool of PostgreSQL connections
when ``SMOKI_DB_POOL`` is set (config/settings.py; deploy/ sets it for
uvicorn): a stream read's connection, "closed" after the read so that an
idle stream holds none (``games.web.live_views._release_db``), goes back to
the pool and the next read reuses it instead of opening another.

Run in a process of its own, as uvicorn reads its settings at start. Needs
PostgreSQL (the setting is for PostgreSQL only)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.live.test_live_uvicorn import _database_url

BASE_DIR = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

READS = """
import asyncio, django
django.setup()
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from games.web.live_views import _release_db

def read():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]
    finally:
        _release_db()

async def reads():
    return [await sync_to_async(read, thread_sensitive=False)() for _ in range(6)]

print(settings.DATABASES["default"]["CONN_MAX_AGE"], len(set(asyncio.run(reads()))))
"""


def _reads(pool: str) -> tuple[int, int]:
    """(CONN_MAX_AGE, how many server processes six stream reads used)."""
    env = {**os.environ, "DATABASE_URL": _database_url(), "SMOKI_DB_POOL": pool}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    done = subprocess.run(
        [sys.executable, "-c", READS],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    age, servers = done.stdout.split()
    return int(age), int(servers)


def test_stream_reads_reuse_a_pooled_connection_and_open_one_each_without():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the pool is for PostgreSQL only")
    age, servers = _reads("2")
    assert age == 0 and servers <= 2, "the six reads borrow the pool's (at most 2) connections"
    age, servers = _reads("0")
    assert age > 0 and servers == 6, "without a pool each read opens and ends its own"
