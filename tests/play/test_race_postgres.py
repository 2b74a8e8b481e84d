"""Sixteen simultaneous moves for the same position through the service:
exactly one is applied. And twelve simultaneous chat messages: the limit holds.

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

from core.errors import StaleVersion
from games.models import Match
from games.play import services
from tests.match_race import (
    N_THREADS,
    check_log_and_state,
    distinct_actions,
    race_on_match,
    started_match,
    to_move,
)
from tests.postgres_race import MODES, ONLY_ON_POSTGRES

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
