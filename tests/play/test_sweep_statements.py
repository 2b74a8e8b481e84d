"""One timed-out match, one short transaction: the statements the sweep runs
for it, and the notification rows it writes together (``notifications.batched``)
being the rows ``queue`` writes one by one."""

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.dispatch import notifications, outbox
from games.models import (
    ActorKind,
    DeliveryStatus,
    Match,
    Notification,
    NotificationKind,
    TimeoutPolicy,
)
from games.play import timeouts
from tests.clock import DAY, START, two_player
from tests.conftest import each_seat_moves

pytestmark = pytest.mark.django_db


def sweep_match(alice, bob, **kwargs):
    """A two-player match with one day a move."""
    return two_player(alice, bob, time_per_move=DAY, **kwargs)


def statements(ctx) -> list[str]:
    """The statements run, without the savepoints of the test's own transaction."""
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT"))
    ]


def rows(match):
    return sorted(
        Notification.objects.filter(match=match).values_list(
            "user__username", "kind", "version", "tag", "status", "attempts", "read_at"
        )
    )


def test_a_timed_out_match_takes_eight_statements_and_one_notification_write(traveller, alice, bob):
    """The due-match query, the locked read of the match with its seats,
    players and profiles, the strike, the move's state and its log entry, and
    one statement for both notification rows (alice's "time ran out", bob's
    "your turn"); and two for the API stream's event rows (the move's, with
    bob's turn, and alice's "time ran out": ``api.events``). No savepoint
    inside the match's transaction."""
    match = sweep_match(alice, bob)
    traveller.move_to(START + DAY + timedelta(minutes=1))
    with CaptureQueriesContext(connection) as ctx:
        assert timeouts.sweep() == {"timed out": 1}
    run = statements(ctx)
    assert len(run) == 8, run
    assert sum(sql.startswith('INSERT INTO "games_notification"') for sql in run) == 1
    assert not any("games_notification" in sql for sql in run if sql.startswith("SELECT"))
    savepoints = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SAVEPOINT")]
    assert len(savepoints) == 1, "only the match's own transaction (a savepoint in a test)"
    assert rows(match) == [
        # alice moved first: her your-turn email said the match started.
        ("alice", NotificationKind.MATCH_STARTED, 0, "", DeliveryStatus.SKIPPED, 0, None),
        ("alice", NotificationKind.TIMED_OUT, 0, "", DeliveryStatus.PENDING, 0, None),
        ("alice", NotificationKind.YOUR_TURN, 0, "", DeliveryStatus.PENDING, 0, None),
        ("bob", NotificationKind.MATCH_STARTED, 0, "", DeliveryStatus.PENDING, 0, None),
        ("bob", NotificationKind.YOUR_TURN, 1, "", DeliveryStatus.PENDING, 0, None),
    ]
    assert list(match.moves.filter(seq__gte=1).values_list("seq", "actor_kind")) == [
        (1, ActorKind.TIMEOUT)
    ]


def test_the_timeout_brings_an_unread_row_up_to_date_and_leaves_a_later_one(traveller, alice, bob):
    match = sweep_match(alice, bob)
    sent_at = timezone.now()
    # Bob's unread "your turn" of an earlier turn, already emailed: the new
    # turn's notice takes its place, with a new delivery.
    earlier = Notification.objects.create(
        user=bob,
        match=match,
        kind=NotificationKind.YOUR_TURN,
        version=0,
        tag="old",
        status=DeliveryStatus.SENT,
        attempts=2,
        sent_at=sent_at,
        last_error="x",
    )
    # Alice's unread "time ran out" about a later version (as a moderator's
    # change could leave): the older event does not overwrite it.
    later = Notification.objects.create(
        user=alice,
        match=match,
        kind=NotificationKind.TIMED_OUT,
        version=99,
        status=DeliveryStatus.SENT,
    )
    traveller.move_to(START + DAY + timedelta(minutes=1))
    with mock.patch.object(outbox, "hand_over_after_commit") as hand_over:
        assert timeouts.sweep() == {"timed out": 1}
    earlier.refresh_from_db()
    assert (earlier.version, earlier.tag, earlier.status, earlier.attempts) == (
        1,
        "",
        DeliveryStatus.PENDING,
        0,
    )
    assert (earlier.sent_at, earlier.last_error, earlier.created_at) == (None, "", timezone.now())
    later.refresh_from_db()
    assert (later.version, later.status) == (99, DeliveryStatus.SENT)
    assert Notification.objects.filter(match=match, read_at__isnull=True).count() == 5
    handed = [c.args for c in hand_over.call_args_list]
    assert handed == [(notifications.DELIVER_NOTIFICATION, earlier.pk)]


