"""Celery tasks of the streams: safe to rerun."""

from celery import shared_task

from streams import events


@shared_task(acks_late=True)
def prune_events() -> int:
    """Every hour (beat): forget the players' events older than the kept
    window (``SMOKI_STREAM_KEEP_HOURS``), which no stream resumes from."""
    return events.prune()
