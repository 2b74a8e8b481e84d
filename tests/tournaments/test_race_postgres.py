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

import pytest

from core.errors import Conflict
from games.signals import match_ended
from tests.postgres_race import MODES, ONLY_ON_POSTGRES, race
from tests.tournaments.conftest import entered, finish, new_tournament, running_matches
from tournaments import services
from tournaments.models import Placement, Round, Tournament

pytestmark = ONLY_ON_POSTGRES


def _holding(tournament):
    """The lock every step of a tournament takes first: its row."""
    return lambda: Tournament.objects.select_for_update().get(pk=tournament.pk)


@pytest.mark.parametrize("mode", MODES)
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
    results = race([lambda: services.advance(tournament.pk)] * 2, mode, _holding(tournament))
    assert sorted(results) == ["next round", "waiting"], results
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Placement.objects.filter(round__tournament=tournament, round__number=2).count() == 6
    assert len(running_matches(tournament)) == 3


@pytest.mark.parametrize("mode", MODES)
def test_two_workers_starting_at_once_start_it_once(make_user, mode):
    people = [make_user(f"s{i}") for i in range(4)]
    tournament = entered(new_tournament(people[0]), people[1:])
    jobs = [lambda: services.start(tournament.pk, now=tournament.starts_at)] * 2
    results = race(jobs, mode, _holding(tournament))
    assert sorted(results) == ["not open", "started"], results
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert len(running_matches(tournament)) == 2


@pytest.mark.parametrize("mode", MODES)
def test_two_taking_the_last_place_of_a_start_when_full_tournament_start_it_once(make_user, mode):
    people = [make_user(f"w{i}") for i in range(4)]
    tournament = new_tournament(people[0], start_when_full=True, starts_at=None, max_entrants=3)
    services.join(user=people[1], tournament=tournament)
    jobs = [lambda u=u: services.join(user=u, tournament=tournament) for u in people[2:4]]
    results = race(jobs, mode, _holding(tournament))
    assert sum(isinstance(r, Conflict) for r in results) == 1, results
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert tournament.entrants.count() == 3
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Placement.objects.filter(round__tournament=tournament).count() == 3