def test_a_batch_writes_what_queue_writes_one_by_one(alice, bob):
    """The same events queued one by one and inside ``batched`` leave the
    same rows and hand over the same rows in the same order."""
    results = []
    for batch in (False, True):
        match = sweep_match(alice, bob)
        Notification.objects.filter(match=match).delete()
        Notification.objects.create(
            user=alice, match=match, kind=NotificationKind.YOUR_TURN, version=3
        )
        events = [
            (alice, NotificationKind.YOUR_TURN, 2, True),  # older than the unread row
            (bob, NotificationKind.YOUR_TURN, 4, True),
            (alice, NotificationKind.TIMED_OUT, 4, True),
            (bob, NotificationKind.YOUR_TURN, 6, True),  # brings bob's row up to date
            (bob, NotificationKind.YOUR_TURN, 5, True),  # older: changes nothing
            (alice, NotificationKind.YOUR_TURN, 5, True),
            (bob, NotificationKind.MATCH_FINISHED, 6, False),  # written in its turn
            (alice, NotificationKind.TIMED_OUT, 7, True),
        ]
        with (
            mock.patch.object(outbox, "hand_over_after_commit") as hand_over,
            transaction.atomic(),
            notifications.batched(match) if batch else transaction.atomic(),
        ):
            for user, kind, version, surely_new in events:
                notifications.queue(user, match, kind, version=version, surely_new=surely_new)
        by_pk = dict(Notification.objects.filter(match=match).values_list("pk", "kind"))
        by_user = dict(Notification.objects.filter(match=match).values_list("pk", "user__username"))
        handed = [(by_user[c.args[1]], by_pk[c.args[1]]) for c in hand_over.call_args_list]
        # One by one, a row brought up to date is handed over again at each
        # event; a batch hands it over once (delivery sends it once either way).
        results.append((rows(match), sorted(set(handed))))
    assert results[0] == results[1]
    assert results[1][0] == [
        ("alice", NotificationKind.TIMED_OUT, 7, "", DeliveryStatus.PENDING, 0, None),
        ("alice", NotificationKind.YOUR_TURN, 5, "", DeliveryStatus.PENDING, 0, None),
        ("bob", NotificationKind.MATCH_FINISHED, 6, "", DeliveryStatus.PENDING, 0, None),
        ("bob", NotificationKind.YOUR_TURN, 6, "", DeliveryStatus.PENDING, 0, None),
    ]


def test_the_rows_are_handed_over_in_the_order_of_their_events(traveller, alice, bob):
    """As one by one: the timed-out player's notice, then the next player's
    turn, in the one hand-over of the sweep's batch (``deliver_notifications``)."""
    match = sweep_match(alice, bob)
    traveller.move_to(START + DAY + timedelta(minutes=1))
    with mock.patch.object(outbox, "hand_over_after_commit") as hand_over:
        assert timeouts.sweep() == {"timed out": 1}
    kinds = dict(Notification.objects.filter(match=match).values_list("pk", "kind"))
    (call,) = hand_over.call_args_list
    assert call.args[0] == notifications.DELIVER_NOTIFICATIONS
    assert [kinds[pk] for pk in call.args[1]] == [
        NotificationKind.TIMED_OUT,
        NotificationKind.YOUR_TURN,
    ]


def test_nothing_is_written_when_the_batch_fails(alice, bob):
    match = sweep_match(alice, bob)
    before = rows(match)
    with pytest.raises(RuntimeError), transaction.atomic(), notifications.batched(match):
        notifications.queue(alice, match, NotificationKind.TIMED_OUT, surely_new=True)
        raise RuntimeError
    assert rows(match) == before


def test_a_loss_on_time_writes_the_same_rows(traveller, alice, bob):
    # Each seat moves first: a loss on time before that aborts the match.
    match = each_seat_moves(sweep_match(alice, bob, timeout_policy=TimeoutPolicy.LOSS))
    traveller.move_to(match.deadline + timedelta(minutes=1))
    assert timeouts.sweep() == {"timed out": 1}
    assert timeouts.sweep() == {}, "handled once"
    match = Match.objects.get(pk=match.pk)
    assert [(user, kind, version) for user, kind, version, *_rest in rows(match)] == [
        ("alice", NotificationKind.MATCH_FINISHED, 2),
        ("alice", NotificationKind.MATCH_STARTED, 0),
        ("alice", NotificationKind.TIMED_OUT, 2),
        ("alice", NotificationKind.YOUR_TURN, 2),
        ("bob", NotificationKind.MATCH_FINISHED, 2),
        ("bob", NotificationKind.MATCH_STARTED, 0),
        ("bob", NotificationKind.YOUR_TURN, 1),
    ]


def test_with_push_on_a_timeout_adds_one_read_and_one_insert(traveller, alice, bob, settings):
    """Push (VAPID keys set) costs the sweep's match transaction one query for
    the players' devices and one insert of their deliveries, whatever their number."""
    from games.correspondence import push
    from games.models import ChannelDelivery, NotificationKind, PushSubscription

    settings.VAPID_KEYS = push.new_vapid_keys()
    every = [k.value for k in NotificationKind]
    for user in (alice, bob):
        for n in range(3):
            PushSubscription.objects.create(
                user=user,
                endpoint=f"https://fcm.googleapis.com/fcm/send/{user.pk}-{n}",
                p256dh="p",
                auth="a",
                kinds=every,
            )
    match = sweep_match(alice, bob)
    ChannelDelivery.objects.all().delete()
    traveller.move_to(START + DAY + timedelta(minutes=1))
    with CaptureQueriesContext(connection) as ctx:
        assert timeouts.sweep() == {"timed out": 1}
    run = statements(ctx)
    assert len(run) == 10, run
    inserts = [sql for sql in run if sql.startswith("INSERT") and "games_channeldelivery" in sql]
    assert len(inserts) == 1, run
    assert ChannelDelivery.objects.filter(notification__match=match).count() == 6
