"""Celery tasks: thin wrappers over ``tournaments.services``, taking ids and
safe to rerun (each step is done under the tournament's lock, once)."""

from celery import shared_task

from tournaments import services


@shared_task(acks_late=True)
def advance_tournament(tournament_id: int) -> str:
    """Handed over after a tournament match ends: the next round, or the end."""
    return services.advance(tournament_id)


@shared_task(acks_late=True)
def sweep_tournaments() -> dict:
    """Every minute (beat): start the tournaments due, and advance any whose
    round is over should a hand-over have been lost."""
    return services.sweep()
