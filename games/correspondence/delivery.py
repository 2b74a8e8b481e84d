"""Delivering a notification's email at most once.

Delivery claims the row (``sending``, committed) before talking to the mail
server and records the outcome after, each change conditional on the claim
it expects: a retried or duplicated task finds the row already claimed and
does not send again, so no email goes out twice. A failed send is retried
with back-off for about a day, then marked ``failed`` for moderators, who
can send it again; a permanent refusal (a 5xx answer) is ``failed`` at once,
with the server's reason. A claim left behind by a worker that died
mid-send is reported as ``failed`` by ``release_stuck_claims``, because
whether that email left is unknown. An email about a turn already over is
``skipped`` with its reason."""

from __future__ import annotations

import smtplib
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.correspondence.compose import build_email
from games.dispatch import outbox, quiet
from games.dispatch.notifications import DELIVER_NOTIFICATION, HELD_QUIET, UNDO_TAG, logger
from games.models import (
    DeliveryStatus,
    MatchStatus,
    Notification,
    NotificationKind,
    pending_undo,
    undo_judges,
)


def claim(notification_id: int) -> Notification | None:
    """Take a pending row for sending, in its own committed transaction."""
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user__profile", "match")
            .filter(pk=notification_id, status=DeliveryStatus.PENDING)
            .first()
        )
        if row is None:
            return None
        until = quiet.hold_until(row.user, timezone.now())
        if until is not None:
            # Inside the player's quiet hours (a retry, a late hand-over):
            # the relay hands it over again when they end.
            Notification.objects.filter(pk=row.pk).update(
                next_attempt_at=until, last_error=HELD_QUIET
            )
            return None
        row.status = DeliveryStatus.SENDING
        row.attempts += 1
        row.claimed_at = timezone.now()
        row.save(update_fields=["status", "attempts", "claimed_at"])
    return row


def deliver(notification_id: int) -> str:
    """Send one notification's email at most once. Returns what happened.

    Never raises for a mail error: the row records it and waits for its next
    try (``next_attempt_at``, picked up by the relay), or is ``failed`` after
    ``max_attempts()``. Every outcome is written only if the row is still
    under this claim, so a claim released meanwhile is never undone.
    """
    row = claim(notification_id)
    if row is None:
        return "nothing to do"
    if no_longer_true(row):
        _settle(row, status=DeliveryStatus.SKIPPED, last_error=NO_LONGER_TRUE)
        return DeliveryStatus.SKIPPED
    try:
        build_email(row).send()
    except Exception as error:
        return _record_failure(
            row, f"{type(error).__name__}: {error}"[:2000], permanent=permanent_refusal(error)
        )
    now = timezone.now()
    # Sent is true even if the claim was released as stuck meanwhile.
    Notification.objects.filter(
        pk=row.pk,
        claimed_at=row.claimed_at,
        status__in=[DeliveryStatus.SENDING, DeliveryStatus.FAILED],
    ).update(status=DeliveryStatus.SENT, sent_at=now, last_error="", next_attempt_at=None)
    return DeliveryStatus.SENT


NO_LONGER_TRUE = "Not sent: the turn it was about had ended before it could be delivered."


def no_longer_true(row: Notification) -> bool:
    """A "your turn" or reminder email about a turn that is over would mislead, and
    so would a request to take back a move that was already answered."""
    match = row.match
    if row.kind == NotificationKind.UNDO_REQUEST:
        return undo_request_asker(row) is None
    if row.kind not in (NotificationKind.YOUR_TURN, NotificationKind.REMINDER):
        return False
    return match.status != MatchStatus.ACTIVE or match.version != row.version


def undo_request_asker(row: Notification) -> int | None:
    """The seat whose request this row is about, while it still waits for this
    player's answer; None once it is answered, withdrawn by a move, or over."""
    request = pending_undo(row.match)
    if request is None or row.tag != f"{UNDO_TAG}{request['seat']}":
        return None
    if row.version != request["seq"]:
        return None
    seats = list(row.match.seats.all())
    mine = next((s.index for s in seats if s.user_id == row.user_id), None)
    if mine not in undo_judges(seats, request["seat"]) or mine in request["agreed"]:
        return None
    return request["seat"]


