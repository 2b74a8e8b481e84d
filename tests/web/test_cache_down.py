"""Nothing fails when the cache does (docs/operations.md, "When Redis is lost").

The production settings are built as production builds them, from
``CACHE_URL`` (``config/settings.py`` run with the environment set), pointing
at a cache server that is unreachable, frozen (accepts and never answers) or
behind a proxy that is cut and restored. Signed-in pages and moves answer,
sessions and preferences come from the database, rate limits keep counting in
the process's memory, and after one failure the process leaves the cache
alone for a while.
"""

import json
import os
import runpy
import socket
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from accounts.selectors import preferences
from games.models import ChatMessage, Move
from tests.conftest import user_to_move
from tests.faults.tcp_proxy import FrozenServer, TcpProxy

pytestmark = pytest.mark.django_db
BASE_DIR = Path(__file__).resolve().parents[2]
HTMX = {"HTTP_HX_REQUEST": "true"}
REDIS_URL = os.environ.get("SMOKI_REDIS_URL", "redis://127.0.0.1:6379/0")
TIMEOUT = 0.3


def _redis_is_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.exceptions.RedisError:
        return False


def production_caches(monkeypatch, url: str, pause: float = 30):
    """The CACHES (and the sessions' alias) config/settings.py builds for ``url``."""
    monkeypatch.setenv("CACHE_URL", url)
    monkeypatch.setenv("SMOKI_CACHE_TIMEOUT", str(TIMEOUT))
    monkeypatch.setenv("SMOKI_CACHE_PAUSE_SECONDS", str(pause))
    built = runpy.run_path(str(BASE_DIR / "config/settings.py"))
    for name in ("CACHES", "SESSION_CACHE_ALIAS"):
        monkeypatch.delenv(name, raising=False)
    for key in ("default", "sessions"):
        if key in built["CACHES"]:
            built["CACHES"][key] = {
                **built["CACHES"][key],
                "KEY_PREFIX": f"smoki-test-{uuid.uuid4().hex[:8]}",
            }
    return override_settings(
        CACHES=built["CACHES"],
        SESSION_CACHE_ALIAS=built.get("SESSION_CACHE_ALIAS", "default"),
    )


@pytest.fixture(autouse=True)
def _fresh_cache_state():
    from config import cache

    cache.reset_states()
    yield
    cache.reset_states()


