"""Celery tasks: thin wrappers over services that take ids and are safe to rerun.

Deliveries (single emails and digests) go to the ``mail`` queue, everything
else to the default ``celery`` queue (``CELERY_TASK_ROUTES``), so a slow mail
server can never hold the workers the sweep and the bots need.
"""

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model

from games.correspondence import delivery, digests, push
from games.dispatch import outbox
from games.play import reviews, services, timeouts, vacation


@shared_task(acks_late=True)
def play_bot_turns(match_id: int) -> int:
    limit = settings.SMOKI["BOT_MOVES_PER_TASK"]
    played = services.play_bot_turns(match_id, limit)
    if played == limit:
        # A long run of bot moves: hand over to a fresh task so one match
        # cannot hold a worker for long.
        outbox.hand_over("games.tasks.play_bot_turns", match_id)
    return played


@shared_task(acks_late=True)
def review_match(review_id: int) -> str:
    """Compute a finished match's review (``games.play.reviews``), on the
    ``reviews`` queue, never the bots'."""
    return reviews.compute(review_id)


@shared_task(acks_late=True)
def sweep_deadlines() -> dict:
    """Every minute (beat): reminders and timeouts for the matches due now.

    A backlog is shared out: batches after the first go to ``wake_matches``
    on whichever workers are free."""
    return timeouts.sweep(share=_share_wakes)


def _share_wakes(match_ids: list[int]) -> bool:
    return outbox.hand_over("games.tasks.wake_matches", match_ids)


@shared_task(acks_late=True)
def wake_matches(match_ids: list[int]) -> dict:
    """A batch of the sweep's due matches (see ``timeouts.sweep``); safe to rerun:
    a match already woken is no longer due and is skipped."""
    return timeouts.wake_matches(match_ids)


@shared_task(acks_late=True)
def take_automatic_vacation(user_id: int) -> bool:
    """The sweep found this player's deadline passing: their automatic vacation."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    return bool(user) and vacation.start_automatic(user)


@shared_task(acks_late=True)
def relay_outbox() -> dict:
    """Every minute (beat): hand over again whatever the broker lost."""
    return outbox.relay()


@shared_task(acks_late=True)
def deliver_notification(notification_id: int) -> str:
    """Retries are not Celery's: a failure is recorded on the row with its next
    try, and the relay hands it over when that time comes (hours, not minutes,
    and nothing held in a worker's memory meanwhile)."""
    return delivery.deliver(notification_id)


@shared_task(acks_late=True)
def deliver_notifications(notification_ids: list[int]) -> list[str]:
    """The rows of one sweep batch's notices, delivered in turn: one hand-over
    for them all instead of one each. Each row is claimed and settled on its
    own, as by ``deliver_notification``, so a rerun sends nothing twice."""
    return [delivery.deliver(pk) for pk in notification_ids]


@shared_task(acks_late=True)
def deliver_pushes(notification_id: int) -> list[str]:
    """A notification's push deliveries, one per device; retried like email."""
    return push.deliver_all(notification_id)


@shared_task(acks_late=True)
def deliver_push(delivery_id: int) -> str:
    """One push delivery due again (handed over by the relay)."""
    return push.deliver(delivery_id)


@shared_task(acks_late=True)
def release_stuck_claims() -> int:
    return delivery.release_stuck_claims() + push.release_stuck_claims()


@shared_task(acks_late=True)
def send_daily_digests() -> int:
    return digests.send_all()


@shared_task(acks_late=True)
def send_digest(user_id: int) -> bool:
    """One user's digest again, after a failed attempt (queued by the relay)."""
    return digests.send_for_user(user_id)
