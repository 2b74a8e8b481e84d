"""Rated matches for the players' tests, built and finished through the
service layer (``games.lobby`` to start them, ``games.play.services.finish_match``
or the moderators' and players' own paths to end them)."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.lobby import services as lobby
from games.models import Match, MatchStatus
from games.play import services


@pytest.fixture
def players(make_user):
    """Seven players, p0 … p6."""
    return [make_user(f"p{i}") for i in range(7)]


def start_match(users, game_key: str = "nogi", options=None, **kwargs) -> Match:
    """A match of ``users`` (seat i is users[i]), started by the last join."""
    match = lobby.create_match(
        user=users[0], game_key=game_key, n_seats=len(users), options=options, **kwargs
    )
    for user in users[1:]:
        lobby.join_match(user=user, match=match, token=match.invite_token)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return match


def finish(match: Match, ranks: list[int], details: dict | None = None) -> Match:
    """End an active match with ``ranks`` through ``services.finish_match``,
    as a game's last move does: the match locked, its seats read, the match
    saved in the same transaction."""
    with transaction.atomic():
        match = services.lock_match(match)
        seats = services.seats_of(match)
        scores = [None] * match.n_seats
        services.finish_match(
            match,
            seats,
            ranks,
            scores,
            {"ranks": ranks, "scores": scores, "details": details or {}},
        )
        match.save()
    match.refresh_from_db()
    return match
