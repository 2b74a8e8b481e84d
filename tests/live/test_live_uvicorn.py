"""The stream as production serves it: uvicorn in a process of its own
(``config/asgi.py``, the events path without a thread per request), a
signed-in player's stream, and a move committed by this process reaching it
through Redis within a second.

Needs PostgreSQL (the uvicorn process reads the test's database, which an
in-memory SQLite database cannot share) and Redis on 127.0.0.1:6379."""

import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client

from games.lobby import services as lobby
from tests.conftest import play_one

BASE_DIR = Path(__file__).resolve().parents[2]
REDIS = "redis://127.0.0.1:6379/0"

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


def _database_url() -> str:
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "")
    password = urllib.parse.quote(db["PASSWORD"] or "")
    auth = f"{user}:{password}@" if password else f"{user}@"
    return f"postgres://{auth}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def test_uvicorn_serves_the_stream_and_a_committed_move_reaches_it(alice, bob, nogi, settings):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the uvicorn process reads the test's database")
    if not _redis_up():
        pytest.skip("needs Redis on 127.0.0.1:6379")
    settings.SMOKI = {**settings.SMOKI, "REDIS_URL": REDIS}
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    client = Client()
    client.force_login(bob)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value

    port = _free_port()
    env = {**os.environ, "DATABASE_URL": _database_url(), "SMOKI_REDIS_URL": REDIS}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)]
        + ["--no-access-log", "--log-level=warning", "--timeout-graceful-shutdown=2"],
        cwd=BASE_DIR,
        env=env,
    )
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                (
                    f"GET /m/{match.pk}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Cookie: {django_settings.SESSION_COOKIE_NAME}={session}\r\n\r\n"
                ).encode()
            )
            lines = sock.makefile("rb")
            assert b" 200 " in lines.readline()
            events = []

            def read_until(wanted: str) -> None:
                while True:
                    line = lines.readline().decode().strip()
                    if line.startswith("event: "):
                        events.append(line[7:])
                    elif line.startswith("data: "):
                        events[-1] += "=" + line[6:]
                        if events[-1] == wanted:
                            return

            read_until("live=0")  # bob alone: alice has no page open
            move = play_one(match, nogi)
            started = time.monotonic()
            read_until(f"version={move.seq}")
            took = time.monotonic() - started
        assert took < 1.0, took
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
