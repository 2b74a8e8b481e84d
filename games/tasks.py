"""Celery tasks: thin wrappers over services that take ids and are safe to rerun."""

from celery import shared_task
from django.conf import settings

from games import services


@shared_task(acks_late=True)
def play_bot_turns(match_id: int) -> int:
    limit = settings.SMOKI["BOT_MOVES_PER_TASK"]
    played = services.play_bot_turns(match_id, limit)
    if played == limit:
        # A long run of bot moves: hand over to a fresh task so one match
        # cannot hold a worker for long.
        play_bot_turns.delay(match_id)
    return played
