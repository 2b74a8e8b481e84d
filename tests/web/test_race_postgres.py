"""Sixteen simultaneous moves for the same position: exactly one is applied.

Every thread has its own PostgreSQL connection and submits a legal move for
the seat to move with the same expected version. ``submit_action`` locks the
match row, so one thread applies its move and the other fifteen find the
version moved on (``StaleVersion``, HTTP 409). Afterwards the version went up
by exactly one, there is exactly one move with that number, the log is
contiguous and replaying it rebuilds the stored state.

Two ways of starting the race:

- ``free``: the threads are released together by a barrier and race as they
  please (the realistic case; how much they overlap depends on the scheduler).
- ``queued``: the test itself holds the match row lock until all sixteen
  threads are seen waiting for it in ``pg_stat_activity``, then lets go, so
  every thread has read the old version before any move is applied. This
  also proves that ``submit_action`` takes the row lock: without it the
  threads would never wait and the test fails.

SQLite serialises writers differently, so this module needs PostgreSQL.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import lobby, services
from games.engine import registry
from games.engine.replay import replay
from games.errors import StaleVersion
from games.models import Match, MatchStatus, Move
from tests.postgres_race import MODES, ONLY_ON_POSTGRES, race

N_THREADS = 16
MOVES_BEFORE_RACE = 5
STALE_MESSAGE = "The game moved on while you were deciding"

pytestmark = ONLY_ON_POSTGRES


# -- Helpers ------------------------------------------------------------------


def _started_match() -> Match:
    """An active two-player Nogi match between two humans, a few moves in."""
    User = get_user_model()
    ann = User.objects.create_user("race-ann", email="ann@example.com", password=None)
    ben = User.objects.create_user("race-ben", email="ben@example.com", password=None)
    match = lobby.create_match(user=ann, game_key="nogi", n_seats=2)
    lobby.join_match(user=ben, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    game = registry.get("nogi")
    for _ in range(MOVES_BEFORE_RACE):
        seat, user = _to_move(match)
        action = game.legal_actions(match.state, seat)[0]
        services.submit_action(match, user, action, match.version)
        match.refresh_from_db()
    assert match.version == MOVES_BEFORE_RACE
    return match


def _to_move(match: Match):
    game = registry.get(match.game_key)
    (seat_index,) = game.current_seats(match.state)
    return seat_index, match.seats.get(index=seat_index).user


def _race(match: Match, mode: str, attempt: Callable[[int], Any]) -> list[tuple[str, Any]]:
    """Run ``attempt(i)`` in N_THREADS threads at once; return ("ok", value) or
    ("error", exc) each. ``queued``: behind the match row's lock, as a move takes it."""
    results = race(
        [lambda i=i: attempt(i) for i in range(N_THREADS)],
        mode,
        lambda: Match.objects.select_for_update(no_key=True).get(pk=match.pk),
    )
    return [("error", r) if isinstance(r, BaseException) else ("ok", r) for r in results]


def _check_log_and_state(match: Match, before_version: int, seat: int, winner_action) -> None:
    game = registry.get(match.game_key)
    before_state = replay(
        game,
        match.n_seats,
        match.options,
        match.seed,
        [(m.seat, m.action) for m in Move.objects.filter(match=match, seq__lte=before_version)],
    )
    match.refresh_from_db()
    assert match.version == before_version + 1
    racing = list(Move.objects.filter(match=match, seq=before_version + 1))
    assert len(racing) == 1
    assert racing[0].seat == seat
    assert racing[0].action == winner_action
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [m.seq for m in moves] == list(range(0, match.version + 1))  # 0: the opening
    rebuilt = replay(
        game, match.n_seats, match.options, match.seed, [(m.seat, m.action) for m in moves]
    )
    assert rebuilt == match.state
    assert match.state == game.apply(before_state, seat, winner_action)[0]


def _distinct_actions(match: Match, seat: int) -> list[dict]:
    """One legal action per thread, different ones where the position allows."""
    legal = registry.get(match.game_key).legal_actions(match.state, seat)
    assert legal
    return [legal[i % len(legal)] for i in range(N_THREADS)]


# -- Through the service ----------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_simultaneous_submissions_apply_exactly_one(mode):
    match = _started_match()
    version = match.version
    seat, user = _to_move(match)
    actions = _distinct_actions(match, seat)

    def attempt(i: int):
        return services.submit_action(
            Match.objects.get(pk=match.pk), user, actions[i], expected_version=version
        )

    results = _race(match, mode, attempt)

    winners = [i for i, (kind, _value) in enumerate(results) if kind == "ok"]
    errors = [value for kind, value in results if kind == "error"]
    assert len(winners) == 1, f"expected one success, got {results}"
    assert len(errors) == N_THREADS - 1
    assert all(type(error) is StaleVersion for error in errors), errors
    (winner,) = winners
    move = results[winner][1]
    assert move.seq == version + 1 and move.action == actions[winner]
    _check_log_and_state(match, version, seat, actions[winner])


# -- Through the view, as sixteen browser tabs --------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_simultaneous_move_posts_answer_one_success_and_409s(mode, htmx):
    match = _started_match()
    version = match.version
    seat, user = _to_move(match)
    actions = _distinct_actions(match, seat)
    clients = []
    for _ in range(N_THREADS):
        client = Client()
        client.force_login(user)
        clients.append(client)
    url = reverse("match_act", args=[match.pk])
    headers = {"HX-Request": "true"} if htmx else {}

    def attempt(i: int):
        return clients[i].post(
            url, {"action": json.dumps(actions[i]), "version": version}, headers=headers
        )

    results = _race(match, mode, attempt)

    errors = [value for kind, value in results if kind != "ok"]
    assert not errors, errors
    responses = [value for _kind, value in results]
    statuses = sorted(r.status_code for r in responses)
    success = 200 if htmx else 302
    assert statuses == [success] + [409] * (N_THREADS - 1), statuses
    (winner,) = [i for i, r in enumerate(responses) if r.status_code == success]
    if not htmx:
        assert responses[winner]["Location"] == reverse("match_detail", args=[match.pk])
    for response in responses:
        if response.status_code == 409:
            assert STALE_MESSAGE in response.content.decode()
    _check_log_and_state(match, version, seat, actions[winner])


def test_twelve_simultaneous_chat_messages_store_only_the_limit():
    """The chat limit is a counter in the cache, taken before the write:
    twelve parallel posts (each its own connection) store exactly six."""
    from django.db import connections

    from games import chat, limits
    from games.errors import TooFast
    from games.models import ChatMessage

    match = _started_match()
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
