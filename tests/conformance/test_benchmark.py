"""Speed of every registered game's random games: the kit's benchmark.

Run it with::

    uv run pytest tests/conformance/test_benchmark.py --benchmark-enable -s       # every game
    uv run pytest tests/conformance/test_benchmark.py --benchmark-enable -s -k "drako and not drakon"

pytest-benchmark prints the time per round; each round plays
``GAMES_PER_ROUND`` complete random games spread over the game's player counts
and option matrix (``kit.spread``: Nogi's are 2 to 7 players in turn), with
``current_seats`` + ``legal_actions`` + ``apply`` and a uniform choice until
the end, no harness checks. Games per second = ``GAMES_PER_ROUND`` / Mean,
stored as ``extra_info["games_per_second"]`` with the decisions per game.
The same number of random Nogi games is timed once in the same run as the
baseline (``extra_info["ratio_to_nogi"]``), because the shared machine's load
moves every absolute figure. Without ``--benchmark-enable`` (the default in
pyproject) the body runs once as an ordinary test: every game still ends.
"""

from __future__ import annotations

import time

import pytest

from games.engine import registry
from games.engine.rng import Rng
from tests.conformance.kit import GAME_KEYS, spread

GAMES_PER_ROUND = 20
#: Far beyond the longest game of any registered game: a game that does not
#: end fails instead of hanging the benchmark.
MAX_DECISIONS = 5_000


def play_games(key: str, count: int, prefix: str) -> int:
    """Play ``count`` random games of ``key`` to their end; return the decisions made."""
    game = registry.get(key)
    decisions = 0
    for i, (n_players, options) in enumerate(spread(game, count)):
        seed = f"{prefix}-{i}"
        state = game.setup(n_players, options, seed)
        rng = Rng.from_seed("bench:" + seed)
        for _step in range(MAX_DECISIONS):
            seats = game.current_seats(state)
            if not seats:
                break
            seat = seats[0]
            legal = game.legal_actions(state, seat)
            state, _events = game.apply(state, seat, legal[rng.below(len(legal))])
            decisions += 1
        assert game.result(state) is not None, f"{key} game {seed} did not end"
    return decisions


@pytest.mark.parametrize("key", GAME_KEYS)
def test_random_games_benchmark(benchmark, key):
    started = time.perf_counter()
    decisions = benchmark(play_games, key, GAMES_PER_ROUND, "bench")
    elapsed = time.perf_counter() - started
    assert decisions >= GAMES_PER_ROUND, "every game takes at least one decision"
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats else elapsed
    rate = GAMES_PER_ROUND / mean
    benchmark.extra_info["games_per_second"] = round(rate, 1)
    benchmark.extra_info["decisions_per_game"] = round(decisions / GAMES_PER_ROUND, 1)
    line = f"\n{key}: {rate:.1f} random games/s, {decisions / GAMES_PER_ROUND:.1f} decisions/game"
    if stats and key != "nogi":
        started = time.perf_counter()
        play_games("nogi", GAMES_PER_ROUND, "bench")
        base_rate = GAMES_PER_ROUND / (time.perf_counter() - started)
        benchmark.extra_info["nogi_games_per_second"] = round(base_rate, 1)
        benchmark.extra_info["ratio_to_nogi"] = round(rate / base_rate, 3)
        line += f"; Nogi {base_rate:.1f} games/s in the same run, ratio {rate / base_rate:.3f}"
    print(line)
