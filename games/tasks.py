"""Celery tasks: thin wrappers over services that take ids and are safe to rerun."""

from celery import shared_task
from django.conf import settings

from games import digests, notifications, services


@shared_task(acks_late=True)
def play_bot_turns(match_id: int) -> int:
    limit = settings.SMOKI["BOT_MOVES_PER_TASK"]
    played = services.play_bot_turns(match_id, limit)
    if played == limit:
        # A long run of bot moves: hand over to a fresh task so one match
        # cannot hold a worker for long.
        play_bot_turns.delay(match_id)
    return played


@shared_task(acks_late=True)
def sweep_deadlines() -> dict:
    """Every minute (beat): reminders and timeouts for the matches due now."""
    return services.sweep()


@shared_task(bind=True, acks_late=True, max_retries=notifications.MAX_ATTEMPTS)
def deliver_notification(self, notification_id: int) -> str:
    try:
        return notifications.deliver(notification_id)
    except Exception as error:
        base = settings.SMOKI["RETRY_BASE_SECONDS"]
        raise self.retry(exc=error, countdown=base * 2**self.request.retries) from error


@shared_task(acks_late=True)
def release_stuck_claims() -> int:
    return notifications.release_stuck_claims()


@shared_task(acks_late=True)
def send_daily_digests() -> int:
    return digests.send_all()
