"""docs/api.md's "Write a bot in 50 lines": its code, extracted from the
page, is at most 50 lines, and run on a running site (Django's live server:
the REST calls and the stream, served in process, where the bus is
in-process too; PostgreSQL) it joins the match it is invited to from its stream and
plays it to the end against a host whose moves this test makes."""

import contextlib
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection, transaction

from api import stream, tokens
from core.errors import ServiceError
from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Move, Visibility
from games.play import services

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def tutorial_code() -> str:
    text = DOC.read_text()
    section = text[text.index("## Write a bot in 50 lines") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def _wait_for_the_stream(token, process, seconds: float = 120) -> None:
    """Until the bot's stream is open (its token's mark, in the cache the
    live server shares with this process): an invitation sent before would
    be news it never hears, as for any client that was not listening."""
    give_up = time.monotonic() + seconds
    while cache.get(stream._lock_key(token.pk)) is None:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < give_up, "the bot never opened its stream"
        time.sleep(0.1)


def _play_host(match, host, process, seconds: float = 600) -> None:
    """The host's moves, made here (as the match page would) until the bot
    exits: the first legal action whenever it is the host's turn."""
    game = registry.get(match.game_key)
    give_up = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < give_up:
        match.refresh_from_db()
        seat = match.seats.get(user=host).index
        if match.status == MatchStatus.ACTIVE and seat in game.current_seats(match.state):
            action = game.legal_actions(match.state, seat)[0]
            with contextlib.suppress(ServiceError):
                services.submit_action(match, host, action, match.version)
        else:
            time.sleep(0.05)


def test_the_tutorial_is_at_most_fifty_lines():
    assert len(tutorial_code().splitlines()) <= 50


@pytest.mark.django_db(transaction=True)
def test_the_tutorial_bot_accepts_a_challenge_and_plays_a_match_to_its_end(
    live_server, make_user, tmp_path, settings
):
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL: the live server's threads and the streams' reads share the"
            " test's database, which in-memory SQLite locks table by table"
        )
    settings.SMOKI = {**settings.SMOKI, "REDIS_URL": "", "LIVE_PROBE_SECONDS": 0.2}
    host, tutor = make_user("host"), make_user("tutor")
    token, raw = tokens.make_token(
        tutor, "tutorial", ["match:read", "match:play", "challenge:read", "challenge:write"]
    )
    bot = tmp_path / "bot.py"
    bot.write_text(tutorial_code())
    process = subprocess.Popen(
        [sys.executable, str(bot), live_server.url, raw],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_the_stream(token, process)
        match = lobby.create_match(
            user=host, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
        )
        with transaction.atomic():
            invitations.send_invitation(match, inviter=host, invitee=tutor)
        _play_host(match, host, process)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    match = Match.objects.get(pk=match.pk)
    assert f"match {match.pk} is over" in out
    assert match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)
    assert Move.objects.filter(match=match, actor=tutor).exists()
