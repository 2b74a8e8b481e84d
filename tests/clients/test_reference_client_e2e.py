"""Two reference clients (``clients/python/smoki_bot.py``) play a whole
match of every game against each other on the site as production runs it:
gunicorn for the API, uvicorn for the event stream (``config/asgi.py``), a
Celery worker, Redis for the bus, PostgreSQL. Alice's matches are made
here (a private match inviting bob, one per game); bob's client accepts
each challenge from its stream, and both play every turn they hear of,
with no polling: each client lists its matches and challenges once, and
every other read answers an event.

Needs PostgreSQL (the servers read the test's database) and Redis on
127.0.0.1:6379; skipped, saying which, without them. Alice and bob are bot
accounts (``accounts.bots``) whose tokens carry ``bot:play``, as a bot
program's must (docs/api.md, "Bot accounts")."""

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection, transaction

from accounts import bots
from api import tokens
from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Move, Visibility
from games.play import reliability
from tests.live.test_live_uvicorn import REDIS, _database_url, _free_port, _redis_up

BASE_DIR = Path(__file__).resolve().parents[2]
CLIENT = BASE_DIR / "clients" / "python" / "smoki_bot.py"
GAMES = ["drako", "drakon", "drakon_classic", "nogi", "seven_dragons"]
SCOPES = ["bot:play", "challenge:read", "challenge:write"]

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _wait_for(url: str, process: subprocess.Popen) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise AssertionError(f"{process.args[:3]} ended at its start")
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} never answered")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_two_reference_clients_play_every_game_to_the_end(make_user, monkeypatch, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the servers read the test's database")
    if not _redis_up():
        pytest.skip("needs Redis on 127.0.0.1:6379")
    monkeypatch.setattr(reliability, "BASE_LIMIT", reliability.MAX_LIMIT)
    alice, bob = make_user("alice"), make_user("bob")
    for user in (alice, bob):
        bots.become_bot(user)
    _t, alice_token = tokens.make_token(alice, "bot", SCOPES)
    _t, bob_token = tokens.make_token(bob, "bot", SCOPES)
    web, live = _free_port(), _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "SMOKI_REDIS_URL": REDIS,
        "EMAIL_URL": "dummymail://",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    python = sys.executable
    quiet = {"cwd": BASE_DIR, "env": env}
    servers = [
        subprocess.Popen(
            [python, "-m", "gunicorn", "config.wsgi:application", "-b", f"127.0.0.1:{web}"]
            + ["-w", "2", "--log-level", "warning"],
            **quiet,
        ),
        subprocess.Popen(
            [python, "-m", "uvicorn", "config.asgi:application", "--port", str(live)]
            + ["--no-access-log", "--log-level=warning", "--timeout-graceful-shutdown=2"],
            **quiet,
        ),
        subprocess.Popen(
            [python, "-m", "celery", "-A", "config", "worker", "-Q", "celery,mail,bots"]
            + ["--pool=solo", "--loglevel=WARNING", "-n", f"e2e{web}@%h"],
            **quiet,
        ),
    ]
    clients = []
    try:
        _wait_for(f"http://127.0.0.1:{web}/healthz", servers[0])
        _wait_for(f"http://127.0.0.1:{live}/healthz", servers[1])
        site = ["--url", f"http://127.0.0.1:{web}", "--stream-url", f"http://127.0.0.1:{live}"]
        for token, accept in ((alice_token, "bob"), (bob_token, "alice")):
            clients.append(
                subprocess.Popen(
                    [python, str(CLIENT), *site, "--token", token, "--accept-from", accept]
                    + ["--stop-after", str(len(GAMES))],
                    cwd=BASE_DIR,
                    env={**env, "PYTHONPATH": str(BASE_DIR)},
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
        matches = []
        for key in GAMES:
            match = lobby.create_match(
                user=alice, game_key=key, n_seats=2, visibility=Visibility.PRIVATE
            )
            with transaction.atomic():
                invitations.send_invitation(match, inviter=alice, invitee=bob)
            matches.append(match.pk)
        summaries = []
        for client in clients:
            out, _err = client.communicate(timeout=1200)
            assert client.returncode == 0
            summaries.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for process in clients + servers:
            _stop(process)
    for summary in summaries:
        assert summary["finished"] == sorted(matches)
        calls = summary["calls"]
        # Listed once, at the first connection; every other read answers an event.
        assert calls.get("GET /matches") == 1 and calls.get("GET /challenges") == 1
        assert calls["GET /matches/{id}"] >= summary["moves"] > 0
    for match in Match.objects.filter(pk__in=matches):
        assert match.status == MatchStatus.FINISHED, (match.game_key, match.status)
        assert registry.get(match.game_key).result(match.state) is not None
        movers = set(Move.objects.filter(match=match, seq__gt=0).values_list("actor", flat=True))
        assert movers == {alice.pk, bob.pk}, match.game_key
