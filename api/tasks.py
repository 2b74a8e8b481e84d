"""The API's housekeeping on the beat."""

from celery import shared_task

from api.models import IdempotentAnswer


@shared_task(ignore_result=True)
def prune_idempotent_answers() -> int:
    """Delete the answers kept for ``Idempotency-Key`` retries once their day is
    over: nothing reads them then (``IdempotentAnswer.objects.kept``), and a
    bot that sends a key with every move would otherwise grow the table forever."""
    deleted, _ = IdempotentAnswer.objects.expired().delete()
    return deleted
