"""Ladders built through the services: players joined in order, challenges
issued, accepted and finished through ``games`` as players would."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.play import services
from ladders import services as ladder_services
from ladders.models import Entry


@pytest.fixture
def ladder_of(make_user):
    """``ladder_of(n, game)``: n players p1 … pn joined in order (p1 on top)."""

    def build(n: int, game_key: str = "drako", prefix: str = "p"):
        users = [make_user(f"{prefix}{i}") for i in range(1, n + 1)]
        for user in users:
            ladder_services.join(user, game_key)
        return users

    return build


def order(game_key: str = "drako") -> list[str]:
    """The ladder's usernames, top first."""
    return list(
        Entry.objects.filter(ladder__game_key=game_key)
        .order_by("rung")
        .values_list("user__username", flat=True)
    )


def finish(match, ranks: list[int]):
    """End the match with ``ranks`` (by seat) as its last move would."""
    with transaction.atomic():
        match = services.lock_match(match)
        seats = services.seats_of(match)
        scores = [None] * match.n_seats
        services.finish_match(match, seats, ranks, scores, {"ranks": ranks, "scores": scores})
        match.save()
    match.refresh_from_db()
    return match


def seat_ranks(match, winner) -> list[int]:
    """Ranks by seat with ``winner`` first."""
    return [1 if seat.user_id == winner.pk else 2 for seat in match.seats.order_by("index")]
