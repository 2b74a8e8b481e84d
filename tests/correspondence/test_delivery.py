"""Email delivery from the outbox: once, even when a worker fails or dies mid-way."""

from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.correspondence import compose, delivery
from games.dispatch import notifications, outbox
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import DeliveryStatus, Notification, NotificationKind
from games.play import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending(alice, bob):
    """A pending "your turn" row for alice, not yet delivered."""
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    row = Notification.objects.get(user=alice, kind=NotificationKind.YOUR_TURN)
    assert row.status == DeliveryStatus.PENDING
    # The "match started" rows are not what these tests are about.
    Notification.objects.exclude(pk=row.pk).update(status=DeliveryStatus.SKIPPED)
    mail.outbox.clear()
    return row


def test_delivery_sends_once_and_records_it(pending):
    assert delivery.deliver(pending.pk) == DeliveryStatus.SENT
    assert delivery.deliver(pending.pk) == "nothing to do"
    pending.refresh_from_db()
    assert (pending.status, pending.attempts) == (DeliveryStatus.SENT, 1)
    assert pending.sent_at is not None
    assert len(mail.outbox) == 1


def test_a_failed_send_is_retried_later_and_then_sent_exactly_once(pending):
    with mock.patch.object(
        mail.EmailMultiAlternatives, "send", side_effect=ConnectionRefusedError("smtp down")
    ):
        assert delivery.deliver(pending.pk) == DeliveryStatus.PENDING
    pending.refresh_from_db()
    assert pending.attempts == 1 and "smtp down" in pending.last_error
    assert pending.next_attempt_at > timezone.now(), "the retry waits for its back-off"
    assert mail.outbox == []
    assert outbox.relay()["notifications"] == 0, "not due yet"
    with time_machine.travel(pending.next_attempt_at + timedelta(seconds=1)):
        assert outbox.relay()["notifications"] == 1  # eagerly delivered
    pending.refresh_from_db()
    assert (pending.status, pending.attempts) == (DeliveryStatus.SENT, 2)
    assert pending.last_error == "", "the old error is cleared once sent"
    assert len(mail.outbox) == 1


def test_retries_back_off_for_about_a_day_before_failing(pending):
    """An SMTP outage of hours loses nothing: the delay doubles up to an hour
    and the row is only failed after about a day of tries."""
    started = timezone.now()
    delays = []
    with (
        mock.patch.object(mail.EmailMultiAlternatives, "send", side_effect=OSError("down")),
        time_machine.travel(started, tick=False) as clock,
    ):
        while True:
            pending.refresh_from_db()
            if pending.status != DeliveryStatus.PENDING:
                break
            delays.append(pending.next_attempt_at - timezone.now())
            clock.move_to(pending.next_attempt_at)
            outbox.relay()
        failed_at = timezone.now()
    assert pending.status == DeliveryStatus.FAILED
    assert pending.attempts == delivery.max_attempts()
    assert delays[1] == timedelta(minutes=1) and delays[2] == timedelta(minutes=2)
    assert max(delays) == timedelta(hours=1)
    assert failed_at - started > timedelta(hours=20)
    assert mail.outbox == []


def test_a_released_claim_is_not_undone_when_the_hung_send_wakes(pending):
    """The send hung past STUCK_AFTER, the claim was released as failed, then
    the send raised: the row stays failed, it does not go back to pending
    (which would send it while a moderator is told it may have left)."""

    def hang_then_fail(self, *args, **kwargs):
        delivery.release_stuck_claims(timezone.now() + timedelta(hours=1))
        raise TimeoutError("woke up")

    with mock.patch.object(mail.EmailMultiAlternatives, "send", hang_then_fail):
        delivery.deliver(pending.pk)
    pending.refresh_from_db()
    assert pending.status == DeliveryStatus.FAILED
    assert "stopped while sending" in pending.last_error
    assert outbox.relay(timezone.now() + timedelta(days=1))["notifications"] == 0
    assert mail.outbox == []


def test_a_your_turn_email_about_a_turn_already_played_is_not_sent(pending, alice, nogi):
    """Delivered late (say, after an SMTP outage), "your turn" would be false:
    the row says why it was not sent."""
    match = pending.match
    legal = nogi.legal_actions(match.state, 0)
    services.submit_action(match, alice, legal[0], match.version)
    assert delivery.deliver(pending.pk) == DeliveryStatus.SKIPPED
    pending.refresh_from_db()
    assert pending.status == DeliveryStatus.SKIPPED and "turn" in pending.last_error
    assert [m.subject for m in mail.outbox if "Your turn" in m.subject and "alice" in m.to[0]] == []


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
        delivery.deliver(pending.pk)
    assert len(mail.outbox) == 1
    assert delivery.deliver(pending.pk) == "nothing to do"  # the redelivered task
    assert len(mail.outbox) == 1
    # Later the claim is recognised as stuck and shown to moderators, not resent.
    assert delivery.release_stuck_claims(timezone.now() + timedelta(hours=1)) == 1
    pending.refresh_from_db()
    assert pending.status == DeliveryStatus.FAILED and "stopped while sending" in pending.last_error


