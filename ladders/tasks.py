"""Celery tasks of the ladders: thin, taking nothing, safe to rerun."""

from celery import shared_task

from ladders import services


@shared_task(acks_late=True)
def expire_challenges() -> dict:
    """Every few minutes (beat): close the challenges not accepted in time.
    Several workers may run it at once: each challenge is settled under its
    match's and ladder's locks, and a closed one is skipped."""
    return services.expire_due()