@pytest.fixture
def dead_url():
    """A port nothing listens on: every connection is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def frozen():
    server = FrozenServer(hold=8)
    yield server
    server.close()


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def post_move(match, nogi):
    match.refresh_from_db()
    seat = nogi.current_seats(match.state)[0]
    action = nogi.legal_actions(match.state, seat)[0]
    mover = user_to_move(match, nogi)
    return signed_in(mover).post(
        reverse("match_act", args=[match.pk]),
        {"action": json.dumps(action), "version": match.version},
        **HTMX,
    )


def test_pages_moves_and_sessions_answer_with_the_cache_unreachable(
    monkeypatch, dead_url, started_match, nogi, alice
):
    with production_caches(monkeypatch, dead_url):
        client = signed_in(alice)  # the session is written to the database only
        lobby = client.get(reverse("lobby"))
        assert lobby.status_code == 200
        assert "alice" in lobby.content.decode()  # signed in: the session came from the database
        assert client.get(reverse("match_detail", args=[started_match.pk])).status_code == 200
        assert client.get(reverse("profile")).status_code == 200
        response = post_move(started_match, nogi)
        assert response.status_code == 200
        assert Move.objects.filter(match=started_match, seq=1).exists()
        # The log's sentences are computed: the panel names the move.
        panel = client.get(reverse("match_panel", args=[started_match.pk]))
        assert panel.status_code == 200
        ready = client.get(reverse("readyz"))
        assert ready.status_code == 200
        assert ready.content == b"ready; cache unreachable, answering without it"


def test_signing_in_and_out_works_with_the_cache_unreachable(monkeypatch, dead_url, alice):
    alice.set_password("dragons-fly-slowly")
    alice.save()
    with production_caches(monkeypatch, dead_url):
        client = Client()
        response = client.post(
            reverse("account_login"), {"login": "alice", "password": "dragons-fly-slowly"}
        )
        assert response.status_code == 302
        assert "alice" in client.get(reverse("lobby")).content.decode()
        client.post(reverse("account_logout"))
        assert reverse("account_login") in client.get(reverse("profile"))["Location"]


def test_rate_limits_keep_counting_in_the_process_while_the_cache_is_unreachable(
    monkeypatch, dead_url, started_match, alice, bob
):
    """Documented: each process counts on its own while Redis is out of reach."""
    from core import limits

    with production_caches(monkeypatch, dead_url):
        client = signed_in(alice)
        url = reverse("match_chat", args=[started_match.pk])
        codes = [
            client.post(url, {"text": f"line {i}"}, **HTMX).status_code
            for i in range(limits.CHAT.count + 1)
        ]
        assert codes[: limits.CHAT.count] == [200] * limits.CHAT.count
        assert codes[-1] == 429
        assert ChatMessage.objects.filter(user=alice).count() == limits.CHAT.count
        # Wrong passwords are still limited (allauth's counters fall back too).
        bob.set_password("dragons-fly-slowly")
        bob.save()
        login = reverse("account_login")
        answers = [
            Client().post(login, {"login": "bob", "password": "wrong"}).content.decode()
            for _ in range(6)
        ]
        assert "Too many failed login attempts" not in answers[0]
        assert "Too many failed login attempts" in answers[-1]


def test_a_frozen_cache_costs_one_timeout_then_is_left_alone(
    monkeypatch, frozen, started_match, nogi, alice
):
    with production_caches(monkeypatch, f"{frozen.url_base}/0", pause=30):
        client = signed_in(alice)
        started = time.monotonic()
        assert client.get(reverse("lobby")).status_code == 200
        first = time.monotonic() - started
        tried = frozen.accepted
        assert 1 <= tried <= 2
        assert first < 2 * TIMEOUT + 1.5, first
        started = time.monotonic()
        for _ in range(3):
            assert client.get(reverse("match_detail", args=[started_match.pk])).status_code == 200
        assert post_move(started_match, nogi).status_code == 200
        later = time.monotonic() - started
        assert frozen.accepted == tried, "the process left the frozen cache alone"
        assert later < 3.0, later
        assert Move.objects.filter(match=started_match, seq=1).exists()


def test_after_the_pause_the_cache_is_tried_again(monkeypatch, frozen, alice):
    with production_caches(monkeypatch, f"{frozen.url_base}/0", pause=0.5):
        client = signed_in(alice)
        assert client.get(reverse("lobby")).status_code == 200
        tried = frozen.accepted
        assert tried >= 1
        time.sleep(0.7)
        assert client.get(reverse("lobby")).status_code == 200
        assert frozen.accepted > tried


@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_what_changed_during_the_cut_is_not_brought_back_by_redis(monkeypatch, alice):
    """A session ended and a profile saved while Redis was cut: once it answers
    again its older copies are deleted, not served."""
    import redis

    db = REDIS_URL.rsplit("/", 1)[-1]
    host = redis.Redis.from_url(REDIS_URL).connection_pool.connection_kwargs
    proxy = TcpProxy(host.get("host", "127.0.0.1"), host.get("port", 6379))
    try:
        with production_caches(monkeypatch, f"{proxy.url_base}/{db}", pause=0.3):
            client = signed_in(alice)
            assert "alice" in client.get(reverse("lobby")).content.decode()
            assert preferences(alice)["name"] == "alice"  # now in Redis
            sessions = caches[settings.SESSION_CACHE_ALIAS]
            old_cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            proxy.cut()
            client.post(reverse("account_logout"))
            alice.profile.display_name = "Dragon Queen"
            alice.profile.save()
            proxy.restore()
            time.sleep(0.4)
            assert preferences(alice)["name"] == "Dragon Queen"
            assert sessions.available()
            stale = Client()
            stale.cookies[settings.SESSION_COOKIE_NAME] = old_cookie
            assert "login" in stale.get(reverse("profile"))["Location"]
    finally:
        proxy.close()
