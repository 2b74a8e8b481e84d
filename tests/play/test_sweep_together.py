"""Due matches woken together (``timeouts.wake_together``): one transaction and
one locked read for a batch, the notification rows of them all in one
statement and their deliveries handed over as one task, with the same rows
and moves as waking them one by one; a failure puts each match back in its
own transaction."""

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import tasks
from games.dispatch import notifications, outbox
from games.models import Move, Notification
from games.play import timeouts
from tests.clock import DAY, START, two_player

pytestmark = pytest.mark.django_db
LATE = START + DAY + timedelta(minutes=1)


def _due(alice, bob, n):
    return [two_player(alice, bob, time_per_move=DAY).pk for _ in range(n)]


def _rows(ids):
    """Each match's notification rows and moves (not their actions: each match
    has its own seed, so its own roll), without ids or times."""
    return [
        (
            sorted(
                Notification.objects.filter(match_id=pk).values_list(
                    "user__username", "kind", "version", "tag", "status"
                )
            ),
            list(
                Move.objects.filter(match_id=pk)
                .order_by("seq")
                .values_list("seq", "seat", "actor_kind")
            ),
        )
        for pk in ids
    ]


def _statements(ctx):
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT"))
    ]


def test_a_batch_writes_what_one_by_one_writes_in_fewer_statements(traveller, alice, bob):
    together, alone = _due(alice, bob, 4), _due(alice, bob, 4)
    traveller.move_to(LATE)
    with CaptureQueriesContext(connection) as ctx:
        assert timeouts.wake_together(together, LATE) == ["timed out"] * 4
    run = _statements(ctx)
    for pk in alone:
        assert timeouts.wake_match(pk, LATE) == "timed out"
    assert _rows(together) == _rows(alone)
    assert all(len(moves) == 2 for _rows_of, moves in _rows(together)), "the opening and one"
    # One locked read, one notification write and its stream rows for the
    # batch; per match the strike, the move's stream rows (``api.events``),
    # the match's update and the move.
    assert sum(sql.startswith('INSERT INTO "games_notification"') for sql in run) == 1
    assert sum(sql.startswith('INSERT INTO "streams_event"') for sql in run) == 1 + 4
    assert len(run) == 3 + 4 * 4, run


def test_the_batchs_deliveries_are_handed_over_as_one_task_after_the_commit(
    traveller, alice, bob, django_capture_on_commit_callbacks
):
    ids = _due(alice, bob, 3)
    traveller.move_to(LATE)
    with (
        mock.patch.object(outbox, "hand_over") as hand_over,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert timeouts.wake_together(ids, LATE) == ["timed out"] * 3
    calls = [c.args for c in hand_over.call_args_list]
    assert [name for name, *_ in calls] == [notifications.DELIVER_NOTIFICATIONS]
    handed = Notification.objects.filter(pk__in=calls[0][1])
    assert len(calls[0][1]) == handed.count() == 6
    assert sorted(handed.values_list("match_id", "user__username", "kind", "status")) == sorted(
        (pk, user, kind, "pending")
        for pk in ids
        for user, kind in [("alice", "timed_out"), ("bob", "your_turn")]
    ), "each match: the timed-out notice and the next player's turn"


def test_the_deliveries_task_sends_each_row_once(traveller, alice, bob):
    ids = _due(alice, bob, 2)
    traveller.move_to(LATE)
    timeouts.wake_together(ids, LATE)
    pending = list(
        Notification.objects.filter(match_id__in=ids, kind="timed_out").values_list("pk", flat=True)
    )
    assert len(pending) == 2
    mail.outbox.clear()
    assert tasks.deliver_notifications(pending) == ["sent"] * len(pending)
    assert len(mail.outbox) == len(pending)
    rerun = tasks.deliver_notifications(pending)
    assert rerun == ["nothing to do"] * len(pending), "a rerun sends nothing again"
    assert len(mail.outbox) == len(pending)


def test_a_failing_match_puts_the_others_in_their_own_transactions(traveller, alice, bob):
    ids = _due(alice, bob, 3)
    traveller.move_to(LATE)
    real = timeouts.apply_timeout

    def fails_on_the_last(match, *args):
        if match.pk == ids[-1]:
            raise RuntimeError("broken match")
        return real(match, *args)

    with (
        mock.patch.object(timeouts, "apply_timeout", fails_on_the_last),
        pytest.raises(RuntimeError),
    ):
        timeouts.wake_together(ids, LATE)
    assert Move.objects.filter(match_id__in=ids[:2], seq=1).count() == 2, "woken alone"
    assert not Move.objects.filter(match_id=ids[-1], seq=1).exists()
    assert timeouts.wake_together(ids, LATE) == ["timed out", "skipped", "skipped"]


def test_wake_matches_goes_through_the_batches(traveller, alice, bob, settings):
    settings.SMOKI = {**settings.SMOKI, "SWEEP_TOGETHER": 2}
    ids = _due(alice, bob, 5)
    traveller.move_to(LATE)
    with mock.patch.object(timeouts, "wake_together", wraps=timeouts.wake_together) as together:
        assert timeouts.wake_matches(ids, LATE) == {"timed out": 5}
    assert [c.args[0] for c in together.call_args_list] == [ids[:2], ids[2:4], ids[4:]]
