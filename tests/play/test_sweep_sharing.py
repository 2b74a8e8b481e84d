"""A backlog of due matches is shared out in batches (``timeouts.sweep``'s
``share``), and the beat's task hands those batches to ``wake_matches``."""

from datetime import timedelta

import pytest
from django.test import override_settings

from games import tasks
from games.models import Match, Move
from games.play import timeouts
from tests.clock import DAY, START, two_player

pytestmark = pytest.mark.django_db
LATE = START + DAY + timedelta(minutes=1)


def _due(alice, bob, n):
    """``n`` matches whose first move's deadline has passed once the clock is at LATE."""
    return [two_player(alice, bob, time_per_move=DAY).pk for _ in range(n)]


def _moves_made(ids):
    """How many of these matches have had their timeout move (seq 1)."""
    return Move.objects.filter(match_id__in=ids, seq=1).count()


def test_the_sweep_wakes_one_batch_and_shares_the_rest_in_order(traveller, alice, bob):
    ids = _due(alice, bob, 5)
    traveller.move_to(LATE)
    shared = []

    def share(batch):
        shared.append(batch)
        return True

    assert timeouts.sweep(share=share, batch=2) == {"timed out": 2}
    assert shared == [ids[2:4], ids[4:]], "the later batches, in deadline order"
    assert _moves_made(ids[:2]) == 2 and _moves_made(ids[2:]) == 0
    assert timeouts.wake_matches(ids[2:]) == {"timed out": 3}
    assert _moves_made(ids) == 5


def test_a_batch_the_broker_refuses_is_woken_by_the_sweep_itself(traveller, alice, bob):
    ids = _due(alice, bob, 3)
    traveller.move_to(LATE)
    assert timeouts.sweep(share=lambda batch: False, batch=1) == {"timed out": 3}
    assert _moves_made(ids) == 3


def test_a_shared_batch_run_twice_acts_once(traveller, alice, bob):
    """A redelivered task (acks_late) finds the matches no longer due."""
    ids = _due(alice, bob, 2)
    traveller.move_to(LATE)
    assert tasks.wake_matches(ids) == {"timed out": 2}
    assert tasks.wake_matches(ids) == {"skipped": 2}
    assert _moves_made(ids) == 2
    assert Move.objects.filter(match_id__in=ids).count() == 4, "the openings and one move each"


@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_the_beat_task_hands_each_further_batch_to_wake_matches(
    traveller, alice, bob, monkeypatch, settings
):
    settings.SMOKI = {**settings.SMOKI, "SWEEP_BATCH": 2}
    ids = _due(alice, bob, 5)
    traveller.move_to(LATE)
    handed = []
    monkeypatch.setattr(
        tasks.outbox, "hand_over", lambda name, *args: handed.append((name, *args)) or True
    )
    assert tasks.sweep_deadlines() == {"timed out": 2}
    assert handed == [
        ("games.tasks.wake_matches", ids[2:4]),
        ("games.tasks.wake_matches", ids[4:]),
    ]
    for _name, batch in handed:
        tasks.wake_matches.apply(args=(batch,))
    assert _moves_made(ids) == 5
    assert not Match.objects.filter(pk__in=ids, wake_at__lte=LATE).exists(), "none still due"


def test_matches_due_at_the_same_instant_go_oldest_first(traveller, alice, bob):
    """Ties (games started together under one clock) are broken by age, not by
    where the database happens to keep the rows: rewrite the oldest ones last."""
    ids = _due(alice, bob, 4)
    for pk in ids[:2]:
        Match.objects.filter(pk=pk).update(n_seats=2)  # a new row version on PostgreSQL
    assert len(set(Match.objects.filter(pk__in=ids).values_list("wake_at", flat=True))) == 1
    traveller.move_to(LATE)
    assert timeouts.due_match_ids(LATE) == ids
