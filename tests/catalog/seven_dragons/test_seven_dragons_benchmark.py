"""Speed of Seven Dragons random games, as a ratio to Nogi's measured in the same run.

Run it with::

    uv run pytest tests/catalog/seven_dragons/test_seven_dragons_benchmark.py --benchmark-enable -s

pytest-benchmark prints the time per round; each round plays ``GAMES_PER_ROUND``
complete random games (2 to 5 players in turn, over the option matrix; setup,
then legal_actions + apply until the end, no harness checks), so games per
second = GAMES_PER_ROUND / Mean. The same number of random Nogi games is then
timed once as the baseline (the machine is shared, so only a ratio from one
run compares), and both rates and their ratio are printed and stored in
``extra_info``. Without ``--benchmark-enable`` (the default in pyproject) the
body runs once as an ordinary test.
"""

from __future__ import annotations

import time

from games.catalog.seven_dragons.rules import GAME
from games.engine.rng import Rng
from tests.catalog.nogi.test_nogi_benchmark import play_games as play_nogi_games

GAMES_PER_ROUND = 20


def play_games(count: int, prefix: str) -> int:
    """Play ``count`` random games; return the number of decisions made."""
    moves = 0
    options = GAME.option_matrix(2)
    for i in range(count):
        seed = f"{prefix}-{i}"
        state = GAME.setup(2 + i % 4, options[i % len(options)], seed)
        rng = Rng.from_seed("bench:" + seed)
        while not state["over"]:
            seat = state["active"]
            legal = GAME.legal_actions(state, seat)
            state, _events = GAME.apply(state, seat, legal[rng.below(len(legal))])
            moves += 1
    return moves


def test_seven_dragons_benchmark_random_games(benchmark):
    started = time.perf_counter()
    moves = benchmark(play_games, GAMES_PER_ROUND, "bench")
    elapsed = time.perf_counter() - started
    assert moves > GAMES_PER_ROUND * 20
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats else elapsed
    started = time.perf_counter()
    play_nogi_games(GAMES_PER_ROUND, "bench")
    baseline = time.perf_counter() - started
    rate, base_rate = GAMES_PER_ROUND / mean, GAMES_PER_ROUND / baseline
    benchmark.extra_info["games_per_second"] = round(rate, 1)
    benchmark.extra_info["moves_per_game"] = round(moves / GAMES_PER_ROUND, 1)
    benchmark.extra_info["nogi_games_per_second"] = round(base_rate, 1)
    benchmark.extra_info["ratio_to_nogi"] = round(rate / base_rate, 3)
    print(
        f"\nSeven Dragons {rate:.1f} games/s ({moves / GAMES_PER_ROUND:.1f} decisions per game); "
        f"Nogi {base_rate:.1f} games/s in the same run; ratio {rate / base_rate:.3f}"
    )
