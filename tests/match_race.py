"""A Nogi match a few moves in and the checks the move races share
(tests/play/test_race_postgres.py through the service,
tests/web/test_race_postgres.py through the view)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model

from games.engine import registry
from games.engine.replay import replay
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Move
from games.play import services
from tests.postgres_race import race

N_THREADS = 16
MOVES_BEFORE_RACE = 5


def started_match() -> Match:
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
        seat, user = to_move(match)
        action = game.legal_actions(match.state, seat)[0]
        services.submit_action(match, user, action, match.version)
        match.refresh_from_db()
    assert match.version == MOVES_BEFORE_RACE
    return match


def to_move(match: Match):
    game = registry.get(match.game_key)
    (seat_index,) = game.current_seats(match.state)
    return seat_index, match.seats.get(index=seat_index).user


def race_on_match(match: Match, mode: str, attempt: Callable[[int], Any]) -> list[tuple[str, Any]]:
    """Run ``attempt(i)`` in N_THREADS threads at once; return ("ok", value) or
    ("error", exc) each. ``queued``: behind the match row's lock, as a move takes it."""
    results = race(
        [lambda i=i: attempt(i) for i in range(N_THREADS)],
        mode,
        lambda: Match.objects.select_for_update(no_key=True).get(pk=match.pk),
    )
    return [("error", r) if isinstance(r, BaseException) else ("ok", r) for r in results]


def check_log_and_state(match: Match, before_version: int, seat: int, winner_action) -> None:
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


def distinct_actions(match: Match, seat: int) -> list[dict]:
    """One legal action per thread, different ones where the position allows."""
    legal = registry.get(match.game_key).legal_actions(match.state, seat)
    assert legal
    return [legal[i % len(legal)] for i in range(N_THREADS)]
