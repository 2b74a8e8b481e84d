"""What a tournament tells its entrants: it started, a round started, it
ended, it was cancelled. Each is an outbox row per entrant
(``games.notifications.queue_tournament``), emailed in the player's language."""

from __future__ import annotations

from collections.abc import Collection

from games import notifications

STARTED = "started"
ROUND = "round"
FINISHED = "finished"
CANCELLED = "cancelled"


def tournament_event(
    tournament, event: str, round_number: int = 0, byes: Collection[int] = ()
) -> None:
    """Queue one notification per entrant still in the tournament (inside the
    caller's transaction; delivered after the commit). ``byes``: the entrant
    ids sitting the round out."""
    from tournaments.models import EntrantStatus

    entrants = tournament.entrants.filter(status=EntrantStatus.ACTIVE).select_related(
        "user__profile"
    )
    for entrant in entrants:
        notifications.queue_tournament(
            entrant.user,
            tournament_id=tournament.pk,
            name=tournament.name,
            event=event,
            round_number=round_number,
            bye=entrant.pk in byes,
        )