def test_after_max_attempts_the_row_fails_for_good(pending):
    Notification.objects.filter(pk=pending.pk).update(attempts=delivery.max_attempts() - 1)
    with mock.patch.object(mail.EmailMultiAlternatives, "send", side_effect=OSError("no route")):
        assert delivery.deliver(pending.pk) == DeliveryStatus.FAILED
    pending.refresh_from_db()
    assert pending.status == DeliveryStatus.FAILED and "no route" in pending.last_error


def test_one_click_unsubscribe_needs_no_login(pending, alice):
    delivery.deliver(pending.pk)
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
    token = compose.unsubscribe_token(alice, "email_your_turn")
    assert Client().post(f"/unsubscribe/{token[:-2]}xx/").status_code == 400
    alice.profile.refresh_from_db()
    assert alice.profile.email_your_turn == "immediate"


def test_the_digest_unsubscribe_stops_everything(alice):
    token = compose.unsubscribe_token(alice, "all")
    Client().post(f"/unsubscribe/{token}/")
    alice.profile.refresh_from_db()
    assert {
        alice.profile.email_your_turn,
        alice.profile.email_reminder,
        alice.profile.email_match_events,
        alice.profile.email_invitation,
    } == {"never"}


def test_an_invitation_is_notified_once(alice, bob, django_capture_on_commit_callbacks):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    with django_capture_on_commit_callbacks(execute=True):
        invitations.invite_user(user=alice, match=match, username="bob")
        invitations.invite_user(user=alice, match=match, username="bob")
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "invites you" in mail.outbox[0].subject


def test_each_email_a_row_sends_names_the_turn_it_is_about(pending, alice):
    """The unread row is sent again for a later turn (a new email, a new
    ``X-Smoki-Ref``); the same turn sent twice would carry the same ref."""
    assert delivery.deliver(pending.pk) == DeliveryStatus.SENT
    match = pending.match
    match.version += 2  # two moves later, alice is to move again
    match.save(update_fields=["version"])
    notifications.queue(alice, match, NotificationKind.YOUR_TURN)
    assert delivery.deliver(pending.pk) == DeliveryStatus.SENT
    refs = [message.extra_headers["X-Smoki-Ref"] for message in mail.outbox]
    assert refs == [f"{pending.pk}-v{pending.version}", f"{pending.pk}-v{pending.version + 2}"]
    pending.refresh_from_db()
    assert compose.email_ref(pending) == refs[1]
    assert Notification.objects.filter(user=alice, kind=NotificationKind.YOUR_TURN).count() == 1


# -- Why an email was skipped ------------------------------------------------------------


@pytest.fixture
def duel(alice, bob, nogi):
    """A two-player match where alice moves first."""
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match


def alice_moves(match, alice, nogi):
    match.refresh_from_db()
    seat = nogi.current_seats(match.state)[0]
    assert match.seats.get(index=seat).user == alice
    services.submit_action(match, alice, nogi.legal_actions(match.state, seat)[0], match.version)


def bobs_turn_row(bob):
    return Notification.objects.get(user=bob, kind=NotificationKind.YOUR_TURN, read_at=None)


def test_a_your_turn_email_skipped_because_the_page_was_open_says_so(duel, alice, bob, nogi):
    notifications.record_visit(duel, bob)
    alice_moves(duel, alice, nogi)
    row = bobs_turn_row(bob)
    assert row.status == DeliveryStatus.SKIPPED
    assert row.last_error == notifications.SKIPPED_RECENTLY_VIEWED
    assert "open in the last five minutes" in row.last_error


def test_an_email_the_player_never_wants_says_so(duel, alice, bob, nogi):
    bob.profile.email_your_turn = "never"
    bob.profile.save()
    alice_moves(duel, alice, nogi)
    row = bobs_turn_row(bob)
    assert (row.status, row.last_error) == (DeliveryStatus.SKIPPED, notifications.SKIPPED_NEVER)


def test_an_email_to_a_player_without_an_address_says_so(alice, bob):
    bob.email = ""
    bob.save()
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    row = Notification.objects.get(user=bob, kind=NotificationKind.MATCH_STARTED)
    assert (row.status, row.last_error) == (
        DeliveryStatus.SKIPPED,
        notifications.SKIPPED_NO_ADDRESS,
    )


def test_a_row_brought_up_to_date_keeps_only_the_current_reason(duel, alice, bob, nogi):
    """Skipped while bob looked, then pending when he had gone: no stale reason."""
    from datetime import timedelta

    notifications.record_visit(duel, bob)
    alice_moves(duel, alice, nogi)
    assert bobs_turn_row(bob).last_error == notifications.SKIPPED_RECENTLY_VIEWED
    duel.seats.filter(user=bob).update(last_seen_at=timezone.now() - timedelta(hours=1))
    duel.refresh_from_db()
    notifications.queue(
        bob,
        duel,
        NotificationKind.YOUR_TURN,
        version=duel.version + 1,
        seat=duel.seats.get(user=bob),
    )
    row = bobs_turn_row(bob)
    assert (row.status, row.last_error) == (DeliveryStatus.PENDING, "")
