"""Two matches of the same player finishing at the same moment: both apply.

Each thread has its own PostgreSQL connection and ends its own match through
``services.finish_match`` (the match row locked, the rating update in the
same transaction). ``rate_match`` locks the players' rating rows in
ascending user id, so the second waits for the first and reads the rating
the first wrote; two matches of the same two players, seated the other way
round, cannot deadlock.

- ``free``: the threads are released together by a barrier.
- ``queued``: the test holds the players' rating rows until both threads
  are seen waiting for them in ``pg_stat_activity``, then lets go, so both
  have finished their match (under its own lock) before either rates it.

Afterwards the shared player has two rated matches and two changes, chained
(the second's "before" is the first's "after"), and every stored rating is
exactly a sequential application in the stored order, as a rebuild
(``recompute``) gives.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from openskill.models import PlackettLuce

from players import ratings
from players.models import START_MU, START_SIGMA, Rating, RatingChange
from tests.players.conftest import finish, start_match
from tests.postgres_race import MODES, ONLY_ON_POSTGRES, race

pytestmark = ONLY_ON_POSTGRES

PL = PlackettLuce()


def _race(jobs, mode: str, user_ids) -> list:
    """The jobs at once; ``queued`` behind the rating rows a finishing match locks."""
    return race(
        jobs,
        mode,
        lambda: list(
            Rating.objects.select_for_update()
            .filter(user_id__in=user_ids)
            .order_by("user_id")
            .values_list("pk")
        ),
    )


def _sequential(matches) -> dict[int, tuple[float, float]]:
    """OpenSkill applied one match after the other, in the stored order."""
    state: dict[int, tuple[float, float]] = {}
    for match in sorted(matches, key=lambda m: (m.finished_at, m.pk)):
        seats = list(match.seats.order_by("index"))
        rosters = [[PL.rating(*state.get(s.user_id, (START_MU, START_SIGMA)))] for s in seats]
        rated = PL.rate(rosters, ranks=[s.rank for s in seats])
        for seat, (rating,) in zip(seats, rated, strict=True):
            state[seat.user_id] = (rating.mu, rating.sigma)
    return state


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pairing", ["shared-player", "same-players-swapped"])
def test_two_matches_of_one_player_finishing_at_once_both_apply(mode, pairing):
    User = get_user_model()
    ann, ben, cid = (
        User.objects.create_user(f"race-{n}", email=f"{n}@example.com", password=None)
        for n in ("ann", "ben", "cid")
    )
    # The same two players seated the other way round must not deadlock.
    seated = {
        "shared-player": [[ann, ben], [cid, ann]],
        "same-players-swapped": [[ann, ben], [ben, ann]],
    }[pairing]
    matches = [start_match(users) for users in seated]
    jobs = [
        lambda: finish(matches[0], [1, 2]),
        lambda: finish(matches[1], [1, 2]),
    ]
    results = _race(jobs, mode, [ann.pk, ben.pk, cid.pk])
    assert not [r for r in results if isinstance(r, BaseException)], results

    for match in matches:
        match.refresh_from_db()
        assert match.status == "finished"
    shared = Rating.objects.get(user=ann, game_key="nogi")
    assert shared.rated_matches == 2
    changes = list(RatingChange.objects.filter(user=ann).order_by("rated_at", "pk"))
    assert len(changes) == 2
    assert [c.match_id for c in changes] == [
        m.pk for m in sorted(matches, key=lambda m: (m.finished_at, m.pk))
    ]
    assert (changes[1].mu_before, changes[1].sigma_before) == (
        changes[0].mu_after,
        changes[0].sigma_after,
    )
    want = _sequential(matches)
    stored = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.filter(game_key="nogi")}
    assert stored == want
    # A rebuild from the history gives the same, to the last bit.
    before = list(Rating.objects.order_by("pk").values())
    ratings.recompute()
    assert list(Rating.objects.order_by("pk").values()) == before


def test_a_match_finishing_while_a_moderator_corrects_an_earlier_one_is_rated_once(
    monkeypatch,
):
    """The correction takes back every change from the corrected match on and
    rates those matches again. A match of other players that finishes while
    it runs (after it read what to take back, before it deleted) must be
    neither deleted nor rated twice."""
    from django.contrib.auth.models import Group

    from games.moderation import actions as moderation

    User = get_user_model()
    ann, ben, cid, dan = (
        User.objects.create_user(f"fix-{n}", email=f"{n}@example.com", password=None)
        for n in ("ann", "ben", "cid", "dan")
    )
    mod = User.objects.create_user("fix-mod", email="mod@example.com", password=None)
    mod.is_staff = True
    mod.save()
    mod.groups.add(Group.objects.get(name="moderator"))
    first = finish(start_match([ann, ben]), [1, 2])
    finish(start_match([ben, ann]), [1, 2])
    meanwhile = start_match([cid, dan])

    paused, resume = threading.Event(), threading.Event()
    original = ratings._lock_ratings
    moderator_thread: list[threading.Thread] = []

    def lock_then_wait(game_key, user_ids):
        rows = original(game_key, user_ids)
        if threading.current_thread() in moderator_thread and not paused.is_set():
            paused.set()
            assert resume.wait(timeout=60)
        return rows

    monkeypatch.setattr(ratings, "_lock_ratings", lock_then_wait)
    errors = []

    def correct():
        try:
            moderation.correct_result(mod, first, [2, 1], "Ben won after all")
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=correct, daemon=True)
    moderator_thread.append(thread)
    thread.start()
    assert paused.wait(timeout=60), "the correction never reached the rating rows"
    finish(meanwhile, [1, 2])  # other players: nothing of theirs is locked
    resume.set()
    thread.join(timeout=120)
    assert not thread.is_alive() and not errors, errors

    for user in (cid, dan):
        row = Rating.objects.get(user=user, game_key="nogi")
        assert row.rated_matches == 1, user
    assert RatingChange.objects.filter(match=meanwhile).count() == 2
    assert RatingChange.objects.get(match=first, user=ann).rank == 2
    stored = list(Rating.objects.order_by("pk").values())
    ratings.recompute()
    assert list(Rating.objects.order_by("pk").values()) == stored
