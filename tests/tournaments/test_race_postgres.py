"""Two workers advancing, or starting, the same tournament at once: one
round is created, never two.

Each thread has its own PostgreSQL connection. In ``queued`` mode the test
holds the tournament's row lock until both threads are seen waiting for it
in ``pg_stat_activity``, then lets go: both have read "the round is over"
before either may act, which is the race a missing lock would lose. In
``free`` mode a barrier releases them together. Afterwards there is exactly
one round 2 (and one round 1), its matches once each.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games.signals import match_ended
from tests.tournaments.conftest import entered, finish, new_tournament, running_matches
from tournaments import services
from tournaments.models import Placement, Round, Tournament

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL: run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/smoki",
    ),
]


def _waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def _race(job, tournament_id: int, mode: str, n: int = 2) -> list:
    results: list = [None] * n
    barrier = threading.Barrier(n)

    def worker(i: int) -> None:
        try:
            connection.ensure_connection()
            barrier.wait(timeout=60)
            results[i] = job()
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(n)]
    waiting = n
    if mode == "free":
        for thread in threads:
            thread.start()
    else:
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=tournament_id)
            for thread in threads:
                thread.start()
            for _ in range(1500):
                waiting = _waiting_on_locks()
                if waiting >= n:
                    break
                time.sleep(0.02)
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    assert waiting == n, f"only {waiting} threads waited for the tournament"
    return results


@pytest.mark.parametrize("mode", ["free", "queued"])
def test_two_workers_advancing_at_once_create_one_round(make_user, mode):
    people = [make_user(f"r{i}") for i in range(6)]
    tournament = entered(new_tournament(people[0]), people[1:])
    services.start(tournament.pk, now=tournament.starts_at)
    # The matches end without their hand-over to a task (which would advance
    # the tournament before the race): the two workers are the only ones.
    match_ended.disconnect(dispatch_uid="tournaments.match_ended")
    try:
        for match in running_matches(tournament):
            finish(match, [1, 2])
    finally:
        match_ended.connect(services.on_match_ended, dispatch_uid="tournaments.match_ended")
    assert Round.objects.filter(tournament=tournament).count() == 1
    results = _race(lambda: services.advance(tournament.pk), tournament.pk, mode)
    assert sorted(results) == ["next round", "waiting"], results
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Placement.objects.filter(round__tournament=tournament, round__number=2).count() == 6
    assert len(running_matches(tournament)) == 3


@pytest.mark.parametrize("mode", ["free", "queued"])
def test_two_workers_starting_at_once_start_it_once(make_user, mode):
    people = [make_user(f"s{i}") for i in range(4)]
    tournament = entered(new_tournament(people[0]), people[1:])
    results = _race(
        lambda: services.start(tournament.pk, now=tournament.starts_at), tournament.pk, mode
    )
    assert sorted(results) == ["not open", "started"], results
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert len(running_matches(tournament)) == 2
