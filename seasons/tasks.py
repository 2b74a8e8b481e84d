"""Celery tasks: thin wrappers over ``seasons.services``, safe to rerun."""

from celery import shared_task

from seasons import services


@shared_task(acks_late=True)
def sweep_seasons() -> dict:
    """Every ten minutes (beat): open next quarter's sign-up when its time
    comes, start the seasons due, finish those whose divisions are over."""
    return services.sweep()


@shared_task(acks_late=True)
def start_division(tournament_id: int) -> str:
    """Handed over as a season starts: one division's first round."""
    return services.start_division(tournament_id)
