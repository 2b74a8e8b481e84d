"""Speed of Drakon random games.

Run it with::

    uv run pytest tests/catalog/drakon/test_drakon_benchmark.py --benchmark-enable -k benchmark

pytest-benchmark then prints the time per round; each round plays
``GAMES_PER_ROUND`` complete random games over 2-6 players (setup, then
``current_seats`` + ``legal_actions`` + ``apply`` with a uniform choice until
the end, no harness checks), so games per second = GAMES_PER_ROUND / Mean.
The value is also stored as ``extra_info["games_per_second"]`` (see
``--benchmark-json``). Without ``--benchmark-enable`` (the default in
pyproject) the body runs once as an ordinary test.
"""

from __future__ import annotations

import time

from games.catalog.drakon.rules import GAME
from games.engine.rng import Rng

GAMES_PER_ROUND = 20


def play_games(count: int, prefix: str) -> int:
    """Play ``count`` random games; return the number of decisions made."""
    moves = 0
    for i in range(count):
        seed = f"{prefix}-{i}"
        state = GAME.setup(2 + i % 5, {"heroes": i % 2 == 1}, seed)
        rng = Rng.from_seed("bench:" + seed)
        while not state["over"]:
            seat = GAME.current_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            state, _events = GAME.apply(state, seat, legal[rng.below(len(legal))])
            moves += 1
    return moves


def test_drakon_benchmark_random_games(benchmark):
    started = time.perf_counter()
    moves = benchmark(play_games, GAMES_PER_ROUND, "bench")
    elapsed = time.perf_counter() - started
    assert moves > GAMES_PER_ROUND * 50
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats else elapsed
    benchmark.extra_info["games_per_second"] = round(GAMES_PER_ROUND / mean, 1)
    benchmark.extra_info["moves_per_game"] = round(moves / GAMES_PER_ROUND, 1)
    print(
        f"\nDrakon: {GAMES_PER_ROUND / mean:.1f} random games/s, {moves / GAMES_PER_ROUND:.0f} decisions/game"
    )
