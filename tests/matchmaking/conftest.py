"""Quick-match requests made through the services, as players make them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from matchmaking import services

DAY = timedelta(days=1)


@pytest.fixture
def ask():
    """``ask(user, game, counts, ...)``: a request with a clock of 1 to 7
    days, rated, any rating, unless told otherwise."""

    def make(user, game_key="nogi", counts=(2,), **kw):
        kw.setdefault("clock_min", DAY)
        kw.setdefault("clock_max", 7 * DAY)
        return services.request(user, game_key=game_key, counts=counts, **kw)

    return make


@pytest.fixture
def players(make_user):
    """Eight players, p0 … p7."""
    return [make_user(f"p{i}") for i in range(8)]
