"""Ladder writes racing on PostgreSQL: rungs move once, and never collide.

Each thread has its own connection. ``free``: released together by a
barrier. ``queued``: the test holds the ladder row until every thread is
seen waiting for a lock in ``pg_stat_activity``, then lets go, so they all
reach the ladder lock having read the challenge before any of them wrote.

- two workers expire the same overdue challenge (the beat's task run
  twice): one expires it, the other skips it; the challenger moves up once;
- the challenged player declines while the expiry runs: one of them closes
  it, the challenger moves up once;
- two different challenges of one ladder end at once (an expiry and a
  decline): both move their challenger, and the rungs stay unique.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ladders import services
from ladders.models import Challenge, ChallengeStatus, Entry, Ladder, Outcome
from tests.ladders.conftest import order
from tests.postgres_race import MODES, ONLY_ON_POSTGRES, race

pytestmark = ONLY_ON_POSTGRES


def _race(jobs, mode: str) -> list:
    """The jobs at once; ``queued`` behind the lock every ladder write takes first."""
    return race(
        jobs, mode, lambda: list(Ladder.objects.select_for_update().filter(game_key="drako"))
    )


def _overdue(*challenges):
    Challenge.objects.filter(pk__in=[c.pk for c in challenges]).update(
        accept_by=timezone.now() - timedelta(seconds=1)
    )


def _rungs_unique() -> None:
    rungs = list(Entry.objects.values_list("rung", flat=True))
    assert len(rungs) == len(set(rungs)) and all(r > 0 for r in rungs)


@pytest.mark.parametrize("mode", MODES)
def test_two_expiries_of_one_challenge_move_the_challenger_once(ladder_of, mode):
    p1, p2, p3, p4 = ladder_of(4)
    challenge = services.challenge(p4, "drako", "p1")
    _overdue(challenge)
    results = _race([lambda: services.expire(challenge.pk)] * 2, mode)
    assert sorted(results) == ["expired", "skipped"], results
    assert order() == ["p4", "p1", "p2", "p3"]
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.EXPIRED and challenge.moved
    _rungs_unique()


@pytest.mark.parametrize("mode", MODES)
def test_a_decline_racing_the_expiry_closes_the_challenge_once(ladder_of, mode):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p2")
    # Due now, while its player may still answer in this very second.
    Challenge.objects.filter(pk=challenge.pk).update(
        accept_by=timezone.now() + timedelta(seconds=30)
    )

    def expire_later():
        return services.expire_due(now=timezone.now() + timedelta(minutes=1))

    def decline():
        try:
            services.decline(p2, challenge.pk)
            return "declined"
        except services.ServiceError as error:
            return error.message

    results = _race([expire_later, decline], mode)
    assert not any(isinstance(r, BaseException) for r in results), results
    assert order() == ["p1", "p3", "p2"]
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.DONE and challenge.moved
    _rungs_unique()


@pytest.mark.parametrize("mode", MODES)
def test_two_challenges_of_one_ladder_ending_at_once_both_move(ladder_of, mode):
    p1, p2, p3, p4, p5 = ladder_of(5)
    first = services.challenge(p5, "drako", "p2")
    second = services.challenge(p4, "drako", "p1")
    _overdue(first)
    results = _race(
        [lambda: services.expire(first.pk), lambda: services.decline(p1, second.pk)], mode
    )
    assert not any(isinstance(r, BaseException) for r in results), results
    # Either order gives the same ladder.
    assert order() == ["p4", "p1", "p5", "p2", "p3"]
    _rungs_unique()
