"""Ratings with a real spread for the benchmarks that seed players by rating
(a tournament's start, a season's divisions). Import after ``startup.start``."""

from __future__ import annotations

import random


def bulk_rate(users, *, seed: int, mu: tuple[float, float], sigma: tuple[float, float]):
    """Give each user a Nogi rating drawn from ``mu`` and ``sigma``'s ranges
    (repeatable by ``seed``), as after 20 rated matches; returns the ratings."""
    from players.models import Rating, display_of

    rng = random.Random(seed)
    ratings = []
    for user in users:
        m, s = rng.uniform(*mu), rng.uniform(*sigma)
        ratings.append(
            Rating(
                user=user,
                game_key="nogi",
                mu=m,
                sigma=s,
                display=display_of(m, s),
                rated_matches=20,
            )
        )
    Rating.objects.bulk_create(ratings)
    return ratings
