"""Seasons built through the services: a season opened for a quarter,
players signed up, the clock starting it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from seasons import services
from seasons.models import Season
from tests.tournaments.conftest import finish, running_matches
from tournaments import services as tournament_services

#: A moment inside a quarter's sign-up weeks (Q1 2027 starts 1 January).
SIGNUP_TIME = datetime(2026, 12, 20, 12, tzinfo=UTC)
START_TIME = datetime(2027, 1, 1, 0, 1, tzinfo=UTC)


@pytest.fixture
def many(make_user):
    """Twenty players, p00 … p19."""
    return [make_user(f"p{i:02d}") for i in range(20)]


@pytest.fixture
def season(db, settings) -> Season:
    settings.SMOKI = {**settings.SMOKI, "SEASON_GAMES": ["nogi"]}
    services.open_signups(SIGNUP_TIME)
    return Season.objects.get(game_key="nogi", year=2027, quarter=1)


def signed_up(season: Season, users) -> Season:
    """Signed up a day after the season's sign-up opened."""
    for user in users:
        services.sign_up(user=user, season=season, now=later(season.signup_opens_at, 1))
    return season


def begin(season: Season, now: datetime = START_TIME) -> str:
    """Start a season and, as its tasks would, every division's tournament."""
    outcome = services.start(season.pk, now=now)
    for pk in services.waiting_divisions(now, grace=timedelta(0)):
        services.start_division(pk, now)
    return outcome


def play_out(season: Season, seed: int = 1) -> None:
    """Every division's tournament played to the end with random results."""
    rng = random.Random(seed)
    for division in season.divisions.select_related("tournament"):
        tournament = division.tournament
        for _round in range(tournament.rounds + 1):
            for match in running_matches(tournament):
                ranks = [1, 2] if rng.random() < 0.5 else [2, 1]
                finish(match, ranks)
            if tournament_services.advance(tournament.pk) in ("finished", "not running"):
                break


def later(moment: datetime, days: int) -> datetime:
    return moment + timedelta(days=days)
