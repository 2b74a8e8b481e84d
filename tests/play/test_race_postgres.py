"""Sixteen simultaneous moves for the same position through the service:
exactly one is applied. Twelve simultaneous chat messages: the limit holds.
And one bot account joining two matches at once: its day's limit holds.

Every thread has its own PostgreSQL connection and submits a legal move for
the seat to move with the same expected version. ``submit_action`` locks the
match row, so one thread applies its move and the other fifteen find the
version moved on (``StaleVersion``, HTTP 409). Afterwards the version went up
by exactly one, there is exactly one move with that number, the log is
contiguous and replaying it rebuilds the stored state.

Two ways of starting the race (tests/postgres_race.py): ``free`` (a barrier)
and ``queued`` (the test holds the match row lock until all sixteen threads
are seen waiting for it, which also proves that ``submit_action`` takes it).
The same race through the view: tests/web/test_race_postgres.py.

SQLite serialises writers differently, so this module needs PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts import bots
from core.errors import Forbidden, StaleVersion
from games.lobby import services as lobby
from games.models import Match
from games.play import bot_accounts, services
from tests.match_race import (
    N_THREADS,
    check_log_and_state,
    distinct_actions,
    race_on_match,
    started_match,
    to_move,
)
from tests.postgres_race import MODES, ONLY_ON_POSTGRES, race

pytestmark = ONLY_ON_POSTGRES


@pytest.mark.parametrize("mode", MODES)
def test_simultaneous_submissions_apply_exactly_one(mode):
    match = started_match()
    version = match.version
    seat, user = to_move(match)
    actions = distinct_actions(match, seat)

    def attempt(i: int):
        return services.submit_action(
            Match.objects.get(pk=match.pk), user, actions[i], expected_version=version
        )

    results = race_on_match(match, mode, attempt)

    winners = [i for i, (kind, _value) in enumerate(results) if kind == "ok"]
    errors = [value for kind, value in results if kind == "error"]
    assert len(winners) == 1, f"expected one success, got {results}"
    assert len(errors) == N_THREADS - 1
    assert all(type(error) is StaleVersion for error in errors), errors
    (winner,) = winners
    move = results[winner][1]
    assert move.seq == version + 1 and move.action == actions[winner]
    check_log_and_state(match, version, seat, actions[winner])


def test_twelve_simultaneous_chat_messages_store_only_the_limit():
    """The chat limit is a counter in the cache, taken before the write:
    twelve parallel posts (each its own connection) store exactly six."""
    from django.db import connections

    from core import limits
    from core.errors import TooFast
    from games.models import ChatMessage
    from games.play import chat

    match = started_match()
    user = match.seats.get(index=0).user
    barrier = threading.Barrier(12)
    outcomes: list[str] = []

    def post(i):
        try:
            barrier.wait()
            chat.post_message(user, match, f"message {i}")
            outcomes.append("stored")
        except TooFast:
            outcomes.append("too fast")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes).count("stored") == limits.CHAT.count
    assert ChatMessage.objects.filter(match=match, user=user).count() == limits.CHAT.count


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_account_joining_two_matches_at_once_stays_within_its_day(mode, settings):
    """Each join holds its own match's lock, so the day's count of the bot
    account needs its own (``bot_accounts.hold_days_of``): without it both
    joins read a day with room for one more match and both went in."""
    settings.SMOKI = {**settings.SMOKI, "BOT_MATCHES_PER_DAY": 2}
    accounts = {}
    for name in ("racer", "rival", "host1", "host2"):
        user = get_user_model().objects.create_user(name, f"{name}@example.com", "pw")
        bots.become_bot(user)
        accounts[name] = get_user_model().objects.select_related("profile").get(pk=user.pk)
    racer = accounts["racer"]
    earlier = lobby.create_match(user=accounts["rival"], game_key="nogi", n_seats=2, rated=False)
    lobby.join_match(user=racer, match=earlier)
    assert bot_accounts.bot_matches_today(racer.pk) == 1
    tables = [
        lobby.create_match(user=accounts[host], game_key="nogi", n_seats=2, rated=False)
        for host in ("host1", "host2")
    ]

    def hold():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [bot_accounts.DAY_COUNT_LOCK, racer.pk]
            )

    def join(i: int):
        def attempt():
            return lobby.join_match(
                user=get_user_model().objects.get(pk=racer.pk),
                match=Match.objects.get(pk=tables[i].pk),
            )

        return attempt

    results = race([join(0), join(1)], mode, hold)

    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1, results
    assert isinstance(refused[0], Forbidden) and "for today" in str(refused[0])
    assert bot_accounts.bot_matches_today(racer.pk) == 2
