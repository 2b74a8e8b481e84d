"""Tournaments built and played through the services: entrants sign up,
the clock starts the tournament, and each table's match is ended through
``games.play.services.finish_match`` (as a game's last move does) or played out
by bots."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games.models import Match, MatchStatus
from games.play import services as game_services
from tournaments import services
from tournaments.models import Placement, Tournament


@pytest.fixture
def people(make_user):
    """Twelve players, u00 … u11."""
    return [make_user(f"u{i:02d}") for i in range(12)]


def new_tournament(creator, *, format="swiss", rounds=3, table_size=2, game_key="nogi", **kw):
    kw.setdefault("min_entrants", 2)
    kw.setdefault("max_entrants", 16 if format == "round_robin" else 64)
    return services.create_tournament(
        user=creator,
        name=kw.pop("name", "Autumn cup"),
        game_key=game_key,
        table_size=table_size,
        format=format,
        rounds=rounds,
        starts_at=kw.pop("starts_at", timezone.now() + timedelta(hours=1)),
        **kw,
    )


def entered(tournament: Tournament, users) -> Tournament:
    for user in users:
        if not tournament.entrants.filter(user=user).exists():
            services.join(user=user, tournament=tournament)
    return tournament


def start_now(tournament: Tournament) -> str:
    return services.start(tournament.pk, now=tournament.starts_at + timedelta(seconds=1))


def running_matches(tournament: Tournament) -> list[Match]:
    ids = Placement.objects.filter(
        round__tournament=tournament, round__number=_current(tournament)
    ).values_list("match_id", flat=True)
    return list(Match.objects.filter(pk__in=ids, status=MatchStatus.ACTIVE).order_by("pk"))


def _current(tournament: Tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).current_round


def finish(match: Match, ranks: list[int]) -> None:
    with transaction.atomic():
        match = game_services.lock_match(match)
        seats = game_services.seats_of(match)
        scores = [None] * match.n_seats
        game_services.finish_match(
            match, seats, ranks, scores, {"ranks": ranks, "scores": scores, "details": {}}
        )
        match.save()


def play_round(tournament: Tournament, rng: random.Random, draws: bool = False) -> str:
    """End every match of the current round with random ranks, then advance."""
    for match in running_matches(tournament):
        n = match.n_seats
        if draws and n == 2 and rng.random() < 0.2:
            ranks = [1, 1]
        else:
            order = list(range(n))
            rng.shuffle(order)
            ranks = [0] * n
            for place, seat in enumerate(order, start=1):
                ranks[seat] = place
        finish(match, ranks)
    return services.advance(tournament.pk)
