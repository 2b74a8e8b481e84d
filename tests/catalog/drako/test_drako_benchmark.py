"""Speed of Drako random games.

Run it with::

    uv run pytest tests/catalog/drako/test_drako_benchmark.py --benchmark-enable -k benchmark

pytest-benchmark prints the time per round; each round plays ``GAMES_PER_ROUND``
complete random games (setup, then legal_actions + apply until the end, no
harness checks), so games per second = GAMES_PER_ROUND / Mean. The value is
also stored as ``extra_info["games_per_second"]``. Without ``--benchmark-enable``
(the default in pyproject) the body runs once as an ordinary test.
"""

from __future__ import annotations

import time

from games.catalog.drako.rules import GAME
from games.engine.rng import Rng

GAMES_PER_ROUND = 20


def play_games(count: int, prefix: str) -> int:
    moves = 0
    options = GAME.option_matrix(2)
    for i in range(count):
        seed = f"{prefix}-{i}"
        state = GAME.setup(2, options[i % len(options)], seed)
        rng = Rng.from_seed("bench:" + seed)
        while state["phase"] != "over":
            seat = GAME.current_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            state, _events = GAME.apply(state, seat, legal[rng.below(len(legal))])
            moves += 1
    return moves


def test_drako_benchmark_random_games(benchmark):
    started = time.perf_counter()
    moves = benchmark(play_games, GAMES_PER_ROUND, "bench")
    elapsed = time.perf_counter() - started
    assert moves > GAMES_PER_ROUND * 20
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats else elapsed
    benchmark.extra_info["games_per_second"] = round(GAMES_PER_ROUND / mean, 1)
    benchmark.extra_info["moves_per_game"] = round(moves / GAMES_PER_ROUND, 1)
