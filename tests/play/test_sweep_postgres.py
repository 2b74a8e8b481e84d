"""The sweep on PostgreSQL: concurrent sweepers never act twice, a player's
move racing the sweep is applied exactly once, and the due-match query uses
the partial index."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone

from core import errors
from games.engine import registry
from games.lobby import services as lobby
from games.models import ActorKind, Match, Move, Seat
from games.play import reliability, services, timeouts
from tests.postgres_race import ONLY_ON_POSTGRES

pytestmark = ONLY_ON_POSTGRES


@pytest.fixture(autouse=True)
def many_matches_at_once(monkeypatch):
    """Two players sit at many matches due together, more than a newcomer's
    cap on matches at once (``games.play.reliability``): these tests are of
    the sweep, so the cap is lifted."""
    monkeypatch.setattr(reliability, "BASE_LIMIT", reliability.MAX_LIMIT)


def _due_matches(n: int) -> list[Match]:
    """``n`` two-player matches whose first player's deadline has passed."""
    User = get_user_model()
    ann, _ = User.objects.get_or_create(username="sweep-ann", email="ann@example.com")
    ben, _ = User.objects.get_or_create(username="sweep-ben", email="ben@example.com")
    matches = []
    for _ in range(n):
        match = lobby.create_match(
            user=ann, game_key="nogi", n_seats=2, options={"first_player": "host"}
        )
        lobby.join_match(user=ben, match=match)
        matches.append(match)
    past = timezone.now() - timedelta(minutes=1)
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(deadline=past, wake_at=past)
    return list(Match.objects.filter(pk__in=[m.pk for m in matches]).order_by("pk"))


def _run_together(*targets):
    barrier = threading.Barrier(len(targets))
    results: list = [None] * len(targets)

    def runner(i, target):
        try:
            barrier.wait()
            results[i] = target()
        except Exception as error:  # noqa: BLE001 - reported to the test
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i, t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_two_sweepers_at_once_never_act_twice():
    matches = _due_matches(20)
    results = _run_together(timeouts.sweep, timeouts.sweep, timeouts.sweep)
    assert all(isinstance(r, dict) for r in results), results
    assert sum(r.get("timed out", 0) for r in results) == 20
    for match in matches:
        moves = list(Move.objects.filter(match=match, seq__gte=1))  # after the opening
        assert [(m.seq, m.actor_kind) for m in moves] == [(1, ActorKind.TIMEOUT)]
        assert Seat.objects.get(match=match, index=0).strikes == 1
        match.refresh_from_db()
        assert match.version == 1


def test_workers_given_the_same_batch_at_once_act_once_on_each_match():
    """A batch handed over twice (the next minute's sweep, a redelivery) may
    run on two workers at the same time, from either end."""
    ids = [match.pk for match in _due_matches(20)]
    results = _run_together(
        lambda: timeouts.wake_matches(ids), lambda: timeouts.wake_matches(ids[::-1])
    )
    assert all(isinstance(r, dict) for r in results), results
    assert sum(r.get("timed out", 0) for r in results) == 20
    assert sum(r.get("skipped", 0) for r in results) == 20
    assert Move.objects.filter(match_id__in=ids, seq=1).count() == 20
    assert not Move.objects.filter(match_id__in=ids, seq__gt=1).exists()


def test_a_move_racing_the_sweep_is_applied_exactly_once():
    """Late, the player's move goes through the move path, which applies the
    expired clock first: whoever gets the row, the timeout is applied once
    and the late move is refused."""
    game = registry.get("nogi")
    outcomes = set()
    for _round in range(8):
        (match,) = _due_matches(1)
        action = game.legal_actions(match.state, 0)[0]
        player = match.seats.get(index=0).user

        def move(match=match, action=action, player=player):
            return services.submit_player_action(match, player, action, 0)

        results = _run_together(move, timeouts.sweep)
        moves = list(Move.objects.filter(match=match, seq__gte=1))  # after the opening
        assert len(moves) == 1 and moves[0].seq == 1
        assert moves[0].actor_kind == ActorKind.TIMEOUT, "a late move never beats the clock"
        assert isinstance(results[0], errors.ServiceError), results
        outcomes.add(moves[0].actor_kind)
        match.refresh_from_db()
        assert match.version == 1
    print("winners over 8 races:", outcomes)


def test_the_sweep_skips_a_match_whose_move_is_being_made():
    """The player's transaction holds the row; the sweeper skips it, and once
    the move commits there is nothing left to do."""
    (match,) = _due_matches(1)
    # A reminder is due, the deadline is not: the move is in time.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(hours=1))
    match.refresh_from_db()
    game = registry.get("nogi")
    player = match.seats.get(index=0).user
    with transaction.atomic():
        services.submit_action(match, player, game.legal_actions(match.state, 0)[0], 0)
        (outcome,) = _run_together(timeouts.sweep)
        assert outcome == {"skipped": 1}
    assert timeouts.sweep() == {}
    assert list(
        Move.objects.filter(match=match, seq__gte=1).values_list("actor_kind", flat=True)
    ) == [ActorKind.PLAYER]


def test_the_due_query_uses_the_partial_index():
    User = get_user_model()
    owner = User.objects.create_user("plan-owner")
    far = timezone.now() + timedelta(days=30)
    Match.objects.bulk_create(
        [
            Match(
                game_key="nogi",
                rules_version=1,
                n_seats=2,
                seed=f"{i:032x}",
                seed_hash="x",
                invite_token=f"plan-{i}",
                status="active",
                deadline=far,
                wake_at=far,
                created_by=owner,
            )
            for i in range(20_000)
        ],
        batch_size=2_000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match")
    now = timezone.now()
    plan = timeouts.due_matches(now).values("pk")[:1000].explain()
    print(plan)
    assert "match_active_wake_at" in plan
    assert timeouts.due_match_ids(now) == []


def test_the_match_table_keeps_only_the_indexes_its_queries_use():
    """Each move and timeout writes an entry in every index of the match table
    (it changes indexed columns), so an index nobody reads is a cost on every
    move: no LIKE-only copies, no index on the game key or the bare deadline."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'games_match'")
        names = {row[0] for row in cursor.fetchall()}
    foreign_keys = {name for name in names if name.startswith("games_match_") and "_id_" in name}
    assert {f.split("_id_")[0] for f in foreign_keys} == {
        "games_match_created_by",
        "games_match_waiting_on",
        "games_match_rematch_of",
    }
    assert names - foreign_keys == {
        "games_match_pkey",
        "match_invite_token_unique",
        "match_status",
        "match_active_wake_at",
        "match_bots_due",
        "match_waiting_on_deadline",
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        owner = get_user_model().objects.create_user("token-owner")
        for _ in range(2):
            Match.objects.create(
                game_key="nogi",
                rules_version=1,
                n_seats=2,
                invite_token="same",
                created_by=owner,
            )
