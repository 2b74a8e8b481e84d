"""Celery tasks of quick match: thin, taking nothing, safe to rerun."""

from celery import shared_task

from matchmaking import services


@shared_task(acks_late=True)
def match_waiting(after_request: bool = False) -> dict | None:
    """Every minute (beat), and right after a new request (``after_request``:
    at most one such pass every few seconds): one pass. Several workers may
    run it at once: a table is formed under its requests' locks, and a
    request seated or locked by another pass is left alone."""
    if after_request:
        return services.match_waiting_after_request()
    return services.match_waiting()
