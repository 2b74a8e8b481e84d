"""Email delivery from the outbox: once, even when a worker fails or dies mid-way."""

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import notifications, services
from games.models import DeliveryStatus, Notification, NotificationKind
from games.tasks import deliver_notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending(alice, bob):
    """A pending "your turn" row for alice, not yet delivered."""
    match = services.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    services.join_match(user=bob, match=match)
    row = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    assert row.status == DeliveryStatus.PENDING
    mail.outbox.clear()
    return row


def test_delivery_sends_once_and_records_it(pending):
    assert notifications.deliver(pending.pk) == DeliveryStatus.SENT
    assert notifications.deliver(pending.pk) == "nothing to do"
    pending.refresh_from_db()
    assert (pending.status, pending.attempts) == (DeliveryStatus.SENT, 1)
    assert pending.sent_at is not None
    assert len(mail.outbox) == 1


def test_a_failed_send_is_retried_and_then_sent_exactly_once(pending):
    with (
        mock.patch.object(
            mail.EmailMultiAlternatives, "send", side_effect=ConnectionRefusedError("smtp down")
        ),
        pytest.raises(ConnectionRefusedError),
    ):
        notifications.deliver(pending.pk)
    pending.refresh_from_db()
    assert pending.status == DeliveryStatus.PENDING
    assert pending.attempts == 1 and "smtp down" in pending.last_error
    assert mail.outbox == []
    assert notifications.deliver(pending.pk) == DeliveryStatus.SENT
    pending.refresh_from_db()
    assert pending.attempts == 2 and len(mail.outbox) == 1


def test_the_task_retries_through_celery(pending):
    calls = {"n": 0}
    real_send = mail.EmailMultiAlternatives.send

    def flaky(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise TimeoutError("slow smtp")
        return real_send(self, *args, **kwargs)

    with mock.patch.object(mail.EmailMultiAlternatives, "send", flaky):
        # Eagerly, Celery runs the retry at once in the same call.
        deliver_notification.apply(args=[pending.pk], throw=False)
    pending.refresh_from_db()
    assert (pending.status, pending.attempts) == (DeliveryStatus.SENT, 2)
    assert calls["n"] == 2 and len(mail.outbox) == 1


def test_a_worker_that_dies_after_sending_never_sends_twice(pending):
    """The mail left, then the worker died before recording it; acks_late
    redelivers the task, which finds the row claimed and does not resend."""

    class WorkerDied(BaseException):
        pass

    real_send = mail.EmailMultiAlternatives.send

    def send_then_die(self, *args, **kwargs):
        real_send(self, *args, **kwargs)
        raise WorkerDied

    with (
        mock.patch.object(mail.EmailMultiAlternatives, "send", send_then_die),
        pytest.raises(WorkerDied),
    ):
        notifications.deliver(pending.pk)
    assert len(mail.outbox) == 1
    assert notifications.deliver(pending.pk) == "nothing to do"  # the redelivered task
    assert len(mail.outbox) == 1
    # Later the claim is recognised as stuck and shown to moderators, not resent.
    assert notifications.release_stuck_claims(timezone.now() + timedelta(hours=1)) == 1
    pending.refresh_from_db()
    assert pending.status == DeliveryStatus.FAILED and "stopped while sending" in pending.last_error


def test_after_max_attempts_the_row_fails_for_good(pending):
    Notification.objects.filter(pk=pending.pk).update(attempts=notifications.MAX_ATTEMPTS - 1)
    with mock.patch.object(mail.EmailMultiAlternatives, "send", side_effect=OSError("no route")):
        assert notifications.deliver(pending.pk) == DeliveryStatus.FAILED
    pending.refresh_from_db()
    assert pending.status == DeliveryStatus.FAILED and "no route" in pending.last_error


def test_one_click_unsubscribe_needs_no_login(pending, alice):
    notifications.deliver(pending.pk)
    header = mail.outbox[0].extra_headers["List-Unsubscribe"]
    path = header.strip("<>").split("8000")[-1]
    client = Client(enforce_csrf_checks=True)
    page = client.get(path)
    assert page.status_code == 200 and "confirm-unsubscribe" in page.content.decode()
    alice.profile.refresh_from_db()
    assert alice.profile.email_your_turn == "immediate", "GET changes nothing"
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    alice.profile.refresh_from_db()
    assert alice.profile.email_your_turn == "never"
    assert alice.profile.email_reminder == "immediate", "only that kind"


def test_a_forged_unsubscribe_token_is_refused(alice):
    token = notifications.unsubscribe_token(alice, "email_your_turn")
    assert Client().post(f"/unsubscribe/{token[:-2]}xx/").status_code == 400
    alice.profile.refresh_from_db()
    assert alice.profile.email_your_turn == "immediate"


def test_the_digest_unsubscribe_stops_everything(alice):
    token = notifications.unsubscribe_token(alice, "all")
    Client().post(f"/unsubscribe/{token}/")
    alice.profile.refresh_from_db()
    assert {
        alice.profile.email_your_turn,
        alice.profile.email_reminder,
        alice.profile.email_match_events,
        alice.profile.email_invitation,
    } == {"never"}


def test_an_invitation_is_notified_once(alice, bob, django_capture_on_commit_callbacks):
    match = services.create_match(user=alice, game_key="nogi", n_seats=3)
    with django_capture_on_commit_callbacks(execute=True):
        services.invite_user(user=alice, match=match, username="bob")
        services.invite_user(user=alice, match=match, username="bob")
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "invites you" in mail.outbox[0].subject