def _settle(row: Notification, **fields) -> bool:
    """Write the outcome of this claim, only if the row is still under it."""
    return bool(
        Notification.objects.filter(
            pk=row.pk, status=DeliveryStatus.SENDING, claimed_at=row.claimed_at
        ).update(**fields)
    )


def permanent_refusal(error: BaseException) -> str | None:
    """The server's reason when it refused for good (a 5xx answer: no such
    mailbox, a rejected sender or message), or None for anything worth trying
    again (a 4xx answer, a timeout, a lost connection).

    A refusal of the recipients names each address with its own answer; it is
    permanent only if every address was refused with a 5xx.
    """
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        answers = list(error.recipients.values())
        if answers and all(500 <= code < 600 for code, _reason in answers):
            return "; ".join(f"{code} {_text(reason)}" for code, reason in answers)
        return None
    if isinstance(error, smtplib.SMTPResponseException) and 500 <= error.smtp_code < 600:
        return f"{error.smtp_code} {_text(error.smtp_error)}"
    return None


def _text(reason) -> str:
    return reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)


def _record_failure(row: Notification, error: str, permanent: str | None = None) -> str:
    if permanent:
        status, next_at = DeliveryStatus.FAILED, None
        error = f"Refused for good by the mail server: {permanent}"[:2000]
        logger.error("notification %s refused for good: %s", row.pk, permanent)
    elif row.attempts >= max_attempts():
        status, next_at = DeliveryStatus.FAILED, None
        logger.error("notification %s failed for good: %s", row.pk, error)
    else:
        status, next_at = DeliveryStatus.PENDING, timezone.now() + retry_delay(row.attempts)
        logger.warning("notification %s attempt %s failed: %s", row.pk, row.attempts, error)
    if not _settle(row, status=status, last_error=error, next_attempt_at=next_at):
        logger.warning("notification %s: claim released meanwhile, left as it is", row.pk)
    return status


def max_attempts() -> int:
    return settings.SMOKI["EMAIL_ATTEMPTS"]


def retry_delay(attempts: int) -> timedelta:
    """Back-off after the ``attempts``-th failure: doubling from
    ``RETRY_BASE_SECONDS`` up to ``RETRY_MAX_SECONDS``. With the defaults
    (1 minute, 1 hour, 30 attempts) an email keeps trying for about a day."""
    base = settings.SMOKI["RETRY_BASE_SECONDS"]
    cap = settings.SMOKI["RETRY_MAX_SECONDS"]
    return timedelta(seconds=min(cap, base * 2 ** min(attempts - 1, 30)))


def release_stuck_claims(now=None) -> int:
    """Claims older than ``STUCK_AFTER_SECONDS`` (15 minutes) belong to a worker that died mid-send: the
    email may or may not have left, so it is not sent again but marked failed
    for a moderator to see. The same holds for a digest whose rows were
    claimed but never recorded as sent."""
    now = now or timezone.now()
    stuck = now - timedelta(seconds=settings.SMOKI["STUCK_AFTER_SECONDS"])
    released = Notification.objects.filter(
        status=DeliveryStatus.SENDING, claimed_at__lt=stuck
    ).update(
        status=DeliveryStatus.FAILED,
        last_error="The worker stopped while sending; the email may not have been delivered.",
        next_attempt_at=None,
    )
    released += Notification.objects.filter(
        status=DeliveryStatus.IN_DIGEST, sent_at__isnull=True, claimed_at__lt=stuck
    ).update(
        status=DeliveryStatus.FAILED,
        last_error="The worker stopped while sending the daily digest; "
        "it may not have been delivered.",
        next_attempt_at=None,
    )
    return released


def resend(row: Notification) -> bool:
    """A moderator sends a failed email again: back to ``pending`` with a fresh
    count of attempts, handed over after the commit. False if it was not failed."""
    changed = Notification.objects.filter(pk=row.pk, status=DeliveryStatus.FAILED).update(
        status=DeliveryStatus.PENDING,
        attempts=0,
        claimed_at=None,
        next_attempt_at=timezone.now() + outbox.relay_after(),
    )
    if changed:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATION, row.pk)
    return bool(changed)
